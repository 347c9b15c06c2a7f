//! What the runner hands to the dataset writers, as plain data: one row per
//! campaign and player (`players.parquet`), per season (`seasons.parquet`)
//! and per combat (`combats.parquet`), and the mechanics coverage counts.

use crate::rules::season::Outcome;
use crate::rules::state::Tally;
use crate::rules::{CombatRecord, Event, Log, Rules, State};
use crate::scenario::{ACTION_KIND_COUNT, ActionKind};
use crate::scenario::{BattleResult, BuildingKind, Scenario};

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
        // One walk of the player's banner set (its hexes, kept by the
        // state) where each count used to scan the whole map.
        let (mut mines, mut ports, mut towers) = (0, 0, 0);
        for h in st.banners().hexes(p) {
            let hs = &st.hexes[h as usize];
            mines += u32::from(hs.main == Some(BuildingKind::Mine));
            ports += u32::from(hs.extra == Some(BuildingKind::Port));
            towers += u32::from(hs.extra == Some(BuildingKind::Tower));
        }
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
            mines,
            ports,
            towers,
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

/// A row of `seasons.parquet`: one player at the end of one season. Gold by
/// source and EP earned are totals since the campaign began.
#[derive(Clone, Debug, PartialEq)]
pub struct SeasonRecord {
    pub campaign: u64,
    pub season: u32,
    pub seat: u32,
    pub strategy: String,
    pub hexes: u32,
    pub empire_size: u32,
    pub gold: i64,
    pub gold_mines: i64,
    pub gold_pillage: i64,
    pub gold_loot: i64,
    pub ep_earned: i64,
    pub units: u32,
    pub mines: u32,
}

/// Every player's row at the end of a season.
pub fn season_records(r: Rules<'_>, st: &State, campaign: u64, season: u32, strategies: &[&str]) -> Vec<SeasonRecord> {
    let sizes = crate::rules::empire::sizes(r, st);
    (0..st.players.len())
        .map(|seat| {
            let p = seat as u8;
            let pl = &st.players[seat];
            SeasonRecord {
                campaign,
                season,
                seat: seat as u32,
                strategy: strategies[seat].to_string(),
                hexes: sizes[seat].hexes,
                empire_size: sizes[seat].size,
                gold: pl.gold,
                gold_mines: pl.tally.gold_mines,
                gold_pillage: pl.tally.gold_pillage,
                gold_loot: pl.tally.gold_loot,
                ep_earned: pl.tally.ep_earned,
                units: st.armies.iter().filter(|a| a.alive && a.owner == p).map(|a| a.units.max(0) as u32).sum(),
                mines: st.hexes.iter().filter(|h| h.owner().is(p) && h.main == Some(BuildingKind::Mine)).count() as u32,
            }
        })
        .collect()
}

/// A row of `combats.parquet`: one combat resolution and where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatRow {
    pub campaign: u64,
    pub season: u32,
    pub attacker_strategy: String,
    /// Empty for a neutral city.
    pub defender_strategy: String,
    pub rec: CombatRecord,
}

/// A `Log` that keeps only the combats, each with its season: what
/// `--detail combats` needs, without the rest of the event log.
#[derive(Clone, Debug, Default)]
pub struct CombatLog {
    pub season: u32,
    pub combats: Vec<(u32, CombatRecord)>,
}

impl Log for CombatLog {
    const ENABLED: bool = true;
    #[inline]
    fn push(&mut self, e: Event) {
        match e {
            Event::SeasonStart { season } => self.season = season,
            Event::Combat(c) => self.combats.push((self.season, c)),
            _ => {}
        }
    }
}

/// How often each mechanic came up, per strategy: the action kinds taken
/// (`ActionKind`) and the army battles by result. Counts
/// add up across chunks, shards and merged runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Coverage {
    pub by_strategy: std::collections::BTreeMap<String, Mechanics>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "MechanicsByName", try_from = "MechanicsByName")]
pub struct Mechanics {
    /// Player-campaigns played with this strategy.
    pub players: u64,
    /// Times each action kind was taken, indexed by `ActionKind::index`.
    pub actions: [u64; ACTION_KIND_COUNT],
    /// Army battles started, by the better side's result (`BattleResult as usize`).
    pub army_results: [u64; 5],
}

impl Default for Mechanics {
    fn default() -> Self {
        Mechanics { players: 0, actions: [0; ACTION_KIND_COUNT], army_results: [0; 5] }
    }
}

/// `Mechanics` as it appears in `manifest.json`: counts by name.
#[derive(serde::Serialize, serde::Deserialize)]
struct MechanicsByName {
    players: u64,
    actions: std::collections::BTreeMap<String, u64>,
    army_results: std::collections::BTreeMap<String, u64>,
}

impl From<Mechanics> for MechanicsByName {
    fn from(m: Mechanics) -> Self {
        MechanicsByName {
            players: m.players,
            actions: ActionKind::ALL.iter().zip(m.actions).map(|(k, n)| (k.name().to_string(), n)).collect(),
            army_results: BattleResult::ALL
                .iter()
                .map(|r| (r.key().to_string(), m.army_results[*r as usize]))
                .collect(),
        }
    }
}

impl TryFrom<MechanicsByName> for Mechanics {
    type Error = String;
    fn try_from(m: MechanicsByName) -> Result<Self, String> {
        let mut out = Mechanics { players: m.players, ..Mechanics::default() };
        for (k, n) in m.actions {
            out.actions[k.parse::<ActionKind>()?.index()] = n;
        }
        for (k, n) in m.army_results {
            let r = BattleResult::ALL.iter().find(|r| r.key() == k).ok_or_else(|| format!("unknown result {k:?}"))?;
            out.army_results[*r as usize] = n;
        }
        Ok(out)
    }
}

impl Mechanics {
    fn add(&mut self, o: &Mechanics) {
        self.players += o.players;
        for (a, b) in self.actions.iter_mut().zip(o.actions) {
            *a += b;
        }
        for (a, b) in self.army_results.iter_mut().zip(o.army_results) {
            *a += b;
        }
    }

    /// Times an action of `kind` was taken.
    pub fn action(&self, kind: ActionKind) -> u64 {
        self.actions[kind.index()]
    }

    /// Army battles with the result keyed `key` (`draw`, `minor`, ...).
    pub fn result(&self, key: &str) -> u64 {
        BattleResult::ALL.iter().find(|r| r.key() == key).map_or(0, |r| self.army_results[*r as usize])
    }
}

impl Coverage {
    /// Add one campaign: `taken[seat]` from the seats, results from the state.
    pub fn add_campaign(&mut self, st: &State, strategies: &[&str], taken: &[[u32; ACTION_KIND_COUNT]]) {
        for (seat, name) in strategies.iter().enumerate() {
            if !self.by_strategy.contains_key(*name) {
                self.by_strategy.insert(name.to_string(), Mechanics::default());
            }
            let Some(m) = self.by_strategy.get_mut(*name) else { continue };
            m.players += 1;
            for (a, &n) in m.actions.iter_mut().zip(&taken[seat]) {
                *a += n as u64;
            }
            for (a, &n) in m.army_results.iter_mut().zip(&st.players[seat].tally.army_results) {
                *a += n as u64;
            }
        }
    }

    pub fn merge(&mut self, other: &Coverage) {
        for (name, m) in &other.by_strategy {
            self.by_strategy.entry(name.clone()).or_default().add(m);
        }
    }

    /// Times `kind` was taken over every strategy.
    pub fn total(&self, kind: ActionKind) -> u64 {
        self.by_strategy.values().map(|m| m.action(kind)).sum()
    }

    /// Army battles with `result` over every strategy.
    pub fn total_result(&self, result: &str) -> u64 {
        self.by_strategy.values().map(|m| m.result(result)).sum()
    }
}
