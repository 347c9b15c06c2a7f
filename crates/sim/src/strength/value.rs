//! Learning the search's value from self-play (`empires value`): play
//! campaigns with one strategy in every seat, read every seat's features
//! (`strategy::value::features`) at the end of every season, label each
//! with whether that seat won the campaign, and fit a logistic model by
//! iteratively reweighted least squares. The coefficients go into the
//! scenario as `strategies.NAME.value`, where the search reads them.
//!
//! The fit is judged on campaigns it never saw (`held_out_master`): the
//! log loss of its win probabilities against a model that knows only the
//! seat count (each seat wins 1/n), and against "who leads in size wins",
//! the value a cut-short rollout has without it.

use crate::error::Error;
use crate::scenario::{Scenario, VALUE_FEATURES};
use crate::sim::lineup::Lineup;
use crate::strategy::value::{features, win_probability};
use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;
use std::ops::Range;

/// One position: a seat's features at the end of a season, and whether
/// that seat won the campaign.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub x: [f64; VALUE_FEATURES],
    pub won: bool,
}

/// Every seat's position at the end of every season but the last (a
/// finished campaign needs no value) of campaigns `range` of `master`,
/// `strategy` in every seat; in campaign order, whatever the threads.
pub fn collect(sc: &Scenario, strategy: &str, master: u64, range: Range<u64>) -> Result<Vec<Sample>, Error> {
    let spec = sc.named_strategy(strategy)?;
    let lineup = Lineup::new(sc, &vec![spec; sc.players.len()]).map_err(Error::from)?;
    let per: Vec<Vec<Sample>> = range
        .into_par_iter()
        .map(|i| {
            crate::sim::watch::check()?;
            let mut seen: Vec<(usize, [f64; VALUE_FEATURES])> = Vec::new();
            let (_, winner) = lineup.play_watched(master, i, |r, st, slot_of| {
                if st.ended.is_none() {
                    for (seat, &slot) in slot_of.iter().enumerate() {
                        seen.push((slot, features(r, st, seat as u8)));
                    }
                }
            })?;
            crate::sim::watch::played(1);
            Ok(seen.into_iter().map(|(slot, x)| Sample { x, won: slot == winner }).collect())
        })
        .collect::<Result<_, crate::rules::setup::SetupError>>()
        .map_err(Error::from)?;
    Ok(per.into_iter().flatten().collect())
}

/// A fitted value.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub coef: [f64; VALUE_FEATURES],
    /// Newton steps taken.
    pub steps: u32,
    pub samples: usize,
}

/// The ridge penalty (½ RIDGE ‖β‖² on the log likelihood). Late in a
/// campaign the size leader nearly always wins, so the positions are close
/// to separable there and the unpenalized likelihood grows without bound
/// as the size coefficients do; the penalty stops them at a finite value,
/// and keeps a feature that never varies (EP where all are spent) from
/// making the normal equations singular. Against tens of thousands of
/// positions it moves no well-determined coefficient.
const RIDGE: f64 = 1.0;

/// Fit the logistic model to `samples` by Newton's method (IRLS).
pub fn fit(samples: &[Sample]) -> Result<Fit, Error> {
    if samples.len() < 2 * VALUE_FEATURES || samples.iter().all(|s| s.won) || samples.iter().all(|s| !s.won) {
        return Err(Error::input(format!(
            "a value fit needs won and lost positions, at least {} of them (found {})",
            2 * VALUE_FEATURES,
            samples.len()
        )));
    }
    let k = VALUE_FEATURES;
    let mut beta = DVector::<f64>::zeros(k);
    let mut steps = 0;
    for _ in 0..50 {
        steps += 1;
        let (mut h, mut g) = (DMatrix::<f64>::zeros(k, k), DVector::<f64>::zeros(k));
        for s in samples {
            let p = win_probability(beta.as_slice(), &s.x);
            let w = (p * (1.0 - p)).max(1e-9);
            let r = s.won as u8 as f64 - p;
            for a in 0..k {
                g[a] += r * s.x[a];
                for b in 0..=a {
                    h[(a, b)] += w * s.x[a] * s.x[b];
                }
            }
        }
        for a in 0..k {
            h[(a, a)] += RIDGE;
            g[a] -= RIDGE * beta[a];
            for b in 0..a {
                h[(b, a)] = h[(a, b)];
            }
        }
        let step = h
            .cholesky()
            .ok_or_else(|| Error::internal("the value fit's normal equations are not positive definite"))?
            .solve(&g);
        beta += &step;
        if step.amax() < 1e-9 {
            break;
        }
    }
    let mut coef = [0.0; VALUE_FEATURES];
    coef.copy_from_slice(beta.as_slice());
    if coef.iter().any(|c| !c.is_finite()) {
        return Err(Error::internal("the value fit diverged"));
    }
    Ok(Fit { coef, steps, samples: samples.len() })
}

/// Mean log loss (natural log) of win probabilities `p(sample)`.
pub fn log_loss(samples: &[Sample], p: impl Fn(&Sample) -> f64) -> f64 {
    let eps = 1e-12;
    samples
        .iter()
        .map(|s| {
            let q = p(s).clamp(eps, 1.0 - eps);
            if s.won { -q.ln() } else { -(1.0 - q).ln() }
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// How a fit does on positions it never saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub samples: usize,
    /// The fit's log loss, the seat-count model's (each seat 1/n), and
    /// "who leads in size wins" (a tie for the lead shared).
    pub fit: f64,
    pub seats_only: f64,
    pub leader: f64,
    /// Brier scores, the same three.
    pub brier: [f64; 3],
}

/// Judge `coef` on `samples` from a game of `seats` seats.
pub fn judge(coef: &[f64; VALUE_FEATURES], samples: &[Sample], seats: usize) -> Judged {
    let base = 1.0 / seats.max(1) as f64;
    // Feature 2 is the size margin over the largest rival.
    let leader = |s: &Sample| {
        if s.x[2] > 0.0 {
            1.0
        } else if s.x[2] == 0.0 {
            0.5
        } else {
            0.0
        }
    };
    let brier = |p: &dyn Fn(&Sample) -> f64| {
        samples.iter().map(|s| (p(s) - s.won as u8 as f64).powi(2)).sum::<f64>() / samples.len().max(1) as f64
    };
    let model = |s: &Sample| win_probability(coef, &s.x);
    Judged {
        samples: samples.len(),
        fit: log_loss(samples, model),
        seats_only: log_loss(samples, |_| base),
        leader: log_loss(samples, leader),
        brier: [brier(&model), brier(&|_| base), brier(&leader)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions drawn from a known logistic model: the fit finds its
    /// coefficients back.
    #[test]
    fn the_fit_recovers_a_known_model() {
        use rand::{RngExt, SeedableRng};
        let truth = [-0.5, 0.3, 4.0, -2.0, 0.5, 0.0, 1.0, 0.2, 0.0, 0.0];
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let samples: Vec<Sample> = (0..200_000)
            .map(|_| {
                let mut x = [0.0; VALUE_FEATURES];
                x[0] = 1.0;
                for v in x.iter_mut().skip(1) {
                    *v = rng.random::<f64>() * 2.0 - 1.0;
                }
                let won = rng.random::<f64>() < win_probability(&truth, &x);
                Sample { x, won }
            })
            .collect();
        let f = fit(&samples).unwrap();
        for (c, t) in f.coef.iter().zip(truth) {
            assert!((c - t).abs() < 0.08, "{:?} against {truth:?}", f.coef);
        }
        let j = judge(&f.coef, &samples, 4);
        assert!(j.fit < j.seats_only, "{j:?}");
    }

    #[test]
    fn a_fit_needs_both_outcomes() {
        let s = Sample { x: [1.0; VALUE_FEATURES], won: true };
        assert!(fit(&vec![s; 100]).is_err());
        assert!(fit(&[s]).is_err());
    }
}
