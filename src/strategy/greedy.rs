//! `greedy`: a one-step utility player whose weights come from the scenario
//! (`[strategies.NAME]`). It scores every legal option and takes the best;
//! `Done` scores 0, so it stops when nothing is worth doing. A tiny random
//! jitter from its own stream breaks ties between equal options.

use super::Strategy;
use crate::map::{HexId, Terrain};
use crate::rules::army::army_parts;
use crate::rules::naval::naval_strength;
use crate::rules::siege::city_parts;
use crate::rules::state::NONE;
use crate::rules::{Action, Decision, Item, NOBODY, PlayerId, Rules, SpyKind, State};
use crate::scenario::{BuildingKind, SiegeChoice, StrategySpec};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub struct Greedy {
    w: StrategySpec,
    rng: Pcg64Mcg,
}

impl Greedy {
    pub fn new(w: StrategySpec, rng: Pcg64Mcg) -> Self {
        Greedy { w, rng }
    }

    fn jitter(&mut self) -> f64 {
        self.rng.random::<f64>() * 1e-3
    }
}

/// Distance from `h` to the nearest hex satisfying `pred`, or a large number.
fn nearest(r: Rules<'_>, h: HexId, pred: impl Fn(HexId) -> bool) -> u32 {
    (0..r.map.len() as HexId).filter(|&x| pred(x)).map(|x| r.map.distance(h, x)).min().unwrap_or(999)
}

impl Greedy {
    fn recruit_score(&self, r: Rules<'_>, st: &State, me: PlayerId, hex: HexId, item: Item) -> f64 {
        let pl = &st.players[me as usize];
        let cost = match item {
            Item::Unit => r.sc.recruit.unit,
            Item::Ship => r.sc.recruit.ship,
            Item::Spy => r.sc.recruit.spy,
            Item::Engine => r.sc.recruit.engine,
        } as i64;
        if pl.gold - cost < self.w.reserve as i64 {
            return -1.0;
        }
        let army = st.hexes[hex as usize].army;
        let my_units: i32 = st.armies.iter().filter(|a| a.alive && a.owner == me).map(|a| a.units).sum();
        match item {
            Item::Unit => self.w.unit / (1.0 + my_units as f64 / 6.0),
            Item::Engine => {
                let a = &st.armies[army as usize];
                if a.units >= 3 && a.engines == 0 { self.w.engine } else { self.w.engine * 0.3 }
            }
            Item::Spy => {
                let n = st.spies.iter().filter(|s| s.alive && s.owner == me).count();
                self.w.spy / (1.0 + n as f64)
            }
            Item::Ship => {
                let n = st.ships.iter().filter(|s| s.alive && s.owner == me).count();
                self.w.ship / (1.0 + n as f64)
            }
        }
    }

    fn act_score(&self, r: Rules<'_>, st: &State, me: PlayerId, a: &Action) -> f64 {
        let enemy_hex = |x: HexId| {
            let o = st.hexes[x as usize].owner;
            o != NOBODY && r.rivals(me, o)
        };
        match *a {
            Action::Attack { army, target } => {
                let mine = army_parts(r, st, army as usize, false).total();
                let theirs = army_parts(r, st, target as usize, true).total();
                let gap = (mine - theirs) as f64;
                if gap >= self.w.aggression { 10.0 + gap } else { -1.0 }
            }
            Action::Siege { army, city } => {
                let mine = army_parts(r, st, army as usize, false).units
                    + st.armies[army as usize].xp
                    + st.armies[army as usize].engines.min(r.sc.siege.engine_cap);
                let theirs = city_parts(r, st, city as usize).total();
                let gap = (mine - theirs) as f64;
                if gap >= self.w.aggression - 1.0 { 9.0 + gap } else { -1.0 }
            }
            Action::NavalAttack { from, to } => {
                let mine = st.ships_at(from).filter(|&i| !st.ships[i].attacked).count() as i32;
                let theirs = st.ships_at(to).count() as i32;
                let gap = (naval_strength(r, mine) - naval_strength(r, theirs)) as f64;
                if gap >= self.w.aggression { 6.0 + gap } else { -1.0 }
            }
            Action::Coastal { .. } => 4.0,
            Action::SpyAct { target, kind, .. } => {
                let hs = &st.hexes[target as usize];
                let def = match kind {
                    SpyKind::DamageExtra => hs.extra.map_or(0, |b| r.sc.building(b).defence),
                    _ => match st.city_at(target) {
                        Some(c) => st.cities[c].defence + st.cities[c].level,
                        None => hs.main.map_or(0, |b| r.sc.building(b).defence),
                    },
                };
                let base = match kind {
                    SpyKind::Sabotage => 5.0,
                    SpyKind::Steal => {
                        let o = hs.owner;
                        if o != NOBODY && st.players[o as usize].gold >= r.sc.spy.steal_gold as i64 { 4.5 } else { 0.5 }
                    }
                    SpyKind::Destabilize => 3.0,
                    SpyKind::DamageMain | SpyKind::DamageExtra => 2.5,
                };
                base - def as f64 * 0.5
            }
            Action::SpyDuel { .. } => 3.5,
            Action::MoveArmy { army, to } => {
                let ar = &st.armies[army as usize];
                // Small armies stay home as a garrison.
                if ar.units < 3 {
                    return -1.0;
                }
                let goal = |x: HexId| {
                    enemy_hex(x)
                        || (ar.engines > 0
                            && st.city_at(x).is_some_and(|c| {
                                let o = st.cities[c].controller;
                                o == NOBODY || r.rivals(me, o)
                            }))
                        || (st.army_at(x).is_some_and(|e| r.rivals(me, st.armies[e].owner)))
                };
                let before = nearest(r, ar.hex, goal);
                let after = nearest(r, to, goal);
                if after < before { 2.0 + (before - after) as f64 } else if after == before && after > 1 { 0.2 } else { -1.0 }
            }
            Action::MoveShip { ship, to } => {
                let s = &st.ships[ship as usize];
                let goal = |x: HexId| {
                    (r.map.terrain[x as usize] == Terrain::Sea && {
                        let o = st.ship_owner_at(x);
                        o != NOBODY && r.rivals(me, o)
                    }) || (enemy_hex(x) && st.hexes[x as usize].extra.is_some())
                };
                let before = nearest(r, s.hex, goal);
                let after = nearest(r, to, goal);
                if after < before { 1.5 } else { -1.0 }
            }
            Action::Transport { army, to, .. } => {
                let ar = &st.armies[army as usize];
                if ar.units < 3 {
                    return -1.0;
                }
                let before = nearest(r, ar.hex, enemy_hex);
                let after = nearest(r, to, enemy_hex);
                if after + 1 < before { 2.5 } else { -1.0 }
            }
            Action::MoveSpy { spy, to } => {
                let s = &st.spies[spy as usize];
                let goal = |x: HexId| {
                    let hs = &st.hexes[x as usize];
                    let owner = match st.city_at(x) {
                        Some(c) => st.cities[c].controller,
                        None => hs.owner,
                    };
                    owner != NOBODY && r.rivals(me, owner) && (hs.main.is_some() || hs.extra.is_some()) && hs.army == NONE
                };
                let before = nearest(r, s.hex, goal);
                let after = nearest(r, to, goal);
                if before <= 1 {
                    -1.0
                } else if after < before {
                    1.5
                } else {
                    -1.0
                }
            }
            _ => 0.0,
        }
    }

    fn spend_score(&self, r: Rules<'_>, st: &State, me: PlayerId, a: &Action) -> f64 {
        let terrain = |h: HexId| r.map.terrain[h as usize];
        match *a {
            Action::Pillage => self.w.pillage,
            Action::Capture(h) => {
                let bonus = match terrain(h) {
                    Terrain::Mountain | Terrain::River => 0.4,
                    Terrain::Marsh => -0.3,
                    _ => 0.0,
                };
                self.w.capture + bonus
            }
            Action::Conquer(h) => {
                let fortified = st.hexes[h as usize].main.is_some_and(|m| r.sc.building(m).fortified);
                self.w.conquer + if fortified { 1.0 } else { 0.0 }
            }
            Action::Build { hex, kind } => {
                let base = match kind {
                    BuildingKind::Castle => self.w.castle,
                    BuildingKind::City => self.w.city,
                    BuildingKind::Mine => {
                        let y = r.sc.economy.mine.get(terrain(hex)).map_or(0.0, |d| d.mean());
                        self.w.mine * y / 70.0
                    }
                    BuildingKind::Port => self.w.port,
                    BuildingKind::Tower => self.w.tower,
                    BuildingKind::Bridge => self.w.bridge,
                };
                // Replacing a building throws its value away.
                let replacing = kind.is_main() && st.hexes[hex as usize].main.is_some() && kind != BuildingKind::City;
                let _ = me;
                if replacing { base - 2.0 } else { base }
            }
            _ => 0.0,
        }
    }
}

impl Strategy for Greedy {
    fn choose(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) -> usize {
        match d {
            Decision::Bid { .. } => {
                let pool = st.players[me as usize].initiative as f64;
                let want = (pool * self.w.bid_share).round() as usize;
                want.min(options.len() - 1)
            }
            Decision::Formation { .. } => {
                options.iter().position(|a| *a == Action::Formation(self.w.formation)).unwrap_or(0)
            }
            Decision::SiegeOutcome { .. } => options
                .iter()
                .position(|a| *a == Action::Outcome(self.w.siege_outcome))
                .or_else(|| options.iter().position(|a| *a == Action::Outcome(SiegeChoice::Conquer)))
                .unwrap_or(0),
            Decision::TakeHit { .. } => {
                // Spread damage: the healthiest ship takes the hit.
                let mut best = 0;
                let mut best_pv = i32::MIN;
                for (i, a) in options.iter().enumerate() {
                    if let Action::TakeHit { ship } = a
                        && st.ships[*ship as usize].pv > best_pv
                    {
                        best_pv = st.ships[*ship as usize].pv;
                        best = i;
                    }
                }
                best
            }
            Decision::Recruit | Decision::Act | Decision::Spend => {
                let mut best = options.len() - 1; // Done, last by convention
                let mut best_score = 0.0;
                for (i, a) in options.iter().enumerate() {
                    let s = match (d, a) {
                        (_, Action::Done) => continue,
                        (Decision::Recruit, Action::Recruit { hex, item }) => self.recruit_score(r, st, me, *hex, *item),
                        (Decision::Spend, _) => self.spend_score(r, st, me, a),
                        _ => self.act_score(r, st, me, a),
                    } + self.jitter();
                    if s > best_score {
                        best_score = s;
                        best = i;
                    }
                }
                best
            }
        }
    }
}
