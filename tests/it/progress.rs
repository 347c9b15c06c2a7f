//! A long command's progress bar is as long as the work it does: for each
//! study, the `planned` count that sizes the bar (written next to the
//! study's loops) equals the campaigns its loops report to the watch.

use empires::scenario::Scenario;
use empires::scenario::knobs::KNOBS;
use empires::sim::watch::Watch;
use empires::strength::best_response;
use empires::strength::{deviation, ladder, metagame};
use empires::study::{compare, mine_pillage, restrict, sweep, worth};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// `f` run on a pool under a watch, and the campaigns the watch was told of.
fn counted<T: Send>(f: impl FnOnce() -> T + Send) -> (T, u64) {
    let n = Arc::new(AtomicU64::new(0));
    let c = n.clone();
    let w = Watch::new(move |k| _ = c.fetch_add(k, Ordering::SeqCst), || false, None);
    let r = w.pool(2).unwrap().install(f);
    (r, n.load(Ordering::SeqCst))
}

fn names(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

#[test]
fn ladder_and_metagame_play_what_they_plan() {
    let sc = Scenario::embedded_default();
    let ns = names(&["random", "balanced", "miner"]);
    let (l, n) = counted(|| ladder::ladder(&sc, &ns, "random", 3, 6, 100));
    l.unwrap();
    assert_eq!(n, ladder::planned(3, 6));
    assert_eq!(n, 3 * 6);
    let two = names(&["random", "balanced"]);
    let comps = metagame::compositions_of(&sc, &two).unwrap();
    let (m, n) = counted(|| metagame::play(&sc, &two, 3, 4, 0..comps));
    m.unwrap();
    assert_eq!(n, metagame::planned(comps, 4));
    assert_eq!(n, 5 * 4, "2 strategies over 4 seats: 5 compositions");
}

#[test]
fn deviate_plays_the_strategy_and_each_deviant() {
    let sc = Scenario::embedded_default();
    let keys = vec![KNOBS[0].key.to_string()];
    let (d, n) = counted(|| deviation::check(&sc, "balanced", 4.0, Some(&keys), 3, 4));
    d.unwrap();
    let planned = deviation::planned(&sc, "balanced", 4.0, Some(&keys), 4);
    assert_eq!(n, planned);
    assert!(planned >= 2 * 4, "the strategy itself and at least one deviant");
}

#[test]
fn compare_sweep_and_restrict_play_what_they_plan() {
    let sc = Scenario::embedded_default();
    let mut b = sc.clone();
    b.players.truncate(sc.players.len());
    let (c, n) = counted(|| compare::compare(("a", &sc), ("b", &b), 3, 5, true));
    c.unwrap();
    assert_eq!(n, compare::planned(&sc, &b, 5, None));
    let axes = vec![sweep::parse_axis("economy.pillage=1D6x10,2D6x10,3D6x10").unwrap()];
    let (s, n) = counted(|| {
        sweep::run::<empires::rules::setup::SetupError>(&axes, 3, 4, Default::default(), |cell| {
            let sets: Vec<(String, String)> = cell.to_vec();
            Ok(empires::scenario::load_with_overrides(
                empires::scenario::DEFAULT_TOML,
                &empires::scenario::Source::embedded("default.toml"),
                &sets,
            )
            .unwrap())
        })
    });
    s.unwrap();
    assert_eq!(n, sweep::planned(&axes, 4));
    assert_eq!(n, 3 * 4);
    let r = restrict::Restriction::new(vec![empires::scenario::ActionKind::Mine], vec![]).unwrap();
    let levels = names(&["random", "balanced"]);
    let (s, n) = counted(|| restrict::run(&sc, &r, "balanced", &levels, 3, 4, None));
    s.unwrap();
    assert_eq!(n, restrict::planned(&sc, &r, 2, 4, None));
    assert_eq!(n, 2 * 2 * 4 + 2 * 3 * 4, "two levels: the naive pair and the check (baseline, gift: gold, no mine)");
}

#[test]
fn a_best_response_plays_its_whole_tuning_budget_at_most() {
    let sc = Scenario::embedded_default().with_players("balanced").unwrap();
    let budget = best_response::Budget {
        generations: 1,
        per_eval: 4,
        population: Some(3),
        sigma: 0.1,
        probe_campaigns: 0,
        family: Default::default(),
    };
    let (r, n) = counted(|| best_response::retuned(&sc, "balanced", 3, &budget));
    let r = r.unwrap();
    assert_eq!(n, r.played, "what the search says it played is what it played");
    // One generation runs whole, (1 × (3 + 1) + 1) × 4, then `keep_unexercised`
    // plays 4 reference campaigns and 4 for each key the search moved: the
    // plan counts every key, an upper bound.
    assert!(n >= 5 * 4 + 4 && n <= best_response::tuning_planned(&sc, &budget), "{n}");
    assert_eq!(
        best_response::tuning_planned(&sc, &budget),
        5 * 4 + 4 * (1 + empires::scenario::knobs::KNOBS.len() as u64)
    );
    assert!(r.competence.is_none(), "no probe campaigns, no check");
    // With probes, the tuned player's competence check follows, the whole family.
    let budget = best_response::Budget { probe_campaigns: 4, ..budget };
    let (r, n) = counted(|| best_response::retuned(&sc, "balanced", 3, &budget));
    let r = r.unwrap();
    assert_eq!(n, r.played + best_response::check_planned(&budget));
    let c = r.competence.expect("checked");
    assert_eq!((c.strategy.as_str(), c.campaigns), (best_response::BEST_RESPONSE, 4));
}

#[test]
fn mine_vs_pillage_plays_what_it_plans() {
    let mixed = Scenario::embedded_default();
    let (x, n) = counted(|| mine_pillage::run(&mixed, 3, 4, true));
    x.unwrap();
    assert_eq!(n, mine_pillage::planned(&mixed, 4));
    let same = mixed.with_players("balanced").unwrap();
    let (x, n) = counted(|| mine_pillage::run(&same, 3, 4, false));
    assert!(!x.unwrap().solo.is_empty(), "one strategy in every seat: the restricted player alone too");
    assert_eq!(n, mine_pillage::planned(&same, 4));
    let (l, n) = counted(|| mine_pillage::measure_loss(&mixed, "balanced", 3, 4));
    l.unwrap();
    assert_eq!(n, 4);
    let (r, n) = counted(|| mine_pillage::run_readings(&mixed, "balanced", 3, 3));
    r.unwrap();
    assert_eq!(n, mine_pillage::readings_planned(3));
}

#[test]
fn the_gate_plays_what_it_plans_for_each_kind_of_metric() {
    let dir = std::env::temp_dir().join(format!("empires-planned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = r#"
[[metric]]
name = "plain"
campaigns = 6
quantity = "share of gold from mines"
min = 0.0

[[metric]]
name = "a variant"
campaigns = 5
quantity = "share of gold from mines"
variant = ["economy.pillage=3D6x10"]
min = -1.0

[[metric]]
name = "seats"
campaigns = 7
quantity = "max seat deviation"
max = 1.0

[[metric]]
name = "restriction"
campaigns = 4
quantity = "restriction value"
players = "balanced"
forbid = ["mine"]
min = -1.0

[[metric]]
name = "meta"
campaigns = 3
quantity = "equilibrium: random"
strategies = ["random", "balanced"]
min = 0.0

[[metric]]
name = "exact"
table = { kind = "siege", attacker = 3, defender = 3, value = "win" }
baseline = 0.4166666666666667
"#;
    let file = empires::gate::spec::parse(text, "planned.toml").unwrap();
    for m in &file.metric {
        let (r, n) = counted(|| empires::gate::measure_sample(m, &dir, None));
        r.unwrap_or_else(|e| panic!("{}: {e}", m.name));
        assert_eq!(n, empires::gate::planned(m, &dir), "{}", m.name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn worth_plays_what_it_plans() {
    let sc = Scenario::embedded_default();
    let asks = worth::asks(&sc).len() as u64;
    let (w, n) = counted(|| worth::run(&sc, &names(&["balanced"]), "balanced", 3, 4, None));
    w.unwrap();
    assert_eq!(n, worth::planned(&sc, 1, 4, None));
    assert_eq!(n, (asks + 1) * 4, "one candidate: its baseline and each ask");
    // Several: the selection, then each ask and a baseline per chosen
    // candidate; the plan counts a baseline for each, the most there can be.
    let (w, n) = counted(|| worth::run(&sc, &names(&["balanced", "miner"]), "balanced", 3, 4, None));
    w.unwrap();
    let select = 2 * (asks + 1) * 4;
    assert!(n >= select + (asks + 1) * 4 && n <= worth::planned(&sc, 2, 4, None), "{n}");
    // Fitted with each gift: the tunings (at most their plan), then every
    // ask has two candidates to select between.
    let b = best_response::Budget {
        generations: 1,
        per_eval: 4,
        population: Some(2),
        sigma: 0.1,
        probe_campaigns: 0,
        family: best_response::Family::Weighted,
    };
    let (w, n) = counted(|| worth::run(&sc, &names(&["balanced"]), "balanced", 3, 4, Some(&b)));
    let played = w.unwrap().fitted.unwrap().played;
    let select = (asks + 1) * 4 + asks * 2 * 4;
    assert!(played > 0 && played <= asks * best_response::tuning_given_planned(&sc, &b), "{played}");
    assert!(n >= played + select + (asks + 1) * 4 && n <= worth::planned(&sc, 1, 4, Some(&b)), "{n}");
}
