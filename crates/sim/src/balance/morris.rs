//! Morris elementary effects (Morris 1991, with Campolongo, Cariboni and
//! Saltelli's μ* of 2007): which of many inputs matter, for a cost linear
//! in their number.
//!
//! A trajectory starts at a random point of a `levels`-level grid of the
//! unit cube and moves one input at a time, in random order and direction,
//! by Δ = levels / (2 (levels − 1)) (2/3 at four levels). Each move gives
//! one elementary effect of the input it moves: the change of the output
//! per whole unit interval. Over `r` trajectories each input has `r`
//! effects; their mean absolute value μ* ranks the inputs, and their
//! spread σ says whether an input acts alone and linearly (σ small) or
//! through interactions or curvature (σ large).
//!
//! Whole-number inputs land on rounded values, so an effect divides by the
//! unit change actually made, and a move that rounding cancels gives no
//! effect. The intervals are percentile bootstraps over an input's effects.
//!
//! **Ranks.** Only an input whose μ* clears its noise level is ranked
//! ([`Effect::above_noise`]); the others are within noise and get no rank.
//! A rank's interval resamples whole trajectories (every input's effects
//! of a trajectory together, since they share its points) and ranks the
//! ranked inputs by μ* in each resample; its ends are the 2.5% and 97.5%
//! points of those ranks, widened to hold the point rank (a rank is
//! discrete, and the bootstrap pulls a rank towards the middle, so the
//! percentile interval can miss the point rank by one). Inputs whose rank
//! intervals overlap are not ordered: [`tiers`] splits the ranking where
//! every input above a cut has a rank interval wholly above every input's
//! below it.

use rand::{RngExt, seq::SliceRandom};
use rand_pcg::Pcg64Mcg;

/// One trajectory: `k + 1` points of the unit cube; step `j` (from point
/// `j` to `j + 1`) moves input `order[j]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    pub points: Vec<Vec<f64>>,
    pub order: Vec<usize>,
}

/// `r` trajectories over `k` inputs on a `levels`-level grid (`levels`
/// even, at least 2).
pub fn design(k: usize, r: usize, levels: usize, rng: &mut Pcg64Mcg) -> Vec<Trajectory> {
    let levels = levels.max(2);
    let step = 1.0 / (levels - 1) as f64;
    let delta = levels as f64 / (2.0 * (levels - 1) as f64);
    // Starting levels from which +Δ stays on the grid.
    let starts: Vec<f64> = (0..levels).map(|l| l as f64 * step).filter(|x| *x + delta <= 1.0 + 1e-12).collect();
    (0..r)
        .map(|_| {
            let mut x: Vec<f64> = (0..k).map(|_| starts[rng.random_range(0..starts.len())]).collect();
            let up: Vec<bool> = (0..k).map(|_| rng.random_bool(0.5)).collect();
            for i in 0..k {
                if !up[i] {
                    x[i] += delta;
                }
            }
            let mut order: Vec<usize> = (0..k).collect();
            order.shuffle(rng);
            let mut points = vec![x.clone()];
            for &i in &order {
                x[i] += if up[i] { delta } else { -delta };
                points.push(x.clone());
            }
            Trajectory { points, order }
        })
        .collect()
}

/// One move of a trajectory as it was played: the trajectory, the input
/// moved, the unit change made (after rounding), the change of the
/// output's mean, and the standard error of that change from the campaigns
/// (paired, on common seeds).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub trajectory: usize,
    pub input: usize,
    pub du: f64,
    pub dy: f64,
    pub dy_se: f64,
}

/// The screening measures of one input.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    pub input: usize,
    /// Elementary effects taken (moves that rounding did not cancel).
    pub n: usize,
    pub mu: f64,
    pub mu_star: f64,
    pub sigma: f64,
    pub mu_star_ci: (f64, f64),
    pub sigma_ci: (f64, f64),
    /// What μ* would be for an input with no effect, from the campaigns'
    /// noise alone: √(2/π) times the root mean square of the effects'
    /// standard errors (the mean of |N(0, se)|).
    pub noise: f64,
    /// The input's rank among the inputs above noise; `None` when it is
    /// within noise (not ranked).
    pub rank: Option<Rank>,
}

/// A ranked input's place: its rank by μ* among the inputs above noise
/// (1 moves the output most), the rank's 95% interval over resampled
/// trajectories, and its tier (inputs of one tier are not ordered among
/// themselves; every input of tier `t` ranks above every input of `t + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rank {
    pub rank: usize,
    pub ci: (usize, usize),
    pub tier: usize,
}

impl Effect {
    /// μ*'s interval lies above the noise level.
    pub fn above_noise(&self) -> bool {
        self.mu_star_ci.0 > self.noise
    }
}

/// A move that rounding cancels, or whose metric is undefined at one end
/// (a share of gold where nobody earned any), gives no effect.
fn counts(s: &Step) -> bool {
    s.du.abs() > 1e-12 && s.dy.is_finite()
}

/// μ*, σ and their bootstrap intervals for inputs `0..k`, from the moves
/// of every trajectory, and the ranks of those above noise with their
/// intervals. Inputs come back ranked, then those within noise, each by
/// μ*, largest first.
pub fn analyse(k: usize, steps: &[Step], confidence: f64, resamples: usize, rng: &mut Pcg64Mcg) -> Vec<Effect> {
    let mut out: Vec<Effect> = (0..k)
        .map(|i| {
            let mine: Vec<&Step> = steps.iter().filter(|s| s.input == i && counts(s)).collect();
            let ee: Vec<f64> = mine.iter().map(|s| s.dy / s.du).collect();
            let (mu, mu_star, sigma) = measures(&ee);
            let ses: Vec<f64> = mine.iter().map(|s| s.dy_se / s.du).filter(|x| x.is_finite()).collect();
            let ms = ses.iter().map(|x| x * x).sum::<f64>() / ses.len().max(1) as f64;
            let noise = (2.0 / std::f64::consts::PI).sqrt() * ms.sqrt();
            let (mut stars, mut sigmas) = (Vec::with_capacity(resamples), Vec::with_capacity(resamples));
            let mut sample = vec![0.0; ee.len()];
            for _ in 0..resamples {
                if ee.is_empty() {
                    break;
                }
                for x in sample.iter_mut() {
                    *x = ee[rng.random_range(0..ee.len())];
                }
                let (_, s, g) = measures(&sample);
                stars.push(s);
                sigmas.push(g);
            }
            Effect {
                input: i,
                n: ee.len(),
                mu,
                mu_star,
                sigma,
                mu_star_ci: percentile_interval(&mut stars, confidence),
                sigma_ci: percentile_interval(&mut sigmas, confidence),
                noise,
                rank: None,
            }
        })
        .collect();
    // The ranked inputs first, then those within noise; each by largest
    // μ*, an input with no effect at all (NaN) last.
    let key = |e: &Effect| if e.mu_star.is_nan() { f64::NEG_INFINITY } else { e.mu_star };
    out.sort_by(|a, b| {
        b.above_noise().cmp(&a.above_noise()).then(key(b).total_cmp(&key(a))).then(a.input.cmp(&b.input))
    });
    let ranked: Vec<usize> = out.iter().take_while(|e| e.above_noise()).map(|e| e.input).collect();
    // Drawn after every μ* interval's, so adding the ranks moved none of them.
    let cis = rank_intervals(&ranked, steps, confidence, resamples, rng);
    let tiers = tiers(&cis);
    for (r, e) in out.iter_mut().take(ranked.len()).enumerate() {
        e.rank = Some(Rank { rank: r + 1, ci: cis[r], tier: tiers[r] });
    }
    out
}

/// The 95% (`confidence`) interval of each of `ranked`'s ranks (inputs in
/// point-rank order: `ranked[r]` has rank `r + 1`), by resampling whole
/// trajectories and ranking the inputs by μ* in each resample. An input
/// with no effect in a resample ranks last there. Each interval is widened
/// to hold its point rank.
fn rank_intervals(
    ranked: &[usize],
    steps: &[Step],
    confidence: f64,
    resamples: usize,
    rng: &mut Pcg64Mcg,
) -> Vec<(usize, usize)> {
    let m = ranked.len();
    if m == 0 {
        return Vec::new();
    }
    let trajectories = steps.iter().map(|s| s.trajectory + 1).max().unwrap_or(0);
    // Per trajectory and ranked input: the sum of |effect| and their count.
    let mut sums = vec![vec![(0.0, 0usize); m]; trajectories];
    for s in steps.iter().filter(|s| counts(s)) {
        if let Some(j) = ranked.iter().position(|&i| i == s.input) {
            let c = &mut sums[s.trajectory][j];
            c.0 += (s.dy / s.du).abs();
            c.1 += 1;
        }
    }
    let mut ranks: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); m];
    let mut total = vec![(0.0, 0usize); m];
    for _ in 0..resamples {
        total.iter_mut().for_each(|t| *t = (0.0, 0));
        for _ in 0..trajectories {
            let t = &sums[rng.random_range(0..trajectories)];
            for (acc, c) in total.iter_mut().zip(t) {
                acc.0 += c.0;
                acc.1 += c.1;
            }
        }
        let star: Vec<f64> = total.iter().map(|&(s, n)| if n > 0 { s / n as f64 } else { f64::NEG_INFINITY }).collect();
        for (j, r) in ranks.iter_mut().enumerate() {
            // Competition ranking: one more than the inputs strictly above.
            r.push((1 + star.iter().filter(|&&x| x > star[j]).count()) as f64);
        }
    }
    ranks
        .iter_mut()
        .enumerate()
        .map(|(j, r)| {
            let (lo, hi) = percentile_interval(r, confidence);
            let point = j + 1;
            if lo.is_nan() { (point, point) } else { ((lo as usize).min(point), (hi as usize).max(point)) }
        })
        .collect()
}

/// The tier of each rank interval (given in point-rank order, tiers from
/// 1): a new tier starts where the worst rank of every interval before is
/// better (smaller) than the best rank of every interval from there on, so
/// any two inputs of different tiers are ordered, and inputs of one tier
/// are not called ordered.
pub fn tiers(cis: &[(usize, usize)]) -> Vec<usize> {
    let mut out = Vec::with_capacity(cis.len());
    let mut tier = 1;
    let mut worst_above = 0;
    for (j, ci) in cis.iter().enumerate() {
        let best_below = cis[j..].iter().map(|c| c.0).min().unwrap_or(usize::MAX);
        if j > 0 && worst_above < best_below {
            tier += 1;
        }
        worst_above = worst_above.max(ci.1);
        out.push(tier);
    }
    out
}

/// (μ, μ*, σ) of a list of effects; σ with the n − 1 divisor.
fn measures(ee: &[f64]) -> (f64, f64, f64) {
    if ee.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let n = ee.len() as f64;
    let mu = ee.iter().sum::<f64>() / n;
    let mu_star = ee.iter().map(|x| x.abs()).sum::<f64>() / n;
    let sigma = if ee.len() > 1 { (ee.iter().map(|x| (x - mu).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() } else { 0.0 };
    (mu, mu_star, sigma)
}

/// The central `confidence` interval of bootstrap replicates.
pub fn percentile_interval(xs: &mut [f64], confidence: f64) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| xs[((q * (xs.len() - 1) as f64).round() as usize).min(xs.len() - 1)];
    let tail = (1.0 - confidence) / 2.0;
    (at(tail), at(1.0 - tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_pcg::Pcg64Mcg;

    /// Play a design on a function of the unit cube, with no noise.
    fn play(f: impl Fn(&[f64]) -> f64, k: usize, r: usize) -> Vec<Effect> {
        let mut rng = Pcg64Mcg::new(7);
        let d = design(k, r, 4, &mut rng);
        let mut steps = Vec::new();
        for (n, t) in d.iter().enumerate() {
            for (j, &i) in t.order.iter().enumerate() {
                let (a, b) = (&t.points[j], &t.points[j + 1]);
                steps.push(Step { trajectory: n, input: i, du: b[i] - a[i], dy: f(b) - f(a), dy_se: 0.0 });
            }
        }
        analyse(k, &steps, 0.95, 500, &mut rng)
    }

    #[test]
    fn a_trajectory_moves_each_input_once_by_delta_inside_the_cube() {
        let mut rng = Pcg64Mcg::new(1);
        for t in design(6, 20, 4, &mut rng) {
            assert_eq!(t.points.len(), 7);
            let mut seen = t.order.clone();
            seen.sort();
            assert_eq!(seen, (0..6).collect::<Vec<_>>());
            for (j, &i) in t.order.iter().enumerate() {
                let (a, b) = (&t.points[j], &t.points[j + 1]);
                assert!(((b[i] - a[i]).abs() - 2.0 / 3.0).abs() < 1e-12);
                assert!((0..6).filter(|&m| m != i).all(|m| a[m] == b[m]));
            }
            assert!(t.points.iter().flatten().all(|x| (-1e-12..=1.0 + 1e-12).contains(x)));
        }
    }

    /// On a linear function every effect is the coefficient: μ* is its
    /// absolute value, σ is 0, and an input without a coefficient scores 0.
    #[test]
    fn a_linear_function_gives_its_coefficients_exactly() {
        let e = play(|x| 3.0 * x[0] - 5.0 * x[1] + 0.5 * x[3], 4, 12);
        let by = |i: usize| e.iter().find(|x| x.input == i).unwrap().clone();
        assert_eq!(e.iter().map(|x| x.input).collect::<Vec<_>>(), vec![1, 0, 3, 2]);
        for (i, c) in [(0, 3.0), (1, -5.0), (2, 0.0), (3, 0.5)] {
            let x = by(i);
            assert!((x.mu - c).abs() < 1e-9 && (x.mu_star - f64::abs(c)).abs() < 1e-9, "{x:?}");
            assert!(x.sigma.abs() < 1e-9 && x.sigma_ci.1.abs() < 1e-9);
            assert_eq!(x.n, 12);
        }
    }

    /// An interaction shows as spread: in x0·x1 each input's effect depends
    /// on the other, so σ > 0, while x2 alone stays linear.
    #[test]
    fn an_interaction_shows_as_sigma() {
        let e = play(|x| 4.0 * x[0] * x[1] + x[2], 3, 30);
        let by = |i: usize| e.iter().find(|x| x.input == i).unwrap().clone();
        assert!(by(0).sigma > 0.5 && by(1).sigma > 0.5, "{e:?}");
        assert!(by(2).sigma.abs() < 1e-9);
        assert!(by(0).mu_star_ci.0 <= by(0).mu_star && by(0).mu_star <= by(0).mu_star_ci.1);
    }

    /// A move that rounding cancels gives no effect, and a smaller
    /// realized move is divided out.
    #[test]
    fn rounded_moves_divide_by_the_change_made() {
        let steps = [
            Step { trajectory: 0, input: 0, du: 0.0, dy: 0.3, dy_se: 0.1 },
            Step { trajectory: 1, input: 0, du: 0.5, dy: 1.0, dy_se: 0.1 },
            Step { trajectory: 2, input: 0, du: -0.25, dy: -0.5, dy_se: 0.1 },
        ];
        let e = analyse(1, &steps, 0.95, 100, &mut Pcg64Mcg::new(3));
        assert_eq!((e[0].n, e[0].mu_star, e[0].sigma), (2, 2.0, 0.0));
        // An undefined end gives no effect.
        let mut more = steps.to_vec();
        more.push(Step { trajectory: 3, input: 0, du: 0.5, dy: f64::NAN, dy_se: f64::NAN });
        let e2 = analyse(1, &more, 0.95, 100, &mut Pcg64Mcg::new(3));
        assert_eq!((e2[0].n, e2[0].mu_star, e2[0].noise), (2, 2.0, e[0].noise));
        // se 0.1 over moves of 0.5 and 0.25: errors 0.2 and 0.4.
        let want = (2.0 / std::f64::consts::PI).sqrt() * ((0.04 + 0.16) / 2.0f64).sqrt();
        assert!((e[0].noise - want).abs() < 1e-12);
    }

    /// One step per trajectory for each input: `effects[i][t]` is input
    /// `i`'s effect in trajectory `t` over a whole unit move, with standard
    /// error `se`.
    fn steps_of(effects: &[&[f64]], se: f64) -> Vec<Step> {
        let mut out = Vec::new();
        for (i, ee) in effects.iter().enumerate() {
            for (t, &dy) in ee.iter().enumerate() {
                out.push(Step { trajectory: t, input: i, du: 1.0, dy, dy_se: se });
            }
        }
        out
    }

    /// Inputs whose effects are the same in every trajectory rank the same
    /// in every resample: each rank's interval is the point rank alone, and
    /// each input is a tier of its own. The input with no effect (μ* 0, no
    /// noise) is not above noise, so it is not ranked.
    #[test]
    fn constant_effects_give_exact_rank_intervals_and_an_order() {
        let e = play(|x| 3.0 * x[0] - 5.0 * x[1] + 0.5 * x[3], 4, 12);
        let ranks: Vec<(usize, Option<Rank>)> = e.iter().map(|x| (x.input, x.rank)).collect();
        assert_eq!(
            ranks,
            vec![
                (1, Some(Rank { rank: 1, ci: (1, 1), tier: 1 })),
                (0, Some(Rank { rank: 2, ci: (2, 2), tier: 2 })),
                (3, Some(Rank { rank: 3, ci: (3, 3), tier: 3 })),
                (2, None),
            ]
        );
    }

    /// Two inputs whose order flips between trajectories: A's effects are
    /// 1 and 12 (μ* 6.5), B's 5 and 6 (μ* 5.5). A resample of trajectory 0
    /// twice (chance 1/4) puts B first, so both rank intervals are [1, 2]
    /// and neither is called above the other; C (effects 100, 100) ranks
    /// first in every resample, a tier of its own.
    #[test]
    fn inputs_whose_order_flips_between_trajectories_share_a_tier() {
        let steps = steps_of(&[&[1.0, 12.0], &[5.0, 6.0], &[100.0, 100.0]], 0.0);
        let e = analyse(3, &steps, 0.95, 1000, &mut Pcg64Mcg::new(9));
        let ranks: Vec<(usize, Option<Rank>)> = e.iter().map(|x| (x.input, x.rank)).collect();
        assert_eq!(
            ranks,
            vec![
                (2, Some(Rank { rank: 1, ci: (1, 1), tier: 1 })),
                (0, Some(Rank { rank: 2, ci: (2, 3), tier: 2 })),
                (1, Some(Rank { rank: 3, ci: (2, 3), tier: 2 })),
            ]
        );
    }

    /// An input that changes nothing (every effect exactly 0, so μ* 0 and
    /// an interval [0, 0] that does not clear the noise level) and inputs
    /// whose effects read like noise of standard error 0.1 (μ* near its
    /// noise level, √(2/π) 0.1 = 0.080) are within noise: nothing is ranked.
    #[test]
    fn inputs_within_noise_are_not_ranked() {
        let noise = [&[0.02, -0.15, 0.05, -0.09, 0.2, -0.01][..], &[0.03, -0.2, 0.07, -0.04, 0.13, -0.06]];
        let steps = steps_of(&[&[0.0; 6], noise[0], noise[1]], 0.1);
        let e = analyse(3, &steps, 0.95, 1000, &mut Pcg64Mcg::new(4));
        assert!(e.iter().all(|x| x.rank.is_none() && !x.above_noise()), "{e:?}");
    }

    #[test]
    fn tiers_split_only_where_every_interval_above_ends_before_every_one_below() {
        assert_eq!(tiers(&[(1, 1), (2, 3), (2, 3), (4, 4)]), vec![1, 2, 2, 3]);
        // 2 is clear of 3, but 1's interval reaches 3's: one tier.
        assert_eq!(tiers(&[(1, 5), (2, 2), (3, 5)]), vec![1, 1, 1]);
        assert_eq!(tiers(&[]), Vec::<usize>::new());
    }
}
