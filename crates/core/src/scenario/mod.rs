//! Scenario data: every number and table of the rules (`docs/rules.md`),
//! with the G defaults as the `Default` values.
//!
//! A scenario is plain data. It is read from TOML at the edge (`load.rs`),
//! checked once (`check.rs`), and then handed to the engine as `&Scenario`;
//! nothing in `rules/` reads a file or a constant that a designer might want
//! to tune. Every struct denies unknown keys so a typo is an error, not a
//! silently ignored value.

pub mod action_kind;
pub mod check;
pub mod dice;
pub mod knobs;
pub mod load;
pub mod param;
pub mod ranges;
pub mod suggest;
pub mod table;

use crate::map::terrain::terrain_table;
use crate::map::{Terrain, TerrainSet};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use action_kind::{ACTION_KIND_COUNT, ActionKind};
pub use dice::DiceExpr;
pub use load::{Flagged, ScenarioError, Source, load_flagged, load_str, load_with_overrides, parse_flagged};
use table::gap_row;
pub use table::{Domain, GapTable};

/// The embedded default scenario (4 players, generated 48-hex map).
pub const DEFAULT_TOML: &str = include_str!("../../../../scenarios/default.toml");

/// A section of the scenario, each key declared once: its doc comment, its
/// type and its default side by side. Expands to the struct (with the
/// attributes given) and its `Default` from those defaults, so a default is
/// never written apart from its key. Ranges are in `ranges.rs`; the docs'
/// key reference is held to these defaults by a test.
macro_rules! section {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                pub $field:ident : $ty:ty = $default:expr,
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }
    };
}

// Declared after `section!`, which they use (a macro is in scope only
// below its definition).
mod combat;
mod strategy;
pub use combat::*;
pub use strategy::*;

section! {
    /// A whole scenario: the players, the map, every number and table of the
    /// rules, and the strategies the players may name.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct Scenario {
        pub name: String = "unnamed".into(),
        pub description: String = String::new(),
        pub players: Vec<PlayerSpec> = (1..=4)
            .map(|i| PlayerSpec { name: format!("P{i}"), strategy: "balanced".into(), team: None })
            .collect(),
        pub map: MapSpec = MapSpec::default(),
        pub campaign: CampaignSpec = CampaignSpec::default(),
        pub ep: EpSpec = EpSpec::default(),
        pub costs: CostSpec = CostSpec::default(),
        pub buildings: BuildingsSpec = BuildingsSpec::default(),
        pub economy: EconomySpec = EconomySpec::default(),
        pub recruit: RecruitSpec = RecruitSpec::default(),
        pub initiative: InitiativeSpec = InitiativeSpec::default(),
        pub combat: CombatSpec = CombatSpec::default(),
        pub army: ArmySpec = ArmySpec::default(),
        pub siege: SiegeSpec = SiegeSpec::default(),
        pub naval: NavalSpec = NavalSpec::default(),
        pub spy: SpySpec = SpySpec::default(),
        pub cities: CitySpec = CitySpec::default(),
        pub movement: MovementSpec = MovementSpec::default(),
        pub start: StartSpec = StartSpec::default(),
        pub strategies: BTreeMap<String, StrategySpec> = archetypes().clone(),
        pub tables: TablesSpec = TablesSpec::default(),
    }
}

impl Scenario {
    /// The embedded default scenario, already checked.
    pub fn embedded_default() -> Scenario {
        load_str(DEFAULT_TOML, &Source::embedded("default.toml"))
            .expect("the embedded default scenario is checked by the test suite")
    }

    /// Team of a player, if it shares a team with at least one other player
    /// (E-02 only applies to real teams).
    pub fn team_of(&self, player: usize) -> Option<u8> {
        let t = self.players.get(player)?.team?;
        (self.players.iter().filter(|p| p.team == Some(t)).count() > 1).then_some(t)
    }

    /// The strategy spec for a name: an archetype or a `[strategies.NAME]`
    /// entry (the scenario holds both once loaded).
    pub fn strategy(&self, name: &str) -> Option<StrategySpec> {
        self.strategies.get(name).cloned()
    }

    /// The strategy spec for a name, borrowed: building a campaign's
    /// players reads it without the copy `strategy` makes.
    pub fn strategy_ref(&self, name: &str) -> Option<&StrategySpec> {
        self.strategies.get(name)
    }

    /// The strategy spec for a name, or the error every command gives for
    /// an unknown one: the closest known name and the list.
    pub fn named_strategy(&self, name: &str) -> Result<StrategySpec, crate::error::Error> {
        self.strategy(name).ok_or_else(|| {
            let known: Vec<&str> = self.strategies.keys().map(String::as_str).collect();
            let hint = suggest::hint(name, known.iter().copied());
            crate::error::Error::input(format!("unknown strategy {name:?}{hint} (known: {})", known.join(", ")))
        })
    }

    /// The same scenario with every seat playing `strategy` (`--players`).
    pub fn with_players(&self, strategy: &str) -> Result<Scenario, crate::error::Error> {
        self.named_strategy(strategy).map_err(|e| e.at_input(crate::error::Input::Players))?;
        let mut sc = self.clone();
        for p in &mut sc.players {
            p.strategy = strategy.to_string();
        }
        Ok(sc)
    }

    pub fn building(&self, kind: BuildingKind) -> &BuildingSpec {
        match kind {
            BuildingKind::Castle => &self.buildings.castle,
            BuildingKind::City => &self.buildings.city,
            BuildingKind::Mine => &self.buildings.mine,
            BuildingKind::Port => &self.buildings.port,
            BuildingKind::Tower => &self.buildings.tower,
            BuildingKind::Bridge => &self.buildings.bridge,
        }
    }
}

// ---------------------------------------------------------------- players

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    pub name: String,
    /// An archetype (`scenarios/archetypes.toml`) or a `[strategies.NAME]` entry (G-30).
    #[serde(default = "default_strategy")]
    pub strategy: String,
    /// Players sharing a team number play as a team (E-02).
    #[serde(default)]
    pub team: Option<u8>,
}

fn default_strategy() -> String {
    "balanced".into()
}

// ---------------------------------------------------------------- map

/// Exactly one of `rows` (a drawn map) or `generate` (G-23).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct MapSpec {
    /// Drawn map: one string per row of an odd-r offset hex grid. Each cell is
    /// a terrain letter (`p` plains, `f` forest, `r` river, `m` mountain,
    /// `w` marsh, `~` sea) followed by markers: a digit `1`-`9` for that
    /// player's capital, `c` neutral city, `k` castle, `n` mine, `o` port,
    /// `t` tower, `b` bridge. Cells are separated by spaces.
    pub rows: Option<Vec<String>>,
    /// Generated map (used when `rows` is absent).
    pub generate: Option<GenerateSpec>,
}

impl MapSpec {
    pub fn generator(&self) -> GenerateSpec {
        self.generate.clone().unwrap_or_default()
    }
}

pub use crate::map::generate::GenerateSpec;

// ---------------------------------------------------------------- campaign

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TieBreak {
    Cities,
    Castles,
    Die,
}

section! {
    /// G-02: length, end conditions and how ties are broken.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct CampaignSpec {
        pub seasons: u32 = 12,
        /// The campaign ends when one player holds at least this share of land hexes.
        pub land_share_to_win: f64 = 0.40,
        /// The campaign ends when every rival has lost all its hexes.
        pub end_when_last_standing: bool = true,
        /// After empire size (G-03), in this order.
        pub tiebreak: Vec<TieBreak> = vec![TieBreak::Cities, TieBreak::Castles, TieBreak::Die],
        /// A campaign that reaches the season limit after this many seasons in
        /// which no banner or building changed ends `stalled` instead of
        /// `season_limit` (0: never). It only flags the campaign: play is the same.
        pub stall_seasons: u32 = 4,
        /// E-04: work out the order again, from the empires as they stand,
        /// just before spending (a city lost in the action phase moves its
        /// holder earlier). `false` keeps G-03's order, fixed at the start of
        /// the season for payday, recruiting, acting and spending alike.
        pub reorder_before_spending: bool = false,
    }
}

// ---------------------------------------------------------------- EP

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum BattleResult {
    Defeat,
    Draw,
    Minor,
    Major,
    Massacre,
}

impl BattleResult {
    pub const ALL: [BattleResult; 5] =
        [BattleResult::Defeat, BattleResult::Draw, BattleResult::Minor, BattleResult::Major, BattleResult::Massacre];

    /// The key of `[ep.results]`: `defeat`, `draw`, `minor`, `major`, `massacre`.
    pub fn key(self) -> &'static str {
        match self {
            BattleResult::Defeat => "defeat",
            BattleResult::Draw => "draw",
            BattleResult::Minor => "minor",
            BattleResult::Major => "major",
            BattleResult::Massacre => "massacre",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BattleResult::Defeat => "defeat",
            BattleResult::Draw => "draw",
            BattleResult::Minor => "minor victory",
            BattleResult::Major => "major victory",
            BattleResult::Massacre => "massacre",
        }
    }
}

section! {
    /// E-01: EP for each battle result.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct EpResults {
        pub defeat: i32 = 1,
        pub draw: i32 = 2,
        pub minor: i32 = 3,
        pub major: i32 = 4,
        pub massacre: i32 = 5,
    }
}

impl EpResults {
    pub fn get(&self, r: BattleResult) -> i32 {
        match r {
            BattleResult::Defeat => self.defeat,
            BattleResult::Draw => self.draw,
            BattleResult::Minor => self.minor,
            BattleResult::Major => self.major,
            BattleResult::Massacre => self.massacre,
        }
    }
}

/// G-10: the battle result by unsigned score gap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    pub result: BattleResult,
}
gap_row!(ResultRow);

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct EpSpec {
        pub results: EpResults = EpResults::default(),
        /// E-02: each team member gets this much less per battle.
        pub team_malus: i32 = 1,
        /// E-02 "chaque membre de l'équipe gagnera ...": a battle fought by
        /// one member of a team is the team's, so every member earns the
        /// team's battles (their EP, less the malus, averaged as E-03 does)
        /// and none earns `no_battle` in a season the team fought. `false`:
        /// each member earns its own battles, and a member at peace gets
        /// `no_battle`.
        pub team_shares_battles: bool = false,
        /// G-11: EP for a season without any battle.
        pub no_battle: i32 = 2,
        /// G-10: result by gap (0 must be a draw row for the draw EP to apply).
        pub result_by_gap: GapTable<ResultRow> = default_ep_result_by_gap(),
        /// G-10: destroying the enemy army is a massacre whatever the gap.
        pub destroyed_is_massacre: bool = true,
        /// G-10: when both armies die in one combat, the winner by gap still
        /// destroyed the enemy army, so it scores a massacre. `false` keeps the
        /// older reading: the winner gets its gap's result.
        pub massacre_if_both_destroyed: bool = true,
        /// G-10: siege assaults count as battles for EP.
        pub sieges_are_battles: bool = true,
        /// G-10: destroying an army of a single unit (a W-17 detachment, say)
        /// is a massacre too. `false`: an enemy army destroyed makes a
        /// massacre only if it had at least 2 units before the combat;
        /// otherwise the winner gets its gap's result.
        pub single_unit_massacre: bool = true,
    }
}

/// The default `ep.result_by_gap` table.
fn default_ep_result_by_gap() -> GapTable<ResultRow> {
    let row = |from, to, result| ResultRow { from, to, result };
    GapTable::new(vec![
        row(Some(0), Some(0), BattleResult::Draw),
        row(Some(1), Some(3), BattleResult::Minor),
        row(Some(4), Some(5), BattleResult::Major),
        row(Some(6), None, BattleResult::Massacre),
    ])
}

// ---------------------------------------------------------------- costs

terrain_table!(
    /// EP surcharge by terrain for capture and conquest (E-10).
    TerrainSurcharge: i32 { mountain = 1 }
);

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct CostSpec {
        /// E-06.
        pub capture: i32 = 2,
        /// E-07.
        pub conquer: i32 = 3,
        /// E-09.
        pub pillage: i32 = 1,
        /// E-10: extra EP to capture or conquer a hex of this terrain.
        pub terrain_surcharge: TerrainSurcharge = TerrainSurcharge::default(),
        /// E-11: extra EP to conquer a hex with a castle or a city.
        pub fortified_surcharge: i32 = 1,
        /// G-12: a siege assault with at least this gap counts as a battle won
        /// against the city's owner for E-07.
        pub siege_win_gap: i32 = 1,
        /// E-07 / E-11: a hex holding a city may be conquered with EP (it costs
        /// the fortified surcharge). `false`: cities change hands only by siege
        /// (W-11).
        pub conquer_cities: bool = true,
    }
}

// ---------------------------------------------------------------- buildings

pub use crate::building::BuildingKind;

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct BuildingSpec {
        /// EP to build (E-08, G-15) or to replace another building with it (E-12).
        pub cost: i32 = 1,
        /// Terrains it may stand on (E-13, E-14, E-15, G-15).
        pub terrain: TerrainSet = TerrainSet::of(&[]),
        /// Only on a land hex next to sea (port, G-15).
        pub coastal_only: bool = false,
        /// Another building that must already stand on the hex, which this one
        /// replaces (a city needs a castle, E-14).
        pub requires: Option<BuildingKind> = None,
        /// Defence for garrisons (W-05), spies (G-28) and coastal attacks (W-16).
        pub defence: i32 = 0,
        /// Structure points; at 0 the building is destroyed (G-15).
        pub pv: i32 = 1,
        /// Counts as a castle for the E-11 surcharge (E-14).
        pub fortified: bool = false,
        /// G-03: a hex holding it counts twice in empire size (hexes held plus
        /// hexes with a castle; a city counts as one, E-14). `false` on the
        /// castle and the city is the reading where size is hexes held only.
        pub counts_in_size: bool = false,
        /// An army stationed here adds the defence to its score (W-05).
        pub garrison: bool = false,
        /// Recruiting is possible at this hex (G-13).
        pub recruits: bool = false,
        /// Ships may attack it from the sea (W-16).
        pub coastal_target: bool = false,
    }
}

fn bspec(cost: i32, terrain: &[Terrain], defence: i32, pv: i32) -> BuildingSpec {
    BuildingSpec { cost, terrain: TerrainSet::of(terrain), defence, pv, ..BuildingSpec::default() }
}

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct BuildingsSpec {
        pub castle: BuildingSpec = BuildingSpec {
            fortified: true,
            counts_in_size: true,
            garrison: true,
            recruits: true,
            ..bspec(1, &[Terrain::Plains, Terrain::Forest, Terrain::River, Terrain::Mountain], 2, 3)
        },
        pub city: BuildingSpec = BuildingSpec {
            requires: Some(BuildingKind::Castle),
            fortified: true,
            counts_in_size: true,
            garrison: true,
            recruits: true,
            ..bspec(1, &[Terrain::Plains, Terrain::Forest, Terrain::River], 2, 3)
        },
        pub mine: BuildingSpec = bspec(1, &[Terrain::River, Terrain::Mountain], 0, 1),
        pub port: BuildingSpec = BuildingSpec {
            coastal_only: true,
            coastal_target: true,
            recruits: false,
            ..bspec(1, &[Terrain::Plains, Terrain::Forest, Terrain::River, Terrain::Mountain, Terrain::Marsh], 2, 2)
        },
        pub tower: BuildingSpec = BuildingSpec {
            garrison: true,
            coastal_target: true,
            ..bspec(1, &[Terrain::Plains, Terrain::Forest, Terrain::River, Terrain::Mountain, Terrain::Marsh], 2, 2)
        },
        pub bridge: BuildingSpec = BuildingSpec { garrison: true, coastal_target: true, ..bspec(1, &[Terrain::River], 1, 2) },
    }
}

// ---------------------------------------------------------------- economy

terrain_table!(
    /// Payday yield of a mine by terrain (E-15). Absent: the terrain yields nothing.
    MineYields: Option<DiceExpr> {
        river = Some(DiceExpr::new(2, 6, 10)),
        mountain = Some(DiceExpr::new(3, 6, 10)),
    }
);

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct EconomySpec {
        /// E-15.
        pub mine: MineYields = MineYields::default(),
        /// E-09.
        pub pillage: DiceExpr = DiceExpr::new(2, 6, 10),
    }
}

section! {
    /// G-13: recruiting costs in gold.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct RecruitSpec {
        pub unit: i32 = 100,
        pub ship: i32 = 150,
        pub spy: i32 = 100,
        pub engine: i32 = 100,
        /// Items recruited per castle or city hex per season.
        pub per_hex: u32 = 1,
    }
}

section! {
    /// G-07.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct InitiativeSpec {
        /// Points each player gets each season; unspent points do not carry over.
        pub pool: i32 = 3,
    }
}

section! {
    /// G-05.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct CombatSpec {
        /// The "dé" each side rolls in every combat.
        pub die: DiceExpr = DiceExpr::D6,
    }
}

// ---------------------------------------------------------------- cities

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct CityStats {
        pub defence: i32 = 2,
        pub level: i32 = 0,
        pub stability: i32 = 0,
    }
}

section! {
    /// G-16 to G-19.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct CitySpec {
        /// A city built with EP.
        pub built: CityStats = CityStats::default(),
        /// Each player's capital.
        pub capital: CityStats = CityStats { level: 1, ..CityStats::default() },
        /// Neutral cities on the map.
        pub neutral: CityStats = CityStats::default(),
        /// G-17: maximum PV is `max_pv_base + max_pv_per_level * level`; cities
        /// start at their maximum.
        pub max_pv_base: i32 = 3,
        pub max_pv_per_level: i32 = 1,
        pub recover_pv: i32 = 1,
        /// G-18.
        pub stability_min: i32 = -3,
        pub stability_max: i32 = 3,
        pub stability_recover: i32 = 1,
        /// G-19.
        pub owned_influence: i32 = 6,
        pub federated_influence: i32 = 3,
    }
}

impl CitySpec {
    pub fn max_pv(&self, level: i32) -> i32 {
        self.max_pv_base + self.max_pv_per_level * level
    }
}

// ---------------------------------------------------------------- movement

terrain_table!(
    /// G-27: movement points to enter a hex of this terrain.
    MoveCosts: i32 { plains = 1, forest = 1, river = 1, mountain = 1, marsh = 1, sea = 1 }
);

section! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct MovementSpec {
        pub army: i32 = 1,
        pub spy: i32 = 1,
        /// G-26.
        pub ship: i32 = 3,
        pub cost: MoveCosts = MoveCosts::default(),
    }
}

// ---------------------------------------------------------------- start

section! {
    /// G-24.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct StartSpec {
        pub gold: i32 = 100,
        pub army_units: i32 = 3,
        pub spies: i32 = 1,
        pub ships: i32 = 0,
        pub engines: i32 = 0,
        /// A coastal capital starts with a port.
        pub coastal_capital_port: bool = true,
        /// Generated maps: capitals at least this many hexes apart.
        pub min_capital_distance: u32 = 3,
    }
}

// ---------------------------------------------------------------- tables

section! {
    /// The grids of `empires tables`: which base scores (everything before the
    /// die: units, experience, bids, battle order, defence...) the exact
    /// distributions are computed for, and the sieges and fleets of the Markov
    /// tables. Analysis only: nothing here changes play.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct TablesSpec {
        /// Attacker base scores, `[low, high]` (army, siege, naval, coastal, spy).
        pub attacker_base: [i32; 2] = [0, 12],
        /// Defender base scores, `[low, high]`.
        pub defender_base: [i32; 2] = [0, 8],
        /// Siege chains: city PV from `[low, high]`.
        pub siege_city_pv: [i32; 2] = [1, 5],
        /// Siege chains: army units from `[low, high]`.
        pub siege_army_units: [i32; 2] = [1, 8],
        /// Siege chains: the army's score on top of its units (experience,
        /// engines, bid).
        pub siege_army_extra: i32 = 1,
        /// Siege chains: the city's score before the die (defence + level +
        /// stability; a capital is 2 + 1 + 0).
        pub siege_city_base: i32 = 3,
        /// Naval battles to destruction: fleets of `[low, high]` ships a side.
        pub naval_ships: [i32; 2] = [1, 5],
        /// Fairness criterion (question 2): how far apart, at equal base,
        /// the chance that the attacker comes out ahead (the defender loses
        /// more than it, both in `tables.exchange`'s common unit) and the
        /// chance that it comes out behind may be, as a probability over
        /// the exact face pairs, and the table still called fair. 0:
        /// exactly as often.
        pub fair_chance: f64 = 0.0,
        /// Fairness criterion: how far apart the two sides' expected losses
        /// may be at equal base, in `tables.exchange`'s common unit, and the
        /// table still called fair.
        pub fair_loss: f64 = 0.05,
        /// Fairness criterion: the most army units a siege may spend on
        /// average for each city it takes, per PV of that city (expected
        /// units spent over P(the city falls) × PV), at every army size and
        /// city PV of the siege chains, and the siege table still called
        /// fair; `tables` prints the whole grid and what a city is worth in EP.
        pub fair_units_per_pv: f64 = 1.0,
        /// Fairness criterion: how far apart a fight at sea and the same
        /// fight on land may be at equal base (naval against army, coastal
        /// against siege: the attacker's chance to come out ahead minus its
        /// chance to come out behind, and the attacker's expected loss minus
        /// the defender's in `tables.exchange`'s common unit), and the two
        /// still called alike.
        pub fair_sea_land: f64 = 0.05,
        /// Fairness criterion: what each thing a combat costs is worth in
        /// one common unit, so both sides' losses are judged in it.
        pub exchange: ExchangeSpec = ExchangeSpec::default(),
    }
}

section! {
    /// Question 2's exchange rate (`[tables.exchange]`): what one of each
    /// thing a combat costs is worth in a common unit the designer names,
    /// so a table whose two sides lose different things (army units
    /// against city PV, a spy against an action that works) is judged in
    /// one currency. Analysis only.
    ///
    /// Every rate defaults to 1, counting each loss one for one as the
    /// tables' rows write it, because the scenario's own prices name no
    /// common currency for all six: gold prices an army unit, a ship and a
    /// spy (`recruit.unit`, `recruit.ship` for `naval.ship_pv` PV,
    /// `recruit.spy`), but a city PV comes back free (`cities.recover_pv`
    /// a season), a building is bought with EP, not gold, and an action
    /// that works is worth what its kind does (gold stolen, a mine's
    /// yield, a point of stability or a PV). Any other default would be
    /// this code's guess at that trade; the verdict states the rates it
    /// used.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct ExchangeSpec {
        /// The common unit's name, as the verdict writes it after a figure.
        pub unit: String = "army units".into(),
        /// What one army unit lost is worth in the common unit.
        pub army_unit: f64 = 1.0,
        /// What one city PV lost is worth.
        pub city_pv: f64 = 1.0,
        /// What one ship PV lost is worth.
        pub ship_pv: f64 = 1.0,
        /// What one building PV lost (a coastal attack's target) is worth.
        pub building_pv: f64 = 1.0,
        /// What one spy lost is worth.
        pub spy: f64 = 1.0,
        /// What one spy action that works is worth to the side it works against.
        pub spy_action: f64 = 1.0,
    }
}

/// One rate of `[tables.exchange]`: its key, what it prices, its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub key: &'static str,
    pub what: &'static str,
    pub value: f64,
}

impl ExchangeSpec {
    /// Every rate, in the order the criterion states them; the checker and
    /// the verdict read the keys and names from here.
    pub fn rates(&self) -> [Rate; 6] {
        let r = |key, what, value| Rate { key, what, value };
        [
            r("army_unit", "an army unit", self.army_unit),
            r("city_pv", "a city PV", self.city_pv),
            r("ship_pv", "a ship PV", self.ship_pv),
            r("building_pv", "a building PV", self.building_pv),
            r("spy", "a spy", self.spy),
            r("spy_action", "a spy action that works", self.spy_action),
        ]
    }
}
