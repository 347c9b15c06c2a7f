//! `weighted`: a one-step utility player whose weights come from the scenario
//! (`[strategies.NAME]`, G-30). It scores every legal option and takes the
//! best; `Done` scores 0, so it stops when nothing is worth doing. A tiny
//! random jitter from its own stream breaks ties between equal options, so
//! two campaigns never replay the same game move for move.
//!
//! Every number that shapes its play is a key of `StrategySpec`; the
//! archetypes of `scenarios/archetypes.toml` differ only in those numbers.

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

pub struct Weighted {
    w: StrategySpec,
    rng: Pcg64Mcg,
    /// Goal hexes for movement, listed once per action-phase decision and
    /// reused for every option (listing them per option dominated run time).
    goals: Goals,
    /// Reused per decision.
    scores: Vec<f64>,
}

/// Hexes pieces move toward, by kind of piece.
#[derive(Default)]
struct Goals {
    /// Rival hexes and rival armies.
    army: Vec<HexId>,
    /// The same plus cities an army with engines could besiege.
    army_siege: Vec<HexId>,
    /// Rival ships, and rival hexes with a port, tower or bridge.
    ship: Vec<HexId>,
    /// Rival buildings and cities without a garrison.
    spy: Vec<HexId>,
    /// Rival hexes.
    enemy: Vec<HexId>,
    /// Distance from each hex to the nearest goal of each set, filled on
    /// first use after `list` (`UNKNOWN` until then): every option of a
    /// decision asks about the same few hexes.
    near: [Vec<u16>; 5],
}

#[derive(Clone, Copy)]
enum Set {
    Army,
    ArmySiege,
    Ship,
    Spy,
    Enemy,
}

const UNKNOWN: u16 = u16::MAX;

impl Goals {
    /// Distance from `h` to the nearest goal of `set`, or 999 without one.
    fn dist(&mut self, r: Rules<'_>, set: Set, h: HexId) -> u32 {
        let i = set as usize;
        let cached = self.near[i][h as usize];
        if cached != UNKNOWN {
            return cached as u32;
        }
        let goals = match set {
            Set::Army => &self.army,
            Set::ArmySiege => &self.army_siege,
            Set::Ship => &self.ship,
            Set::Spy => &self.spy,
            Set::Enemy => &self.enemy,
        };
        let d = nearest(r, h, goals);
        self.near[i][h as usize] = d.min(UNKNOWN as u32 - 1) as u16;
        d
    }

    fn list(&mut self, r: Rules<'_>, st: &State, me: PlayerId) {
        for v in [&mut self.army, &mut self.army_siege, &mut self.ship, &mut self.spy, &mut self.enemy] {
            v.clear();
        }
        for n in self.near.iter_mut() {
            n.clear();
            n.resize(r.map.len(), UNKNOWN);
        }
        for x in 0..r.map.len() as HexId {
            let hs = &st.hexes[x as usize];
            let enemy = hs.owner != NOBODY && r.rivals(me, hs.owner);
            let enemy_army = st.army_at(x).is_some_and(|e| r.rivals(me, st.armies[e].owner));
            let city_owner = st.city_at(x).map(|c| st.cities[c].controller);
            if enemy {
                self.enemy.push(x);
            }
            if enemy || enemy_army {
                self.army.push(x);
                self.army_siege.push(x);
            } else if city_owner.is_some_and(|o| o == NOBODY || r.rivals(me, o)) {
                self.army_siege.push(x);
            }
            let rival_ships = r.map.terrain[x as usize] == Terrain::Sea && {
                let o = st.ship_owner_at(x);
                o != NOBODY && r.rivals(me, o)
            };
            if rival_ships || (enemy && hs.extra.is_some()) {
                self.ship.push(x);
            }
            let target_owner = city_owner.unwrap_or(hs.owner);
            if target_owner != NOBODY
                && r.rivals(me, target_owner)
                && (hs.main.is_some() || hs.extra.is_some())
                && hs.army == NONE
            {
                self.spy.push(x);
            }
        }
    }
}

impl Weighted {
    pub fn new(w: StrategySpec, rng: Pcg64Mcg) -> Self {
        Weighted { w, rng, goals: Goals::default(), scores: Vec::new() }
    }

    fn jitter(&mut self) -> f64 {
        self.rng.random::<f64>() * self.w.jitter
    }
}

/// Distance from `h` to the nearest of `goals`, or a large number.
fn nearest(r: Rules<'_>, h: HexId, goals: &[HexId]) -> u32 {
    goals.iter().map(|&x| r.map.distance(h, x)).min().unwrap_or(999)
}

impl Weighted {
    /// The utility of every option of a recruit, action or spending
    /// decision, jitter included, into `out` (`Done` scores 0).
    pub fn score_options(
        &mut self,
        r: Rules<'_>,
        st: &State,
        me: PlayerId,
        d: Decision,
        options: &[Action],
        out: &mut Vec<f64>,
    ) {
        if d == Decision::Act
            && options.iter().any(|a| {
                matches!(
                    a,
                    Action::MoveArmy { .. }
                        | Action::MoveShip { .. }
                        | Action::MoveSpy { .. }
                        | Action::Transport { .. }
                )
            })
        {
            self.goals.list(r, st, me);
        }
        out.clear();
        for a in options {
            let s = match (d, a) {
                (_, Action::Done) => 0.0,
                (Decision::Recruit, Action::Recruit { hex, item }) => self.recruit_score(r, st, me, *hex, *item),
                (Decision::Spend, _) => self.spend_score(r, st, a),
                _ => self.act_score(r, st, a),
            };
            let j = if *a == Action::Done { 0.0 } else { self.jitter() };
            out.push(s + j);
        }
    }

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
            Item::Unit => self.w.unit / (1.0 + my_units as f64 / self.w.unit_saturation),
            Item::Engine => {
                let a = &st.armies[army as usize];
                if a.units >= self.w.engine_min_units && a.engines == 0 {
                    self.w.engine
                } else {
                    self.w.engine * self.w.engine_extra
                }
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

    fn act_score(&mut self, r: Rules<'_>, st: &State, a: &Action) -> f64 {
        let g = &mut self.goals;
        match *a {
            Action::Attack { army, target } => {
                let mine = army_parts(r, st, army as usize, false).total();
                let theirs = army_parts(r, st, target as usize, true).total();
                let gap = (mine - theirs) as f64;
                if gap >= self.w.aggression { self.w.attack + gap } else { -1.0 }
            }
            Action::Siege { army, city } => {
                let mine = army_parts(r, st, army as usize, false).units
                    + st.armies[army as usize].xp
                    + st.armies[army as usize].engines.min(r.sc.siege.engine_cap);
                let theirs = city_parts(r, st, city as usize).total();
                let gap = (mine - theirs) as f64;
                if gap >= self.w.siege_aggression { self.w.siege + gap } else { -1.0 }
            }
            Action::NavalAttack { from, to } => {
                let mine = st.ships_at(from).filter(|&i| !st.ships[i].attacked).count() as i32;
                let theirs = st.ships_at(to).count() as i32;
                let gap = (naval_strength(r.sc, mine) - naval_strength(r.sc, theirs)) as f64;
                if gap >= self.w.aggression { self.w.naval + gap } else { -1.0 }
            }
            Action::Coastal { .. } => self.w.coastal,
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
                    SpyKind::Sabotage => self.w.spy_sabotage,
                    SpyKind::Steal => {
                        let o = hs.owner;
                        let full = o != NOBODY && st.players[o as usize].gold >= r.sc.spy.steal_gold as i64;
                        // A poor victim is worth little.
                        if full { self.w.spy_steal } else { self.w.spy_steal * self.w.spy_steal_poor }
                    }
                    SpyKind::Destabilize => self.w.spy_destabilize,
                    SpyKind::DamageMain | SpyKind::DamageExtra => self.w.spy_damage,
                };
                base - def as f64 * self.w.spy_defence
            }
            Action::SpyDuel { .. } => self.w.spy_duel,
            Action::MoveArmy { army, to } => {
                let ar = &st.armies[army as usize];
                // Small armies stay home as a garrison.
                if ar.units < self.w.garrison {
                    return -1.0;
                }
                let set = if ar.engines > 0 { Set::ArmySiege } else { Set::Army };
                let before = g.dist(r, set, ar.hex);
                let after = g.dist(r, set, to);
                if after < before {
                    self.w.advance + (before - after) as f64
                } else if after == before && after > 1 {
                    self.w.hold
                } else {
                    -1.0
                }
            }
            Action::MoveShip { ship, to } => {
                let s = &st.ships[ship as usize];
                let before = g.dist(r, Set::Ship, s.hex);
                let after = g.dist(r, Set::Ship, to);
                if after < before { self.w.sail } else { -1.0 }
            }
            Action::Transport { army, to, .. } => {
                let ar = &st.armies[army as usize];
                if ar.units < self.w.garrison {
                    return -1.0;
                }
                let before = g.dist(r, Set::Enemy, ar.hex);
                let after = g.dist(r, Set::Enemy, to);
                if after + 1 < before { self.w.transport } else { -1.0 }
            }
            Action::MoveSpy { spy, to } => {
                let s = &st.spies[spy as usize];
                let before = g.dist(r, Set::Spy, s.hex);
                let after = g.dist(r, Set::Spy, to);
                if before <= 1 {
                    -1.0
                } else if after < before {
                    self.w.sail
                } else {
                    -1.0
                }
            }
            _ => 0.0,
        }
    }

    fn spend_score(&self, r: Rules<'_>, st: &State, a: &Action) -> f64 {
        let terrain = |h: HexId| r.map.terrain[h as usize];
        match *a {
            Action::Pillage => self.w.pillage,
            Action::Capture(h) => {
                let site = r.sc.buildings.mine.terrain.contains(terrain(h));
                self.w.capture + if site { self.w.mine_site } else { 0.0 }
            }
            Action::Conquer(h) => {
                let fortified = st.hexes[h as usize].main.is_some_and(|m| r.sc.building(m).fortified);
                self.w.conquer + if fortified { self.w.fortified } else { 0.0 }
            }
            Action::Build { hex, kind } => {
                let base = match kind {
                    BuildingKind::Castle => self.w.castle,
                    BuildingKind::City => self.w.city,
                    BuildingKind::Mine => {
                        // Scaled by the yield of this terrain against what
                        // one pillage brings, the other use of an EP.
                        let y = r.sc.economy.mine.get(terrain(hex)).map_or(0.0, |d| d.mean());
                        self.w.mine * y / r.sc.economy.pillage.mean().max(1.0)
                    }
                    BuildingKind::Port => self.w.port,
                    BuildingKind::Tower => self.w.tower,
                    BuildingKind::Bridge => self.w.bridge,
                };
                // Replacing a building throws its value away.
                let replacing = kind.is_main() && st.hexes[hex as usize].main.is_some() && kind != BuildingKind::City;
                if replacing { base - self.w.replace } else { base }
            }
            _ => 0.0,
        }
    }
}

impl Strategy for Weighted {
    fn choose(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) -> usize {
        match d {
            Decision::Bid { attacking, .. } => {
                let pool = st.players[me as usize].initiative as f64;
                let share = if attacking { self.w.bid_attack } else { self.w.bid_defend };
                let want = (pool * share).round() as usize;
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
                let mut scores = std::mem::take(&mut self.scores);
                self.score_options(r, st, me, d, options, &mut scores);
                // `Done` (last by convention, scored 0) unless something beats it.
                let mut best = options.len() - 1;
                let mut best_score = 0.0;
                for (i, &s) in scores.iter().enumerate() {
                    if s > best_score {
                        best_score = s;
                        best = i;
                    }
                }
                self.scores = scores;
                best
            }
        }
    }
}
