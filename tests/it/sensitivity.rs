//! The noise-corrected Sobol' stage of `empires sensitivity` (issue 21,
//! point 4), on cases whose indices are known: a metric linear in one key
//! (the fixture where gold from mines is the river mine's multiplier times
//! dice that do not depend on it), and a metric with no true variance at
//! all (the first seat's win rate with four identical players).

use crate::play_cli::bin;
use empires::balance::metric_named;
use empires::balance::param;
use empires::balance::sensitivity::{self, Plan};
use empires::scenario::{Scenario, Source, load_str};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/only-mines.toml");

fn contains(ci: (f64, f64), x: f64) -> bool {
    ci.0 <= x && x <= ci.1
}

fn plan(sc: &Scenario, keys: &[&str], metric: &str, campaigns: u64, rows: usize) -> Plan {
    let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    Plan {
        params: param::parse_list(&keys, sc).unwrap(),
        metric: metric_named(sc, metric).unwrap(),
        trajectories: 2,
        campaigns,
        master: 1,
        rotate: false,
        sobol_rows: rows,
    }
}

/// Gold from mines is `mult × G` with `G` a sum of dice that no key moves:
/// the multiplier holds all the variance (S = ST = 1) and the pillage
/// count none. Each row plays its own campaigns, so the Monte Carlo noise
/// of `G` shows in every difference, and the corrected intervals still
/// hold the known values.
#[test]
fn sensitivity_sobol_gives_the_known_indices_of_a_metric_linear_in_one_key() {
    let sc = load_str(&std::fs::read_to_string(FIXTURE).unwrap(), &Source::file(FIXTURE)).unwrap();
    let p = plan(&sc, &["economy.mine.river.mult=5..15", "economy.pillage.count=1..3"], "gold from mines", 20, 40);
    let points = sensitivity::play_sobol(&sc, &p, &[0, 1], (0, 1), |_| {}).unwrap();
    assert_eq!(points.len(), 40 * 4);
    // Row r plays campaigns r·N..(r+1)·N: two rows' A points differ even
    // at the same multiplier, so rows are independent.
    let ix = sensitivity::sobol_indices(&p, &[0, 1], &points);
    assert!(ix.varies(), "{ix:?}");
    let (mult, pillage) = (&ix.indices[0], &ix.indices[1]);
    assert!(contains(mult.first_ci, 1.0) && contains(mult.total_ci, 1.0), "{mult:?}");
    assert_eq!(mult.verdict(), "above noise");
    assert!(mult.noise_floor > 0.0, "the campaigns' noise is measured: {mult:?}");
    assert!(contains(pillage.first_ci, 0.0) && contains(pillage.total_ci, 0.0), "{pillage:?}");
    assert_eq!(pillage.verdict(), "noise");
}

/// Four identical players: the first seat's win rate has no true variance
/// over any key. Uncorrected, the Sobol' total index read 0.69
/// [0.41, 1.07] on a key of such a metric; corrected, every index's
/// interval holds 0 and reads `noise`.
#[test]
fn sensitivity_sobol_of_a_metric_with_no_true_variance_reads_noise() {
    let mut sc = Scenario::embedded_default();
    for p in &mut sc.players {
        p.strategy = "balanced".into();
    }
    let p = plan(&sc, &["costs.capture=1..3", "economy.pillage.mult=5..15"], "win rate: seat 0", 60, 48);
    let points = sensitivity::play_sobol(&sc, &p, &[0, 1], (0, 1), |_| {}).unwrap();
    let ix = sensitivity::sobol_indices(&p, &[0, 1], &points);
    assert!(contains(ix.variance_ci, 0.0), "{ix:?}");
    for x in &ix.indices {
        assert!(contains(x.total_ci, 0.0) && contains(x.first_ci, 0.0), "{x:?}");
        assert_eq!(x.verdict(), "noise", "{x:?}");
    }
}

/// The command prints the noise floor and the verdict with the indices,
/// and says how the estimator corrects for noise.
#[test]
fn sensitivity_cli_prints_the_sobol_noise_floor_and_verdicts() {
    let out = std::env::temp_dir().join(format!("empires-sensitivity-{}-sobol", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = bin()
        .args(["sensitivity", "--scenario", FIXTURE, "--metric", "gold from mines"])
        .args(["--vary", "economy.mine.river.mult=5..15,economy.pillage.count=1..3", "--trajectories", "2"])
        .args(["--campaigns", "10", "--sobol-keys", "economy.mine.river.mult,economy.pillage.count"])
        .args(["--sobol-rows", "12", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    for want in ["corrected for Monte Carlo noise", "noise floor", "ST uncorrected", "verdict", "above noise"] {
        assert!(text.contains(want), "{want:?} missing: {text}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sensitivity.json")).unwrap()).unwrap();
    assert!(json["sobol_method"].as_str().unwrap().contains("corrected for Monte Carlo noise"));
    let keys = json["keys"].as_array().unwrap();
    assert!(keys.iter().all(|k| k["sobol_verdict"].is_string() && k["sobol_noise_floor"].is_object()), "{json}");
}

/// A Sobol' index is a share of variance: a value outside [0, 1], or one
/// whose interval is undefined, is noise and is not printed as an estimate.
#[test]
fn sobol_indices_outside_zero_one_are_not_printed_as_estimates() {
    let out = std::env::temp_dir().join(format!("empires-sensitivity-{}-range", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = bin()
        .args(["sensitivity", "--metric", "win rate: seat 0", "--players", "balanced"])
        .args(["--vary", "costs.capture=1..3,economy.pillage.mult=5..15", "--trajectories", "2"])
        .args(["--campaigns", "8", "--sobol-keys", "costs.capture,economy.pillage.mult"])
        .args(["--sobol-rows", "8", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let table = &text[text.find("first order S").expect("the Sobol' table")..];
    let rows: Vec<&str> = table.lines().skip(1).take(2).collect();
    let mut dashes = 0;
    for row in &rows {
        let cells: Vec<&str> = row.split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
        for cell in [cells[1], cells[3]] {
            match cell.parse::<f64>() {
                Ok(x) => assert!((0.0..=1.0).contains(&x), "{cell} printed as an estimate: {row}"),
                Err(_) => {
                    assert!(cell.starts_with("— ("), "{cell}: {row}");
                    dashes += 1;
                }
            }
        }
    }
    assert!(dashes > 0, "this noisy design reads some index out of range or undefined: {table}");
    assert!(text.contains("one that reads outside it, or whose interval is undefined, is noise"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}
