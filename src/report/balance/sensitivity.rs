//! The sensitivity study as written: the ranked keys (`sensitivity.parquet`,
//! `sensitivity.json`), every design point (`points.parquet`, read back by
//! `sensitivity --merge`), the summary and the page with μ* and σ and the
//! Sobol' indices where measured.

use super::range;
use crate::balance::morris::{Effect, Rank};
use crate::balance::sensitivity::{Plan, Point, RESAMPLES};
use crate::balance::sobol::{Index, Indices};
use crate::error::Error;
use crate::report::charts::{Bar, Chart, ScatterPoint};
use crate::report::dataset::save_parquet;
use crate::report::files::write_file;
use crate::report::html::Page;
use crate::report::study::metrics::definitions;
use crate::report::table::{pct, text_table};
use polars::prelude::*;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// The result of a sensitivity study, as written.
pub struct Sensitivity<'a> {
    pub plan: &'a Plan,
    pub effects: &'a [Effect],
    /// Sobol' indices of the `sobol_keys` (indices into the plan's params),
    /// if the study had a Sobol' stage.
    pub sobol: Option<&'a Indices>,
    pub sobol_keys: &'a [usize],
    pub points: &'a [Point],
    /// The command that redoes it.
    pub command: String,
}

/// Four decimals; four significant digits, plain, where four decimals
/// would drop them (`0.0005`, not `-5.000e-4`).
fn g(x: f64) -> String {
    if !x.is_finite() {
        "—".into()
    } else if x != 0.0 && (x.abs() < 0.001 || x.abs() >= 1e5) {
        crate::report::number::plain(x)
    } else {
        format!("{x:.4}")
    }
}

/// The ranked keys: one row per key.
pub fn effects_frame(s: &Sensitivity) -> PolarsResult<DataFrame> {
    let e = s.effects;
    let p = |i: usize| &s.plan.params[e[i].input];
    let n = e.len();
    let sobol = |i: usize| s.sobol_index(e[i].input);
    let rank = |f: fn(&Rank) -> usize| e.iter().map(|x| x.rank.as_ref().map(|r| f(r) as u32)).collect::<Vec<_>>();
    let cols = vec![
        Column::new("rank".into(), rank(|r| r.rank)),
        Column::new("rank_low".into(), rank(|r| r.ci.0)),
        Column::new("rank_high".into(), rank(|r| r.ci.1)),
        Column::new("tier".into(), rank(|r| r.tier)),
        Column::new("key".into(), (0..n).map(|i| p(i).name.clone()).collect::<Vec<_>>()),
        Column::new("base".into(), (0..n).map(|i| p(i).base).collect::<Vec<_>>()),
        Column::new("lo".into(), (0..n).map(|i| p(i).lo).collect::<Vec<_>>()),
        Column::new("hi".into(), (0..n).map(|i| p(i).hi).collect::<Vec<_>>()),
        Column::new("effects".into(), e.iter().map(|x| x.n as u32).collect::<Vec<_>>()),
        Column::new("mu".into(), e.iter().map(|x| x.mu).collect::<Vec<_>>()),
        Column::new("mu_star".into(), e.iter().map(|x| x.mu_star).collect::<Vec<_>>()),
        Column::new("mu_star_low".into(), e.iter().map(|x| x.mu_star_ci.0).collect::<Vec<_>>()),
        Column::new("mu_star_high".into(), e.iter().map(|x| x.mu_star_ci.1).collect::<Vec<_>>()),
        Column::new("sigma".into(), e.iter().map(|x| x.sigma).collect::<Vec<_>>()),
        Column::new("sigma_low".into(), e.iter().map(|x| x.sigma_ci.0).collect::<Vec<_>>()),
        Column::new("sigma_high".into(), e.iter().map(|x| x.sigma_ci.1).collect::<Vec<_>>()),
        Column::new("noise".into(), e.iter().map(|x| x.noise).collect::<Vec<_>>()),
        Column::new("above_noise".into(), e.iter().map(|x| x.above_noise()).collect::<Vec<_>>()),
        Column::new("sobol_first".into(), (0..n).map(|i| sobol(i).map(|x| x.first)).collect::<Vec<_>>()),
        Column::new("sobol_first_low".into(), (0..n).map(|i| sobol(i).map(|x| x.first_ci.0)).collect::<Vec<_>>()),
        Column::new("sobol_first_high".into(), (0..n).map(|i| sobol(i).map(|x| x.first_ci.1)).collect::<Vec<_>>()),
        Column::new("sobol_total".into(), (0..n).map(|i| sobol(i).map(|x| x.total)).collect::<Vec<_>>()),
        Column::new("sobol_total_low".into(), (0..n).map(|i| sobol(i).map(|x| x.total_ci.0)).collect::<Vec<_>>()),
        Column::new("sobol_total_high".into(), (0..n).map(|i| sobol(i).map(|x| x.total_ci.1)).collect::<Vec<_>>()),
        Column::new("sobol_total_raw".into(), (0..n).map(|i| sobol(i).map(|x| x.total_raw)).collect::<Vec<_>>()),
        Column::new("sobol_noise_floor".into(), (0..n).map(|i| sobol(i).map(|x| x.noise_floor)).collect::<Vec<_>>()),
        Column::new(
            "sobol_noise_floor_low".into(),
            (0..n).map(|i| sobol(i).map(|x| x.noise_floor_ci.0)).collect::<Vec<_>>(),
        ),
        Column::new(
            "sobol_noise_floor_high".into(),
            (0..n).map(|i| sobol(i).map(|x| x.noise_floor_ci.1)).collect::<Vec<_>>(),
        ),
        Column::new("sobol_verdict".into(), (0..n).map(|i| sobol(i).map(|x| x.verdict())).collect::<Vec<_>>()),
    ];
    DataFrame::new(n, cols)
}

/// Every design point, with every parameter's value as played.
pub fn points_frame(plan: &Plan, points: &[Point]) -> PolarsResult<DataFrame> {
    let n = points.len();
    let mut cols = vec![
        Column::new("stage".into(), points.iter().map(|p| p.stage).collect::<Vec<_>>()),
        Column::new("group".into(), points.iter().map(|p| p.group as u32).collect::<Vec<_>>()),
        Column::new("position".into(), points.iter().map(|p| p.position as u32).collect::<Vec<_>>()),
        Column::new(
            "moved".into(),
            points.iter().map(|p| p.moved.map(|i| plan.params[i].name.clone())).collect::<Vec<_>>(),
        ),
        Column::new("campaigns".into(), vec![plan.campaigns; n]),
        Column::new("mean".into(), points.iter().map(|p| p.mean).collect::<Vec<_>>()),
        Column::new("se".into(), points.iter().map(|p| p.se).collect::<Vec<_>>()),
        Column::new("diff".into(), points.iter().map(|p| p.diff).collect::<Vec<_>>()),
        Column::new("diff_se".into(), points.iter().map(|p| p.diff_se).collect::<Vec<_>>()),
        Column::new("diff_b".into(), points.iter().map(|p| p.diff_b).collect::<Vec<_>>()),
        Column::new("diff_b_se".into(), points.iter().map(|p| p.diff_b_se).collect::<Vec<_>>()),
    ];
    for (i, p) in plan.params.iter().enumerate() {
        cols.push(Column::new(p.name.as_str().into(), points.iter().map(|x| x.values[i]).collect::<Vec<_>>()));
    }
    DataFrame::new(n, cols)
}

/// `sensitivity.json`: the keys ranked, with μ*, σ, their intervals and
/// the Sobol' indices where measured.
pub fn sensitivity_json(s: &Sensitivity) -> String {
    let keys: Vec<_> = s
        .effects
        .iter()
        .map(|e| {
            let p = &s.plan.params[e.input];
            let sobol = s.sobol_index(e.input);
            json!({
                "rank": e.rank.map(|r| r.rank), "rank_ci": e.rank.map(|r| [r.ci.0, r.ci.1]),
                "tier": e.rank.map(|r| r.tier), "status": status(e),
                "key": p.name, "base": p.base, "lo": p.lo, "hi": p.hi,
                "effects": e.n, "mu": e.mu, "mu_star": e.mu_star,
                "mu_star_ci": [e.mu_star_ci.0, e.mu_star_ci.1],
                "sigma": e.sigma, "sigma_ci": [e.sigma_ci.0, e.sigma_ci.1],
                "noise": e.noise, "above_noise": e.above_noise(),
                "sobol_first": sobol.map(|x| json!({"value": x.first, "ci": [x.first_ci.0, x.first_ci.1]})),
                "sobol_total": sobol.map(|x| json!({"value": x.total, "ci": [x.total_ci.0, x.total_ci.1]})),
                "sobol_total_uncorrected": sobol.map(|x| x.total_raw),
                "sobol_noise_floor": sobol.map(|x| json!({"value": x.noise_floor, "ci": [x.noise_floor_ci.0, x.noise_floor_ci.1]})),
                "sobol_verdict": sobol.map(|x| x.verdict()),
            })
        })
        .collect();
    let v = json!({
        "metric": s.plan.metric.name(),
        "method": "Morris elementary effects (4 levels, Δ = 2/3), effects per whole interval of each key; intervals: percentile bootstrap over trajectories, 95%",
        "rank_method": rank_method(),
        "ranked": s.ranked().count(),
        "order": tiers(s).iter().map(|t| t.iter().map(|e| &s.plan.params[e.input].name).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "trajectories": s.plan.trajectories,
        "campaigns_per_point": s.plan.campaigns,
        "master_seed": s.plan.master,
        "design_points": s.points.len(),
        "undefined_points": s.points.iter().filter(|p| !p.mean.is_finite()).count(),
        "sobol_rows": s.plan.sobol_rows,
        "sobol_method": s.sobol.map(|_| SOBOL_METHOD),
        "sobol_variance": s.sobol.map(|x| variance(x).json()),
        "sobol_noise_share": s.sobol.map(|x| noise_share(x).json()),
        "command": s.command,
        "keys": keys,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// The ranked table, as text rows.
pub fn sensitivity_rows(s: &Sensitivity, limit: usize) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "rank".to_string(),
        "key".into(),
        "range".into(),
        "μ*".into(),
        "95% interval".into(),
        "σ".into(),
        "95% interval".into(),
        "noise".into(),
        "μ (sign)".into(),
    ]];
    for e in s.effects.iter().take(limit) {
        let p = &s.plan.params[e.input];
        rows.push(vec![
            rank_cell(e),
            p.name.clone(),
            range(p),
            g(e.mu_star),
            format!("{} to {}", g(e.mu_star_ci.0), g(e.mu_star_ci.1)),
            g(e.sigma),
            format!("{} to {}", g(e.sigma_ci.0), g(e.sigma_ci.1)),
            g(e.noise),
            g(e.mu),
        ]);
    }
    rows
}

/// How the ranks and their intervals are made, in one sentence.
fn rank_method() -> String {
    format!(
        "only keys whose μ* interval clears their noise level are ranked, by μ*; each rank's 95% interval is a \
         percentile bootstrap of the ranks over resampled trajectories ({RESAMPLES} resamples, seeded from the \
         master seed), widened to hold the point rank; keys whose rank intervals overlap are not ordered (one tier)"
    )
}

/// What the screening says of a key: ranked, within noise, or no effect
/// taken at all (every move cancelled by rounding, or undefined).
fn status(e: &Effect) -> &'static str {
    match e.rank {
        Some(_) => "ranked",
        None if e.n == 0 => "no effect taken",
        None => "within noise",
    }
}

/// A key's rank with its interval, `2 [2, 5]`, or why it has none.
fn rank_cell(e: &Effect) -> String {
    match e.rank {
        Some(r) => format!("{} [{}, {}]", r.rank, r.ci.0, r.ci.1),
        None => status(e).into(),
    }
}

/// The ranked keys in tiers, best first: keys of one tier are not ordered
/// among themselves.
fn tiers<'a>(s: &Sensitivity<'a>) -> Vec<Vec<&'a Effect>> {
    let mut out: Vec<Vec<&Effect>> = Vec::new();
    for e in s.ranked() {
        let tier = e.rank.map_or(0, |r| r.tier);
        match out.last_mut() {
            Some(t) if t[0].rank.map_or(0, |r| r.tier) == tier => t.push(e),
            _ => out.push(vec![e]),
        }
    }
    out
}

/// The order the rank intervals establish, in one line: tiers from the
/// key that moves the metric most, a tier of several keys in braces (at
/// most `limit` keys named); or, when no key is ranked, that none is.
fn order_text(s: &Sensitivity, limit: usize) -> String {
    let k = s.plan.params.len();
    let tiers = tiers(s);
    if tiers.is_empty() {
        return format!(
            "no key moves {} beyond the campaigns' noise: every one of the {k} keys is within noise, so none is ranked",
            s.plan.metric.name()
        );
    }
    let ranked: usize = tiers.iter().map(Vec::len).sum();
    let (mut parts, mut named) = (Vec::new(), 0);
    for t in &tiers {
        if named >= limit {
            parts.push("…".to_string());
            break;
        }
        let names: Vec<&str> = t.iter().map(|e| s.plan.params[e.input].name.as_str()).collect();
        named += names.len();
        parts.push(if names.len() == 1 { names[0].to_string() } else { format!("{{{}}}", names.join(", ")) });
    }
    let mut out = format!("order by rank intervals: {}", parts.join(" > "));
    if tiers.iter().any(|t| t.len() > 1) {
        out += "; keys in braces are not ordered among themselves (their rank intervals overlap)";
    }
    if ranked < k {
        out += &format!("; the other {} keys are within noise and not ranked", k - ranked);
    }
    out
}

/// A share of variance or a variance as the estimator gave it, and as it
/// may be shown: a variance cannot be below 0, nor the noise more than the
/// whole uncorrected variance, so what falls outside is clamped to the
/// bound, and said to be.
struct Clamped {
    value: f64,
    ci: (f64, f64),
    estimate: f64,
    estimate_ci: (f64, f64),
}

impl Clamped {
    fn new(estimate: f64, estimate_ci: (f64, f64), lo: f64, hi: f64) -> Clamped {
        let c = |x: f64| if x.is_nan() || x.is_infinite() { x } else { x.clamp(lo, hi) };
        Clamped { value: c(estimate), ci: (c(estimate_ci.0), c(estimate_ci.1)), estimate, estimate_ci }
    }

    /// Whether the estimate, its interval's lower end and its upper end
    /// were clamped.
    fn clamped(&self) -> (bool, bool, bool) {
        let moved = |a: f64, b: f64| a.is_finite() && a != b;
        (moved(self.estimate, self.value), moved(self.estimate_ci.0, self.ci.0), moved(self.estimate_ci.1, self.ci.1))
    }

    /// What was clamped, in words (empty when nothing was).
    fn clamped_words(&self) -> String {
        let (estimate, lo, hi) = self.clamped();
        let ends = match (lo, hi) {
            (true, true) => "both ends of its interval",
            (true, false) => "its interval's lower end",
            (false, true) => "its interval's upper end",
            (false, false) => "",
        };
        match (estimate, ends.is_empty()) {
            (true, false) => format!("the estimate and {ends}"),
            (true, true) => "the estimate".into(),
            (false, _) => ends.into(),
        }
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "value": self.value, "ci": [self.ci.0, self.ci.1],
            "estimate": self.estimate, "estimate_ci": [self.estimate_ci.0, self.estimate_ci.1],
            "clamped": !self.clamped_words().is_empty(),
        })
    }
}

/// The metric's variance over the ranges, at least 0.
fn variance(ix: &Indices) -> Clamped {
    Clamped::new(ix.variance, ix.variance_ci, 0.0, f64::INFINITY)
}

/// The share of the uncorrected variance that is noise, at most 100%.
fn noise_share(ix: &Indices) -> Clamped {
    Clamped::new(ix.noise_share, ix.noise_share_ci, 0.0, 1.0)
}

/// The note under a clamped variance: what fell below zero, and why.
fn clamp_note(ix: &Indices) -> Option<String> {
    let (below, above) = (variance(ix).clamped_words(), noise_share(ix).clamped_words());
    let (what, shown) = match (below.is_empty(), above.is_empty()) {
        (true, true) => return None,
        (false, false) => (format!("here {below} came out below zero"), "0 (the noise share as 100%)"),
        (false, true) => (format!("here {below} came out below zero"), "0"),
        (true, false) => (format!("the noise share ({above}) came out above 100%"), "100%"),
    };
    Some(format!(
        "clamped: a variance cannot be negative, but {what}, because the Monte Carlo noise subtracted is larger \
         than the signal it was subtracted from; shown as {shown}"
    ))
}

/// How the Sobol' indices are estimated, in one sentence.
const SOBOL_METHOD: &str = "Saltelli design; Jansen difference estimators of V, S and ST corrected for Monte Carlo noise (each paired difference's squared standard error, measured from its campaigns, subtracted from its square); each row plays its own block of campaigns; 95% percentile bootstrap intervals over rows; verdict \"noise\" when ST's interval reaches 0 (2.5% one-sided error per key)";

impl<'a> Sensitivity<'a> {
    /// The ranked keys, best first.
    fn ranked(&self) -> impl Iterator<Item = &'a Effect> + use<'a> {
        self.effects.iter().filter(|e| e.rank.is_some())
    }

    /// The Sobol' index of parameter `input`, if measured.
    fn sobol_index(&self, input: usize) -> Option<&Index> {
        let j = self.sobol_keys.iter().position(|&k| k == input)?;
        self.sobol?.indices.get(j)
    }
}

/// An interval for people: an unbounded one says so.
fn ci_text(ci: (f64, f64)) -> String {
    if ci.0.is_infinite() || ci.1.is_infinite() {
        "undefined (variance not above noise)".into()
    } else {
        format!("{} to {}", g(ci.0), g(ci.1))
    }
}

/// A Sobol' index for people. An index is a share of variance, so a value
/// outside [0, 1], or one whose interval is undefined, is noise and not an
/// estimate: it is shown as `—` with what it read.
fn index_text(x: f64, ci: (f64, f64)) -> String {
    if ci.0.is_infinite() || ci.1.is_infinite() || !x.is_finite() {
        "— (undefined)".into()
    } else if !(0.0..=1.0).contains(&x) {
        format!("— (read {}, outside [0, 1])", g(x))
    } else {
        g(x)
    }
}

fn sobol_rows(s: &Sensitivity) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "key".to_string(),
        "first order S".into(),
        "95% interval".into(),
        "total ST".into(),
        "95% interval".into(),
        "ST uncorrected".into(),
        "noise floor".into(),
        "95% interval".into(),
        "verdict".into(),
    ]];
    let Some(ix) = s.sobol else { return rows };
    for (j, x) in ix.indices.iter().enumerate() {
        rows.push(vec![
            s.plan.params[s.sobol_keys[j]].name.clone(),
            index_text(x.first, x.first_ci),
            ci_text(x.first_ci),
            index_text(x.total, x.total_ci),
            ci_text(x.total_ci),
            g(x.total_raw),
            g(x.noise_floor),
            ci_text(x.noise_floor_ci),
            x.verdict().to_string(),
        ]);
    }
    rows
}

/// The Sobol' stage's header: what was played and how much of the spread
/// is noise.
fn sobol_header(s: &Sensitivity, ix: &Indices) -> String {
    let mut out = format!(
        "Sobol' indices ({} rows, each on its own block of {} campaigns, master seed {}), corrected for Monte Carlo noise:\n",
        s.plan.sobol_rows, s.plan.campaigns, s.plan.master
    );
    let (v, share) = (variance(ix), noise_share(ix));
    out += &format!(
        "  variance of the metric over the ranges {} (95% interval {}); Monte Carlo noise is {} of the uncorrected variance (95% interval {} to {})\n",
        g(v.value),
        ci_text(v.ci),
        pct(share.value),
        pct(share.ci.0),
        pct(share.ci.1)
    );
    if let Some(note) = clamp_note(ix) {
        out += &format!("  {note}\n");
    }
    if !ix.varies() {
        out += "  the metric does not vary beyond Monte Carlo noise over these ranges: every index is noise; play more campaigns per point to resolve it\n";
    }
    out += "  noise floor: the ST an input with no effect would read without the correction; verdict \"noise\": ST's interval reaches 0 (2.5% one-sided error per key)\n";
    out += "  an index is a share of variance, in [0, 1]: one that reads outside it, or whose interval is undefined, is noise and shown as —\n";
    out
}

/// The summary printed by the command.
pub fn sensitivity_text(s: &Sensitivity, limit: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "sensitivity of \"{}\": {} keys, {} trajectories, {} design points of {} campaigns each, master seed {}",
        s.plan.metric.name(),
        s.plan.params.len(),
        s.plan.trajectories,
        s.points.len(),
        s.plan.campaigns,
        s.plan.master
    );
    let _ = writeln!(out, "μ* and σ: change of the metric per whole range of the key (95% bootstrap intervals)");
    let _ = writeln!(out, "rank [95% interval]: {}", rank_method());
    out.push_str(&definitions([&s.plan.metric]));
    let undefined = s.points.iter().filter(|p| !p.mean.is_finite()).count();
    if undefined > 0 {
        let _ = writeln!(
            out,
            "{undefined} design points had no campaign where the metric is defined (a share of gold where nobody earned any); their moves give no effect"
        );
    }
    out.push_str(&text_table(&sensitivity_rows(s, limit)));
    let _ = writeln!(out, "{}", order_text(s, limit));
    if let Some(ix) = s.sobol {
        out.push('\n');
        out.push_str(&sobol_header(s, ix));
        out.push_str(&text_table(&sobol_rows(s)));
    }
    out
}

/// Write `sensitivity.parquet`, `points.parquet`, `sensitivity.json` and
/// the page with its charts. Returns the file names.
pub fn write_sensitivity(s: &Sensitivity, dir: &Path) -> Result<Vec<String>, Error> {
    save_parquet(dir, "sensitivity", effects_frame(s).map_err(|e| Error::internal(e.to_string()))?)?;
    save_parquet(dir, "points", points_frame(s.plan, s.points).map_err(|e| Error::internal(e.to_string()))?)?;
    write_file(&dir.join("sensitivity.json"), sensitivity_json(s).as_bytes())?;
    let mut page = Page::new(&format!("Sensitivity of {}", s.plan.metric.name()));
    page.answer(&answer(s));
    page.p(&format!(
        "Morris screening of {} keys: {} trajectories, {} design points, {} campaigns per point on master seed {} (common random numbers: every point plays the same campaigns). μ* is the mean absolute change of the metric when a key crosses its whole range; σ is the spread of those changes (large: the key acts through interactions or a curve). Intervals are 95% bootstrap intervals over the trajectories; \"noise\" is the μ* a key with no effect would show from the campaigns' noise alone. Ranks: {}.",
        s.plan.params.len(),
        s.plan.trajectories,
        s.points.len(),
        s.plan.campaigns,
        s.plan.master,
        rank_method()
    ));
    page.pre(&s.command);
    let top: Vec<&Effect> = s.effects.iter().take(15).collect();
    let bars = Chart::HBars {
        title: format!("μ* of the {} keys that matter most", top.len()),
        x_label: format!("μ*: change of {} over the key's range", s.plan.metric.name()),
        bars: top
            .iter()
            .map(|e| Bar {
                label: s.plan.params[e.input].name.clone(),
                value: e.mu_star,
                low: e.mu_star_ci.0,
                high: e.mu_star_ci.1,
            })
            .collect(),
    };
    page.chart(dir, "ranked", &bars, "Keys ranked by μ*, with 95% intervals.")?;
    let scatter = Chart::Scatter {
        title: "μ* against σ".into(),
        x_label: "μ* (importance)".into(),
        y_label: "σ (interactions, curvature)".into(),
        points: s
            .effects
            .iter()
            .enumerate()
            .map(|(r, e)| ScatterPoint {
                label: if r < 8 { short(&s.plan.params[e.input].name) } else { String::new() },
                x: e.mu_star,
                y: e.sigma,
                x_ci: e.mu_star_ci,
                y_ci: e.sigma_ci,
            })
            .collect(),
    };
    page.chart(
        dir,
        "mu_sigma",
        &scatter,
        "Each key at (μ*, σ), the eight largest labelled; whiskers are 95% intervals.",
    )?;
    page.h2("Keys ranked");
    let defined = definitions([&s.plan.metric]);
    if !defined.is_empty() {
        page.p(&defined);
    }
    page.table(&sensitivity_rows(s, usize::MAX));
    page.p(&order_text(s, usize::MAX));
    if let Some(ix) = s.sobol {
        page.h2("Sobol' indices");
        page.p(&format!(
            "Saltelli design of {} rows for the keys below, the others at their base values: S is the share of the metric's variance a key explains alone, ST with its interactions. Method: {SOBOL_METHOD}.",
            s.plan.sobol_rows
        ));
        page.pre(&sobol_header(s, ix));
        page.table(&sobol_rows(s));
    }
    let mut files = vec!["sensitivity.parquet".into(), "points.parquet".into(), "sensitivity.json".into()];
    files.extend(page.files());
    page.finish(dir)?;
    Ok(files)
}

/// The page's answer: the key or keys that move the metric most, as far
/// as the rank intervals order them, and how many are ranked at all.
fn answer(s: &Sensitivity) -> String {
    let (metric, k) = (s.plan.metric.name(), s.plan.params.len());
    let budget = format!("{} campaigns a point, master seed {}", s.plan.campaigns, s.plan.master);
    let tiers = tiers(s);
    let Some(first) = tiers.first() else {
        return format!(
            "No key moves {metric} beyond the campaigns' noise: every one of the {k} keys is within noise, so none \
             is ranked ({budget})."
        );
    };
    let name = |e: &&Effect| format!("{} (μ* {:.3})", s.plan.params[e.input].name, e.mu_star);
    let most = if first.len() == 1 {
        format!("{metric} moves most with {}", name(&first[0]))
    } else {
        let names: Vec<String> = first.iter().map(name).collect();
        format!(
            "{metric} moves most with one of {}, whose rank intervals overlap, so their order is not established",
            names.join(", ")
        )
    };
    let ranked: usize = tiers.iter().map(Vec::len).sum();
    let rest = match k - ranked {
        0 => String::new(),
        1 => ", the other one is within noise and not ranked".to_string(),
        n => format!(", the other {n} are within noise and not ranked"),
    };
    format!("{most}; {ranked} of the {k} keys move it beyond the campaigns' noise and are ranked{rest} ({budget}).")
}

/// The last two parts of a dotted key, for chart labels.
fn short(key: &str) -> String {
    let parts: Vec<&str> = key.rsplitn(3, '.').collect();
    if parts.len() < 3 { key.to_string() } else { format!("{}.{}", parts[1], parts[0]) }
}

/// The design points a shard wrote, for `sensitivity --merge`. The
/// parameter columns must be the plan's, in its order.
pub fn read_points(path: &Path, plan: &Plan) -> Result<Vec<Point>, Error> {
    let at = |e: PolarsError| Error::input(format!("{}: {e}", path.display()));
    let f = std::fs::File::open(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let df = ParquetReader::new(f).finish().map_err(at)?;
    let f64s = |name: &str| -> Result<Vec<f64>, Error> {
        Ok(df
            .column(name)
            .map_err(at)?
            .cast(&DataType::Float64)
            .map_err(at)?
            .f64()
            .map_err(at)?
            .iter()
            .map(|v| v.unwrap_or(f64::NAN))
            .collect())
    };
    let strs = |name: &str| -> Result<Vec<Option<String>>, Error> {
        Ok(df
            .column(name)
            .map_err(at)?
            .cast(&DataType::String)
            .map_err(at)?
            .str()
            .map_err(at)?
            .iter()
            .map(|v| v.map(str::to_string))
            .collect())
    };
    let campaigns = f64s("campaigns")?;
    if campaigns.iter().any(|&c| c != plan.campaigns as f64) {
        return Err(Error::input(format!("{}: played with another --campaigns", path.display())));
    }
    let (stage, moved) = (strs("stage")?, strs("moved")?);
    let (group, position) = (f64s("group")?, f64s("position")?);
    let (mean, se, diff, diff_se) = (f64s("mean")?, f64s("se")?, f64s("diff")?, f64s("diff_se")?);
    // Shards written before the noise-corrected Sobol' stage have no
    // `diff_b` columns; their Sobol' points cannot be analysed again.
    let nans = vec![f64::NAN; df.height()];
    let (diff_b, diff_b_se) = (f64s("diff_b").unwrap_or_else(|_| nans.clone()), f64s("diff_b_se").unwrap_or(nans));
    let values: Vec<Vec<f64>> = plan
        .params
        .iter()
        .map(|p| {
            f64s(&p.name).map_err(|_| {
                Error::input(format!("{}: no column {}: played with other --inputs keys", path.display(), p.name))
            })
        })
        .collect::<Result<_, _>>()?;
    (0..df.height())
        .map(|r| {
            let moved = match &moved[r] {
                Some(name) => Some(
                    plan.params
                        .iter()
                        .position(|p| &p.name == name)
                        .ok_or_else(|| Error::input(format!("{}: unknown key {name}", path.display())))?,
                ),
                None => None,
            };
            Ok(Point {
                stage: if stage[r].as_deref() == Some("sobol") { "sobol" } else { "morris" },
                group: group[r] as usize,
                position: position[r] as usize,
                moved,
                values: values.iter().map(|c| c[r]).collect(),
                mean: mean[r],
                se: se[r],
                diff: diff[r],
                diff_se: diff_se[r],
                diff_b: diff_b[r],
                diff_b_se: diff_b_se[r],
            })
        })
        .collect()
}
