//! The search space of tuning: some knobs of a strategy (`scenario::knobs`),
//! each scaled to a unit coordinate.
//!
//! CMA-ES works in an unbounded space where every coordinate has the same
//! scale. Coordinate `u` of a key with range `[lo, hi]` gives the value
//! `lo + (hi − lo) · u`, clamped into the range, and a start value `v` has
//! coordinate `(v − lo) / (hi − lo)`. Whole-number keys round.
//!
//! Bounds are handled as Hansen recommends for box constraints: a
//! candidate outside the unit box plays at its projection onto the box, and
//! its fitness loses `penalty(u)`, the squared distance to the box. Without
//! the penalty every point past a bound would score like the bound itself,
//! and a start on a bound (a utility of 0) would leave the search no
//! direction to move in. A fold (mirroring at the bounds) is no better
//! there: it makes the fitness symmetric about the bound, so the mean stays
//! on it.

use crate::error::Error;
use crate::scenario::StrategySpec;
use crate::scenario::knobs::{KNOBS, Knob, knob};

/// The keys being tuned, in the order of the coordinates.
#[derive(Clone, Debug)]
pub struct Space {
    pub knobs: Vec<&'static Knob>,
}

/// Squared distance from `u` to the unit box: what a candidate outside the
/// ranges loses from its fitness.
pub fn penalty(u: &[f64]) -> f64 {
    u.iter().map(|&x| (x - x.clamp(0.0, 1.0)).powi(2)).sum()
}

impl Space {
    /// Every knob.
    pub fn all() -> Space {
        Space { knobs: KNOBS.iter().collect() }
    }

    /// The named knobs, in the order given; an unknown or repeated name is
    /// an error that lists the known ones.
    pub fn of(keys: &[String]) -> Result<Space, Error> {
        let mut knobs: Vec<&'static Knob> = Vec::new();
        for k in keys {
            let Some(kn) = knob(k) else {
                let known: Vec<&str> = KNOBS.iter().map(|k| k.key).collect();
                return Err(Error::input(format!("{k:?} is not a numeric strategy key (known: {})", known.join(", "))));
            };
            if knobs.iter().any(|x| x.key == kn.key) {
                return Err(Error::input(format!("{k:?} is listed twice")));
            }
            knobs.push(kn);
        }
        if knobs.is_empty() {
            return Err(Error::input("no key to tune"));
        }
        Ok(Space { knobs })
    }

    pub fn dim(&self) -> usize {
        self.knobs.len()
    }

    pub fn keys(&self) -> Vec<&'static str> {
        self.knobs.iter().map(|k| k.key).collect()
    }

    /// The coordinates of a spec's values.
    pub fn coords(&self, spec: &StrategySpec) -> Vec<f64> {
        self.knobs.iter().map(|k| ((k.get)(spec) - k.lo) / (k.hi - k.lo)).collect()
    }

    /// The key values at coordinates `u` (projected onto the ranges).
    pub fn values(&self, u: &[f64]) -> Vec<f64> {
        self.knobs.iter().zip(u).map(|(k, &x)| k.clamp(k.lo + (k.hi - k.lo) * x)).collect()
    }

    /// `base` with the keys set to `values`.
    pub fn apply(&self, base: &StrategySpec, values: &[f64]) -> StrategySpec {
        let mut s = base.clone();
        for (k, &v) in self.knobs.iter().zip(values) {
            (k.set)(&mut s, v);
        }
        s
    }

    /// Values rounded to what `strategy.toml` writes (3 decimals), so the
    /// strategy evaluated is the strategy written.
    pub fn rounded(&self, values: &[f64]) -> Vec<f64> {
        self.knobs.iter().zip(values).map(|(k, &v)| k.clamp((v * 1000.0).round() / 1000.0)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_the_box_a_candidate_plays_at_the_bound_and_pays_the_squared_distance() {
        assert_eq!(penalty(&[0.0, 0.5, 1.0]), 0.0);
        assert!((penalty(&[-0.2, 1.3, 0.5]) - (0.04 + 0.09)).abs() < 1e-12);
        let sp = Space::of(&["mine".into(), "garrison".into()]).unwrap();
        assert_eq!(sp.values(&[-0.5, 2.0]), vec![0.0, 10.0]);
        assert_eq!(sp.values(&[0.25, 0.25]), vec![2.5, 3.0]);
    }

    #[test]
    fn a_spec_comes_back_from_its_coordinates() {
        let sp = Space::all();
        let s = StrategySpec::default();
        let back = sp.apply(&StrategySpec::default(), &sp.values(&sp.coords(&s)));
        for k in &sp.knobs {
            assert!(((k.get)(&back) - (k.get)(&s)).abs() < 1e-9, "{}", k.key);
        }
    }

    #[test]
    fn unknown_and_repeated_keys_are_refused() {
        assert!(Space::of(&["mine".into(), "pillage".into()]).is_ok());
        assert!(Space::of(&["mines".into()]).unwrap_err().message().contains("not a numeric strategy key"));
        assert!(Space::of(&["mine".into(), "mine".into()]).unwrap_err().message().contains("twice"));
        assert!(Space::of(&["formation".into()]).is_err());
    }
}
