//! `empires check`: the balance gate.

use crate::play_cli::bin;
use empires::gate::baseline::Stored;
use empires::gate::measure::{Measured, Sample};
use empires::gate::spec::{BalanceFile, parse};
use empires::gate::{Judged, Test, update};
use std::path::PathBuf;

/// Judge without stored per-campaign baselines (every baseline unpaired).
fn judge(f: &BalanceFile, samples: Vec<Sample>) -> Vec<Judged> {
    empires::gate::judge(f, samples, &Stored::default())
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-gate-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn mc(value: f64, se: f64) -> Sample {
    Measured { value, se, low: value - 1.96 * se, high: value + 1.96 * se, exact: false, campaigns: 1000 }.into()
}

#[test]
fn holm_correction_across_the_files_tests_and_tolerance_as_a_test() {
    let text = r#"
alpha = 0.05
[[metric]]
name = "a"
quantity = "mean empire size"
baseline = 10.0
[[metric]]
name = "b"
quantity = "mean empire size"
baseline = 10.0
[[metric]]
name = "c"
quantity = "mean empire size"
baseline = 10.0
tolerance = 0.5
"#;
    let f = parse(text, "b.toml").unwrap();
    // a: z = 2.5, p = 0.0124; b: z = 2, p = 0.0455; c moved 0.4 with a
    // tolerance of 0.5: p = Φ(−(0.4 − 0.5)/0.1) + Φ(−(0.4 + 0.5)/0.1) = 0.8413.
    let j = judge(&f, vec![mc(10.25, 0.1), mc(10.2, 0.1), mc(10.4, 0.1)]);
    assert!((j[0].p.unwrap() - 0.012_419).abs() < 1e-5);
    assert!((j[2].p.unwrap() - 0.841_345).abs() < 1e-5, "{:?}", j[2].p);
    // Holm: 3 · 0.0124 = 0.0373 ≤ 0.05 fails a; max(0.0373, 2 · 0.0455) = 0.091 keeps b.
    assert!((j[0].p_adj.unwrap() - 3.0 * 0.012_419).abs() < 1e-4);
    assert!((j[1].p_adj.unwrap() - 2.0 * 0.045_500).abs() < 1e-4);
    assert_eq!((j[0].pass, j[1].pass, j[2].pass), (false, true, true));
    assert!(j[0].why.contains("Holm-adjusted") && j[0].why.contains("unpaired"), "{}", j[0].why);
    assert!(matches!(j[0].test, Test::Unpaired { .. }));
    // The tolerance is tested, not compared with the point estimate: 0.8 is
    // 3 standard errors past it (p = Φ(−3) = 0.00135).
    let j = judge(&f, vec![mc(10.0, 0.1), mc(10.0, 0.1), mc(10.8, 0.1)]);
    assert!((j[2].p.unwrap() - 0.001_350).abs() < 1e-5);
    assert_eq!((j[0].pass, j[1].pass, j[2].pass), (true, true, false));
    assert!(j[2].why.contains("beyond its tolerance 0.5"), "{}", j[2].why);
    // With alpha 0.02 the family's smallest 3 · 0.0124 = 0.037 is kept.
    let f2 = parse(&text.replace("alpha = 0.05", "alpha = 0.02"), "b.toml").unwrap();
    let j = judge(&f2, vec![mc(10.25, 0.1), mc(10.2, 0.1), mc(10.0, 0.1)]);
    assert_eq!((j[0].pass, j[1].pass, j[2].pass), (true, true, true));
    assert!(j[0].why.is_empty());
    // Detectable, two-sided at 0.02 over 3 tests: (z(1 − 0.02/(2·3)) + z(0.8)) · 0.1
    // = (2.7131 + 0.8416) · 0.1.
    assert!((j[0].detectable.unwrap() - 0.355_47).abs() < 1e-4, "{:?}", j[0].detectable);
}

/// A binomial metric: `n` campaigns of which `wins` were won, measured as
/// the gate measures a win rate (mean, its standard error, Wilson interval).
fn win_rate(wins: u64, n: u64) -> Sample {
    let p = wins as f64 / n as f64;
    let sd = (p * (1.0 - p) * n as f64 / (n as f64 - 1.0)).sqrt();
    let (low, high) = empires::stats::wilson(wins as f64, n as f64, 0.95);
    Measured { value: p, se: sd / (n as f64).sqrt(), low, high, exact: false, campaigns: n }.into()
}

/// The issue's duel seat: truly at 44% against `min = 0.45`. "The whole
/// 95% interval below the bound" misses it at 8,000 campaigns (the
/// interval 42.9%–45.1% reaches the bound); the one-sided test at the bound
/// at the file's alpha (5% here) catches it. Over simulated gates the test
/// holds its error rate at the bound and has the power its "detects"
/// column states.
#[test]
fn a_seat_truly_at_44_percent_fails_min_045_one_sided_at_the_stated_rate() {
    use rand::RngExt;
    let text = "alpha = 0.05\n[[metric]]\nname = \"seat 0\"\nquantity = \"win rate: seat 0\"\nmin = 0.45\n";
    let f = parse(text, "b.toml").unwrap();
    let s = win_rate(3520, 8000);
    assert!(s.measured.low < 0.45 && s.measured.high > 0.45, "today's rule passes it: {:?}", s.measured);
    let j = &judge(&f, vec![s])[0];
    assert!(!j.pass, "{j:?}");
    assert!(j.why.contains("0.4400 is below min 0.45") && j.why.contains("one-sided p = 0.03"), "{}", j.why);
    // Inside the bound but not confirmed: a pass with a warning.
    let j = &judge(&f, vec![win_rate(3640, 8000)])[0];
    assert!(j.pass && j.warning.as_deref().unwrap().starts_with("cannot confirm ≥ 0.45"), "{j:?}");
    assert!(j.warning.as_deref().unwrap().contains("campaigns would confirm it"), "{j:?}");
    assert!(judge(&f, vec![win_rate(4000, 8000)])[0].warning.is_none());
    // Simulated: 400 gates of 16,000 campaigns each. The stated power: a
    // breach of (z(0.95) + z(0.8)) · se = 2.486 · 0.00392 = 0.98 points is
    // found 80% of the time, so a true 44% fails in about 80% of gates; a
    // true 45% (at the bound) fails in about 5%.
    let n = 16_000u64;
    let detects = judge(&f, vec![win_rate(7040, n)])[0].detectable.unwrap();
    assert!((detects - 0.0098).abs() < 0.0003, "{detects}");
    let mut rng = empires::seed::rng(7, empires::seed::Stream::Dice);
    let mut fails = |p: f64| -> f64 {
        let runs = 400;
        let mut failed = 0;
        for _ in 0..runs {
            let wins = (0..n).filter(|_| rng.random::<f64>() < p).count() as u64;
            failed += !judge(&f, vec![win_rate(wins, n)])[0].pass as u32;
        }
        failed as f64 / runs as f64
    };
    // Binomial(400, 0.05): sd 1.1%; (400, 0.8): sd 2%. Bounds at 3.5 sd.
    let at_bound = fails(0.45);
    assert!(at_bound <= 0.05 + 0.039, "false alarms at the bound: {at_bound}");
    let power = fails(0.44);
    assert!(power >= 0.80 - 0.07, "power against a true 44%: {power}");
}

#[test]
fn update_rewrites_baselines_and_keeps_comments() {
    let text = "# the team's gate\nalpha = 0.01\n\n[[metric]]\nname = \"m\"  # a note\nquantity = \"mean empire size\"\nbaseline = 0   # filled by --update\n";
    let f = parse(text, "b.toml").unwrap();
    let j = judge(&f, vec![mc(11.234567891, 0.05)]);
    let new = update(text, &j).unwrap();
    assert!(new.starts_with("# the team's gate\nalpha = 0.01\n"), "{new}");
    assert!(new.contains("name = \"m\"  # a note"), "{new}");
    assert!(new.contains("baseline = 11.234568   # filled by --update"), "{new}");
    assert!(new.contains("baseline_se = 0.05"), "{new}");
}

#[test]
fn check_cli_passes_fails_and_updates() {
    let file = tmp(
        "gate.toml",
        r#"alpha = 0.01
# Exact: a cell of the army table.
[[metric]]
name = "army P(win) at 3 against 3"
table = { kind = "army", attacker = 3, defender = 3, value = "win" }
min = 0.41
max = 0.42

[[metric]]
name = "miner gold from mines"
campaigns = 300
column = "gold_mines"
group = { strategy = "miner" }
baseline = 0
"#,
    );
    let run = |args: &[&str]| bin().arg("check").arg(&file).args(args).output().unwrap();
    let o = run(&["--update"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&file).unwrap().contains("# Exact: a cell of the army table."));
    // --update also stores the baseline run's per-campaign values beside the file.
    let sidecar = file.with_file_name("gate.baseline.json");
    assert!(String::from_utf8_lossy(&o.stdout).contains("per-campaign baseline values (1 metrics)"));
    let stored = Stored::read(&sidecar).unwrap();
    assert_eq!(stored.metrics["miner gold from mines"].values.len(), 300);
    let o = run(&["--jobs", "2"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("all 2 metrics pass"), "{out}");
    // The same game: every paired difference is 0. Each metric states what
    // it detects with 80% power.
    assert!(out.contains("detects (80% power)") && out.contains("detects: the smallest breach"), "{out}");
    let line = out.lines().find(|l| l.contains("miner gold from mines")).unwrap();
    assert!(line.contains("paired, 300") && line.contains("if reshuffled"), "{line}");
    assert!(out.lines().any(|l| l.contains("army P(win)") && l.contains("any change")), "{out}");
    // The same metric with river mines halved drifts: exit 1, and the line says what moved.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("campaigns = 300", "campaigns = 300\nset = [\"economy.mine.river=1D6x10\"]"))
        .unwrap();
    let o = run(&[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL miner gold from mines: moved from the baseline"), "{out}");
    assert!(out.contains("paired change") && out.contains("Holm-adjusted"), "{out}");
    // Without the stored values the test is unpaired, and says why.
    std::fs::remove_file(&sidecar).unwrap();
    let out = String::from_utf8_lossy(&run(&[]).stdout).to_string();
    assert!(out.contains("unpaired miner gold from mines: no per-campaign baseline stored"), "{out}");
    // A stored file that does not parse is bad input, not a silent fallback.
    std::fs::write(&sidecar, "{").unwrap();
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("gate.baseline.json"));
}

#[test]
fn check_bad_input_is_located() {
    let cases = [
        (
            "[[metric]]\nname = \"x\"\nquantiti = \"mean empire size\"\nmin = 1\n",
            "bad.toml:3:1: unknown field `quantiti`",
        ),
        ("[[metric]]\nname = \"x\"\nquantity = \"mean empire size\"\n", "bad.toml:2:8: metric \"x\": give bounds"),
        (
            "[[metric]]\nname = \"x\"\nmin = 1\n",
            "bad.toml:2:8: metric \"x\": give exactly one of quantity, column, table and solve",
        ),
        (
            "[[metric]]\nname = \"x\"\ncolumn = \"golds\"\nmin = 1\n",
            "bad.toml:3:10: metric \"x\": \"golds\" is not a numeric column",
        ),
        (
            "[[metric]]\nname = \"x\"\nquantity = \"mean empire size\"\nmin = 3\nmax = 1\n",
            "bad.toml:4:7: metric \"x\": min 3 is above max 1",
        ),
    ];
    for (text, want) in cases {
        let f = tmp("bad.toml", text);
        let o = bin().arg("check").arg(&f).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).replace(&format!("{}", f.display()), "bad.toml");
        assert_eq!(o.status.code(), Some(2), "{text}: {err}");
        assert!(err.contains(want), "{text}\nwanted {want}\ngot {err}");
    }
    // A quantity the scenario does not have: exit 2, naming the known ones.
    let f = tmp("bad2.toml", "[[metric]]\nname = \"x\"\ncampaigns = 10\nquantity = \"win rate: wizard\"\nmin = 0\n");
    let o = bin().arg("check").arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a metric of this scenario (known:"));
    let o = bin().args(["check", "/nonexistent/balance.toml"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_measures_a_paired_difference_between_variants() {
    // The miner's gold from mines with river mines halved, minus as shipped:
    // clearly negative, on the same seeds.
    let file = tmp(
        "variant.toml",
        r#"[[metric]]
name = "halving river mines costs the miner"
campaigns = 300
quantity = "gold from mines"
variant = ["economy.mine.river=1D6x10"]
max = 0.0
"#,
    );
    let o = bin().arg("check").arg(&file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let line = out.lines().find(|l| l.contains("halving river mines")).unwrap();
    let value: f64 = line.split_whitespace().find_map(|w| w.parse::<f64>().ok().filter(|v| *v < 0.0)).unwrap();
    assert!(value < -50.0, "{line}");
    // The same variant against a bound it cannot meet fails.
    std::fs::write(&file, std::fs::read_to_string(&file).unwrap().replace("max = 0.0", "min = 0.0")).unwrap();
    let o = bin().arg("check").arg(&file).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("is below min 0"));
}

/// A metric read off campaigns answers for what their players did, so the
/// gate names, under the table, what each such metric's players never (or
/// almost never) did: exactly the coverage of the metric's own campaigns
/// (`metrics::measure` of the same scenario, players and seeds counts the
/// same). An exact table metric plays nothing and gets no line.
#[test]
fn the_gate_names_what_each_metrics_players_never_did() {
    use empires::study::exercised;
    let d = workdir("never");
    let file = d.join("never.toml");
    std::fs::write(
        &file,
        r#"[[metric]]
name = "tuned size"
campaigns = 40
quantity = "mean empire size"
min = 0.0

[[metric]]
name = "army table"
table = { kind = "army", attacker = 3, defender = 3, value = "win" }
min = 0.0
"#,
    )
    .unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let spec = parse(&text, &file.display().to_string()).unwrap();
    let dir = file.parent().unwrap();
    let sample = empires::gate::measure_sample(&spec.metric[0], dir, Some("tuned")).unwrap();
    let sc = empires::scenario::Scenario::embedded_default().with_players("tuned").unwrap();
    let m = &spec.metric[0];
    let want = empires::study::metrics::measure(&sc, m.seed, 40, true, &[], false).unwrap().coverage;
    assert_eq!(sample.coverage.as_ref(), Some(&want));
    let line = exercised::line(&want, 40).unwrap();
    assert!(line.contains("built a mine (0)") && line.contains("pillaged (0)"), "{line}");
    assert_eq!(empires::gate::measure_sample(&spec.metric[1], dir, None).unwrap().coverage, None);
    let o = bin().arg("check").arg(&file).args(["--players", "tuned"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.lines().any(|l| l == format!("  tuned size: {line}")), "{out}");
    assert!(!out.contains("army table: Never played"), "{out}");
}

/// The gate watches the meta-game and restricted play: a rule change that
/// makes a strategy dominant, or makes an option worthless, fails CI.
#[test]
fn the_gate_measures_equilibrium_mass_and_a_restriction_value() {
    tmp("gate-duel.toml", include_str!("../../scenarios/duel.toml"));
    let f = tmp(
        "meta.toml",
        r#"
[[metric]]
name = "balanced holds the equilibrium next to random"
scenario = "gate-duel.toml"
quantity = "equilibrium: balanced"
strategies = ["random", "balanced"]
campaigns = 40
min = 0.9

[[metric]]
name = "random gets no alpha-rank mass"
scenario = "gate-duel.toml"
quantity = "alpha-rank: random"
strategies = ["random", "balanced"]
campaigns = 40
max = 0.05

[[metric]]
name = "capturing is worth having"
scenario = "gate-duel.toml"
quantity = "restriction value"
forbid = ["capture"]
players = "balanced"
campaigns = 60
max = 0.0
"#,
    );
    let o = bin().arg("check").arg(&f).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("all 3 metrics pass"), "{text}");
    // A meta-game quantity without its strategies is refused where it stands.
    let bad = tmp("meta-bad.toml", "[[metric]]\nname = \"x\"\nquantity = \"equilibrium: tuned\"\nmin = 0.5\n");
    let o = bin().arg("check").arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs `strategies = [...]` listing \"tuned\""));
}

/// The issue's baseline complaint: the baseline run and the new run share
/// their seeds, so the test pairs them campaign by campaign. Mountain mines
/// at 3D6x9 instead of 3D6x10 move the default mine share by about a point:
/// the paired test (stored per-campaign values) catches it at 1,000
/// campaigns; the unpaired z test, the gate's test before, passes it.
#[test]
fn a_one_point_mine_share_shift_is_caught_paired_and_missed_unpaired() {
    use empires::gate::{measure_sample, stored};
    let dir = std::env::temp_dir();
    let text = "[[metric]]\nname = \"mines\"\ncampaigns = 1000\nrotate_seats = true\nquantity = \"share of gold from mines\"\nbaseline = 0\n";
    let f = parse(text, "b.toml").unwrap();
    let base = measure_sample(&f.metric[0], &dir, None).unwrap();
    let j = judge(&f, vec![base]);
    let values = stored(&j);
    assert_eq!(values.metrics["mines"].values.len(), 1000);
    let f = parse(&update(text, &j).unwrap(), "b.toml").unwrap();
    // The same rules again: every paired difference is 0, p = 1.
    let again = measure_sample(&f.metric[0], &dir, None).unwrap();
    let j = empires::gate::judge(&f, vec![again], &values).remove(0);
    assert!(j.pass && j.p == Some(1.0) && j.test == Test::Paired { campaigns: 1000 }, "{j:?}");
    assert!(j.detectable_reshuffled.is_some());
    // The new rules.
    let mut new = f.metric[0].clone();
    new.set = vec!["economy.mine.mountain=3D6x9".into()];
    let after = measure_sample(&new, &dir, None).unwrap();
    let paired = empires::gate::judge(&f, vec![after.clone()], &values).remove(0);
    let unpaired = judge(&f, vec![after]).remove(0);
    let shift = paired.change.unwrap();
    assert!((-0.015..-0.005).contains(&shift), "a shift of about a point: {shift}");
    assert!(!paired.pass && paired.why.contains("paired change"), "{paired:?}");
    assert!(unpaired.pass && matches!(unpaired.test, Test::Unpaired { .. }), "{unpaired:?}");
    assert!((unpaired.change.unwrap() - shift).abs() < 1e-6);
    // Pairing shrinks the standard error, and with it what the test detects.
    let (ps, us) = (paired.se.unwrap(), unpaired.se.unwrap());
    assert!(ps * 2.0 < us, "paired se {ps}, unpaired {us}");
    assert!(paired.detectable.unwrap() < 0.01 && unpaired.detectable.unwrap() > 0.015, "{paired:?} {unpaired:?}");
}

/// Stored values pair only with the run they came from; anything else is
/// the unpaired test, with the reason, and a broken file is bad input.
#[test]
fn stored_values_pair_only_with_their_own_run() {
    let text = "[[metric]]\nname = \"m\"\ncampaigns = 3\nquantity = \"mean empire size\"\nbaseline = 2\n";
    let f = parse(text, "b.toml").unwrap();
    let spec = &f.metric[0];
    let mut s = Stored::default();
    s.insert(spec, 2.0, &[1.0, 2.0, 3.0], None);
    assert_eq!(s.pairs(spec, 2.0, &[1.5, 2.0, f64::NAN]).unwrap(), vec![0.5, 0.0]);
    assert!(s.pairs(spec, 2.1, &[1.0, 2.0, 3.0]).unwrap_err().message().contains("is not the baseline"));
    assert!(s.pairs(spec, 2.0, &[1.0, 2.0]).unwrap_err().message().contains("the stored run is 3 campaigns on seed 1"));
    assert!(s.pairs(spec, 2.0, &[]).unwrap_err().message().contains("not a mean over campaigns"));
    let other = parse(&text.replace("name = \"m\"", "name = \"n\""), "b.toml").unwrap();
    assert!(s.pairs(&other.metric[0], 2.0, &[1.0, 2.0, 3.0]).unwrap_err().message().contains("run --update"));
    // Written and read back exactly; NaN is stored as null.
    let p = tmp("stored.baseline.json", &s.to_json());
    assert_eq!(Stored::read(&p).unwrap(), s);
    assert!(Stored::read(&p.with_file_name("absent.json")).unwrap().metrics.is_empty());
    std::fs::write(&p, "{ not json").unwrap();
    assert!(Stored::read(&p).is_err());
    assert_eq!(
        empires::gate::baseline::path_of(std::path::Path::new("x/balance.toml")),
        PathBuf::from("x/balance.baseline.json")
    );
}

/// A folder of its own for a test that runs `check` with no file named.
fn workdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-gate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const EXACT_ONLY: &str = "[[metric]]\nname = \"army P(win) at 3 against 3\"\n\
    table = { kind = \"army\", attacker = 3, defender = 3, value = \"win\" }\nmin = 0.41\nmax = 0.42\n";

#[test]
fn check_without_a_file_reads_the_projects_scenarios_balance_toml() {
    let d = workdir("default-file");
    let o = bin().arg("check").current_dir(&d).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("neither balance.toml nor scenarios/balance.toml is in the working folder"), "{e}");
    std::fs::create_dir_all(d.join("scenarios")).unwrap();
    std::fs::write(d.join("scenarios/balance.toml"), EXACT_ONLY).unwrap();
    let o = bin().arg("check").current_dir(&d).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("empires check scenarios/balance.toml:") && out.contains("all 1 metrics pass"), "{out}");
    // A balance.toml in the working folder comes first.
    std::fs::write(d.join("balance.toml"), EXACT_ONLY.replace("min = 0.41\nmax = 0.42", "min = 0.3\nmax = 0.4"))
        .unwrap();
    let o = bin().arg("check").current_dir(&d).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stdout));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn check_update_settles_a_moved_baseline_but_not_a_bound() {
    let d = workdir("update");
    let file = d.join("gate.toml");
    let moved = "[[metric]]\nname = \"miner gold from mines\"\ncampaigns = 40\ncolumn = \"gold_mines\"\n\
        group = { strategy = \"miner\" }\nbaseline = 0\n";
    std::fs::write(&file, format!("{EXACT_ONLY}\n{moved}")).unwrap();
    let o = bin().args(["check", "--update", "--out"]).arg(d.join("out1")).arg(&file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("FAIL"), "a baseline --update rewrites is no failure: {out}");
    assert!(out.contains("moved; rewritten"), "{out}");
    assert!(out.contains("1 of 2 metrics moved from their old baseline; --update rewrites it"), "{out}");
    assert!(out.contains("no metric fails its bounds") && out.contains("baselines updated in"), "{out}");
    assert!(!std::fs::read_to_string(&file).unwrap().contains("baseline = 0\n"));
    // A bound still fails after --update: exit 1, and the line says FAIL.
    std::fs::write(&file, format!("{}\n{moved}", EXACT_ONLY.replace("min = 0.41\nmax = 0.42", "min = 0.3\nmax = 0.4")))
        .unwrap();
    let o = bin().args(["check", "--update", "--out"]).arg(d.join("out2")).arg(&file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("1 of 2 metrics FAIL:") && out.contains("FAIL army P(win) at 3 against 3"), "{out}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("which --update does not rewrite"));
    let _ = std::fs::remove_dir_all(&d);
}

/// The gate gates what combats do in play, not only the exact tables: a
/// combat quantity (`army: attacker win rate`, read from the campaigns'
/// combats) fails a bound it lies beyond (exit 1, its line saying so) and
/// passes one it meets (exit 0). Played armies attack where they expect to
/// win: about 64% of attacks win on the default scenario, so a bound of at
/// most 50% fails far beyond chance and one of at least 50% passes.
#[test]
fn check_gates_a_played_combat_quantity() {
    let text = |bound: &str| {
        format!(
            "alpha = 0.01\n[[metric]]\nname = \"army attacker win rate\"\ncampaigns = 300\nrotate_seats = true\n\
             quantity = \"army: attacker win rate\"\n{bound}\n"
        )
    };
    let file = tmp("combat-gate.toml", &text("max = 0.5"));
    let o = bin().arg("check").arg(&file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.lines().any(|l| l.contains("army attacker win rate") && l.trim_end().ends_with("FAIL")), "{out}");
    std::fs::write(&file, text("min = 0.5")).unwrap();
    let o = bin().arg("check").arg(&file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("all 1 metrics pass"), "{out}");
}

/// The project's own gate, `scenarios/balance.toml`, carries at least one
/// metric measured from played combats (a combat metric per kind), so a
/// table change that moves play fails CI (docs/ci.md).
#[test]
fn the_projects_gate_carries_a_played_combat_metric() {
    let text = include_str!("../../scenarios/balance.toml");
    let f = parse(text, "scenarios/balance.toml").unwrap();
    let sc = empires::scenario::Scenario::embedded_default();
    let combat: Vec<&str> = f
        .metric
        .iter()
        .filter(|m| m.scenario.is_none())
        .filter_map(|m| m.quantity.as_deref())
        .filter(|q| empires::balance::metric_named(&sc, q).is_ok_and(|x| x.needs_combats()))
        .collect();
    assert!(!combat.is_empty(), "no combat metric in scenarios/balance.toml");
}

/// A metric that names no scenario plays the balance file's folder's
/// `default.toml` when there is one: a design team that copies
/// `scenarios/` and edits the default gates its edit (here pillage yields
/// 2D6x14 gold, not 2D6x10), and every line names the file and its hash.
/// Without one it plays the embedded default, and says so.
#[test]
fn the_gate_plays_the_folders_default_toml() {
    use empires::gate::{How, measure_sample};
    let d = workdir("folder-default");
    let text = "[[metric]]\nname = \"pillage share\"\ncampaigns = 300\nrotate_seats = true\n\
                quantity = \"share of gold from pillage\"\nbaseline = 0.15\ntolerance = 1.0\n";
    let f = parse(text, "balance.toml").unwrap();
    let m = &f.metric[0];
    let embedded = measure_sample(m, &d, None).unwrap();
    let e = embedded.played.clone().unwrap();
    assert_eq!((e.how, e.file.as_str()), (How::Embedded, "default.toml"));
    // The same bytes in the folder: the same games, the same hash.
    let default = empires::scenario::DEFAULT_TOML;
    std::fs::write(d.join("default.toml"), default).unwrap();
    let same = measure_sample(m, &d, None).unwrap();
    let s = same.played.clone().unwrap();
    assert_eq!((s.how, &s.sha256), (How::Folder, &e.sha256));
    assert_eq!(same.measured, embedded.measured);
    // The edit is played.
    assert!(default.contains("pillage = \"2D6x10\""));
    std::fs::write(d.join("default.toml"), default.replace("pillage = \"2D6x10\"", "pillage = \"2D6x14\"")).unwrap();
    let edited = measure_sample(m, &d, None).unwrap();
    assert_ne!(edited.played.as_ref().unwrap().sha256, e.sha256);
    assert!(
        edited.measured.value > embedded.measured.value,
        "pillage at 2D6x14 {} against 2D6x10 {}",
        edited.measured.value,
        embedded.measured.value
    );
    // The command names the file on the metric's line and beneath the table.
    std::fs::write(d.join("balance.toml"), text).unwrap();
    let o = bin().arg("check").arg(d.join("balance.toml")).arg("--out").arg(d.join("out")).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let sha = &edited.played.as_ref().unwrap().sha256;
    assert!(out.contains(&format!("default.toml {}", &sha[..8])), "{out}");
    assert!(
        out.contains(&format!(
            "{} (the balance file's folder's default.toml: the metric names no scenario), sha256 {sha}",
            d.join("default.toml").display()
        )),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The gate's numbers read plainly: an exact metric's move from its
/// baseline is `+0.5`, not `+5.000e-1`, and a p-value of 0 (a value with
/// no spread past its bound) is `p < 1e-16`, in the reason and in the
/// table's Holm p column, never `p = 0.0e0`.
#[test]
fn the_gate_prints_plain_differences_and_p_values_below_the_floor() {
    let text = "alpha = 0.05\n[[metric]]\nname = \"x\"\nquantity = \"mean empire size\"\nbaseline = 10.0\n\
                [[metric]]\nname = \"y\"\nquantity = \"mean empire size\"\nmin = 0.5\n";
    let f = parse(text, "b.toml").unwrap();
    let exact = Measured { value: 10.5, se: 0.0, low: 10.5, high: 10.5, exact: true, campaigns: 0 };
    let j = judge(&f, vec![exact.into(), mc(0.4, 0.0)]);
    assert_eq!(j[0].why, "moved from the baseline 10 to 10.5 (+0.5)");
    assert_eq!(j[1].p, Some(0.0));
    assert!(j[1].why.ends_with("one-sided p < 1e-16, Holm-adjusted < 1e-16 ≤ alpha 0.05"), "{}", j[1].why);
    let table = empires::gate::text::text("b.toml", 0.05, &j, false);
    assert!(!table.contains("0.0e0") && !table.contains("e-1)"), "{table}");
    let row = table.lines().find(|l| l.trim_start().starts_with("y ")).expect("y's row");
    assert!(row.contains("< 1e-16"), "{row}");
}
