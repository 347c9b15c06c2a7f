//! Spies (W-18..W-25, G-28).

use super::action::{CombatKind, SpyKind};
use super::event::{CombatRecord, Event, ScoreParts};
use super::state::{Fight, NOBODY, PlayerId, State};
use super::{Dice, Engine, Log};
use crate::map::HexId;
use crate::scenario::{BuildingKind, Scenario};

/// W-20, W-21: the row of `spy.table` a score gap hits (signed), whether
/// the action works and whether the spy is lost. Shared by the engine and
/// the exact tables.
pub fn spy_effect(sc: &Scenario, gap: i32) -> (usize, bool, bool) {
    let row_i = sc.spy.table.row_index(gap);
    let row = &sc.spy.table.rows[row_i];
    (row_i, row.success, row.spy_lost)
}

/// W-25: the row of `spy.duel` a score gap hits (by its size), whether the
/// loser loses its spy and whether the winner is spent for the season. At a
/// gap of 0 nobody loses.
pub fn duel_effect(sc: &Scenario, gap: i32) -> (usize, bool, bool) {
    let row_i = sc.spy.duel.row_index(gap.abs());
    let row = &sc.spy.duel.rows[row_i];
    (row_i, row.loser_lost, row.winner_spent)
}

impl<D: Dice, L: Log> Engine<'_, D, L> {
    /// Who a hostile action against hex `h` hurts: the city's holder, else
    /// the banner's owner.
    pub fn target_owner(&self, st: &State, h: HexId) -> PlayerId {
        match st.city_at(h) {
            Some(c) => st.cities[c].controller.id(),
            None => st.hexes[h as usize].owner().id(),
        }
    }

    /// W-22 / W-23: whether hex `h` can suffer a hostile action by a spy of
    /// `p` at all.
    pub fn spy_target_open(&self, st: &State, p: PlayerId, h: HexId) -> bool {
        // W-23: a garrison blocks spies; `p`'s own army too unless
        // `spy.own_army_blocks` is off.
        if st.army_at(h).is_some_and(|a| self.sc().spy.own_army_blocks || st.armies[a].owner != p) {
            return false;
        }
        match st.city_at(h) {
            Some(c) => !st.cities[c].hostile, // W-22
            None => true,
        }
    }

    /// Whether `kind` applies to what stands on `h`.
    pub fn spy_kind_applies(&self, st: &State, h: HexId, kind: SpyKind) -> bool {
        let hs = &st.hexes[h as usize];
        let city = st.city_at(h);
        match kind {
            SpyKind::Sabotage => hs.main == Some(BuildingKind::Mine) && !hs.sabotaged,
            SpyKind::Destabilize => city.is_some_and(|c| st.cities[c].stability > self.sc().cities.stability_min),
            SpyKind::DamageMain => match city {
                Some(c) => st.cities[c].pv > self.sc().spy.city_pv_floor,
                None => hs.main.is_some(),
            },
            SpyKind::DamageExtra => hs.extra.is_some(),
            SpyKind::Steal => hs.main.is_some() || hs.extra.is_some(),
        }
    }

    /// G-28: the defence a spy faces for `kind` on hex `h`.
    pub fn spy_defence(&self, st: &State, h: HexId, kind: SpyKind) -> (i32, i32) {
        let sc = self.sc();
        let hs = &st.hexes[h as usize];
        let city = st.city_at(h).map(|c| &st.cities[c]);
        let of = |b: Option<BuildingKind>| b.map_or(0, |b| sc.building(b).defence);
        let city_def = |c: &super::state::City| (c.defence, if sc.spy.city_adds_level { c.level } else { 0 });
        match kind {
            SpyKind::DamageExtra => (of(hs.extra), 0),
            _ => match city {
                Some(c) => city_def(c),
                None if hs.main.is_some() => (of(hs.main), 0),
                None => (of(hs.extra), 0),
            },
        }
    }

    /// W-18..W-21, G-28: `spy` acts against hex `target`.
    pub fn spy_action(&mut self, st: &mut State, spy: usize, target: HexId, kind: SpyKind) -> CombatRecord {
        let sc = self.sc();
        let pa = st.spies[spy].owner;
        let pd = self.target_owner(st, target);
        st.spies[spy].acted = true;
        st.spies[spy].mp = 0; // W-24: no exploring after acting.
        let (defence, level) = self.spy_defence(st, target, kind);
        let mut a = ScoreParts { strength: sc.spy.base, ..ScoreParts::default() };
        let mut d = ScoreParts { defence, level, ..ScoreParts::default() };
        a.die = self.die();
        d.die = self.die();
        let gap = a.total() - d.total();
        let (row_i, success, lost) = spy_effect(sc, gap);
        if let Some(c) = st.city_at(target) {
            st.cities[c].hostile = true;
        }
        let mut d_loss = 0;
        let mut d_destroyed = false;
        // The building the action destroys, logged after the combat line.
        let mut fell = None;
        if success {
            let city = st.city_at(target);
            let hs = &mut st.hexes[target as usize];
            match kind {
                SpyKind::Sabotage => hs.sabotaged = true,
                SpyKind::Destabilize => {
                    if let Some(c) = city {
                        let c = &mut st.cities[c];
                        c.stability = (c.stability - 1).max(sc.cities.stability_min);
                    }
                }
                SpyKind::DamageMain => {
                    d_loss = 1;
                    if let Some(c) = city {
                        let c = &mut st.cities[c];
                        c.pv = (c.pv - 1).max(sc.spy.city_pv_floor);
                    } else {
                        hs.main_pv -= 1;
                        if hs.main_pv <= 0 {
                            d_destroyed = true;
                            fell = hs.main.take();
                            hs.main_pv = 0;
                        }
                    }
                }
                SpyKind::DamageExtra => {
                    d_loss = 1;
                    hs.extra_pv -= 1;
                    if hs.extra_pv <= 0 {
                        d_destroyed = true;
                        fell = hs.extra.take();
                        hs.extra_pv = 0;
                    }
                }
                SpyKind::Steal => {
                    if pd != NOBODY {
                        let g = (sc.spy.steal_gold as i64).min(st.players[pd as usize].gold.max(0));
                        st.players[pd as usize].gold -= g;
                        st.players[pa as usize].gold += g;
                        st.players[pa as usize].tally.gold_loot += g;
                        d_loss = g as i32;
                    }
                }
            }
            st.players[pa as usize].tally.spy_success += 1;
        }
        if lost {
            st.spies[spy].alive = false;
            st.players[pa as usize].tally.spy_lost += 1;
        }
        let rec = CombatRecord {
            kind: CombatKind::Spy,
            attacker: pa,
            defender: pd,
            from: st.spies[spy].hex,
            target,
            a_piece: spy as u16,
            d_piece: super::state::NONE,
            a,
            d,
            gap,
            row: row_i as u8,
            a_loss: lost as i32,
            d_loss,
            a_destroyed: lost,
            d_destroyed,
            a_result: None,
            d_result: None,
            spy_kind: Some(kind),
            success,
        };
        self.emit(|| Event::Combat(rec));
        if let Some(kind) = fell {
            self.emit(|| Event::BuildingDestroyed { hex: target, kind });
        }
        if success && !d_destroyed {
            match (kind, st.city_at(target)) {
                (SpyKind::Destabilize | SpyKind::DamageMain, Some(c)) => self.log_city(st, c),
                (SpyKind::DamageMain, None) => self.log_building(st, target, true),
                (SpyKind::DamageExtra, _) => self.log_building(st, target, false),
                _ => {}
            }
        }
        rec
    }

    pub fn begin_spy_duel(&mut self, st: &mut State, spy: usize, target: usize) {
        let sc = self.sc();
        let (pa, pd) = (st.spies[spy].owner, st.spies[target].owner);
        st.spies[spy].acted = true;
        st.spies[spy].mp = 0;
        let mut rec = CombatRecord::new(CombatKind::SpyDuel, pa, pd, st.spies[spy].hex, st.spies[target].hex);
        rec.a_piece = spy as u16;
        rec.d_piece = target as u16;
        self.begin_fight(st, Fight::new(rec, sc.spy.duel_bid_cap, true));
    }

    /// The dice and the duel table (W-25), then the winner's loot if the
    /// scenario reads W-01 so.
    pub(crate) fn resolve_duel(&mut self, st: &mut State) {
        let sc = self.sc();
        let mut rec = st.fight.rec;
        let (spy, target) = (rec.a_piece as usize, rec.d_piece as usize);
        rec.a.die = self.die();
        rec.d.die = self.die();
        let gap = rec.a.total() - rec.d.total();
        let (row_i, loser_lost, winner_spent) = duel_effect(sc, gap);
        let (mut a_destroyed, mut d_destroyed) = (false, false);
        let mut winner = None;
        if gap != 0 {
            let (w, l) = if gap > 0 { (spy, target) } else { (target, spy) };
            if loser_lost {
                st.spies[l].alive = false;
                let lp = st.spies[l].owner;
                st.players[lp as usize].tally.spy_lost += 1;
                if gap > 0 { d_destroyed = true } else { a_destroyed = true }
            }
            if winner_spent {
                st.spies[w].acted = true;
            }
            let wp = st.spies[w].owner;
            st.players[wp as usize].tally.spy_success += 1;
            winner = Some(wp);
        }
        rec.gap = gap;
        rec.row = row_i as u8;
        (rec.a_loss, rec.d_loss) = (a_destroyed as i32, d_destroyed as i32);
        (rec.a_destroyed, rec.d_destroyed) = (a_destroyed, d_destroyed);
        rec.success = gap > 0;
        st.fight.rec = rec;
        self.emit(|| Event::Combat(rec));
        // W-01 "chaque victoire" read for spy duels too, if the scenario says so.
        if let Some(wp) = winner
            && sc.spy.duel_loots
        {
            self.loot(st, wp, sc.army.victory_loot);
        }
        self.fight_done(st);
    }
}
