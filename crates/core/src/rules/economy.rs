//! Payday (E-15, E-16) and recruiting (G-13): the two economic steps of the
//! season (G-01 steps 1 and 2).

use super::action::{Action, Item};
use super::event::Event;
use super::state::{Army, PlayerId, Ship, Slot, Spy, State};
use super::{Dice, Engine, Log};
use crate::map::{HexId, Terrain};
use crate::scenario::BuildingKind;

impl<D: Dice, L: Log> Engine<'_, D, L> {
    /// E-15: every mine on a hex its owner holds pays its terrain's dice.
    /// A mine sabotaged by a spy (G-28) pays nothing, once.
    pub fn payday(&mut self, st: &mut State) {
        let sc = self.sc();
        let map = self.map();
        for oi in 0..st.order.len() {
            let p = st.order[oi];
            // Disjoint fields: the walk reads the banners while payday
            // writes sabotage marks and gold (it changes no banner).
            let (banners, hexes, players) = (&st.banners, &mut st.hexes, &mut st.players);
            for hex in banners.hexes(p) {
                let h = hex as usize;
                if hexes[h].main != Some(BuildingKind::Mine) {
                    continue;
                }
                let Some(expr) = *sc.economy.mine.get(map.terrain[h]) else { continue };
                if hexes[h].sabotaged {
                    hexes[h].sabotaged = false;
                    self.emit(|| Event::Payday { player: p, hex, faces: 0, gold: 0, sabotaged: true });
                    continue;
                }
                let (faces, gold) = self.dice.roll_expr(&expr);
                let pl = &mut players[p as usize];
                pl.gold += gold;
                pl.tally.gold_mines += gold;
                self.emit(|| Event::Payday { player: p, hex, faces, gold, sabotaged: false });
            }
        }
    }

    /// Cost of a recruit (G-13).
    pub fn recruit_cost(&self, item: Item) -> i64 {
        let r = &self.sc().recruit;
        (match item {
            Item::Unit => r.unit,
            Item::Ship => r.ship,
            Item::Spy => r.spy,
            Item::Engine => r.engine,
        }) as i64
    }

    /// The sea hex where a ship recruited at `hex` is launched.
    fn launch_hex(&self, st: &State, p: PlayerId, hex: HexId) -> Option<HexId> {
        let map = self.map();
        map.adjacent(hex).find(|&n| {
            map.terrain[n as usize] == Terrain::Sea && {
                let o = st.ship_owner_at(n);
                o == p || o == super::NOBODY
            }
        })
    }

    /// G-13: one item per castle or city hex per season, ships only at a port.
    pub fn recruit_options(&mut self, st: &State, p: PlayerId) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        for hex in st.banners().hexes(p) {
            self.recruit_options_at(st, p, hex, &mut buf);
        }
        self.buf = buf;
    }

    /// What `p` may recruit on `hex`, one of its banner hexes, into `out`.
    fn recruit_options_at(&self, st: &State, p: PlayerId, hex: HexId, out: &mut Vec<Action>) {
        let sc = self.sc();
        let gold = st.players[p as usize].gold;
        let hs = &st.hexes[hex as usize];
        if hs.recruited as u32 >= sc.recruit.per_hex {
            return;
        }
        if ![hs.main, hs.extra].into_iter().flatten().any(|b| sc.building(b).recruits) {
            return;
        }
        let own_army = hs.army.get().filter(|&a| st.armies[a].owner == p);
        for item in Item::ALL {
            if gold < self.recruit_cost(item) {
                continue;
            }
            let ok = match item {
                Item::Unit => hs.army.is_empty() || own_army.is_some(),
                Item::Engine => own_army.is_some_and(|a| st.armies[a].engines < sc.siege.engine_cap),
                Item::Spy => true,
                Item::Ship => hs.extra == Some(BuildingKind::Port) && self.launch_hex(st, p, hex).is_some(),
            };
            if ok {
                out.push(Action::Recruit { hex, item });
            }
        }
    }

    /// E-16 / G-13: gold becomes a unit, ship, spy or engine at the scenario's price.
    pub fn recruit(&mut self, st: &mut State, p: PlayerId, hex: HexId, item: Item) {
        let sc = self.sc();
        let cost = self.recruit_cost(item);
        let pl = &mut st.players[p as usize];
        pl.gold -= cost;
        pl.tally.gold_spent += cost;
        st.hexes[hex as usize].recruited += 1;
        let (piece, at) = match item {
            Item::Unit => {
                if let Some(a) = st.hexes[hex as usize].army.get() {
                    st.armies[a].units += 1;
                    (a as u16, hex)
                } else {
                    st.hexes[hex as usize].army = Slot::of(st.armies.len());
                    st.armies.push(Army::new(p, hex, 1, 0, sc.movement.army));
                    ((st.armies.len() - 1) as u16, hex)
                }
            }
            Item::Engine => {
                let a = st.hexes[hex as usize].army;
                // The options offer an engine only where the player's army stands.
                if let Some(i) = a.get() {
                    st.armies[i].engines += 1;
                }
                (a.id(), hex)
            }
            Item::Spy => {
                st.spies.push(Spy { owner: p, hex, mp: sc.movement.spy, moved: false, acted: false, alive: true });
                ((st.spies.len() - 1) as u16, hex)
            }
            Item::Ship => {
                let sea = self.launch_hex(st, p, hex).unwrap_or(hex);
                st.ships.push(Ship::new(sc, p, sea));
                ((st.ships.len() - 1) as u16, sea)
            }
        };
        self.emit(|| Event::Recruit { player: p, hex, item, cost, piece, at });
    }
}
