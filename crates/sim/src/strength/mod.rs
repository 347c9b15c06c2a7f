//! How strong is a player? Tuning a strategy against a field (`tune`), the
//! search space it moves in (`space`), and the one-key deviation check that
//! tells whether a strategy sits near a local optimum (`deviation`).
//!
//! Every measurement here is a `sim::lineup::Lineup`: given strategy specs
//! in the seats, rotated, on seeds the caller names. No IO here: `cli/`
//! writes the files and `report/` draws the pages.

use crate::error::Error;
pub mod best_response;
pub mod climb;
pub mod deviation;
pub mod ladder;
pub mod metagame;
pub mod probe;
pub mod psro;
pub mod space;
pub mod styles;
pub mod tune;
pub mod value;

use crate::scenario::{Scenario, StrategySpec};

/// The specs of a list of at least two distinct strategy names (`what`
/// names the study in the error: "a ladder", "a meta-game").
pub fn specs_of(sc: &Scenario, names: &[String], what: &str) -> Result<Vec<StrategySpec>, Error> {
    if names.len() < 2 {
        return Err(Error::input(format!("{what} needs at least 2 strategies")));
    }
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(Error::input(format!("{n:?} is listed twice")));
        }
    }
    names.iter().map(|n| sc.named_strategy(n)).collect()
}

/// The 2.5% and 97.5% quantiles of bootstrap samples: a percentile 95%
/// interval (NaN without samples). Sorts `xs`.
pub fn percentile_95(xs: &mut [f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| xs[((q * (xs.len() - 1) as f64).round() as usize).min(xs.len() - 1)];
    (at(0.025), at(0.975))
}
