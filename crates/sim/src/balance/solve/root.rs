//! One root finder over N keys and N targets, and what it answers.
//!
//! The answer has one shape whatever the number of keys (`Root`: the
//! written point, played, with every target not rejected there, and each
//! key's interval; `NoRoot`: the best point played and why none was
//! good enough), so the held-out check, the text and the files read one
//! type. How the root is searched for depends on the dimension, as in any
//! robust solver: one key is bracketed and bisected on a sign change
//! (`bracket`), which needs no step size and finds every crossing it
//! passes; several keys take damped Newton steps with a finite-difference
//! Jacobian and a grid region around the point found (`newton`). What each
//! search saw on its way is kept in `Located`.

use super::eval::{Eval, by_point};
use super::region::{Interval, Region};
use super::{bracket, newton};
use crate::error::Error;
use crate::stats::z;

/// A key's domain as the root finder sees it.
#[derive(Clone, Copy, Debug)]
pub struct Domain {
    pub lo: f64,
    pub hi: f64,
    pub integer: bool,
    /// Bisection steps for a key that is not a whole number (one key).
    pub max_steps: usize,
}

/// What a solve found: a point that was played and at which every target
/// is not rejected, with the confidence set around the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Root {
    /// The values written to the scenario, one per key. They were played
    /// on the search's seeds and each target is not rejected there
    /// (`at_value`). One key: the evaluation at the crossing (or at a
    /// bracketing value if that one is nearer the target), for a
    /// whole-number key the better of the two bracketing whole values (the
    /// smaller `|gap| / se`). Several keys: of every point played, the one
    /// with the smallest joint statistic `gᵀ Σ⁻¹ g` (for whole-number keys,
    /// the best whole values).
    pub value: Vec<f64>,
    pub at_value: Eval,
    /// Each key takes whole values only.
    pub integer: Vec<bool>,
    /// Each key's 95% interval: one key, the values at which the target is
    /// not rejected (`|gap| ≤ 1.96 se`, the band interpolated between
    /// evaluations); several, the projections of the region. `None` when
    /// the region's grid holds no point of it.
    pub interval: Option<Vec<Interval>>,
    /// The written value is in the confidence set. With several keys it
    /// can be outside: each target alone holds within noise there, but the
    /// joint test rejects them all at once.
    pub inside: bool,
    /// The root is located: false when one key's gap keeps one sign over
    /// the range but the target holds within noise at an end (the answer
    /// is that end), or no crossing has a value meeting the target.
    pub identified: bool,
    /// What the search saw, by how it searched.
    pub located: Located,
    /// Every evaluation, in order of value (first key first).
    pub evals: Vec<Eval>,
}

/// What the search for a root saw on its way, by the way it searched.
#[derive(Clone, Debug, PartialEq)]
pub enum Located {
    /// One key, bracketed on a sign change.
    Bracket(Bracket),
    /// Several keys, by Newton, with the region on a grid around the root.
    Grid(Grid),
}

/// A one-key root's crossing.
#[derive(Clone, Debug, PartialEq)]
pub struct Bracket {
    /// Where the sample-average gap crosses 0, interpolated linearly
    /// between the two evaluations that bracket it. For a whole-number key
    /// this usually lies between two whole values and cannot be written:
    /// it places the crossing, and `Root::value` is what is written. When
    /// the gap keeps one sign over the range but stays within noise of 0
    /// at an end, that end (`Root::identified` is false).
    pub root: f64,
    /// A whole-number key whose gap changes sign between two whole values:
    /// both, as evaluated, lower first.
    pub between: Option<(Eval, Eval)>,
    /// The gap's slope at the root, between the bracketing evaluations.
    pub slope: f64,
    /// Other pairs of neighbouring evaluations whose gaps differ in sign:
    /// the gap is not monotone and the target has more roots in the range
    /// (narrow the range to choose one).
    pub other_crossings: Vec<(f64, f64)>,
}

/// A root over several keys: the region and the slope that sized it.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The 95% confidence region (test inversion on the grid).
    pub region: Region,
    /// The gaps' Jacobian at the search's last Newton point (per unit of
    /// each key, a row per target), from finite differences on the same
    /// seeds; it sizes the grid.
    pub jacobian: Vec<Vec<f64>>,
}

impl Root {
    /// The points the search played at which every target is not rejected
    /// (for a whole-number key, the whole values that meet the target).
    pub fn points_met(&self) -> Vec<Vec<f64>> {
        let z = z(0.95);
        self.evals.iter().filter(|e| e.accepted(z)).map(|e| e.x.clone()).collect()
    }

    /// One key's crossing with its interval (`None` for several keys).
    pub fn crossing(&self) -> Option<Crossing> {
        let (Located::Bracket(b), Some([iv])) = (&self.located, self.interval.as_deref()) else { return None };
        Some(Crossing { root: b.root, interval: (iv.lo, iv.hi), open_low: iv.open[0], open_high: iv.open[1] })
    }
}

/// Why no root was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRootKind {
    /// One key: the gap has one sign at both ends of the range and the
    /// target is rejected at both.
    OneSign,
    /// One key: the gap changes sign between two values closer than the
    /// search's resolution, and the target is rejected at both and between:
    /// the gap jumps across 0 (the players change their play there).
    Jump,
    /// One whole-number key: the gap changes sign between two whole values
    /// and the target is rejected at both. No whole value meets it.
    NoWholeValue,
    /// Several keys: at no point played does every target hold within
    /// noise.
    NotJointly,
}

/// The search found no point at which the targets hold.
#[derive(Clone, Debug, PartialEq)]
pub struct NoRoot {
    pub kind: NoRootKind,
    /// The evaluation nearest the targets: one key, in units of its
    /// standard error; several, by the joint statistic.
    pub best: Eval,
    /// `[key][0 low, 1 high]`: the best point is at that end of the key's
    /// range (the targets may meet outside it).
    pub at_end: Vec<[bool; 2]>,
    /// One key: where the gap changes sign, the two evaluations around it.
    pub between: Option<(Eval, Eval)>,
    /// One key: where the sample-average gap crosses 0 when it changes
    /// sign (`Jump`, `NoWholeValue`), with its interval widened to hold the
    /// two evaluations around it.
    pub crossing: Option<Crossing>,
    /// Every evaluation, in order of value (first key first): with one
    /// key, the first and last are the range's ends.
    pub evals: Vec<Eval>,
}

/// Where a target's sample-average gap crosses 0 over one key, with its
/// 95% interval: the value the balance gate holds a solve to. It exists
/// whether or not a value of the key meets the target there (a
/// whole-number key whose gap crosses 0 between two whole values, a gap
/// that jumps across 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    pub root: f64,
    pub interval: (f64, f64),
    pub open_low: bool,
    pub open_high: bool,
}

impl Crossing {
    /// The crossing's standard error, read off its interval (infinite when
    /// the interval reaches an end of the range).
    pub fn root_se(&self) -> f64 {
        if self.open_low || self.open_high {
            f64::INFINITY
        } else {
            (self.interval.1 - self.interval.0) / (2.0 * z(0.95))
        }
    }
}

/// Why `find_root` gave no root.
#[derive(Clone, Debug, PartialEq)]
pub enum RootError {
    /// No point at which the targets hold was found.
    NoRoot(Box<NoRoot>),
    /// An evaluation failed, or the targets cannot be solved together.
    Failed(Error),
}

impl From<Error> for RootError {
    fn from(m: Error) -> Self {
        RootError::Failed(m)
    }
}

/// The points a search has played, each once. Every point is snapped into
/// the domain first (clamped to each range, a whole-number key rounded),
/// so two requests for the same value cost one evaluation.
pub(super) struct Played<'d, F> {
    pub(super) domains: &'d [Domain],
    pub(super) evals: Vec<Eval>,
    play: F,
}

impl<F: FnMut(&[f64]) -> Result<Eval, Error>> Played<'_, F> {
    /// The evaluation at `x` (snapped), played if it was not yet.
    pub(super) fn at(&mut self, x: &[f64]) -> Result<Eval, Error> {
        let x: Vec<f64> = x
            .iter()
            .zip(self.domains)
            .map(|(&v, d)| {
                let v = v.clamp(d.lo, d.hi);
                if d.integer { v.round() } else { v }
            })
            .collect();
        if let Some(e) = self.evals.iter().find(|e| e.x == x) {
            return Ok(e.clone());
        }
        let e = (self.play)(&x)?;
        if !e.gap.iter().all(|g| g.is_finite()) {
            let at: Vec<String> = x.iter().map(|v| v.to_string()).collect();
            return Err(Error::input(format!("a target is undefined at ({})", at.join(", "))));
        }
        self.evals.push(e.clone());
        Ok(e)
    }

    /// Every evaluation, in order of value.
    pub(super) fn sorted(&mut self) -> Vec<Eval> {
        self.evals.sort_by(by_point);
        self.evals.clone()
    }

    /// The keys' `[low end, high end]` that `x` sits at.
    pub(super) fn at_end(&self, x: &[f64]) -> Vec<[bool; 2]> {
        x.iter().zip(self.domains).map(|(&v, d)| [v <= d.lo, v >= d.hi]).collect()
    }
}

/// The root of the gaps `play` measures over `domains` (one per key, as
/// many targets as keys), and each key's interval. `play(x)` plays (or
/// computes) every target's gap at `x`; it is called at most once per
/// point. A root is returned only at a point that was played and at which
/// every target is not rejected; otherwise `RootError::NoRoot` with the
/// best point played.
pub fn find_root(domains: &[Domain], play: impl FnMut(&[f64]) -> Result<Eval, Error>) -> Result<Root, RootError> {
    let mut played = Played { domains, evals: Vec::new(), play };
    match domains {
        [] => Err(RootError::Failed(Error::internal("a solve needs a key to vary"))),
        [domain] => bracket::find(*domain, &mut played),
        _ => newton::find(&mut played),
    }
}
