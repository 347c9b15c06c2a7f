//! The numeric keys of the rules and their ranges, written once: the
//! checker refuses a value outside its range, `docs/scenario.md` states the
//! same ranges (a test probes both ends of every one), and a study that
//! varies the rules' numbers (sensitivity, a balance solver) reads each
//! key's range and gets or sets it here. The strategies' keys have their
//! own table, `knobs::KNOBS`.
//!
//! A range here is what one key may hold on its own. Constraints between
//! keys (`siege.engines_needed` at most `siege.engine_cap`, the generated
//! map's shares summing to at most 1, the stability track holding 0) stay
//! in `check.rs`, next to the reason for each.

use super::knobs::Knob;
use super::{DiceExpr, Scenario};

/// No upper bound.
pub const OPEN: f64 = f64::INFINITY;

/// One numeric key of the rules: its dotted path, range, getter and setter.
pub type RuleKey = Knob<Scenario>;

macro_rules! rule_keys {
    ($( $key:literal => $($f:ident).+ : $ty:tt [$lo:expr, $hi:expr] ),* $(,)?) => {
        /// Every numeric key of the rules with its range, by section.
        pub static RULE_KEYS: &[RuleKey] = &[ $( rule_keys!(@one $key [$($f).+] $ty $lo, $hi) ),* ];
    };
    (@one $key:literal [$($f:ident).+] i32 $lo:expr, $hi:expr) => {
        Knob { key: $key, lo: $lo as f64, hi: $hi as f64, integer: true,
                  get: |s| s.$($f).+ as f64, set: |s, v| s.$($f).+ = v.round() as i32 }
    };
    (@one $key:literal [$($f:ident).+] u32 $lo:expr, $hi:expr) => {
        Knob { key: $key, lo: $lo as f64, hi: $hi as f64, integer: true,
                  get: |s| s.$($f).+ as f64, set: |s, v| s.$($f).+ = v.round().max(0.0) as u32 }
    };
    (@one $key:literal [$($f:ident).+] f64 $lo:expr, $hi:expr) => {
        Knob { key: $key, lo: $lo, hi: $hi, integer: false,
                  get: |s| s.$($f).+, set: |s, v| s.$($f).+ = v }
    };
}

rule_keys! {
    // Campaign (G-01, G-02).
    "campaign.seasons" => campaign.seasons: u32 [1, 1000],
    "campaign.stall_seasons" => campaign.stall_seasons: u32 [0, OPEN],
    // Empire points (E-01..E-03, G-11).
    "ep.results.defeat" => ep.results.defeat: i32 [0, OPEN],
    "ep.results.draw" => ep.results.draw: i32 [0, OPEN],
    "ep.results.minor" => ep.results.minor: i32 [0, OPEN],
    "ep.results.major" => ep.results.major: i32 [0, OPEN],
    "ep.results.massacre" => ep.results.massacre: i32 [0, OPEN],
    "ep.team_malus" => ep.team_malus: i32 [0, OPEN],
    "ep.no_battle" => ep.no_battle: i32 [0, OPEN],
    // Costs (E-06..E-12). A purchase that costs no EP could be bought
    // forever in one season, hence pillage from 1.
    "costs.capture" => costs.capture: i32 [0, OPEN],
    "costs.conquer" => costs.conquer: i32 [0, OPEN],
    "costs.pillage" => costs.pillage: i32 [1, OPEN],
    "costs.fortified_surcharge" => costs.fortified_surcharge: i32 [0, OPEN],
    "costs.terrain_surcharge.plains" => costs.terrain_surcharge.plains: i32 [0, OPEN],
    "costs.terrain_surcharge.forest" => costs.terrain_surcharge.forest: i32 [0, OPEN],
    "costs.terrain_surcharge.river" => costs.terrain_surcharge.river: i32 [0, OPEN],
    "costs.terrain_surcharge.mountain" => costs.terrain_surcharge.mountain: i32 [0, OPEN],
    "costs.terrain_surcharge.marsh" => costs.terrain_surcharge.marsh: i32 [0, OPEN],
    "costs.terrain_surcharge.sea" => costs.terrain_surcharge.sea: i32 [0, OPEN],
    // Buildings (E-08, E-12..E-15, G-15). At least 1 EP: free buildings
    // could replace each other forever.
    "buildings.castle.cost" => buildings.castle.cost: i32 [1, OPEN],
    "buildings.castle.defence" => buildings.castle.defence: i32 [0, OPEN],
    "buildings.castle.pv" => buildings.castle.pv: i32 [1, OPEN],
    "buildings.city.cost" => buildings.city.cost: i32 [1, OPEN],
    "buildings.city.defence" => buildings.city.defence: i32 [0, OPEN],
    "buildings.city.pv" => buildings.city.pv: i32 [1, OPEN],
    "buildings.mine.cost" => buildings.mine.cost: i32 [1, OPEN],
    "buildings.mine.defence" => buildings.mine.defence: i32 [0, OPEN],
    "buildings.mine.pv" => buildings.mine.pv: i32 [1, OPEN],
    "buildings.port.cost" => buildings.port.cost: i32 [1, OPEN],
    "buildings.port.defence" => buildings.port.defence: i32 [0, OPEN],
    "buildings.port.pv" => buildings.port.pv: i32 [1, OPEN],
    "buildings.tower.cost" => buildings.tower.cost: i32 [1, OPEN],
    "buildings.tower.defence" => buildings.tower.defence: i32 [0, OPEN],
    "buildings.tower.pv" => buildings.tower.pv: i32 [1, OPEN],
    "buildings.bridge.cost" => buildings.bridge.cost: i32 [1, OPEN],
    "buildings.bridge.defence" => buildings.bridge.defence: i32 [0, OPEN],
    "buildings.bridge.pv" => buildings.bridge.pv: i32 [1, OPEN],
    // Recruiting (G-13).
    "recruit.unit" => recruit.unit: i32 [0, OPEN],
    "recruit.ship" => recruit.ship: i32 [0, OPEN],
    "recruit.spy" => recruit.spy: i32 [0, OPEN],
    "recruit.engine" => recruit.engine: i32 [0, OPEN],
    "recruit.per_hex" => recruit.per_hex: u32 [0, 255],
    // Initiative (G-07).
    "initiative.pool" => initiative.pool: i32 [0, 60],
    // Armies (W-01..W-07, G-06..G-10).
    "army.bid_cap" => army.bid_cap: i32 [0, 20],
    "army.victory_loot" => army.victory_loot: i32 [0, OPEN],
    "army.xp_per_win" => army.xp_per_win: i32 [0, OPEN],
    "army.xp_max" => army.xp_max: i32 [0, OPEN],
    "army.formations.light_movement" => army.formations.light_movement: i32 [0, OPEN],
    "army.formations.assault_strength" => army.formations.assault_strength: i32 [0, OPEN],
    "army.formations.siege_damage" => army.formations.siege_damage: i32 [0, OPEN],
    "army.defender_terrain.plains" => army.defender_terrain.plains: i32 [0, OPEN],
    "army.defender_terrain.forest" => army.defender_terrain.forest: i32 [0, OPEN],
    "army.defender_terrain.river" => army.defender_terrain.river: i32 [0, OPEN],
    "army.defender_terrain.mountain" => army.defender_terrain.mountain: i32 [0, OPEN],
    "army.defender_terrain.marsh" => army.defender_terrain.marsh: i32 [0, OPEN],
    "army.defender_terrain.sea" => army.defender_terrain.sea: i32 [0, OPEN],
    // Sieges (W-08..W-11, G-12, G-16..G-20).
    "siege.bid_cap" => siege.bid_cap: i32 [0, 20],
    "siege.victory_loot" => siege.victory_loot: i32 [0, OPEN],
    "siege.engine_cap" => siege.engine_cap: i32 [0, 20],
    "siege.engines_needed" => siege.engines_needed: i32 [0, OPEN],
    "siege.level_cap" => siege.level_cap: i32 [0, OPEN],
    "siege.outcomes.conquer.influence" => siege.outcomes.conquer.influence: i32 [0, OPEN],
    "siege.outcomes.conquer.restart_pv" => siege.outcomes.conquer.restart_pv: i32 [1, OPEN],
    "siege.outcomes.conquer.gold" => siege.outcomes.conquer.gold: i32 [0, OPEN],
    "siege.outcomes.federate.influence" => siege.outcomes.federate.influence: i32 [0, OPEN],
    "siege.outcomes.federate.restart_pv" => siege.outcomes.federate.restart_pv: i32 [1, OPEN],
    "siege.outcomes.federate.gold" => siege.outcomes.federate.gold: i32 [0, OPEN],
    "siege.outcomes.pillage.influence" => siege.outcomes.pillage.influence: i32 [0, OPEN],
    "siege.outcomes.pillage.restart_pv" => siege.outcomes.pillage.restart_pv: i32 [1, OPEN],
    "siege.outcomes.pillage.gold" => siege.outcomes.pillage.gold: i32 [0, OPEN],
    // Naval (W-12..W-17, G-25, G-26).
    "naval.bid_cap" => naval.bid_cap: i32 [0, 20],
    "naval.victory_loot" => naval.victory_loot: i32 [0, OPEN],
    "naval.coastal_loot" => naval.coastal_loot: i32 [0, OPEN],
    "naval.port_defence" => naval.port_defence: i32 [0, OPEN],
    "naval.ship_recover" => naval.ship_recover: i32 [0, OPEN],
    "naval.strength_per_ship" => naval.strength_per_ship: i32 [0, OPEN],
    "naval.ship_pv" => naval.ship_pv: i32 [1, 1000],
    "naval.transport_units" => naval.transport_units: i32 [1, 1000],
    // Spies (W-18..W-25, G-28).
    "spy.duel_bid_cap" => spy.duel_bid_cap: i32 [0, 20],
    "spy.steal_gold" => spy.steal_gold: i32 [0, OPEN],
    // At least 1: a city always holds at least 1 PV outside a siege's
    // outcome (the rules' invariant), so spies can never bring it to 0.
    "spy.city_pv_floor" => spy.city_pv_floor: i32 [1, OPEN],
    // Cities (E-16, G-16..G-21).
    "cities.max_pv_base" => cities.max_pv_base: i32 [1, OPEN],
    "cities.max_pv_per_level" => cities.max_pv_per_level: i32 [0, OPEN],
    "cities.recover_pv" => cities.recover_pv: i32 [0, OPEN],
    "cities.stability_recover" => cities.stability_recover: i32 [0, OPEN],
    "cities.built.defence" => cities.built.defence: i32 [0, OPEN],
    "cities.built.level" => cities.built.level: i32 [0, 100],
    "cities.capital.defence" => cities.capital.defence: i32 [0, OPEN],
    "cities.capital.level" => cities.capital.level: i32 [0, 100],
    "cities.neutral.defence" => cities.neutral.defence: i32 [0, OPEN],
    "cities.neutral.level" => cities.neutral.level: i32 [0, 100],
    // Movement (G-27).
    "movement.army" => movement.army: i32 [0, 20],
    "movement.spy" => movement.spy: i32 [0, 20],
    "movement.ship" => movement.ship: i32 [0, 20],
    "movement.cost.plains" => movement.cost.plains: i32 [1, OPEN],
    "movement.cost.forest" => movement.cost.forest: i32 [1, OPEN],
    "movement.cost.river" => movement.cost.river: i32 [1, OPEN],
    "movement.cost.mountain" => movement.cost.mountain: i32 [1, OPEN],
    "movement.cost.marsh" => movement.cost.marsh: i32 [1, OPEN],
    "movement.cost.sea" => movement.cost.sea: i32 [1, OPEN],
    // The starting position (G-24).
    "start.gold" => start.gold: i32 [0, OPEN],
    "start.army_units" => start.army_units: i32 [0, 1000],
    "start.spies" => start.spies: i32 [0, 20],
    "start.ships" => start.ships: i32 [0, 20],
    "start.engines" => start.engines: i32 [0, OPEN],
}

/// Rules between two numeric keys of `RULE_KEYS`: the first may be at most
/// the second. `check.rs` enforces them with its own message; a study that
/// varies several keys at once (`--keys all`) keeps each first key's range
/// at most the second's lowest value, so that no design point breaks one.
/// A test holds this list to the checker.
pub static AT_MOST: &[(&str, &str)] = &[("siege.engines_needed", "siege.engine_cap")];

/// A dice key of the rules (`economy.mine.river = "2D6x10"`): a study
/// varies it through its count or its multiplier (`dice::DiceExpr`), each
/// a whole number. `get` is `None` where the scenario gives no dice (a
/// terrain without a mine yield).
#[derive(Clone, Copy)]
pub struct DiceKey {
    pub key: &'static str,
    pub get: fn(&Scenario) -> Option<DiceExpr>,
    pub set: fn(&mut Scenario, DiceExpr),
}

impl std::fmt::Debug for DiceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key)
    }
}

macro_rules! dice_keys {
    ($( $key:literal => $($f:ident).+ $(: $opt:ident)? ),* $(,)?) => {
        /// Every dice key of the rules.
        pub static DICE_KEYS: &[DiceKey] = &[ $( dice_keys!(@one $key [$($f).+] $($opt)?) ),* ];
    };
    (@one $key:literal [$($f:ident).+]) => {
        DiceKey { key: $key, get: |s| Some(s.$($f).+), set: |s, d| s.$($f).+ = d }
    };
    (@one $key:literal [$($f:ident).+] optional) => {
        DiceKey { key: $key, get: |s| s.$($f).+, set: |s, d| s.$($f).+ = Some(d) }
    };
}

dice_keys! {
    "economy.mine.plains" => economy.mine.plains: optional,
    "economy.mine.forest" => economy.mine.forest: optional,
    "economy.mine.river" => economy.mine.river: optional,
    "economy.mine.mountain" => economy.mine.mountain: optional,
    "economy.mine.marsh" => economy.mine.marsh: optional,
    "economy.mine.sea" => economy.mine.sea: optional,
    "economy.pillage" => economy.pillage,
    "combat.die" => combat.die,
}

/// The dice key named `key`.
pub fn dice_key(key: &str) -> Option<&'static DiceKey> {
    DICE_KEYS.iter().find(|k| k.key == key)
}

/// The rule key named `key`.
pub fn rule_key(key: &str) -> Option<&'static RuleKey> {
    RULE_KEYS.iter().find(|k| k.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each key's getter and setter reach the field its path names: the
    /// value read equals the scenario's TOML form at that path, and a set
    /// value reads back.
    #[test]
    fn every_key_reads_and_writes_the_field_its_path_names() {
        let sc = Scenario::default();
        let toml = toml::Value::try_from(&sc).unwrap();
        for k in RULE_KEYS {
            let at = k.key.split('.').try_fold(&toml, |v, part| v.get(part));
            let at = at.and_then(|v| v.as_integer().map(|i| i as f64).or_else(|| v.as_float()));
            assert_eq!(at, Some((k.get)(&sc)), "{}", k.key);
            let mut s = sc.clone();
            let v = if k.hi.is_finite() { k.hi } else { k.lo + 7.0 };
            (k.set)(&mut s, v);
            assert_eq!((k.get)(&s), v, "{}", k.key);
            assert!(k.contains((k.get)(&sc)), "{}: the default is outside its range", k.key);
        }
        let keys: std::collections::BTreeSet<_> = RULE_KEYS.iter().map(|k| k.key).collect();
        assert_eq!(keys.len(), RULE_KEYS.len(), "a key is listed twice");
    }

    /// Each `AT_MOST` pair is a rule of the checker: the first key one
    /// above the second is refused, equal to it is accepted.
    #[test]
    fn every_at_most_pair_is_a_rule_of_the_checker() {
        for (a, b) in AT_MOST {
            let (ka, kb) = (rule_key(a).unwrap(), rule_key(b).unwrap());
            let mut s = Scenario::default();
            (kb.set)(&mut s, 2.0);
            (ka.set)(&mut s, 2.0);
            assert!(super::super::check::check(&s).is_empty(), "{a} = {b} is refused");
            (ka.set)(&mut s, 3.0);
            assert!(!super::super::check::check(&s).is_empty(), "{a} above {b} is accepted");
        }
    }

    /// Each dice key's getter and setter reach the field its path names,
    /// and every dice value of the defaults has its key here.
    #[test]
    fn every_dice_key_reads_and_writes_the_field_its_path_names() {
        let sc = Scenario::default();
        let toml = toml::Value::try_from(&sc).unwrap();
        for k in DICE_KEYS {
            let at = k.key.split('.').try_fold(&toml, |v, part| v.get(part)).and_then(|v| v.as_str());
            assert_eq!(at.map(|s| s.parse::<DiceExpr>().unwrap()), (k.get)(&sc), "{}", k.key);
            let mut s = sc.clone();
            (k.set)(&mut s, DiceExpr::new(4, 8, 3));
            assert_eq!((k.get)(&s), Some(DiceExpr::new(4, 8, 3)), "{}", k.key);
        }
        let dice = |v: &toml::Value| v.as_str().is_some_and(|s| s.parse::<DiceExpr>().is_ok());
        for section in ["economy", "combat"] {
            let mut stack = vec![(section.to_string(), &toml[section])];
            while let Some((path, v)) = stack.pop() {
                match v {
                    toml::Value::Table(t) => stack.extend(t.iter().map(|(k, x)| (format!("{path}.{k}"), x))),
                    x if dice(x) => assert!(dice_key(&path).is_some(), "{path} has no DiceKey"),
                    _ => {}
                }
            }
        }
    }

    /// Numeric keys of the rules that have no range of their own here: each
    /// is bounded only by other keys, checked in `check.rs`. A new numeric
    /// key must be added to `RULE_KEYS` or here, with its reason.
    const BOUNDED_BY_OTHERS: &[&str] = &[
        "campaign.land_share_to_win", // in (0, 1]: open below
        "costs.siege_win_gap",        // any gap
        "army.formations.at_xp",      // any experience level
        "siege.stability_min",        // at most siege.stability_max
        "siege.stability_max",
        "naval.strength_offset", // one ship's strength stays at least 0
        "spy.base",              // any base score
        "cities.stability_min",  // the track holds 0
        "cities.stability_max",
        "cities.owned_influence", // above cities.federated_influence
        "cities.federated_influence",
        "cities.built.stability", // on the stability track
        "cities.capital.stability",
        "cities.neutral.stability",
        "siege.outcomes.conquer.stability_change", // any change: the track clamps it
        "siege.outcomes.federate.stability_change",
        "siege.outcomes.pillage.stability_change",
        "start.min_capital_distance", // as far as the map allows
        "tables.siege_army_extra",    // ranges of the exact tables
        "tables.siege_city_base",
        "tables.fair_chance",        // analysis only, 0..1 (check.rs): nothing to vary in play
        "tables.fair_loss",          // analysis only, at least 0 (check.rs)
        "tables.fair_units_per_pv",  // analysis only, at least 0 (check.rs)
        "tables.fair_sea_land",      // analysis only, at least 0 (check.rs)
        "tables.exchange.army_unit", // analysis only, above 0 (check.rs)
        "tables.exchange.city_pv",
        "tables.exchange.ship_pv",
        "tables.exchange.building_pv",
        "tables.exchange.spy",
        "tables.exchange.spy_action",
    ];

    /// Every numeric key of the rules' sections has its range here, or is
    /// listed as bounded by other keys. (Strategies have `knobs::KNOBS`;
    /// the generated map's keys are checked with the map.)
    #[test]
    fn every_numeric_key_of_the_rules_has_a_range() {
        fn leaves(prefix: &str, v: &toml::Value, out: &mut Vec<String>) {
            match v {
                toml::Value::Table(t) => {
                    for (k, x) in t {
                        leaves(&if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, x, out)
                    }
                }
                toml::Value::Integer(_) | toml::Value::Float(_) => out.push(prefix.to_string()),
                _ => {}
            }
        }
        let mut keys = Vec::new();
        leaves("", &toml::Value::try_from(Scenario::default()).unwrap(), &mut keys);
        let missing: Vec<&String> = keys
            .iter()
            .filter(|k| !k.starts_with("strategies.") && !k.starts_with("map."))
            .filter(|k| rule_key(k).is_none() && !BOUNDED_BY_OTHERS.contains(&k.as_str()))
            .collect();
        assert!(missing.is_empty(), "numeric keys with no range in RULE_KEYS: {missing:?}");
        for k in BOUNDED_BY_OTHERS {
            assert!(keys.iter().any(|x| x == k), "{k} is not a numeric key");
        }
    }
}
