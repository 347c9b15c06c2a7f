//! `empires sensitivity` and `empires solve` on a case with a known answer:
//! in `tests/fixtures/only-mines.toml` the gold from mines is exactly the
//! river mine's multiplier times a sum of dice that does not depend on it
//! (the players build the same mines on the same seeds whatever the
//! yield, and never spend gold). So the solver's root and the screening's
//! effects are known in closed form from one measurement at multiplier 1.

use crate::play_cli::bin;
use empires::balance::sensitivity::{self, Plan};
use empires::balance::solve::{Goal, Located, PointPlayers, Settings, SolveError, solve};
use empires::balance::{metric_named, per_campaign};
use empires::scenario::param::{self, Param};
use empires::scenario::{Scenario, Source, load_str};
use std::path::PathBuf;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/only-mines.toml");
const CAMPAIGNS: u64 = 60;

fn miners() -> Scenario {
    load_str(&std::fs::read_to_string(FIXTURE).unwrap(), &Source::file(FIXTURE)).unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-balance-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Mean gold from mines per player at river multiplier `m`.
fn gold_at(sc: &Scenario, m: f64) -> f64 {
    gold_at_n(sc, m, CAMPAIGNS)
}

fn gold_at_n(sc: &Scenario, m: f64, campaigns: u64) -> f64 {
    let p = Param::parse("economy.mine.river.mult", sc).unwrap();
    let mut s = sc.clone();
    p.set(&mut s, m);
    let metric = metric_named(sc, "gold from mines").unwrap();
    let v = per_campaign(&s, &metric, 1, campaigns, false).unwrap();
    v.iter().sum::<f64>() / v.len() as f64
}

/// The fixture is what the tests below assume: gold from mines is linear
/// in the multiplier, through 0.
#[test]
fn the_fixture_gold_from_mines_is_linear_in_the_multiplier() {
    let sc = miners();
    let g1 = gold_at(&sc, 1.0);
    assert!(g1 > 10.0, "the players build river mines: {g1}");
    for m in [2.0, 7.0, 23.0] {
        assert!((gold_at(&sc, m) - m * g1).abs() < 1e-6 * m * g1, "at {m}");
    }
}

/// The solver finds the known crossing of `gold from mines = (15 + 1/4)
/// g1`: between the whole values 15 and 16, both played and reported with
/// their gaps; it writes 15, the one nearer the target in units of its
/// standard error, where the target holds within noise. The interval holds
/// the crossing, and the target is tested at 15 on held-out seeds.
#[test]
fn solve_finds_the_known_multiplier() {
    let sc = miners();
    let g1 = gold_at(&sc, 1.0);
    let param = Param::parse("economy.mine.river.mult=1..40", &sc).unwrap();
    let goal = Goal::parse(&format!("gold from mines = {}", 15.25 * g1), &sc).unwrap();
    let settings =
        Settings { campaigns: CAMPAIGNS, master: 1, rotate: false, max_steps: 12, seating: PointPlayers::AsSeated };
    let s = solve(&sc, std::slice::from_ref(&param), std::slice::from_ref(&goal), settings, |_| {}).unwrap();
    let f = &s.found;
    let Located::Bracket(bracket) = &f.located else { panic!("one key is bracketed: {f:?}") };
    assert!((bracket.root - 15.25).abs() < 1e-9, "{f:?}");
    let (a, b) = bracket.between.clone().unwrap();
    assert_eq!((a.x[0], b.x[0], f.value[0]), (15.0, 16.0, 15.0));
    assert!((a.gap[0] + 0.25 * g1).abs() < 1e-6 * g1 && (b.gap[0] - 0.75 * g1).abs() < 1e-6 * g1, "{f:?}");
    assert!(f.at_value.gap[0].abs() <= 1.96 * f.at_value.gap_se[0], "the written value meets the target: {f:?}");
    let iv = f.interval.as_ref().unwrap()[0];
    assert!(iv.lo <= 15.25 && 15.25 <= iv.hi, "{f:?}");
    assert!(iv.lo > 14.0 && iv.hi < 17.0, "the interval is the noise's, not the range's: {f:?}");
    // Bisection: about log2(40) evaluations, each value once.
    assert!(f.evals.len() <= 14, "{} evaluations", f.evals.len());
    assert_eq!(s.confirm.eval.x, [15.0]);
    let h = &s.confirm.eval;
    assert_eq!(s.confirm.met, h.gap[0].abs() <= 1.96 * h.gap_se[0], "{:?}", s.confirm);
    assert_eq!(param.set_flag(&s.scenario), "economy.mine.river=2D6x15");
}

/// A target the key cannot reach is no root, naming both ends and the best
/// point played.
#[test]
fn solve_says_no_root_for_a_target_out_of_reach() {
    let sc = miners();
    let param = Param::parse("economy.mine.river.mult=1..5", &sc).unwrap();
    let goal = Goal::parse("gold from mines = 1000000", &sc).unwrap();
    let settings = Settings { campaigns: 20, master: 1, rotate: false, max_steps: 12, seating: PointPlayers::AsSeated };
    let e = solve(&sc, std::slice::from_ref(&param), std::slice::from_ref(&goal), settings, |_| {}).unwrap_err();
    assert!(matches!(e, SolveError::NoRoot(_)), "{e}");
    let e = e.to_string();
    assert!(e.starts_with("no root found: "), "{e}");
    assert!(e.contains("not met anywhere in economy.mine.river.mult=1..5"), "{e}");
    assert!(e.contains("the best point evaluated is economy.mine.river.mult=5"), "{e}");
}

/// Morris on the fixture: the river multiplier's effect over its whole
/// range 5..15 is exactly 10 g1 on every move (σ 0), and keys that cannot
/// act (the pillage dice, which nobody may use; the stall label) score 0.
#[test]
fn sensitivity_gives_the_known_effects() {
    let sc = miners();
    let g1 = gold_at(&sc, 1.0);
    let keys: Vec<String> =
        ["economy.mine.river.mult=5..15", "economy.pillage.count=1..3", "campaign.stall_seasons=0..8"]
            .map(String::from)
            .to_vec();
    let plan = Plan {
        params: param::parse_list(&keys, &sc).unwrap(),
        metric: metric_named(&sc, "gold from mines").unwrap(),
        trajectories: 4,
        campaigns: CAMPAIGNS,
        master: 1,
        rotate: false,
        sobol_rows: 0,
    };
    let points = sensitivity::play_morris(&sc, &plan, (0, 1), |_| {}).unwrap();
    assert_eq!(points.len(), 4 * 4);
    let e = sensitivity::morris_effects(&plan, &points);
    assert_eq!(e[0].input, 0, "the river multiplier ranks first: {e:?}");
    assert!((e[0].mu_star - 10.0 * g1).abs() < 1e-6 * g1 && (e[0].mu - 10.0 * g1).abs() < 1e-6 * g1, "{e:?}");
    assert!(e[0].sigma.abs() < 1e-6 * g1, "{e:?}");
    assert!(e[0].above_noise());
    for x in &e[1..] {
        assert_eq!((x.mu_star, x.sigma), (0.0, 0.0), "{x:?}");
        assert!(!x.above_noise());
    }
}

/// Shards split the trajectories; merged, they give the unsharded ranking
/// exactly.
#[test]
fn sensitivity_shards_merge_to_the_whole() {
    let common = [
        "sensitivity",
        "--scenario",
        FIXTURE,
        "--metric",
        "gold from mines",
        "--inputs",
        "economy.mine.river.mult=5..15,costs.capture=1..3",
        "--trajectories",
        "3",
        "--campaigns",
        "20",
        "--quiet",
    ];
    let whole = tmp("whole");
    let o = bin().args(common).arg("--out").arg(&whole).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut dirs = Vec::new();
    for i in 0..2 {
        let d = tmp(&format!("shard{i}"));
        let o = bin().args(common).args(["--shard", &format!("{i}/2")]).arg("--out").arg(&d).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).contains("--merge"));
        dirs.push(d);
    }
    let merged = tmp("merged");
    let o = bin().args(common).arg("--merge").args(&dirs).arg("--out").arg(&merged).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = |d: &PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join("sensitivity.json")).unwrap()).unwrap()
    };
    let (a, b) = (json(&whole), json(&merged));
    assert_eq!(a["keys"], b["keys"]);
    assert_eq!(a["design_points"], 9);
    for f in ["sensitivity.parquet", "points.parquet", "index.html", "ranked.svg", "mu_sigma.svg"] {
        assert!(merged.join(f).exists(), "{f}");
    }
    // Shards of another seed are not this design.
    let o = bin()
        .args(common)
        .args(["--seed", "2"])
        .arg("--merge")
        .args(&dirs)
        .arg("--out")
        .arg(tmp("seed2"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another --seed"), "{}", String::from_utf8_lossy(&o.stderr));
    // One shard alone is not the whole design.
    let o = bin().args(common).arg("--merge").arg(&dirs[0]).arg("--out").arg(tmp("half")).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Morris points"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The CLI writes the solved scenario, which loads and holds the solution,
/// and the `--set` flag that gives it.
#[test]
fn solve_cli_writes_the_patched_scenario_and_the_flag() {
    let out = tmp("solve");
    let g1 = gold_at_n(&miners(), 1.0, 20);
    let o = bin()
        .args(["solve", "--scenario", FIXTURE, "--range", "economy.mine.river.mult=1..30"])
        .args(["--target", &format!("gold from mines = {}", 12.0 * g1), "--campaigns", "20", "--quiet"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("--set economy.mine.river=2D6x12"), "{stdout}");
    let text = std::fs::read_to_string(out.join("solved.toml")).unwrap();
    assert!(text.starts_with("# Solved by: empires solve"), "{text}");
    let solved = load_str(&text, &Source::file("solved.toml")).unwrap();
    assert_eq!(format!("{}", solved.economy.mine.river.unwrap()), "2D6x12");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("solve.json")).unwrap()).unwrap();
    assert_eq!(json["solution"], 12.0);
    assert_eq!(json["status"], "root found");
    // The held-out check tests the target at the written value: the
    // held-out gap's interval holds 0.
    assert_eq!(json["confirm"]["met"], true);
    assert_eq!(json["confirm"]["evaluation"]["value"], 12.0);
    let iv = json["confirm"]["gap_interval"].as_array().unwrap();
    assert!(iv[0].as_f64().unwrap() <= 0.0 && 0.0 <= iv[1].as_f64().unwrap(), "{iv:?}");
    // Not rejecting the target is not showing it met: the check says at how
    // many campaigns, and what gap it would have caught.
    assert!(!stdout.contains("met there") && !stdout.contains("met too"), "{stdout}");
    assert!(stdout.contains("the target is not rejected at 20 campaigns (power 80% against a gap of ±"), "{stdout}");
    assert!(json["confirm"]["verdict"].as_str().unwrap().starts_with("not rejected at 20 campaigns"));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("on held-out seeds the target is not rejected at 20 campaigns"), "{page}");
    // What the held-out campaigns' players never did: one line, the same in
    // the text, the JSON and the page's answer.
    let never = json["never_played"].as_str().unwrap();
    assert!(never.starts_with("Never played: in its 20 campaigns its players ("), "{never}");
    assert!(stdout.lines().any(|l| l.trim() == never), "{stdout}");
    assert!(page.contains(&format!("{never}.")), "{page}");
    for f in ["evaluations.parquet", "index.html", "gap.svg"] {
        assert!(out.join(f).exists(), "{f}");
    }
}

/// Bad input exits 2 with the reason.
#[test]
fn bad_balance_flags_exit_2_with_a_reason() {
    let cases: &[(&[&str], &str)] = &[
        (&["sensitivity", "--metric", "fun", "--inputs", "costs.capture"], "unknown metric"),
        (&["sensitivity", "--metric", "mean empire size", "--inputs", "costs.captur"], "not a numeric key"),
        (&["solve", "--range", "costs.capture", "--target", "mean empire size = 3"], "KEY=LO..HI"),
        (&["solve", "--range", "costs.capture=0..9", "--target", "mean empire size"], "METRIC = VALUE"),
        (&["solve", "--range", "initiative.pool=0..99", "--target", "mean empire size = 3"], "0..60"),
    ];
    for (args, want) in cases {
        let o = bin().args(*args).args(["--campaigns", "4", "--quiet"]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// `empires check` holds a solved value: the known root of the fixture
/// (multiplier 12.25 for 12.25 g1) passes bounds around it, fails bounds
/// its whole interval misses (exit 1), and a `solve` without a range is a
/// located error (exit 2).
#[test]
fn check_holds_a_solved_value() {
    let dir = tmp("check");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(FIXTURE, dir.join("only-mines.toml")).unwrap();
    let g1 = gold_at_n(&miners(), 1.0, 40);
    let file = |min: f64, max: f64, vary: &str| {
        let text = format!(
            "[[metric]]\nname = \"river multiplier\"\nscenario = \"only-mines.toml\"\ncampaigns = 40\nsolve = {{ vary = \"{vary}\", target = \"gold from mines = {}\" }}\nmin = {min}\nmax = {max}\n",
            12.25 * g1
        );
        let p = dir.join(format!("balance-{min}-{max}.toml"));
        std::fs::write(&p, text).unwrap();
        p
    };
    let o = bin().arg("check").arg(file(11.0, 13.5, "economy.mine.river.mult=1..30")).output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("12.2500"), "the known root: {stdout}");
    let o = bin().arg("check").arg(file(20.0, 25.0, "economy.mine.river.mult=1..30")).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stdout));
    let o = bin().arg("check").arg(file(1.0, 2.0, "economy.mine.river.mult")).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("balance-1-2.toml:5:") && err.contains("KEY=LO..HI"), "{err}");
}

/// Two keys and one target give the balance curve: on the fixture a key
/// that cannot act leaves the river multiplier's known root, 12.25, at
/// every point of the curve; each solved point is written as a scenario.
#[test]
fn solve_cli_curve_has_the_known_root_at_every_point() {
    let out = tmp("curve");
    let g1 = gold_at_n(&miners(), 1.0, 20);
    let o = bin()
        .args(["solve", "--scenario", FIXTURE])
        .args(["--range", "campaign.stall_seasons=0..6", "--range", "economy.mine.river.mult=1..30"])
        .args(["--target", &format!("gold from mines = {}", 12.25 * g1), "--campaigns", "20", "--curve-points", "3"])
        .args(["--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("curve.json")).unwrap()).unwrap();
    let points = json["points"].as_array().unwrap();
    assert_eq!(points.iter().map(|p| p["first"].as_f64().unwrap()).collect::<Vec<_>>(), vec![0.0, 3.0, 6.0]);
    for p in points {
        assert!((p["root"].as_f64().unwrap() - 12.25).abs() < 1e-9, "{p}");
        assert_eq!(p["solution"], 12.0);
    }
    for f in ["curve.parquet", "solved-1.toml", "solved-3.toml", "index.html", "curve.svg"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let s3 = std::fs::read_to_string(out.join("solved-3.toml")).unwrap();
    let sc = load_str(&s3, &Source::file("solved-3.toml")).unwrap();
    assert_eq!((sc.campaign.stall_seasons, format!("{}", sc.economy.mine.river.unwrap())), (6, "2D6x12".to_string()));
}

/// A target no value in the range meets: `solve` says "no root found"
/// with the best point played and its gap, writes no scenario, and exits 1.
#[test]
fn solve_cli_without_a_root_exits_1() {
    let out = tmp("noroot");
    let o = bin()
        .args(["solve", "--scenario", FIXTURE, "--range", "economy.mine.river.mult=1..5"])
        .args(["--target", "gold from mines = 1000000", "--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("no root found: ") && stdout.contains("the best point evaluated is"), "{stdout}");
    assert!(stderr.contains("no root found"), "{stderr}");
    assert!(!out.join("solved.toml").exists());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("solve.json")).unwrap()).unwrap();
    assert_eq!(json["status"], "no root found");
    assert_eq!(json["best"]["value"], 5.0);
}

/// Two keys and two targets on the engine, a target no point meets (an
/// empire of 1,000 hexes): "no root found" with the best point played and
/// both gaps, exit 1. (The known-answer, region and coverage tests of the
/// two-key search are in `balance::solve`.)
#[test]
fn solve_cli_two_targets_without_a_root_exits_1() {
    let out = tmp("two");
    let o = bin()
        .args(["solve", "--range", "economy.pillage.mult=5..40", "--range", "costs.capture=1..5"])
        .args(["--target", "share of gold from mines = 0.5", "--target", "mean empire size = 1000"])
        .args(["--campaigns", "40", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("no root found: ") && stdout.contains("the best point evaluated is"), "{stdout}");
    assert!(!out.join("solved.toml").exists());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("solve.json")).unwrap()).unwrap();
    assert_eq!(json["status"], "no root found");
    assert!(json["best"]["gaps"][1].as_f64().unwrap() < -900.0, "{}", json["best"]);
}

/// A restricted-play target: forbidding what the fixture's players never
/// do changes no game, so the value is exactly 0 at every multiplier, and
/// the target "value = 0" holds over the whole range (interval open at
/// both ends). But a target whose gap is the same in every campaign says
/// nothing: the held-out check rejects the solution as degenerate.
#[test]
fn solve_with_a_restriction_value_target() {
    let sc = miners();
    let param = Param::parse("economy.mine.river.mult=1..9", &sc).unwrap();
    let goal = Goal::parse("value of forbid conquer against only_mines = 0", &sc).unwrap();
    let settings = Settings { campaigns: 20, master: 1, rotate: false, max_steps: 12, seating: PointPlayers::AsSeated };
    let s = solve(&sc, std::slice::from_ref(&param), std::slice::from_ref(&goal), settings, |_| {}).unwrap();
    assert!(s.found.evals.iter().all(|e| e.gap == [0.0] && e.gap_se == [0.0]), "{:?}", s.found.evals);
    let iv = s.found.interval.as_ref().unwrap()[0];
    assert_eq!((s.found.value[0], iv.lo, iv.hi), (1.0, 1.0, 9.0));
    assert!(iv.open == [true, true]);
    assert!(s.confirm.vacuous, "the root's place is not confirmed: {:?}", s.confirm);
    assert!(!s.confirm.met, "{:?}", s.confirm);
    assert_eq!(
        s.confirm.degenerate.as_deref(),
        Some("value of forbid conquer against only_mines has the same gap in every held-out campaign")
    );
}

/// Two keys and two targets with a known root on the fixture: gold from
/// mines is the river multiplier times a sum of dice that depends on the
/// capture cost only, and the mean empire size depends on the capture cost
/// only (over 1..2: from 3 on the players capture nothing). Targets
/// measured at (12, 2) on the search's seeds have their root
/// there exactly: the solver writes it, the region holds it, and the
/// held-out check decides the exit code.
#[test]
fn solve_cli_two_targets_with_a_known_root() {
    let sc = miners();
    let mut at = sc.clone();
    Param::parse("costs.capture", &sc).unwrap().set(&mut at, 2.0);
    Param::parse("economy.mine.river.mult", &sc).unwrap().set(&mut at, 1.0);
    let mean = |m: &str, sc: &Scenario| {
        let v = per_campaign(sc, &metric_named(sc, m).unwrap(), 1, 20, false).unwrap();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (gold, size) = (mean("gold from mines", &at), mean("mean empire size", &at));
    let out = tmp("two-known");
    let o = bin()
        .args(["solve", "--scenario", FIXTURE])
        .args(["--range", "economy.mine.river.mult=1..30", "--range", "costs.capture=1..2"])
        .args(["--target", &format!("gold from mines = {}", 12.0 * gold)])
        .args(["--target", &format!("mean empire size = {size}"), "--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("solve.json")).unwrap()).unwrap();
    assert_eq!(json["status"], "root found", "{stdout}{stderr}");
    assert_eq!(json["solution"], serde_json::json!([12.0, 2.0]), "{stdout}");
    assert_eq!(json["region"]["solution_inside"], true);
    assert!(json["region"]["points"].as_array().unwrap().contains(&serde_json::json!([12.0, 2.0])));
    assert!(stdout.contains("95% confidence region") && stdout.contains("--set economy.mine.river=2D6x12"), "{stdout}");
    let met = json["confirm"]["met"].as_bool().unwrap();
    assert_eq!(o.status.code(), Some(if met { 0 } else { 1 }), "{stdout}{stderr}");
    let text = std::fs::read_to_string(out.join("solved.toml")).unwrap();
    let solved = load_str(&text, &Source::file("solved.toml")).unwrap();
    assert_eq!((solved.costs.capture, format!("{}", solved.economy.mine.river.unwrap())), (2, "2D6x12".to_string()));
}

/// `solve --best-response`: at each point the solve plays, every seat plays
/// the start re-tuned in self-play under that point's rules (under the
/// start's own name, so targets naming it name the re-tuned player), on the
/// best-response search seed, and the result says so.
#[test]
fn solve_best_response_retunes_the_players_at_each_point() {
    use empires::balance::scenario_with;
    use empires::balance::solve::scenario_at;
    use empires::strength::best_response::tuning_seed;
    use empires::strength::best_response::{Budget as Tune, tune_from};
    use empires::strength::tune::Field;
    let duel = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let sc = load_str(&std::fs::read_to_string(&duel).unwrap(), &Source::file(&duel)).unwrap();
    let tune = Tune {
        generations: 8,
        per_eval: 100,
        population: Some(6),
        sigma: 0.1,
        probe_campaigns: 0,
        family: Default::default(),
    };
    let seating = PointPlayers::BestResponse { start: "tuned".into(), budget: tune.clone() };
    let settings = Settings { campaigns: 20, master: 1, rotate: true, max_steps: 4, seating };
    let param = Param::parse("costs.capture=1..3", &sc).unwrap();
    let at = |x: f64| scenario_at(&sc, std::slice::from_ref(&param), &[x], &settings).unwrap();
    let (one, three) = (at(1.0), at(3.0));
    // Each point's players are the search's answer under that point's
    // rules (which may be the start itself where no generation beat it on
    // the reference campaigns: `Problem::best_by_reference`).
    let start = sc.strategy("tuned").unwrap();
    for (x, s) in [(1.0, &one), (3.0, &three)] {
        assert!(s.players.iter().all(|p| p.strategy == "tuned"), "{:?}", s.players);
        let rules = scenario_with(&sc, std::slice::from_ref(&param), &[x]).unwrap();
        let expected = tune_from(&rules, &start, Field::SelfPlay, tuning_seed(1), &tune).unwrap().0;
        assert_eq!(s.strategy("tuned"), Some(expected), "tuned under the rules at {x}, on the search seed");
    }
    assert!(
        one.strategy("tuned") != sc.strategy("tuned") || three.strategy("tuned") != sc.strategy("tuned"),
        "at least one point's search moved its players"
    );
    assert_eq!(at(3.0).strategy("tuned"), three.strategy("tuned"), "a function of the point alone");

    // The result names its players, root or not.
    let goal = Goal::parse("mean empire size = 12", &sc).unwrap();
    let line = match solve(&sc, std::slice::from_ref(&param), std::slice::from_ref(&goal), settings.clone(), |_| {}) {
        Ok(s) => s.players,
        Err(SolveError::NoRoot(u)) => u.players,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(line, settings.seating.line(1));
    let line = line.unwrap();
    assert!(line.contains("tuned re-tuned in self-play") && line.contains("player family: weighted"), "{line}");
    assert!(line.contains(&format!("search seed {}", tuning_seed(1))), "{line}");
    assert_eq!(PointPlayers::AsSeated.line(1), None);

    // The player tuned at the solved point gets the competence check, on
    // the held-out seed; as seated, or with no probe campaigns, none.
    let solved = at(1.0);
    let probed =
        PointPlayers::BestResponse { start: "tuned".into(), budget: Tune { probe_campaigns: 6, ..tune.clone() } };
    let c = probed.check(&solved, 1).unwrap().expect("checked");
    assert_eq!((c.strategy.as_str(), c.scenario.as_str(), c.field.as_deref()), ("tuned", "duel", None));
    let family = empires::strength::probe::family(&Default::default()).len();
    assert_eq!((c.campaigns, c.rows.len()), (6, family), "{c:?}");
    assert_eq!(probed.check_planned(), (family as u64 + 1) * 6);
    assert_eq!(PointPlayers::AsSeated.check(&solved, 1).unwrap(), None);
    assert_eq!(
        PointPlayers::BestResponse { start: "tuned".into(), budget: tune.clone() }.check(&solved, 1).unwrap(),
        None
    );

    let out = tmp("solve-br");
    let o = bin()
        .args(["solve", "--scenario", &duel, "--range", "costs.capture=1..3", "--target", "mean empire size = 17"])
        .args(["--campaigns", "20", "--best-response", "--generations", "1", "--campaigns-per-eval", "10"])
        .args(["--probe-campaigns", "20", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("players: tuned re-tuned in self-play under the rules at each point played (1 generations, 10 campaigns a candidate"), "{text}");
    assert!(
        text.contains("--best-response --generations 1 --campaigns-per-eval 10 --probe-campaigns 20"),
        "the redo line: {text}"
    );
    assert!(text.contains("at the solved point, players: tuned (weighted), over-use check on duel: "), "{text}");
    let json = std::fs::read_to_string(out.join("solve.json")).unwrap();
    assert!(json.contains("\"players\": \"players: tuned re-tuned"), "{json}");
    assert!(json.contains("\"line\": \"players: tuned (weighted), over-use check on duel: "), "{json}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        page.contains("At the solved point, players: tuned (weighted), over-use check on duel: "),
        "the answer says whose"
    );
    // The budget flags mean nothing without --best-response.
    let o = bin()
        .args(["solve", "--range", "costs.capture=1..3", "--target", "mean empire size = 12", "--generations", "2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// A "solution" in which nothing happens is rejected: on the duel a capture
/// costing 6 EP or so stops the game (every campaign ends tied at the top
/// and the tie-break die picks the winner), so seat 0 wins half the time
/// and the target reads as met. The held-out check says it is degenerate
/// and why, in the terminal and in solve.json.
#[test]
fn solve_rejects_a_solution_whose_campaigns_all_tie() {
    let out = std::env::temp_dir().join(format!("empires-solve-degenerate-{}", std::process::id()));
    let o = bin()
        .args(["solve", "--scenario", "scenarios/duel.toml", "--range", "costs.capture=1..8"])
        .args(["--target", "win rate: seat 0 = 0.5", "--campaigns", "2000", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("solution: costs.capture = 6"), "{text}");
    assert!(
        text.contains(
            "the target is rejected at 2000 campaigns, as degenerate: 2000 of 2000 held-out campaigns end tied at \
             the top and the tie-break die picks the winner"
        ),
        "{text}"
    );
    let json = std::fs::read_to_string(out.join("solve.json")).unwrap();
    assert!(json.contains("as degenerate: 2000 of 2000"), "{json}");
    // And it names why: nobody captured, built a castle or conquered there.
    let never = text.lines().find(|l| l.trim_start().starts_with("Never played: in its 2000 campaigns")).unwrap();
    for part in ["captured (0)", "built a castle (0)", "conquered (0)"] {
        assert!(never.contains(part), "{part}: {never}");
    }
    let _ = std::fs::remove_dir_all(&out);
}
