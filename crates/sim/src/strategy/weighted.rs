//! `weighted`: a one-step utility player whose weights come from the scenario
//! (`[strategies.NAME]`, G-30). It scores every legal option and takes the
//! best; `Done` scores 0, so it stops when nothing is worth doing. A tiny
//! random jitter from its own stream breaks ties between equal options, so
//! two campaigns never replay the same game move for move.
//!
//! Every number that shapes its play is a key of `StrategySpec`; the
//! archetypes of `scenarios/archetypes.toml` differ only in those numbers.

use super::Strategy;
use crate::analysis::combat::army_outlook;
use crate::analysis::dice::{Distribution, difference};
use crate::map::{HexId, Terrain};
use crate::rules::army::army_parts;
use crate::rules::naval::naval_strength;
use crate::rules::siege::city_parts;
use crate::rules::state::{Bits, HexState, Slot};
use crate::rules::{Action, Decision, Item, NOBODY, PlayerId, Rules, SpyKind, State};
use crate::scenario::{BuildingKind, SiegeChoice, StrategySpec};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub struct Weighted {
    w: StrategySpec,
    rng: Pcg64Mcg,
    /// The die difference of a combat (`combat.die`), worked out on the
    /// first attack weighed with `attack_ep` or `attack_units`.
    noise: Option<Distribution>,
    /// Goal hexes for movement, listed at most once per action-phase
    /// decision and reused for every option (listing them per option
    /// dominated run time).
    goals: Goals,
    /// Reused per decision.
    scores: Vec<f64>,
}

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

/// Append the coordinates of the rivals' hexes (the players whose bit is
/// set in `rivals`) that `keep` accepts: walked from the banner sets the
/// state keeps, so only held hexes are looked at, not the whole map. The
/// goals' order does not matter (only the nearest counts).
fn keep_rival_hexes(
    st: &State,
    coords: &[(i32, i32)],
    rivals: u64,
    union: &mut Vec<u64>,
    gq: &mut Vec<i32>,
    gr: &mut Vec<i32>,
    keep: impl Fn(&HexState) -> bool,
) {
    let banners = st.banners();
    union.clear();
    for p in (0..st.players.len()).filter(|&p| (rivals >> p) & 1 == 1) {
        let row = banners.row(p as PlayerId);
        union.resize(row.len(), 0);
        for (u, w) in union.iter_mut().zip(row) {
            *u |= w;
        }
    }
    for h in Bits::new(union) {
        if keep(&st.hexes[h as usize]) {
            let (q, r) = coords[h as usize];
            gq.push(q);
            gr.push(r);
        }
    }
}

/// Hexes pieces move toward, by kind of piece. A set is listed on its first
/// use in a decision: most decisions move one kind of piece, so most sets
/// are never listed at all.
#[derive(Default)]
struct Goals {
    /// The goals of each `Set`, as axial coordinates in two flat columns so
    /// the nearest-goal scan is a plain loop over integers. A goal may be
    /// listed twice; only the nearest counts.
    q: [Vec<i32>; SETS],
    r: [Vec<i32>; SETS],
    /// Bit `set` is on once that set is listed for the current decision.
    listed: u8,
    /// Distance from each hex to the nearest goal of each set, filled on
    /// first use (`UNKNOWN` until then): every option of a decision asks
    /// about the same few hexes.
    near: [Vec<u16>; SETS],
    /// The hexes of `near` filled in this decision, set back to `UNKNOWN`
    /// by `forget`: a handful, where clearing the whole map per set per
    /// decision cost more than the lookups it saved.
    filled: Vec<(u8, HexId)>,
    /// The owner of the first live ship on each hex, for the ship set.
    ship_owner: Vec<PlayerId>,
    /// Reused: the union of the rivals' banner sets.
    union: Vec<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Set {
    /// Rival hexes and rival armies.
    Army,
    /// The same plus cities an army with engines could besiege.
    ArmySiege,
    /// Rival ships, and rival hexes with a port, tower or bridge.
    Ship,
    /// Rival buildings and cities without a garrison.
    Spy,
    /// Rival hexes.
    Enemy,
}

const SETS: usize = 5;
const UNKNOWN: u16 = u16::MAX;

/// Whether what stands on hex `hs` (its banner and buildings, not its
/// pieces) makes it a goal of `set`, with `rival(o)` telling `me`'s rivals:
/// the one test `Goals::list` makes of every hex and `is_goal` of one.
/// Non-short-circuit `&` keeps the scan branch-free.
#[inline(always)]
fn hex_is_goal(st: &State, rival: impl Fn(PlayerId) -> bool, set: Set, hs: &HexState) -> bool {
    match set {
        Set::Enemy | Set::Army | Set::ArmySiege => rival(hs.owner().id()),
        Set::Ship => rival(hs.owner().id()) & hs.extra.is_some(),
        Set::Spy => {
            let target_owner = hs.city.get().map_or(hs.owner(), |c| st.cities[c].controller).id();
            rival(target_owner) & (hs.main.is_some() | hs.extra.is_some()) & hs.army.is_empty()
        }
    }
}

/// Whether hex `h` is a goal of `set` for the player whose rivals are
/// `rivals` (bit p: player p is a rival; `NOBODY`, 255, shifts by 63, a
/// bit no seat has): `Goals::list`'s tests asked of one hex. A piece
/// counts on the hex whose slot names it, and a sea hex's ships by its
/// first live ship, as the list walks them, so the two agree goal for
/// goal.
fn is_goal(r: Rules<'_>, st: &State, rivals: u64, set: Set, h: HexId) -> bool {
    let hs = &st.hexes[h as usize];
    let rival = |o: PlayerId| (rivals >> (o & 63)) & 1 == 1;
    let army_goal = || {
        hs.army.get().is_some_and(|ai| {
            let a = &st.armies[ai];
            a.alive && a.hex == h && rival(a.owner)
        })
    };
    let city_goal = || {
        hs.city.get().is_some_and(|ci| {
            let c = &st.cities[ci];
            c.hex == h && c.controller.get().is_none_or(rival)
        })
    };
    hex_is_goal(st, rival, set, hs)
        || match set {
            Set::Enemy | Set::Spy => false,
            Set::Army => army_goal(),
            Set::ArmySiege => army_goal() || city_goal(),
            Set::Ship => r.map.terrain[h as usize] == Terrain::Sea && rival(st.ship_owner_at(h)),
        }
}

/// Twice the distance from `(q, r)` to the nearest of the goals in the two
/// columns, `i32::MAX` without one. Halving is left to the caller so the
/// loop is the plain lane-wise arithmetic the compiler vectorises.
fn nearest_twice(gq: &[i32], gr: &[i32], (q, r): (i32, i32)) -> i32 {
    let n = gq.len().min(gr.len());
    let (gq, gr) = (&gq[..n], &gr[..n]);
    let mut best = i32::MAX;
    for k in 0..n {
        let dq = gq[k] - q;
        let dr = gr[k] - r;
        best = best.min(dq.abs() + dr.abs() + (dq + dr).abs());
    }
    best
}

impl Goals {
    /// A new decision: every set must be listed again, and every distance
    /// worked out in the last one is forgotten.
    fn forget(&mut self) {
        self.listed = 0;
        for &(i, h) in &self.filled {
            self.near[i as usize][h as usize] = UNKNOWN;
        }
        self.filled.clear();
    }

    /// Distance from `h` to the nearest goal of `set`, or 999 without one.
    fn dist(&mut self, r: Rules<'_>, st: &State, me: PlayerId, set: Set, h: HexId) -> u32 {
        let i = set as usize;
        if self.listed & (1 << i) == 0 {
            self.list(r, st, me, set);
        }
        let cached = self.near[i][h as usize];
        if cached != UNKNOWN {
            return cached as u32;
        }
        let d = match nearest_twice(&self.q[i], &self.r[i], r.map.coords[h as usize]) {
            i32::MAX => 999,
            twice => (twice / 2) as u32,
        };
        self.near[i][h as usize] = d.min(UNKNOWN as u32 - 1) as u16;
        self.filled.push((i as u8, h));
        d
    }

    /// `dist` for the hex a piece stands on: a goal on it or next to it
    /// answers 0 or 1 without listing the set (the map's neighbour table
    /// holds every hex at distance 1, so both are exact). A piece that near
    /// a goal needs no other distance (see `act_score`), so such a
    /// decision lists nothing; listing was most of the player's time.
    fn near_dist(&mut self, r: Rules<'_>, st: &State, me: PlayerId, set: Set, h: HexId) -> u32 {
        let i = set as usize;
        if let Some(&d) = self.near[i].get(h as usize)
            && d != UNKNOWN
        {
            return d as u32;
        }
        let rivals = r.rivals_of(me) as u64;
        let d = if is_goal(r, st, rivals, set, h) {
            0
        } else if r.map.adjacent(h).any(|n| is_goal(r, st, rivals, set, n)) {
            1
        } else {
            return self.dist(r, st, me, set, h);
        };
        if self.near[i].len() == r.map.len() {
            self.near[i][h as usize] = d;
            self.filled.push((i as u8, h));
        }
        d as u32
    }

    /// Whether `h` is a goal of `set`: distance 0, the one distance a
    /// step from a hex next to a goal is asked about.
    fn at_goal(&self, r: Rules<'_>, st: &State, me: PlayerId, set: Set, h: HexId) -> bool {
        match self.near[set as usize].get(h as usize) {
            Some(&d) if d != UNKNOWN => d == 0,
            _ => is_goal(r, st, r.rivals_of(me) as u64, set, h),
        }
    }

    /// List the goals of one set for `me` in the current state.
    ///
    /// Hexes are scanned only for what lives on hexes (banners, buildings);
    /// armies, cities and ships come from their own short vectors.
    fn list(&mut self, r: Rules<'_>, st: &State, me: PlayerId, set: Set) {
        let i = set as usize;
        self.listed |= 1 << i;
        if self.near[i].len() != r.map.len() {
            // A map of another size (a player reused across campaigns):
            // `forget` left every entry `UNKNOWN`, so only the length moves.
            self.near[i].clear();
            self.near[i].resize(r.map.len(), UNKNOWN);
        }
        // Bit p: player p is `me`'s rival. `NOBODY` (255) shifts by 63,
        // a bit no seat has, so an empty hex is nobody's.
        let rivals = r.rivals_of(me) as u64;
        let rival = |o: PlayerId| (rivals >> (o & 63)) & 1 == 1;
        let coords = &r.map.coords;
        let (gq, gr) = (&mut self.q[i], &mut self.r[i]);
        gq.clear();
        gr.clear();
        let n = st.hexes.len();
        // Room for every goal the set can have at once, so the columns
        // never grow mid-listing (growing them a few times a campaign per
        // set per player cost about 2% of a run).
        let most = n + st.armies.len() + st.cities.len() + st.ships.len();
        gq.reserve(most);
        gr.reserve(most);
        let union = &mut self.union;
        // One arm per set, each naming its set, so the test inlined into
        // the walk is that set's alone. A spy's target on a city hex is
        // the city's controller, who need not hold the banner (G-19): city
        // hexes are left to the walk over the cities below.
        match set {
            Set::Enemy | Set::Army | Set::ArmySiege => keep_rival_hexes(st, coords, rivals, union, gq, gr, |_| true),
            Set::Ship => keep_rival_hexes(st, coords, rivals, union, gq, gr, |hs| hs.extra.is_some()),
            Set::Spy => keep_rival_hexes(st, coords, rivals, union, gq, gr, |hs| {
                hs.city.is_empty() && hex_is_goal(st, rival, Set::Spy, hs)
            }),
        }
        let mut push = |h: HexId| {
            gq.push(coords[h as usize].0);
            gr.push(coords[h as usize].1);
        };
        if matches!(set, Set::Army | Set::ArmySiege) {
            for (ai, a) in st.armies.iter().enumerate() {
                if a.alive && st.hexes[a.hex as usize].army == Slot::of(ai) && rival(a.owner) {
                    push(a.hex);
                }
            }
        }
        if set == Set::Spy {
            for (ci, c) in st.cities.iter().enumerate() {
                let hs = &st.hexes[c.hex as usize];
                if hs.city == Slot::of(ci) && hex_is_goal(st, rival, Set::Spy, hs) {
                    push(c.hex);
                }
            }
        }
        if set == Set::ArmySiege {
            for (ci, c) in st.cities.iter().enumerate() {
                if st.hexes[c.hex as usize].city == Slot::of(ci) && c.controller.get().is_none_or(rival) {
                    push(c.hex);
                }
            }
        }
        if set == Set::Ship {
            // Walked backwards so the first live ship of a hex names its
            // owner, as `State::ship_owner_at` does.
            self.ship_owner.clear();
            self.ship_owner.resize(n, NOBODY);
            for s in st.ships.iter().rev().filter(|s| s.alive) {
                self.ship_owner[s.hex as usize] = s.owner;
            }
            for s in st.ships.iter().filter(|s| s.alive) {
                let h = s.hex as usize;
                if r.map.terrain[h] == Terrain::Sea && self.ship_owner[h] == s.owner && rival(s.owner) {
                    push(s.hex);
                }
            }
        }
    }
}

impl Weighted {
    pub fn new(w: StrategySpec, rng: Pcg64Mcg) -> Self {
        let (goals, scores) = SPARE.try_with(|s| s.try_borrow_mut().ok()?.pop()).ok().flatten().unwrap_or_default();
        Weighted { w, rng, noise: None, goals, scores }
    }

    /// A weighted player of `spec`'s keys. It reads only the numbers, so
    /// the lists and names a spec also holds (what it extends, a search's
    /// `look_at` and `base`, restrictions) are left empty rather than
    /// copied: copying them for every seat of every campaign cost about 1%
    /// of a run. Every other key is copied as it is (a key that is not a
    /// plain value must be added to the list below, or this fails to
    /// compile).
    pub fn of(spec: &StrategySpec, rng: Pcg64Mcg) -> Self {
        let w = StrategySpec {
            extends: None,
            base: String::new(),
            prior: String::new(),
            look_at: Vec::new(),
            value: Vec::new(),
            forbid: Vec::new(),
            force: Vec::new(),
            tune_keep: Vec::new(),
            members: Vec::new(),
            weights: Vec::new(),
            exploitability: Vec::new(),
            ..*spec
        };
        Weighted::new(w, rng)
    }

    fn jitter(&mut self) -> f64 {
        self.rng.random::<f64>() * self.w.jitter
    }

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

/// The most spare buffers a thread keeps: enough for every seat of a
/// campaign and a search's rollout players, with room to spare.
const SPARES: usize = 64;

thread_local! {
    /// Scratch buffers of weighted players dropped on this thread, handed
    /// to the next ones built on it. A campaign builds its players afresh
    /// and drops them at its end; growing each player's goal columns,
    /// distances and scores from nothing every campaign was 3% of a run.
    /// Only buffers are handed on, reset as a new decision resets them,
    /// and nothing reads one before that reset, so which buffers a player
    /// gets, and so the thread and the order campaigns ran in, changes no
    /// choice (a test in this file holds it).
    static SPARE: std::cell::RefCell<Vec<(Goals, Vec<f64>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Weighted {
    fn drop(&mut self) {
        let mut goals = std::mem::take(&mut self.goals);
        goals.forget();
        let spare = (goals, std::mem::take(&mut self.scores));
        // `try_`: a player dropped while its thread is being torn down
        // simply frees its buffers.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.len() < SPARES
            {
                s.push(spare);
            }
        });
    }
}

impl Strategy for Weighted {
    fn choose(&mut self, r: Rules<'_>, obs: crate::rules::Observation<'_>, d: Decision, options: &[Action]) -> usize {
        let (st, me) = (obs.state(), obs.player());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::setup::{initial_state, make_map};
    use crate::rules::{NoLog, RngDice};
    use crate::scenario::Scenario;
    use crate::sim::drive::{Driver, Players};
    use crate::strategy::shipped;

    const ALL: [Set; SETS] = [Set::Army, Set::ArmySiege, Set::Ship, Set::Spy, Set::Enemy];

    /// The goals of `set` by their plain definition, asked of one hex.
    fn goal_by_definition(r: Rules<'_>, st: &State, me: PlayerId, set: Set, h: HexId) -> bool {
        let hs = &st.hexes[h as usize];
        let rival = |o: PlayerId| o != NOBODY && r.rivals(me, o);
        let rival_hex = hs.owner().get().is_some_and(rival);
        let rival_army = hs.army.get().is_some_and(|a| st.armies[a].alive && rival(st.armies[a].owner));
        let city = hs.city.get().map(|c| &st.cities[c]);
        match set {
            Set::Enemy => rival_hex,
            Set::Army => rival_hex || rival_army,
            Set::ArmySiege => rival_hex || rival_army || city.is_some_and(|c| c.controller.get().is_none_or(rival)),
            Set::Ship => {
                (rival_hex && hs.extra.is_some())
                    || (r.map.terrain[h as usize] == Terrain::Sea && rival(st.ship_owner_at(h)))
            }
            Set::Spy => {
                let target = city.map_or(hs.owner(), |c| c.controller);
                target.get().is_some_and(rival) && (hs.main.is_some() || hs.extra.is_some()) && hs.army.is_empty()
            }
        }
    }

    /// Weighted players that, after every action-phase choice, check what
    /// the chooser's goals say of every hex against the definition.
    struct Checked {
        seats: Vec<Weighted>,
        asked: usize,
    }

    impl Players for Checked {
        fn choose(
            &mut self,
            r: Rules<'_>,
            obs: crate::rules::Observation<'_>,
            d: Decision,
            options: &[Action],
        ) -> usize {
            let (st, p) = (obs.state(), obs.player());
            let i = self.seats[p as usize].choose(r, obs, d, options);
            if d != Decision::Act {
                return i;
            }
            let g = &mut self.seats[p as usize].goals;
            for set in ALL {
                let goals: Vec<HexId> =
                    (0..r.map.len() as HexId).filter(|&h| goal_by_definition(r, st, p, set, h)).collect();
                for h in 0..r.map.len() as HexId {
                    let want = goals.iter().map(|&x| r.map.distance(h, x)).min().unwrap_or(999);
                    let at = format!("season {}, player {p}, hex {h}", st.season);
                    assert_eq!(g.at_goal(r, st, p, set, h), want == 0, "{at}");
                    assert_eq!(g.near_dist(r, st, p, set, h), want, "{at}");
                    assert_eq!(g.dist(r, st, p, set, h), want, "{at}");
                }
                self.asked += 1;
            }
            i
        }
    }

    /// Listed once a decision, answered 0 or 1 from a hex's neighbours
    /// and remembered within the decision, a weighted player's goals and
    /// distances are those of the plain definition at every action-phase
    /// decision, campaign after campaign (the same players on a new map).
    #[test]
    fn a_weighted_players_goal_distances_are_those_of_the_plain_definition() {
        for file in ["default.toml", "archipelago.toml", "straits.toml"] {
            let sc = shipped(file);
            let mut seats: Vec<Weighted> = (0..sc.players.len())
                .map(|p| {
                    let spec = sc.strategy(&sc.players[p].strategy).unwrap_or_default();
                    Weighted::of(&spec, Pcg64Mcg::new(p as u128 + 7))
                })
                .collect();
            let mut asked = 0;
            for campaign in 0..2u64 {
                let map = make_map(&sc, 100 + campaign).unwrap();
                let r = Rules::new(&sc, &map);
                let mut st = initial_state(r);
                let mut d =
                    Driver::new(r, RngDice(Pcg64Mcg::new(campaign as u128)), Checked { seats, asked: 0 }, NoLog);
                d.play_campaign(&mut st);
                asked += d.players.asked;
                seats = d.players.seats;
            }
            assert!(asked > 100, "{file}: only {asked} sets checked");
        }
    }

    /// A campaign's players built on the buffers of players dropped before
    /// them, who played other campaigns on another map (the straits'
    /// corsairs), play the campaign they play on new buffers.
    #[test]
    fn a_weighted_player_plays_the_same_on_another_players_buffers() {
        let play = |sc: &Scenario, seed: u64| {
            let map = make_map(sc, seed).unwrap();
            let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
            crate::sim::drive::drive(sc, &map, seed, &names, &[], NoLog, |_, _| std::ops::ControlFlow::Continue(()))
        };
        let (island, straits) = (shipped("default.toml"), shipped("straits.toml"));
        SPARE.with_borrow_mut(|s| s.clear());
        let fresh = play(&island, 5);
        for seed in 0..3 {
            play(&straits, seed);
        }
        assert!(SPARE.with_borrow(|s| s.len()) >= island.players.len(), "no buffers were handed on");
        let again = play(&island, 5);
        assert_eq!(again.state, fresh.state);
        assert_eq!(again.taken, fresh.taken);
    }
}
