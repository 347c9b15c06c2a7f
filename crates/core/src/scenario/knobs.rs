//! The numeric keys of a strategy (G-30) and their ranges: the one place
//! that says which numbers shape a weighted player and what each may be.
//!
//! Three readers share this table, so they can never disagree:
//! - `scenario::check` refuses a value outside its range;
//! - `strength::tune` searches exactly these ranges;
//! - `strength::deviation` moves one key at a time within them.
//!
//! The ranges are wide enough for every archetype and for any sensible
//! designer's player, and narrow enough that a search over them is not
//! mostly spent in nonsense (a utility of 500 behaves like one of 20: it
//! always wins the comparison). Utilities start at 0 because `Done` scores
//! 0: a utility at or below 0 already means "never".

use super::{FormationChoice, SiegeChoice, StrategySpec};

/// One numeric key of `S` (a strategy's `StrategySpec` here, the whole
/// `Scenario` for the rules' keys in `ranges.rs`) and its range.
pub struct Knob<S: 'static = StrategySpec> {
    /// The key (a strategy's), or its dotted path (the rules').
    pub key: &'static str,
    pub lo: f64,
    /// `ranges::OPEN` when unbounded.
    pub hi: f64,
    /// Stored as a whole number; setters round.
    pub integer: bool,
    pub get: fn(&S) -> f64,
    pub set: fn(&mut S, f64),
}

// Derived `Clone`/`Copy` would demand `S: Copy`; the fields are copyable
// whatever `S` is.
impl<S> Clone for Knob<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Knob<S> {}

impl<S> std::fmt::Debug for Knob<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} [{}, {}]", self.key, self.lo, self.hi)
    }
}

impl<S> Knob<S> {
    /// Why `v` is out of range, in the checker's words; `None` in range.
    pub fn problem(&self, v: f64) -> Option<String> {
        let show = |x: f64| if self.integer { format!("{}", x as i64) } else { format!("{x}") };
        if !self.integer && self.lo == 0.0 && self.hi == 1.0 && !self.contains(v) {
            return Some(format!("must be a share between 0 and 1 (found {})", show(v)));
        }
        if v < self.lo {
            return Some(if self.lo == 0.0 {
                format!("must not be negative (found {})", show(v))
            } else {
                format!("must be at least {} (found {})", show(self.lo), show(v))
            });
        }
        if v > self.hi {
            return Some(format!("must be at most {} (found {})", show(self.hi), show(v)));
        }
        None
    }

    /// The value clamped into range (rounded for whole-number keys).
    pub fn clamp(&self, v: f64) -> f64 {
        let v = if self.integer { v.round() } else { v };
        v.clamp(self.lo, self.hi)
    }

    pub fn contains(&self, v: f64) -> bool {
        v.is_finite() && (self.lo..=self.hi).contains(&v)
    }

    /// The range as the docs write it: `float 0–10`, `integer 1–10`.
    pub fn doc_type(&self) -> String {
        let kind = if self.integer { "integer" } else { "float" };
        format!("{kind} {}–{}", fmt_bound(self.lo), fmt_bound(self.hi))
    }
}

fn fmt_bound(v: f64) -> String {
    if v.fract() == 0.0 { format!("{}", v as i64) } else { format!("{v}") }
}

macro_rules! knobs {
    ($( $key:ident : $ty:tt [$lo:expr, $hi:expr] ),* $(,)?) => {
        /// Every numeric key of a weighted player, in `StrategySpec` order.
        pub static KNOBS: &[Knob] = &[ $( knobs!(@one $key $ty $lo, $hi) ),* ];
    };
    (@one $key:ident f64 $lo:expr, $hi:expr) => {
        Knob { key: stringify!($key), lo: $lo, hi: $hi, integer: false,
               get: |s| s.$key, set: |s, v| s.$key = v }
    };
    (@one $key:ident i32 $lo:expr, $hi:expr) => {
        Knob { key: stringify!($key), lo: $lo as f64, hi: $hi as f64, integer: true,
               get: |s| s.$key as f64, set: |s, v| s.$key = v.round() as i32 }
    };
}

knobs! {
    // EP spending (E-06..E-15).
    capture: f64 [0.0, 10.0],
    conquer: f64 [0.0, 10.0],
    castle: f64 [0.0, 10.0],
    city: f64 [0.0, 10.0],
    mine: f64 [0.0, 10.0],
    port: f64 [0.0, 10.0],
    tower: f64 [0.0, 10.0],
    bridge: f64 [0.0, 10.0],
    pillage: f64 [0.0, 10.0],
    mine_site: f64 [0.0, 5.0],
    fortified: f64 [0.0, 5.0],
    replace: f64 [0.0, 5.0],
    gold_glut: f64 [0.0, 5.0],
    capture_slope: f64 [-10.0, 10.0],
    conquer_slope: f64 [-10.0, 10.0],
    castle_slope: f64 [-10.0, 10.0],
    city_slope: f64 [-10.0, 10.0],
    mine_slope: f64 [-10.0, 10.0],
    port_slope: f64 [-10.0, 10.0],
    tower_slope: f64 [-10.0, 10.0],
    bridge_slope: f64 [-10.0, 10.0],
    pillage_slope: f64 [-10.0, 10.0],
    // Recruiting (G-13).
    unit: f64 [0.0, 10.0],
    ship: f64 [0.0, 10.0],
    spy: f64 [0.0, 10.0],
    engine: f64 [0.0, 10.0],
    engine_min_units: i32 [0, 10],
    engine_extra: f64 [0.0, 1.0],
    reserve: i32 [0, 1000],
    unit_saturation: f64 [0.5, 30.0],
    unit_alone: f64 [0.0, 2.0],
    // Action phase (G-04).
    attack: f64 [0.0, 20.0],
    siege: f64 [0.0, 20.0],
    naval: f64 [0.0, 20.0],
    coastal: f64 [0.0, 20.0],
    advance: f64 [0.0, 10.0],
    transport: f64 [0.0, 10.0],
    sail: f64 [0.0, 10.0],
    aggression: f64 [-10.0, 10.0],
    siege_aggression: f64 [-10.0, 10.0],
    attack_ep: f64 [0.0, 10.0],
    attack_units: f64 [0.0, 10.0],
    garrison: i32 [1, 10],
    hold: f64 [0.0, 5.0],
    // Spies (W-20..W-25, G-28).
    spy_sabotage: f64 [0.0, 10.0],
    spy_steal: f64 [0.0, 10.0],
    spy_destabilize: f64 [0.0, 10.0],
    spy_damage: f64 [0.0, 10.0],
    spy_duel: f64 [0.0, 10.0],
    spy_steal_poor: f64 [0.0, 1.0],
    spy_defence: f64 [0.0, 5.0],
    jitter: f64 [0.0, 1.0],
    // Bids (G-07).
    bid_attack: f64 [0.0, 1.0],
    bid_defend: f64 [0.0, 1.0],
}

/// The knob named `key`.
pub fn knob(key: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.key == key)
}

/// The keys a tuning started from `spec` moves: every numeric key but
/// those it keeps (`tune_keep`), in `KNOBS` order.
pub fn tunable(spec: &StrategySpec) -> Vec<String> {
    KNOBS.iter().filter(|k| !spec.tune_keep.iter().any(|t| t == k.key)).map(|k| k.key.to_string()).collect()
}

/// The choice keys: not numbers, so tuning leaves them as they are; the
/// deviation check tries every other value of each.
pub const CHOICES: &[&str] = &["formation", "siege_outcome"];

/// Every value a choice key can take, as TOML strings.
pub fn choice_values(key: &str) -> &'static [&'static str] {
    match key {
        "formation" => &["light", "assault", "siege"],
        "siege_outcome" => &["conquer", "federate", "pillage"],
        _ => &[],
    }
}

/// A choice key's value as its TOML string.
pub fn choice_of(spec: &StrategySpec, key: &str) -> &'static str {
    match key {
        "formation" => match spec.formation {
            FormationChoice::Light => "light",
            FormationChoice::Assault => "assault",
            FormationChoice::Siege => "siege",
        },
        "siege_outcome" => match spec.siege_outcome {
            SiegeChoice::Conquer => "conquer",
            SiegeChoice::Federate => "federate",
            SiegeChoice::Pillage => "pillage",
        },
        _ => "",
    }
}

/// Set a choice key from its TOML string; false for an unknown key or value.
pub fn set_choice(spec: &mut StrategySpec, key: &str, value: &str) -> bool {
    match (key, value) {
        ("formation", "light") => spec.formation = FormationChoice::Light,
        ("formation", "assault") => spec.formation = FormationChoice::Assault,
        ("formation", "siege") => spec.formation = FormationChoice::Siege,
        ("siege_outcome", "conquer") => spec.siege_outcome = SiegeChoice::Conquer,
        ("siege_outcome", "federate") => spec.siege_outcome = SiegeChoice::Federate,
        ("siege_outcome", "pillage") => spec.siege_outcome = SiegeChoice::Pillage,
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_archetype_sits_inside_every_range() {
        for (name, spec) in super::super::archetypes() {
            for k in KNOBS {
                assert!(k.contains((k.get)(spec)), "{name}.{} = {} is outside {:?}", k.key, (k.get)(spec), k);
            }
        }
    }

    #[test]
    fn get_reads_what_set_wrote() {
        let mut s = StrategySpec::default();
        for (i, k) in KNOBS.iter().enumerate() {
            let v = k.clamp(k.lo + (k.hi - k.lo) * ((i % 7) as f64 + 1.0) / 9.0);
            (k.set)(&mut s, v);
            assert_eq!((k.get)(&s), v, "{}", k.key);
        }
        let keys: std::collections::BTreeSet<_> = KNOBS.iter().map(|k| k.key).collect();
        assert_eq!(keys.len(), KNOBS.len(), "a key is listed twice");
    }

    /// A numeric key added to `StrategySpec` without a range here fails.
    #[test]
    fn every_numeric_key_of_a_weighted_player_has_a_range() {
        let v = toml::Value::try_from(StrategySpec::default()).unwrap();
        let lookahead_only = [
            "rollouts",
            "horizon",
            "width",
            "budget",
            "top_k",
            "temperature",
            "explore",
            "explore_kinds",
            "margin_weight",
        ];
        for (key, value) in v.as_table().unwrap() {
            let numeric = matches!(value, toml::Value::Float(_) | toml::Value::Integer(_));
            if numeric && !lookahead_only.contains(&key.as_str()) {
                assert!(knob(key).is_some(), "{key} has no range in KNOBS");
            }
            if value.is_str() && !["kind", "base", "prior"].contains(&key.as_str()) {
                assert!(CHOICES.contains(&key.as_str()), "{key} is a choice missing from CHOICES");
            }
        }
    }
}
