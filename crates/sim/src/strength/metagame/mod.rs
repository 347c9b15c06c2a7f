//! `empires metagame`: the game between strategies. Is there a dominant way
//! to play, or does every style have an answer?
//!
//! One concern a file, in the order a meta-game runs:
//!
//! - `play`: the empirical game's data. Every composition of the listed
//!   strategies over the scenario's seats plays `campaigns` campaigns,
//!   seats rotated, on common seeds; a shard plays a range of them.
//! - `game`: the payoff table those campaigns make. The game is symmetric:
//!   a player's payoff depends only on its own strategy and the multiset
//!   of the others'; the payoff of a strategy in a composition is the win
//!   rate of one of its players there.
//! - `equilibria`: symmetric Nash equilibria, the one reported (replicator
//!   dynamics) and every one a search of every support finds.
//! - `alpha_rank`: α-rank's stationary distribution over monomorphic
//!   populations.
//! - `dominance`: the strategies never a best response (a test at a
//!   family-wise error of 5%) and the head-to-head shares.
//! - `bootstrap`: how much those answers move when the campaigns are drawn
//!   again.
//! - `findings`: the answers in words.
//!
//! This file puts them together (`analyse`, `metagame`).

mod alpha_rank;
mod bootstrap;
mod dominance;
mod equilibria;
mod findings;
mod game;
mod play;

pub use bootstrap::Resampled;
pub use game::EmpiricalGame;
pub use play::{Composition, compositions_of, multisets, planned, play};

use crate::error::Error;
use crate::scenario::Scenario;

/// A finished meta-game.
#[derive(Clone, Debug)]
pub struct Metagame {
    pub names: Vec<String>,
    pub seats: u32,
    pub seed: u64,
    pub campaigns: u64,
    pub game: EmpiricalGame,
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
    let game = EmpiricalGame::new(k, seats, comps);
    let (equilibrium, regret) = game.equilibrium();
    let alpha_rank = game.alpha_rank(alpha, population);
    let never_best = game.never_best_response(0.05);
    let (equilibria, starts) = game.equilibria(master);
    let boot = bootstrap::bootstrap(&game, master, bootstrap, (alpha, population), &equilibrium, &alpha_rank);
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
        equilibrium_ci: boot.equilibrium_ci,
        alpha_rank_ci: boot.alpha_rank_ci,
        equilibrium_boot: boot.equilibrium_boot,
        alpha_rank_boot: boot.alpha_rank_boot,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comp(counts: Vec<u32>, wins: Vec<u64>) -> Composition {
        Composition { campaigns: wins.iter().sum(), counts, wins }
    }

    /// Rock, paper, scissors as a duel: the equilibrium is a third each,
    /// α-rank is uniform, nothing is dominated.
    #[test]
    fn rock_paper_scissors_mixes_evenly() {
        let g = EmpiricalGame::new(
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

    /// A strictly dominant strategy takes all the mass.
    #[test]
    fn a_dominant_strategy_takes_everything() {
        let g = EmpiricalGame::new(
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
}
