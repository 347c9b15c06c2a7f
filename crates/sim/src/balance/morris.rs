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

/// One move of a trajectory as it was played: the input moved, the unit
/// change made (after rounding), the change of the output's mean, and the
/// standard error of that change from the campaigns (paired, on common
/// seeds).
#[derive(Clone, Copy, Debug)]
pub struct Step {
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
}

impl Effect {
    /// μ*'s interval lies above the noise level.
    pub fn above_noise(&self) -> bool {
        self.mu_star_ci.0 > self.noise
    }
}

/// μ*, σ and their bootstrap intervals for inputs `0..k`, from the moves
/// of every trajectory. Inputs come back ranked by μ*, largest first.
pub fn analyse(k: usize, steps: &[Step], confidence: f64, resamples: usize, rng: &mut Pcg64Mcg) -> Vec<Effect> {
    let mut out: Vec<Effect> = (0..k)
        .map(|i| {
            // A move that rounding cancels, or whose metric is undefined at
            // one end (a share of gold where nobody earned any), gives no
            // effect.
            let mine: Vec<&Step> =
                steps.iter().filter(|s| s.input == i && s.du.abs() > 1e-12 && s.dy.is_finite()).collect();
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
            }
        })
        .collect();
    // Largest μ* first; an input with no effect at all (NaN) last.
    let key = |e: &Effect| if e.mu_star.is_nan() { f64::NEG_INFINITY } else { e.mu_star };
    out.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.input.cmp(&b.input)));
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
        for t in &d {
            for (j, &i) in t.order.iter().enumerate() {
                let (a, b) = (&t.points[j], &t.points[j + 1]);
                steps.push(Step { input: i, du: b[i] - a[i], dy: f(b) - f(a), dy_se: 0.0 });
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
            Step { input: 0, du: 0.0, dy: 0.3, dy_se: 0.1 },
            Step { input: 0, du: 0.5, dy: 1.0, dy_se: 0.1 },
            Step { input: 0, du: -0.25, dy: -0.5, dy_se: 0.1 },
        ];
        let e = analyse(1, &steps, 0.95, 100, &mut Pcg64Mcg::new(3));
        assert_eq!((e[0].n, e[0].mu_star, e[0].sigma), (2, 2.0, 0.0));
        // An undefined end gives no effect.
        let mut more = steps.to_vec();
        more.push(Step { input: 0, du: 0.5, dy: f64::NAN, dy_se: f64::NAN });
        let e2 = analyse(1, &more, 0.95, 100, &mut Pcg64Mcg::new(3));
        assert_eq!((e2[0].n, e2[0].mu_star, e2[0].noise), (2, 2.0, e[0].noise));
        // se 0.1 over moves of 0.5 and 0.25: errors 0.2 and 0.4.
        let want = (2.0 / std::f64::consts::PI).sqrt() * ((0.04 + 0.16) / 2.0f64).sqrt();
        assert!((e[0].noise - want).abs() < 1e-12);
    }
}
