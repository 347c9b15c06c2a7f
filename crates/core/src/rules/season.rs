//! The season (G-01) and the campaign around it (G-02).

use super::empire::Standing;
use super::event::Event;
use super::state::{EndReason, Owner, PlayerId, State, Step};
use super::{Dice, Engine, Log};
use crate::scenario::BuildingKind;

/// How a campaign ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub reason: EndReason,
    /// Seasons played.
    pub seasons: u32,
    /// Largest empire first (G-02).
    pub standings: Vec<Standing>,
}

impl Outcome {
    pub fn winner(&self) -> u8 {
        self.standings[0].player
    }
}

impl<D: Dice, L: Log> Engine<'_, D, L> {
    /// G-01 step 1 (with the order of E-04): the season begins.
    pub(crate) fn begin_season(&mut self, st: &mut State) {
        let season = st.season;
        self.emit(|| Event::SeasonStart { season });
        self.set_order(st);
        self.payday(st);
        (st.step, st.turn) = (Step::Recruit, 0);
    }

    /// G-01 step 3: initiative pools refilled, no carry-over (G-07).
    pub(crate) fn refill_pools(&mut self, st: &mut State) {
        let pool = self.sc().initiative.pool;
        for p in st.players.iter_mut() {
            p.initiative = if p.eliminated { 0 } else { pool };
        }
    }

    /// G-01 step 7 and G-02: the end of the season, and of the campaign if
    /// it ends here.
    pub(crate) fn end_season(&mut self, st: &mut State) {
        self.end_of_season(st);
        let end = self.end_check(st);
        st.ended = end;
        if end.is_some() {
            st.step = Step::Over;
        } else {
            st.season += 1;
            st.step = Step::SeasonStart;
        }
        st.turn = 0;
    }

    /// E-04 read literally (`campaign.reorder_before_spending`): the players
    /// spend smallest empire first as the empires stand after the action
    /// phase, not as they stood at payday (G-03).
    pub(crate) fn reorder_for_spending(&mut self, st: &mut State) {
        if self.sc().campaign.reorder_before_spending {
            self.set_order(st);
        }
    }

    /// G-01 step 7: recovery (G-17, G-18, G-26), reset of the per-season
    /// limits, and elimination of players without hexes.
    pub fn end_of_season(&mut self, st: &mut State) {
        let sc = self.sc();
        let map = self.map();
        for ci in 0..st.cities.len() {
            let c = &mut st.cities[ci];
            let before = (c.pv, c.stability);
            if !c.besieged {
                c.pv = (c.pv + sc.cities.recover_pv).min(sc.cities.max_pv(c.level));
                if !c.hostile {
                    let r = sc.cities.stability_recover;
                    c.stability = if c.stability > 0 { (c.stability - r).max(0) } else { (c.stability + r).min(0) };
                }
            }
            c.besieged = false;
            c.hostile = false;
            if before != (c.pv, c.stability) {
                self.log_city(st, ci);
            }
        }
        for i in 0..st.ships.len() {
            let s = st.ships[i];
            if !s.alive {
                continue;
            }
            let in_port = map.adjacent(s.hex).any(|n| {
                st.hexes[n as usize].owner().is(s.owner) && st.hexes[n as usize].extra == Some(BuildingKind::Port)
            });
            let sh = &mut st.ships[i];
            if in_port && sh.pv < sc.naval.ship_pv {
                sh.pv = (sh.pv + sc.naval.ship_recover).min(sc.naval.ship_pv);
                let pv = sh.pv;
                self.emit(|| Event::ShipRepaired { ship: i as u16, pv });
            }
            sh.mp = sc.movement.ship;
            sh.moved = false;
            sh.attacked = false;
        }
        for a in st.armies.iter_mut().filter(|a| a.alive) {
            a.mp = sc.movement.army
                + if a.formation == Some(crate::scenario::FormationChoice::Light) {
                    sc.army.formations.light_movement
                } else {
                    0
                };
            a.moved = false;
            a.attacked = false;
            a.xp_gained = false;
        }
        for s in st.spies.iter_mut().filter(|s| s.alive) {
            s.mp = sc.movement.spy;
            s.moved = false;
            s.acted = false;
        }
        for h in st.hexes.iter_mut() {
            h.recruited = 0;
        }
        // Stall detection: a fingerprint of every banner and building.
        let print = st.hexes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
            let v = (x.owner().id() as u64)
                | (x.main.map_or(0, |b| b as u64 + 1) << 8)
                | (x.extra.map_or(0, |b| b as u64 + 1) << 16);
            (h ^ v).wrapping_mul(0x0000_0100_0000_01b3)
        });
        st.quiet_seasons = if print == st.map_print { st.quiet_seasons + 1 } else { 0 };
        st.map_print = print;
        // Eliminating a player takes its pieces and cities, never a
        // banner, so each count is the one the season ended with.
        for p in 0..st.players.len() {
            let held = st.hexes_of(p as PlayerId);
            let pl = &mut st.players[p];
            pl.battle_ep = 0;
            pl.battles = 0;
            pl.beaten = 0;
            pl.initiative = 0;
            if !pl.eliminated && held == 0 {
                pl.eliminated = true;
                self.eliminate(st, p as u8);
            }
        }
    }

    /// A player without hexes leaves the campaign with its pieces.
    fn eliminate(&mut self, st: &mut State, p: u8) {
        for i in 0..st.armies.len() {
            if st.armies[i].alive && st.armies[i].owner == p {
                self.destroy_army(st, i);
            }
        }
        for s in st.ships.iter_mut().filter(|s| s.owner == p) {
            s.alive = false;
        }
        for s in st.spies.iter_mut().filter(|s| s.owner == p) {
            s.alive = false;
        }
        self.emit(|| Event::Eliminated { player: p });
        for ci in 0..st.cities.len() {
            if st.cities[ci].controller.is(p) {
                st.cities[ci].controller = Owner::NOBODY;
                st.cities[ci].influence = 0;
                self.log_city(st, ci);
            }
        }
    }

    /// Final standings (G-02), logged.
    pub fn finish(&mut self, st: &mut State, reason: EndReason) -> Outcome {
        let season = st.season;
        self.emit(|| Event::End { season, reason });
        let standings = self.ranking(st, true);
        if L::ENABLED {
            for s in &standings {
                self.log.push(Event::Standing {
                    rank: s.rank,
                    player: s.player,
                    size: s.size.size,
                    hexes: s.size.hexes,
                    cities: s.size.cities,
                    castles: s.size.castles,
                    tie: s.tie,
                });
            }
        }
        Outcome { reason, seasons: season, standings }
    }
}
