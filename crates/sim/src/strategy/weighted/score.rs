//! What a weighted player makes of each option: the utility of a recruit,
//! an action or a purchase, from its spec's weights, plus its jitter.

use super::Weighted;
use super::goals::Set;
use crate::analysis::combat::army_outlook;
use crate::analysis::dice::difference;
use crate::map::{HexId, Terrain};
use crate::rules::army::army_parts;
use crate::rules::naval::naval_strength;
use crate::rules::siege::city_parts;
use crate::rules::{Action, Decision, Item, PlayerId, Rules, SpyKind, State};
use crate::scenario::{BuildingKind, StrategySpec};

/// What every option of one decision reads of the state, worked out once
/// per decision instead of once per option (each count is a pass over a
/// piece list, and a recruit or spend decision has dozens of options).
#[derive(Clone, Copy, Default)]
struct Shared {
    /// The player's units, spies and ships (recruit decisions).
    units: i32,
    spies: usize,
    ships: usize,
    /// What more gold is worth to a player already holding some (spend).
    glut: f64,
    /// The share of the campaign still to come after this season's
    /// spending: 11/12 in the first season of 12, 0 in the last (spend).
    left: f64,
    /// A pillage's mean, at least 1: the yardstick of a mine's yield.
    pillage: f64,
    /// A mine's mean yield on each terrain (0 where none pays): the same
    /// for every mine a spending decision offers.
    mine_yield: [f64; Terrain::ALL.len()],
}

impl Shared {
    fn of(w: &StrategySpec, r: Rules<'_>, st: &State, me: PlayerId, d: Decision) -> Shared {
        match d {
            Decision::Recruit => Shared {
                units: st.armies.iter().filter(|a| a.alive && a.owner == me).map(|a| a.units).sum(),
                spies: st.spies.iter().filter(|s| s.alive && s.owner == me).count(),
                ships: st.ships.iter().filter(|s| s.alive && s.owner == me).count(),
                ..Shared::default()
            },
            Decision::Spend => {
                let seasons = r.sc.campaign.seasons.max(1);
                Shared {
                    glut: 1.0 / (1.0 + w.gold_glut * st.players[me as usize].gold.max(0) as f64 / 100.0),
                    left: seasons.saturating_sub(st.season) as f64 / seasons as f64,
                    pillage: r.sc.economy.pillage.mean().max(1.0),
                    mine_yield: Terrain::ALL.map(|t| r.sc.economy.mine.get(t).map_or(0.0, |d| d.mean())),
                    ..Shared::default()
                }
            }
            _ => Shared::default(),
        }
    }
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
        self.goals.forget();
        out.clear();
        out.reserve(options.len());
        let shared = Shared::of(&self.w, r, st, me, d);
        for a in options {
            // `Done` scores exactly 0 and draws no jitter. (A pattern, not
            // `==`: the derived comparison of two actions was not inlined
            // and cost about 1% of a run.)
            let s = match (d, a) {
                (_, Action::Done) => {
                    out.push(0.0);
                    continue;
                }
                (Decision::Recruit, Action::Recruit { hex, item }) => {
                    self.recruit_score(r, st, me, &shared, *hex, *item)
                }
                (Decision::Spend, _) => self.spend_score(r, st, &shared, a),
                _ => self.act_score(r, st, me, a),
            };
            let j = self.jitter();
            out.push(s + j);
        }
    }

    fn recruit_score(&self, r: Rules<'_>, st: &State, me: PlayerId, sh: &Shared, hex: HexId, item: Item) -> f64 {
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
        match item {
            Item::Unit => {
                let u = self.w.unit / (1.0 + sh.units as f64 / self.w.unit_saturation);
                // The options offer a unit only on an empty hex or one where the player's army stands.
                if army.is_empty() { u * self.w.unit_alone } else { u }
            }
            Item::Engine => {
                // Engines are offered only where the player's army stands.
                let a = army.get().map(|i| &st.armies[i]);
                if a.is_some_and(|a| a.units >= self.w.engine_min_units && a.engines == 0) {
                    self.w.engine
                } else {
                    self.w.engine * self.w.engine_extra
                }
            }
            Item::Spy => self.w.spy / (1.0 + sh.spies as f64),
            Item::Ship => self.w.ship / (1.0 + sh.ships as f64),
        }
    }

    fn act_score(&mut self, r: Rules<'_>, st: &State, me: PlayerId, a: &Action) -> f64 {
        let g = &mut self.goals;
        match *a {
            Action::Attack { army, target } => {
                let mine = army_parts(r, st, army as usize, false).total();
                let theirs = army_parts(r, st, target as usize, true).total();
                let gap = (mine - theirs) as f64;
                if gap < self.w.aggression {
                    return -1.0;
                }
                let mut s = self.w.attack + gap;
                if self.w.attack_ep != 0.0 || self.w.attack_units != 0.0 {
                    let noise = self.noise.get_or_insert_with(|| difference(&r.sc.combat.die));
                    let (a, t) = (&st.armies[army as usize], &st.armies[target as usize]);
                    let o = army_outlook(r.sc, noise, mine - theirs, a.units, t.units, me);
                    s += self.w.attack_ep * (o.ep - r.sc.ep.no_battle as f64)
                        + self.w.attack_units * (o.d_loss - o.a_loss);
                }
                s
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
                        let full =
                            hs.owner().get().is_some_and(|o| st.players[o as usize].gold >= r.sc.spy.steal_gold as i64);
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
                let before = g.near_dist(r, st, me, set, ar.hex);
                if before <= 1 {
                    // On a goal no step gets closer or holds; next to one
                    // only a step onto it gets closer, and holding at 1 is
                    // not holding (`after > 1`).
                    return if before == 1 && g.at_goal(r, st, me, set, to) { self.w.advance + 1.0 } else { -1.0 };
                }
                let after = g.dist(r, st, me, set, to);
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
                let before = g.near_dist(r, st, me, Set::Ship, s.hex);
                if before <= 1 {
                    // Only a step onto a goal gets closer.
                    return if before == 1 && g.at_goal(r, st, me, Set::Ship, to) { self.w.sail } else { -1.0 };
                }
                let after = g.dist(r, st, me, Set::Ship, to);
                if after < before { self.w.sail } else { -1.0 }
            }
            Action::Transport { army, to, .. } => {
                let ar = &st.armies[army as usize];
                if ar.units < self.w.garrison {
                    return -1.0;
                }
                let before = g.near_dist(r, st, me, Set::Enemy, ar.hex);
                // Within 1 of a goal no landing gains the 2 hexes asked.
                if before <= 1 {
                    return -1.0;
                }
                let after = g.dist(r, st, me, Set::Enemy, to);
                if after + 1 >= before {
                    return -1.0;
                }
                // A ship lands at most `naval.transport_units` units, as an army of
                // its own on an empty hex: one unit landed alone is the lone army
                // `unit_alone` weighs for a recruit, and is beaten where it lands
                // (the gift-ship probe's loss on the default island).
                let landed = ar.units.min(r.sc.naval.transport_units);
                let s = if landed <= 1 { self.w.transport * self.w.unit_alone } else { self.w.transport };
                if s > 0.0 { s } else { -1.0 }
            }
            Action::MoveSpy { spy, to } => {
                let s = &st.spies[spy as usize];
                let before = g.near_dist(r, st, me, Set::Spy, s.hex);
                // A spy next to a target stays whatever the step: the step's
                // distance is not asked.
                if before <= 1 {
                    -1.0
                } else if g.dist(r, st, me, Set::Spy, to) < before {
                    self.w.sail
                } else {
                    -1.0
                }
            }
            _ => 0.0,
        }
    }

    fn spend_score(&self, r: Rules<'_>, st: &State, sh: &Shared, a: &Action) -> f64 {
        let terrain = |h: HexId| r.map.terrain[h as usize];
        let (glut, left) = (sh.glut, sh.left);
        let w = &self.w;
        match *a {
            Action::Pillage => (w.pillage + w.pillage_slope * left) * glut,
            Action::Capture(h) => {
                let site = r.sc.buildings.mine.terrain.contains(terrain(h));
                w.capture + w.capture_slope * left + if site { w.mine_site } else { 0.0 }
            }
            Action::Conquer(h) => {
                let fortified = st.hexes[h as usize].main.is_some_and(|m| r.sc.building(m).fortified);
                w.conquer + w.conquer_slope * left + if fortified { w.fortified } else { 0.0 }
            }
            Action::Build { hex, kind } => {
                let base = match kind {
                    BuildingKind::Castle => w.castle + w.castle_slope * left,
                    BuildingKind::City => w.city + w.city_slope * left,
                    BuildingKind::Mine => {
                        // Scaled by the yield of this terrain against what
                        // one pillage brings, the other use of an EP.
                        let y = sh.mine_yield[terrain(hex) as usize];
                        (w.mine + w.mine_slope * left) * y / sh.pillage * glut
                    }
                    BuildingKind::Port => w.port + w.port_slope * left,
                    BuildingKind::Tower => w.tower + w.tower_slope * left,
                    BuildingKind::Bridge => w.bridge + w.bridge_slope * left,
                };
                // Replacing a building throws its value away.
                let replacing = kind.is_main() && st.hexes[hex as usize].main.is_some() && kind != BuildingKind::City;
                if replacing { base - w.replace } else { base }
            }
            _ => 0.0,
        }
    }
}
