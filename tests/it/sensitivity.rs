//! The noise-corrected Sobol' stage of `empires sensitivity` (issue 21,
//! point 4), on cases whose indices are known: a metric linear in one key
//! (the fixture where gold from mines is the river mine's multiplier times
//! dice that do not depend on it), and a metric with no true variance at
//! all (the first seat's win rate with four identical players). Then the
//! screening's ranks: keys within noise are not ranked, and each rank
//! carries its interval; and a variance estimated below zero is shown at 0.

use crate::play_cli::bin;
use empires::balance::metric_named;
use empires::balance::sensitivity::{self, Plan};
use empires::balance::sobol::{Index, Indices};
use empires::report::balance::{Sensitivity, sensitivity::sensitivity_json, sensitivity_text};
use empires::scenario::param;
use empires::scenario::{Scenario, Source, load_str};
use std::path::PathBuf;

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
        .args(["--inputs", "economy.mine.river.mult=5..15,economy.pillage.count=1..3", "--trajectories", "2"])
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
        .args(["--inputs", "costs.capture=1..3,economy.pillage.mult=5..15", "--trajectories", "2"])
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

fn miners() -> Scenario {
    load_str(&std::fs::read_to_string(FIXTURE).unwrap(), &Source::file(FIXTURE)).unwrap()
}

/// `empires sensitivity` on the fixture over `vary`, 4 trajectories of 20
/// campaigns: its printed text and `sensitivity.json`.
fn screen(name: &str, vary: &str) -> (String, serde_json::Value, PathBuf) {
    let out = std::env::temp_dir().join(format!("empires-sensitivity-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = bin()
        .args(["sensitivity", "--scenario", FIXTURE, "--metric", "gold from mines", "--inputs", vary])
        .args(["--trajectories", "4", "--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = serde_json::from_str(&std::fs::read_to_string(out.join("sensitivity.json")).unwrap()).unwrap();
    (String::from_utf8_lossy(&o.stdout).into_owned(), json, out)
}

/// Keys that change nothing in play: nobody may pillage in the fixture, so
/// the pillage dice never roll, and the stall limit is never reached by
/// players who only build mines. Every effect is exactly 0 (μ* 0, noise
/// 0), so no key is ranked, and the output says that none is.
#[test]
fn sensitivity_of_keys_that_change_nothing_ranks_nothing() {
    let sc = miners();
    let mut p = plan(&sc, &["economy.pillage.count=1..3", "campaign.stall_seasons=0..8"], "gold from mines", 20, 0);
    p.trajectories = 4;
    let points = sensitivity::play_morris(&sc, &p, (0, 1), |_| {}).unwrap();
    let e = sensitivity::morris_effects(&p, &points);
    for x in &e {
        assert_eq!((x.mu_star, x.noise, x.rank), (0.0, 0.0, None), "{x:?}");
    }
    let (text, json, out) = screen("nothing", "economy.pillage.count=1..3,campaign.stall_seasons=0..8");
    assert!(
        text.contains(
            "no key moves gold from mines beyond the campaigns' noise: every one of the 2 keys is within noise, so \
             none is ranked"
        ),
        "{text}"
    );
    let table = &text[text.find("  rank ").expect("the table")..];
    assert_eq!(table.lines().skip(1).take(2).filter(|l| l.trim_start().starts_with("within noise")).count(), 2);
    assert_eq!(json["ranked"], 0);
    assert_eq!(json["order"], serde_json::json!([]));
    for k in json["keys"].as_array().unwrap() {
        assert!(k["rank"].is_null() && k["rank_ci"].is_null(), "{k}");
        assert_eq!(k["status"], "within noise");
    }
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        page.contains(
            "No key moves gold from mines beyond the campaigns' noise: every one of the 2 keys is within noise, so \
             none is ranked (20 campaigns a point, master seed 1)."
        ),
        "{page}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// Two keys that move the gold from mines (the campaign's length and the
/// river mine's multiplier) and two that change nothing. The two are
/// ranked, each with an interval from resampled trajectories that holds
/// its point rank; on master seed 1 the trajectories disagree on which
/// moves it more, so both intervals are [1, 2] and the two are one tier,
/// not called ordered. The other two are within noise, with no rank.
#[test]
fn sensitivity_ranks_carry_intervals_and_overlapping_ones_are_not_ordered() {
    let vary =
        "economy.mine.river.mult=5..15,campaign.seasons=8..16,economy.pillage.count=1..3,campaign.stall_seasons=0..8";
    let (text, json, out) = screen("ranks", vary);
    let keys = json["keys"].as_array().unwrap();
    let ranks: Vec<(&str, serde_json::Value, serde_json::Value, &str)> = keys
        .iter()
        .map(|k| (k["key"].as_str().unwrap(), k["rank"].clone(), k["rank_ci"].clone(), k["status"].as_str().unwrap()))
        .collect();
    use serde_json::{Value, json};
    assert_eq!(
        ranks,
        vec![
            ("campaign.seasons", json!(1), json!([1, 2]), "ranked"),
            ("economy.mine.river.mult", json!(2), json!([1, 2]), "ranked"),
            ("economy.pillage.count", Value::Null, Value::Null, "within noise"),
            ("campaign.stall_seasons", Value::Null, Value::Null, "within noise"),
        ]
    );
    for k in keys.iter().filter(|k| !k["rank"].is_null()) {
        let (r, ci) = (k["rank"].as_u64().unwrap(), &k["rank_ci"]);
        assert!(ci[0].as_u64().unwrap() <= r && r <= ci[1].as_u64().unwrap(), "{k}");
        assert_eq!(k["tier"], 1);
    }
    assert_eq!(json["order"], json!([["campaign.seasons", "economy.mine.river.mult"]]));
    assert!(text.contains("  1 [1, 2]  ") && text.contains("  2 [1, 2]  "), "{text}");
    assert!(
        text.contains(
            "order by rank intervals: {campaign.seasons, economy.mine.river.mult}; keys in braces are not ordered \
             among themselves (their rank intervals overlap); the other 2 keys are within noise and not ranked"
        ),
        "{text}"
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("whose rank intervals overlap, so their order is not established"), "{page}");
    // Seeded from the master seed: the same command prints the same ranks.
    let (again, json2, out2) = screen("ranks-again", vary);
    assert_eq!(
        (json["keys"].clone(), &text[..text.find("wrote").unwrap()]),
        (json2["keys"].clone(), &again[..again.find("wrote").unwrap()])
    );
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&out2);
}

/// A noise-corrected variance is the observed spread less the noise; when
/// the noise is the larger, the estimate falls below zero. The output
/// shows the variance at 0 and the noise share at 100%, says why, and
/// never prints the impossible numbers (here −2.146e-4, an interval wholly
/// below 0, and 134.9%); the JSON keeps them as the estimate beside the
/// clamped value.
#[test]
fn a_variance_estimated_below_zero_is_shown_as_zero_with_why() {
    let sc = miners();
    let p = plan(&sc, &["economy.mine.river.mult=5..15"], "gold from mines", 20, 64);
    let index = Index {
        input: 0,
        first: f64::NAN,
        first_ci: (f64::NEG_INFINITY, f64::INFINITY),
        total: f64::NAN,
        total_ci: (f64::NEG_INFINITY, f64::INFINITY),
        total_raw: 1.2,
        noise_floor: 1.3,
        noise_floor_ci: (1.0, 1.6),
    };
    let ix = Indices {
        indices: vec![index],
        variance: -2.146e-4,
        variance_ci: (-5.1e-4, -1.2e-5),
        noise_share: 1.349,
        noise_share_ci: (1.05, 1.71),
        rows: 64,
    };
    let s =
        Sensitivity { plan: &p, effects: &[], sobol: Some(&ix), sobol_keys: &[0], points: &[], command: String::new() };
    let text = sensitivity_text(&s, 15);
    assert!(
        text.contains(
            "  variance of the metric over the ranges 0.0000 (95% interval 0.0000 to 0.0000); Monte Carlo noise is \
             100.0% of the uncorrected variance (95% interval 100.0% to 100.0%)\n  clamped: a variance cannot be \
             negative, but here the estimate and both ends of its interval came out below zero, because the Monte \
             Carlo noise subtracted is larger than the signal it was subtracted from; shown as 0 (the noise share \
             as 100%)\n"
        ),
        "{text}"
    );
    for impossible in ["-2.146e-4", "-0.0002146", "-5.100e-4", "-0.00051", "134.9%", "171.0%"] {
        assert!(!text.contains(impossible), "{impossible}: {text}");
    }
    let json: serde_json::Value = serde_json::from_str(&sensitivity_json(&s)).unwrap();
    let v = &json["sobol_variance"];
    assert_eq!(
        (v["value"].as_f64(), v["estimate"].as_f64(), v["clamped"].as_bool()),
        (Some(0.0), Some(-2.146e-4), Some(true))
    );
    assert_eq!(json["sobol_noise_share"]["value"].as_f64(), Some(1.0));
    // A variance above zero is shown as it is; only its interval's lower end,
    // below zero, is clamped and named.
    let ix = Indices {
        variance: 0.02,
        variance_ci: (-0.001, 0.05),
        noise_share: 0.3,
        noise_share_ci: (0.1, 0.9),
        ..ix.clone()
    };
    let s = Sensitivity { sobol: Some(&ix), ..s };
    let text = sensitivity_text(&s, 15);
    assert!(
        text.contains("over the ranges 0.0200 (95% interval 0.0000 to 0.0500); Monte Carlo noise is 30.0%"),
        "{text}"
    );
    assert!(text.contains("but here its interval's lower end came out below zero, because"), "{text}");
    assert!(text.contains("; shown as 0\n"), "{text}");
}
