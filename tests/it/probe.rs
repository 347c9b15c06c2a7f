//! The competence check (`strength::probe`, `empires probe`): gifts follow
//! the probed slot round the seats, a player that overuses an action is
//! caught by the restriction that forbids it, and the verdict line is the
//! same in the terminal, the text file and the page.

use crate::play_cli::bin;
use empires::rules::setup::{Gift, make_map};
use empires::scenario::Scenario;
use empires::seed::campaign_seed;
use empires::sim::lineup::Lineup;
use empires::strength::probe::{self, Settings, Verdict};

/// Campaign `i` of a lineup with a gift to slot 0 is the game played with
/// the gift handed to the seat slot 0 sits in that campaign (seat
/// (0 − i) mod n): the gift follows the player, not the seat.
#[test]
fn a_gift_follows_the_probed_slot_round_the_seats() {
    let sc = Scenario::embedded_default();
    let spec = sc.strategy("tuned").unwrap();
    let n = sc.players.len();
    let lineup = Lineup::new(&sc, &vec![spec; n]).unwrap().with_gift(0, Gift::Gold(500));
    let names: Vec<String> = (0..n).map(|k| format!("lineup slot {k}")).collect();
    let mut with = sc.clone();
    for (k, name) in names.iter().enumerate() {
        with.strategies.insert(name.clone(), sc.strategy("tuned").unwrap());
        with.players[k].strategy = name.clone();
    }
    for i in 0..8u64 {
        let cs = campaign_seed(11, i);
        let map = make_map(&with, cs).unwrap();
        let shift = (i % n as u64) as usize;
        let seated: Vec<&str> = (0..n).map(|s| names[(s + shift) % n].as_str()).collect();
        let seat = ((n - shift) % n) as u8;
        let gifts = [(seat, Gift::Gold(500))];
        let st = empires::sim::Campaign::new(&with, cs).on(&map).seats(&seated).gifts(&gifts).play().state;
        let g = lineup.games(11, i..i + 1).unwrap()[0];
        assert_eq!(g.print, empires::sim::lineup::fingerprint(&st), "campaign {i}: the gift went to seat {seat}");
        let plain = Lineup::new(&sc, &vec![sc.strategy("tuned").unwrap(); n]).unwrap();
        assert_ne!(g.print, plain.games(11, i..i + 1).unwrap()[0].print, "campaign {i}: 500 gold changes the game");
    }
}

/// `setup::give` puts each gift where it says, and refuses a ship with no
/// sea next to the capital.
#[test]
fn each_gift_lands_where_it_says() {
    use empires::rules::Rules;
    use empires::rules::setup::{give, initial_state};
    let sc = Scenario::embedded_default();
    let map = make_map(&sc, campaign_seed(3, 0)).unwrap();
    let r = Rules::new(&sc, &map);
    let st0 = initial_state(r);
    let mut st = st0.clone();
    assert!(give(r, &mut st, 1, Gift::Gold(500)));
    assert_eq!(st.players[1].gold, st0.players[1].gold + 500);
    assert!(give(r, &mut st, 1, Gift::Units(2)));
    let army = st.armies.iter().position(|a| a.owner == 1).unwrap();
    assert_eq!(st.armies[army].units, st0.armies[army].units + 2);
    assert!(give(r, &mut st, 1, Gift::Spies(1)));
    assert_eq!(st.spies.len(), st0.spies.len() + 1);
    assert_eq!(st.spies.last().map(|s| (s.owner, s.hex)), Some((1, map.placements.capitals[1])));
    assert!(give(r, &mut st, 1, Gift::Ep(1)));
    assert_eq!(st.players[1].ep_gift, 1);
    let coastal =
        map.adjacent(map.placements.capitals[2]).any(|h| map.terrain[h as usize] == empires::map::Terrain::Sea);
    let mut s2 = st0.clone();
    assert_eq!(give(r, &mut s2, 2, Gift::Ships(1)), coastal);
    assert_eq!(s2.ships.len(), st0.ships.len() + coastal as usize);
    // The other players are untouched.
    assert_eq!(st.players[0], st0.players[0]);
}

/// The EP gift comes on top of the first season's earnings, once.
#[test]
fn an_ep_gift_is_spent_in_the_first_season_only() {
    use empires::rules::Driver;
    use empires::rules::setup::{give, initial_state};
    use empires::rules::{NoLog, RngDice, Rules};
    let sc = Scenario::embedded_default();
    let map = make_map(&sc, campaign_seed(3, 1)).unwrap();
    let r = Rules::new(&sc, &map);
    let mut st = initial_state(r);
    give(r, &mut st, 0, Gift::Ep(3));
    let seats = empires::strategy::Seats::named(&sc, 5, &["balanced"; 4]);
    let mut e = Driver::new(r, RngDice(empires::seed::rng(5, empires::seed::Stream::Dice)), seats, NoLog);
    e.play_season(&mut st);
    assert_eq!(st.players[0].ep_gift, 0, "used up in season 1");
    // Spent or lost like any EP (E-05): what player 0 spent and lost is its
    // earnings plus the gift.
    let t = st.players[0].tally;
    let used = t.ep_capture + t.ep_conquer + t.ep_build + t.ep_pillage + t.ep_lost;
    assert_eq!(used, t.ep_earned + 3);
}

/// A player that builds a mine whenever it can (tuned with `mine` raised
/// far above every other purchase) is caught: forbidding mines makes it
/// win more, so the check says "bounded by the players" and names that
/// probe; the gold gift is not one it fails.
#[test]
fn a_player_that_overbuilds_mines_is_bounded_by_the_players() {
    let mut sc = Scenario::embedded_default();
    let mut miner = sc.strategy("tuned").unwrap();
    miner.mine = 60.0;
    sc.strategies.insert("mine_mad".into(), miner);
    let probes = probe::on_topics(&Settings::default(), Some(&["mine"]));
    let c = probe::check(&sc, "mine_mad", probes, Settings::default(), 17, 400).unwrap();
    assert_eq!(c.verdict(), Verdict::Bounded, "{}", c.line());
    let failed: Vec<&str> = c.failed().iter().map(|r| r.probe.name.as_str()).collect();
    assert!(failed.contains(&"no mine"), "{}", c.line());
    assert!(c.line().starts_with(
        "players: mine_mad (weighted), over-use check on default: bounded by the players: fails no mine +"
    ));
    assert_eq!(c.verdict_on(&["mine"]), Verdict::Bounded);
    assert_eq!(c.verdict_on(&["spies"]), Verdict::Untested, "no probe on spies was played");
}

/// A hole no single probe sees: a player that attacks only an army 8
/// strength points weaker than its own (`aggression = 8`) hardly ever
/// attacks, so forbidding an attack changes little it does, and the gift
/// and restriction probes find no over-use. A best response tunes every
/// key at once against copies of it (on seeds of its own), finds a player
/// that wins more, and, played on the probes' seeds, beats it:
/// "bounded by the players", on every topic, because a player that can be
/// beaten so is no ground for any answer.
#[test]
fn a_best_response_finds_the_hole_no_single_probe_sees() {
    let mut sc = empires::scenario::load_str(
        include_str!("../../scenarios/duel.toml"),
        &empires::scenario::Source::file("duel.toml"),
    )
    .unwrap();
    let mut timid = sc.strategy("tuned").unwrap();
    timid.aggression = 8.0;
    sc.strategies.insert("timid".into(), timid.clone());
    let single = probe::on_topics(&Settings::default(), Some(&["gold", "units"]));
    let c = probe::check(&sc, "timid", single.clone(), Settings::default(), 23, 4000).unwrap();
    assert_eq!(c.verdict(), Verdict::NoOverUse, "{}", c.line());
    assert!(c.line().contains("no over-use found: no gift costs it") && c.line().contains("not strength"));

    let budget = probe::BestResponse::default();
    let (br, played) = probe::best_response(&sc, "timid", 23, budget).unwrap();
    assert_eq!(played, budget.campaigns(sc.players.len()), "the tuning plays what the bar plans");
    assert_eq!(br.name, "best response (all keys, 40 × 15 × 1000 campaigns)");
    let probe::Test::Play(player) = &br.test else { panic!("a best response plays a player") };
    assert_ne!(**player, timid, "the best response moved from the start");

    let mut probes = single;
    probes.push(br);
    let c = probe::check(&sc, "timid", probes, Settings::default(), 23, 2000).unwrap();
    assert_eq!(c.verdict(), Verdict::Bounded, "{}", c.line());
    let failed: Vec<&str> = c.failed().iter().map(|r| r.probe.name.as_str()).collect();
    assert_eq!(failed, vec!["best response (all keys, 40 × 15 × 1000 campaigns)"], "{}", c.line());
    assert_eq!(c.verdict_on(&["mine"]), Verdict::Bounded, "a best response bears on every answer");
}

/// A weighted player's best response is the only kind the probe tunes.
#[test]
fn the_probe_command_refuses_a_best_response_for_a_search() {
    let out =
        bin().args(["probe", "--strategy", "search", "--best-response-probe", "--campaigns", "4"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--best-response-probe tunes a weighted player's keys; \"search\" is a Search player"),
        "{err}"
    );
}

/// A gift with no place (a ship where no sea touches a capital: the duel
/// island's capitals stand inland) changes no game and is left out of the
/// test: it is no evidence either way.
#[test]
fn a_gift_with_no_place_changes_no_game() {
    use empires::rules::Rules;
    use empires::rules::setup::{give, initial_state};
    let sc = empires::scenario::load_str(
        include_str!("../../scenarios/duel.toml"),
        &empires::scenario::Source::file("duel.toml"),
    )
    .unwrap();
    let map = make_map(&sc, 0).unwrap();
    let r = Rules::new(&sc, &map);
    for p in 0..2 {
        assert!(!give(r, &mut initial_state(r), p, Gift::Ships(1)), "player {p}'s capital touches no sea");
    }
    let probes: Vec<_> = probe::family(&Settings::default()).into_iter().filter(|p| p.name == "gift: 1 ship").collect();
    let c = probe::check(&sc, "balanced", probes, Settings::default(), 21, 24).unwrap();
    assert_eq!(c.rows[0].changed, 0);
    assert!(!c.rows[0].tested() && !c.rows[0].fails);
    assert_eq!(c.verdict(), Verdict::Untested);
    assert!(c.line().contains("no probe changed a game"), "{}", c.line());
}

/// `empires probe` prints the verdict line first, writes it as the page's
/// answer and into probe.txt, and `--strict` exits 1 on "bounded".
#[test]
fn the_probe_command_states_its_verdict_first_everywhere() {
    let dir = std::env::temp_dir().join(format!("empires-probe-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = bin()
        .args(["probe", "--strategy", "balanced", "--topics", "mine,pillage", "--campaigns", "40", "--quiet", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = said.lines().next().unwrap();
    assert!(first.starts_with("players: balanced (weighted), over-use check on default: "), "{said}");
    assert!(first.contains("found with 80% power at Holm's level"), "{first}");
    assert!(first.contains("probes × 40 campaigns, seed 1, the probed player in each seat in turn"), "{first}");
    let txt = std::fs::read_to_string(dir.join("probe.txt")).unwrap();
    assert_eq!(txt.lines().next(), Some(first));
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains(&empires::report::html::esc(first)), "the page's answer is the same line");
    let csv = std::fs::read_to_string(dir.join("probe.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 3, "gift: 500 gold, no mine, no pillage");
    std::fs::remove_dir_all(&dir).unwrap();

    let o = bin().args(["probe", "--topics", "dance", "--campaigns", "4"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(empires::cli::exit::BAD_INPUT), "{err}");
    assert!(err.contains("--topics: \"dance\" is not a topic"), "{err}");
}

/// A resource's worth is asked both ways (`experiment worth`), so a gift
/// can be negative: gold and units are taken, never below what the player
/// has (an army keeps a unit), and a mine-able hex is planted next to the
/// capital, the first free one in map order.
#[test]
fn negative_gifts_take_and_a_mine_able_hex_is_planted_next_to_the_capital() {
    use empires::rules::Rules;
    use empires::rules::setup::{give, initial_state};
    let sc = Scenario::embedded_default();
    let map = make_map(&sc, campaign_seed(3, 0)).unwrap();
    let r = Rules::new(&sc, &map);
    let st0 = initial_state(r);
    let mut st = st0.clone();
    assert_eq!(st.players[1].gold, 100);
    assert!(!give(r, &mut st, 1, Gift::Gold(-101)), "more gold than it has");
    assert!(give(r, &mut st, 1, Gift::Gold(-100)));
    assert_eq!(st.players[1].gold, 0);
    let army = st.armies.iter().position(|a| a.owner == 1).unwrap();
    assert_eq!(st.armies[army].units, 3);
    assert!(!give(r, &mut st, 1, Gift::Units(-3)), "an army keeps one unit");
    assert!(give(r, &mut st, 1, Gift::Units(-1)));
    assert_eq!(st.armies[army].units, 2);
    assert!(give(r, &mut st, 1, Gift::Ep(-1)));
    assert_eq!(st.players[1].ep_gift, -1);
    assert!(!give(r, &mut st, 1, Gift::Spies(-1)), "nothing else is taken");
    // The hex: for each player, the first unheld river or mountain hex next
    // to its capital in map order, or no gift where there is none.
    for p in 0..sc.players.len() as u8 {
        let cap = map.placements.capitals[p as usize];
        let want = map.adjacent(cap).find(|&h| {
            sc.buildings.mine.terrain.contains(map.terrain[h as usize]) && st0.hexes[h as usize].owner().is_nobody()
        });
        let mut s = st0.clone();
        assert_eq!(give(r, &mut s, p, Gift::MineableHexes(1)), want.is_some(), "player {p}");
        if let Some(h) = want {
            assert!(s.hexes[h as usize].owner().is(p));
            assert_eq!(s.banners().count(p), st0.banners().count(p) + 1);
        } else {
            assert_eq!(s, st0);
        }
    }
}

/// E-05 with a negative gift: one EP fewer than the first season earns,
/// never below none.
#[test]
fn e05_a_negative_ep_gift_takes_from_the_first_seasons_earnings() {
    use empires::rules::Driver;
    use empires::rules::setup::{give, initial_state};
    use empires::rules::{NoLog, RngDice, Rules};
    let sc = Scenario::embedded_default();
    let map = make_map(&sc, campaign_seed(3, 1)).unwrap();
    let r = Rules::new(&sc, &map);
    let mut st = initial_state(r);
    give(r, &mut st, 0, Gift::Ep(-1));
    let seats = empires::strategy::Seats::named(&sc, 5, &["balanced"; 4]);
    let mut e = Driver::new(r, RngDice(empires::seed::rng(5, empires::seed::Stream::Dice)), seats, NoLog);
    e.play_season(&mut st);
    let t = st.players[0].tally;
    let used = t.ep_capture + t.ep_conquer + t.ep_build + t.ep_pillage + t.ep_lost;
    assert!(t.ep_earned >= 1, "a first season earns at least the peace EP");
    assert_eq!(used, t.ep_earned - 1);
}

/// A mixture's stated exploitability is three numbers, low ≤ estimate ≤
/// high, and only a mixture states one; the over-use line quotes it.
#[test]
fn a_mixtures_exploitability_is_checked_and_quoted_beside_the_check() {
    use empires::scenario::load::{Source, load_str};
    let base = "name = \"x\"\n[[players]]\nname = \"p0\"\nstrategy = \"eq\"\n[[players]]\nname = \"p1\"\nstrategy = \"eq\"\n[strategies.eq]\nkind = \"mixture\"\n\
                members = [\"tuned\"]\n";
    let bad = load_str(&format!("{base}exploitability = [1.0, 2.0, 3.0]\n"), &Source::file("x.toml"));
    let err = bad.unwrap_err().to_string();
    assert!(err.contains("strategies.eq.exploitability") && err.contains("low <= estimate <= high"), "{err}");
    let ok = load_str(&format!("{base}exploitability = [0.3, -0.6, 1.3]\n"), &Source::file("x.toml")).unwrap();
    let eq = ok.strategy("eq").unwrap();
    assert_eq!(eq.stated_exploitability(), Some([0.3, -0.6, 1.3]));
    let c = probe::check(&ok, "eq", probe::on_topics(&Settings::default(), Some(&["ep"])), Settings::default(), 3, 20)
        .unwrap();
    assert_eq!(c.exploitability, Some([0.3, -0.6, 1.3]));
    assert!(c.strength().contains("beats it by +0.3 points [-0.6, +1.3]"), "{}", c.strength());
    let lone = load_str(
        "[[players]]\nname = \"p2\"\nstrategy = \"tuned\"\n[[players]]\nname = \"p3\"\nstrategy = \"tuned\"\n[strategies.w]\nexploitability = [0.0, 0.0, 0.0]\n",
        &Source::file("y.toml"),
    );
    assert!(lone.unwrap_err().to_string().contains("belong to a kind = \"mixture\" strategy"));
}
