//! The action phase (G-01 step 4, G-04): which actions a player may take
//! with its pieces right now, and applying the one it picks.
//!
//! Movement is one hex per action, paid from the piece's movement points
//! (G-27); an army that attacks ends its movement. All lists go into the
//! engine's reused buffer.

use super::action::{Action, SpyKind};
use super::event::Event;
use super::state::{Army, Piece, PlayerId, Slot, State};
use super::{Dice, Engine, Log};
use crate::map::{HexId, NO_HEX, Terrain};

/// W-17: the units of `army` that one ship carries: `naval.transport_units`
/// at most, and never the last unit of an army with siege engines (engines
/// stay off ships). 0 when the army cannot board.
pub fn transport_load(sc: &crate::scenario::Scenario, army: &Army) -> i32 {
    let spare = if army.engines > 0 { army.units - 1 } else { army.units };
    sc.naval.transport_units.min(spare).max(0)
}

const SPY_KINDS: [SpyKind; 5] =
    [SpyKind::Sabotage, SpyKind::Destabilize, SpyKind::DamageMain, SpyKind::DamageExtra, SpyKind::Steal];

impl<D: Dice, L: Log> Engine<'_, D, L> {
    #[inline]
    fn move_cost(&self, h: HexId) -> i32 {
        *self.sc().movement.cost.get(self.map().terrain[h as usize])
    }

    /// Sea hexes a ship on `from` can reach with `mp` points, and the first
    /// step toward each. Small breadth-first search over at most a few dozen hexes.
    fn sea_reach(&self, st: &State, p: PlayerId, from: HexId, mp: i32, out: &mut Vec<(HexId, i32)>) {
        let map = self.map();
        out.clear();
        out.push((from, mp));
        let mut i = 0;
        while i < out.len() {
            let (h, left) = out[i];
            i += 1;
            for n in map.adjacent(h) {
                if map.terrain[n as usize] != Terrain::Sea {
                    continue;
                }
                let o = st.ship_owner_at(n);
                if o != p && o != super::NOBODY {
                    continue;
                }
                let c = self.move_cost(n);
                if c <= left && !out.iter().any(|&(x, _)| x == n) {
                    out.push((n, left - c));
                }
            }
        }
    }

    /// An army of `p` may stand on `h`: land, empty, and not a city it does
    /// not hold (cities are taken by siege, W-08..W-11).
    fn army_may_enter(&self, st: &State, p: PlayerId, h: HexId) -> bool {
        let hs = &st.hexes[h as usize];
        self.map().terrain[h as usize].is_land()
            && hs.army.is_empty()
            && hs.city.get().is_none_or(|ci| {
                let c = st.cities[ci].controller;
                c.is(p) || c.get().is_some_and(|c| !self.rules.rivals(p, c))
            })
    }

    /// All actions `p` can take now into `self.buf` (`Done` is added by
    /// the turn loop).
    pub fn act_options(&mut self, st: &State, p: PlayerId) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.list_act(st, p, &mut buf);
        self.buf = buf;
    }

    /// The actions of `p`'s pieces into `out`, in the order `act_options`
    /// lists them.
    fn list_act(&mut self, st: &State, p: PlayerId, out: &mut Vec<Action>) {
        let sc = self.sc();
        let map = self.map();
        let r = self.rules;
        for ai in 0..st.armies.len() {
            let a = &st.armies[ai];
            if !a.alive || a.owner != p {
                continue;
            }
            let ai16 = ai as u16;
            for n in map.adjacent(a.hex) {
                let hs = &st.hexes[n as usize];
                if !map.terrain[n as usize].is_land() {
                    continue;
                }
                match hs.army.get() {
                    None => {
                        if a.mp >= self.move_cost(n) && self.army_may_enter(st, p, n) {
                            out.push(Action::MoveArmy { army: ai16, to: n });
                        }
                    }
                    Some(t) if !a.attacked && r.rivals(p, st.armies[t].owner) => {
                        out.push(Action::Attack { army: ai16, target: hs.army.id() });
                    }
                    Some(_) => {}
                }
                if let Some(ci) = hs.city.get()
                    && self.can_siege(st, ai, ci)
                {
                    out.push(Action::Siege { army: ai16, city: hs.city.id() });
                }
            }
            // W-17: an army that has not moved sends `transport_load` units
            // aboard an adjacent ship of its own that has not moved.
            if sc.naval.transport && !a.moved && !a.attacked && transport_load(sc, a) > 0 && map.coastal[a.hex as usize]
            {
                for (si, s) in st.ships.iter().enumerate() {
                    if !s.alive || s.owner != p || s.moved || !map.are_adjacent(s.hex, a.hex) {
                        continue;
                    }
                    let mut reach = std::mem::take(&mut self.reach);
                    self.sea_reach(st, p, s.hex, s.mp, &mut reach);
                    let start = out.len();
                    for &(sea, _) in &reach {
                        for land in map.adjacent(sea) {
                            if land != a.hex
                                && self.army_may_enter(st, p, land)
                                && !out[start..]
                                    .iter()
                                    .any(|x| matches!(x, Action::Transport { to, .. } if *to == land))
                            {
                                out.push(Action::Transport { ship: si as u16, army: ai16, to: land });
                            }
                        }
                    }
                    self.reach = reach;
                }
            }
        }
        let mut first_ready: HexId = NO_HEX;
        for (si, s) in st.ships.iter().enumerate() {
            if !s.alive || s.owner != p {
                continue;
            }
            if s.mp > 0 {
                for n in map.adjacent(s.hex) {
                    if map.terrain[n as usize] != Terrain::Sea || s.mp < self.move_cost(n) {
                        continue;
                    }
                    let o = st.ship_owner_at(n);
                    if o == p || o == super::NOBODY {
                        out.push(Action::MoveShip { ship: si as u16, to: n });
                    }
                }
            }
            // Attacks are made by a whole stack: list them once per hex.
            if s.attacked
                || s.hex == first_ready
                || st.ships[..si].iter().any(|o| o.alive && o.owner == p && o.hex == s.hex && !o.attacked)
            {
                continue;
            }
            first_ready = s.hex;
            for n in map.adjacent(s.hex) {
                if map.terrain[n as usize] == Terrain::Sea {
                    let o = st.ship_owner_at(n);
                    if o != super::NOBODY && r.rivals(p, o) {
                        out.push(Action::NavalAttack { from: s.hex, to: n });
                    }
                } else {
                    let o = st.hexes[n as usize].owner();
                    if let Some(o) = o.get()
                        && r.rivals(p, o)
                        && self.coastal_target(st, n).is_some()
                        && !self.coastal_guarded(st, p, n)
                    {
                        out.push(Action::Coastal { from: s.hex, target: n });
                    }
                }
            }
        }
        for si in 0..st.spies.len() {
            let s = &st.spies[si];
            if !s.alive || s.owner != p || s.acted {
                continue;
            }
            let si16 = si as u16;
            for n in map.adjacent(s.hex) {
                if map.terrain[n as usize].is_land() && s.mp >= self.move_cost(n) {
                    out.push(Action::MoveSpy { spy: si16, to: n });
                }
            }
            // W-19 / W-24 for duels, unless `spy.duel_limits` is off: then a
            // spy duels an enemy spy on its own hex or next to it, moved or not.
            let free_duels = !sc.spy.duel_limits;
            if s.moved && !free_duels {
                continue; // W-24
            }
            // W-19: adjacent targets (and the spy's own hex if the scenario
            // allows it or duels are free of W-19).
            let own = (sc.spy.own_hex || free_duels).then_some(s.hex);
            for t in own.into_iter().chain(map.adjacent(s.hex)) {
                let owner = self.target_owner(st, t);
                let acts = !s.moved && (t != s.hex || sc.spy.own_hex);
                if acts && owner != super::NOBODY && r.rivals(p, owner) && self.spy_target_open(st, p, t) {
                    for kind in SPY_KINDS {
                        if self.spy_kind_applies(st, t, kind) {
                            out.push(Action::SpyAct { spy: si16, target: t, kind });
                        }
                    }
                }
                for (ti, o) in st.spies.iter().enumerate() {
                    if o.alive && o.hex == t && r.rivals(p, o.owner) {
                        out.push(Action::SpyDuel { spy: si16, target: ti as u16 });
                    }
                }
            }
        }
    }

    /// Begin an action of the action phase: apply it, up to the first
    /// decision inside it if it has one (`State::step` then says which).
    pub fn begin_act(&mut self, st: &mut State, p: PlayerId, a: Action) {
        match a {
            Action::MoveArmy { army, to } => {
                let cost = self.move_cost(to);
                let ar = &mut st.armies[army as usize];
                let from = ar.hex;
                ar.mp -= cost;
                ar.moved = true;
                ar.hex = to;
                st.hexes[from as usize].army = Slot::EMPTY;
                st.hexes[to as usize].army = Slot::of(army as usize);
                self.emit(|| Event::Move { player: p, piece: Piece::Army(army), from, to });
            }
            Action::Attack { army, target } => self.begin_army_combat(st, army as usize, target as usize),
            Action::Siege { army, city } => self.begin_siege(st, army as usize, city as usize),
            Action::MoveShip { ship, to } => {
                let cost = self.move_cost(to);
                let s = &mut st.ships[ship as usize];
                let from = s.hex;
                s.mp -= cost;
                s.moved = true;
                s.hex = to;
                self.emit(|| Event::Move { player: p, piece: Piece::Ship(ship), from, to });
            }
            Action::NavalAttack { from, to } => self.begin_naval_combat(st, p, from, to),
            Action::Coastal { from, target } => self.begin_coastal_attack(st, p, from, target),
            Action::Transport { ship, army, to } => {
                // The ship ends on the first reachable sea hex next to `to`.
                let s = st.ships[ship as usize];
                let mut reach = std::mem::take(&mut self.reach);
                self.sea_reach(st, p, s.hex, s.mp, &mut reach);
                let map = self.map();
                let (sea, left) =
                    reach.iter().copied().find(|&(h, _)| map.are_adjacent(h, to)).unwrap_or((s.hex, s.mp));
                self.reach = reach;
                let sh = &mut st.ships[ship as usize];
                sh.hex = sea;
                sh.mp = left;
                sh.moved = true;
                let load = transport_load(self.sc(), &st.armies[army as usize]);
                let ar = &mut st.armies[army as usize];
                let from = ar.hex;
                let mut fresh = false;
                let landed = if load == ar.units {
                    // The whole army fits: it sails and keeps its id.
                    ar.hex = to;
                    ar.mp = 0;
                    ar.moved = true;
                    st.hexes[from as usize].army = Slot::EMPTY;
                    army
                } else {
                    // A detachment lands as a new army with the same
                    // experience and formation (unless the scenario says a
                    // detachment starts fresh); the rest stays, free to move.
                    ar.units -= load;
                    let mut d = Army { hex: to, units: load, engines: 0, mp: 0, moved: true, ..*ar };
                    if !self.sc().naval.detachment_keeps_xp {
                        d.xp = 0;
                        d.formation = None;
                        fresh = true;
                    }
                    st.armies.push(d);
                    (st.armies.len() - 1) as u16
                };
                st.hexes[to as usize].army = Slot::of(landed as usize);
                self.emit(|| Event::Transport { player: p, ship, army, landed, units: load, sea, from, to, fresh });
            }
            Action::MoveSpy { spy, to } => {
                let cost = self.move_cost(to);
                let s = &mut st.spies[spy as usize];
                let from = s.hex;
                s.mp -= cost;
                s.moved = true;
                s.hex = to;
                self.emit(|| Event::Move { player: p, piece: Piece::Spy(spy), from, to });
            }
            Action::SpyAct { spy, target, kind } => {
                self.spy_action(st, spy as usize, target, kind);
            }
            Action::SpyDuel { spy, target } => self.begin_spy_duel(st, spy as usize, target as usize),
            _ => {}
        }
    }
}
