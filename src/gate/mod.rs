//! `empires check`: the balance regression gate for a design team's CI.
//!
//! A balance file lists metrics; each is measured (Monte Carlo over seeded
//! campaigns, or exactly from the tables) and judged:
//!
//! - **Bounds** (`min`, `max`): a Monte Carlo metric fails only when its
//!   whole 95% interval lies outside them, because a code change can shift
//!   the random stream without changing the balance; an exact metric fails
//!   when it leaves them by more than 1e-9.
//! - **A baseline**: a Monte Carlo metric fails when a two-sided z test
//!   rejects "no change" (standard error of the run and of the stored
//!   baseline combined) at the file's `alpha`, Holm-corrected across the
//!   file's baseline metrics, and the change exceeds its `tolerance`; an
//!   exact metric fails when it moves by more than 1e-9 (or its tolerance).
//!
//! `--update` rewrites the baselines in place with `toml_edit`, keeping the
//! file's comments and layout.

pub mod measure;
pub mod spec;
pub mod text;

use measure::Measured;
use spec::{BalanceFile, MetricSpec};
use statrs::distribution::{ContinuousCDF, Normal};
use std::path::Path;

/// Exact values agree to this.
pub const EXACT: f64 = 1e-9;

/// One metric's result.
#[derive(Clone, Debug)]
pub struct Judged {
    pub spec: MetricSpec,
    pub measured: Measured,
    /// The baseline test's p-value (Monte Carlo metrics with a baseline).
    pub p: Option<f64>,
    /// Holm's threshold for this p-value.
    pub threshold: Option<f64>,
    pub pass: bool,
    /// For a failure: what moved and by how much.
    pub why: String,
}

/// Load the scenario of a metric (relative to the balance file's folder).
pub fn scenario_of(m: &MetricSpec, dir: &Path, extra: &[String]) -> Result<crate::scenario::Scenario, String> {
    let sets: Vec<String> = m.set.iter().chain(extra).cloned().collect();
    let overrides: Vec<(String, String)> =
        sets.iter().map(|s| crate::scenario::parse_override(s)).collect::<Result<_, _>>()?;
    let (text, source) = match &m.scenario {
        None => (crate::scenario::DEFAULT_TOML.to_string(), crate::scenario::Source::embedded("default.toml")),
        Some(f) => {
            let p = dir.join(f);
            let t = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            (t, crate::scenario::Source::file(p.display().to_string()))
        }
    };
    crate::scenario::load_with_overrides(&text, &source, &overrides).map_err(|e| e.to_string())
}

/// Measure one metric; `players` makes every seat play that strategy
/// (`check --players`).
pub fn measure_one(m: &MetricSpec, dir: &Path, players: Option<&str>) -> Result<Measured, String> {
    let seat = |sc: crate::scenario::Scenario| match players {
        Some(s) => sc.with_players(s),
        None => Ok(sc),
    };
    let sc = seat(scenario_of(m, dir, &[])?)?;
    if let Some(t) = &m.table {
        return measure::exact(&sc, t);
    }
    if let Some(sv) = &m.solve {
        return measure::solved(&sc, m, sv);
    }
    let variant = match &m.variant {
        Some(v) => Some(seat(scenario_of(m, dir, v)?)?),
        None => None,
    };
    measure::monte_carlo(&sc, variant.as_ref(), m)
}

fn two_sided_p(z: f64) -> f64 {
    let n = Normal::new(0.0, 1.0).expect("standard normal");
    (2.0 * (1.0 - n.cdf(z.abs()))).clamp(0.0, 1.0)
}

/// Judge every measured metric of a file.
pub fn judge(file: &BalanceFile, measured: Vec<Measured>) -> Vec<Judged> {
    let mut out: Vec<Judged> = file
        .metric
        .iter()
        .zip(measured)
        .map(|(spec, m)| Judged {
            spec: spec.clone(),
            measured: m,
            p: None,
            threshold: None,
            pass: true,
            why: String::new(),
        })
        .collect();
    // Bounds, and exact baselines.
    for j in out.iter_mut() {
        let m = j.measured;
        let mut why = Vec::new();
        if let Some(lo) = j.spec.min {
            let below = if m.exact { m.value < lo - EXACT } else { m.high < lo };
            if below {
                why.push(if m.exact {
                    format!("{} is below min {lo} by {:.3e}", m.value, lo - m.value)
                } else {
                    format!(
                        "the whole interval {:.4}–{:.4} is below min {lo} (by {:.4} at its top)",
                        m.low,
                        m.high,
                        lo - m.high
                    )
                });
            }
        }
        if let Some(hi) = j.spec.max {
            let above = if m.exact { m.value > hi + EXACT } else { m.low > hi };
            if above {
                why.push(if m.exact {
                    format!("{} is above max {hi} by {:.3e}", m.value, m.value - hi)
                } else {
                    format!(
                        "the whole interval {:.4}–{:.4} is above max {hi} (by {:.4} at its bottom)",
                        m.low,
                        m.high,
                        m.low - hi
                    )
                });
            }
        }
        if let Some(b) = j.spec.baseline
            && m.exact
            && (m.value - b).abs() > j.spec.tolerance.max(EXACT)
        {
            why.push(format!("moved from the baseline {b} to {} ({:+.3e})", m.value, m.value - b));
        }
        if !why.is_empty() {
            j.pass = false;
            j.why = why.join("; ");
        }
    }
    // Monte Carlo baselines: z tests, Holm across them.
    let mut tests: Vec<(usize, f64)> = Vec::new();
    for (i, j) in out.iter_mut().enumerate() {
        if let (Some(b), false) = (j.spec.baseline, j.measured.exact) {
            let se = (j.measured.se.powi(2) + j.spec.baseline_se.unwrap_or(0.0).powi(2)).sqrt();
            let d = j.measured.value - b;
            let p = if se > 0.0 {
                two_sided_p(d / se)
            } else if d.abs() > 0.0 {
                0.0
            } else {
                1.0
            };
            j.p = Some(p);
            tests.push((i, p));
        }
    }
    tests.sort_by(|a, b| a.1.total_cmp(&b.1));
    let m = tests.len();
    let mut still = true;
    for (k, &(i, p)) in tests.iter().enumerate() {
        let threshold = file.alpha / (m - k) as f64;
        let j = &mut out[i];
        j.threshold = Some(threshold);
        // Holm is step-down: once one is kept, every larger p is kept too.
        still &= p <= threshold;
        let b = j.spec.baseline.unwrap_or(0.0);
        let d = j.measured.value - b;
        if still && d.abs() > j.spec.tolerance {
            j.pass = false;
            let w = format!(
                "moved from the baseline {b:.4} to {:.4} ({d:+.4}), p = {p:.2e} below Holm's threshold {threshold:.2e}",
                j.measured.value
            );
            j.why = if j.why.is_empty() { w } else { format!("{}; {w}", j.why) };
        }
    }
    out
}

/// Rewrite the `baseline` (and `baseline_se`) of every metric that has one,
/// keeping the file's comments and layout. Returns the new text.
pub fn update(text: &str, judged: &[Judged]) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| e.to_string())?;
    let Some(metrics) = doc.get_mut("metric").and_then(|m| m.as_array_of_tables_mut()) else {
        return Ok(text.to_string());
    };
    for (t, j) in metrics.iter_mut().zip(judged) {
        if j.spec.baseline.is_none() {
            continue;
        }
        let round = |x: f64| if j.measured.exact { x } else { (x * 1e6).round() / 1e6 };
        set_keeping_decor(t, "baseline", round(j.measured.value));
        if !j.measured.exact {
            set_keeping_decor(t, "baseline_se", round(j.measured.se));
        }
    }
    Ok(doc.to_string())
}

fn set_keeping_decor(t: &mut toml_edit::Table, key: &str, x: f64) {
    match t.get_mut(key).and_then(|i| i.as_value_mut()) {
        Some(v) => {
            let decor = v.decor().clone();
            *v = toml_edit::Value::from(x);
            *v.decor_mut() = decor;
        }
        None => {
            t.insert(key, toml_edit::value(x));
        }
    }
}
