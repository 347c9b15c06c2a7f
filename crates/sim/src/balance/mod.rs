//! Which of the scenario's numbers matter, and which value balances the
//! game: global sensitivity (`sensitivity`, Morris screening and Sobol'
//! indices) and a noisy root finder (`solve`).
//!
//! Both play every design point on the same master seed, so campaign `i`
//! of every point has the same seeds, map and dice stream (common random
//! numbers): the differences between points are the rules' doing, not the
//! dice's, and a point's metric is a fixed function of the varied values
//! once the seed and campaign count are fixed. No IO here: the `empires`
//! package writes the results.
//!
//! - [`param`]: the varied numbers (rule keys, dice counts and multipliers)
//!   and their intervals, which need only the scenario and so live beside
//!   it in core (`scenario::param`); the name stays here, where the
//!   studies that vary them are;
//! - [`morris`] and [`sobol`]: the designs and estimators, on the unit cube;
//! - [`sensitivity`]: plays a Morris (and optionally Sobol') design;
//! - [`solve`]: finds the value of a key that meets a target.

use crate::error::Error;
pub mod morris;
pub mod sensitivity;
pub mod sobol;
pub mod solve;

use crate::scenario::Scenario;
use crate::scenario::check::check;
use crate::scenario::load::path_string;
pub use crate::scenario::param;
use crate::study::metrics::{Metric, measure, with_combat};
use param::Param;

/// The metric a designer names, among the standard ones of `sc`
/// (`share of gold from mines`, `win rate: seat 0`, `win rate: tuned`, ...).
pub fn metric_named(sc: &Scenario, name: &str) -> Result<Metric, Error> {
    let all = with_combat(&[sc]);
    let name = name.trim();
    all.iter().find(|m| m.name() == name).cloned().ok_or_else(|| {
        let known: Vec<String> = all.iter().map(|m| format!("{:?}", m.name())).collect();
        Error::input(format!("unknown metric: {name:?} is not a metric of this scenario (known: {})", known.join(", ")))
    })
}

/// `base` with each parameter at its value for unit point `u`, checked.
pub fn scenario_at(base: &Scenario, params: &[Param], u: &[f64]) -> Result<Scenario, Error> {
    let mut sc = base.clone();
    for (p, &x) in params.iter().zip(u) {
        p.set(&mut sc, p.value_at(x));
    }
    checked(sc, params)
}

/// `base` with each parameter at the given value, checked.
pub fn scenario_with(base: &Scenario, params: &[Param], values: &[f64]) -> Result<Scenario, Error> {
    let mut sc = base.clone();
    for (p, &v) in params.iter().zip(values) {
        p.set(&mut sc, v);
    }
    checked(sc, params)
}

/// The scenario if the checker accepts it; a varied value can break a rule
/// between keys (`siege.engines_needed` above `siege.engine_cap`).
fn checked(sc: Scenario, params: &[Param]) -> Result<Scenario, Error> {
    let problems = check(&sc);
    if problems.is_empty() {
        return Ok(sc);
    }
    let what: Vec<String> = problems.iter().map(|(k, m)| format!("{}: {m}", path_string(k))).collect();
    // The varied keys the problems name.
    let named = |p: &&Param| what.iter().any(|w| w.contains(p.key()));
    let at: Vec<String> = params.iter().filter(named).map(|p| format!("{}={}", p.name, p.show(p.get(&sc)))).collect();
    Err(Error::input(format!(
        "a design point is not a valid scenario ({}): {}; narrow a key with KEY=LO..HI or leave one out",
        at.join(", "),
        what.join("; ")
    )))
}

/// A design point's per-campaign values of `metric` (NaN where the metric
/// is undefined in a campaign, such as a gold share with no gold).
pub fn per_campaign(
    sc: &Scenario,
    metric: &Metric,
    master: u64,
    campaigns: u64,
    rotate: bool,
) -> Result<Vec<f64>, Error> {
    let m = measure(sc, master, campaigns, rotate, std::slice::from_ref(metric), false).map_err(Error::from)?;
    Ok(m.values.into_iter().map(|v| v[0]).collect())
}

/// Mean and standard error of the finite values.
pub fn mean_se(xs: &[f64]) -> (f64, f64, u64) {
    let m = crate::stats::mean_interval(xs.iter().copied(), 0.95);
    (m.mean, if m.n > 0 { m.sd / (m.n as f64).sqrt() } else { f64::NAN }, m.n)
}

/// Mean and standard error of the paired differences `b − a`, over the
/// campaigns where both are defined.
pub fn paired(a: &[f64], b: &[f64]) -> (f64, f64) {
    let d: Vec<f64> = a.iter().zip(b).filter(|(x, y)| x.is_finite() && y.is_finite()).map(|(x, y)| y - x).collect();
    let (m, se, _) = mean_se(&d);
    (m, se)
}
