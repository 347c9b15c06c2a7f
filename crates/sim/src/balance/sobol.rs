//! Sobol' variance-based indices for a short list of inputs: the share of
//! the output's variance each input explains alone (first order, S) and
//! with all its interactions (total, ST).
//!
//! The design is Saltelli's: two independent samples `A` and `B` of `n`
//! points of the unit cube, and for each input `i` the matrix `A_B^i`,
//! `A` with column `i` taken from `B`, so `n (k + 2)` evaluations in all.
//! The estimators are those Saltelli et al. (2010) recommend:
//! `S_i = mean(f(B) (f(A_B^i) − f(A))) / V` (with `f(B)` centred on the
//! mean, which leaves its expectation and cuts its variance) and Jansen's
//! `ST_i = mean((f(A) − f(A_B^i))²) / (2V)`, with `V` the variance of
//! `f(A)` and `f(B)` together. The intervals are percentile bootstraps
//! over the `n` rows.

use super::morris::percentile_interval;
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// The points to evaluate: `a`, `b`, then `ab[i]` for each input.
#[derive(Clone, Debug)]
pub struct Design {
    pub a: Vec<Vec<f64>>,
    pub b: Vec<Vec<f64>>,
    pub ab: Vec<Vec<Vec<f64>>>,
}

impl Design {
    /// Every point in evaluation order: `a`, `b`, `ab[0]`, `ab[1]`, ...
    pub fn points(&self) -> Vec<Vec<f64>> {
        let mut out = self.a.clone();
        out.extend(self.b.iter().cloned());
        for m in &self.ab {
            out.extend(m.iter().cloned());
        }
        out
    }
}

/// A Saltelli design of `n` rows over `k` inputs.
pub fn design(k: usize, n: usize, rng: &mut Pcg64Mcg) -> Design {
    let mut sample = || -> Vec<Vec<f64>> { (0..n).map(|_| (0..k).map(|_| rng.random::<f64>()).collect()).collect() };
    let a = sample();
    let b = sample();
    let ab = (0..k)
        .map(|i| {
            a.iter()
                .zip(&b)
                .map(|(ra, rb)| {
                    let mut r = ra.clone();
                    r[i] = rb[i];
                    r
                })
                .collect()
        })
        .collect();
    Design { a, b, ab }
}

/// The indices of one input with their intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    pub input: usize,
    pub first: f64,
    pub first_ci: (f64, f64),
    pub total: f64,
    pub total_ci: (f64, f64),
}

/// S and ST for each input from the outputs at `Design::points()`, in
/// that order (`n (k + 2)` values).
pub fn analyse(k: usize, y: &[f64], confidence: f64, resamples: usize, rng: &mut Pcg64Mcg) -> Vec<Index> {
    let n = y.len() / (k + 2);
    let (fa, rest) = y.split_at(n);
    let (fb, fab) = rest.split_at(n);
    let rows: Vec<usize> = (0..n).collect();
    // A row whose output is undefined at one of its points (a share of
    // gold where nobody earned any) is left out of that input's estimate.
    let estimate = |all: &[usize], i: usize| -> (f64, f64) {
        let fabi = &fab[i * n..(i + 1) * n];
        let rows: Vec<usize> =
            all.iter().copied().filter(|&r| fa[r].is_finite() && fb[r].is_finite() && fabi[r].is_finite()).collect();
        if rows.len() < 2 {
            return (f64::NAN, f64::NAN);
        }
        let m = rows.len() as f64;
        let mean = rows.iter().map(|&r| fa[r] + fb[r]).sum::<f64>() / (2.0 * m);
        let var = rows.iter().map(|&r| (fa[r] - mean).powi(2) + (fb[r] - mean).powi(2)).sum::<f64>() / (2.0 * m - 1.0);
        if var <= 0.0 {
            return (0.0, 0.0);
        }
        // Centred: E[(f(B) − c)(f(A_B^i) − f(A))] is the same for any c, and
        // c = the mean takes out most of the estimator's variance when the
        // output's mean is large against its spread (a win rate near 0.25
        // moving by a few points).
        let s = rows.iter().map(|&r| (fb[r] - mean) * (fabi[r] - fa[r])).sum::<f64>() / m / var;
        let st = rows.iter().map(|&r| (fa[r] - fabi[r]).powi(2)).sum::<f64>() / (2.0 * m) / var;
        (s, st)
    };
    let mut boot: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); k];
    let mut sample = vec![0usize; n];
    for _ in 0..resamples {
        for r in sample.iter_mut() {
            *r = rng.random_range(0..n.max(1));
        }
        for (i, (s, st)) in boot.iter_mut().enumerate() {
            let (a, b) = estimate(&sample, i);
            s.push(a);
            st.push(b);
        }
    }
    (0..k)
        .map(|i| {
            let (first, total) = estimate(&rows, i);
            let (s, st) = &mut boot[i];
            Index {
                input: i,
                first,
                first_ci: percentile_interval(s, confidence),
                total,
                total_ci: percentile_interval(st, confidence),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Ishigami function, the standard test of these estimators, on
    /// the unit cube mapped to [−π, π]³ (a = 7, b = 0.1). Its indices are
    /// known in closed form: S = (0.3139, 0.4424, 0),
    /// ST = (0.5576, 0.4424, 0.2437).
    #[test]
    fn the_ishigami_function_gives_its_known_indices() {
        let f = |u: &[f64]| {
            let x: Vec<f64> = u.iter().map(|v| -std::f64::consts::PI + 2.0 * std::f64::consts::PI * v).collect();
            x[0].sin() + 7.0 * x[1].sin().powi(2) + 0.1 * x[2].powi(4) * x[0].sin()
        };
        let mut rng = Pcg64Mcg::new(11);
        let d = design(3, 20_000, &mut rng);
        let y: Vec<f64> = d.points().iter().map(|p| f(p)).collect();
        let idx = analyse(3, &y, 0.95, 200, &mut rng);
        let want = [(0.3139, 0.5576), (0.4424, 0.4424), (0.0, 0.2437)];
        for (i, (s, st)) in want.into_iter().enumerate() {
            assert!((idx[i].first - s).abs() < 0.03, "S{i} = {:?}", idx[i]);
            assert!((idx[i].total - st).abs() < 0.03, "ST{i} = {:?}", idx[i]);
            assert!(idx[i].first_ci.0 <= s + 0.03 && s - 0.03 <= idx[i].first_ci.1, "{:?}", idx[i]);
            assert!(idx[i].total_ci.0 <= st + 0.03 && st - 0.03 <= idx[i].total_ci.1, "{:?}", idx[i]);
        }
    }

    #[test]
    fn the_design_swaps_one_column_per_input() {
        let d = design(3, 5, &mut Pcg64Mcg::new(2));
        assert_eq!(d.points().len(), 5 * 5);
        for i in 0..3 {
            for r in 0..5 {
                for c in 0..3 {
                    let want = if c == i { d.b[r][c] } else { d.a[r][c] };
                    assert_eq!(d.ab[i][r][c], want);
                }
            }
        }
    }
}
