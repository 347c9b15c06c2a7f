//! The empirical game's data: every composition of the listed strategies
//! over the scenario's seats (every multiset: with 4 seats and 5
//! strategies, 70 of them) plays `campaigns` campaigns, seats rotated, all
//! on the same campaigns (common seeds). Kept apart from the solving
//! (`analyse`) because a shard plays a range of compositions on one
//! machine and the merged results are solved on another.

use crate::error::Error;
use crate::scenario::{Scenario, StrategySpec};
use crate::sim::lineup::Lineup;

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

/// The number of compositions of `names` over the scenario's seats (and a
/// check of the list).
pub fn compositions_of(sc: &Scenario, names: &[String]) -> Result<usize, Error> {
    crate::strength::specs_of(sc, names, "a meta-game")?;
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
    let specs: Vec<StrategySpec> = crate::strength::specs_of(sc, names, "a meta-game")?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multisets_are_every_composition_once() {
        let m = multisets(3, 2);
        assert_eq!(m, vec![vec![2, 0, 0], vec![1, 1, 0], vec![1, 0, 1], vec![0, 2, 0], vec![0, 1, 1], vec![0, 0, 2]]);
        assert_eq!(multisets(5, 4).len(), 70);
    }
}
