//! `empires sensitivity`: which numbers of a scenario move a metric.
//!
//! A Morris design screens every named key (`--keys all`: every numeric
//! key of the rules and every dice key) for `(k + 1) r` design points; the
//! Sobol' indices of a short list then split the variance among the keys
//! that matter, if asked. Every point plays campaigns `0..N` on the master
//! seed (common random numbers), so an effect is a paired difference of
//! the same campaigns, and its standard error comes from those campaigns.
//!
//! The Sobol' stage is different: row `r` of its design plays its `k + 2`
//! points on its own block of campaigns, `r N .. (r + 1) N` of the master
//! seed, so the rows are independent (the bootstrap over rows needs it)
//! while the points of a row stay paired, and each paired difference
//! carries its Monte Carlo standard error, which the noise-corrected
//! estimator of [`super::sobol`] subtracts.
//!
//! Shards split the trajectories (Morris) or the rows (Sobol'): a shard
//! plays whole trajectories or rows, so it has every paired difference it
//! needs, and the shards' points together are the whole design.

use super::morris::{self, Effect, Step, Trajectory};
use super::sobol;
use super::{paired, per_campaign, scenario_at};
use crate::error::Error;
use crate::rules::setup::SetupError;
use crate::scenario::Scenario;
use crate::scenario::param::Param;
use crate::seed::mix2;
use crate::sim::Detail;
use crate::sim::runner::{Flow, RunConfig, run};
use crate::study::metrics::Metric;
use rand_pcg::Pcg64Mcg;

/// Salts of the design's random streams: the design depends only on the
/// master seed and the plan, so every shard draws the same one.
const MORRIS_SALT: u64 = 0x4D4F_5252_4953;
const SOBOL_SALT: u64 = 0x0053_4F42_4F4C;
const BOOT_SALT: u64 = 0x424F_4F54;

/// Levels of the Morris grid (Δ = 2/3).
pub const LEVELS: usize = 4;

/// Bootstrap resamples of every interval.
pub const RESAMPLES: usize = 1000;

/// What to play.
#[derive(Clone, Debug)]
pub struct Plan {
    pub params: Vec<Param>,
    pub metric: Metric,
    pub trajectories: usize,
    pub campaigns: u64,
    pub master: u64,
    pub rotate: bool,
    /// Sobol' rows for the top keys (0: no Sobol' stage).
    pub sobol_rows: usize,
}

impl Plan {
    /// The Morris trajectories, the same for every shard.
    pub fn trajectories(&self) -> Vec<Trajectory> {
        let mut rng = Pcg64Mcg::new(mix2(self.master, MORRIS_SALT) as u128);
        morris::design(self.params.len(), self.trajectories, LEVELS, &mut rng)
    }
}

/// One played design point.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// `morris` or `sobol`.
    pub stage: &'static str,
    /// The trajectory (Morris) or the row (Sobol').
    pub group: usize,
    /// Position in the trajectory (Morris; the input moved to get here is
    /// `moved`), or 0 = A, 1 = B, 2 + i = A_B^i (Sobol').
    pub position: usize,
    pub moved: Option<usize>,
    /// Each parameter's value, as played (after rounding).
    pub values: Vec<f64>,
    pub mean: f64,
    pub se: f64,
    /// The paired difference from the previous point of the trajectory
    /// and its standard error (Morris, position > 0); for Sobol', from the
    /// row's A point (B and each A_B^i).
    pub diff: f64,
    pub diff_se: f64,
    /// Sobol' A_B^i points: the paired difference from the row's B point
    /// and its standard error (NaN elsewhere).
    pub diff_b: f64,
    pub diff_b_se: f64,
}

/// Play the Morris trajectories of shard `shard.0` of `shard.1` (those
/// whose index is the shard's modulo the shard count).
pub fn play_morris(
    base: &Scenario,
    plan: &Plan,
    shard: (usize, usize),
    mut progress: impl FnMut(usize),
) -> Result<Vec<Point>, Error> {
    let trajectories = plan.trajectories();
    // Every point is checked before any is played, so a bad range fails
    // at once rather than after minutes of play.
    for traj in &trajectories {
        for u in &traj.points {
            scenario_at(base, &plan.params, u)?;
        }
    }
    let mut out = Vec::new();
    for (t, traj) in trajectories.iter().enumerate().filter(|(t, _)| t % shard.1 == shard.0) {
        let mut prev: Option<Vec<f64>> = None;
        for (j, u) in traj.points.iter().enumerate() {
            let (values, ys) = play_point(base, plan, &plan.params, u)?;
            let (mean, se, _) = super::mean_se(&ys);
            let (diff, diff_se) = prev.as_ref().map_or((f64::NAN, f64::NAN), |p| paired(p, &ys));
            let moved = (j > 0).then(|| traj.order[j - 1]);
            let (diff_b, diff_b_se) = (f64::NAN, f64::NAN);
            out.push(Point {
                stage: "morris",
                group: t,
                position: j,
                moved,
                values,
                mean,
                se,
                diff,
                diff_se,
                diff_b,
                diff_b_se,
            });
            prev = Some(ys);
            progress(1);
        }
    }
    Ok(out)
}

/// Play one design point: `varied` at unit point `u`. Returns every
/// parameter of the plan's value as played (after rounding) and the
/// metric in each campaign.
fn play_point(base: &Scenario, plan: &Plan, varied: &[Param], u: &[f64]) -> Result<(Vec<f64>, Vec<f64>), Error> {
    let sc = scenario_at(base, varied, u)?;
    let ys = per_campaign(&sc, &plan.metric, plan.master, plan.campaigns, plan.rotate)?;
    Ok((plan.params.iter().map(|p| p.get(&sc)).collect(), ys))
}

/// Play one Sobol' point of row `row` on the row's block of campaigns.
fn play_block(
    base: &Scenario,
    plan: &Plan,
    varied: &[Param],
    u: &[f64],
    row: usize,
) -> Result<(Vec<f64>, Vec<f64>), Error> {
    let sc = scenario_at(base, varied, u)?;
    let n = plan.campaigns;
    let cfg = RunConfig {
        master: plan.master,
        range: row as u64 * n..(row as u64 + 1) * n,
        rotate_seats: plan.rotate,
        chunk: 2048,
        detail: Detail { combats: plan.metric.needs_combats(), ..Detail::default() },
    };
    let players = sc.players.len().max(1);
    let key =
        || format!("sobol block master {} {:?} {:?} {:?} {sc:?}", plan.master, cfg.range, plan.rotate, plan.metric);
    let ys: Vec<f64> = crate::sim::watch::memo(n, key, || {
        let mut ys = Vec::with_capacity(n as usize);
        run::<SetupError>(
            &sc,
            &cfg,
            |chunk| {
                let each = crate::study::metrics::campaigns(&chunk, players);
                ys.extend(each.into_iter().map(|(rows, fought)| plan.metric.value_of(rows, fought)));
                Ok(Flow::Continue)
            },
            |_| {},
        )
        .map(|_| ys)
    })
    .map_err(Error::from)?;
    Ok((plan.params.iter().map(|p| p.get(&sc)).collect(), ys))
}

/// The elementary effects of the played Morris points (of every shard),
/// with the ranks of the keys above noise; every interval, the ranks'
/// too, comes from a bootstrap seeded from the master seed, so a study
/// prints the same ranks each time it is run or merged.
pub fn morris_effects(plan: &Plan, points: &[Point]) -> Vec<Effect> {
    let mut pts: Vec<&Point> = points.iter().filter(|p| p.stage == "morris").collect();
    pts.sort_by_key(|p| (p.group, p.position));
    let steps: Vec<Step> = pts
        .windows(2)
        .filter(|w| w[0].group == w[1].group && w[1].moved.is_some())
        .map(|w| {
            let i = w[1].moved.unwrap_or(0);
            let p = &plan.params[i];
            Step {
                trajectory: w[1].group,
                input: i,
                du: p.unit_of(w[1].values[i]) - p.unit_of(w[0].values[i]),
                dy: w[1].diff,
                dy_se: w[1].diff_se,
            }
        })
        .collect();
    let mut rng = Pcg64Mcg::new(mix2(plan.master, BOOT_SALT) as u128);
    morris::analyse(plan.params.len(), &steps, 0.95, RESAMPLES, &mut rng)
}

/// Play the Sobol' rows of shard `shard` for the parameters `top` (indices
/// into the plan's), the others held at their base values.
pub fn play_sobol(
    base: &Scenario,
    plan: &Plan,
    top: &[usize],
    shard: (usize, usize),
    mut progress: impl FnMut(usize),
) -> Result<Vec<Point>, Error> {
    let params: Vec<Param> = top.iter().map(|&i| plan.params[i].clone()).collect();
    let mut rng = Pcg64Mcg::new(mix2(plan.master, SOBOL_SALT) as u128);
    let d = sobol::design(params.len(), plan.sobol_rows, &mut rng);
    for u in d.points() {
        scenario_at(base, &params, &u)?;
    }
    let mut out = Vec::new();
    for row in (0..plan.sobol_rows).filter(|r| r % shard.1 == shard.0) {
        let mut at = vec![&d.a[row], &d.b[row]];
        at.extend(d.ab.iter().map(|m| &m[row]));
        let (mut ya, mut yb) = (Vec::new(), Vec::new());
        for (pos, u) in at.into_iter().enumerate() {
            let (values, ys) = play_block(base, plan, &params, u, row)?;
            let (mean, se, _) = super::mean_se(&ys);
            let from = |x: &[f64]| {
                let d = sobol::Diff::paired(x, &ys);
                (d.d, d.se)
            };
            let (diff, diff_se) = if pos == 0 { (f64::NAN, f64::NAN) } else { from(&ya) };
            let (diff_b, diff_b_se) = if pos < 2 { (f64::NAN, f64::NAN) } else { from(&yb) };
            out.push(Point {
                stage: "sobol",
                group: row,
                position: pos,
                moved: None,
                values,
                mean,
                se,
                diff,
                diff_se,
                diff_b,
                diff_b_se,
            });
            match pos {
                0 => ya = ys,
                1 => yb = ys,
                _ => {}
            }
            progress(1);
        }
    }
    Ok(out)
}

/// The Sobol' indices of the `top` parameters from the played rows.
pub fn sobol_indices(plan: &Plan, top: &[usize], points: &[Point]) -> sobol::Indices {
    let k = top.len();
    let n = plan.sobol_rows;
    let nan = sobol::Diff { d: f64::NAN, se: f64::NAN };
    let mut rows = vec![sobol::Row { ab: nan, t: vec![nan; k], u: vec![nan; k] }; n];
    for p in points.iter().filter(|p| p.stage == "sobol" && p.group < n) {
        let r = &mut rows[p.group];
        let from_a = sobol::Diff { d: p.diff, se: p.diff_se };
        match p.position {
            0 => {}
            1 => r.ab = from_a,
            i if i - 2 < k => {
                r.t[i - 2] = from_a;
                r.u[i - 2] = sobol::Diff { d: p.diff_b, se: p.diff_b_se };
            }
            _ => {}
        }
    }
    let mut rng = Pcg64Mcg::new(mix2(plan.master, BOOT_SALT ^ 1) as u128);
    sobol::analyse(k, &rows, 0.95, RESAMPLES, &mut rng)
}

/// The first `count` parameters of the screening's order (indices into
/// the plan's): the ranked keys by μ*, then those within noise by μ*.
pub fn top(effects: &[Effect], count: usize) -> Vec<usize> {
    effects.iter().take(count).map(|e| e.input).collect()
}
