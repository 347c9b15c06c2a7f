//! Naval combat, coastal attacks and transport (W-12..W-17, G-25, G-26).

use super::action::CombatKind;
use super::event::{CombatRecord, Event, ScoreParts};
use super::state::{Fight, PlayerId, State, Step};
use super::{Dice, Engine, Log};
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

impl<D: Dice, L: Log> Engine<'_, D, L> {
    /// W-14: a defending ship next to its own port.
    pub fn port_bonus(&self, st: &State, p: PlayerId, h: HexId) -> i32 {
        let near_port = self
            .map()
            .adjacent(h)
            .any(|n| st.hexes[n as usize].owner().is(p) && st.hexes[n as usize].extra == Some(BuildingKind::Port));
        if near_port { self.sc().naval.port_defence } else { 0 }
    }

    /// The ships of `p` on `h` still able to attack, into `State::fleet`:
    /// the ships that fight when the stack attacks (W-12), and so the only
    /// ships its hits may fall on (G-26).
    fn ready_fleet(st: &mut State, p: PlayerId, h: HexId) {
        st.fleet.clear();
        for i in 0..st.ships.len() {
            let s = &st.ships[i];
            if s.alive && s.owner == p && s.hex == h && !s.attacked {
                st.fleet.push(i as u16);
            }
        }
    }

    /// G-26: the owner places one point of damage on a ship of its stack
    /// (`step::hit_options` lists the ships it may pick).
    pub(crate) fn take_hit(&mut self, st: &mut State, attacking: bool, i: usize) {
        let p = st.ships[i].owner;
        let s = &mut st.ships[i];
        s.pv -= 1;
        let pv = s.pv;
        if pv <= 0 {
            s.alive = false;
            if attacking {
                st.fight.rec.a_destroyed = true;
            } else {
                st.fight.rec.d_destroyed = true;
            }
        }
        self.emit(|| Event::Hit { player: p, ship: i as u16, pv });
    }

    /// G-26: `left` points of damage for one side to place, one decision
    /// each while it has a ship to place them on; then the other side's
    /// (naval combat), then the end of the combat. The owners place the
    /// hits before the combat is logged, so its record says which side
    /// lost a ship (the `Hit` events before it say which).
    pub(crate) fn begin_hits(&mut self, st: &mut State, attacking: bool, left: i32) {
        if left > 0 {
            self.buf.clear();
            super::step::hit_options(st, attacking, &mut self.buf);
            if !self.buf.is_empty() {
                st.step = Step::TakeHit { attacking, left: left.min(u8::MAX as i32) as u8 };
                return;
            }
        }
        match (st.fight.rec.kind, attacking) {
            (CombatKind::Naval, true) => self.begin_hits(st, false, st.fight.rec.d_loss),
            (CombatKind::Naval, false) => self.naval_done(st),
            _ => self.coastal_done(st),
        }
    }

    fn mark_attacked(st: &mut State, p: PlayerId, h: HexId) {
        for s in st.ships.iter_mut().filter(|s| s.alive && s.owner == p && s.hex == h) {
            s.attacked = true;
            s.mp = 0;
        }
    }

    /// The naval combat begins: the fleet is counted and spent, and the
    /// bids come next.
    pub fn begin_naval_combat(&mut self, st: &mut State, pa: PlayerId, from: HexId, to: HexId) {
        let sc = self.sc();
        let pd = st.ship_owner_at(to);
        Self::ready_fleet(st, pa, from);
        let na = st.fleet.len() as i32;
        let nd = st.ships_at(to).count() as i32;
        Self::mark_attacked(st, pa, from);
        let mut rec = CombatRecord::new(CombatKind::Naval, pa, pd, from, to);
        rec.a = ScoreParts { strength: naval_strength(sc, na), ..ScoreParts::default() };
        rec.d =
            ScoreParts { strength: naval_strength(sc, nd), port: self.port_bonus(st, pd, to), ..ScoreParts::default() };
        self.begin_fight(st, Fight::new(rec, sc.naval.bid_cap, true));
    }

    /// The dice and the table; the hits follow.
    pub(crate) fn resolve_naval(&mut self, st: &mut State) {
        let sc = self.sc();
        let mut rec = st.fight.rec;
        rec.a.die = self.die();
        rec.d.die = self.die();
        let gap = rec.a.total() - rec.d.total();
        let (row_i, a_loss, d_loss) = naval_losses(sc, gap);
        rec.gap = gap;
        rec.row = row_i as u8;
        (rec.a_loss, rec.d_loss) = (a_loss, d_loss);
        rec.success = gap > 0;
        st.fight.rec = rec;
        self.begin_hits(st, true, a_loss);
    }

    /// The end of a naval combat, its hits placed: the record, the tallies
    /// and the winner's loot (W-15).
    fn naval_done(&mut self, st: &mut State) {
        let sc = self.sc();
        let rec = st.fight.rec;
        self.emit(|| Event::Combat(rec));
        if rec.gap != 0 {
            let (w, l) = if rec.gap > 0 { (rec.attacker, rec.defender) } else { (rec.defender, rec.attacker) };
            st.players[w as usize].tally.naval_won += 1;
            st.players[l as usize].tally.naval_lost += 1;
            self.loot(st, w, sc.naval.victory_loot);
        }
        self.fight_done(st);
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

    pub fn begin_coastal_attack(&mut self, st: &mut State, pa: PlayerId, from: HexId, target: HexId) {
        let sc = self.sc();
        // The building's holder; `NOBODY` for an unowned hex.
        let pd = st.hexes[target as usize].owner().id();
        Self::ready_fleet(st, pa, from);
        let na = st.fleet.len() as i32;
        Self::mark_attacked(st, pa, from);
        let (kind, main) = self.coastal_target(st, target).unwrap_or((BuildingKind::Port, false));
        let mut rec = CombatRecord::new(CombatKind::Coastal, pa, pd, from, target);
        rec.a = ScoreParts { strength: naval_strength(sc, na), ..ScoreParts::default() };
        rec.d = ScoreParts { defence: sc.building(kind).defence, ..ScoreParts::default() };
        let fight = Fight { building: Some(kind), main, ..Fight::new(rec, sc.naval.bid_cap, true) };
        self.begin_fight(st, fight);
    }

    /// The dice, the table and the building's damage; the attacker's hits
    /// follow.
    pub(crate) fn resolve_coastal(&mut self, st: &mut State) {
        let sc = self.sc();
        let mut rec = st.fight.rec;
        let main = st.fight.main;
        rec.a.die = self.die();
        rec.d.die = self.die();
        let gap = rec.a.total() - rec.d.total();
        let (row_i, a_loss, d_loss) = naval_losses(sc, gap);
        let hs = &mut st.hexes[rec.target as usize];
        let pv = if main { &mut hs.main_pv } else { &mut hs.extra_pv };
        *pv -= d_loss;
        let d_destroyed = *pv <= 0;
        if d_destroyed {
            if main {
                hs.main = None;
                hs.main_pv = 0;
            } else {
                hs.extra = None;
                hs.extra_pv = 0;
            }
        }
        rec.gap = gap;
        rec.row = row_i as u8;
        (rec.a_loss, rec.d_loss) = (a_loss, d_loss);
        rec.d_destroyed = d_destroyed;
        rec.success = gap > 0;
        st.fight.rec = rec;
        self.begin_hits(st, true, a_loss);
    }

    /// The end of a coastal attack, its hits placed: the record, what
    /// became of the building, and the loot.
    fn coastal_done(&mut self, st: &mut State) {
        let sc = self.sc();
        let rec = st.fight.rec;
        let (kind, main) = (st.fight.building.unwrap_or(BuildingKind::Port), st.fight.main);
        self.emit(|| Event::Combat(rec));
        if rec.d_destroyed {
            self.emit(|| Event::BuildingDestroyed { hex: rec.target, kind });
        } else if rec.d_loss != 0 {
            self.log_building(st, rec.target, main);
        }
        // W-01: every victory loots, the building holder's included.
        if rec.gap > 0 {
            self.loot(st, rec.attacker, sc.naval.coastal_loot);
        } else if rec.gap < 0 {
            self.loot(st, rec.defender, sc.naval.coastal_loot);
        }
        self.fight_done(st);
    }
}
