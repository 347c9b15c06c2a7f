//! `empires solve`: the values of keys at which targets hold, with a
//! confidence set and a check on held-out seeds.
//!
//! **Method: sample-average approximation on common random numbers, a
//! root finder, and a confidence set by test inversion.** Every evaluation
//! plays campaigns `0..N` of the same master seed, so the sample mean
//! `g_N(x)` of each target's gap (`metric − value`, or `metric − metric2`
//! campaign by campaign) is a fixed function of the keys: the dice no
//! longer change between evaluations, only the rules do. As many targets as
//! keys: one key is bracketed and bisected on a sign change, several take
//! damped Newton steps (`root`).
//!
//! A root is reported only at a point that was played and at which every
//! target holds within noise (`|g_N| ≤ z · se_N` for each); otherwise the
//! answer is "no root found" with the best point played
//! (`SolveError::NoRoot`). A whole-number key is written at a whole value,
//! and only if the targets hold there.
//!
//! The confidence set is the set of points at which the targets are not
//! rejected, so it covers the true root at its level whatever the gaps'
//! shape near it: for one key an interval along it (`bracket`), for
//! several a region on a grid of played points with each key's projection
//! (`region`). The written value is then played on held-out seeds (a
//! different master seed) and the targets tested there (`confirm`).
//!
//! The modules: `target` (what a target is, and its gap per campaign),
//! `point` (who plays at a point and the scenario there), `eval` (one
//! evaluation and the joint test), `root` (the answer's shape and the one
//! entry to the finders), `bracket` and `newton` (the finders), `region`
//! (the confidence region and intervals), `confirm` (the held-out check),
//! `curve` (one target over two keys).

mod bracket;
mod confirm;
mod curve;
mod eval;
mod newton;
mod point;
mod region;
mod root;
mod target;

pub use confirm::{Confirm, confirm};
pub use curve::{Curve, curve};
pub use eval::{Eval, chi2_95, chi2_of};
pub use point::{PointPlayers, scenario_at};
pub use region::{Interval, Region};
pub use root::{Bracket, Crossing, Domain, Grid, Located, NoRoot, NoRootKind, Root, RootError, find_root};
pub use target::{Goal, Rhs, Side, SideAndGap, VALUE_OF, gaps_of};

use crate::error::Error;
use crate::scenario::Scenario;
use crate::scenario::param::Param;
use crate::seed::mix2;
use crate::stats::z;
use crate::strength::probe::Competence;
use confirm::and_list;
use point::Points;

/// The salt of the held-out master seed.
const HOLDOUT_SALT: u64 = 0x0048_4F4C_444F_5554;

/// The held-out master seed of a solve on `master`.
pub fn holdout_seed(master: u64) -> u64 {
    mix2(master, HOLDOUT_SALT)
}

/// What a solve plays: `campaigns` of `master` at each point, seats
/// rotated or not, with these players. (The best response's own tuning
/// budget is `study::restrict::Budget`, inside `PointPlayers`.)
#[derive(Clone, Debug)]
pub struct Settings {
    pub campaigns: u64,
    pub master: u64,
    pub rotate: bool,
    /// Bisection steps for a key that is not a whole number.
    pub max_steps: usize,
    /// Who plays at each point the solve evaluates.
    pub seating: PointPlayers,
}

/// A solve that found a root, with its held-out check.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The keys varied and the targets, in order (as many of each).
    pub params: Vec<Param>,
    pub goals: Vec<Goal>,
    pub found: Root,
    pub confirm: Confirm,
    pub campaigns: u64,
    pub master: u64,
    /// The solved scenario (the keys at `found.value`).
    pub scenario: Scenario,
    /// Who played at each point, when not the scenario's seats
    /// (`PointPlayers::line`).
    pub players: Option<String>,
    /// Under best response, the competence check of the player tuned at
    /// the solved point (`PointPlayers::check`).
    pub competence: Option<Competence>,
}

impl Solution {
    /// The answer in one line, without the held-out check: which values
    /// meet which targets within noise.
    pub fn summary(&self) -> String {
        let f = &self.found;
        if let ([p], [g]) = (self.params.as_slice(), self.goals.as_slice()) {
            return format!(
                "{} = {} meets {:?} within noise (gap {:+.4} ± {:.4} on the search's seeds)",
                p.name,
                p.show(f.value[0]),
                g.text(),
                f.at_value.gap[0],
                z(0.95) * f.at_value.gap_se[0]
            );
        }
        let at: Vec<String> =
            self.params.iter().zip(&f.value).map(|(p, &v)| format!("{} = {}", p.name, p.show(v))).collect();
        let goals: Vec<String> = self.goals.iter().map(|g| format!("{:?}", g.text())).collect();
        format!("{} meet {} within noise", at.join(", "), and_list(&goals))
    }
}

/// A solve that found no root, with what it played.
#[derive(Clone, Debug)]
pub struct Unmet {
    pub params: Vec<Param>,
    pub goals: Vec<Goal>,
    pub found: NoRoot,
    pub campaigns: u64,
    pub master: u64,
    /// Who played at each point, when not the scenario's seats
    /// (`PointPlayers::line`).
    pub players: Option<String>,
}

impl Unmet {
    /// Why, in words, with the best point and, for one key, the gaps around
    /// the sign change.
    pub fn summary(&self) -> String {
        let (f, zz) = (&self.found, z(0.95));
        let (p, goal) = (&self.params[0], &self.goals[0]);
        let at = |e: &Eval| format!("{:+.4} ± {:.4} at {}", e.gap[0], zz * e.gap_se[0], p.show(e.x[0]));
        let why = match f.kind {
            NoRootKind::NotJointly => return self.not_jointly(),
            NoRootKind::OneSign => format!(
                "the target {:?} is not met anywhere in {}={}..{}: the gap is {} and {}",
                goal.text(),
                p.name,
                p.show(p.lo),
                p.show(p.hi),
                at(&f.evals[0]),
                at(&f.evals[f.evals.len() - 1])
            ),
            NoRootKind::Jump | NoRootKind::NoWholeValue => {
                let (a, b) = f.between.as_ref().map_or((&f.evals[0], &f.evals[f.evals.len() - 1]), |(a, b)| (a, b));
                format!(
                    "the gap of {:?} changes sign between {}={} and {} ({} and {}) but is not within noise of 0 at either{}",
                    goal.text(),
                    p.name,
                    p.show(a.x[0]),
                    p.show(b.x[0]),
                    at(a),
                    at(b),
                    if f.kind == NoRootKind::NoWholeValue {
                        ": no whole value meets the target"
                    } else {
                        " nor between: the gap jumps across 0 there"
                    }
                )
            }
        };
        format!("{why}; the best point evaluated is {}={}, gap {}", p.name, p.show(f.best.x[0]), at(&f.best))
    }

    /// Several keys: no point played meets every target within noise.
    fn not_jointly(&self) -> String {
        let (b, zz) = (&self.found.best, z(0.95));
        let mut ends = Vec::new();
        for (param, at_end) in self.params.iter().zip(&self.found.at_end) {
            for (side, word) in [(0, "lower"), (1, "upper")] {
                if at_end[side] {
                    ends.push(format!("the {word} end of {}", param.name));
                }
            }
        }
        let goals: Vec<String> = self.goals.iter().map(|g| format!("{:?}", g.text())).collect();
        let ranges: Vec<String> =
            self.params.iter().map(|p| format!("{}={}..{}", p.name, p.show(p.lo), p.show(p.hi))).collect();
        let best: Vec<String> =
            self.params.iter().zip(&b.x).map(|(p, &v)| format!("{}={}", p.name, p.show(v))).collect();
        let gaps: Vec<String> =
            b.gap.iter().zip(&b.gap_se).map(|(g, se)| format!("{g:+.4} ± {:.4}", zz * se)).collect();
        format!(
            "{} are not {} met within noise at any of the {} points played in {}; the best point evaluated is {}, gaps {}{}",
            and_list(&goals),
            if goals.len() == 2 { "both" } else { "all" },
            self.found.evals.len(),
            ranges.join(", "),
            best.join(", "),
            and_list(&gaps),
            if ends.is_empty() {
                String::new()
            } else {
                format!(" (at {}: the targets may meet outside the range)", ends.join(" and "))
            }
        )
    }
}

/// Why a solve gave no solution: no root (a negative answer, exit 1 on the
/// command line), or a failure (an evaluation could not be played, the
/// targets cannot be separated).
#[derive(Clone, Debug)]
pub enum SolveError {
    NoRoot(Box<Unmet>),
    Failed(Error),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::NoRoot(u) => write!(f, "no root found: {}", u.summary()),
            SolveError::Failed(m) => write!(f, "{m}"),
        }
    }
}

impl From<Error> for SolveError {
    fn from(m: Error) -> Self {
        SolveError::Failed(m)
    }
}

impl From<SolveError> for Error {
    /// Where a solve is one measurement among others (the gate), a missing
    /// root is a problem with what was asked; a failure keeps its class.
    fn from(e: SolveError) -> Self {
        match e {
            SolveError::Failed(e) => e,
            e => Error::input(e.to_string()),
        }
    }
}

/// Find the values of `params` (each in its `LO..HI`) at which every one
/// of `goals` holds (as many goals as keys), and check them on held-out
/// seeds.
pub fn solve(
    base: &Scenario,
    params: &[Param],
    goals: &[Goal],
    settings: Settings,
    progress: impl FnMut(&Eval),
) -> Result<Solution, SolveError> {
    if params.is_empty() || params.len() != goals.len() {
        return Err(SolveError::Failed(Error::input(format!(
            "a solve needs as many targets as keys to vary ({} targets, {} keys)",
            goals.len(),
            params.len()
        ))));
    }
    let points = Points::new(base, params, &settings);
    let found = search(&points, params, goals, &settings, progress)?;
    let seed = holdout_seed(settings.master);
    let mut confirm = confirm(&found, |x| play(&points, goals, &settings, x, seed), seed)?;
    let scenario = points.at(&found.value)?;
    (confirm.degenerate, confirm.coverage) = degenerate(&scenario, goals, &confirm, &settings, seed)?;
    if confirm.degenerate.is_some() {
        confirm.met = false;
    }
    let competence = settings.seating.check(&scenario, settings.master)?;
    Ok(Solution {
        params: params.to_vec(),
        goals: goals.to_vec(),
        found,
        confirm,
        campaigns: settings.campaigns,
        master: settings.master,
        players: settings.seating.line(settings.master),
        scenario,
        competence,
    })
}

/// A solution's held-out campaigns decide more than this share by the
/// tie-break die: the rules there stop the game (nobody captures, builds
/// or conquers), and any seat-fairness target reads as met.
pub const DEGENERATE_TIES: f64 = 0.5;

/// Why the held-out campaigns at the solution are no game to balance: most
/// end tied at the top, or a target's gap is the same in every campaign;
/// and what their players did (the same campaigns).
fn degenerate(
    sc: &Scenario,
    goals: &[Goal],
    c: &Confirm,
    settings: &Settings,
    seed: u64,
) -> Result<(Option<String>, crate::sim::record::Coverage), Error> {
    use crate::study::metrics::{Metric, measure};
    let tied = measure(sc, seed, settings.campaigns, settings.rotate, &[Metric::TiedAtTop], false)
        .map_err(crate::rules::setup::SetupError::into_error)?;
    let n = tied.values.len();
    let k = tied.values.iter().filter(|v| v[0] == 1.0).count();
    let why = if n > 0 && k as f64 > DEGENERATE_TIES * n as f64 {
        Some(format!("{k} of {n} held-out campaigns end tied at the top and the tie-break die picks the winner"))
    } else {
        goals
            .iter()
            .zip(&c.eval.gap_se)
            .find(|(_, se)| **se == 0.0)
            .map(|(g, _)| format!("{} has the same gap in every held-out campaign", g.lhs.name()))
    };
    Ok((why, tied.coverage))
}

/// The crossing of `goal` over `param` (no held-out check): a solve's root
/// and interval when it finds one, else the crossing it saw; "no root
/// found" when the gap does not change sign in the range.
pub fn crossing(base: &Scenario, param: &Param, goal: &Goal, settings: Settings) -> Result<Crossing, SolveError> {
    let (params, goals) = (std::slice::from_ref(param), std::slice::from_ref(goal));
    let points = Points::new(base, params, &settings);
    match search(&points, params, goals, &settings, |_| {}) {
        Ok(f) => f.crossing().ok_or_else(|| SolveError::Failed(Error::internal("a one-key root without its crossing"))),
        Err(SolveError::NoRoot(u)) => match u.found.crossing {
            Some(c) => Ok(c),
            None => Err(SolveError::NoRoot(u)),
        },
        Err(e) => Err(e),
    }
}

/// The search on the search's seeds, without the held-out check.
fn search(
    points: &Points,
    params: &[Param],
    goals: &[Goal],
    settings: &Settings,
    mut progress: impl FnMut(&Eval),
) -> Result<Root, SolveError> {
    let domains: Vec<Domain> = params
        .iter()
        .map(|p| Domain { lo: p.lo, hi: p.hi, integer: p.integer, max_steps: settings.max_steps })
        .collect();
    find_root(&domains, |x| {
        let e = play(points, goals, settings, x, settings.master)?;
        progress(&e);
        Ok(e)
    })
    .map_err(|e| match e {
        RootError::NoRoot(found) => SolveError::NoRoot(Box::new(Unmet {
            params: params.to_vec(),
            goals: goals.to_vec(),
            found: *found,
            campaigns: settings.campaigns,
            master: settings.master,
            players: settings.seating.line(settings.master),
        })),
        RootError::Failed(m) => SolveError::Failed(m),
    })
}

/// One evaluation of `goals` at the point `x`, on `master`'s campaigns.
fn play(points: &Points, goals: &[Goal], settings: &Settings, x: &[f64], master: u64) -> Result<Eval, Error> {
    let sc = points.at(x)?;
    let sides = gaps_of(goals, &sc, master, settings.campaigns, settings.rotate)?;
    let e = Eval::from_sides(x.to_vec(), &sides, settings.campaigns);
    for ((goal, (_, gaps)), mean) in goals.iter().zip(&sides).zip(&e.gap) {
        if !mean.is_finite() {
            let why = if gaps.iter().any(|g| g.is_finite()) {
                format!("{} is never defined in a campaign where every other target is", goal.lhs.name())
            } else {
                format!("{} is undefined in every campaign", goal.lhs.name())
            };
            return Err(Error::input(format!("{why} at {}", points.show(x))));
        }
    }
    Ok(e)
}
