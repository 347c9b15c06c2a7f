//! The campaign log as JSON lines (`empires play --json`): a `header` record
//! with the whole starting position, then one record per engine event. Every
//! piece is named by its id (its index in the header's lists, or the id a
//! `recruit` or `transport` record gives a new one), every hex by its id in
//! the header's `hexes`, every player by its seat. A reader can rebuild the
//! state after every record from the log alone (`report::log_replay` does,
//! and a test checks it against the engine). `docs/log.md` documents the
//! format; `docs/log.schema.json` is generated from these types
//! (`empires play --log-schema`), and a test fails when they drift.
//!
//! This is the edge where engine events become text: the rules core knows
//! nothing of JSON.

use crate::map::{HexId, Map, NO_HEX};
use crate::rules::event::{CombatRecord, Event, ScoreParts, SpendKind};
use crate::rules::state::{NONE, Piece, State};
use crate::rules::{NOBODY, PlayerId};
use crate::scenario::Scenario;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Record {
    /// The first line: what was played, and the position before season 1.
    Header(Box<Header>),
    /// A season begins (G-01).
    Season { season: u32 },
    /// G-02 / G-03: a tie-break die of a player tied on everything else,
    /// before the `order` or `standing` lines it decides; players whose
    /// dice are equal roll again.
    TieBreak { player: u8, die: i32 },
    /// Position in this season's order, smallest empire first (E-04).
    Order { position: u8, player: u8, size: u32 },
    /// E-15: a mine pays (or, sabotaged, pays nothing and is repaired).
    Payday { player: u8, hex: u16, faces: u32, gold: i64, sabotaged: bool },
    /// G-13: `piece` is the army that got the unit or engine (new when its
    /// id is one past the last army), or the new ship or spy, standing on `at`.
    Recruit { player: u8, hex: u16, item: String, cost: i64, piece: u16, at: u16 },
    /// A piece moves one step; `piece` is "army", "ship" or "spy".
    Move { player: u8, piece: String, id: u16, from: u16, to: u16 },
    /// W-17: `units` of `army` sail on `ship` (which ends on `sea`) and land
    /// on `to` as army `landed` (the same army if all of it sailed).
    Transport {
        player: u8,
        ship: u16,
        army: u16,
        landed: u16,
        units: i32,
        sea: u16,
        from: u16,
        to: u16,
        /// The detachment lands without experience or formation
        /// (`naval.detachment_keeps_xp = false`); absent when false.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        fresh: bool,
    },
    /// One combat resolved (W-01..W-25).
    Combat(Box<Combat>),
    /// W-01 / G-14: gold for a victory.
    Loot { player: u8, gold: i64 },
    /// W-06: an army's experience after a victory.
    Experience { army: u16, xp: i32 },
    /// W-07: an army's permanent formation.
    Formation { army: u16, formation: String },
    /// G-26: a point of damage on a ship, which has `pv` left (sunk at 0).
    ShipHit { player: u8, ship: u16, pv: i32 },
    /// G-26: a ship regains PV next to its own port at the season's end.
    ShipRepaired { ship: u16, pv: i32 },
    /// A city after any change (a new city has the next id).
    City(CityRecord),
    /// A castle, mine, port, tower or bridge after a PV change.
    BuildingPv { hex: u16, building: String, pv: i32 },
    /// W-11: the attacker took the city.
    CityTaken { player: u8, city: u16, hex: u16, outcome: String, gold: i64 },
    /// A building falls; its slot is empty.
    BuildingDestroyed { hex: u16, building: String },
    /// E-01..E-03, G-11: EP earned this season.
    Ep { player: u8, battles: i32, sum: i32, earned: i32 },
    /// E-04..E-14: one purchase; `what` is capture, conquer, build_<kind> or
    /// pillage (which has no hex).
    Spend { player: u8, what: String, hex: Option<u16>, cost: i32, ep_left: i32, gold: i64 },
    /// E-05: EP left unspent.
    EpLost { player: u8, ep: i32 },
    /// The player lost its last hex: all its armies, ships and spies are gone.
    Eliminated { player: u8 },
    /// G-02: the campaign ends.
    End { season: u32, reason: String },
    /// G-02: final standings, largest empire first.
    Standing { rank: u8, player: u8, size: u32, hexes: u32, cities: u32, castles: u32, tie: bool },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// "empires" and its version.
    pub tool: String,
    pub version: String,
    pub scenario: String,
    /// SHA-256 of the fully resolved scenario (the run manifest's hash).
    pub scenario_sha256: String,
    pub master_seed: u64,
    pub campaign: u64,
    pub campaign_seed: u64,
    /// PV of a newly recruited ship (G-26), which `recruit` records imply.
    pub new_ship_pv: i32,
    pub players: Vec<PlayerRecord>,
    /// Every hex; a hex's id is its index here.
    pub hexes: Vec<HexRecord>,
    /// Capitals by seat (G-24) and neutral cities (G-16).
    pub capitals: Vec<u16>,
    pub neutral_cities: Vec<u16>,
    /// Buildings other than cities standing at the start.
    pub buildings: Vec<BuildingRecord>,
    /// Cities at the start; a city's id is its index here.
    pub cities: Vec<CityRecord>,
    pub armies: Vec<ArmyRecord>,
    pub ships: Vec<ShipRecord>,
    pub spies: Vec<SpyRecord>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerRecord {
    pub seat: u8,
    pub name: String,
    pub strategy: String,
    pub team: Option<u8>,
    pub gold: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexRecord {
    pub id: u16,
    /// Axial coordinates.
    pub q: i32,
    pub r: i32,
    /// `(col,row)` as the text log and drawn maps show it.
    pub col: i32,
    pub row: i32,
    pub terrain: String,
    pub coastal: bool,
    /// The banner on the hex at the start.
    pub owner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildingRecord {
    pub hex: u16,
    pub building: String,
    pub pv: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CityRecord {
    pub city: u16,
    pub hex: u16,
    /// The city's holder (owned or federated, G-19); none when neutral.
    pub controller: Option<u8>,
    pub influence: i32,
    pub defence: i32,
    pub level: i32,
    pub stability: i32,
    pub pv: i32,
    /// The banner on the city's hex (none for a federated or neutral city).
    pub banner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmyRecord {
    pub id: u16,
    pub owner: u8,
    pub hex: u16,
    pub units: i32,
    pub xp: i32,
    pub engines: i32,
    pub formation: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShipRecord {
    pub id: u16,
    pub owner: u8,
    pub hex: u16,
    pub pv: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpyRecord {
    pub id: u16,
    pub owner: u8,
    pub hex: u16,
}

/// One side's score, by part (W-02, W-09, W-12, W-20, W-25).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Score {
    pub units: i32,
    pub xp: i32,
    pub bid: i32,
    pub order: i32,
    pub defence: i32,
    pub engines: i32,
    pub level: i32,
    pub stability: i32,
    pub strength: i32,
    pub port: i32,
    pub die: i32,
    pub total: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Combat {
    /// army, siege, naval, coastal, spy or spy_vs_spy.
    pub kind: String,
    pub attacker: u8,
    /// None for a neutral city or an unowned target.
    pub defender: Option<u8>,
    pub from: u16,
    pub target: u16,
    /// The attacking army (army, siege) or spy (spy, spy_vs_spy).
    pub attacker_piece: Option<u16>,
    /// The defending army (army), city (siege) or spy (spy_vs_spy).
    pub defender_piece: Option<u16>,
    pub attacker_score: Score,
    pub defender_score: Score,
    pub gap: i32,
    /// 1-based row of the table hit.
    pub row: u8,
    /// Units (army, siege), PV (naval, coastal, city), gold (a theft) or a
    /// spy (1) lost by each side.
    pub attacker_loss: i32,
    pub defender_loss: i32,
    pub attacker_destroyed: bool,
    pub defender_destroyed: bool,
    pub attacker_result: Option<String>,
    pub defender_result: Option<String>,
    /// sabotage, destabilize, damage_main, damage_extra or steal.
    pub spy_action: Option<String>,
    pub success: bool,
}

fn player(p: PlayerId) -> Option<u8> {
    (p != NOBODY).then_some(p)
}

fn hex(h: HexId) -> Option<u16> {
    (h != NO_HEX).then_some(h)
}

fn id(i: u16) -> Option<u16> {
    (i != NONE).then_some(i)
}

/// A Rust enum variant's name in snake case (the log's vocabulary for
/// formations, outcomes, results and spy actions).
fn snake(v: impl std::fmt::Debug) -> String {
    let mut out = String::new();
    for (i, c) in format!("{v:?}").chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn score(p: &ScoreParts) -> Score {
    Score {
        units: p.units,
        xp: p.xp,
        bid: p.bid,
        order: p.order,
        defence: p.defence,
        engines: p.engines,
        level: p.level,
        stability: p.stability,
        strength: p.strength,
        port: p.port,
        die: p.die,
        total: p.total(),
    }
}

fn combat(c: &CombatRecord) -> Combat {
    Combat {
        kind: c.kind.name().to_string(),
        attacker: c.attacker,
        defender: player(c.defender),
        from: c.from,
        target: c.target,
        attacker_piece: id(c.a_piece),
        defender_piece: id(c.d_piece),
        attacker_score: score(&c.a),
        defender_score: score(&c.d),
        gap: c.gap,
        row: c.row + 1,
        attacker_loss: c.a_loss,
        defender_loss: c.d_loss,
        attacker_destroyed: c.a_destroyed,
        defender_destroyed: c.d_destroyed,
        attacker_result: c.a_result.map(snake),
        defender_result: c.d_result.map(snake),
        spy_action: c.spy_kind.map(snake),
        success: c.success,
    }
}

fn city_record(st: &State, i: usize) -> CityRecord {
    let c = &st.cities[i];
    CityRecord {
        city: i as u16,
        hex: c.hex,
        controller: c.controller.get(),
        influence: c.influence,
        defence: c.defence,
        level: c.level,
        stability: c.stability,
        pv: c.pv,
        banner: st.hexes[c.hex as usize].owner().get(),
    }
}

/// What a campaign was played with, for the header.
pub struct Played<'a> {
    pub sc: &'a Scenario,
    pub map: &'a Map,
    /// The state before season 1.
    pub start: &'a State,
    pub master_seed: u64,
    pub campaign: u64,
    pub campaign_seed: u64,
    /// The strategy of each seat (seats may be rotated).
    pub strategies: &'a [String],
}

/// The header record: the map and every starting piece.
pub fn header(p: &Played<'_>) -> Header {
    let (sc, map, st) = (p.sc, p.map, p.start);
    let origin = crate::map::drawn::origin(map);
    let hexes = (0..map.len())
        .map(|h| {
            let (q, r) = map.coords[h];
            let (c, row) = map.offset_of(h as HexId);
            HexRecord {
                id: h as u16,
                q,
                r,
                col: c - origin.0,
                row: row - origin.1,
                terrain: map.terrain[h].name().to_string(),
                coastal: map.coastal[h],
                owner: st.hexes[h].owner().get(),
            }
        })
        .collect();
    let mut buildings = Vec::new();
    for (h, hs) in st.hexes.iter().enumerate() {
        for (b, pv) in [(hs.main, hs.main_pv), (hs.extra, hs.extra_pv)] {
            if let Some(b) = b.filter(|b| *b != crate::scenario::BuildingKind::City) {
                buildings.push(BuildingRecord { hex: h as u16, building: b.name().to_string(), pv });
            }
        }
    }
    Header {
        tool: "empires".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        scenario: sc.name.clone(),
        scenario_sha256: super::manifest::scenario_hash(sc),
        master_seed: p.master_seed,
        campaign: p.campaign,
        campaign_seed: p.campaign_seed,
        new_ship_pv: sc.naval.ship_pv,
        players: sc
            .players
            .iter()
            .enumerate()
            .map(|(i, pl)| PlayerRecord {
                seat: i as u8,
                name: pl.name.clone(),
                strategy: p.strategies.get(i).cloned().unwrap_or_else(|| pl.strategy.clone()),
                team: pl.team,
                gold: st.players[i].gold,
            })
            .collect(),
        hexes,
        capitals: map.placements.capitals.clone(),
        neutral_cities: map.placements.neutral_cities.clone(),
        buildings,
        cities: (0..st.cities.len()).map(|i| city_record(st, i)).collect(),
        armies: st
            .armies
            .iter()
            .enumerate()
            .map(|(i, a)| ArmyRecord {
                id: i as u16,
                owner: a.owner,
                hex: a.hex,
                units: a.units,
                xp: a.xp,
                engines: a.engines,
                formation: a.formation.map(snake),
            })
            .collect(),
        ships: st
            .ships
            .iter()
            .enumerate()
            .map(|(i, s)| ShipRecord { id: i as u16, owner: s.owner, hex: s.hex, pv: s.pv })
            .collect(),
        spies: st
            .spies
            .iter()
            .enumerate()
            .map(|(i, s)| SpyRecord { id: i as u16, owner: s.owner, hex: s.hex })
            .collect(),
    }
}

/// The record of one engine event.
pub fn record(e: &Event) -> Record {
    match *e {
        Event::SeasonStart { season } => Record::Season { season },
        Event::TieBreak { player, die } => Record::TieBreak { player, die },
        Event::Order { pos, player, size } => Record::Order { position: pos + 1, player, size },
        Event::Payday { player, hex, faces, gold, sabotaged } => Record::Payday { player, hex, faces, gold, sabotaged },
        Event::Recruit { player, hex, item, cost, piece, at } => {
            Record::Recruit { player, hex, item: snake(item), cost, piece, at }
        }
        Event::Move { player, piece, from, to } => {
            let (kind, id) = match piece {
                Piece::Army(i) => ("army", i),
                Piece::Ship(i) => ("ship", i),
                Piece::Spy(i) => ("spy", i),
            };
            Record::Move { player, piece: kind.into(), id, from, to }
        }
        Event::Transport { player, ship, army, landed, units, sea, from, to, fresh } => {
            Record::Transport { player, ship, army, landed, units, sea, from, to, fresh }
        }
        Event::Combat(ref c) => Record::Combat(Box::new(combat(c))),
        Event::Loot { player, gold } => Record::Loot { player, gold },
        Event::Xp { army, xp } => Record::Experience { army, xp },
        Event::Formation { army, formation } => Record::Formation { army, formation: snake(formation) },
        Event::Hit { player, ship, pv } => Record::ShipHit { player, ship, pv },
        Event::ShipRepaired { ship, pv } => Record::ShipRepaired { ship, pv },
        Event::City { city, hex, controller, influence, defence, level, stability, pv, banner } => {
            Record::City(CityRecord {
                city,
                hex,
                controller: player(controller),
                influence,
                defence,
                level,
                stability,
                pv,
                banner: player(banner),
            })
        }
        Event::BuildingPv { hex, kind, pv } => Record::BuildingPv { hex, building: kind.name().into(), pv },
        Event::CityTaken { player, city, hex, outcome, gold } => {
            Record::CityTaken { player, city, hex, outcome: snake(outcome), gold }
        }
        Event::BuildingDestroyed { hex, kind } => Record::BuildingDestroyed { hex, building: kind.name().into() },
        Event::Ep { player, battles, sum, earned } => Record::Ep { player, battles, sum, earned },
        Event::Spend { player, kind, hex: h, cost, ep_left, gold } => {
            let what = match kind {
                SpendKind::Capture => "capture".to_string(),
                SpendKind::Conquer => "conquer".to_string(),
                SpendKind::Build(b) => format!("build_{}", b.name()),
                SpendKind::Pillage => "pillage".to_string(),
            };
            Record::Spend { player, what, hex: hex(h), cost, ep_left, gold }
        }
        Event::EpLost { player, ep } => Record::EpLost { player, ep },
        Event::Eliminated { player } => Record::Eliminated { player },
        Event::End { season, reason } => Record::End { season, reason: reason.name().into() },
        Event::Standing { rank, player, size, hexes, cities, castles, tie } => {
            Record::Standing { rank, player, size, hexes, cities, castles, tie }
        }
    }
}

/// The whole log as JSON lines: the header, then every event.
pub fn render(played: &Played<'_>, events: &[Event]) -> String {
    let mut s = String::new();
    let mut line = |r: &Record| {
        // Serializing these plain types cannot fail.
        s.push_str(&serde_json::to_string(r).unwrap_or_default());
        s.push('\n');
    };
    line(&Record::Header(Box::new(header(played))));
    for e in events {
        line(&record(e));
    }
    s
}

/// The JSON Schema of one log line, as committed in `docs/log.schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Record);
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::snake;
    use crate::rules::SpyKind;
    use crate::scenario::BattleResult;

    #[test]
    fn variant_names_in_snake_case() {
        assert_eq!(snake(SpyKind::DamageExtra), "damage_extra");
        assert_eq!(snake(BattleResult::Massacre), "massacre");
        assert_eq!(snake(crate::rules::Item::Unit), "unit");
    }
}
