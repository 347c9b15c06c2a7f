//! `empires solve`: the value of a key at which a target holds, with a
//! confidence interval and a confirmation on held-out seeds.
//!
//! **Method: sample-average approximation on common random numbers, a
//! bracketing root finder, and an interval by test inversion.** Every
//! evaluation plays campaigns `0..N` of the same master seed, so the
//! sample mean `g_N(x)` of the target's gap (`metric − value`, or
//! `metric − metric2` campaign by campaign) is a fixed function of the key:
//! the dice no longer change between evaluations, only the rules do. Its
//! root is then found by bisection, which needs only a sign change over
//! `LO..HI` (no step sizes to tune, unlike stochastic approximation, whose
//! Robbins–Monro gains decide whether it converges in a few dozen noisy
//! steps; and no surrogate model, which a Gaussian-process search needs
//! for costly functions of many inputs, not for one or two keys whose
//! evaluation costs seconds). For a whole-number key (a cost, a dice
//! count or multiplier) it ends on two neighbours.
//!
//! The interval is the set of values at which the target is not rejected:
//! `|g_N(x)| ≤ z · se_N(x)`, with `se_N` the standard error of the gap
//! from the same campaigns. Its ends are found by bisection too. Because
//! `g_N` is a sample mean, the interval covers the true root at the stated
//! level whatever the curve's shape near it (a delta-method interval would
//! need its slope). The solution is then played on held-out seeds (a
//! different master seed) to show the target met within its interval.

use super::param::Param;
use super::{mean_se, scenario_with};
use crate::scenario::ActionKind;
use crate::scenario::Scenario;
use crate::seed::mix2;
use crate::stats::z;
use crate::study::metrics::Metric;
use crate::study::metrics::measure;
use crate::study::restrict::{Restriction, first_slot_wins};

/// The salt of the held-out master seed.
const HOLDOUT_SALT: u64 = 0x0048_4F4C_444F_5554;

/// The held-out master seed of a solve on `master`.
pub fn holdout_seed(master: u64) -> u64 {
    mix2(master, HOLDOUT_SALT)
}

/// One side of a target: a study metric, or the value of a restriction
/// to a field of players (`value of forbid mine against tuned`): one
/// restricted player's win rate minus an unrestricted one's in the same
/// seat, against copies of the field, paired campaign by campaign
/// (`study::restrict`).
#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    Metric(Metric),
    Restriction { restriction: Restriction, players: String },
}

/// The prefix of a restriction side.
pub const VALUE_OF: &str = "value of ";

impl Side {
    /// A metric by name, or `value of [forbid K1,K2] [force K3] [against S]`
    /// (the field defaults to `tuned`).
    pub fn parse(s: &str, sc: &Scenario) -> Result<Side, String> {
        let s = s.trim();
        let Some(rest) = s.strip_prefix(VALUE_OF) else { return super::metric_named(sc, s).map(Side::Metric) };
        let (mut forbid, mut force, mut players) = (Vec::new(), Vec::new(), "tuned".to_string());
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut i = 0;
        while i < words.len() {
            if !["forbid", "force", "against"].contains(&words[i]) {
                return Err(format!("{s:?}: expected forbid, force or against, found {:?}", words[i]));
            }
            let arg = words.get(i + 1).ok_or_else(|| format!("{s:?}: {} needs a value", words[i]))?;
            let kinds = || -> Result<Vec<ActionKind>, String> { arg.split(',').map(str::parse).collect() };
            match words[i] {
                "forbid" => forbid.extend(kinds()?),
                "force" => force.extend(kinds()?),
                _ => players = arg.to_string(),
            }
            i += 2;
        }
        if sc.strategy(&players).is_none() {
            return Err(format!("{s:?}: unknown strategy {players:?}"));
        }
        Ok(Side::Restriction { restriction: Restriction::new(forbid, force)?, players })
    }

    pub fn name(&self) -> String {
        match self {
            Side::Metric(m) => m.name(),
            Side::Restriction { restriction, players } => {
                let mut t = String::from("value of");
                if !restriction.forbid.is_empty() {
                    let k: Vec<&str> = restriction.forbid.iter().map(|k| k.name()).collect();
                    t += &format!(" forbid {}", k.join(","));
                }
                if !restriction.force.is_empty() {
                    let k: Vec<&str> = restriction.force.iter().map(|k| k.name()).collect();
                    t += &format!(" force {}", k.join(","));
                }
                t + &format!(" against {players}")
            }
        }
    }
}

/// What the target compares the left side with.
#[derive(Clone, Debug, PartialEq)]
pub enum Rhs {
    Value(f64),
    Side(Side),
}

/// `SIDE = VALUE` or `SIDE = SIDE2`, a side being a metric or a
/// restriction's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    pub lhs: Side,
    pub rhs: Rhs,
}

impl Goal {
    pub fn parse(s: &str, sc: &Scenario) -> Result<Goal, String> {
        let (l, r) = s
            .split_once('=')
            .ok_or_else(|| format!("--target {s:?}: expected \"METRIC = VALUE\" or \"METRIC = METRIC2\""))?;
        let lhs = Side::parse(l, sc).map_err(|e| format!("--target {s:?}: {e}"))?;
        let rhs = match r.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Rhs::Value(v),
            _ => Rhs::Side(Side::parse(r, sc).map_err(|e| format!("--target {s:?}: {e}"))?),
        };
        Ok(Goal { lhs, rhs })
    }

    pub fn text(&self) -> String {
        match &self.rhs {
            Rhs::Value(v) => format!("{} = {v}", self.lhs.name()),
            Rhs::Side(m) => format!("{} = {}", self.lhs.name(), m.name()),
        }
    }

    /// The gap in each campaign (NaN where a side is undefined), with the
    /// left side's values.
    fn gaps(&self, sc: &Scenario, master: u64, campaigns: u64, rotate: bool) -> Result<(Vec<f64>, Vec<f64>), String> {
        let mut all = gaps_of(std::slice::from_ref(self), sc, master, campaigns, rotate)?;
        Ok(all.remove(0))
    }
}

/// A goal's left side and gap, per campaign.
pub type SideAndGap = (Vec<f64>, Vec<f64>);

/// Each goal's (left side, gap) per campaign: one run of `sc` measures
/// every metric the goals name, and each restriction plays its own paired
/// lineups on the same campaigns.
pub fn gaps_of(
    goals: &[Goal],
    sc: &Scenario,
    master: u64,
    campaigns: u64,
    rotate: bool,
) -> Result<Vec<SideAndGap>, String> {
    let mut metrics: Vec<Metric> = Vec::new();
    for g in goals {
        for side in std::iter::once(&g.lhs).chain(match &g.rhs {
            Rhs::Side(x) => Some(x),
            Rhs::Value(_) => None,
        }) {
            if let Side::Metric(m) = side
                && !metrics.contains(m)
            {
                metrics.push(m.clone());
            }
        }
    }
    let values = if metrics.is_empty() {
        Vec::new()
    } else {
        measure(sc, master, campaigns, rotate, &metrics, false).map_err(|e| e.to_string())?.values
    };
    let per_campaign = |side: &Side| -> Result<Vec<f64>, String> {
        match side {
            Side::Metric(m) => {
                let j = metrics.iter().position(|x| x == m).unwrap_or(0);
                Ok(values.iter().map(|v| v[j]).collect())
            }
            Side::Restriction { restriction, players } => {
                let spec = sc.strategy(players).ok_or_else(|| format!("unknown strategy {players:?}"))?;
                let base = first_slot_wins(sc, &spec, &spec, master, campaigns)?;
                let won = first_slot_wins(sc, &restriction.apply(&spec), &spec, master, campaigns)?;
                Ok(won.iter().zip(&base).map(|(&w, &b)| w as u8 as f64 - b as u8 as f64).collect())
            }
        }
    };
    goals
        .iter()
        .map(|g| {
            let lhs = per_campaign(&g.lhs)?;
            let gaps = match &g.rhs {
                Rhs::Value(x) => lhs.iter().map(|v| v - x).collect(),
                Rhs::Side(r) => {
                    let r = per_campaign(r)?;
                    lhs.iter().zip(&r).map(|(a, b)| a - b).collect()
                }
            };
            Ok((lhs, gaps))
        })
        .collect()
}

/// One evaluation: the key's value, the gap's mean and standard error,
/// and the metric's mean, over the campaigns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    pub x: f64,
    pub gap: f64,
    pub gap_se: f64,
    pub metric: f64,
    pub campaigns: u64,
}

impl Eval {
    /// The target is not rejected here at level `z`.
    fn accepted(&self, z: f64) -> bool {
        self.gap.abs() <= z * self.gap_se
    }
}

/// What a solve found, for one key.
#[derive(Clone, Debug, PartialEq)]
pub struct Root {
    /// The root of the sample-average gap, interpolated linearly between
    /// the two evaluations that bracket it (a whole-number key's root can
    /// lie between two whole values). When the gap keeps one sign over the
    /// range but stays within noise of 0 at an end, that end.
    pub root: f64,
    /// The value written to the scenario: the root, or for a whole-number
    /// key the neighbour with the smaller gap.
    pub value: f64,
    /// For a whole-number key whose root lies strictly between two whole
    /// values, those two.
    pub between: Option<(f64, f64)>,
    /// The 95% interval of the root: the values at which the target is not
    /// rejected (`|gap| ≤ 1.96 se`), the band interpolated between
    /// evaluations. `open_*`: the interval reaches the end of the range.
    pub interval: (f64, f64),
    pub open_low: bool,
    pub open_high: bool,
    /// The gap's slope at the root, between the bracketing evaluations.
    pub slope: f64,
    /// Other pairs of neighbouring evaluations whose gaps differ in sign:
    /// the gap is not monotone and the target has more roots in the range
    /// (narrow the range to choose one).
    pub other_crossings: Vec<(f64, f64)>,
    /// Every evaluation, in order of value.
    pub evals: Vec<Eval>,
}

impl Root {
    /// The root's standard error, read off its interval (infinite when the
    /// interval reaches an end of the range).
    pub fn root_se(&self) -> f64 {
        if self.open_low || self.open_high {
            f64::INFINITY
        } else {
            (self.interval.1 - self.interval.0) / (2.0 * z(0.95))
        }
    }
}

/// The held-out check of a root: the evaluations at the value (or, for a
/// whole-number key between two values, at both neighbours) on another
/// master seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm {
    pub seed: u64,
    pub evals: Vec<Eval>,
    /// The held-out root, interpolated between the two neighbours (equal to
    /// the value for a single evaluation).
    pub root: Option<f64>,
    /// The target is met within its interval on the held-out seeds: the
    /// held-out estimate agrees with the solution at 95%, allowing for the
    /// noise of both. At a value: `|gap| ≤ 1.96 √(se² + (slope · root_se)²)`.
    /// Between two whole values: the held-out root, interpolated between
    /// them, is within `1.96 √2 root_se` of the solution's root.
    pub met: bool,
    /// The gap (at a value) or root distance (between two values) that the
    /// check allows.
    pub allowed: f64,
}

#[derive(Clone, Debug)]
pub struct Solution {
    pub param: Param,
    pub goal: Goal,
    pub found: Root,
    pub confirm: Confirm,
    pub campaigns: u64,
    pub master: u64,
    /// The solved scenario (the key at `found.value`).
    pub scenario: Scenario,
}

/// The settings of a solve.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub campaigns: u64,
    pub master: u64,
    pub rotate: bool,
    /// Bisection steps for a key that is not a whole number.
    pub max_steps: usize,
}

/// The key's domain as the root finder sees it.
#[derive(Clone, Copy, Debug)]
pub struct Domain {
    pub lo: f64,
    pub hi: f64,
    pub integer: bool,
    /// Bisection steps for a key that is not a whole number.
    pub max_steps: usize,
}

/// Find the value of `param` in `LO..HI` at which `goal` holds, and check
/// it on held-out seeds.
pub fn solve(
    base: &Scenario,
    param: &Param,
    goal: &Goal,
    budget: Budget,
    mut progress: impl FnMut(&Eval),
) -> Result<Solution, String> {
    let play = |x: f64, master: u64| -> Result<Eval, String> {
        let sc = scenario_with(base, std::slice::from_ref(param), &[x])?;
        let (lhs, gaps) = goal.gaps(&sc, master, budget.campaigns, budget.rotate)?;
        let (gap, gap_se, _) = mean_se(&gaps);
        if !gap.is_finite() {
            return Err(format!(
                "{} is undefined in every campaign at {}={}",
                goal.lhs.name(),
                param.name,
                param.show(x)
            ));
        }
        Ok(Eval { x, gap, gap_se, metric: mean_se(&lhs).0, campaigns: budget.campaigns })
    };
    let domain = Domain { lo: param.lo, hi: param.hi, integer: param.integer, max_steps: budget.max_steps };
    let found = find_root(domain, |x| {
        let e = play(x, budget.master)?;
        progress(&e);
        Ok(e)
    })
    .map_err(|e| match e {
        RootError::NoSignChange(lo, hi) => format!(
            "the target {:?} is not met anywhere in {}={}..{}: the gap is {:+.4} ± {:.4} at {} and {:+.4} ± {:.4} at {} (widen the range, or check that the metric moves with the key)",
            goal.text(),
            param.name,
            param.show(param.lo),
            param.show(param.hi),
            lo.gap,
            z(0.95) * lo.gap_se,
            param.show(lo.x),
            hi.gap,
            z(0.95) * hi.gap_se,
            param.show(hi.x)
        ),
        RootError::Eval(m) => m,
    })?;
    let seed = holdout_seed(budget.master);
    let confirm = confirm(&found, |x| play(x, seed), seed)?;
    let scenario = scenario_with(base, std::slice::from_ref(param), &[found.value])?;
    Ok(Solution {
        param: param.clone(),
        goal: goal.clone(),
        found,
        confirm,
        campaigns: budget.campaigns,
        master: budget.master,
        scenario,
    })
}

/// Why no root was found.
#[derive(Clone, Debug, PartialEq)]
pub enum RootError {
    /// The gap has one sign at both ends of the range (the evaluations at
    /// the ends).
    NoSignChange(Eval, Eval),
    /// An evaluation failed.
    Eval(String),
}

impl From<String> for RootError {
    fn from(m: String) -> Self {
        RootError::Eval(m)
    }
}

/// The root of the gap `eval` measures over `domain`, and its interval.
/// `eval(x)` plays (or computes) the gap at `x`; it is called at most once
/// per value.
pub fn find_root(domain: Domain, mut play: impl FnMut(f64) -> Result<Eval, String>) -> Result<Root, RootError> {
    let z = z(0.95);
    let mut evals: Vec<Eval> = Vec::new();
    let mut eval = |evals: &mut Vec<Eval>, x: f64| -> Result<Eval, String> {
        let x = if domain.integer { x.round() } else { x };
        if let Some(e) = evals.iter().find(|e| e.x == x) {
            return Ok(*e);
        }
        let e = play(x)?;
        evals.push(e);
        Ok(e)
    };
    let (lo, hi) = (eval(&mut evals, domain.lo)?, eval(&mut evals, domain.hi)?);
    let tol = (domain.hi - domain.lo) / 2f64.powi(domain.max_steps as i32);
    let narrow = |a: &Eval, b: &Eval| (b.x - a.x).abs() > if domain.integer { 1.0 } else { tol };
    // The first pair of neighbouring evaluations whose gaps differ in sign
    // (or a gap of exactly 0), lower value first.
    let bracket = |evals: &[Eval]| -> Option<(Eval, Eval)> {
        let mut sorted = evals.to_vec();
        sorted.sort_by(|p, q| p.x.total_cmp(&q.x));
        if let Some(e) = sorted.iter().find(|e| e.gap == 0.0) {
            return Some((*e, *e));
        }
        sorted.windows(2).find(|w| w[0].gap.signum() != w[1].gap.signum()).map(|w| (w[0], w[1]))
    };
    let (mut a, mut b) = match bracket(&[lo, hi]) {
        Some(pair) => pair,
        None if !lo.accepted(z) && !hi.accepted(z) => return Err(RootError::NoSignChange(lo, hi)),
        None => {
            // No sign change at the ends, but the target is not rejected at
            // one of them: bisect from that end towards the other for the
            // edge of the values where it holds. A sign change met on the
            // way (the sample-average gap need not be monotone) is a root
            // to find; without one, the answer is that end and the values
            // around it, and the root itself is not identified.
            let (near, far) = if lo.gap.abs() <= hi.gap.abs() { (lo, hi) } else { (hi, lo) };
            if !far.accepted(z) {
                let (mut inside, mut outside) = (near, far);
                while narrow(&inside, &outside) {
                    let m = eval(&mut evals, (inside.x + outside.x) / 2.0)?;
                    if m.accepted(z) { inside = m } else { outside = m }
                }
            }
            match bracket(&evals) {
                Some(pair) => pair,
                None => {
                    evals.sort_by(|p, q| p.x.total_cmp(&q.x));
                    let (interval, open_low, open_high) = band_interval(&evals, near.x, z);
                    return Ok(Root {
                        root: near.x,
                        value: near.x,
                        between: None,
                        interval,
                        open_low,
                        open_high,
                        slope: 0.0,
                        other_crossings: Vec::new(),
                        evals,
                    });
                }
            }
        }
    };
    // Bisection on the sample-average gap between `a` and `b`, whose gaps
    // differ in sign.
    let a_sign = a.gap.signum();
    while a.gap != 0.0 && b.gap != 0.0 && narrow(&a, &b) {
        let m = eval(&mut evals, (a.x + b.x) / 2.0)?;
        if m.gap == 0.0 {
            (a, b) = (m, m);
        } else if m.gap.signum() == a_sign {
            a = m;
        } else {
            b = m;
        }
    }
    if a.gap == 0.0 {
        b = a;
    } else if b.gap == 0.0 {
        a = b;
    }
    let root = if a.x == b.x || a.gap == b.gap { a.x } else { a.x - a.gap * (b.x - a.x) / (b.gap - a.gap) };
    let value =
        if domain.integer { if a.gap.abs() <= b.gap.abs() { a.x } else { b.x } } else { eval(&mut evals, root)?.x };
    let between = (domain.integer && a.x != b.x).then_some((a.x.min(b.x), a.x.max(b.x)));
    // The interval's ends: bisect outward from the root's bracket for the
    // last evaluations at which the target is not rejected, so that the
    // band is evaluated on both sides of each end.
    for edge in [lo, hi] {
        if edge.accepted(z) {
            continue;
        }
        let near = if (edge.x - a.x).abs() <= (edge.x - b.x).abs() { a } else { b };
        let (mut inside, mut outside) = (near, edge);
        if !inside.accepted(z) && !narrow(&inside, &outside) {
            continue;
        }
        while narrow(&inside, &outside) {
            let m = eval(&mut evals, (inside.x + outside.x) / 2.0)?;
            if m.accepted(z) || (m.gap.signum() != edge.gap.signum()) { inside = m } else { outside = m }
        }
    }
    evals.sort_by(|p, q| p.x.total_cmp(&q.x));
    let (interval, open_low, open_high) = band_interval(&evals, root, z);
    let slope = if a.x != b.x { (b.gap - a.gap) / (b.x - a.x) } else { 0.0 };
    let (lo_x, hi_x) = (a.x.min(b.x), a.x.max(b.x));
    let other_crossings = evals
        .windows(2)
        .filter(|w| w[0].gap.signum() != w[1].gap.signum() && w[0].gap != 0.0 && w[1].gap != 0.0)
        .map(|w| (w[0].x, w[1].x))
        .filter(|&(p, q)| !(p >= lo_x && q <= hi_x))
        .collect();
    Ok(Root { root, value, between, interval, open_low, open_high, slope, other_crossings, evals })
}

/// The connected set of values around `root` at which the linearly
/// interpolated band `gap ± z se` holds 0; whether it reaches either end.
fn band_interval(evals: &[Eval], root: f64, z: f64) -> ((f64, f64), bool, bool) {
    let holds = |x: f64| -> bool {
        let i = evals.partition_point(|e| e.x < x).min(evals.len() - 1);
        let (p, q) = if i == 0 { (&evals[0], &evals[0]) } else { (&evals[i - 1], &evals[i]) };
        let t = if q.x > p.x { (x - p.x) / (q.x - p.x) } else { 0.0 };
        let g = p.gap + t * (q.gap - p.gap);
        let s = p.gap_se + t * (q.gap_se - p.gap_se);
        g.abs() <= z * s + 1e-12
    };
    // Walk out from the root over a fine grid of each segment; the band is
    // linear on a segment, so 64 points per segment place an end to within
    // 1/64 of the gap between evaluations.
    let (first, last) = (evals[0].x, evals[evals.len() - 1].x);
    let step = |from: f64, to: f64| (to - from) / 64.0;
    let walk = |dir: f64| -> (f64, bool) {
        let mut x = root;
        loop {
            let i = evals.partition_point(|e| e.x <= x);
            let next = if dir > 0.0 {
                evals.get(i).map_or(last, |e| e.x)
            } else {
                evals[..i].iter().rev().find(|e| e.x < x).map_or(first, |e| e.x)
            };
            if (dir > 0.0 && x >= last) || (dir < 0.0 && x <= first) {
                return (x, true);
            }
            let h = step(x, next).abs().max(1e-12) * dir;
            let mut y = x;
            while (dir > 0.0 && y < next) || (dir < 0.0 && y > next) {
                let t = y + h;
                let t = if dir > 0.0 { t.min(next) } else { t.max(next) };
                if !holds(t) {
                    return (y, false);
                }
                y = t;
            }
            x = next;
        }
    };
    if !holds(root) {
        return ((root, root), false, false);
    }
    let (l, open_l) = walk(-1.0);
    let (h, open_h) = walk(1.0);
    ((l, h), open_l, open_h)
}

/// Check a root on held-out seeds: at the value, or at both whole-number
/// neighbours when the root lies between them.
pub fn confirm(found: &Root, mut play: impl FnMut(f64) -> Result<Eval, String>, seed: u64) -> Result<Confirm, String> {
    let z = z(0.95);
    let root_se = found.root_se();
    match found.between {
        None => {
            let e = play(found.value)?;
            let allowed = z * (e.gap_se.powi(2) + (found.slope * root_se).powi(2)).sqrt();
            let allowed = if allowed.is_nan() { f64::INFINITY } else { allowed };
            Ok(Confirm { seed, evals: vec![e], root: None, met: e.gap.abs() <= allowed, allowed })
        }
        Some((a, b)) => {
            let (ea, eb) = (play(a)?, play(b)?);
            let root = (ea.gap.signum() != eb.gap.signum() && ea.gap != eb.gap)
                .then(|| a - ea.gap * (b - a) / (eb.gap - ea.gap));
            let allowed = z * std::f64::consts::SQRT_2 * root_se;
            let met = root.is_some_and(|r| (r - found.root).abs() <= allowed) || ea.accepted(z) || eb.accepted(z);
            Ok(Confirm { seed, evals: vec![ea, eb], root, met, allowed })
        }
    }
}

// ------------------------------------------------------------ two keys

/// One evaluation of two keys against two targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval2 {
    pub x: [f64; 2],
    pub gap: [f64; 2],
    pub gap_se: [f64; 2],
    /// Covariance of the two gaps' means (from the campaigns).
    pub cov: [[f64; 2]; 2],
    pub campaigns: u64,
}

impl Eval2 {
    /// From each target's per-campaign gaps (campaigns where both are
    /// defined).
    pub fn from_gaps(x: [f64; 2], g0: &[f64], g1: &[f64]) -> Eval2 {
        let pairs: Vec<(f64, f64)> =
            g0.iter().zip(g1).filter(|(a, b)| a.is_finite() && b.is_finite()).map(|(a, b)| (*a, *b)).collect();
        let n = pairs.len() as f64;
        let m0 = pairs.iter().map(|p| p.0).sum::<f64>() / n;
        let m1 = pairs.iter().map(|p| p.1).sum::<f64>() / n;
        let c = |f: &dyn Fn(&(f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / (n - 1.0).max(1.0) / n;
        let c00 = c(&|p| (p.0 - m0).powi(2));
        let c11 = c(&|p| (p.1 - m1).powi(2));
        let c01 = c(&|p| (p.0 - m0) * (p.1 - m1));
        Eval2 { x, gap: [m0, m1], gap_se: [c00.sqrt(), c11.sqrt()], cov: [[c00, c01], [c01, c11]], campaigns: n as u64 }
    }

    /// The gaps in units of their standard errors, squared and summed.
    fn norm(&self, scale: [f64; 2]) -> f64 {
        (self.gap[0] / scale[0]).powi(2) + (self.gap[1] / scale[1]).powi(2)
    }
}

/// What a two-key solve found.
#[derive(Clone, Debug, PartialEq)]
pub struct Root2 {
    /// The root of the linearised sample-average gaps at the last point.
    pub root: [f64; 2],
    /// The values written to the scenario (whole numbers rounded).
    pub value: [f64; 2],
    /// Each key's 95% interval, from the delta method:
    /// `Cov(root) = J⁻¹ Σ J⁻ᵀ`.
    pub interval: [(f64, f64); 2],
    /// The gaps' Jacobian at the solution (per unit of each key).
    pub jacobian: [[f64; 2]; 2],
    pub cov_root: [[f64; 2]; 2],
    pub evals: Vec<Eval2>,
}

/// The held-out check of a two-key root: the held-out gaps at the value,
/// less what the Jacobian expects there, against their covariance plus
/// the root's (a χ² test with 2 degrees of freedom at 95%).
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm2 {
    pub seed: u64,
    pub eval: Eval2,
    pub chi2: f64,
    pub met: bool,
}

fn inv2(m: [[f64; 2]; 2]) -> Option<[[f64; 2]; 2]> {
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let scale = m.iter().flatten().map(|x| x.abs()).fold(0.0, f64::max);
    if !det.is_finite() || det.abs() <= 1e-12 * scale * scale {
        return None;
    }
    Some([[m[1][1] / det, -m[0][1] / det], [-m[1][0] / det, m[0][0] / det]])
}

fn mul2(a: [[f64; 2]; 2], b: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let mut c = [[0.0; 2]; 2];
    for i in 0..2 {
        for j in 0..2 {
            c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
        }
    }
    c
}

fn t2(a: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    [[a[0][0], a[1][0]], [a[0][1], a[1][1]]]
}

/// Two keys' domains.
pub type Domain2 = [Domain; 2];

/// Damped Newton on the sample-average gaps of two targets over two keys.
/// The Jacobian is taken by finite differences on the same seeds, where a
/// difference is the rules' doing only; a step that does not shrink the
/// gaps (in units of their standard errors) is halved up to six times.
pub fn find_root2(domain: Domain2, mut play: impl FnMut([f64; 2]) -> Result<Eval2, String>) -> Result<Root2, String> {
    let z = z(0.95);
    let mut evals: Vec<Eval2> = Vec::new();
    let snap = |x: [f64; 2]| -> [f64; 2] {
        let mut y = x;
        for i in 0..2 {
            y[i] = x[i].clamp(domain[i].lo, domain[i].hi);
            if domain[i].integer {
                y[i] = y[i].round();
            }
        }
        y
    };
    let mut eval = |x: [f64; 2]| -> Result<Eval2, String> {
        let x = snap(x);
        if let Some(e) = evals.iter().find(|e| e.x == x) {
            return Ok(e.clone());
        }
        let e = play(x)?;
        if !(e.gap[0].is_finite() && e.gap[1].is_finite()) {
            return Err(format!("a target is undefined at ({}, {})", x[0], x[1]));
        }
        evals.push(e.clone());
        Ok(e)
    };
    let step = |i: usize| if domain[i].integer { 1.0 } else { (domain[i].hi - domain[i].lo) / 64.0 };
    let mut cur = eval([(domain[0].lo + domain[0].hi) / 2.0, (domain[1].lo + domain[1].hi) / 2.0])?;
    let scale = [cur.gap_se[0].max(1e-12), cur.gap_se[1].max(1e-12)];
    let jacobian =
        |at: &Eval2, eval: &mut dyn FnMut([f64; 2]) -> Result<Eval2, String>| -> Result<[[f64; 2]; 2], String> {
            let mut j = [[0.0; 2]; 2];
            for k in 0..2 {
                let h = step(k);
                let mut x = at.x;
                x[k] = if at.x[k] + h <= domain[k].hi { at.x[k] + h } else { at.x[k] - h };
                let e = eval(x)?;
                let dx = e.x[k] - at.x[k];
                for (t, row) in j.iter_mut().enumerate() {
                    row[k] = if dx != 0.0 { (e.gap[t] - at.gap[t]) / dx } else { 0.0 };
                }
            }
            Ok(j)
        };
    let mut j = jacobian(&cur, &mut eval)?;
    for _ in 0..30 {
        let ji = inv2(j).ok_or("the two targets do not move independently with the two keys near the search's start (their Jacobian is singular): vary other keys, or solve one target at a time")?;
        let delta =
            [-(ji[0][0] * cur.gap[0] + ji[0][1] * cur.gap[1]), -(ji[1][0] * cur.gap[0] + ji[1][1] * cur.gap[1])];
        let small = (0..2).all(|i| delta[i].abs() < if domain[i].integer { 0.5 } else { step(i) / 64.0 });
        if small {
            break;
        }
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..7 {
            let cand = eval([cur.x[0] + t * delta[0], cur.x[1] + t * delta[1]])?;
            if cand.norm(scale) < cur.norm(scale) {
                cur = cand;
                moved = true;
                break;
            }
            t /= 2.0;
        }
        if !moved {
            break;
        }
        j = jacobian(&cur, &mut eval)?;
    }
    let ji = inv2(j)
        .ok_or("the two targets do not move independently with the two keys at the solution (singular Jacobian)")?;
    let root = [
        cur.x[0] - (ji[0][0] * cur.gap[0] + ji[0][1] * cur.gap[1]),
        cur.x[1] - (ji[1][0] * cur.gap[0] + ji[1][1] * cur.gap[1]),
    ];
    // Whole-number keys: the best of the grid points around the root.
    let mut best = cur.clone();
    if domain.iter().any(|d| d.integer) {
        for a in [root[0].floor(), root[0].ceil()] {
            for b in [root[1].floor(), root[1].ceil()] {
                let e = eval([a, b])?;
                if e.norm(scale) < best.norm(scale) {
                    best = e;
                }
            }
        }
    }
    let cov_root = mul2(mul2(ji, best.cov), t2(ji));
    let interval = [0, 1].map(|i| {
        let h = z * cov_root[i][i].max(0.0).sqrt();
        (root[i] - h, root[i] + h)
    });
    for d in 0..2 {
        if root[d] < domain[d].lo - 1e-9 || root[d] > domain[d].hi + 1e-9 {
            return Err(format!(
                "the targets meet outside the range of key {}: at {:.4} (range {}..{})",
                d + 1,
                root[d],
                domain[d].lo,
                domain[d].hi
            ));
        }
    }
    evals.sort_by(|p, q| p.x[0].total_cmp(&q.x[0]).then(p.x[1].total_cmp(&q.x[1])));
    Ok(Root2 { root, value: best.x, interval, jacobian: j, cov_root, evals })
}

/// Check a two-key root on held-out seeds.
pub fn confirm2(
    found: &Root2,
    play: impl FnOnce([f64; 2]) -> Result<Eval2, String>,
    seed: u64,
) -> Result<Confirm2, String> {
    let e = play(found.value)?;
    let j = found.jacobian;
    // What the linearised gaps are at the written value (not 0 when whole
    // numbers rounded it off the root).
    let dv = [found.value[0] - found.root[0], found.value[1] - found.root[1]];
    let expect = [j[0][0] * dv[0] + j[0][1] * dv[1], j[1][0] * dv[0] + j[1][1] * dv[1]];
    let d = [e.gap[0] - expect[0], e.gap[1] - expect[1]];
    let jc = mul2(mul2(j, found.cov_root), t2(j));
    let v = [[e.cov[0][0] + jc[0][0], e.cov[0][1] + jc[0][1]], [e.cov[1][0] + jc[1][0], e.cov[1][1] + jc[1][1]]];
    let chi2 = match inv2(v) {
        Some(vi) => d[0] * (vi[0][0] * d[0] + vi[0][1] * d[1]) + d[1] * (vi[1][0] * d[0] + vi[1][1] * d[1]),
        None => f64::INFINITY,
    };
    // The 95% point of χ² with 2 degrees of freedom: −2 ln 0.05.
    let met = chi2 <= -2.0 * 0.05f64.ln();
    Ok(Confirm2 { seed, eval: e, chi2, met })
}

/// A two-key solve of two targets, as played.
#[derive(Clone, Debug)]
pub struct Solution2 {
    pub params: [Param; 2],
    pub goals: [Goal; 2],
    pub found: Root2,
    pub confirm: Confirm2,
    pub campaigns: u64,
    pub master: u64,
    pub scenario: Scenario,
}

/// Find the values of two keys at which two targets hold at once.
pub fn solve2(
    base: &Scenario,
    params: &[Param; 2],
    goals: &[Goal; 2],
    budget: Budget,
    mut progress: impl FnMut(&Eval2),
) -> Result<Solution2, String> {
    let play = |x: [f64; 2], master: u64| -> Result<Eval2, String> {
        let sc = scenario_with(base, params, &x)?;
        let g = gaps_of(goals, &sc, master, budget.campaigns, budget.rotate)?;
        Ok(Eval2::from_gaps(x, &g[0].1, &g[1].1))
    };
    let domain = [0, 1].map(|i| Domain {
        lo: params[i].lo,
        hi: params[i].hi,
        integer: params[i].integer,
        max_steps: budget.max_steps,
    });
    let found = find_root2(domain, |x| {
        let e = play(x, budget.master)?;
        progress(&e);
        Ok(e)
    })?;
    let seed = holdout_seed(budget.master);
    let confirm = confirm2(&found, |x| play(x, seed), seed)?;
    let scenario = scenario_with(base, params, &found.value)?;
    Ok(Solution2 {
        params: params.clone(),
        goals: goals.clone(),
        found,
        confirm,
        campaigns: budget.campaigns,
        master: budget.master,
        scenario,
    })
}

/// One target over two keys: the balance curve. At each of `points`
/// values of the first key across its range, the second key's solution
/// (or why there is none).
#[derive(Clone, Debug)]
pub struct Curve {
    pub first: Param,
    pub points: Vec<(f64, Result<Solution, String>)>,
}

pub fn curve(
    base: &Scenario,
    params: &[Param; 2],
    goal: &Goal,
    budget: Budget,
    points: usize,
    mut progress: impl FnMut(f64, &Eval),
) -> Result<Curve, String> {
    let (first, second) = (&params[0], &params[1]);
    let mut xs: Vec<f64> = (0..points.max(2)).map(|i| first.value_at(i as f64 / (points.max(2) - 1) as f64)).collect();
    xs.dedup();
    let mut out = Vec::new();
    for x in xs {
        let at = scenario_with(base, std::slice::from_ref(first), &[x])?;
        let s = solve(&at, second, goal, budget, |e| progress(x, e));
        out.push((x, s));
    }
    Ok(Curve { first: first.clone(), points: out })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::splitmix64;

    /// A synthetic gap: `slope (x − root)` plus campaign noise that is the
    /// same at every `x` for one master seed (common random numbers).
    fn synthetic(root: f64, slope: f64, noise: f64, master: u64, n: u64) -> impl FnMut(f64) -> Result<Eval, String> {
        noisy(root, slope, noise, master, n, false)
    }

    /// With `antithetic`, campaign pairs draw `u` and `1 − u`: the noise
    /// averages to exactly 0, so the root is exact and only the interval
    /// is wide.
    fn noisy(
        root: f64,
        slope: f64,
        noise: f64,
        master: u64,
        n: u64,
        antithetic: bool,
    ) -> impl FnMut(f64) -> Result<Eval, String> {
        move |x| {
            let gaps: Vec<f64> = (0..n)
                .map(|i| {
                    let j = if antithetic { i / 2 } else { i };
                    let u = (splitmix64(master ^ (j << 20)) >> 11) as f64 / (1u64 << 53) as f64;
                    let u = if antithetic && i % 2 == 1 { 1.0 - u } else { u };
                    slope * (x - root) + noise * (u - 0.5) * 3.464
                })
                .collect();
            let (gap, gap_se, _) = mean_se(&gaps);
            Ok(Eval { x, gap, gap_se, metric: gap, campaigns: n })
        }
    }

    fn domain(lo: f64, hi: f64, integer: bool) -> Domain {
        Domain { lo, hi, integer, max_steps: 16 }
    }

    /// Without noise the root is found exactly, for a real and a whole key.
    #[test]
    fn a_known_linear_gap_gives_its_root() {
        let r = find_root(domain(0.0, 10.0, false), synthetic(3.7, 2.0, 0.0, 1, 10)).unwrap();
        assert!((r.root - 3.7).abs() < 1e-9 && (r.value - 3.7).abs() < 1e-9, "{r:?}");
        let r = find_root(domain(0.0, 40.0, true), synthetic(17.0, -1.0, 0.0, 1, 10)).unwrap();
        assert_eq!((r.root, r.value, r.between), (17.0, 17.0, None));
        // Between two whole values: the interpolated root and the nearer value.
        let r = find_root(domain(0.0, 40.0, true), synthetic(17.25, 1.0, 0.0, 1, 10)).unwrap();
        assert!((r.root - 17.25).abs() < 1e-9);
        assert_eq!((r.value, r.between), (17.0, Some((17.0, 18.0))));
    }

    /// With noise, the interval covers the true root at about its level:
    /// over 200 master seeds, between 90% and 99% of the intervals hold it,
    /// and the held-out check confirms about as often.
    #[test]
    fn the_interval_covers_the_root_at_its_level() {
        let (mut covered, mut confirmed) = (0, 0);
        for master in 0..200u64 {
            let found = find_root(domain(0.0, 10.0, false), synthetic(4.2, 1.5, 2.0, master, 200)).unwrap();
            assert!(found.interval.0 <= found.root && found.root <= found.interval.1, "{found:?}");
            covered += (found.interval.0 <= 4.2 && 4.2 <= found.interval.1) as u32;
            let c = confirm(&found, synthetic(4.2, 1.5, 2.0, master + 1_000_000, 200), 0).unwrap();
            confirmed += c.met as u32;
        }
        assert!((180..=198).contains(&covered), "covered {covered} of 200");
        assert!((180..=199).contains(&confirmed), "confirmed {confirmed} of 200");
    }

    /// No sign change, but the target holds within noise at one end: that
    /// end is the answer, with the values around it where the target is
    /// not rejected.
    #[test]
    fn a_target_met_within_noise_at_an_end_is_an_answer() {
        // Gap 0.1 (x − 12), negative over 0..10, with noise averaging
        // exactly 0 and a standard error of about 0.23: the target is not
        // rejected from about x = 7.4 (|gap| ≤ 1.96 × 0.23) to the end.
        let r = find_root(domain(0.0, 10.0, false), noisy(12.0, 0.1, 2.0, 7, 50, true)).unwrap();
        assert_eq!(r.value, 10.0);
        assert!(r.open_high && !r.open_low && (r.interval.0 - 7.4).abs() < 0.3, "{r:?}");
    }

    /// A gap that crosses 0 more than once: one root is found, and the
    /// other crossings the evaluations saw are reported.
    #[test]
    fn several_roots_are_reported() {
        let play = |x: f64| -> Result<Eval, String> {
            let gap = (x - 2.5) * (x - 6.5) * (x - 8.5);
            Ok(Eval { x, gap, gap_se: 0.01, metric: gap, campaigns: 100 })
        };
        let r = find_root(domain(0.0, 10.0, true), play).unwrap();
        assert!(!r.other_crossings.is_empty(), "{r:?}");
        assert!([2.5, 6.5, 8.5].iter().any(|t| (r.root - t).abs() < 0.6), "{r:?}");
    }

    #[test]
    fn no_sign_change_is_an_error_with_both_ends() {
        match find_root(domain(0.0, 10.0, false), synthetic(20.0, 1.0, 0.0, 1, 10)) {
            Err(RootError::NoSignChange(lo, hi)) => assert_eq!((lo.x, hi.x), (0.0, 10.0)),
            other => panic!("{other:?}"),
        }
    }

    /// The interval reaches an end of the range when the target holds there.
    #[test]
    fn a_flat_gap_gives_an_open_interval() {
        let r = find_root(domain(0.0, 10.0, false), noisy(5.0, 0.2, 8.0, 7, 50, true)).unwrap();
        assert!((r.root - 5.0).abs() < 1e-6, "{r:?}");
        assert!(r.open_low && r.open_high, "{r:?}");
        assert_eq!(r.interval, (0.0, 10.0));
    }

    /// Two linear targets with noise common to every point: Newton lands
    /// on the known root, its delta-method intervals hold it, and held-out
    /// seeds confirm it.
    #[test]
    fn two_keys_two_targets_give_the_known_root() {
        let play = |master: u64| {
            move |x: [f64; 2]| -> Result<Eval2, String> {
                let noise = |i: u64, k: u64| {
                    let u = (splitmix64(master ^ (i << 20) ^ (k << 40)) >> 11) as f64 / (1u64 << 53) as f64;
                    (u - 0.5) * 0.4
                };
                // g0 = x0 + 2 x1 − 8, g1 = 3 x0 − x1 − 3: root (2, 3).
                let g0: Vec<f64> = (0..400).map(|i| x[0] + 2.0 * x[1] - 8.0 + noise(i, 0)).collect();
                let g1: Vec<f64> = (0..400).map(|i| 3.0 * x[0] - x[1] - 3.0 + noise(i, 1)).collect();
                Ok(Eval2::from_gaps(x, &g0, &g1))
            }
        };
        let d = [Domain { lo: 0.0, hi: 10.0, integer: false, max_steps: 12 }; 2];
        let r = find_root2(d, play(3)).unwrap();
        for (i, want) in [2.0, 3.0].into_iter().enumerate() {
            assert!((r.root[i] - want).abs() < 0.05, "{r:?}");
            assert!(r.interval[i].0 <= want && want <= r.interval[i].1, "{r:?}");
        }
        assert!(r.evals.len() < 30, "{} evaluations", r.evals.len());
        assert!(confirm2(&r, play(99), 99).unwrap().met);
        // Whole-number keys: the written value is a grid point next to it.
        let d = [Domain { lo: 0.0, hi: 10.0, integer: true, max_steps: 12 }; 2];
        let r = find_root2(d, play(3)).unwrap();
        assert_eq!(r.value, [2.0, 3.0], "{r:?}");
    }

    #[test]
    fn targets_that_move_together_are_refused() {
        let play = |x: [f64; 2]| -> Result<Eval2, String> {
            let g: Vec<f64> = (0..10).map(|i| x[0] + x[1] - 5.0 + i as f64 * 1e-3).collect();
            Ok(Eval2::from_gaps(x, &g, &g))
        };
        let d = [Domain { lo: 0.0, hi: 10.0, integer: false, max_steps: 12 }; 2];
        assert!(find_root2(d, play).unwrap_err().contains("singular"));
    }

    #[test]
    fn a_side_is_a_metric_or_a_restriction_value() {
        let sc = Scenario::default();
        let g = Goal::parse("value of forbid mine,pillage force castle = value of forbid mine against balanced", &sc)
            .unwrap();
        assert_eq!(
            g.text(),
            "value of forbid mine,pillage force castle against tuned = value of forbid mine against balanced"
        );
        let g = Goal::parse("share of gold from mines = 0.5", &sc).unwrap();
        assert_eq!(g.rhs, Rhs::Value(0.5));
        for (bad, why) in [
            ("value of forbid dance = 0", "unknown action kind"),
            ("value of forbid = 0", "needs a value"),
            ("value of forbid mine against nobody = 0", "unknown strategy"),
            ("value of forbid done = 0", "cannot be forbidden"),
            ("value of mine = 0", "expected forbid, force or against"),
            ("value of against tuned = 0", "give --forbid, --force or both"),
        ] {
            let e = Goal::parse(bad, &sc).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
