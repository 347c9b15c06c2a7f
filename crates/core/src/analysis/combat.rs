//! One combat resolution, exactly: for each (attacker base, defender base)
//! cell, every pair of die faces is enumerated, the gap is read through the
//! engine's own table functions, and the outcomes are counted.
//!
//! A side's *base* is its score before the die: units, experience, bid,
//! battle order, defence, engines, level, stability, strength, port. Every
//! count is over `den` equally likely face pairs, so each probability and
//! expectation is an exact rational.

use super::dice::{Distribution, difference};
use crate::rules::CombatKind;
use crate::rules::army::army_losses;
use crate::rules::naval::naval_losses;
use crate::rules::siege::siege_effect;
use crate::rules::spy::{duel_effect, spy_effect};
use crate::scenario::Scenario;

/// What one row of a table does, for display and for comparing rows.
#[derive(Clone, Debug, PartialEq)]
pub struct RowInfo {
    /// The gaps it covers, `from..=to` (`None`: open on that side).
    pub from: Option<i32>,
    pub to: Option<i32>,
    /// What it does: two rows with equal effects do the same thing.
    pub effect: RowEffect,
}

/// A row's effect, as the scenario's table states it (the report words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowEffect {
    Army { winner_loss: i32, loser_loss: i32 },
    Siege { city_pv: i32, army_loss: i32 },
    Naval { winner_pv: i32, loser_pv: i32 },
    Spy { success: bool, spy_lost: bool },
    Duel { loser_lost: bool, winner_spent: bool },
}

/// What a side's expected loss counts (`Table::a_loss_unit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossUnit {
    Units,
    ArmyUnits,
    CityPv,
    ShipPv,
    BuildingPv,
    SpiesLost,
    /// The defender's side of a spy action: the actions that work.
    ActionsThatWork,
}

/// One cell of a table: a combat between these two bases.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub attacker: i32,
    pub defender: i32,
    /// Face pairs where the attacker's total is above, equal to, below the defender's.
    pub win: u64,
    pub tie: u64,
    pub lose: u64,
    /// Face pairs that hit each row of the table.
    pub rows: Vec<u64>,
    /// Sums over face pairs of what each side loses (see `Table::a_loss_unit`).
    pub a_loss: i64,
    pub d_loss: i64,
}

/// The exact table of one combat kind over the scenario's grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub kind: CombatKind,
    /// Face pairs per cell: every count is over this.
    pub den: u64,
    pub rows: Vec<RowInfo>,
    /// What `a_loss` and `d_loss` count.
    pub a_loss_unit: LossUnit,
    pub d_loss_unit: LossUnit,
    pub attackers: Vec<i32>,
    pub defenders: Vec<i32>,
    /// Attacker-major: `cells[i * defenders.len() + j]`.
    pub cells: Vec<Cell>,
}

impl Table {
    pub fn cell(&self, attacker: i32, defender: i32) -> Option<&Cell> {
        let i = self.attackers.iter().position(|&a| a == attacker)?;
        let j = self.defenders.iter().position(|&d| d == defender)?;
        self.cells.get(i * self.defenders.len() + j)
    }
}

/// The row hit by a gap and what each side loses, as the engine reads it.
pub fn effect(sc: &Scenario, kind: CombatKind, gap: i32) -> (usize, i64, i64) {
    match kind {
        CombatKind::Army => {
            let (r, a, d) = army_losses(sc, gap);
            (r, a as i64, d as i64)
        }
        CombatKind::Siege => {
            // The plain table: no Siege formation bonus.
            let (r, city_pv, army) = siege_effect(sc, gap, false);
            (r, army as i64, city_pv as i64)
        }
        CombatKind::Naval | CombatKind::Coastal => {
            let (r, a, d) = naval_losses(sc, gap);
            (r, a as i64, d as i64)
        }
        CombatKind::Spy => {
            let (r, success, lost) = spy_effect(sc, gap);
            (r, lost as i64, success as i64)
        }
        CombatKind::SpyDuel => {
            let (r, loser_lost, _) = duel_effect(sc, gap);
            let lost = loser_lost as i64;
            (r, if gap < 0 { lost } else { 0 }, if gap > 0 { lost } else { 0 })
        }
    }
}

fn units(kind: CombatKind) -> (LossUnit, LossUnit) {
    use LossUnit::*;
    match kind {
        CombatKind::Army => (Units, Units),
        CombatKind::Siege => (ArmyUnits, CityPv),
        CombatKind::Naval => (ShipPv, ShipPv),
        CombatKind::Coastal => (ShipPv, BuildingPv),
        CombatKind::Spy => (SpiesLost, ActionsThatWork),
        CombatKind::SpyDuel => (SpiesLost, SpiesLost),
    }
}

/// The rows of a kind's table, described.
pub fn rows(sc: &Scenario, kind: CombatKind) -> Vec<RowInfo> {
    fn info<R>(rows: &crate::scenario::table::GapTable<R>, effect: impl Fn(&R) -> RowEffect) -> Vec<RowInfo>
    where
        R: crate::scenario::table::GapRow,
    {
        rows.rows.iter().map(|r| RowInfo { from: r.from(), to: r.to(), effect: effect(r) }).collect()
    }
    match kind {
        CombatKind::Army => {
            info(&sc.army.losses, |r| RowEffect::Army { winner_loss: r.winner_loss, loser_loss: r.loser_loss })
        }
        CombatKind::Siege => info(&sc.siege.table, |r| RowEffect::Siege { city_pv: r.city_pv, army_loss: r.army_loss }),
        CombatKind::Naval | CombatKind::Coastal => {
            info(&sc.naval.table, |r| RowEffect::Naval { winner_pv: r.winner_pv, loser_pv: r.loser_pv })
        }
        CombatKind::Spy => info(&sc.spy.table, |r| RowEffect::Spy { success: r.success, spy_lost: r.spy_lost }),
        CombatKind::SpyDuel => {
            info(&sc.spy.duel, |r| RowEffect::Duel { loser_lost: r.loser_lost, winner_spent: r.winner_spent })
        }
    }
}

/// Every cell of a kind's table over the given bases.
pub fn table(sc: &Scenario, kind: CombatKind, attackers: Vec<i32>, defenders: Vec<i32>) -> Table {
    let noise: Distribution = difference(&sc.combat.die);
    let rows = rows(sc, kind);
    let mut cells = Vec::with_capacity(attackers.len() * defenders.len());
    for &a in &attackers {
        for &d in &defenders {
            let mut c = Cell {
                attacker: a,
                defender: d,
                win: 0,
                tie: 0,
                lose: 0,
                rows: vec![0; rows.len()],
                a_loss: 0,
                d_loss: 0,
            };
            for &(x, n) in &noise.values {
                let gap = (a - d) as i64 + x;
                let gap = gap.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                match gap.signum() {
                    1 => c.win += n,
                    0 => c.tie += n,
                    _ => c.lose += n,
                }
                let (row, al, dl) = effect(sc, kind, gap);
                c.rows[row] += n;
                c.a_loss += al * n as i64;
                c.d_loss += dl * n as i64;
            }
            cells.push(c);
        }
    }
    let (a_loss_unit, d_loss_unit) = units(kind);
    Table { kind, den: noise.total, rows, a_loss_unit, d_loss_unit, attackers, defenders, cells }
}

/// The six tables over the scenario's `[tables]` grid. Spy against spy is
/// over the two bids, 0 to `spy.duel_bid_cap`.
pub fn all_tables(sc: &Scenario) -> Vec<Table> {
    let range = |r: [i32; 2]| (r[0]..=r[1]).collect::<Vec<i32>>();
    let (att, def) = (range(sc.tables.attacker_base), range(sc.tables.defender_base));
    let bids: Vec<i32> = (0..=sc.spy.duel_bid_cap.max(0)).collect();
    CombatKind::ALL
        .iter()
        .map(|&k| match k {
            CombatKind::SpyDuel => table(sc, k, bids.clone(), bids.clone()),
            _ => table(sc, k, att.clone(), def.clone()),
        })
        .collect()
}

/// What one army attack is worth to the attacker, exactly over the dice:
/// the EP its result earns it (E-01, G-10) and the units each side loses
/// (W-03). Players weigh a battle with it before they fight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outlook {
    /// Expected EP of the attacker's result.
    pub ep: f64,
    /// Expected units the attacker and the defender lose.
    pub a_loss: f64,
    pub d_loss: f64,
    /// Chance the attacker wins (gap above 0).
    pub win: f64,
}

/// The outlook of an army attack at base gap `gap` (the attacker's score
/// before the die minus the defender's; bids left out) by `a_units` units
/// of player `attacker` against `d_units`, with `noise` the die difference
/// (`dice::difference(&sc.combat.die)`, computed once by the caller). The
/// engine's own functions read every table, as in `resolve_army`.
pub fn army_outlook(
    sc: &Scenario,
    noise: &Distribution,
    gap: i32,
    a_units: i32,
    d_units: i32,
    attacker: u8,
) -> Outlook {
    use crate::rules::empire::{battle_ep, result_for_gap};
    use crate::scenario::BattleResult;
    let counts = |units: i32| sc.ep.single_unit_massacre || units > 1;
    // Sums over face pairs, as integers, divided once: exact rationals.
    let (mut ep, mut a_lost, mut d_lost, mut won) = (0i64, 0i64, 0i64, 0u64);
    for &(d, n) in &noise.values {
        let g = gap + d as i32;
        let (_, a, dl) = army_losses(sc, g);
        let (a, dl) = (a.min(a_units).max(0), dl.min(d_units).max(0));
        let (a_destroyed, d_destroyed) = (a >= a_units, dl >= d_units);
        let both = sc.ep.massacre_if_both_destroyed;
        let result = match g {
            g if g > 0 => result_for_gap(sc, g, d_destroyed && counts(d_units) && (both || !a_destroyed)),
            g if g < 0 => BattleResult::Defeat,
            _ => result_for_gap(sc, 0, false),
        };
        ep += n as i64 * battle_ep(sc, attacker, result) as i64;
        a_lost += n as i64 * a as i64;
        d_lost += n as i64 * dl as i64;
        won += if g > 0 { n } else { 0 };
    }
    let t = noise.total as f64;
    Outlook { ep: ep as f64 / t, a_loss: a_lost as f64 / t, d_loss: d_lost as f64 / t, win: won as f64 / t }
}
