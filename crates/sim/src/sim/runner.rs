//! The Monte Carlo runner: many campaigns in parallel, deterministically.
//!
//! Campaign `i` depends only on (scenario, master seed, `i`) (G-31): its
//! seeds come from `seed::campaign_seed`, never from a thread. Campaigns run
//! in chunks; within a chunk rayon plays them in parallel and `collect`
//! keeps index order, so the rows handed to the sink are the same for any
//! thread count and any shard split. Only one chunk is held at a time.

use super::Detail;
use super::record::{CombatRow, Coverage, PlayerRecord, SeasonRecord, records};
use crate::map::Map;
use crate::rules::setup::{SetupError, make_map, map_is_fixed};
use crate::scenario::Scenario;
use crate::seed;
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

/// What the user asked for the seats: nothing (the default), `--rotate-seats`
/// (`rotate_seats = true` in a balance file) or `--fixed-seats`
/// (`rotate_seats = false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SeatFlag {
    #[default]
    Default,
    Rotate,
    Fixed,
}

impl SeatFlag {
    /// From the two command-line flags (clap makes them exclusive).
    pub fn from_flags(rotate: bool, fixed: bool) -> SeatFlag {
        match (rotate, fixed) {
            (true, _) => SeatFlag::Rotate,
            (_, true) => SeatFlag::Fixed,
            _ => SeatFlag::Default,
        }
    }

    /// From a balance file's optional `rotate_seats` key.
    pub fn from_key(rotate_seats: Option<bool>) -> SeatFlag {
        match rotate_seats {
            Some(true) => SeatFlag::Rotate,
            Some(false) => SeatFlag::Fixed,
            None => SeatFlag::Default,
        }
    }
}

/// Whether a run rotates the strategies through the seats, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatRotation {
    /// The default when the seats' strategies differ.
    RotatedStrategiesDiffer,
    /// `--rotate-seats` (or `rotate_seats = true`) asked for it.
    RotatedByFlag,
    /// `--fixed-seats` (or `rotate_seats = false`) asked for it.
    FixedByFlag,
    /// The default when every seat plays the same strategy (rotating would
    /// change nothing).
    FixedSameStrategy,
}

impl SeatRotation {
    pub fn rotate(self) -> bool {
        matches!(self, SeatRotation::RotatedStrategiesDiffer | SeatRotation::RotatedByFlag)
    }

    /// How a run that did (or did not) rotate was seated, from the scenario:
    /// the same answer `seating` gave (merged shards and reports only keep
    /// the `rotate_seats` flag). Rotated seats with the same strategy
    /// everywhere can only come from the flag, and fixed seats with
    /// different strategies only from `--fixed-seats`.
    pub fn of_run(sc: &Scenario, rotate: bool) -> SeatRotation {
        match (rotate, strategies_differ(sc)) {
            (true, true) => SeatRotation::RotatedStrategiesDiffer,
            (true, false) => SeatRotation::RotatedByFlag,
            (false, true) => SeatRotation::FixedByFlag,
            (false, false) => SeatRotation::FixedSameStrategy,
        }
    }
}

/// Whether the seats of `sc` play different strategies.
pub fn strategies_differ(sc: &Scenario) -> bool {
    sc.players.windows(2).any(|w| w[0].strategy != w[1].strategy)
}

/// The one place that decides seat rotation, for every command (`run`,
/// `compare`, `sweep`, `experiment`, the gate's metrics): rotate by default
/// when the strategies of the seats differ in any of `scenarios` (the
/// variants of one study are seated alike, so they stay paired); a flag
/// overrides the default either way.
pub fn seating(scenarios: &[&Scenario], flag: SeatFlag) -> SeatRotation {
    match flag {
        SeatFlag::Rotate => SeatRotation::RotatedByFlag,
        SeatFlag::Fixed => SeatRotation::FixedByFlag,
        SeatFlag::Default if scenarios.iter().any(|sc| strategies_differ(sc)) => SeatRotation::RotatedStrategiesDiffer,
        SeatFlag::Default => SeatRotation::FixedSameStrategy,
    }
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
/// `progress` is told how many campaigns the sink has taken; the thread's
/// `watch` is told of each campaign as it is played, and a stop it asks
/// for ends the run with `SetupError::Interrupted`. Returns the campaigns
/// taken.
///
/// The next chunk plays while the sink takes the one before (`rayon::join`),
/// so writing the datasets does not leave the workers idle. The sink still
/// sees every chunk in order, and a chunk played past a `Flow::Stop` is
/// dropped unseen, so what the sink gets is the same as without the overlap.
pub fn run<E: From<SetupError> + Send>(
    sc: &Scenario,
    cfg: &RunConfig,
    mut sink: impl FnMut(Chunk) -> Result<Flow, E> + Send,
    mut progress: impl FnMut(u64) + Send,
) -> Result<u64, E> {
    let fixed = if map_is_fixed(sc) { Some(make_map(sc, 0)?) } else { None };
    let play = |range: Range<u64>| -> Result<Chunk, E> {
        let played: Vec<Played> = range
            .clone()
            .into_par_iter()
            .map(|i| {
                let p = play_one(sc, fixed.as_ref(), cfg, i);
                super::watch::played(1);
                p
            })
            .collect::<Result<_, _>>()?;
        let mut chunk = Chunk { campaigns: range.end - range.start, ..Chunk::default() };
        for p in played {
            chunk.players.extend(p.players);
            chunk.seasons.extend(p.seasons);
            chunk.combats.extend(p.combats);
            chunk.coverage.merge(&p.coverage);
            if chunk.violation.is_none() {
                chunk.violation = p.violation;
            }
        }
        Ok(chunk)
    };
    let next_range = |start: u64| start..(start + cfg.chunk.max(1)).min(cfg.range.end);
    let mut done = 0u64;
    let mut start = cfg.range.start;
    let mut ready: Option<Chunk> = None;
    loop {
        let ahead = next_range(start);
        let more = ahead.start < ahead.end;
        if ready.is_none() && !more {
            break;
        }
        let (taken, played) = rayon::join(
            || -> Result<Option<Flow>, E> {
                let Some(chunk) = ready.take() else { return Ok(None) };
                let n = chunk.campaigns;
                let flow = sink(chunk)?;
                done += n;
                progress(done);
                Ok(Some(flow))
            },
            || if more { play(ahead.clone()).map(Some) } else { Ok(None) },
        );
        if taken? == Some(Flow::Stop) {
            break;
        }
        // Ctrl-C (the thread's watch): a sink that keeps partial results
        // (`empires run`) has said Stop above; for every other caller a
        // partial answer is no answer.
        super::watch::check()?;
        ready = played?;
        start = ahead.end;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seating_rotates_by_default_only_when_strategies_differ() {
        let mixed = Scenario::embedded_default();
        let mut same = mixed.clone();
        for p in same.players.iter_mut() {
            p.strategy = "balanced".into();
        }
        assert_eq!(seating(&[&mixed], SeatFlag::Default), SeatRotation::RotatedStrategiesDiffer);
        assert_eq!(seating(&[&same], SeatFlag::Default), SeatRotation::FixedSameStrategy);
        assert_eq!(seating(&[&same, &mixed], SeatFlag::Default), SeatRotation::RotatedStrategiesDiffer);
        assert_eq!(seating(&[&mixed], SeatFlag::Fixed), SeatRotation::FixedByFlag);
        assert_eq!(seating(&[&same], SeatFlag::Rotate), SeatRotation::RotatedByFlag);
        for s in [
            SeatRotation::RotatedStrategiesDiffer,
            SeatRotation::RotatedByFlag,
            SeatRotation::FixedByFlag,
            SeatRotation::FixedSameStrategy,
        ] {
            let sc = if matches!(s, SeatRotation::RotatedStrategiesDiffer | SeatRotation::FixedByFlag) {
                &mixed
            } else {
                &same
            };
            assert_eq!(SeatRotation::of_run(sc, s.rotate()), s);
        }
    }

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
