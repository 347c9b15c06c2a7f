//! Army against army (W-01..W-07, G-06, G-08, G-09, G-10).

use super::action::CombatKind;
use super::event::{CombatRecord, Event, ScoreParts};
use super::state::{Fight, PlayerId, Slot, State, Step};
use super::{Dice, Engine, Log, Rules};
use crate::scenario::{BattleResult, FormationChoice, Scenario};

/// W-05: defence an army adds when stationed in its own city or in a
/// defensive building of its own (attacked, or attacking too with
/// `army.garrison_attacks`).
pub fn garrison_defence(r: Rules<'_>, st: &State, army: usize) -> i32 {
    let a = &st.armies[army];
    let hs = &st.hexes[a.hex as usize];
    if let Some(c) = st.city_at(a.hex) {
        let city = &st.cities[c];
        let own = city.controller.is(a.owner) && r.sc.buildings.city.garrison;
        return if own { city.defence } else { 0 };
    }
    if !hs.owner().is(a.owner) {
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
    if defending {
        order += *r.sc.army.defender_terrain.get(r.map.terrain[a.hex as usize]);
    }
    // W-05 names no side; the attacker's garrison counts only with
    // `army.garrison_attacks` (docs/rules.md, readings as keys).
    let defence = if defending || r.sc.army.garrison_attacks { garrison_defence(r, st, army) } else { 0 };
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

impl<D: Dice, L: Log> Engine<'_, D, L> {
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
    /// the formation threshold the owner picks a permanent formation (W-07):
    /// then the formation is the step pending, and `true` is returned.
    pub(crate) fn gain_xp(&mut self, st: &mut State, army: usize) -> bool {
        let sc = self.sc();
        let a = &mut st.armies[army];
        if !a.alive || a.xp_gained || a.xp >= sc.army.xp_max {
            return false;
        }
        a.xp = (a.xp + sc.army.xp_per_win).min(sc.army.xp_max);
        a.xp_gained = true;
        let (xp, owner) = (a.xp, a.owner);
        st.players[owner as usize].tally.xp_gained += 1;
        self.emit(|| Event::Xp { army: army as u16, xp });
        if st.armies[army].formation.is_none() && xp >= sc.army.formations.at_xp {
            st.step = Step::Formation { army: army as u16 };
            return true;
        }
        false
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

    /// The army combat begins: the attacker is spent, both sides' parts
    /// are counted, and the bids come next.
    pub fn begin_army_combat(&mut self, st: &mut State, att: usize, def: usize) {
        let sc = self.sc();
        let (pa, pd) = (st.armies[att].owner, st.armies[def].owner);
        st.armies[att].attacked = true;
        st.armies[att].mp = 0;
        let mut rec = CombatRecord::new(CombatKind::Army, pa, pd, st.armies[att].hex, st.armies[def].hex);
        rec.a_piece = att as u16;
        rec.d_piece = def as u16;
        rec.a = army_parts(self.rules, st, att, false);
        rec.d = army_parts(self.rules, st, def, true);
        self.begin_fight(st, Fight::new(rec, sc.army.bid_cap, true));
    }

    /// The dice, the losses, the results for EP and the winner's
    /// experience; the loot follows (after the formation, if one is picked).
    pub(crate) fn resolve_army(&mut self, st: &mut State) {
        let sc = self.sc();
        let mut rec = st.fight.rec;
        let (att, def) = (rec.a_piece as usize, rec.d_piece as usize);
        let (pa, pd) = (rec.attacker, rec.defender);
        rec.a.die = self.die();
        rec.d.die = self.die();
        let gap = rec.a.total() - rec.d.total();
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
        rec.gap = gap;
        rec.row = row_i as u8;
        (rec.a_loss, rec.d_loss) = (a_loss, d_loss);
        (rec.a_destroyed, rec.d_destroyed) = (a_destroyed, d_destroyed);
        (rec.a_result, rec.d_result) = (Some(a_res), Some(d_res));
        rec.success = gap > 0;
        st.fight.rec = rec;
        self.emit(|| Event::Combat(rec));
        if gap != 0 {
            let (w, wp, lp) = if gap > 0 { (att, pa, pd) } else { (def, pd, pa) };
            st.players[wp as usize].beaten |= 1 << lp;
            // W-06 read literally (`army.xp_needs_destroyed`): only a victory
            // that destroys the whole enemy army gives experience.
            let loser_destroyed = if gap > 0 { d_destroyed } else { a_destroyed };
            if (!sc.army.xp_needs_destroyed || loser_destroyed) && self.gain_xp(st, w) {
                return; // the formation first, then `army_done`
            }
        }
        self.army_done(st);
    }

    /// The end of an army combat: the winner's loot (W-01).
    pub(crate) fn army_done(&mut self, st: &mut State) {
        let rec = st.fight.rec;
        if rec.gap != 0 {
            let wp = if rec.gap > 0 { rec.attacker } else { rec.defender };
            self.loot(st, wp, self.sc().army.victory_loot);
        }
        self.fight_done(st);
    }
}
