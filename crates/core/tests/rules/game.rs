//! G-30 through the game API (`rules::Game`, after OpenSpiel's `State`):
//! random games of every shipped scenario, played one move at a time, with
//! the checks of OpenSpiel's random-simulation test at every move.

use empires_core::map::Map;
use empires_core::rules::invariants::at_decision;
use empires_core::rules::setup::{initial_state, make_map};
use empires_core::rules::{
    Action, Decision, Engine, Game, Illegal, Move, NoLog, Node, PlayerId, RngDice, Rules, State, Step,
};
use empires_core::scenario::{Scenario, Source, load_str};
use empires_core::seed;
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// Every scenario the project ships (the strategy and gate files are not
/// scenarios).
fn shipped() -> Vec<(String, Scenario)> {
    ["default.toml", "duel.toml", "archipelago.toml", "straits.toml"]
        .iter()
        .map(|f| {
            let path = format!("{}/../../scenarios/{f}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            (f.to_string(), load_str(&text, &Source::file(&path)).unwrap_or_else(|e| panic!("{e}")))
        })
        .collect()
}

/// A move drawn the way a random player and fair dice would.
fn random_move(g: &Game<'_>, rng: &mut Pcg64Mcg) -> Move {
    match g.node() {
        Node::Chance { sides } => Move::Chance(rng.random_range(1..=sides)),
        Node::Decision { .. } => {
            let legal = g.legal_actions();
            Move::Action(legal[rng.random_range(0..legal.len())])
        }
        Node::Terminal => unreachable!("no move at the end"),
    }
}

/// An action no decision ever lists: no bid reaches 255 initiative.
const NEVER_LEGAL: Action = Action::Bid(255);

/// Play `g` to its end with moves from `rng`, checking at every move what
/// OpenSpiel's random-simulation test checks: the invariants hold at every
/// decision, illegal moves are refused and change nothing, chance outcomes
/// are a distribution. At `copy_at` moves a copy is taken; it is played on
/// with a copy of the move stream and must end identically.
fn play_checked<'a>(name: &str, mut g: Game<'a>, rng: &mut Pcg64Mcg, copy_at: usize) -> Game<'a> {
    let r = g.rules();
    let mut moves = 0usize;
    let mut copy = None;
    while !g.is_terminal() {
        match g.node() {
            Node::Decision { player, decision } => {
                assert_eq!(g.current_player(), Some(player));
                assert!(!g.legal_actions().is_empty(), "{name}: a decision without actions");
                if let Err(e) = at_decision(r, g.state(), decision) {
                    panic!("{name}: move {moves}, {decision:?}: {e}");
                }
                assert!(g.chance_outcomes().is_empty());
            }
            Node::Chance { sides } => {
                assert_eq!(g.current_player(), None);
                assert!(g.legal_actions().is_empty());
                let p: f64 = g.chance_outcomes().iter().map(|o| o.1).sum();
                assert!((p - 1.0).abs() < 1e-12 && g.chance_outcomes().len() == sides as usize);
                let before = (g.node(), g.history().len());
                assert_eq!(g.apply_chance(0), Err(Illegal::NoSuchFace { face: 0, sides }));
                assert_eq!(g.apply_chance(sides + 1), Err(Illegal::NoSuchFace { face: sides + 1, sides }));
                assert!(matches!(g.apply(Action::Done), Err(Illegal::WrongNode { .. })));
                assert_eq!((g.node(), g.history().len()), before, "{name}: a refused face changed the game");
            }
            Node::Terminal => unreachable!(),
        }
        if let Node::Decision { .. } = g.node() {
            let before = (g.node(), g.history().len(), g.state().clone());
            assert!(matches!(g.apply(NEVER_LEGAL), Err(Illegal::NotLegal { .. })), "{name}: an illegal bid was played");
            assert!(matches!(g.apply_chance(1), Err(Illegal::WrongNode { .. })));
            assert_eq!(
                (g.node(), g.history().len(), g.state().clone()),
                before,
                "{name}: a refused action changed the game"
            );
        }
        if moves == copy_at {
            copy = Some((g.clone(), rng.clone()));
        }
        let m = random_move(&g, rng);
        g.play(m).unwrap_or_else(|e| panic!("{name}: a listed move was refused: {e}"));
        moves += 1;
    }
    assert!(g.legal_actions().is_empty() && g.current_player().is_none());
    assert!(matches!(g.apply(Action::Done), Err(Illegal::WrongNode { .. })));
    let returns = g.returns();
    assert_eq!(returns.iter().sum::<f64>(), 1.0, "{name}: one seat wins");
    assert_eq!(returns[g.outcome().unwrap().winner() as usize], 1.0);
    let Some((mut c, mut crng)) = copy else { panic!("{name}: over before move {copy_at}") };
    {
        while !c.is_terminal() {
            let m = random_move(&c, &mut crng);
            c.play(m).unwrap();
        }
        assert_eq!(c.state(), g.state(), "{name}: a copy taken at move {copy_at} ended elsewhere");
        assert_eq!(c.outcome(), g.outcome());
        assert_eq!(c.history(), g.history());
    }
    g
}

/// G-30: random games of every shipped scenario through the API: legal
/// actions only, illegal ones refused, every die a chance node, the
/// invariants at every decision, a copy taken mid-game plays on to the
/// same end, and the history replays the game exactly.
#[test]
fn g30_random_games_of_every_shipped_scenario_through_the_game_api() {
    for (name, sc) in shipped() {
        for campaign in 0..16u64 {
            let cs = seed::campaign_seed(30, campaign);
            let map = make_map(&sc, cs).unwrap();
            let r = Rules::new(&sc, &map);
            let mut rng = Pcg64Mcg::new(cs as u128 | 1 << 64);
            let copy_at = rng.random_range(0..60usize);
            let g = play_checked(&name, Game::new(r, initial_state(r)), &mut rng, copy_at);
            assert!(g.outcome().unwrap().seasons >= 1);
            let chances = g.history().iter().filter(|m| matches!(m, Move::Chance(_))).count();
            assert!(chances > 0, "{name}: a campaign without dice");
            let again = Game::replay(r, initial_state(r), g.history()).expect("the history replays");
            assert_eq!(again.state(), g.state(), "{name}: the replay ended elsewhere");
            assert_eq!(again.outcome(), g.outcome());
        }
    }
}

/// One campaign through the fast door (a loop over the engine, which rolls
/// from the dice stream itself) and through the game API (the driver draws
/// each chance node's face from the same stream), with players that pick
/// uniformly from one stream: the same game, to the last field.
fn both_doors(sc: &Scenario, map: &Map, cs: u64) {
    let r = Rules::new(sc, map);
    let pick = || Pcg64Mcg::new(seed::rng(cs, seed::Stream::Map).random::<u128>());
    let dice = || RngDice(seed::rng(cs, seed::Stream::Dice));

    let mut fast = initial_state(r);
    let mut e = Engine::new(r, dice(), NoLog);
    let mut players = pick();
    let reason = loop {
        match e.next_decision(&mut fast) {
            Some(_) => {
                let a = e.options()[players.random_range(0..e.options().len())];
                e.apply(&mut fast, a);
            }
            None if fast.step == Step::Over => break fast.ended.unwrap(),
            None => {}
        }
    };
    let outcome = e.finish(&mut fast, reason);

    let mut g = Game::with_log(r, initial_state(r));
    let (mut d, mut players) = (dice(), pick());
    while !g.is_terminal() {
        let m = match g.node() {
            Node::Chance { sides } => Move::Chance(empires_core::rules::Dice::roll(&mut d, sides)),
            Node::Decision { .. } => Move::Action(g.legal_actions()[players.random_range(0..g.legal_actions().len())]),
            Node::Terminal => unreachable!(),
        };
        g.play(m).unwrap();
    }
    assert_eq!(g.state(), &fast);
    assert_eq!(g.outcome(), Some(&outcome));
    assert!(!g.events().is_empty());
}

/// G-30 / G-31: through either door a campaign is the same game.
#[test]
fn g30_the_game_api_and_the_engine_play_the_same_campaign() {
    for (_, sc) in shipped() {
        for campaign in 0..3u64 {
            let cs = seed::campaign_seed(31, campaign);
            let map = make_map(&sc, cs).unwrap();
            both_doors(&sc, &map, cs);
        }
    }
}

/// Every defender's bid of four random campaigns of the default scenario
/// met after an attacker's bid with a choice: `f` is handed the two games
/// that differ only in the attacker's bid (the lowest and the highest it
/// could make), both resting at the defender's bid, the defender, and the
/// two bids. How many there were.
fn at_defenders_bids(mut f: impl FnMut(Rules<'_>, &Game<'_>, &Game<'_>, PlayerId, [u8; 2])) -> usize {
    let (_, sc) = shipped().remove(0);
    let mut met = 0;
    for campaign in 0..4 {
        let map = make_map(&sc, seed::campaign_seed(7, campaign)).unwrap();
        let r = Rules::new(&sc, &map);
        let mut rng = Pcg64Mcg::new(7 + campaign as u128);
        let mut g = Game::new(r, initial_state(r));
        while !g.is_terminal() {
            if let Node::Decision { decision: Decision::Bid { attacking: true, .. }, .. } = g.node()
                && let [Action::Bid(lowest), .., Action::Bid(highest)] = *g.legal_actions()
            {
                let (mut low, mut high) = (g.clone(), g.clone());
                low.apply(Action::Bid(lowest)).unwrap();
                high.apply(Action::Bid(highest)).unwrap();
                // A defender that cannot bid goes straight to the dice.
                if let Node::Decision { player, decision: Decision::Bid { attacking: false, .. } } = low.node() {
                    assert_eq!(high.node(), low.node());
                    f(r, &low, &high, player, [lowest, highest]);
                    met += 1;
                }
            }
            let m = random_move(&g, &mut rng);
            g.play(m).unwrap();
        }
    }
    met
}

/// G-07: the attacker's bid is secret. At the defender's bid, what the
/// defender is handed (`Game::observation`) and the whole position are
/// equal, compared with `==`, whether the attacker bid its least or its
/// most, and so are the defender's options; the referee's game still
/// fights each with its real bid.
#[test]
fn g07_what_the_defender_sees_is_equal_whatever_the_attacker_bid() {
    let met = at_defenders_bids(|_, low, high, defender, [lowest, highest]| {
        assert_ne!(low.history(), high.history());
        assert!(low.observation(defender) == high.observation(defender), "the observations differ");
        assert!(low.state() == high.state(), "the states differ");
        assert_eq!(low.legal_actions(), high.legal_actions());
        // The referee's games fight the real bids: the same defender's bid
        // and the same faces, and each record carries its own.
        for (g, bid) in [(low, lowest), (high, highest)] {
            let mut g = g.clone();
            g.apply(g.legal_actions()[0]).unwrap();
            while g.is_chance_node() {
                g.apply_chance(1).unwrap();
            }
            assert_eq!(g.state().fight.rec.a.bid, bid as i32);
        }
    });
    assert!(met > 0, "no defender's bid in four random campaigns");
}

/// G-07, the attack a player could try: copy the position it is handed at
/// the defender's bid, play each defender's bid on the copy with an engine
/// of its own, and read the attacker's bid in the combat's record. What it
/// reads is the same whether the attacker bid its least or its most (the
/// copies end equal, `==`): 0 when its engine is given no guess, and the
/// guess it is given otherwise (`Engine::assume_attacker_bid`, the
/// determinization a search makes), never the real bid.
#[test]
fn g07_playing_on_from_what_the_defender_sees_reads_no_bid() {
    let met = at_defenders_bids(|r, low, high, defender, [lowest, highest]| {
        let play_on = |g: &Game<'_>, a: Action, guess: Option<i32>| -> State {
            let mut copy = g.observation(defender).state().clone();
            let mut e = Engine::new(r, RngDice(Pcg64Mcg::new(1)), NoLog);
            if let Some(b) = guess {
                e.assume_attacker_bid(b);
            }
            e.apply(&mut copy, a);
            copy
        };
        for &a in low.legal_actions() {
            for guess in [None, Some(lowest as i32), Some(highest as i32), Some(2)] {
                let (from_low, from_high) = (play_on(low, a, guess), play_on(high, a, guess));
                assert!(from_low == from_high, "{a:?}, guess {guess:?}: the copies differ");
                assert_eq!(from_low.fight.rec.a.bid, guess.unwrap_or(0), "{a:?}: the bid read is not the guess");
            }
        }
    });
    assert!(met > 0, "no defender's bid in four random campaigns");
}
