//! Combats fought to the end, exactly, as absorbing Markov chains.
//!
//! - **Sieges.** An army of `u` units (plus a fixed extra: experience,
//!   engines, bid) assaults a city of `pv` PV and a fixed score until the
//!   city falls (PV 0 or less; it falls even if the army dies in the same
//!   assault, as in the engine) or the army is spent. As the army loses
//!   units its score falls, so each state has its own odds. The city does
//!   not recover between assaults (it is besieged every season).
//! - **Naval battles.** `n` ships against `m`, each side's strength from its
//!   ships alive (G-25), no bids, no port, until one side has no ship left.
//!   Each point of damage goes to the healthiest ship, as the weighted
//!   player chooses (G-26).
//!
//! Every state either moves toward an end or stays put (a row that costs
//! nobody anything); a state that stays put with probability `s` is solved
//! by dividing by `1 - s`. The results are exact up to floating point
//! rounding (far below 1e-12).

use super::combat::effect;
use super::dice::{Distribution, difference};
use crate::rules::CombatKind;
use crate::rules::naval::naval_strength;
use crate::rules::siege::siege_effect;
use crate::scenario::Scenario;
use std::collections::HashMap;

/// A siege fought to the end from (city PV, army units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SiegeEnd {
    pub city_pv: i32,
    pub units: i32,
    /// Expected assaults until the city falls or the army is spent.
    pub assaults: f64,
    /// Expected units the army loses.
    pub units_spent: f64,
    /// Probability the army is spent before the city falls.
    pub army_spent_first: f64,
    /// Probability the city falls (in the assault that spends the army
    /// too, as in the engine), summed over the paths that take it: exactly
    /// 0 when no path does, where `1 - army_spent_first` would leave
    /// rounding. Short of 1 − `army_spent_first` only when the chain may
    /// never end.
    pub falls: f64,
    /// False when some state can loop forever (a row that costs nobody
    /// anything and is certain): the other fields are then infinite or 0.
    pub ends: bool,
}

/// The siege chains of the scenario's `[tables]` grid.
pub fn sieges(sc: &Scenario) -> Vec<SiegeEnd> {
    let t = &sc.tables;
    // The dice noise of one exchange, shared by every state.
    let noise = difference(&sc.combat.die);
    let mut memo = HashMap::new();
    let mut out = Vec::new();
    for pv in t.siege_city_pv[0]..=t.siege_city_pv[1] {
        for u in t.siege_army_units[0]..=t.siege_army_units[1] {
            let (assaults, units_spent, spent, falls, ends) = siege_state(sc, &noise, pv, u, &mut memo);
            out.push(SiegeEnd { city_pv: pv, units: u, assaults, units_spent, army_spent_first: spent, falls, ends });
        }
    }
    out
}

type SiegeValue = (f64, f64, f64, f64, bool);

fn siege_state(
    sc: &Scenario,
    noise: &Distribution,
    pv: i32,
    u: i32,
    memo: &mut HashMap<(i32, i32), SiegeValue>,
) -> SiegeValue {
    if let Some(v) = memo.get(&(pv, u)) {
        return *v;
    }
    let t = &sc.tables;
    let total = noise.total as f64;
    let base_gap = (u + t.siege_army_extra - t.siege_city_base) as i64;
    let (mut stay, mut assaults, mut spent_units, mut spent_first, mut falls, mut ends) =
        (0.0, 1.0, 0.0, 0.0, 0.0, true);
    for &(x, n) in &noise.values {
        let p = n as f64 / total;
        let gap = (base_gap + x) as i32;
        let (_, city_loss, army_loss) = siege_effect(sc, gap, false);
        let (npv, nu) = (pv - city_loss, u - army_loss);
        spent_units += p * army_loss.min(u) as f64;
        if city_loss == 0 && army_loss == 0 {
            stay += p;
        } else if npv <= 0 {
            falls += p;
        } else if nu <= 0 {
            spent_first += p;
        } else {
            let (a, s, f, t, e) = siege_state(sc, noise, npv, nu, memo);
            assaults += p * a;
            spent_units += p * s;
            spent_first += p * f;
            falls += p * t;
            ends &= e;
        }
    }
    let v = if stay >= 1.0 {
        (f64::INFINITY, 0.0, 0.0, 0.0, false)
    } else {
        let k = 1.0 / (1.0 - stay);
        (assaults * k, spent_units * k, spent_first * k, falls * k, ends)
    };
    memo.insert((pv, u), v);
    v
}

/// A naval battle fought to destruction, `ships` against `enemy`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NavalEnd {
    pub ships: i32,
    pub enemy: i32,
    /// The attacker sinks every enemy ship and keeps at least one.
    pub win: f64,
    /// Both fleets sink in the same exchange.
    pub both_sunk: f64,
    /// Expected attacker ships afloat at the end (0 when it lost).
    pub survivors: f64,
    /// Expected exchanges (combats) until the end.
    pub exchanges: f64,
    pub ends: bool,
}

/// Ship PVs of one fleet, healthiest first.
type Fleet = Vec<i32>;

/// Apply `hits` points of damage, each to the healthiest ship (G-26 as the
/// weighted player plays it).
fn damage(mut f: Fleet, hits: i64) -> Fleet {
    for _ in 0..hits {
        if f.is_empty() {
            break;
        }
        f[0] -= 1;
        f.retain(|&pv| pv > 0);
        f.sort_unstable_by(|a, b| b.cmp(a));
    }
    f
}

/// The naval chains of the scenario's `[tables]` grid.
pub fn naval(sc: &Scenario) -> Vec<NavalEnd> {
    let t = &sc.tables;
    let noise = difference(&sc.combat.die);
    let mut memo = HashMap::new();
    let mut out = Vec::new();
    for n in t.naval_ships[0]..=t.naval_ships[1] {
        for m in t.naval_ships[0]..=t.naval_ships[1] {
            let a: Fleet = vec![sc.naval.ship_pv; n.max(0) as usize];
            let d: Fleet = vec![sc.naval.ship_pv; m.max(0) as usize];
            let (win, both, survivors, exchanges, ends) = naval_state(sc, &noise, a, d, &mut memo);
            out.push(NavalEnd { ships: n, enemy: m, win, both_sunk: both, survivors, exchanges, ends });
        }
    }
    out
}

type NavalValue = (f64, f64, f64, f64, bool);

fn naval_state(
    sc: &Scenario,
    noise: &Distribution,
    a: Fleet,
    d: Fleet,
    memo: &mut HashMap<(Fleet, Fleet), NavalValue>,
) -> NavalValue {
    match (a.is_empty(), d.is_empty()) {
        (true, true) => return (0.0, 1.0, 0.0, 0.0, true),
        (false, true) => return (1.0, 0.0, a.len() as f64, 0.0, true),
        (true, false) => return (0.0, 0.0, 0.0, 0.0, true),
        _ => {}
    }
    if let Some(v) = memo.get(&(a.clone(), d.clone())) {
        return *v;
    }
    let total = noise.total as f64;
    let base_gap = (naval_strength(sc, a.len() as i32) - naval_strength(sc, d.len() as i32)) as i64;
    let (mut stay, mut win, mut both, mut surv, mut ex, mut ends) = (0.0, 0.0, 0.0, 0.0, 1.0, true);
    for &(x, n) in &noise.values {
        let p = n as f64 / total;
        let (_, al, dl) = effect(sc, CombatKind::Naval, (base_gap + x) as i32);
        if al == 0 && dl == 0 {
            stay += p;
            continue;
        }
        let (w, b, s, e, en) = naval_state(sc, noise, damage(a.clone(), al), damage(d.clone(), dl), memo);
        win += p * w;
        both += p * b;
        surv += p * s;
        ex += p * e;
        ends &= en;
    }
    let v = if stay >= 1.0 {
        (0.0, 0.0, 0.0, f64::INFINITY, false)
    } else {
        let k = 1.0 / (1.0 - stay);
        (win * k, both * k, surv * k, ex * k, ends)
    };
    memo.insert((a, d), v);
    v
}
