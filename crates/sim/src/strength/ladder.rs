//! `empires ladder`: a round robin of strategies and their Bradley–Terry
//! ratings on the Elo scale, with bootstrap intervals.
//!
//! - **Games.** Every pair of strategies plays `campaigns` campaigns of the
//!   scenario's game, the seats split between them (A, B, A, B, ...) and
//!   rotated. With an odd seat count, half the campaigns give the extra
//!   seat to A and half to B. `--duels` plays the scenario with its first
//!   two seats only. Every pair plays the same campaigns (common seeds).
//! - **Model.** The winner of a campaign is one seat. Under the Luce choice
//!   model, the Bradley–Terry model for more than two seats, a side with
//!   `m` seats of strength `γ` beats a side with `m'` seats of `γ'` with
//!   probability `mγ / (mγ + m'γ')`; with equal seats that is Bradley–Terry's
//!   `γ / (γ + γ')`. The strengths are fitted by maximum likelihood with
//!   Hunter's MM algorithm (Hunter 2004, "MM algorithms for generalized
//!   Bradley–Terry models"). A rating is `400 log10 γ`, so a 400-point gap
//!   is 10-to-1 odds between equal sides, shifted so the anchor is 0.
//! - **A weak prior.** Each pair also counts half a win for each side, so
//!   a strategy that wins (or loses) every game keeps a finite rating.
//! - **Fit.** Pearson's X² of the pair tables against the fitted model:
//!   over every (pair, seating) group, `(wins − n p)² / (n p (1 − p))`,
//!   with `groups − (strategies − 1)` degrees of freedom and its p-value
//!   from the chi-square distribution. When p < 0.05 the model does not
//!   fit: the ratings are then a summary, and who beats whom is in the pair
//!   table (a cycle, rock-paper-scissors, is the usual cause).
//! - **Intervals.** A bootstrap over campaigns, shared across pairs: every
//!   pair plays the same campaign indices (common seeds), so a resample
//!   draws campaign indices with replacement once and takes every pair's
//!   result at those indices, keeping the correlation between pairs that
//!   share a campaign. The model is fitted again on each of the
//!   `bootstrap` resamples (a stream of the master seed), and the 2.5% and
//!   97.5% quantiles are the 95% intervals: of each rating (relative to
//!   the anchor) and of the **difference of every pair of strategies**,
//!   which says which strategies truly differ whatever the anchor. A
//!   difference's verdict ("stronger") holds a 5% family-wise error over
//!   all pairs: Holm's method over two-sided z tests of the difference
//!   with the bootstrap's standard deviation.

use crate::error::Error;
use crate::scenario::{Scenario, StrategySpec};
use crate::seed::{self, mix2};
use crate::sim::lineup::Lineup;
use crate::stats::wilson;
use rand::RngExt;
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// One pair's games.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    /// Groups of campaigns that seat the pair the same way: (seats of a,
    /// seats of b, campaigns, wins of a). Group `g` holds the campaigns
    /// after those of the groups before it.
    pub groups: Vec<Group>,
    /// Campaign by campaign (index `j` is campaign `j` of every pair): did
    /// a side of `a` win.
    pub won: Vec<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub seats_a: u32,
    pub seats_b: u32,
    pub campaigns: u64,
    pub wins_a: u64,
}

impl Pair {
    pub fn campaigns(&self) -> u64 {
        self.groups.iter().map(|g| g.campaigns).sum()
    }
    pub fn wins_a(&self) -> u64 {
        self.groups.iter().map(|g| g.wins_a).sum()
    }
    /// A's share of the wins, with its Wilson 95% interval.
    pub fn rate_a(&self) -> (f64, f64, f64) {
        let (n, w) = (self.campaigns() as f64, self.wins_a() as f64);
        let (lo, hi) = wilson(w, n, 0.95);
        (w / n, lo, hi)
    }
}

/// A strategy's place on the ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub name: String,
    pub rating: f64,
    pub low: f64,
    pub high: f64,
    pub campaigns: u64,
    pub wins: u64,
}

/// The difference of two strategies' ratings (`a` minus `b`, best first).
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub a: String,
    pub b: String,
    pub diff: f64,
    pub low: f64,
    pub high: f64,
    /// Two-sided p-value (z from the bootstrap standard deviation) and its
    /// Holm-adjusted value over every pair.
    pub p: f64,
    pub p_holm: f64,
}

impl Difference {
    /// `a` is stronger than `b` at a 5% family-wise error.
    pub fn stronger(&self) -> bool {
        self.p_holm < 0.05 && self.diff > 0.0
    }
}

/// Pearson's X² of the pair tables against the fitted model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub x2: f64,
    pub df: u32,
    pub p: f64,
}

impl Fit {
    /// The model fits (the test does not reject it at 5%).
    pub fn fits(&self) -> bool {
        self.p.is_nan() || self.p >= 0.05
    }
}

/// A finished ladder, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    pub names: Vec<String>,
    pub anchor: String,
    pub seats: usize,
    pub seed: u64,
    pub campaigns: u64,
    pub bootstrap: u32,
    pub pairs: Vec<Pair>,
    pub ranked: Vec<Rated>,
    /// Every pair of strategies' rating difference, in ranked order.
    pub differences: Vec<Difference>,
    pub fit: Fit,
}

/// Fit the strengths (γ, geometric mean 1) of `k` strategies from the pairs'
/// groups by Hunter's MM iterations, with half a virtual win per side.
pub fn fit(k: usize, games: &[(usize, usize, Group)]) -> Vec<f64> {
    let mut gamma = vec![1.0; k];
    // Wins, with the prior's half win per side of every pair.
    let mut wins = vec![0.0; k];
    for (a, b, g) in games {
        wins[*a] += g.wins_a as f64;
        wins[*b] += (g.campaigns - g.wins_a) as f64;
    }
    let mut prior_pairs: Vec<(usize, usize)> = games.iter().map(|(a, b, _)| (*a, *b)).collect();
    prior_pairs.sort_unstable();
    prior_pairs.dedup();
    for &(a, b) in &prior_pairs {
        wins[a] += 0.5;
        wins[b] += 0.5;
    }
    for _ in 0..10_000 {
        let mut denom = vec![0.0; k];
        for (a, b, g) in games {
            let (ma, mb) = (g.seats_a as f64, g.seats_b as f64);
            let s = ma * gamma[*a] + mb * gamma[*b];
            denom[*a] += g.campaigns as f64 * ma / s;
            denom[*b] += g.campaigns as f64 * mb / s;
        }
        for &(a, b) in &prior_pairs {
            // One virtual campaign with one seat each.
            let s = gamma[a] + gamma[b];
            denom[a] += 1.0 / s;
            denom[b] += 1.0 / s;
        }
        let mut next: Vec<f64> = (0..k).map(|i| if denom[i] > 0.0 { wins[i] / denom[i] } else { gamma[i] }).collect();
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        for g in &mut next {
            *g /= log_mean.exp();
        }
        let change = next.iter().zip(&gamma).map(|(x, y)| (x / y).ln().abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma
}

/// Elo-scale ratings from strengths, the anchor at 0.
pub fn elo(gamma: &[f64], anchor: usize) -> Vec<f64> {
    let r: Vec<f64> = gamma.iter().map(|g| 400.0 * g.log10()).collect();
    r.iter().map(|x| x - r[anchor]).collect()
}

fn flat(pairs: &[Pair]) -> Vec<(usize, usize, Group)> {
    pairs.iter().flat_map(|p| p.groups.iter().map(move |g| (p.a, p.b, *g))).collect()
}

/// The seats of a pair's lineups and the campaigns of each: one lineup
/// (A, B, A, B) for an even seat count, two for an odd one.
fn seatings(n: usize, campaigns: u64) -> Vec<(Vec<bool>, u64)> {
    let alt = |a_first: bool| (0..n).map(|s| (s % 2 == 0) == a_first).collect::<Vec<bool>>();
    if n.is_multiple_of(2) {
        vec![(alt(true), campaigns)]
    } else {
        let half = campaigns / 2;
        vec![(alt(true), campaigns - half), (alt(false), half)]
    }
}

/// The campaigns `ladder` plays: `campaigns` for every pair of the
/// `strategies` (a progress bar's length).
pub fn planned(strategies: usize, campaigns: u64) -> u64 {
    (strategies * strategies.saturating_sub(1) / 2) as u64 * campaigns
}

/// Play the round robin and rate it.
pub fn ladder(
    sc: &Scenario,
    names: &[String],
    anchor: &str,
    master: u64,
    campaigns: u64,
    bootstrap: u32,
) -> Result<Ladder, Error> {
    let specs: Vec<StrategySpec> = super::specs_of(sc, names, "a ladder")?;
    let anchor_i = names
        .iter()
        .position(|n| n == anchor)
        .ok_or_else(|| Error::input(format!("the anchor {anchor:?} is not on the ladder")))?;
    let n = sc.players.len();
    if n < 2 {
        return Err(Error::input("the scenario needs at least 2 seats"));
    }
    if campaigns < 2 {
        return Err(Error::input("at least 2 campaigns per pair"));
    }
    let mut pairs = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            let mut groups = Vec::new();
            let mut won = Vec::with_capacity(campaigns as usize);
            let mut start = 0;
            for (is_a, count) in seatings(n, campaigns) {
                let lineup: Vec<StrategySpec> =
                    is_a.iter().map(|&x| if x { specs[a].clone() } else { specs[b].clone() }).collect();
                let l = Lineup::new(sc, &lineup).map_err(Error::from)?;
                let w = l.winners(master, start..start + count).map_err(Error::from)?;
                start += count;
                let before = won.len();
                won.extend(w.iter().map(|&slot| is_a[slot]));
                let wins_a = won[before..].iter().filter(|&&x| x).count() as u64;
                let seats_a = is_a.iter().filter(|x| **x).count() as u32;
                groups.push(Group { seats_a, seats_b: n as u32 - seats_a, campaigns: count, wins_a });
            }
            pairs.push(Pair { a, b, groups, won });
        }
    }
    let (ranked, differences, fit) = rate(names, anchor_i, &pairs, master, bootstrap);
    Ok(Ladder {
        names: names.to_vec(),
        anchor: anchor.to_string(),
        seats: n,
        seed: master,
        campaigns,
        bootstrap,
        pairs,
        ranked,
        differences,
        fit,
    })
}

/// Pearson's X² of `games` against strengths `gamma`, with
/// `groups − (k − 1)` degrees of freedom (NaN p without any).
pub fn goodness_of_fit(k: usize, games: &[(usize, usize, Group)], gamma: &[f64]) -> Fit {
    let mut x2 = 0.0;
    let mut groups = 0u32;
    for (a, b, g) in games.iter().filter(|(_, _, g)| g.campaigns > 0) {
        let (ma, mb) = (g.seats_a as f64, g.seats_b as f64);
        let p = ma * gamma[*a] / (ma * gamma[*a] + mb * gamma[*b]);
        let n = g.campaigns as f64;
        x2 += (g.wins_a as f64 - n * p).powi(2) / (n * p * (1.0 - p));
        groups += 1;
    }
    let df = groups.saturating_sub(k.saturating_sub(1) as u32);
    let p = if df == 0 { f64::NAN } else { ChiSquared::new(df as f64).map_or(f64::NAN, |d| d.sf(x2)) };
    Fit { x2, df, p }
}

/// The pairs' groups with the campaigns `draw` (campaign indices, with
/// repeats) instead of all of them.
fn resampled(pairs: &[Pair], draw: &[usize]) -> Vec<(usize, usize, Group)> {
    let mut out = Vec::new();
    for p in pairs {
        let mut start = 0u64;
        for g in &p.groups {
            let end = start + g.campaigns;
            let mut again = Group { campaigns: 0, wins_a: 0, ..*g };
            for &j in draw.iter().filter(|&&j| (start..end).contains(&(j as u64))) {
                again.campaigns += 1;
                again.wins_a += p.won[j] as u64;
            }
            out.push((p.a, p.b, again));
            start = end;
        }
    }
    out
}

/// Rate the played pairs: the ratings with their intervals, every pair's
/// difference, and the model's fit. The bootstrap draws campaign indices
/// once per resample for every pair (shared campaigns).
pub fn rate(
    names: &[String],
    anchor: usize,
    pairs: &[Pair],
    master: u64,
    bootstrap: u32,
) -> (Vec<Rated>, Vec<Difference>, Fit) {
    let k = names.len();
    let games = flat(pairs);
    let gamma = fit(k, &games);
    let point = elo(&gamma, anchor);
    let fit_stat = goodness_of_fit(k, &games, &gamma);
    let campaigns = pairs.iter().map(|p| p.won.len()).max().unwrap_or(0);
    let mut rng = seed::rng(mix2(master, 0x6c61_6464_6572), seed::Stream::Map);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(bootstrap as usize); k];
    let mut draw = vec![0usize; campaigns];
    for _ in 0..bootstrap {
        if campaigns == 0 {
            break;
        }
        for j in draw.iter_mut() {
            *j = rng.random_range(0..campaigns);
        }
        for (i, r) in elo(&fit(k, &resampled(pairs, &draw)), anchor).into_iter().enumerate() {
            samples[i].push(r);
        }
    }
    let mut ranked: Vec<Rated> = (0..k)
        .map(|i| {
            let (low, high) = super::percentile_95(&mut samples[i].clone());
            let campaigns = pairs.iter().filter(|p| p.a == i || p.b == i).map(Pair::campaigns).sum();
            let wins = pairs
                .iter()
                .map(|p| {
                    if p.a == i {
                        p.wins_a()
                    } else if p.b == i {
                        p.campaigns() - p.wins_a()
                    } else {
                        0
                    }
                })
                .sum();
            Rated { name: names[i].clone(), rating: point[i], low, high, campaigns, wins }
        })
        .collect();
    ranked.sort_by(|x, y| y.rating.total_cmp(&x.rating).then_with(|| x.name.cmp(&y.name)));
    let order: Vec<usize> = ranked.iter().map(|r| names.iter().position(|n| n == &r.name).unwrap_or(0)).collect();
    let mut differences = Vec::new();
    for (x, &a) in order.iter().enumerate() {
        for &b in &order[x + 1..] {
            let mut d: Vec<f64> = samples[a].iter().zip(&samples[b]).map(|(ra, rb)| ra - rb).collect();
            let n = d.len() as f64;
            let mean = d.iter().sum::<f64>() / n;
            let sd = (d.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            let diff = point[a] - point[b];
            let p = if sd > 0.0 { crate::stats::p_two_sided(diff, sd) } else { f64::NAN };
            let (low, high) = super::percentile_95(&mut d);
            differences.push(Difference {
                a: names[a].clone(),
                b: names[b].clone(),
                diff,
                low,
                high,
                p,
                p_holm: f64::NAN,
            });
        }
    }
    holm(&mut differences);
    (ranked, differences, fit_stat)
}

/// Holm's step-down adjustment of the differences' p-values
/// (`stats::holm`; a NaN p-value counts as 1 there and stays NaN here).
fn holm(ds: &mut [Difference]) {
    let p: Vec<f64> = ds.iter().map(|d| d.p).collect();
    for (d, q) in ds.iter_mut().zip(crate::stats::holm(&p)) {
        d.p_holm = if d.p.is_nan() { f64::NAN } else { q };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(wins_a: u64, campaigns: u64) -> Group {
        Group { seats_a: 1, seats_b: 1, campaigns, wins_a }
    }

    #[test]
    fn two_players_fit_the_odds_of_their_wins() {
        // 750 of 1000, plus the half win each: odds 750.5 / 250.5.
        let gamma = fit(2, &[(0, 1, g(750, 1000))]);
        let r = elo(&gamma, 1);
        assert!((gamma[0] / gamma[1] - 750.5 / 250.5).abs() < 1e-9);
        assert!((r[0] - 400.0 * (750.5f64 / 250.5).log10()).abs() < 1e-6);
        assert_eq!(r[1], 0.0);
    }

    #[test]
    fn a_transitive_set_is_ordered_and_a_shutout_stays_finite() {
        let games = [(0, 1, g(700, 1000)), (1, 2, g(700, 1000)), (0, 2, g(1000, 1000))];
        let r = elo(&fit(3, &games), 2);
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
        assert!(r[0].is_finite());
    }

    #[test]
    fn seats_count_in_the_luce_model() {
        // A with 3 seats against B with 1 wins 3 of 4 when they are equal.
        let games = [(0, 1, Group { seats_a: 3, seats_b: 1, campaigns: 4000, wins_a: 3000 })];
        let gamma = fit(2, &games);
        assert!((gamma[0] / gamma[1] - 1.0).abs() < 1e-3, "{gamma:?}");
    }

    /// Pairs of `k` strategies, one seat each, `n` campaigns per pair, in
    /// which `a` beats `b` with probability `p(a, b)`. Campaign `j` draws
    /// one uniform shared by every pair (common seeds correlate the pairs).
    fn synthetic(k: usize, n: usize, p: impl Fn(usize, usize) -> f64, seed: u64) -> Vec<Pair> {
        let mut rng = seed::rng(seed, seed::Stream::Map);
        let shared: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
        let mut pairs = Vec::new();
        for a in 0..k {
            for b in a + 1..k {
                // Mix the shared draw with a pair's own: still uniform, and
                // correlated across pairs.
                let won: Vec<bool> = shared
                    .iter()
                    .map(|&u| {
                        let own = rng.random::<f64>();
                        let v = if rng.random_bool(0.5) { u } else { own };
                        v < p(a, b)
                    })
                    .collect();
                let wins_a = won.iter().filter(|&&w| w).count() as u64;
                pairs.push(Pair { a, b, groups: vec![g(wins_a, n as u64)], won });
            }
        }
        pairs
    }

    fn names(k: usize) -> Vec<String> {
        (0..k).map(|i| format!("s{i}")).collect()
    }

    /// Strengths 1, 2, 4, 8 on the Elo scale: 0, 120.4, 240.8, 361.2.
    fn bt(a: usize, b: usize) -> f64 {
        let (ga, gb) = (2f64.powi(a as i32), 2f64.powi(b as i32));
        ga / (ga + gb)
    }

    #[test]
    fn ladder_pair_tables_drawn_from_a_bradley_terry_model_fit_it() {
        let pairs = synthetic(4, 2000, bt, 1);
        let (_, _, f) = rate(&names(4), 0, &pairs, 1, 200);
        assert_eq!(f.df, 6 - 3);
        assert!(f.fits() && f.p > 0.05, "{f:?}");
    }

    #[test]
    fn ladder_a_rock_paper_scissors_cycle_does_not_fit() {
        // 0 beats 1 beats 2 beats 0, 70% each time; 3 is even with all.
        let rps = |a: usize, b: usize| match (a, b) {
            (0, 1) | (1, 2) => 0.7,
            (0, 2) => 0.3,
            _ => 0.5,
        };
        let pairs = synthetic(4, 1000, rps, 2);
        let (_, _, f) = rate(&names(4), 0, &pairs, 2, 200);
        assert!(!f.fits() && f.p < 1e-6, "{f:?}");
    }

    /// Over 20 synthetic ladders, the 95% intervals of the 6 pairwise
    /// differences cover the true ones about 95% of the time (at least 108
    /// of 120; a binomial(120, 0.95) falls below that with probability
    /// about 0.03), and the Holm verdicts name only true differences.
    #[test]
    fn ladder_pairwise_difference_intervals_cover_the_known_differences() {
        let truth = |a: &str, b: &str| {
            let i = |s: &str| s[1..].parse::<i32>().unwrap() as f64;
            400.0 * 2f64.log10() * (i(a) - i(b))
        };
        let mut covered = 0;
        let mut total = 0;
        for rep in 0..20 {
            let pairs = synthetic(4, 600, bt, 100 + rep);
            let (ranked, diffs, _) = rate(&names(4), 0, &pairs, 100 + rep, 200);
            assert_eq!(ranked.len(), 4);
            assert_eq!(diffs.len(), 6);
            for d in &diffs {
                total += 1;
                let t = truth(&d.a, &d.b);
                covered += (d.low <= t && t <= d.high) as u32;
                if d.stronger() {
                    assert!(t > 0.0, "{d:?}");
                }
            }
        }
        assert!(covered >= 108, "{covered} of {total}");
    }

    #[test]
    fn odd_seat_counts_alternate_the_extra_seat() {
        assert_eq!(seatings(4, 10), vec![(vec![true, false, true, false], 10)]);
        assert_eq!(seatings(3, 11), vec![(vec![true, false, true], 6), (vec![false, true, false], 5)]);
    }
}
