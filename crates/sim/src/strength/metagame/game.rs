//! The empirical game as a payoff table: a symmetric game in which a
//! player's payoff depends only on its own strategy and the multiset of
//! the others', read from the compositions' win rates. What every solver
//! of the meta-game (`equilibria`, `alpha_rank`, `dominance`) reads, with
//! the multinomial weights computed once because the equilibrium search
//! reads them millions of times.

use super::play::{Composition, multisets};
use std::collections::HashMap;

/// The payoffs of a meta-game: one composition per multiset. (Not the
/// rules' `Game`, which plays one campaign.)
#[derive(Clone, Debug)]
pub struct EmpiricalGame {
    pub k: usize,
    pub seats: u32,
    comps: Vec<Composition>,
    /// Index of a composition by its counts.
    index: HashMap<Vec<u32>, usize>,
    /// The multisets of `seats − 1` opponents.
    pub(super) others: Vec<Vec<u32>>,
    /// `table[d][i]`: payoff of a player of `i` against `others[d]`, and the
    /// multinomial coefficient of `others[d]`, computed once (the
    /// equilibrium search reads them millions of times).
    table: Vec<Vec<f64>>,
    coef: Vec<f64>,
}

impl EmpiricalGame {
    pub fn new(k: usize, seats: u32, comps: Vec<Composition>) -> EmpiricalGame {
        let index: HashMap<Vec<u32>, usize> = comps.iter().enumerate().map(|(i, c)| (c.counts.clone(), i)).collect();
        let others = multisets(k, seats - 1);
        let table = others
            .iter()
            .map(|d| {
                (0..k)
                    .map(|i| {
                        let mut c = d.clone();
                        c[i] += 1;
                        comps[index[&c]].payoff(i)
                    })
                    .collect()
            })
            .collect();
        let coef = others.iter().map(|d| d.iter().fold(factorial(seats - 1), |p, &x| p / factorial(x))).collect();
        EmpiricalGame { k, seats, comps, index, others, table, coef }
    }

    pub fn compositions(&self) -> &[Composition] {
        &self.comps
    }

    /// The composition of these seat counts (one per multiset).
    pub(super) fn composition(&self, counts: &[u32]) -> &Composition {
        &self.comps[self.index[counts]]
    }

    /// The composition of a player of `i` and the opponents `d`.
    pub(super) fn composition_with(&self, i: usize, d: &[u32]) -> &Composition {
        let mut c = d.to_vec();
        c[i] += 1;
        self.composition(&c)
    }

    /// Payoff of a player of `i` whose opponents are the multiset `d`.
    pub(super) fn u(&self, i: usize, d: &[u32]) -> f64 {
        self.composition_with(i, d).payoff(i)
    }

    /// Expected payoff of each pure strategy against opponents drawn from σ.
    pub fn values(&self, sigma: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.k];
        for (di, d) in self.others.iter().enumerate() {
            // Multinomial probability of the opponents' multiset.
            let mut p = self.coef[di];
            for (j, &dj) in d.iter().enumerate() {
                if dj > 0 {
                    p *= sigma[j].powi(dj as i32);
                }
            }
            if p == 0.0 {
                continue;
            }
            for (o, u) in out.iter_mut().zip(&self.table[di]) {
                *o += p * u;
            }
        }
        out
    }

    /// How much the best pure strategy gains over σ.
    pub fn regret(&self, sigma: &[f64]) -> f64 {
        let v = self.values(sigma);
        let avg: f64 = v.iter().zip(sigma).map(|(a, b)| a * b).sum();
        v.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - avg
    }
}

fn factorial(n: u32) -> f64 {
    (1..=n).map(|x| x as f64).product()
}

/// A two-seat, two-strategy game from scripted wins, `campaigns` a
/// composition: what the solvers' tests read.
#[cfg(test)]
pub(super) fn scripted(campaigns: u64, comps: &[(Vec<u32>, Vec<u64>)]) -> EmpiricalGame {
    let comps = comps.iter().map(|(c, w)| Composition { counts: c.clone(), campaigns, wins: w.clone() }).collect();
    EmpiricalGame::new(2, 2, comps)
}
