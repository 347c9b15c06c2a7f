//! `empires check`: the balance regression gate for a design team's CI.
//!
//! A balance file lists metrics; each is measured (Monte Carlo over seeded
//! campaigns, or exactly from the tables) and judged:
//!
//! - **Bounds** (`min`, `max`): a Monte Carlo metric is tested one-sided at
//!   each bound: it fails on evidence of a breach (the test rejects "the
//!   value is within the bound"), so a metric truly at its bound fails by
//!   chance at most the file's `alpha` of the time; a pass whose 95%
//!   interval reaches past a bound carries a "cannot confirm" warning. An
//!   exact metric fails when it leaves them by more than 1e-9.
//! - **A baseline**: a Monte Carlo metric is tested for a change larger
//!   than its `tolerance` (0: any change). The test is paired on common
//!   seeds when the baseline's per-campaign values are stored next to the
//!   file (`baseline::Stored`, written by `--update`): the run and the
//!   baseline run share seeds, so the per-campaign differences are what
//!   varies; otherwise the run's and the baseline's standard errors are
//!   combined. An exact metric fails when it moves by more than 1e-9 (or
//!   its tolerance).
//!
//! Every Monte Carlo test of a file is one family: Holm's step-down holds
//! the chance that the file fails by chance (every metric within its
//! bounds, no change beyond tolerance) to at most `alpha`. Each metric
//! states the smallest breach or change it detects with 80% power.
//!
//! `--update` rewrites the baselines in place with `toml_edit`, keeping the
//! file's comments and layout, and the per-campaign values beside it.

use crate::error::Error;
pub mod baseline;
pub mod measure;
pub mod spec;
pub mod text;

use crate::report::number::{p_is, p_value, plain, signed};
use crate::stats::{detectable_at, detectable_one_sided, holm, p_beyond};
use measure::{Measured, Sample};
use spec::{BalanceFile, MetricSpec};
use std::path::Path;

/// Exact values agree to this.
pub const EXACT: f64 = 1e-9;

/// The file a metric names none of plays the balance file's folder's
/// `default.toml` when there is one: a design team that copies
/// `scenarios/` and edits its default gates the edit, not the binary's
/// embedded copy.
pub const FOLDER_DEFAULT: &str = "default.toml";

/// Where a metric's scenario came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// The metric's `scenario =`.
    Named,
    /// The balance file's folder's `default.toml` (the metric names none).
    Folder,
    /// The default built into the binary (the metric names none and the
    /// folder has no `default.toml`).
    Embedded,
}

/// The scenario file a metric played, named on its line of the verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Its path (the balance file's folder joined with the name), or
    /// `default.toml (embedded)`.
    pub file: String,
    /// SHA-256 of the file's bytes, hex (before the metric's `set`).
    pub sha256: String,
    pub how: How,
}

impl Played {
    /// `default.toml 1a2b3c4d`: the file's name and its hash's first 8
    /// digits, what a table cell has room for.
    pub fn short(&self) -> String {
        let name =
            std::path::Path::new(&self.file).file_name().map_or(self.file.clone(), |n| n.to_string_lossy().to_string());
        let name = if self.how == How::Embedded { format!("{name} (embedded)") } else { name };
        format!("{name} {}", &self.sha256[..8.min(self.sha256.len())])
    }

    /// Why this file: the line under the verdict table.
    pub fn why(&self) -> &'static str {
        match self.how {
            How::Named => "named by the metric",
            How::Folder => "the balance file's folder's default.toml: the metric names no scenario",
            How::Embedded => {
                "the default built into empires: the metric names no scenario and the balance file's folder has \
                 no default.toml"
            }
        }
    }
}

/// The text a metric's scenario is read from, its source for errors, and
/// what the verdict says it played.
fn scenario_text(m: &MetricSpec, dir: &Path) -> Result<(String, crate::scenario::Source, Played), Error> {
    let read = |p: &Path, how: How| -> Result<_, Error> {
        let t = std::fs::read_to_string(p).map_err(|e| Error::input(format!("{}: {e}", p.display())))?;
        let played = Played { file: p.display().to_string(), sha256: crate::report::manifest::text_hash(&t), how };
        Ok((t, crate::scenario::Source::file(p.display().to_string()), played))
    };
    match &m.scenario {
        Some(f) => read(&dir.join(f), How::Named),
        None if dir.join(FOLDER_DEFAULT).is_file() => read(&dir.join(FOLDER_DEFAULT), How::Folder),
        None => {
            let t = crate::scenario::DEFAULT_TOML.to_string();
            let played = Played {
                file: FOLDER_DEFAULT.to_string(),
                sha256: crate::report::manifest::text_hash(&t),
                how: How::Embedded,
            };
            Ok((t, crate::scenario::Source::embedded(FOLDER_DEFAULT), played))
        }
    }
}

/// The scenario file metric `m` plays (`scenario_of` reads the same).
pub fn played(m: &MetricSpec, dir: &Path) -> Result<Played, Error> {
    scenario_text(m, dir).map(|(_, _, p)| p)
}

/// Load the scenario of a metric: its `scenario =` (relative to the
/// balance file's folder), else the folder's `default.toml`, else the
/// embedded default; with the metric's `set` and `extra` overrides.
pub fn scenario_of(m: &MetricSpec, dir: &Path, extra: &[String]) -> Result<crate::scenario::Scenario, Error> {
    scenario_played(m, dir, extra).map(|(sc, _)| sc)
}

/// `scenario_of` and the file it read, from one read.
fn scenario_played(m: &MetricSpec, dir: &Path, extra: &[String]) -> Result<(crate::scenario::Scenario, Played), Error> {
    let sets: Vec<String> = m.set.iter().chain(extra).cloned().collect();
    // A balance file's `set` is `--set` by another name, and is reported as one.
    let overrides: Vec<crate::scenario::Flagged> =
        sets.iter().map(|s| crate::scenario::parse_flagged("--set", s)).collect::<Result<_, _>>()?;
    let (text, source, played) = scenario_text(m, dir)?;
    let sc = crate::scenario::load_flagged(&text, &source, &overrides).map_err(Error::from)?;
    Ok((sc, played))
}

/// Measure one metric; `players` makes every seat play that strategy
/// (`check --players`).
pub fn measure_one(m: &MetricSpec, dir: &Path, players: Option<&str>) -> Result<Measured, Error> {
    measure_sample(m, dir, players).map(|s| s.measured)
}

/// Measure one metric with what its tests need (each campaign's value for
/// a paired baseline test).
/// The campaigns `measure_sample` plays for `m` (a progress bar's length;
/// for a solved value, the most its bisection plays).
pub fn planned(m: &MetricSpec, dir: &Path) -> u64 {
    if m.table.is_some() {
        return 0;
    }
    if let Some(sv) = &m.solve {
        return (sv.steps.max(1) as u64 + 2) * m.campaigns;
    }
    let q = m.quantity.as_deref().unwrap_or("");
    if q.starts_with(spec::EQUILIBRIUM) || q.starts_with(spec::ALPHA_RANK) {
        let k = m.strategies.as_ref().map_or(0, Vec::len);
        let seats = scenario_of(m, dir, &[]).map_or(0, |sc| sc.players.len() as u32);
        return crate::strength::metagame::planned(crate::strength::metagame::multisets(k, seats).len(), m.campaigns);
    }
    if q == spec::RESTRICTION_VALUE {
        return 2 * m.campaigns;
    }
    if q == spec::SEAT_DEVIATION {
        return m.campaigns;
    }
    m.campaigns * if m.variant.is_some() { 2 } else { 1 }
}

pub fn measure_sample(m: &MetricSpec, dir: &Path, players: Option<&str>) -> Result<Sample, Error> {
    let seat = |sc: crate::scenario::Scenario| match players {
        Some(s) => sc.with_players(s),
        None => Ok(sc),
    };
    let (sc, played) = scenario_played(m, dir, &[])?;
    let (sc, played) = (seat(sc)?, Some(played));
    if let Some(t) = &m.table {
        return measure::exact(&sc, t).map(|v| Sample { played, ..Sample::from(v) });
    }
    if let Some(sv) = &m.solve {
        return measure::solved(&sc, m, sv).map(|v| Sample { played, ..Sample::from(v) });
    }
    let variant = match &m.variant {
        Some(v) => Some(seat(scenario_of(m, dir, v)?)?),
        None => None,
    };
    measure::monte_carlo(&sc, variant.as_ref(), m).map(|s| Sample { played, ..s })
}

/// How a Monte Carlo metric was tested.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// An exact value: compared within 1e-9, no test.
    Exact,
    /// Bounds: one-sided z tests at `min` and `max` (Bonferroni over
    /// `worst_of` for a worst-of value).
    Bound,
    /// A baseline paired on common seeds: the per-campaign differences
    /// between this run and the stored baseline run.
    Paired { campaigns: u64 },
    /// A baseline without stored per-campaign values (or values of other
    /// campaigns): the run's and the baseline's standard errors combined.
    Unpaired { why: String },
}

/// One metric's result.
#[derive(Clone, Debug)]
pub struct Judged {
    pub spec: MetricSpec,
    pub measured: Measured,
    /// Each campaign's value (`Sample::values`), kept for `--update`.
    pub values: Vec<f64>,
    pub test: Test,
    /// The test's p-value, unadjusted (Monte Carlo metrics).
    pub p: Option<f64>,
    /// Holm's adjusted p-value over the file's Monte Carlo tests: the metric
    /// fails when it is at most the file's `alpha`.
    pub p_adj: Option<f64>,
    /// The change a baseline test compares (the paired mean difference, or
    /// the value minus the baseline).
    pub change: Option<f64>,
    /// The standard error of the test's statistic.
    pub se: Option<f64>,
    /// The smallest breach beyond a bound, or change from the baseline,
    /// found with 80% power at the level of one test of the family
    /// (alpha/m: Holm rejects at least where Bonferroni does).
    pub detectable: Option<f64>,
    /// With a paired baseline test whose differences are all 0 (the game did
    /// not change), what the test would detect if a change reshuffled every
    /// campaign's stream (the unpaired figure).
    pub detectable_reshuffled: Option<f64>,
    pub pass: bool,
    /// The scenario file it played (none when the sample was built
    /// without one, as in unit tests of the judging).
    pub played: Option<Played>,
    /// The stored baseline run played another version of that file: its
    /// hash.
    pub baseline_sha256: Option<String>,
    /// For a failure: what moved and by how much.
    pub why: String,
    /// For a pass the data cannot confirm: the interval reaches past a bound.
    pub warning: Option<String>,
    /// What the metric's campaigns' players did (`Sample::coverage`).
    pub coverage: Option<crate::sim::record::Coverage>,
}

/// Rejection of the statistic |d| of a change when |change| ≤ `tol` holds:
/// P(|D| ≥ |d|) at the least favourable change ±tol, Φ(−(|d|−tol)/se) +
/// Φ(−(|d|+tol)/se); with `tol` 0 the two-sided p-value.
pub fn p_change(d: f64, se: f64, tol: f64) -> f64 {
    (p_beyond(d.abs() - tol, se) + p_beyond(d.abs() + tol, se)).min(1.0)
}

/// Judge every measured metric of a file, pairing baselines with the
/// per-campaign values in `stored` where it has them.
pub fn judge(file: &BalanceFile, measured: Vec<Sample>, stored: &baseline::Stored) -> Vec<Judged> {
    let mut out: Vec<Judged> = Vec::new();
    let mut worst_of = Vec::new();
    for (spec, s) in file.metric.iter().zip(measured) {
        worst_of.push(s.worst_of);
        let baseline_sha256 = match (&s.played, stored.metrics.get(&spec.name)) {
            (Some(p), Some(run)) if spec.baseline.is_some() => run.scenario_sha256.clone().filter(|h| *h != p.sha256),
            _ => None,
        };
        out.push(Judged {
            coverage: s.coverage,
            played: s.played,
            baseline_sha256,
            spec: spec.clone(),
            measured: s.measured,
            values: s.values,
            test: Test::Exact,
            p: None,
            p_adj: None,
            change: None,
            se: None,
            detectable: None,
            detectable_reshuffled: None,
            pass: true,
            why: String::new(),
            warning: None,
        });
    }
    // Exact metrics: bounds and baselines within 1e-9.
    for j in out.iter_mut().filter(|j| j.measured.exact) {
        let m = j.measured;
        let mut why = Vec::new();
        if let Some(lo) = j.spec.min
            && m.value < lo - EXACT
        {
            why.push(format!("{} is below min {lo} by {}", m.value, plain(lo - m.value)));
        }
        if let Some(hi) = j.spec.max
            && m.value > hi + EXACT
        {
            why.push(format!("{} is above max {hi} by {}", m.value, plain(m.value - hi)));
        }
        if let Some(b) = j.spec.baseline
            && (m.value - b).abs() > j.spec.tolerance.max(EXACT)
        {
            why.push(format!("moved from the baseline {b} to {} ({})", m.value, signed(m.value - b)));
        }
        if !why.is_empty() {
            j.pass = false;
            j.why = why.join("; ");
        }
    }
    // Monte Carlo metrics: one test each (its bounds, or its baseline), then
    // Holm over the file's tests.
    let family: Vec<usize> = (0..out.len()).filter(|&i| !out[i].measured.exact).collect();
    let m = family.len().max(1) as f64;
    let level = file.alpha / m;
    for &i in &family {
        let j = &mut out[i];
        let v = j.measured;
        if let Some(b) = j.spec.baseline {
            let tol = j.spec.tolerance;
            let unpaired_se = (v.se.powi(2) + j.spec.baseline_se.unwrap_or(0.0).powi(2)).sqrt();
            let (change, se, test) = match stored.pairs(&j.spec, b, &j.values) {
                Ok(d) => {
                    let mean = crate::stats::mean_interval(d.iter().copied(), 0.95);
                    let se = mean.sd / (mean.n as f64).sqrt();
                    if se == 0.0 {
                        j.detectable_reshuffled = Some(tol + detectable_at(unpaired_se, level));
                    }
                    (mean.mean, se, Test::Paired { campaigns: mean.n })
                }
                Err(why) => (v.value - b, unpaired_se, Test::Unpaired { why: why.to_string() }),
            };
            j.p = Some(p_change(change, se, tol));
            j.change = Some(change);
            j.se = Some(se);
            j.detectable = Some(tol + detectable_at(se, level));
            j.test = test;
        } else {
            // One-sided at each bound; a metric with both can breach only
            // one, so the smaller p-value is its test (the other side adds
            // the chance of looking beyond the far bound, negligible when
            // the bounds are a few standard errors apart).
            let k = worst_of[i].max(1) as f64;
            let lo = j.spec.min.map(|lo| (k * p_beyond(lo - v.value, v.se)).min(1.0));
            let hi = j.spec.max.map(|hi| (k * p_beyond(v.value - hi, v.se)).min(1.0));
            j.p = lo.into_iter().chain(hi).reduce(f64::min);
            j.detectable = Some(detectable_one_sided(v.se, level / k));
            j.test = Test::Bound;
        }
    }
    let adjusted = holm(&family.iter().map(|&i| out[i].p.unwrap_or(1.0)).collect::<Vec<_>>());
    for (&i, q) in family.iter().zip(adjusted) {
        let alpha = file.alpha;
        let j = &mut out[i];
        j.p_adj = Some(q);
        let v = j.measured;
        let p = j.p.unwrap_or(1.0);
        let odds = format!("one-sided {}, Holm-adjusted {} ≤ alpha {alpha}", p_is(p), p_value(q));
        if q <= alpha {
            j.pass = false;
            j.why = match (j.spec.baseline, j.change, j.se) {
                (Some(b), Some(d), Some(se)) => {
                    let beyond = if j.spec.tolerance > 0.0 {
                        format!(" (beyond its tolerance {})", j.spec.tolerance)
                    } else {
                        String::new()
                    };
                    format!(
                        "moved from the baseline {b:.4} to {:.4}: {} change {d:+.4} ± {:.4}{beyond}, {}, \
                         Holm-adjusted {} ≤ alpha {alpha}",
                        v.value,
                        if matches!(j.test, Test::Paired { .. }) { "paired" } else { "unpaired" },
                        1.96 * se,
                        p_is(p),
                        p_value(q)
                    )
                }
                _ => {
                    let below = j.spec.min.filter(|&lo| v.value < lo);
                    match below {
                        Some(lo) => format!(
                            "{:.4} is below min {lo} (95% interval {:.4}–{:.4}); {odds}",
                            v.value, v.low, v.high
                        ),
                        None => format!(
                            "{:.4} is above max {} (95% interval {:.4}–{:.4}); {odds}",
                            v.value,
                            j.spec.max.unwrap_or(f64::NAN),
                            v.low,
                            v.high
                        ),
                    }
                }
            };
        } else if j.test == Test::Bound {
            j.warning = cannot_confirm(&j.spec, &v, q);
        }
    }
    out
}

/// A bound the 95% interval reaches past, with the campaigns that would
/// put the interval inside it.
fn cannot_confirm(spec: &MetricSpec, v: &Measured, q: f64) -> Option<String> {
    let side = |bound: f64, inside: f64, word: &str| -> String {
        let sd = v.se * (v.campaigns.max(1) as f64).sqrt();
        let more = if inside > 0.0 {
            let n = (1.959_964 * sd / inside).powi(2).ceil();
            format!("; about {n:.0} campaigns would confirm it if the value stays at {:.4}", v.value)
        } else {
            format!(
                "; the value is on the wrong side but not by more than noise at the file's level (Holm-adjusted {})",
                p_is(q)
            )
        };
        format!(
            "cannot confirm {word} {bound}: the 95% interval {:.4}–{:.4} (n={}) reaches past it{more}",
            v.low, v.high, v.campaigns
        )
    };
    let mut w = Vec::new();
    if let Some(lo) = spec.min
        && v.low < lo
    {
        w.push(side(lo, v.value - lo, "≥"));
    }
    if let Some(hi) = spec.max
        && v.high > hi
    {
        w.push(side(hi, hi - v.value, "≤"));
    }
    if w.is_empty() { None } else { Some(w.join("; ")) }
}

/// Rewrite the `baseline` (and `baseline_se`) of every metric that has one,
/// keeping the file's comments and layout. Returns the new text.
pub fn update(text: &str, judged: &[Judged]) -> Result<String, Error> {
    let mut doc: toml_edit::DocumentMut =
        text.parse().map_err(|e: toml_edit::TomlError| Error::input(e.to_string()))?;
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

/// The per-campaign values of every Monte Carlo baseline metric, as
/// `--update` stores them beside the file (`baseline::path_of`).
pub fn stored(judged: &[Judged]) -> baseline::Stored {
    let mut s = baseline::Stored { format: baseline::FORMAT, ..Default::default() };
    for j in judged.iter().filter(|j| j.spec.baseline.is_some() && !j.measured.exact && !j.values.is_empty()) {
        s.insert(&j.spec, j.measured.value, &j.values, j.played.as_ref().map(|p| p.sha256.clone()));
    }
    s
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
