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
pub mod ranges;
pub mod suggest;
pub mod table;

use crate::map::terrain::terrain_table;
use crate::map::{Terrain, TerrainSet};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use action_kind::{ACTION_KIND_COUNT, ActionKind};
pub use dice::DiceExpr;
pub use load::{
    Flagged, ScenarioError, Source, load_flagged, load_str, load_with_overrides, parse_flagged, parse_override,
};
use table::gap_row;
pub use table::{Domain, GapTable};

/// The embedded default scenario (4 players, generated 48-hex map).
pub const DEFAULT_TOML: &str = include_str!("../../../../scenarios/default.toml");

/// The named strategies every scenario knows (G-30): `random`, `balanced`,
/// `expansionist`, `miner`, `pillager`, `warlord`, `turtle`, `lookahead`.
pub const ARCHETYPES_TOML: &str = include_str!("../../../../scenarios/archetypes.toml");

/// The archetypes as specs, parsed once. The file is embedded, and a test
/// loads it, so the parse cannot fail at run time.
pub fn archetypes() -> &'static BTreeMap<String, StrategySpec> {
    #[derive(Deserialize)]
    struct File {
        strategies: toml::Table,
    }
    static ARCHETYPES: std::sync::LazyLock<BTreeMap<String, StrategySpec>> = std::sync::LazyLock::new(|| {
        let raw = toml::from_str::<File>(ARCHETYPES_TOML).expect("scenarios/archetypes.toml is checked by the tests");
        // An archetype may extend another (`lookahead_tuned` extends `tuned`):
        // resolved the way a scenario's own tables are.
        let mut all = toml::Table::new();
        load::merge_strategies(&mut all, raw.strategies);
        all.into_iter()
            .map(|(name, v)| {
                let spec = v.try_into::<StrategySpec>().expect("scenarios/archetypes.toml is checked by the tests");
                (name, spec)
            })
            .collect()
    });
    &ARCHETYPES
}

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
        self.named_strategy(strategy).map_err(|e| e.at("--players"))?;
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
        /// Fairness criterion (question 2): how far apart the attacker's
        /// chance to win and to lose may be at equal base, as a probability,
        /// and the table still called fair. 0: exactly equal.
        pub fair_chance: f64 = 0.0,
        /// Fairness criterion: how far apart the two sides' expected losses
        /// may be at equal base, in the table's own units (a unit, a PV, a
        /// spy), and the table still called fair.
        pub fair_loss: f64 = 0.05,
        /// Fairness criterion: the most army units a siege may spend on
        /// average per PV of the city it takes (the siege chains' largest
        /// army fought to the end), and the siege table still called fair;
        /// each city PV's cost is shown beside what a city is worth in EP.
        pub fair_units_per_pv: f64 = 1.0,
        /// Fairness criterion: how far apart a fight at sea and the same
        /// fight on land may be at equal base (naval against army, coastal
        /// against siege: P(win) − P(lose), and the attacker's expected loss
        /// minus the defender's, each in its table's units), and the two
        /// still called alike.
        pub fair_sea_land: f64 = 0.05,
    }
}

// ---------------------------------------------------------------- strategies

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StrategyKind {
    /// Uniform over the legal options; ignores every weight.
    Random,
    /// A one-step utility player driven by the weights below.
    Weighted,
    /// A weighted player that tries its best candidates at the decisions of
    /// `look_at` with rollouts of `base` (`rollouts`, `horizon`, `width`).
    Lookahead,
    /// A rollout search: at the decisions of `look_at` it samples `top_k`
    /// options from its weights taken as a policy (every legal option has a
    /// chance), splits `budget` rollouts of `base` among them by sequential
    /// halving, and keeps the one whose rollouts win most, played to the
    /// campaign's end (or `horizon` seasons).
    Search,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SiegeChoice {
    Conquer,
    Federate,
    Pillage,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormationChoice {
    Light,
    Assault,
    Siege,
}

/// How many coefficients a search's learned `value` holds: one per feature
/// of `strategy::value::features` (in the sim crate, which checks it).
pub const VALUE_FEATURES: usize = 10;

/// The decisions a lookahead can look at (`look_at`): recruiting, every
/// action-phase decision (`act`) or only those where an attack is legal
/// (`attack`), spending, and the decisions inside a combat.
pub const LOOK_AT: &[&str] = &["recruit", "act", "attack", "spend", "bid", "formation", "siege_outcome", "take_hit"];

/// The default `look_at`: every decision the engine asks.
pub const LOOK_AT_ALL: &[&str] = &["recruit", "act", "spend", "bid", "formation", "siege_outcome", "take_hit"];

section! {
    /// G-30: a configured player. Every decision the rules leave to a player
    /// has a weight or threshold here, so an archetype is data, not code
    /// (`scenarios/archetypes.toml`). `random` ignores the weights.
    ///
    /// The defaults below are the `balanced` archetype: the archetypes file
    /// spells it out and a test keeps the two equal.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct StrategySpec {
        pub kind: StrategyKind = StrategyKind::Weighted,
        /// Start from another strategy's keys and change only those given here.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub extends: Option<String> = None,

        // EP spending (E-06..E-15): utility of each purchase; the best one above
        // 0 is bought, then the list is scored again.
        pub capture: f64 = 3.0,
        pub conquer: f64 = 5.0,
        pub castle: f64 = 2.0,
        pub city: f64 = 2.5,
        pub mine: f64 = 2.8,
        pub port: f64 = 0.8,
        pub tower: f64 = 0.5,
        pub bridge: f64 = 0.3,
        pub pillage: f64 = 1.5,
        /// Added to a capture where a mine may stand (a future mine site).
        pub mine_site: f64 = 0.4,
        /// Added to a conquest of a fortified hex.
        pub fortified: f64 = 1.0,
        /// Taken off a main building that replaces another one.
        pub replace: f64 = 2.0,
        /// Gold is worth less to a player who cannot spend what it holds:
        /// a mine's and a pillage's utility are divided by (1 + this ×
        /// gold held ÷ 100). 0 values gold the same however much is held.
        pub gold_glut: f64 = 0.0,
        /// Season-aware purchases: each purchase's utility above grows by
        /// its slope times the share of the campaign's seasons still to
        /// come, (seasons − season) ÷ seasons, so a positive slope buys it
        /// early (a mine's paydays) and a negative one late.
        pub capture_slope: f64 = 0.0,
        pub conquer_slope: f64 = 0.0,
        pub castle_slope: f64 = 0.0,
        pub city_slope: f64 = 0.0,
        pub mine_slope: f64 = 0.0,
        pub port_slope: f64 = 0.0,
        pub tower_slope: f64 = 0.0,
        pub bridge_slope: f64 = 0.0,
        pub pillage_slope: f64 = 0.0,

        // Recruiting (G-13).
        pub unit: f64 = 3.0,
        pub ship: f64 = 0.8,
        pub spy: f64 = 1.0,
        pub engine: f64 = 2.0,
        /// An army of at least this many units and no engine gets the full
        /// `engine` utility; any other army gets `engine × engine_extra`.
        pub engine_min_units: i32 = 3,
        pub engine_extra: f64 = 0.3,
        /// Gold never spent on recruits.
        pub reserve: i32 = 0,
        /// A unit's utility is divided by (1 + own units / this).
        pub unit_saturation: f64 = 6.0,
        /// A unit recruited where no army of the player stands starts an
        /// army of one, and so does a transport that lands one unit: their
        /// utilities are multiplied by this (a transport at 0 is never taken).
        pub unit_alone: f64 = 1.0,

        // Action phase (G-04): utility of each kind of move.
        pub attack: f64 = 10.0,
        pub siege: f64 = 9.0,
        pub naval: f64 = 6.0,
        pub coastal: f64 = 4.0,
        /// Moving an army one step closer to a target.
        pub advance: f64 = 2.0,
        /// Carrying an army by ship toward the enemy (W-17).
        pub transport: f64 = 2.5,
        /// Moving a ship or a spy one step closer to a target.
        pub sail: f64 = 1.5,
        /// Attack (army, naval) when the expected score gap is at least this.
        pub aggression: f64 = 0.0,
        /// Assault a city when the expected score gap is at least this.
        pub siege_aggression: f64 = -1.0,
        /// Added to an army attack's utility per EP its result is expected
        /// to earn above a season at peace (`ep.no_battle`), exactly over
        /// the dice: a battle lost earns less than peace (E-01, G-11).
        pub attack_ep: f64 = 0.0,
        /// Added to an army attack's utility per unit it is expected to
        /// cost the enemy beyond what it costs the attacker (W-03).
        pub attack_units: f64 = 0.0,
        /// Armies with fewer units stay where they are, as a garrison.
        pub garrison: i32 = 3,
        /// Moving an army without getting closer to its goal (still more than
        /// one hex away): a small utility that keeps armies circling.
        pub hold: f64 = 0.2,

        // Spy targets (W-20..W-25).
        pub spy_sabotage: f64 = 5.0,
        pub spy_steal: f64 = 4.5,
        pub spy_destabilize: f64 = 3.0,
        pub spy_damage: f64 = 2.5,
        pub spy_duel: f64 = 3.5,
        /// Share of `spy_steal` when the victim holds less than `spy.steal_gold`.
        pub spy_steal_poor: f64 = 0.1,
        /// Utility taken off a spy action per point of the target's defence.
        pub spy_defence: f64 = 0.5,
        /// Scale of the random noise added to every score but `Done`'s, which
        /// breaks ties between equal options (drawn from the strategy's own stream).
        pub jitter: f64 = 1e-3,

        // Bids (G-07): share of the remaining initiative pool bid.
        pub bid_attack: f64 = 0.67,
        pub bid_defend: f64 = 0.67,
        pub formation: FormationChoice = FormationChoice::Assault,
        pub siege_outcome: SiegeChoice = SiegeChoice::Conquer,

        // Lookahead only.
        /// The strategy every player follows in the rollouts.
        pub base: String = "balanced".into(),
        /// Rollouts per candidate.
        pub rollouts: u32 = 8,
        /// Seasons each rollout plays: 1 ends with the current season, 0 plays to the campaign's end.
        pub horizon: u32 = 2,
        /// Candidates tried per decision: the best by the weights, plus `Done`.
        pub width: u32 = 4,
        /// The decisions that get rollouts (`LOOK_AT`); the others follow the weights.
        pub look_at: Vec<String> = LOOK_AT_ALL.iter().map(|s| s.to_string()).collect(),

        // Search only (`base`, `horizon` and `look_at` above too).
        /// Rollouts per decision, shared among the candidates by sequential
        /// halving.
        pub budget: u32 = 64,
        /// Options sampled per decision from the policy (Gumbel top-k),
        /// plus `Done` where stopping is an option.
        pub top_k: u32 = 6,
        /// Temperature of the policy: its logits are the weights' scores
        /// divided by this. Larger spreads the sample over more options.
        pub temperature: f64 = 1.0,
        /// Share of the policy spread evenly over the legal options (a
        /// mixture with uniform), so an option the weights score far below
        /// the best (a mine, to a player that never built one) keeps a real
        /// chance of being searched.
        pub explore: f64 = 0.0,
        /// Coefficients of a learned value (`empires value`), empty or
        /// `VALUE_FEATURES` long: a rollout cut short by `horizon` is
        /// valued by the win probability they give its last state, not by
        /// who leads there. Empty: who leads, plus a share of the margin.
        pub value: Vec<f64> = Vec::new(),

        /// Restricted play (Jaffe et al. 2012): action kinds this player never
        /// takes, e.g. `["pillage"]`. Names are those of `ActionKind`.
        pub forbid: Vec<ActionKind> = Vec::new(),
        /// Action kinds taken first whenever legal and affordable, e.g. `["mine"]`.
        pub force: Vec<ActionKind> = Vec::new(),

        /// Numeric keys a tuning started from this player leaves as they
        /// are (`tune --keys all`, every `--best-response`), e.g.
        /// `["unit_alone", "gold_glut"]`: values set from the competence
        /// check (`empires probe`) for what the tuning's own campaigns
        /// rarely show, such as a gift of gold, which a search fitted to
        /// those campaigns alone would trade away.
        pub tune_keep: Vec<String> = Vec::new(),
    }
}
