//! Naval combat, coastal attacks and transport (W-12..W-17, G-25, G-26).

use super::action::{Action, CombatKind, Decision};
use super::event::{CombatRecord, Event, ScoreParts};
use super::state::{PlayerId, State};
use super::{Dice, Engine, Log, Players};
use crate::map::HexId;
use crate::scenario::{BuildingKind, Scenario};

/// W-12 / G-25: strength of `n` ships fighting together.
pub fn naval_strength(sc: &Scenario, n: i32) -> i32 {
    if n <= 0 {
        return 0;
    }
    let s = &sc.naval;
    (s.strength_per_ship * n + s.strength_offset).max(0)
}

/// W-13 (and W-16, which uses the same table): the row of `naval.table`
/// that a score gap hits and the PV the attacker and the defender lose. At
/// a tie both take the loser's column. Shared by the engine and the exact
/// tables.
pub fn naval_losses(sc: &Scenario, gap: i32) -> (usize, i32, i32) {
    let row_i = sc.naval.table.row_index(gap.abs());
    let row = &sc.naval.table.rows[row_i];
    let (a, d) = match gap {
        g if g > 0 => (row.winner_pv, row.loser_pv),
        g if g < 0 => (row.loser_pv, row.winner_pv),
        _ => (row.loser_pv, row.loser_pv),
    };
    (row_i, a, d)
}

impl<D: Dice, P: Players, L: Log> Engine<'_, D, P, L> {
    /// W-14: a defending ship next to its own port.
    pub fn port_bonus(&self, st: &State, p: PlayerId, h: HexId) -> i32 {
        let near_port = self
            .map()
            .adjacent(h)
            .any(|n| st.hexes[n as usize].owner.is(p) && st.hexes[n as usize].extra == Some(BuildingKind::Port));
        if near_port { self.sc().naval.port_defence } else { 0 }
    }

    /// Indices of the ships of `p` on `h` still able to attack: the ships
    /// that fight when the stack attacks (W-12), and so the only ships its
    /// hits may fall on (G-26).
    fn ready_fleet(st: &State, p: PlayerId, h: HexId) -> Vec<u16> {
        (0..st.ships.len() as u16)
            .filter(|&i| {
                let s = &st.ships[i as usize];
                s.alive && s.owner == p && s.hex == h && !s.attacked
            })
            .collect()
    }

    /// G-26: the owner places each point of damage on a ship of its stack
    /// that fought: `fought` lists them for an attacking stack (a ship on
    /// the hex that attacked earlier this season did not fight this
    /// combat); `None` for a defending stack, where every ship fights.
    fn take_hits(&mut self, st: &mut State, p: PlayerId, h: HexId, hits: i32, fought: Option<&[u16]>) -> bool {
        let mut destroyed = false;
        for _ in 0..hits {
            self.buf.clear();
            for (i, s) in st.ships.iter().enumerate() {
                if s.alive && s.owner == p && s.hex == h && fought.is_none_or(|f| f.contains(&(i as u16))) {
                    self.buf.push(Action::TakeHit { ship: i as u16 });
                }
            }
            if self.buf.is_empty() {
                break;
            }
            let i = match self.ask(st, p, Decision::TakeHit { hex: h }) {
                Action::TakeHit { ship } => ship as usize,
                _ => break,
            };
            let s = &mut st.ships[i];
            s.pv -= 1;
            let pv = s.pv;
            if pv <= 0 {
                s.alive = false;
                destroyed = true;
            }
            self.emit(|| Event::Hit { player: p, ship: i as u16, pv });
        }
        destroyed
    }

    fn mark_attacked(st: &mut State, p: PlayerId, h: HexId) {
        for s in st.ships.iter_mut().filter(|s| s.alive && s.owner == p && s.hex == h) {
            s.attacked = true;
            s.mp = 0;
        }
    }

    /// W-12..W-15: the ready ships on `from` attack the ships on `to`.
    pub fn naval_combat(&mut self, st: &mut State, pa: PlayerId, from: HexId, to: HexId) -> CombatRecord {
        let sc = self.sc();
        let pd = st.ship_owner_at(to);
        let fleet = Self::ready_fleet(st, pa, from);
        let na = fleet.len() as i32;
        let nd = st.ships_at(to).count() as i32;
        Self::mark_attacked(st, pa, from);
        let mut a = ScoreParts { strength: naval_strength(sc, na), ..ScoreParts::default() };
        let mut d =
            ScoreParts { strength: naval_strength(sc, nd), port: self.port_bonus(st, pd, to), ..ScoreParts::default() };
        let (ab, db) = self.bids(st, pa, pd, CombatKind::Naval, sc.naval.bid_cap);
        a.bid = ab;
        d.bid = db;
        a.die = self.die();
        d.die = self.die();
        let gap = a.total() - d.total();
        let (row_i, a_loss, d_loss) = naval_losses(sc, gap);
        let rec_base = CombatRecord {
            kind: CombatKind::Naval,
            attacker: pa,
            defender: pd,
            from,
            target: to,
            a_piece: super::state::NONE,
            d_piece: super::state::NONE,
            a,
            d,
            gap,
            row: row_i as u8,
            a_loss,
            d_loss,
            a_destroyed: false,
            d_destroyed: false,
            a_result: None,
            d_result: None,
            spy_kind: None,
            success: gap > 0,
        };
        // The owners place the hits first, so the record says which side
        // lost a ship (the `Hit` events before it say which).
        let a_destroyed = self.take_hits(st, pa, from, a_loss, Some(&fleet));
        let d_destroyed = self.take_hits(st, pd, to, d_loss, None);
        let rec = CombatRecord { a_destroyed, d_destroyed, ..rec_base };
        self.emit(|| Event::Combat(rec));
        if gap != 0 {
            let (w, l) = if gap > 0 { (pa, pd) } else { (pd, pa) };
            st.players[w as usize].tally.naval_won += 1;
            st.players[l as usize].tally.naval_lost += 1;
            self.loot(st, w, sc.naval.victory_loot);
        }
        rec
    }

    /// The building a ship may attack on a coastal hex (W-16): the port,
    /// tower or bridge first, else a main building that is a coastal target.
    pub fn coastal_target(&self, st: &State, h: HexId) -> Option<(BuildingKind, bool)> {
        let sc = self.sc();
        let hs = &st.hexes[h as usize];
        if let Some(e) = hs.extra
            && sc.building(e).coastal_target
        {
            return Some((e, false));
        }
        match hs.main {
            Some(m) if m != BuildingKind::City && sc.building(m).coastal_target => Some((m, true)),
            _ => None,
        }
    }

    /// W-16: a ship hostile to the attacker next to the building must be
    /// destroyed first.
    pub fn coastal_guarded(&self, st: &State, attacker: PlayerId, h: HexId) -> bool {
        let r = self.rules;
        self.map().adjacent(h).any(|n| st.ships.iter().any(|s| s.alive && s.hex == n && r.rivals(attacker, s.owner)))
    }

    /// W-16: the ready ships on `from` attack the coastal building on `target`
    /// with the naval formula; the building's defence stands for strength.
    pub fn coastal_attack(&mut self, st: &mut State, pa: PlayerId, from: HexId, target: HexId) -> CombatRecord {
        let sc = self.sc();
        // The building's holder; `NOBODY` for an unowned hex.
        let pd = st.hexes[target as usize].owner.id();
        let fleet = Self::ready_fleet(st, pa, from);
        let na = fleet.len() as i32;
        Self::mark_attacked(st, pa, from);
        let (kind, main) = self.coastal_target(st, target).unwrap_or((BuildingKind::Port, false));
        let mut a = ScoreParts { strength: naval_strength(sc, na), ..ScoreParts::default() };
        let mut d = ScoreParts { defence: sc.building(kind).defence, ..ScoreParts::default() };
        let (ab, db) = self.bids(st, pa, pd, CombatKind::Coastal, sc.naval.bid_cap);
        a.bid = ab;
        d.bid = db;
        a.die = self.die();
        d.die = self.die();
        let gap = a.total() - d.total();
        let (row_i, a_loss, d_loss) = naval_losses(sc, gap);
        let hs = &mut st.hexes[target as usize];
        let pv = if main { &mut hs.main_pv } else { &mut hs.extra_pv };
        *pv -= d_loss;
        let d_destroyed = *pv <= 0;
        let rec_base = CombatRecord {
            kind: CombatKind::Coastal,
            attacker: pa,
            defender: pd,
            from,
            target,
            a_piece: super::state::NONE,
            d_piece: super::state::NONE,
            a,
            d,
            gap,
            row: row_i as u8,
            a_loss,
            d_loss,
            a_destroyed: false,
            d_destroyed,
            a_result: None,
            d_result: None,
            spy_kind: None,
            success: gap > 0,
        };
        if d_destroyed {
            if main {
                hs.main = None;
                hs.main_pv = 0;
            } else {
                hs.extra = None;
                hs.extra_pv = 0;
            }
        }
        let a_destroyed = self.take_hits(st, pa, from, a_loss, Some(&fleet));
        let rec = CombatRecord { a_destroyed, ..rec_base };
        self.emit(|| Event::Combat(rec));
        if d_destroyed {
            self.emit(|| Event::BuildingDestroyed { hex: target, kind });
        } else if d_loss != 0 {
            self.log_building(st, target, main);
        }
        // W-01: every victory loots, the building holder's included.
        if gap > 0 {
            self.loot(st, pa, sc.naval.coastal_loot);
        } else if gap < 0 {
            self.loot(st, pd, sc.naval.coastal_loot);
        }
        rec
    }
}
