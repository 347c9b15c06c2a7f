//! Symmetric Nash equilibria of the empirical game: mixes σ over
//! strategies such that no pure strategy does better against `seats − 1`
//! opponents drawn from σ.
//!
//! - **The one reported** (`equilibrium`) is found by replicator dynamics
//!   (exponential weights) from the uniform mix and from each strategy's
//!   corner, keeping the mix with the smallest regret (the most any pure
//!   strategy gains over σ); the regret is reported, so an approximate
//!   answer says so.
//! - **How many** (`equilibria`). A game can have several (a coordination
//!   game has two pure ones and a mixed one between them), and replicator
//!   dynamics never finds an unstable one. So every support is searched:
//!   each pure strategy is checked, and on every support of two or more
//!   strategies Newton's method solves "every strategy of the support earns
//!   the same" from the support's centre and from random starts inside it;
//!   a solution strictly inside the support with no gain for a strategy
//!   outside it (regret below 1e-6) is an equilibrium. The distinct ones
//!   (no two within 0.001 of each other) are counted and listed, with the
//!   number of starts: a count of what was found, never a claim of
//!   uniqueness beyond it. Newton's linear steps are nalgebra's LU.

use super::game::EmpiricalGame;
use crate::seed::{self, mix2};
use nalgebra::{DMatrix, DVector};
use rand::RngExt;

/// Distinct equilibria are at least this far apart (largest coordinate).
const DISTINCT: f64 = 1e-3;

/// A mix is an equilibrium when no pure strategy gains more than this.
pub(super) const EQ_REGRET: f64 = 1e-6;

/// Random Newton starts per support, besides its centre.
const STARTS_PER_SUPPORT: usize = 7;

/// A Newton step's pivot below this is singular: the start leads nowhere.
const SINGULAR: f64 = 1e-14;

impl EmpiricalGame {
    /// A symmetric Nash equilibrium by replicator dynamics, with its regret.
    pub fn equilibrium(&self) -> (Vec<f64>, f64) {
        let k = self.k;
        let mut starts = vec![vec![1.0 / k as f64; k]];
        for i in 0..k {
            let mut s = vec![0.5 / (k - 1).max(1) as f64; k];
            s[i] = 0.5;
            starts.push(s);
        }
        let mut best = (starts[0].clone(), f64::INFINITY);
        for start in starts {
            let (last, avg) = replicate(self, start);
            for s in [last, avg] {
                let r = self.regret(&s);
                if r < best.1 - 1e-12 {
                    best = (s, r);
                }
            }
            if best.1 < EQ_REGRET {
                break;
            }
        }
        // The dynamics may orbit or crawl; the support enumeration finds
        // an exact equilibrium wherever one lies strictly inside a support
        // (every finite symmetric game has one).
        // Several exact equilibria tie at a regret of float noise: the
        // first found (in the search's order) stays unless another is
        // better by more than noise, so the pick does not hang on the last
        // bits of the linear solve.
        if best.1 >= EQ_REGRET {
            for s in self.equilibria(0).0 {
                let r = self.regret(&s);
                if r < best.1 - 1e-12 {
                    best = (s, r);
                }
            }
        }
        best
    }

    /// Every distinct symmetric equilibrium found, and the number of
    /// starts searched: each pure strategy, and Newton's method on every
    /// support of two or more strategies from its centre and
    /// `STARTS_PER_SUPPORT` random starts (a stream of `seed`).
    pub fn equilibria(&self, seed: u64) -> (Vec<Vec<f64>>, usize) {
        let k = self.k;
        let mut rng = seed::rng(mix2(seed, 0x6571_7561), seed::Stream::Map);
        let mut found: Vec<Vec<f64>> = Vec::new();
        let add = |s: Vec<f64>, found: &mut Vec<Vec<f64>>| {
            if !found.iter().any(|f| f.iter().zip(&s).all(|(a, b)| (a - b).abs() < DISTINCT)) {
                found.push(s);
            }
        };
        let mut starts = 0;
        for mask in 1u64..(1u64 << k) {
            let support: Vec<usize> = (0..k).filter(|&i| mask >> i & 1 == 1).collect();
            if support.len() == 1 {
                starts += 1;
                let mut s = vec![0.0; k];
                s[support[0]] = 1.0;
                if self.regret(&s) <= EQ_REGRET {
                    add(s, &mut found);
                }
                continue;
            }
            for t in 0..=STARTS_PER_SUPPORT {
                starts += 1;
                let x: Vec<f64> = if t == 0 {
                    vec![1.0 / support.len() as f64; support.len()]
                } else {
                    let e: Vec<f64> = support.iter().map(|_| -(1.0 - rng.random::<f64>()).ln()).collect();
                    let total: f64 = e.iter().sum();
                    e.iter().map(|v| v / total).collect()
                };
                if let Some(s) = self.newton(&support, x)
                    && self.regret(&s) <= EQ_REGRET
                {
                    add(s, &mut found);
                }
            }
        }
        (found, starts)
    }

    /// Newton's method for "every strategy of `support` earns the same",
    /// from the mix `x` over the support; the mix if it converges strictly
    /// inside the support.
    fn newton(&self, support: &[usize], x: Vec<f64>) -> Option<Vec<f64>> {
        let m = support.len() - 1;
        let mix = |x: &[f64]| -> Vec<f64> {
            let mut s = vec![0.0; self.k];
            for (j, &i) in support.iter().enumerate() {
                s[i] = x[j];
            }
            s
        };
        let whole = |free: &[f64]| -> Vec<f64> {
            let mut x = vec![1.0 - free.iter().sum::<f64>()];
            x.extend_from_slice(free);
            x
        };
        // The m equations in the m free masses x[1..] (x[0] = 1 − the rest).
        let f = |free: &[f64]| -> Vec<f64> {
            let v = self.values(&mix(&whole(free)));
            (1..=m).map(|j| v[support[j]] - v[support[0]]).collect()
        };
        let mut free: Vec<f64> = x[1..].to_vec();
        for _ in 0..60 {
            let r = f(&free);
            if r.iter().all(|v| v.abs() < 1e-13) {
                break;
            }
            let h = 1e-7;
            let mut jac = DMatrix::<f64>::zeros(m, m);
            for c in 0..m {
                let (mut up, mut down) = (free.clone(), free.clone());
                up[c] += h;
                down[c] -= h;
                let (fu, fd) = (f(&up), f(&down));
                for row in 0..m {
                    jac[(row, c)] = (fu[row] - fd[row]) / (2.0 * h);
                }
            }
            let step = solve(jac, DVector::from_vec(r))?;
            for (v, d) in free.iter_mut().zip(step.iter()) {
                *v -= d;
            }
            // Far outside the simplex: this start leads nowhere.
            if free.iter().any(|v| !v.is_finite() || !(-1.0..=2.0).contains(v)) {
                return None;
            }
        }
        if f(&free).iter().any(|v| v.abs() > 1e-9) {
            return None;
        }
        let x = whole(&free);
        // On the support's edge, the equilibrium belongs to a smaller one.
        if x.iter().any(|&v| v < 1e-6) {
            return None;
        }
        Some(mix(&x))
    }
}

/// `a x = b` by LU with partial pivoting, `None` when a pivot is below
/// `SINGULAR` (nalgebra's own test is an exact zero, and a near-zero pivot
/// only sends Newton far outside the simplex).
fn solve(a: DMatrix<f64>, b: DVector<f64>) -> Option<DVector<f64>> {
    let lu = a.lu();
    if lu.u().diagonal().iter().any(|p| p.abs() < SINGULAR) {
        return None;
    }
    lu.solve(&b)
}

/// Exponential-weights replicator dynamics; the last point and the average.
fn replicate(g: &EmpiricalGame, mut s: Vec<f64>) -> (Vec<f64>, Vec<f64>) {
    let k = g.k;
    let mut avg = vec![0.0; k];
    let steps = 20_000;
    let eta = 2.0;
    for step in 0..steps {
        let v = g.values(&s);
        let mean: f64 = v.iter().zip(&s).map(|(a, b)| a * b).sum();
        let before = s.clone();
        for i in 0..k {
            s[i] *= (eta * (v[i] - mean)).exp();
        }
        let total: f64 = s.iter().sum();
        for x in &mut s {
            *x /= total;
            // A floor keeps every strategy able to come back.
            if *x < 1e-300 {
                *x = 1e-300;
            }
        }
        for i in 0..k {
            avg[i] += s[i];
        }
        // Settled: the rest of the run would only repeat this point. Not
        // where a strategy near the floor still grows: its mass moves by
        // less than any absolute step while it gains, and stopping there
        // returned a point a pure strategy beat by 20 points.
        if s.iter().zip(&before).all(|(a, b)| (a - b).abs() < 1e-13) && g.regret(&s) < EQ_REGRET {
            let done = (step + 1) as f64;
            let rest = (steps - step - 1) as f64;
            for i in 0..k {
                avg[i] = (avg[i] + rest * s[i]) / (done + rest);
            }
            return (s, avg);
        }
    }
    for x in &mut avg {
        *x /= steps as f64;
    }
    (s, avg)
}

#[cfg(test)]
mod tests {
    use super::super::play::{Composition, multisets};
    use super::*;

    use super::super::game::scripted as game;

    /// Random constant-sum duels of 3 to 6 strategies: the equilibrium
    /// always has no regret. (Replicator dynamics alone once returned, on
    /// a duel's PSRO population, a mix a pure strategy beat by 20 points.)
    #[test]
    fn the_equilibrium_of_any_duel_has_no_regret() {
        let mut rng = crate::seed::rng(7, crate::seed::Stream::Map);
        for case in 0..200 {
            let k = 3 + case % 4;
            let comps = multisets(k, 2)
                .into_iter()
                .map(|counts| {
                    let mut wins = vec![0u64; k];
                    let who: Vec<usize> = (0..k).filter(|&i| counts[i] > 0).collect();
                    if who.len() == 1 {
                        wins[who[0]] = 500;
                    } else {
                        // Lopsided games too: a share near 0 or 1 is where the
                        // dynamics crawl.
                        let a = (rng.random::<f64>().powi(3) * 1000.0) as u64;
                        wins[who[0]] = a;
                        wins[who[1]] = 1000 - a;
                    }
                    Composition { counts, campaigns: 1000, wins }
                })
                .collect();
            let g = EmpiricalGame::new(k, 2, comps);
            let (eq, regret) = g.equilibrium();
            assert!(regret < EQ_REGRET, "case {case}: {eq:?} has regret {regret}");
            assert!((eq.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    /// A symmetric game with exactly two equilibria: A against A earns
    /// 0.5 and B against A 0.3, so all-A is strict; against B both earn
    /// 0.4, so all-B is one too (weak), and no mix is (A always earns more
    /// against a mix with some A). Both are found, and nothing else.
    #[test]
    fn metagame_a_game_with_two_known_equilibria_reports_two() {
        let g = game(100, &[(vec![2, 0], vec![100, 0]), (vec![1, 1], vec![40, 30]), (vec![0, 2], vec![0, 80])]);
        let (mut all, starts) = g.equilibria(3);
        all.sort_by(|a, b| b[0].total_cmp(&a[0]));
        assert_eq!(all, vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
        assert_eq!(starts, 2 + (STARTS_PER_SUPPORT + 1));
    }

    /// A coordination game (a win only when both play alike, a draw
    /// otherwise) has three: both pure ones, and the mix half and half
    /// between them, which replicator dynamics never finds (it is
    /// unstable) but the support search does.
    #[test]
    fn metagame_a_coordination_game_has_its_unstable_mixed_equilibrium_found() {
        let g = game(100, &[(vec![2, 0], vec![100, 0]), (vec![1, 1], vec![0, 0]), (vec![0, 2], vec![0, 100])]);
        let (mut all, _) = g.equilibria(3);
        all.sort_by(|a, b| b[0].total_cmp(&a[0]));
        assert_eq!(all.len(), 3, "{all:?}");
        assert!((all[1][0] - 0.5).abs() < 1e-9, "{all:?}");
    }

    /// The linear solve behind Newton's steps: a system gives its solution
    /// to the last bits, and a singular one (a zero pivot) none.
    #[test]
    fn a_newton_step_solves_its_system_and_refuses_a_singular_one() {
        let a = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 3.0]);
        let x = solve(a, DVector::from_vec(vec![3.0, 5.0])).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-15 && (x[1] - 1.4).abs() < 1e-15, "{x}");
        let singular = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 4.0]);
        assert_eq!(solve(singular, DVector::from_vec(vec![1.0, 2.0])), None);
    }
}
