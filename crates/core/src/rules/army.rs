//! Army against army (W-01..W-07, G-06, G-08, G-09, G-10).

use super::action::{Action, CombatKind, Decision};
use super::event::{CombatRecord, Event, ScoreParts};
use super::state::{PlayerId, Slot, State};
use super::{Dice, Engine, Log, Players, Rules};
use crate::scenario::{BattleResult, FormationChoice, Scenario};

/// W-05: defence an army adds when stationed in its own city or in a
/// defensive building of its own.
pub fn garrison_defence(r: Rules<'_>, st: &State, army: usize) -> i32 {
    let a = &st.armies[army];
    let hs = &st.hexes[a.hex as usize];
    if let Some(c) = st.city_at(a.hex) {
        let city = &st.cities[c];
        let own = city.controller.is(a.owner) && r.sc.buildings.city.garrison;
        return if own { city.defence } else { 0 };
    }
    if !hs.owner.is(a.owner) {
        return 0;
    }
    let mut d = 0;
    for b in [hs.main, hs.extra].into_iter().flatten() {
        let spec = r.sc.building(b);
        if spec.garrison {
            d = d.max(spec.defence);
        }
    }
    d
}

/// W-02 / G-06 / W-07: one side's score before bid and die.
pub fn army_parts(r: Rules<'_>, st: &State, army: usize, defending: bool) -> ScoreParts {
    let a = &st.armies[army];
    let mut order =
        if a.formation == Some(FormationChoice::Assault) { r.sc.army.formations.assault_strength } else { 0 };
    let mut defence = 0;
    if defending {
        order += *r.sc.army.defender_terrain.get(r.map.terrain[a.hex as usize]);
        defence = garrison_defence(r, st, army);
    }
    ScoreParts { units: a.units, xp: a.xp, order, defence, ..ScoreParts::default() }
}

/// W-03: the row of `army.losses` that a score gap (attacker minus
/// defender) hits, and the units the attacker and the defender lose. At a
/// tie both sides take the loser's column. Shared by the engine and the
/// exact tables (`analysis`), so both read the table the same way.
pub fn army_losses(sc: &Scenario, gap: i32) -> (usize, i32, i32) {
    let row_i = sc.army.losses.row_index(gap.abs());
    let row = &sc.army.losses.rows[row_i];
    let (a, d) = match gap {
        g if g > 0 => (row.winner_loss, row.loser_loss),
        g if g < 0 => (row.loser_loss, row.winner_loss),
        _ => (row.loser_loss, row.loser_loss),
    };
    (row_i, a, d)
}

impl<D: Dice, P: Players, L: Log> Engine<'_, D, P, L> {
    /// Remove an army at 0 units (G-08).
    pub(crate) fn destroy_army(&mut self, st: &mut State, army: usize) {
        let a = &mut st.armies[army];
        a.units = 0;
        a.engines = 0;
        a.alive = false;
        let h = a.hex as usize;
        if st.hexes[h].army == Slot::of(army) {
            st.hexes[h].army = Slot::EMPTY;
        }
    }

    /// W-06 / G-09: +1 experience for a victory, at most once per season; at
    /// the formation threshold the owner picks a permanent formation (W-07).
    pub(crate) fn gain_xp(&mut self, st: &mut State, army: usize) {
        let sc = self.sc();
        let a = &mut st.armies[army];
        if !a.alive || a.xp_gained || a.xp >= sc.army.xp_max {
            return;
        }
        a.xp = (a.xp + sc.army.xp_per_win).min(sc.army.xp_max);
        a.xp_gained = true;
        let xp = a.xp;
        self.emit(|| Event::Xp { army: army as u16, xp });
        if st.armies[army].formation.is_none() && xp >= sc.army.formations.at_xp {
            let owner = st.armies[army].owner;
            self.buf.clear();
            for f in [FormationChoice::Light, FormationChoice::Assault, FormationChoice::Siege] {
                self.buf.push(Action::Formation(f));
            }
            if let Action::Formation(f) = self.ask(st, owner, Decision::Formation { army: army as u16 }) {
                // Light's extra movement applies from the next season's reset.
                st.armies[army].formation = Some(f);
                self.emit(|| Event::Formation { army: army as u16, formation: f });
            }
        }
    }

    /// W-01 / G-14: victory loot.
    pub(crate) fn loot(&mut self, st: &mut State, p: PlayerId, gold: i32) {
        if p == super::NOBODY || gold == 0 {
            return;
        }
        let pl = &mut st.players[p as usize];
        pl.gold += gold as i64;
        pl.tally.gold_loot += gold as i64;
        self.emit(|| Event::Loot { player: p, gold: gold as i64 });
    }

    /// W-02..W-06: army `att` attacks army `def` on an adjacent hex. The
    /// combat is resolved at once (W-01); the loser does not move (G-08).
    pub fn army_combat(&mut self, st: &mut State, att: usize, def: usize) -> CombatRecord {
        let sc = self.sc();
        let (pa, pd) = (st.armies[att].owner, st.armies[def].owner);
        st.armies[att].attacked = true;
        st.armies[att].mp = 0;
        let mut a = army_parts(self.rules, st, att, false);
        let mut d = army_parts(self.rules, st, def, true);
        let (ab, db) = self.bids(st, pa, pd, CombatKind::Army, sc.army.bid_cap);
        a.bid = ab;
        d.bid = db;
        a.die = self.die();
        d.die = self.die();
        let gap = a.total() - d.total();
        let (row_i, a_loss, d_loss) = army_losses(sc, gap);
        // The units each side really loses: a table loss beyond an army's
        // units is not a loss (the record and the log say what happened).
        let (a_units, d_units) = (st.armies[att].units, st.armies[def].units);
        let (a_loss, d_loss) = (a_loss.min(a_units).max(0), d_loss.min(d_units).max(0));
        st.armies[att].units = a_units - a_loss;
        st.armies[def].units = d_units - d_loss;
        let a_destroyed = st.armies[att].units == 0;
        let d_destroyed = st.armies[def].units == 0;
        if a_destroyed {
            self.destroy_army(st, att);
        }
        if d_destroyed {
            self.destroy_army(st, def);
        }
        // G-10: results for EP. "The enemy army destroyed" is a massacre for
        // the winner by gap, even when its own army died too (unless the
        // scenario keeps the older reading).
        // With `ep.single_unit_massacre = false`, destroying a lone unit is
        // not a massacre by destruction.
        let both = sc.ep.massacre_if_both_destroyed;
        let counts = |units: i32| sc.ep.single_unit_massacre || units > 1;
        let (a_res, d_res) = match gap {
            g if g > 0 => {
                (self.result_for_gap(g, d_destroyed && counts(d_units) && (both || !a_destroyed)), BattleResult::Defeat)
            }
            g if g < 0 => (
                BattleResult::Defeat,
                self.result_for_gap(-g, a_destroyed && counts(a_units) && (both || !d_destroyed)),
            ),
            _ => {
                let draw = self.result_for_gap(0, false);
                (draw, draw)
            }
        };
        self.record_battle(st, pa, a_res);
        self.record_battle(st, pd, d_res);
        st.players[pa as usize].tally.army_results[a_res.max(d_res) as usize] += 1;
        let rec = CombatRecord {
            kind: CombatKind::Army,
            attacker: pa,
            defender: pd,
            from: st.armies[att].hex,
            target: st.armies[def].hex,
            a_piece: att as u16,
            d_piece: def as u16,
            a,
            d,
            gap,
            row: row_i as u8,
            a_loss,
            d_loss,
            a_destroyed,
            d_destroyed,
            a_result: Some(a_res),
            d_result: Some(d_res),
            spy_kind: None,
            success: gap > 0,
        };
        self.emit(|| Event::Combat(rec));
        if gap != 0 {
            let (w, wp, lp) = if gap > 0 { (att, pa, pd) } else { (def, pd, pa) };
            st.players[wp as usize].beaten |= 1 << lp;
            // W-06 read literally (`army.xp_needs_destroyed`): only a victory
            // that destroys the whole enemy army gives experience.
            let loser_destroyed = if gap > 0 { d_destroyed } else { a_destroyed };
            if !sc.army.xp_needs_destroyed || loser_destroyed {
                self.gain_xp(st, w);
            }
            self.loot(st, wp, sc.army.victory_loot);
        }
        rec
    }
}
