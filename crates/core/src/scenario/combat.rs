//! The combat tables and their sections (W-01..W-25): army losses,
//! formations and experience, sieges, naval combat and spies. Each table is
//! a `GapTable` of rows by score gap, with the documents' table as its
//! default.

use super::GapTable;
use super::table::gap_row;
use crate::map::terrain::terrain_table;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------- army

/// W-03: losses by unsigned gap. Gap 0 is a tie: both sides take `winner_loss`
/// and `loser_loss` alike, so a tie row should give them the same value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyLossRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    pub winner_loss: i32,
    pub loser_loss: i32,
}
gap_row!(ArmyLossRow);

terrain_table!(
    /// G-06: battle-order bonus for a defender on this terrain.
    DefenderTerrainBonus: i32 { forest = 1, mountain = 1 }
);

section! {
    /// W-07.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct FormationSpec {
        /// Experience at which the army picks its permanent formation.
        pub at_xp: i32 = 2,
        /// Light: extra movement.
        pub light_movement: i32 = 1,
        /// Assault: extra strength in army combat (part of battle order, G-06).
        pub assault_strength: i32 = 1,
        /// Siege: extra PV damage to a city when an assault damages it.
        pub siege_damage: i32 = 1,
        /// Assault: its extra strength also counts in siege assaults (W-09's
        /// score has no battle order, so the default is `false`).
        pub assault_in_sieges: bool = false,
    }
}

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct ArmySpec {
        /// W-04 / G-07.
        pub bid_cap: i32 = 3,
        /// W-03.
        pub losses: GapTable<ArmyLossRow> = default_army_losses(),
        /// G-09: experience runs from 0 to this.
        pub xp_max: i32 = 3,
        /// W-06: experience gained per victory, at most once per season.
        pub xp_per_win: i32 = 1,
        /// W-06 "victoire contre une armée adverse entière": experience only
        /// for a victory that destroys the whole enemy army. `false`: for any
        /// army combat won.
        pub xp_needs_destroyed: bool = false,
        /// W-05 "une armée stationnée [...] ajoute les points de défense à sa
        /// force": the place's defence also counts when the stationed army
        /// attacks. `false`: only when it is attacked, as every other place's
        /// defence in the documents is the defender's.
        pub garrison_attacks: bool = false,
        /// G-06.
        pub defender_terrain: DefenderTerrainBonus = DefenderTerrainBonus::default(),
        pub formations: FormationSpec = FormationSpec::default(),
        /// W-01 / G-14: gold for each victory.
        pub victory_loot: i32 = 10,
    }
}

/// The default `army.losses` table.
fn default_army_losses() -> GapTable<ArmyLossRow> {
    let row = |from, to, winner_loss, loser_loss| ArmyLossRow { from, to, winner_loss, loser_loss };
    GapTable::new(vec![row(Some(0), Some(0), 1, 1), row(Some(1), Some(3), 1, 1), row(Some(4), None, 0, 1)])
}

// ---------------------------------------------------------------- siege

/// W-10: by signed gap (attacker score minus city score).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    pub city_pv: i32,
    pub army_loss: i32,
}
gap_row!(SiegeRow);

section! {
    /// W-11: what taking a city does.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct OutcomeSpec {
        /// Influence the attacker gets: `cities.owned_influence` or more means the
        /// city carries its banner, `cities.federated_influence` or more means
        /// federated (G-19), less leaves the city neutral.
        pub influence: i32 = 6,
        pub stability_change: i32 = -1,
        pub restart_pv: i32 = 1,
        /// Destroy the port, tower or bridge on the city's hex.
        pub destroy_buildings: bool = false,
        /// Gold for the attacker ("+3 resources", G-14).
        pub gold: i32 = 0,
    }
}

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct SiegeOutcomes {
        pub conquer: OutcomeSpec = OutcomeSpec::default(),
        pub federate: OutcomeSpec = OutcomeSpec {
            influence: 3,
            stability_change: 0,
            restart_pv: 2,
            destroy_buildings: false,
            gold: 0,
        },
        pub pillage: OutcomeSpec = OutcomeSpec {
            influence: 0,
            stability_change: -2,
            restart_pv: 1,
            destroy_buildings: true,
            gold: 30,
        },
    }
}

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct SiegeSpec {
        /// W-09 / G-07: initiative 0 to this.
        pub bid_cap: i32 = 3,
        /// W-09: +1 per engine up to this many; also the most an army can carry.
        pub engine_cap: i32 = 2,
        /// W-08: engines needed to besiege.
        pub engines_needed: i32 = 1,
        /// W-09: city level counts from 0 to this.
        pub level_cap: i32 = 2,
        /// W-09: stability counts clamped to this range.
        pub stability_min: i32 = -1,
        pub stability_max: i32 = 1,
        /// W-10.
        pub table: GapTable<SiegeRow> = default_siege_table(),
        pub outcomes: SiegeOutcomes = SiegeOutcomes::default(),
        /// W-01 / G-14: gold for an assault won (gap at least `costs.siege_win_gap`).
        pub victory_loot: i32 = 10,
    }
}

/// The default `siege.table` table.
fn default_siege_table() -> GapTable<SiegeRow> {
    let row = |from, to, city_pv, army_loss| SiegeRow { from, to, city_pv, army_loss };
    GapTable::new(vec![
        row(None, Some(-1), 0, 2),
        row(Some(0), Some(0), 0, 1),
        row(Some(1), Some(2), 1, 1),
        row(Some(3), Some(4), 2, 1),
        row(Some(5), None, 3, 0),
    ])
}

// ---------------------------------------------------------------- naval

/// W-13: PV lost by unsigned gap. At gap 0 both sides take their column.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavalRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    pub winner_pv: i32,
    pub loser_pv: i32,
}
gap_row!(NavalRow);

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct NavalSpec {
        /// W-12 / G-07.
        pub bid_cap: i32 = 2,
        /// G-25: strength of n ships is `strength_per_ship * n + strength_offset`.
        /// The reading n is (1, 0); the reading 2n-1 is (2, -1).
        pub strength_per_ship: i32 = 1,
        pub strength_offset: i32 = 0,
        /// W-14.
        pub port_defence: i32 = 1,
        /// W-13.
        pub table: GapTable<NavalRow> = default_naval_table(),
        /// W-15 / G-14.
        pub victory_loot: i32 = 10,
        /// W-16: gold for a coastal attack won.
        pub coastal_loot: i32 = 10,
        /// G-26.
        pub ship_pv: i32 = 3,
        pub ship_recover: i32 = 1,
        /// W-17: ships may carry land units (never siege engines).
        pub transport: bool = true,
        /// W-17: land units one ship carries; a larger army sends a detachment
        /// of this size, which becomes an army of its own.
        pub transport_units: i32 = 1,
        /// W-17: a detachment keeps its army's experience and formation.
        /// `false`: it lands as a new army, without experience or formation.
        pub detachment_keeps_xp: bool = true,
    }
}

/// The default `naval.table` table.
fn default_naval_table() -> GapTable<NavalRow> {
    let row = |from, to, winner_pv, loser_pv| NavalRow { from, to, winner_pv, loser_pv };
    GapTable::new(vec![
        row(Some(0), Some(0), 1, 1),
        row(Some(1), Some(1), 1, 2),
        row(Some(2), Some(3), 1, 3),
        row(Some(4), None, 0, 3),
    ])
}

// ---------------------------------------------------------------- spies

/// W-20 / W-21 / G-28: by signed gap (spy score minus defender score).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpyRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    pub success: bool,
    pub spy_lost: bool,
}
gap_row!(SpyRow);

/// W-25: by unsigned gap between the two spies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuelRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    pub loser_lost: bool,
    pub winner_spent: bool,
}
gap_row!(DuelRow);

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct SpySpec {
        /// W-20: the spy's fixed score before the die.
        pub base: i32 = 3,
        /// W-20 / W-21.
        pub table: GapTable<SpyRow> = default_spy_table(),
        /// G-28: a city's spy defence is its defence plus its level.
        pub city_adds_level: bool = true,
        /// G-28: gold stolen (at most what the target has).
        pub steal_gold: i32 = 20,
        /// G-28: a spy cannot bring a city below this PV.
        pub city_pv_floor: i32 = 1,
        /// W-25 / G-07.
        pub duel_bid_cap: i32 = 3,
        /// W-25.
        pub duel: GapTable<DuelRow> = default_spy_duel(),
        /// W-19: a spy may also act against its own hex (and the spies on it).
        /// The reading says "adjacent", so the default is `false`.
        pub own_hex: bool = false,
        /// W-01 "chaque victoire": the winner of a spy duel (W-25) gets
        /// `army.victory_loot`. `false`: spy duels loot nothing.
        pub duel_loots: bool = false,
        /// W-23: an army of the spying player on the target hex blocks its
        /// own spy too. `false`: only other players' armies block.
        pub own_army_blocks: bool = true,
        /// W-19 / W-24 apply to duels (W-25) too: the enemy spy must be on an
        /// adjacent hex, and a spy that moved cannot duel. `false`: a spy may
        /// duel an enemy spy on its own hex or an adjacent one, even after
        /// moving.
        pub duel_limits: bool = true,
    }
}

/// The default `spy.table` table.
fn default_spy_table() -> GapTable<SpyRow> {
    let row = |from, to, success, spy_lost| SpyRow { from, to, success, spy_lost };
    GapTable::new(vec![
        row(None, Some(-2), false, true),
        row(Some(-1), Some(-1), false, false),
        row(Some(0), Some(0), false, false),
        row(Some(1), None, true, false),
    ])
}

/// The default `spy.duel` table.
fn default_spy_duel() -> GapTable<DuelRow> {
    let duel = |from, to, loser_lost, winner_spent| DuelRow { from, to, loser_lost, winner_spent };
    GapTable::new(vec![duel(Some(0), Some(0), false, false), duel(Some(1), None, true, true)])
}
