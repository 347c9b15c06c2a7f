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
//! - **Intervals.** A bootstrap over campaigns: each pair's campaigns are
//!   drawn again with replacement (`bootstrap` times, from a stream of the
//!   master seed), the model is fitted again, and the 2.5% and 97.5%
//!   quantiles of each rating are its 95% interval.

use crate::scenario::{Scenario, StrategySpec};
use crate::seed::{self, mix2};
use crate::sim::lineup::Lineup;
use crate::stats::wilson;
use rand::RngExt;

/// One pair's games.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    /// Groups of campaigns that seat the pair the same way: (seats of a,
    /// seats of b, campaigns, wins of a).
    pub groups: Vec<Group>,
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

/// Play the round robin and rate it.
pub fn ladder(
    sc: &Scenario,
    names: &[String],
    anchor: &str,
    master: u64,
    campaigns: u64,
    bootstrap: u32,
) -> Result<Ladder, String> {
    let specs: Vec<StrategySpec> = super::specs_of(sc, names, "a ladder")?;
    let anchor_i =
        names.iter().position(|n| n == anchor).ok_or_else(|| format!("the anchor {anchor:?} is not on the ladder"))?;
    let n = sc.players.len();
    if n < 2 {
        return Err("the scenario needs at least 2 seats".into());
    }
    if campaigns < 2 {
        return Err("at least 2 campaigns per pair".into());
    }
    let mut pairs = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            let mut groups = Vec::new();
            let mut start = 0;
            for (is_a, count) in seatings(n, campaigns) {
                let lineup: Vec<StrategySpec> =
                    is_a.iter().map(|&x| if x { specs[a].clone() } else { specs[b].clone() }).collect();
                let l = Lineup::new(sc, &lineup).map_err(|e| e.to_string())?;
                let w = l.wins(master, start..start + count).map_err(|e| e.to_string())?;
                start += count;
                let wins_a = is_a.iter().zip(&w.by_slot).filter(|(x, _)| **x).map(|(_, w)| w).sum();
                let seats_a = is_a.iter().filter(|x| **x).count() as u32;
                groups.push(Group { seats_a, seats_b: n as u32 - seats_a, campaigns: count, wins_a });
            }
            pairs.push(Pair { a, b, groups });
        }
    }
    let k = names.len();
    let games = flat(&pairs);
    let point = elo(&fit(k, &games), anchor_i);
    // The bootstrap: each group's campaigns drawn again with replacement (a
    // campaign is a win for A or for B, so the draw is Binomial(n, p̂)).
    let mut rng = seed::rng(mix2(master, 0x6c61_6464_6572), seed::Stream::Map);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(bootstrap as usize); k];
    for _ in 0..bootstrap {
        let again: Vec<(usize, usize, Group)> = games
            .iter()
            .map(|(a, b, g)| {
                let p = g.wins_a as f64 / g.campaigns as f64;
                let wins_a = (0..g.campaigns).filter(|_| rng.random::<f64>() < p).count() as u64;
                (*a, *b, Group { wins_a, ..*g })
            })
            .collect();
        for (i, r) in elo(&fit(k, &again), anchor_i).into_iter().enumerate() {
            samples[i].push(r);
        }
    }
    let mut ranked: Vec<Rated> = (0..k)
        .map(|i| {
            let (low, high) = super::percentile_95(&mut samples[i]);
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
    Ok(Ladder {
        names: names.to_vec(),
        anchor: anchor.to_string(),
        seats: n,
        seed: master,
        campaigns,
        bootstrap,
        pairs,
        ranked,
    })
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

    #[test]
    fn odd_seat_counts_alternate_the_extra_seat() {
        assert_eq!(seatings(4, 10), vec![(vec![true, false, true, false], 10)]);
        assert_eq!(seatings(3, 11), vec![(vec![true, false, true], 6), (vec![false, true, false], 5)]);
    }
}
