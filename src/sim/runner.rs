//! The Monte Carlo runner: many campaigns in parallel, deterministically.
//!
//! Campaign `i` depends only on (scenario, master seed, `i`) (G-31): its
//! seeds come from `seed::campaign_seed`, never from a thread. Campaigns run
//! in chunks; within a chunk rayon plays them in parallel and `collect`
//! keeps index order, so the rows handed to the sink are the same for any
//! thread count and any shard split. Only one chunk is held at a time.

use super::record::{CombatRow, Coverage, PlayerRecord, SeasonRecord, records};
use super::{Detail, seed};
use crate::map::Map;
use crate::rules::setup::{SetupError, make_map, map_is_fixed};
use crate::scenario::Scenario;
use rayon::prelude::*;
use std::ops::Range;

/// Which campaigns to run and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    pub master: u64,
    /// Campaign indices, as a half-open range.
    pub range: Range<u64>,
    /// Seat `s` of campaign `i` plays the strategy of player `(s + i) mod n`,
    /// so every strategy plays every seat equally often.
    pub rotate_seats: bool,
    /// Campaigns per chunk.
    pub chunk: u64,
    /// Season and combat rows to keep.
    pub detail: Detail,
}

/// The rows of a chunk of campaigns, in campaign order.
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    pub players: Vec<PlayerRecord>,
    pub seasons: Vec<SeasonRecord>,
    pub combats: Vec<CombatRow>,
    pub coverage: Coverage,
    pub campaigns: u64,
    /// The first campaign of the chunk that broke an invariant
    /// (`Detail::check_invariants`).
    pub violation: Option<Violation>,
}

/// A broken engine invariant, with what it takes to replay the campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub campaign: u64,
    pub campaign_seed: u64,
    pub season: u32,
    pub message: String,
}

/// What the sink tells the runner after a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// Shard `i` of `k` of `0..n`: contiguous, and the shards tile the range.
pub fn shard_range(n: u64, i: u64, k: u64) -> Range<u64> {
    let start = n * i / k;
    let end = n * (i + 1) / k;
    start..end
}

/// The strategy names of each seat for campaign `i`.
pub fn seat_strategies(sc: &Scenario, i: u64, rotate: bool) -> Vec<&str> {
    let n = sc.players.len();
    (0..n)
        .map(|s| {
            let from = if rotate { (s + (i % n as u64) as usize) % n } else { s };
            sc.players[from].strategy.as_str()
        })
        .collect()
}

/// One campaign's share of a chunk.
struct Played {
    players: Vec<PlayerRecord>,
    seasons: Vec<SeasonRecord>,
    combats: Vec<CombatRow>,
    coverage: Coverage,
    violation: Option<Violation>,
}

/// Play campaign `i` and return its rows.
fn play_one(sc: &Scenario, fixed: Option<&Map>, cfg: &RunConfig, i: u64) -> Result<Played, SetupError> {
    let cs = seed::campaign_seed(cfg.master, i);
    let strategies = seat_strategies(sc, i, cfg.rotate_seats);
    let owned;
    let map = match fixed {
        Some(m) => m,
        None => {
            owned = make_map(sc, cs)?;
            &owned
        }
    };
    let o = super::play_observed(sc, map, i, cs, &strategies, cfg.detail);
    let violation =
        o.violation.clone().map(|(season, message)| Violation { campaign: i, campaign_seed: cs, season, message });
    let mut coverage = Coverage::default();
    coverage.add_campaign(&o.state, &strategies, &o.taken);
    let name = |p: u8| strategies.get(p as usize).map_or(String::new(), |s| s.to_string());
    let combats = o
        .combats
        .into_iter()
        .map(|(season, rec)| CombatRow {
            campaign: i,
            season,
            attacker_strategy: name(rec.attacker),
            defender_strategy: name(rec.defender),
            rec,
        })
        .collect();
    Ok(Played {
        players: records(sc, &o.state, &o.outcome, i, cs, &strategies),
        seasons: o.seasons,
        combats,
        coverage,
        violation,
    })
}

/// Run the campaigns of `cfg.range` chunk by chunk, handing each chunk, in
/// index order, to `sink`, until the range ends or the sink says stop.
/// `progress` is told how many campaigns are done. Returns that number.
pub fn run<E: From<SetupError>>(
    sc: &Scenario,
    cfg: &RunConfig,
    mut sink: impl FnMut(Chunk) -> Result<Flow, E>,
    mut progress: impl FnMut(u64),
) -> Result<u64, E> {
    let fixed = if map_is_fixed(sc) { Some(make_map(sc, 0)?) } else { None };
    let mut done = 0u64;
    let mut start = cfg.range.start;
    while start < cfg.range.end {
        let end = (start + cfg.chunk.max(1)).min(cfg.range.end);
        let played: Vec<Played> =
            (start..end).into_par_iter().map(|i| play_one(sc, fixed.as_ref(), cfg, i)).collect::<Result<_, _>>()?;
        let mut chunk = Chunk { campaigns: end - start, ..Chunk::default() };
        for p in played {
            chunk.players.extend(p.players);
            chunk.seasons.extend(p.seasons);
            chunk.combats.extend(p.combats);
            chunk.coverage.merge(&p.coverage);
            if chunk.violation.is_none() {
                chunk.violation = p.violation;
            }
        }
        let flow = sink(chunk)?;
        done += end - start;
        progress(done);
        start = end;
        if flow == Flow::Stop {
            break;
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_range() {
        for n in [0u64, 1, 7, 100, 101] {
            for k in 1..6 {
                let mut next = 0;
                for i in 0..k {
                    let r = shard_range(n, i, k);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, n);
            }
        }
    }
}
