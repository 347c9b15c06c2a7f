//! G-30 / G-31: the game API (`rules::Game`, every die a chance node) and
//! the one door (`sim::Campaign`, the engine rolling from the campaign's
//! stream) play the same campaign with the real players: the same moves,
//! the same log, the same end, for every shipped scenario, a `search`
//! seat (whose rollouts copy states mid-season) included.

use empires::rules::Players;
use empires::rules::setup::{initial_state, make_map};
use empires::rules::{Dice, Event, Game, Move, Node, RngDice, Rules};
use empires::scenario::{Scenario, Source, load_str};
use empires::seed;
use empires::sim::Campaign;
use empires::strategy::Seats;

fn shipped(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    load_str(&text, &Source::file(&path)).unwrap_or_else(|e| panic!("{e}"))
}

/// Campaign `campaign_seed` of `sc` with `names` in the seats, through both
/// doors; the number of chance nodes the game met.
fn both_doors(sc: &Scenario, campaign_seed: u64, names: &[&str]) -> usize {
    let map = make_map(sc, campaign_seed).unwrap();
    let driven = Campaign::new(sc, campaign_seed).on(&map).seats(names).log(Vec::<Event>::new()).play();

    let r = Rules::new(sc, &map);
    let mut g = Game::with_log(r, initial_state(r));
    let mut dice = RngDice(seed::rng(campaign_seed, seed::Stream::Dice));
    let mut seats = Seats::named(sc, campaign_seed, names);
    while !g.is_terminal() {
        let m = match g.node() {
            Node::Chance { sides } => Move::Chance(dice.roll(sides)),
            Node::Decision { player, decision } => {
                let i = seats.choose(r, g.observation(player), decision, g.legal_actions());
                Move::Action(g.legal_actions()[i])
            }
            Node::Terminal => unreachable!(),
        };
        g.play(m).unwrap_or_else(|e| panic!("{}: {e}", sc.name));
    }
    assert_eq!(g.state(), &driven.state, "{}: the final states differ", sc.name);
    assert_eq!(g.outcome(), Some(&driven.outcome));
    assert_eq!(g.events(), &driven.log[..], "{}: the logs differ", sc.name);
    assert_eq!(seats.taken, driven.taken);
    g.history().iter().filter(|m| matches!(m, Move::Chance(_))).count()
}

#[test]
fn g30_the_game_api_and_the_driver_play_the_same_campaigns() {
    for file in ["default.toml", "duel.toml", "archipelago.toml", "straits.toml"] {
        let sc = shipped(file);
        let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
        for i in 0..3 {
            let chances = both_doors(&sc, seed::campaign_seed(41, i), &names);
            assert!(chances > 0, "{file}: no dice");
        }
    }
}

#[test]
fn g30_a_search_seat_plays_the_same_campaign_through_the_game_api() {
    let sc = shipped("duel.toml");
    both_doors(&sc, seed::campaign_seed(42, 0), &["search", "tuned"]);
}

/// W-05 / G-30 restricted play, `hold_garrisons`: an army standing where
/// its garrison defends it never moves or sails away, though it is offered
/// such moves; the over-use check's "garrison everything" probe plays it.
#[test]
fn w05_an_army_that_holds_its_garrison_never_leaves_it() {
    let text = "name = \"hold\"\n[[players]]\nname = \"p0\"\nstrategy = \"holder\"\n[[players]]\nname = \"p1\"\nstrategy = \"warlord\"\n[[players]]\nname = \"p2\"\n\
                strategy = \"warlord\"\n[[players]]\nname = \"p3\"\nstrategy = \"warlord\"\n[strategies.holder]\n\
                extends = \"warlord\"\nhold_garrisons = true\n";
    let sc = load_str(text, &Source::file("hold.toml")).unwrap();
    let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
    let (mut offered, mut held) = (0, 0);
    for i in 0..6 {
        let cs = seed::campaign_seed(43, i);
        let map = make_map(&sc, cs).unwrap();
        let r = Rules::new(&sc, &map);
        let mut g = Game::new(r, initial_state(r));
        let mut dice = RngDice(seed::rng(cs, seed::Stream::Dice));
        let mut seats = Seats::named(&sc, cs, &names);
        while !g.is_terminal() {
            let m = match g.node() {
                Node::Chance { sides } => Move::Chance(dice.roll(sides)),
                Node::Decision { player, decision } => {
                    let leaves = |a: &empires::rules::Action| match *a {
                        empires::rules::Action::MoveArmy { army, .. }
                        | empires::rules::Action::Transport { army, .. } => {
                            empires::rules::army::garrison_defence(r, g.state(), army as usize) > 0
                        }
                        _ => false,
                    };
                    let k = seats.choose(r, g.observation(player), decision, g.legal_actions());
                    let a = g.legal_actions()[k];
                    if player == 0 {
                        offered += g.legal_actions().iter().any(|x| leaves(x)) as u32;
                        assert!(!leaves(&a), "campaign {i}: {a:?} leaves a garrison");
                        held += 1;
                    }
                    Move::Action(a)
                }
                Node::Terminal => unreachable!(),
            };
            g.play(m).unwrap();
        }
    }
    assert!(held > 0 && offered > 0, "the restriction was tested: {offered} decisions offered a march out");
}

/// Every campaign the crates play goes through the one season loop,
/// `rules::Driver`: outside the rules' own state machine (`step.rs`), the
/// loop (`driver.rs`) and the game API (`game.rs`), no product code asks
/// the engine for a decision but a rollout guessing the attacker's secret
/// bid (one decision, `strategy/rollout.rs`), and a `Driver` is built only
/// by the campaign builder (`sim::Campaign`) and the rollouts. Tests, which
/// script players of their own, are not read (from `#[cfg(test)]` on).
#[test]
fn every_campaign_is_played_by_the_one_driver() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let allowed = |needle: &str, file: &str| match needle {
        "Driver::new(" => ["crates/sim/src/sim/campaign.rs", "crates/sim/src/strategy/rollout.rs"].contains(&file),
        _ => {
            ["crates/core/src/rules/driver.rs", "crates/core/src/rules/game.rs", "crates/core/src/rules/step.rs"]
                .contains(&file)
                || (file == "crates/sim/src/strategy/rollout.rs" && needle == "next_decision(")
        }
    };
    let mut files = Vec::new();
    let mut dirs: Vec<_> = ["crates/core/src", "crates/sim/src", "src"].iter().map(|d| root.join(d)).collect();
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            match p.extension() {
                _ if p.is_dir() => dirs.push(p),
                Some(x) if x == "rs" => files.push(p),
                _ => {}
            }
        }
    }
    assert!(files.len() > 50, "the sources were read: {} files", files.len());
    let mut found = Vec::new();
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        let product = text.split("#[cfg(test)]").next().unwrap();
        let file = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        for needle in ["next_decision(", "turn_decision(", "legal_actions(st", "Driver::new("] {
            let calls = product.matches(needle).count() - product.matches(&format!("fn {needle}")).count();
            if calls > 0 && !allowed(needle, &file) {
                found.push(format!("{file}: {needle}"));
            }
        }
    }
    assert!(found.is_empty(), "a decision loop outside the one driver: {found:?}");
}
