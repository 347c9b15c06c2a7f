//! Sieges of cities (W-08..W-11, G-12, G-16..G-20).

use super::action::CombatKind;
use super::event::{CombatRecord, Event, ScoreParts};
use super::state::{Fight, NOBODY, Owner, PlayerId, Slot, State, Step};
use super::{Dice, Engine, Log, Rules};
use crate::scenario::{BattleResult, FormationChoice, OutcomeSpec, Scenario, SiegeChoice};

/// W-09: the city's score parts before the die.
pub fn city_parts(r: Rules<'_>, st: &State, city: usize) -> ScoreParts {
    let s = &r.sc.siege;
    let c = &st.cities[city];
    ScoreParts {
        defence: c.defence,
        level: c.level.clamp(0, s.level_cap),
        stability: c.stability.clamp(s.stability_min, s.stability_max),
        ..ScoreParts::default()
    }
}

/// W-10: the row of `siege.table` that a score gap hits (signed: the table
/// reads the attacker's side), the city PV lost (one more for an army in
/// Siege formation, W-07) and the units the army loses. Shared by the
/// engine and the exact tables.
pub fn siege_effect(sc: &Scenario, gap: i32, siege_formation: bool) -> (usize, i32, i32) {
    let row_i = sc.siege.table.row_index(gap);
    let row = &sc.siege.table.rows[row_i];
    let mut pv = row.city_pv;
    if pv > 0 && siege_formation {
        pv += sc.army.formations.siege_damage;
    }
    (row_i, pv, row.army_loss)
}

impl<D: Dice, L: Log> Engine<'_, D, L> {
    /// W-08 / G-20: `army` may assault `city` now.
    pub fn can_siege(&self, st: &State, army: usize, city: usize) -> bool {
        let sc = self.sc();
        let a = &st.armies[army];
        let c = &st.cities[city];
        a.alive
            && !a.attacked
            && a.engines >= sc.siege.engines_needed
            && !c.controller.is(a.owner)
            && c.controller.get().is_none_or(|o| self.rules.rivals(a.owner, o))
            && st.hexes[c.hex as usize].city == Slot::of(city)
            && st.army_at(c.hex).is_none()
            && self.map().are_adjacent(a.hex, c.hex)
    }

    /// The siege begins: the army is spent, the city marked besieged, both
    /// sides' parts counted; the attacker's bid comes next (the city itself
    /// never bids: W-09 gives it no initiative).
    pub fn begin_siege(&mut self, st: &mut State, army: usize, city: usize) {
        let sc = self.sc();
        let pa = st.armies[army].owner;
        // The city's holder; `NOBODY` for a neutral city.
        let pd = st.cities[city].controller.id();
        let hex = st.cities[city].hex;
        st.armies[army].attacked = true;
        st.armies[army].mp = 0;
        st.cities[city].besieged = true;
        st.players[pa as usize].tally.sieges += 1;
        let ar = &st.armies[army];
        // W-07 Assault "+1 force" in a siege only if the scenario says so.
        let assault = sc.army.formations.assault_in_sieges && ar.formation == Some(FormationChoice::Assault);
        let mut rec = CombatRecord::new(CombatKind::Siege, pa, pd, ar.hex, hex);
        rec.a_piece = army as u16;
        rec.d_piece = city as u16;
        rec.a = ScoreParts {
            units: ar.units,
            xp: ar.xp,
            engines: ar.engines.min(sc.siege.engine_cap),
            order: if assault { sc.army.formations.assault_strength } else { 0 },
            ..ScoreParts::default()
        };
        rec.d = city_parts(self.rules, st, city);
        self.begin_fight(st, Fight::new(rec, sc.siege.bid_cap, false));
    }

    /// The dice, the damage to the city and the army, the results; if the
    /// city falls, its outcome is the step pending (W-11).
    pub(crate) fn resolve_siege(&mut self, st: &mut State) {
        let sc = self.sc();
        let mut rec = st.fight.rec;
        let (army, city) = (rec.a_piece as usize, rec.d_piece as usize);
        let (pa, pd) = (rec.attacker, rec.defender);
        rec.a.die = self.die();
        rec.d.die = self.die();
        let gap = rec.a.total() - rec.d.total();
        let siege_formation = st.armies[army].formation == Some(FormationChoice::Siege);
        let (row_i, pv_loss, a_loss) = siege_effect(sc, gap, siege_formation);
        st.cities[city].pv -= pv_loss;
        // The units the army really loses (a 1-unit army losing "2 units"
        // loses 1): the record and the log say what happened.
        let units = st.armies[army].units;
        let a_loss = a_loss.min(units).max(0);
        st.armies[army].units = units - a_loss;
        let a_destroyed = st.armies[army].units == 0;
        if a_destroyed {
            self.destroy_army(st, army);
        }
        let taken = st.cities[city].pv <= 0;
        // G-10: siege assaults are battles; G-12: a gap of at least
        // `siege_win_gap` is a battle won against the city's owner, and the
        // same gap the other way is a battle the holder won against the
        // attacker (E-07 then lets the holder conquer the attacker's hexes).
        let won = gap >= sc.costs.siege_win_gap;
        let repelled = -gap >= sc.costs.siege_win_gap;
        let (a_res, d_res) = match gap {
            g if g > 0 => (self.result_for_gap(g, false), BattleResult::Defeat),
            g if g < 0 => (
                BattleResult::Defeat,
                self.result_for_gap(-g, a_destroyed && (sc.ep.single_unit_massacre || units > 1)),
            ),
            _ => (self.result_for_gap(0, false), self.result_for_gap(0, false)),
        };
        let (a_result, d_result) = if sc.ep.sieges_are_battles {
            self.record_battle(st, pa, a_res);
            self.record_battle(st, pd, d_res);
            (Some(a_res), (pd != NOBODY).then_some(d_res))
        } else {
            (None, None)
        };
        rec.gap = gap;
        rec.row = row_i as u8;
        (rec.a_loss, rec.d_loss) = (a_loss, pv_loss);
        (rec.a_destroyed, rec.d_destroyed) = (a_destroyed, taken);
        (rec.a_result, rec.d_result) = (a_result, d_result);
        rec.success = won;
        st.fight.rec = rec;
        self.emit(|| Event::Combat(rec));
        self.log_city(st, city);
        if won {
            if pd != NOBODY {
                st.players[pa as usize].beaten |= 1 << pd;
            }
            self.loot(st, pa, sc.siege.victory_loot);
        } else if gap < 0 {
            if repelled && pd != NOBODY {
                st.players[pd as usize].beaten |= 1 << pa;
            }
            self.loot(st, pd, sc.siege.victory_loot);
        }
        if taken {
            // W-11: the attacker picks what taking the city does.
            st.step = Step::SiegeOutcome { city: city as u16 };
            return;
        }
        self.fight_done(st);
    }

    /// W-11 / G-19: apply a siege outcome as the scenario defines it.
    pub fn apply_outcome(&mut self, st: &mut State, p: PlayerId, city: usize, choice: SiegeChoice) {
        let sc = self.sc();
        let o: &OutcomeSpec = match choice {
            SiegeChoice::Conquer => &sc.siege.outcomes.conquer,
            SiegeChoice::Federate => &sc.siege.outcomes.federate,
            SiegeChoice::Pillage => &sc.siege.outcomes.pillage,
        };
        let hex = st.cities[city].hex;
        let c = &mut st.cities[city];
        c.influence = o.influence;
        let owned = o.influence >= sc.cities.owned_influence;
        let federated = !owned && o.influence >= sc.cities.federated_influence;
        c.controller = if owned || federated { Owner::of(p) } else { Owner::NOBODY };
        c.stability = (c.stability + o.stability_change).clamp(sc.cities.stability_min, sc.cities.stability_max);
        c.pv = o.restart_pv.min(sc.cities.max_pv(c.level)).max(1);
        // A federated or neutral city carries no banner (G-19).
        st.set_owner(hex, if owned { Owner::of(p) } else { Owner::NOBODY });
        if o.destroy_buildings
            && let Some(kind) = st.hexes[hex as usize].extra.take()
        {
            st.hexes[hex as usize].extra_pv = 0;
            self.emit(|| Event::BuildingDestroyed { hex, kind });
        }
        if o.gold > 0 {
            let pl = &mut st.players[p as usize];
            pl.gold += o.gold as i64;
            pl.tally.gold_loot += o.gold as i64;
        }
        st.players[p as usize].tally.cities_taken += 1;
        let gold = o.gold as i64;
        self.emit(|| Event::CityTaken { player: p, city: city as u16, hex, outcome: choice, gold });
        self.log_city(st, city);
    }

    /// Log a city's values after a change to it (for readers of the log).
    pub(crate) fn log_city(&mut self, st: &State, city: usize) {
        if !L::ENABLED {
            return;
        }
        let c = st.cities[city];
        let banner = st.hexes[c.hex as usize].owner().id();
        self.emit(|| Event::City {
            city: city as u16,
            hex: c.hex,
            controller: c.controller.id(),
            influence: c.influence,
            defence: c.defence,
            level: c.level,
            stability: c.stability,
            pv: c.pv,
            banner,
        });
    }

    /// Log the PV of the building in a hex's main (castle or mine) or extra
    /// slot after a change to it.
    pub(crate) fn log_building(&mut self, st: &State, hex: crate::map::HexId, main: bool) {
        if !L::ENABLED {
            return;
        }
        let hs = &st.hexes[hex as usize];
        let (kind, pv) = if main { (hs.main, hs.main_pv) } else { (hs.extra, hs.extra_pv) };
        if let Some(kind) = kind {
            self.emit(|| Event::BuildingPv { hex, kind, pv });
        }
    }
}
