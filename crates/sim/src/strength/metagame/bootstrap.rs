//! How much the answers move with the campaigns: each composition's
//! campaigns are drawn again with replacement, and the equilibrium and
//! α-rank are computed again. A mass on the edge of the simplex (0% or
//! 100%) has no valid percentile interval, so the resamples are reported
//! as what they are: how often a strategy is in the equilibrium's support
//! (mass of 1% or more) and the middle 95% of its resampled masses, or,
//! when those are all one value, how many resamples gave it.

use super::game::EmpiricalGame;
use super::play::Composition;
use crate::seed::{self, mix2};
use crate::strength::percentile_95;
use rand::RngExt;
use rayon::prelude::*;

/// One mass over the bootstrap resamples.
#[derive(Clone, Debug, PartialEq)]
pub struct Resampled {
    /// The middle 95% of the resampled masses.
    pub low: f64,
    pub high: f64,
    /// Resamples in which the mass is 1% or more.
    pub in_support: u32,
    /// Resamples whose mass is the estimate's, to 0.05 points.
    pub at_estimate: u32,
    pub of: u32,
}

impl Resampled {
    fn of(xs: &[f64], estimate: f64) -> Resampled {
        let (low, high) = percentile_95(&mut xs.to_vec());
        Resampled {
            low,
            high,
            in_support: xs.iter().filter(|&&x| x >= 0.01).count() as u32,
            at_estimate: xs.iter().filter(|&&x| (x - estimate).abs() < 5e-4).count() as u32,
            of: xs.len() as u32,
        }
    }

    /// The middle 95% of the resamples is one value (a mass on the edge):
    /// no interval to show, only how often.
    pub fn degenerate(&self) -> bool {
        self.high - self.low < 1e-3
    }
}

/// What the resamples gave for each strategy's equilibrium and α-rank
/// mass: the middle 95% (a percentile bootstrap) and the frequencies.
pub(super) struct Bootstrap {
    pub equilibrium_ci: Vec<(f64, f64)>,
    pub alpha_rank_ci: Vec<(f64, f64)>,
    pub equilibrium_boot: Vec<Resampled>,
    pub alpha_rank_boot: Vec<Resampled>,
}

/// `resamples` bootstrap draws of `game` (streams of `master`), against
/// the estimates `equilibrium` and `alpha_rank`.
pub(super) fn bootstrap(
    game: &EmpiricalGame,
    master: u64,
    resamples: u32,
    (alpha, population): (f64, u32),
    equilibrium: &[f64],
    alpha_rank: &[f64],
) -> Bootstrap {
    let (k, seats) = (game.k, game.seats);
    // Every composition's winners drawn again.
    let draws: Vec<(Vec<f64>, Vec<f64>)> = (0..resamples)
        .into_par_iter()
        .map(|b| {
            let mut rng = seed::rng(mix2(master, 0x6d65_7461 ^ b as u64), seed::Stream::Map);
            let comps: Vec<Composition> = game
                .compositions()
                .iter()
                .map(|c| {
                    let mut wins = vec![0; k];
                    for _ in 0..c.campaigns {
                        let mut x = rng.random::<f64>() * c.campaigns as f64;
                        for (i, &w) in c.wins.iter().enumerate() {
                            if x < w as f64 || i == k - 1 {
                                wins[i] += 1;
                                break;
                            }
                            x -= w as f64;
                        }
                    }
                    Composition { wins, ..c.clone() }
                })
                .collect();
            let g = EmpiricalGame::new(k, seats, comps);
            (g.equilibrium().0, g.alpha_rank(alpha, population))
        })
        .collect();
    let ci = |pick: &dyn Fn(&(Vec<f64>, Vec<f64>)) -> &Vec<f64>| -> Vec<(f64, f64)> {
        (0..k).map(|i| percentile_95(&mut draws.iter().map(|d| pick(d)[i]).collect::<Vec<f64>>())).collect()
    };
    let boot = |pick: &dyn Fn(&(Vec<f64>, Vec<f64>)) -> &Vec<f64>, at: &[f64]| -> Vec<Resampled> {
        (0..k).map(|i| Resampled::of(&draws.iter().map(|d| pick(d)[i]).collect::<Vec<f64>>(), at[i])).collect()
    };
    Bootstrap {
        equilibrium_ci: ci(&|d| &d.0),
        alpha_rank_ci: ci(&|d| &d.1),
        equilibrium_boot: boot(&|d| &d.0, equilibrium),
        alpha_rank_boot: boot(&|d| &d.1, alpha_rank),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metagame_resampled_masses_on_the_edge_are_counted_not_given_an_interval() {
        let r = Resampled::of(&[1.0; 200], 1.0);
        assert!(r.degenerate());
        assert_eq!((r.at_estimate, r.in_support, r.of), (200, 200, 200));
        let inner = Resampled::of(&(0..200).map(|i| 0.2 + 0.001 * i as f64).collect::<Vec<_>>(), 0.3);
        assert!(!inner.degenerate() && inner.low < 0.21 && inner.high > 0.39);
    }
}
