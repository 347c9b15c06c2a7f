//! One target over two keys: the balance curve, a one-key solve of the
//! second key at each of several values of the first. A line of solutions
//! says more to a designer than the one point two keys and one target
//! leave undetermined.

use super::{Eval, Goal, Settings, Solution, SolveError, solve};
use crate::balance::scenario_with;
use crate::error::Error;
use crate::scenario::Scenario;
use crate::scenario::param::Param;

/// At each of `points` values of the first key across its range, the
/// second key's solution (or why there is none).
#[derive(Clone, Debug)]
pub struct Curve {
    pub first: Param,
    pub points: Vec<(f64, Result<Solution, SolveError>)>,
}

pub fn curve(
    base: &Scenario,
    params: &[Param; 2],
    goal: &Goal,
    settings: Settings,
    points: usize,
    mut progress: impl FnMut(f64, &Eval),
) -> Result<Curve, Error> {
    let (first, second) = (&params[0], &params[1]);
    let mut xs: Vec<f64> = (0..points.max(2)).map(|i| first.value_at(i as f64 / (points.max(2) - 1) as f64)).collect();
    xs.dedup();
    let (second, goal) = (std::slice::from_ref(second), std::slice::from_ref(goal));
    let mut out = Vec::new();
    for x in xs {
        let at = scenario_with(base, std::slice::from_ref(first), &[x])?;
        let s = solve(&at, second, goal, settings.clone(), |e| progress(x, e));
        out.push((x, s));
    }
    Ok(Curve { first: first.clone(), points: out })
}
