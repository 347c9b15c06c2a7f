//! One row per campaign and player: what the runner hands to the dataset
//! writer. Plain data; column names match `players.parquet`.

use crate::rules::State;
use crate::rules::season::Outcome;
use crate::rules::state::Tally;
use crate::scenario::{BuildingKind, Scenario};

/// A row of `players.parquet`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRecord {
    pub campaign: u64,
    pub seed: u64,
    pub seat: u32,
    pub player: String,
    pub strategy: String,
    pub team: Option<u32>,
    pub winner: bool,
    pub tie: bool,
    pub rank: u32,
    pub empire_size: u32,
    pub hexes: u32,
    pub castles: u32,
    pub cities: u32,
    pub mines: u32,
    pub ports: u32,
    pub towers: u32,
    pub units: u32,
    pub ships: u32,
    pub spies: u32,
    pub siege_engines: u32,
    pub gold: i64,
    /// Gold by source, EP by use, battles, sieges, naval and spy counts.
    pub tally: Tally,
    pub seasons: u32,
    pub end_reason: &'static str,
}

/// The rows of one finished campaign, in seat order. `strategies[seat]` is
/// the strategy that played the seat (seats may be rotated).
pub fn records(
    sc: &Scenario,
    st: &State,
    outcome: &Outcome,
    campaign: u64,
    seed: u64,
    strategies: &[&str],
) -> Vec<PlayerRecord> {
    let n = sc.players.len();
    let mut out = Vec::with_capacity(n);
    for seat in 0..n {
        let p = seat as u8;
        let standing = outcome.standings.iter().find(|s| s.player == p).copied();
        let Some(standing) = standing else { continue };
        let count = |pred: &dyn Fn(&crate::rules::state::HexState) -> bool| {
            st.hexes.iter().filter(|h| h.owner == p && pred(h)).count() as u32
        };
        let armies = st.armies.iter().filter(|a| a.alive && a.owner == p);
        let t = &st.players[seat].tally;
        out.push(PlayerRecord {
            campaign,
            seed,
            seat: seat as u32,
            player: sc.players[seat].name.clone(),
            strategy: strategies[seat].to_string(),
            team: sc.players[seat].team.map(u32::from),
            winner: standing.rank == 1,
            tie: standing.tie,
            rank: standing.rank as u32,
            empire_size: standing.size.size,
            hexes: standing.size.hexes,
            castles: standing.size.castles,
            cities: standing.size.cities,
            mines: count(&|h| h.main == Some(BuildingKind::Mine)),
            ports: count(&|h| h.extra == Some(BuildingKind::Port)),
            towers: count(&|h| h.extra == Some(BuildingKind::Tower)),
            units: armies.clone().map(|a| a.units.max(0) as u32).sum(),
            ships: st.ships.iter().filter(|s| s.alive && s.owner == p).count() as u32,
            spies: st.spies.iter().filter(|s| s.alive && s.owner == p).count() as u32,
            siege_engines: armies.map(|a| a.engines.max(0) as u32).sum(),
            gold: st.players[seat].gold,
            tally: *t,
            seasons: outcome.seasons,
            end_reason: outcome.reason.name(),
        });
    }
    out
}
