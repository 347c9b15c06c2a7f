//! `empires metagame`: the game between strategies. Is there a dominant way
//! to play, or does every style have an answer?
//!
//! - **The empirical game.** Every composition of the listed strategies over
//!   the scenario's seats (every multiset: with 4 seats and 5 strategies, 70
//!   of them) plays `campaigns` campaigns, seats rotated, all on the same
//!   campaigns (common seeds). The payoff of a strategy in a composition is
//!   the win rate of one of its players there. The game is symmetric: a
//!   player's payoff depends only on its own strategy and the multiset of
//!   the others'.
//! - **Symmetric Nash equilibrium.** A mix σ over strategies such that no
//!   pure strategy does better against `seats − 1` opponents drawn from σ.
//!   The one reported is found by replicator dynamics (exponential weights)
//!   from the uniform mix and from each strategy's corner, keeping the mix
//!   with the smallest regret (the most any pure strategy gains over σ);
//!   the regret is reported, so an approximate answer says so.
//! - **How many equilibria.** A game can have several (a coordination game
//!   has two pure ones and a mixed one between them), and replicator
//!   dynamics never finds an unstable one. So every support is searched:
//!   each pure strategy is checked, and on every support of two or more
//!   strategies Newton's method solves "every strategy of the support earns
//!   the same" from the support's centre and from random starts inside it;
//!   a solution strictly inside the support with no gain for a strategy
//!   outside it (regret below 1e-6) is an equilibrium. The distinct ones
//!   (no two within 0.001 of each other) are counted and listed, with the
//!   number of starts: a count of what was found, never a claim of
//!   uniqueness beyond it.
//! - **α-rank** (Omidshafiei et al. 2019), single population: a Markov chain
//!   over monomorphic populations of `population` players in which a mutant
//!   strategy takes over with its fixation probability under selection
//!   intensity `alpha`; the ranking is the chain's stationary distribution.
//!   With more than two seats, a player's fitness is its expected payoff
//!   against `seats − 1` opponents drawn without replacement from the rest
//!   of the population (OpenSpiel's single-population formula for two
//!   players, generalised with the hypergeometric draw).
//! - **Never a best response**: for every lineup of opponents, some other
//!   strategy wins significantly more than this one (a one-sided z test of
//!   the two win rates, Agresti–Caffo variances). The claim holds only if
//!   every lineup rejects (an intersection–union test, so no correction
//!   over lineups), and each lineup's test is Bonferroni-corrected over the
//!   other strategies and over the strategies claimed: the family-wise
//!   error of all the claims together is at most 5%.
//! - **Bootstrap.** Each composition's campaigns are drawn again with
//!   replacement, and the equilibrium and α-rank are computed again. A mass
//!   on the edge of the simplex (0% or 100%) has no valid percentile
//!   interval, so the resamples are reported as what they are: how often
//!   a strategy is in the equilibrium's support (mass of 1% or more) and
//!   the middle 95% of its resampled masses, or, when those are all one
//!   value, how many resamples gave it.

use crate::error::Error;
use crate::scenario::{Scenario, StrategySpec};
use crate::seed::{self, mix2};
use crate::sim::lineup::Lineup;
use rand::RngExt;
use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, Normal};

/// One composition: how many seats each strategy holds, and its results.
#[derive(Clone, Debug, PartialEq)]
pub struct Composition {
    /// Seats per strategy (in the order of `names`); they sum to the seats.
    pub counts: Vec<u32>,
    pub campaigns: u64,
    /// Campaigns won by each strategy's players together.
    pub wins: Vec<u64>,
}

impl Composition {
    /// The win rate of one player of strategy `i` (NaN when it has no seat).
    pub fn payoff(&self, i: usize) -> f64 {
        if self.counts[i] == 0 {
            f64::NAN
        } else {
            self.wins[i] as f64 / (self.counts[i] as f64 * self.campaigns as f64)
        }
    }
}

/// Distinct equilibria are at least this far apart (largest coordinate).
const DISTINCT: f64 = 1e-3;

/// A mix is an equilibrium when no pure strategy gains more than this.
const EQ_REGRET: f64 = 1e-6;

/// Random Newton starts per support, besides its centre.
const STARTS_PER_SUPPORT: usize = 7;

/// Every multiset of `seats` items from `k` kinds, as counts, in
/// lexicographic order (most of the first kind first).
pub fn multisets(k: usize, seats: u32) -> Vec<Vec<u32>> {
    fn go(k: usize, left: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if cur.len() == k - 1 {
            cur.push(left);
            out.push(cur.clone());
            cur.pop();
            return;
        }
        for c in (0..=left).rev() {
            cur.push(c);
            go(k, left - c, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(k, seats, &mut Vec::new(), &mut out);
    out
}

/// The payoffs of a game: one composition per multiset.
#[derive(Clone, Debug)]
pub struct Game {
    pub k: usize,
    pub seats: u32,
    comps: Vec<Composition>,
    /// Index of a composition by its counts.
    index: std::collections::HashMap<Vec<u32>, usize>,
    /// The multisets of `seats − 1` opponents.
    others: Vec<Vec<u32>>,
    /// `table[d][i]`: payoff of a player of `i` against `others[d]`, and the
    /// multinomial coefficient of `others[d]`, computed once (the
    /// equilibrium search reads them millions of times).
    table: Vec<Vec<f64>>,
    coef: Vec<f64>,
}

impl Game {
    pub fn new(k: usize, seats: u32, comps: Vec<Composition>) -> Game {
        let index: std::collections::HashMap<Vec<u32>, usize> =
            comps.iter().enumerate().map(|(i, c)| (c.counts.clone(), i)).collect();
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
        Game { k, seats, comps, index, others, table, coef }
    }

    pub fn compositions(&self) -> &[Composition] {
        &self.comps
    }

    /// Payoff of a player of `i` whose opponents are the multiset `d`.
    fn u(&self, i: usize, d: &[u32]) -> f64 {
        let mut c = d.to_vec();
        c[i] += 1;
        self.comps[self.index[&c]].payoff(i)
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
        if best.1 >= EQ_REGRET {
            for s in self.equilibria(0).0 {
                let r = self.regret(&s);
                if r < best.1 {
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
            let mut jac = vec![vec![0.0; m]; m];
            for c in 0..m {
                let (mut up, mut down) = (free.clone(), free.clone());
                up[c] += h;
                down[c] -= h;
                let (fu, fd) = (f(&up), f(&down));
                for (row, j) in jac.iter_mut().enumerate() {
                    j[c] = (fu[row] - fd[row]) / (2.0 * h);
                }
            }
            let step = solve_linear(jac, r)?;
            for (v, d) in free.iter_mut().zip(&step) {
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

    /// Strategies never a best response to any lineup of opponents, each
    /// claim a test: for every lineup, another strategy wins significantly
    /// more (one-sided z at `alpha / (k (k − 1))`, Agresti–Caffo
    /// variances), so all the claims together hold a family-wise error of
    /// at most `alpha`.
    pub fn never_best_response(&self, alpha: f64) -> Vec<bool> {
        let k = self.k;
        let level = alpha / (k * (k - 1).max(1)) as f64;
        let normal = Normal::new(0.0, 1.0).expect("standard normal");
        // A player of `i`'s win rate against `d` and its variance.
        let rate = |i: usize, d: &[u32]| -> (f64, f64) {
            let mut c = d.to_vec();
            c[i] += 1;
            let comp = &self.comps[self.index[&c]];
            let n = comp.campaigns as f64;
            let team = (comp.wins[i] as f64 + 2.0) / (n + 4.0);
            let seats = c[i] as f64;
            (comp.payoff(i), team * (1.0 - team) / (n * seats * seats))
        };
        (0..k)
            .map(|i| {
                self.others.iter().all(|d| {
                    let (ui, vi) = rate(i, d);
                    (0..k).filter(|&j| j != i).any(|j| {
                        let (uj, vj) = rate(j, d);
                        normal.sf((uj - ui) / (vi + vj).sqrt()) < level
                    })
                })
            })
            .collect()
    }

    /// The head-to-head share of `a` against `b`: in the compositions of
    /// only those two, `a`'s wins over both's, seats split as evenly as the
    /// count allows (both splits for an odd count).
    pub fn head_to_head(&self, a: usize, b: usize) -> (u64, u64) {
        let n = self.seats;
        let mut splits = vec![n / 2];
        if n % 2 == 1 {
            splits.push(n / 2 + 1);
        }
        let (mut wa, mut total) = (0, 0);
        for sa in splits {
            let mut c = vec![0; self.k];
            c[a] = sa;
            c[b] = n - sa;
            let comp = &self.comps[self.index[&c]];
            wa += comp.wins[a];
            total += comp.wins[a] + comp.wins[b];
        }
        (wa, total)
    }

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

/// Solve `a x = b` by Gaussian elimination with partial pivoting (`None`
/// when `a` is singular).
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-14 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let factor = a[row][col] / a[col][col];
            for c in col..n {
                a[row][c] -= factor * a[col][c];
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let sum: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - sum) / a[row][row];
    }
    Some(x)
}

fn factorial(n: u32) -> f64 {
    (1..=n).map(|x| x as f64).product()
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

/// Exponential-weights replicator dynamics; the last point and the average.
fn replicate(g: &Game, mut s: Vec<f64>) -> (Vec<f64>, Vec<f64>) {
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

/// A finished meta-game.
#[derive(Clone, Debug)]
pub struct Metagame {
    pub names: Vec<String>,
    pub seats: u32,
    pub seed: u64,
    pub campaigns: u64,
    pub game: Game,
    pub equilibrium: Vec<f64>,
    pub regret: f64,
    pub alpha_rank: Vec<f64>,
    pub alpha: f64,
    pub population: u32,
    /// Never a best response to any lineup (family-wise error 5%).
    pub never_best: Vec<bool>,
    /// Every distinct equilibrium found, and from how many starts.
    pub equilibria: Vec<Vec<f64>>,
    pub starts: usize,
    pub bootstrap: u32,
    /// The middle 95% of each resampled equilibrium mass and α-rank mass
    /// (a percentile bootstrap; not a valid interval at 0% or 100%, where
    /// the report gives `equilibrium_boot` frequencies instead).
    pub equilibrium_ci: Vec<(f64, f64)>,
    pub alpha_rank_ci: Vec<(f64, f64)>,
    /// What the resamples gave, as frequencies.
    pub equilibrium_boot: Vec<Resampled>,
    pub alpha_rank_boot: Vec<Resampled>,
}

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
        let (low, high) = super::percentile_95(&mut xs.to_vec());
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

/// Play every composition and analyse the game.
#[allow(clippy::too_many_arguments)]
pub fn metagame(
    sc: &Scenario,
    names: &[String],
    master: u64,
    campaigns: u64,
    bootstrap: u32,
    alpha: f64,
    population: u32,
) -> Result<Metagame, Error> {
    let all = compositions_of(sc, names)?;
    let comps = play(sc, names, master, campaigns, 0..all)?;
    analyse(names, sc.players.len() as u32, master, campaigns, comps, bootstrap, alpha, population)
}

/// The number of compositions of `names` over the scenario's seats (and a
/// check of the list).
pub fn compositions_of(sc: &Scenario, names: &[String]) -> Result<usize, Error> {
    super::specs_of(sc, names, "a meta-game")?;
    let seats = sc.players.len() as u32;
    if seats < 2 {
        return Err(Error::input("the scenario needs at least 2 seats"));
    }
    Ok(multisets(names.len(), seats).len())
}

/// The campaigns `play` plays over `compositions` of them: `campaigns`
/// each (a progress bar's length).
pub fn planned(compositions: usize, campaigns: u64) -> u64 {
    compositions as u64 * campaigns
}

/// Play the compositions `range` (in `multisets` order): a shard of the
/// meta-game, or all of it. Compositions run one after the other, each
/// one's campaigns in parallel.
pub fn play(
    sc: &Scenario,
    names: &[String],
    master: u64,
    campaigns: u64,
    range: std::ops::Range<usize>,
) -> Result<Vec<Composition>, Error> {
    let specs: Vec<StrategySpec> = super::specs_of(sc, names, "a meta-game")?;
    if campaigns < 2 {
        return Err(Error::input("at least 2 campaigns per composition"));
    }
    let k = names.len();
    let all = multisets(k, sc.players.len() as u32);
    let mut comps = Vec::with_capacity(range.len());
    for counts in all.into_iter().skip(range.start).take(range.len()) {
        let lineup: Vec<StrategySpec> =
            counts.iter().enumerate().flat_map(|(i, &c)| std::iter::repeat_n(specs[i].clone(), c as usize)).collect();
        let slot_of: Vec<usize> =
            counts.iter().enumerate().flat_map(|(i, &c)| std::iter::repeat_n(i, c as usize)).collect();
        let l = Lineup::new(sc, &lineup).map_err(Error::from)?;
        let w = l.wins(master, 0..campaigns).map_err(Error::from)?;
        let mut wins = vec![0; k];
        for (slot, n) in w.by_slot.iter().enumerate() {
            wins[slot_of[slot]] += n;
        }
        comps.push(Composition { counts, campaigns, wins });
    }
    Ok(comps)
}

/// Solve the game of every composition's results (from one run, or from
/// merged shards).
#[allow(clippy::too_many_arguments)]
pub fn analyse(
    names: &[String],
    seats: u32,
    master: u64,
    campaigns: u64,
    comps: Vec<Composition>,
    bootstrap: u32,
    alpha: f64,
    population: u32,
) -> Result<Metagame, Error> {
    let k = names.len();
    if comps.len() != multisets(k, seats).len() {
        return Err(Error::input(format!(
            "{} compositions found, {} expected: a shard is missing",
            comps.len(),
            multisets(k, seats).len()
        )));
    }
    if population < seats {
        return Err(Error::input(format!(
            "the α-rank population must hold at least the {seats} seats (found {population})"
        )));
    }
    if !(alpha.is_finite() && alpha > 0.0) {
        return Err(Error::input(format!("alpha must be above 0 (found {alpha})")));
    }
    let game = Game::new(k, seats, comps);
    let (equilibrium, regret) = game.equilibrium();
    let alpha_rank = game.alpha_rank(alpha, population);
    let never_best = game.never_best_response(0.05);
    let (equilibria, starts) = game.equilibria(master);
    // The bootstrap: every composition's winners drawn again.
    let draws: Vec<(Vec<f64>, Vec<f64>)> = (0..bootstrap)
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
            let g = Game::new(k, seats, comps);
            (g.equilibrium().0, g.alpha_rank(alpha, population))
        })
        .collect();
    let ci = |pick: &dyn Fn(&(Vec<f64>, Vec<f64>)) -> &Vec<f64>| -> Vec<(f64, f64)> {
        (0..k).map(|i| super::percentile_95(&mut draws.iter().map(|d| pick(d)[i]).collect::<Vec<f64>>())).collect()
    };
    let equilibrium_ci = ci(&|d| &d.0);
    let alpha_rank_ci = ci(&|d| &d.1);
    let boot = |pick: &dyn Fn(&(Vec<f64>, Vec<f64>)) -> &Vec<f64>, at: &[f64]| -> Vec<Resampled> {
        (0..k).map(|i| Resampled::of(&draws.iter().map(|d| pick(d)[i]).collect::<Vec<f64>>(), at[i])).collect()
    };
    let equilibrium_boot = boot(&|d| &d.0, &equilibrium);
    let alpha_rank_boot = boot(&|d| &d.1, &alpha_rank);
    Ok(Metagame {
        names: names.to_vec(),
        seats,
        seed: master,
        campaigns,
        game,
        equilibrium,
        regret,
        alpha_rank,
        alpha,
        population,
        never_best,
        equilibria,
        starts,
        bootstrap,
        equilibrium_ci,
        alpha_rank_ci,
        equilibrium_boot,
        alpha_rank_boot,
    })
}

impl Metagame {
    /// The findings, in words.
    pub fn findings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let pct = |x: f64| format!("{:.0}%", 100.0 * x);
        let support: Vec<usize> = (0..self.names.len()).filter(|&i| self.equilibrium[i] >= 0.01).collect();
        let b = &self.equilibrium_boot;
        match support.as_slice() {
            [one] => out.push(format!(
                "every player playing {} is a symmetric Nash equilibrium (regret {:.4}); the bootstrap's equilibrium \
                 is that same one in {} of {} resamples",
                self.names[*one], self.regret, b[*one].at_estimate, b[*one].of
            )),
            many => out.push(format!(
                "the equilibrium mixes {} (regret {:.4}): no single strategy is dominant",
                many.iter()
                    .map(|&i| format!("{} {}", self.names[i], pct(self.equilibrium[i])))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.regret
            )),
        }
        let mix = |s: &[f64]| -> String {
            (0..self.names.len())
                .filter(|&i| s[i] >= 0.0005)
                .map(|i| format!("{} {:.1}%", self.names[i], 100.0 * s[i]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push(format!(
            "{} distinct symmetric equilibri{} found by searching every support from {} starts (a count of what was \
             found, not a proof that there are no others): {}",
            self.equilibria.len(),
            if self.equilibria.len() == 1 { "um" } else { "a" },
            self.starts,
            self.equilibria.iter().map(|s| format!("[{}]", mix(s))).collect::<Vec<_>>().join("; ")
        ));
        let top = (0..self.names.len()).max_by(|&a, &b| self.alpha_rank[a].total_cmp(&self.alpha_rank[b])).unwrap_or(0);
        out.push(format!("α-rank puts {} of its mass on {}", pct(self.alpha_rank[top]), self.names[top]));
        let never: Vec<&str> =
            (0..self.names.len()).filter(|&i| self.never_best[i]).map(|i| self.names[i].as_str()).collect();
        if !never.is_empty() {
            out.push(format!(
                "never a best response to any lineup of opponents (for every lineup another strategy wins \
                 significantly more; family-wise error 5%): {}",
                never.join(", ")
            ));
        }
        // Cycles of three: a beats b beats c beats a, each head to head and clearly (Wilson).
        let beats = |a: usize, b: usize| {
            let (w, n) = self.game.head_to_head(a, b);
            n > 0 && crate::stats::wilson(w as f64, n as f64, 0.95).0 > 0.5
        };
        let k = self.names.len();
        for a in 0..k {
            for b in 0..k {
                for c in 0..k {
                    if a < b && a < c && b != c && beats(a, b) && beats(b, c) && beats(c, a) {
                        out.push(format!(
                            "{} beats {} beats {} beats {} (head to head, seats split)",
                            self.names[a], self.names[b], self.names[c], self.names[a]
                        ));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comp(counts: Vec<u32>, wins: Vec<u64>) -> Composition {
        Composition { campaigns: wins.iter().sum(), counts, wins }
    }

    #[test]
    fn multisets_are_every_composition_once() {
        let m = multisets(3, 2);
        assert_eq!(m, vec![vec![2, 0, 0], vec![1, 1, 0], vec![1, 0, 1], vec![0, 2, 0], vec![0, 1, 1], vec![0, 0, 2]]);
        assert_eq!(multisets(5, 4).len(), 70);
    }

    #[test]
    fn hypergeometric_draws_sum_to_one() {
        let total: f64 = (0..=3).map(|j| hypergeom(9, 4, 3, j)).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!((hypergeom(9, 4, 3, 3) - 4.0 / 84.0).abs() < 1e-12);
    }

    /// Rock, paper, scissors as a duel: the equilibrium is a third each,
    /// α-rank is uniform, nothing is dominated.
    #[test]
    fn rock_paper_scissors_mixes_evenly() {
        let g = Game::new(
            3,
            2,
            vec![
                comp(vec![2, 0, 0], vec![50, 0, 0]),
                comp(vec![1, 1, 0], vec![0, 100, 0]),
                comp(vec![1, 0, 1], vec![100, 0, 0]),
                comp(vec![0, 2, 0], vec![0, 50, 0]),
                comp(vec![0, 1, 1], vec![0, 0, 100]),
                comp(vec![0, 0, 2], vec![0, 0, 50]),
            ],
        );
        let (eq, regret) = g.equilibrium();
        assert!(regret < 1e-3, "{regret}");
        for x in &eq {
            assert!((x - 1.0 / 3.0).abs() < 0.02, "{eq:?}");
        }
        let ar = g.alpha_rank(10.0, 10);
        for x in &ar {
            assert!((x - 1.0 / 3.0).abs() < 1e-6, "{ar:?}");
        }
        assert_eq!(g.never_best_response(0.05), vec![false; 3]);
        // The only equilibrium: a third each.
        let (all, _) = g.equilibria(1);
        assert_eq!(all.len(), 1, "{all:?}");
        assert!(all[0].iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-6), "{all:?}");
    }

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
            let g = Game::new(k, 2, comps);
            let (eq, regret) = g.equilibrium();
            assert!(regret < EQ_REGRET, "case {case}: {eq:?} has regret {regret}");
            assert!((eq.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    /// A strictly dominant strategy takes all the mass.
    #[test]
    fn a_dominant_strategy_takes_everything() {
        let g = Game::new(
            2,
            2,
            vec![comp(vec![2, 0], vec![50, 0]), comp(vec![1, 1], vec![80, 20]), comp(vec![0, 2], vec![0, 50])],
        );
        let (eq, regret) = g.equilibrium();
        assert!(eq[0] > 0.999 && regret < 1e-6, "{eq:?} {regret}");
        assert!(g.alpha_rank(50.0, 20)[0] > 0.99);
        // 20 of 100 against 80: clearly not a best response.
        assert_eq!(g.never_best_response(0.05), vec![false, true]);
        assert_eq!(g.equilibria(1).0, vec![vec![1.0, 0.0]]);
        assert_eq!(g.head_to_head(0, 1), (80, 100));
    }

    fn game(campaigns: u64, comps: &[(Vec<u32>, Vec<u64>)]) -> Game {
        let comps = comps.iter().map(|(c, w)| Composition { counts: c.clone(), campaigns, wins: w.clone() }).collect();
        Game::new(2, 2, comps)
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

    /// Never a best response is a test: a strategy behind by less than the
    /// noise is not claimed, one far behind at every lineup is.
    #[test]
    fn metagame_never_a_best_response_needs_a_significant_gap_at_every_lineup() {
        // 52 against 48 of 100: not significant.
        let close = game(100, &[(vec![2, 0], vec![100, 0]), (vec![1, 1], vec![52, 48]), (vec![0, 2], vec![0, 100])]);
        assert_eq!(close.never_best_response(0.05), vec![false, false]);
        let far = game(1000, &[(vec![2, 0], vec![1000, 0]), (vec![1, 1], vec![700, 300]), (vec![0, 2], vec![0, 1000])]);
        assert_eq!(far.never_best_response(0.05), vec![false, true]);
    }

    #[test]
    fn metagame_resampled_masses_on_the_edge_are_counted_not_given_an_interval() {
        let r = Resampled::of(&[1.0; 200], 1.0);
        assert!(r.degenerate());
        assert_eq!((r.at_estimate, r.in_support, r.of), (200, 200, 200));
        let inner = Resampled::of(&(0..200).map(|i| 0.2 + 0.001 * i as f64).collect::<Vec<_>>(), 0.3);
        assert!(!inner.degenerate() && inner.low < 0.21 && inner.high > 0.39);
    }
}
