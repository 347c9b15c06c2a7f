//! α-rank (Omidshafiei et al. 2019), single population: a Markov chain
//! over monomorphic populations of `population` players in which a mutant
//! strategy takes over with its fixation probability under selection
//! intensity `alpha`; the ranking is the chain's stationary distribution.
//! With more than two seats, a player's fitness is its expected payoff
//! against `seats − 1` opponents drawn without replacement from the rest
//! of the population (OpenSpiel's single-population formula for two
//! players, generalised with the hypergeometric draw). A ranking of
//! another kind than the equilibrium (`equilibria`): where a population
//! that mutates and selects spends its time, not a mix that no one gains
//! by leaving.

use super::game::EmpiricalGame;

impl EmpiricalGame {
    /// α-rank's stationary distribution for a population of `m` at selection
    /// intensity `alpha`.
    pub fn alpha_rank(&self, alpha: f64, m: u32) -> Vec<f64> {
        let k = self.k;
        if k == 1 {
            return vec![1.0];
        }
        let eta = 1.0 / (k - 1) as f64;
        let mut c = vec![vec![0.0; k]; k];
        for s in 0..k {
            for r in 0..k {
                if r != s {
                    c[s][r] = eta * self.fixation(r, s, alpha, m);
                }
            }
            c[s][s] = 1.0 - c[s].iter().sum::<f64>();
        }
        stationary(&c)
    }

    /// Fitness of a player of `me` when `mine` of the `m` players play `me`
    /// and the rest play `other`.
    fn fitness(&self, me: usize, other: usize, mine: u32, m: u32) -> f64 {
        let n1 = self.seats - 1;
        let mut f = 0.0;
        // j of the n − 1 opponents play `me`, drawn from the m − 1 others.
        for j in 0..=n1 {
            let p = hypergeom(m - 1, mine - 1, n1, j);
            if p == 0.0 {
                continue;
            }
            let mut d = vec![0; self.k];
            d[me] = j;
            d[other] = n1 - j;
            f += p * self.u(me, &d);
        }
        f
    }

    /// Probability that one mutant `r` takes over a population of `s`.
    fn fixation(&self, r: usize, s: usize, alpha: f64, m: u32) -> f64 {
        // ρ = 1 / (1 + Σ_{l=1}^{m−1} Π_{k=1}^{l} e^{−α (f_r(k) − f_s(m−k))}), in logs.
        let mut acc = 0.0;
        let mut logs = Vec::with_capacity(m as usize);
        for l in 1..m {
            acc += -alpha * (self.fitness(r, s, l, m) - self.fitness(s, r, m - l, m));
            logs.push(acc);
        }
        let top = logs.iter().cloned().fold(0.0, f64::max);
        let sum = (-top).exp() + logs.iter().map(|x| (x - top).exp()).sum::<f64>();
        // 1 / (1 + Σ e^x) = e^{−top} / (e^{−top} + Σ e^{x − top}).
        (-top).exp() / sum
    }
}

fn choose(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product()
}

/// P(j successes in `draws` draws without replacement from `pop` items of
/// which `good` are successes).
fn hypergeom(pop: u32, good: u32, draws: u32, j: u32) -> f64 {
    if j > good || draws - j > pop - good || draws > pop {
        return 0.0;
    }
    choose(good, j) * choose(pop - good, draws - j) / choose(pop, draws)
}

/// The stationary distribution of a row-stochastic matrix (power iteration
/// on a lazy chain, then normalised).
fn stationary(c: &[Vec<f64>]) -> Vec<f64> {
    let k = c.len();
    let mut pi = vec![1.0 / k as f64; k];
    for _ in 0..200_000 {
        let mut next = vec![0.0; k];
        for s in 0..k {
            for r in 0..k {
                next[r] += pi[s] * c[s][r];
            }
        }
        let change: f64 = next.iter().zip(&pi).map(|(a, b)| (a - b).abs()).sum();
        pi = next;
        if change < 1e-15 {
            break;
        }
    }
    let total: f64 = pi.iter().sum();
    pi.iter().map(|x| x / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypergeometric_draws_sum_to_one() {
        let total: f64 = (0..=3).map(|j| hypergeom(9, 4, 3, j)).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!((hypergeom(9, 4, 3, 3) - 4.0 / 84.0).abs() < 1e-12);
    }
}
