//! Property tests: invariants at every decision of many random campaigns of
//! every shipped scenario (the folder is read, not listed), with random and
//! weighted players in random seats.

use empires::rules::setup::{initial_state, make_map};
use empires::rules::{
    Action, Decision, Engine, Event, NoLog, Observation, PlayerId, RngDice, Rules, State, invariants,
};
use empires::rules::{Driver, Players};
use empires::scenario::{Scenario, Source, load_str};
use empires::seed::{self, Stream};
use empires::strategy::{Seats, build};
use proptest::prelude::*;
use std::collections::HashMap;

/// Every game scenario shipped in `scenarios/`, found by reading the folder
/// (a new scenario is tested without being listed here): every `.toml` file
/// but the strategy library (`archetypes.toml`) and the balance gate files
/// (the ones made of `[[metric]]` tables).
fn shipped() -> &'static [(String, Scenario)] {
    static SHIPPED: std::sync::OnceLock<Vec<(String, Scenario)>> = std::sync::OnceLock::new();
    SHIPPED.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut out = Vec::new();
        for e in std::fs::read_dir(&dir).expect("scenarios/") {
            let path = e.expect("a folder entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".toml") || name == "archetypes.toml" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            if text.lines().any(|l| l.trim() == "[[metric]]") {
                continue;
            }
            let sc = load_str(&text, &Source::file(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((name, sc));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    })
}

/// The shipped scenario `i` (modulo their number).
fn scenario(i: usize) -> Scenario {
    let all = shipped();
    all[i % all.len()].1.clone()
}

#[test]
fn every_shipped_scenario_is_found() {
    let names: Vec<&str> = shipped().iter().map(|(n, _)| n.as_str()).collect();
    for want in ["archipelago.toml", "default.toml", "duel.toml", "straits.toml"] {
        assert!(names.contains(&want), "{want} not among {names:?}");
    }
}

/// Seats with random players where `random_mask` has a bit set.
fn seats(sc: &Scenario, cs: u64, random_mask: u8) -> Seats {
    let mut s = Seats::for_campaign(sc, cs);
    for i in 0..sc.players.len() {
        if random_mask & (1 << i) != 0 {
            let spec = sc.strategy("random").unwrap();
            s.seats[i] = build(sc, &spec, seed::rng(cs, Stream::Strategy(i as u8)));
        }
    }
    s
}

/// Records every pick, for the per-season limits, and checks the
/// invariants in the state of every decision and that every pick, which
/// the driver applies to that very state at once, is among the legal
/// actions listed again from the state alone (`Engine::is_legal`, which
/// `Engine::apply` asserts only in debug builds).
struct Recorder<'a> {
    inner: Seats,
    picks: Vec<(PlayerId, Action)>,
    /// The first invariant broken at a decision.
    broken: Option<String>,
    /// An engine of its own, so listing the options again touches nothing
    /// of the driver's.
    legal: Engine<'a, RngDice, NoLog>,
}

impl Players for Recorder<'_> {
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        let (st, p) = (obs.state(), obs.player());
        if self.broken.is_none()
            && let Err(m) = invariants::at_decision(r, st, d)
        {
            self.broken = Some(format!("at {d:?} of player {p}: {m}"));
        }
        let i = self.inner.choose(r, obs, d, options);
        assert!(i < options.len(), "strategy picked option {i} of {}", options.len());
        if self.broken.is_none() && !self.legal.is_legal(st, options[i]) {
            self.broken = Some(format!("at {d:?} of player {p}: {:?} is not a legal action", options[i]));
        }
        self.picks.push((p, options[i]));
        i
    }
}

/// One attack per army, one hostile action per spy and per city, per season.
fn season_limits(st_before: &State, picks: &[(PlayerId, Action)]) -> Result<(), String> {
    let mut army_attacks: HashMap<u16, u32> = HashMap::new();
    let mut spy_actions: HashMap<u16, u32> = HashMap::new();
    let mut city_actions: HashMap<u16, u32> = HashMap::new();
    for (_, a) in picks {
        match *a {
            Action::Attack { army, .. } | Action::Siege { army, .. } => *army_attacks.entry(army).or_default() += 1,
            Action::SpyAct { spy, target, .. } => {
                *spy_actions.entry(spy).or_default() += 1;
                if st_before.hexes[target as usize].city.get().is_some() {
                    *city_actions.entry(target).or_default() += 1;
                }
            }
            Action::SpyDuel { spy, .. } => *spy_actions.entry(spy).or_default() += 1,
            _ => {}
        }
    }
    for (what, m) in
        [("army attacks", &army_attacks), ("spy actions", &spy_actions), ("hostile actions on a city", &city_actions)]
    {
        if let Some((id, n)) = m.iter().find(|(_, n)| **n > 1) {
            return Err(format!("{n} {what} by/on {id} in one season"));
        }
    }
    Ok(())
}

/// Play one campaign, checking the invariants at every decision and after
/// every season, and the per-season limits.
fn run(sc: &Scenario, master: u64, index: u64, mask: u8) -> Result<(), TestCaseError> {
    let cs = seed::campaign_seed(master, index);
    // A generated map that cannot hold the capitals is a clean setup error
    // (exit 2 in `play`/`run`), not an engine failure: nothing to play.
    let Ok(map) = make_map(sc, cs) else { return Ok(()) };
    let rules = Rules::new(sc, &map);
    let mut st = initial_state(rules);
    invariants::check(rules, &st).map_err(TestCaseError::fail)?;
    let legal = Engine::new(rules, RngDice(seed::rng(cs, Stream::Map)), NoLog);
    let players = Recorder { inner: seats(sc, cs, mask), picks: Vec::new(), broken: None, legal };
    let mut e = Driver::new(rules, RngDice(seed::rng(cs, Stream::Dice)), players, NoLog);
    loop {
        let before = st.clone();
        e.players.picks.clear();
        let end = e.play_season(&mut st);
        if let Some(m) = e.players.broken.take() {
            return Err(TestCaseError::fail(format!("season {}: {m}", before.season)));
        }
        invariants::check(rules, &st).map_err(|m| TestCaseError::fail(format!("season {}: {m}", before.season)))?;
        season_limits(&before, &e.players.picks)
            .map_err(|m| TestCaseError::fail(format!("season {}: {m}", before.season)))?;
        prop_assert!(st.season <= sc.campaign.seasons);
        if end.is_some() {
            break;
        }
    }
    Ok(())
}

fn log_of(sc: &Scenario, master: u64, index: u64) -> Vec<Event> {
    let mut log = Vec::new();
    empires::sim::Campaign::numbered(sc, master, index).log(&mut log).play().expect("campaign");
    log
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_at_every_decision_and_after_every_season(sc_i in 0usize..64, master in any::<u64>(), index in 0u64..1000, mask in any::<u8>()) {
        run(&scenario(sc_i), master, index, mask)?;
    }

    #[test]
    fn same_seed_same_event_log(sc_i in 0usize..64, master in any::<u64>(), index in 0u64..1000) {
        let sc = scenario(sc_i);
        let a = log_of(&sc, master, index);
        let b = log_of(&sc, master, index);
        prop_assert!(!a.is_empty());
        prop_assert_eq!(a, b);
    }
}

#[test]
fn different_campaign_indices_play_differently() {
    let sc = shipped().iter().find(|(n, _)| n == "default.toml").expect("default.toml").1.clone();
    let logs: Vec<Vec<Event>> = (0..4).map(|i| log_of(&sc, 1, i)).collect();
    for i in 0..logs.len() {
        for j in i + 1..logs.len() {
            assert_ne!(logs[i], logs[j], "campaigns {i} and {j} of seed 1 are identical");
        }
    }
}

/// Set one scenario number by index; the list spans every section.
fn mutate(sc: &mut Scenario, field: u8, v: i32) {
    match field % 40 {
        0 => sc.costs.capture = v,
        1 => sc.costs.conquer = v,
        2 => sc.costs.pillage = v,
        3 => sc.costs.fortified_surcharge = v,
        4 => sc.costs.siege_win_gap = v,
        5 => sc.ep.no_battle = v,
        6 => sc.ep.team_malus = v,
        7 => sc.ep.results.massacre = v,
        8 => sc.recruit.unit = v * 25,
        9 => sc.recruit.engine = v * 25,
        10 => sc.recruit.ship = v * 25,
        11 => sc.recruit.spy = v * 25,
        12 => sc.recruit.per_hex = v.max(0) as u32,
        13 => sc.initiative.pool = v,
        14 => sc.army.bid_cap = v,
        15 => sc.army.xp_max = v,
        16 => sc.army.formations.at_xp = v,
        17 => sc.army.victory_loot = v,
        18 => sc.siege.engine_cap = v,
        19 => sc.siege.engines_needed = v,
        20 => sc.siege.level_cap = v,
        21 => sc.naval.ship_pv = v,
        22 => sc.naval.strength_per_ship = v,
        23 => sc.naval.strength_offset = v - 3,
        24 => sc.spy.base = v,
        25 => sc.spy.steal_gold = v * 10,
        26 => sc.spy.city_pv_floor = v,
        27 => sc.cities.max_pv_base = v,
        28 => sc.cities.capital.level = v,
        29 => sc.cities.stability_recover = v,
        30 => sc.movement.army = v,
        31 => sc.movement.ship = v,
        32 => sc.movement.cost.forest = v,
        33 => sc.start.gold = v * 100,
        34 => sc.start.army_units = v,
        35 => sc.start.ships = v,
        36 => sc.start.engines = v,
        37 => sc.siege.outcomes.pillage.restart_pv = v,
        38 => sc.buildings.castle.pv = v,
        _ => sc.campaign.seasons = v.max(0) as u32,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// The engine never panics on a scenario the checks accept.
    #[test]
    fn accepted_scenarios_never_panic(
        sc_i in 0usize..64,
        edits in proptest::collection::vec((any::<u8>(), -2i32..14), 1..10),
        master in any::<u64>(),
        mask in any::<u8>(),
    ) {
        let mut sc = scenario(sc_i);
        for (f, v) in edits {
            mutate(&mut sc, f, v);
        }
        if empires::scenario::check::check(&sc).is_empty() {
            run(&sc, master, 0, mask)?;
        }
    }
}
