//! A weighted player's movement goals: the hexes each kind of piece moves
//! toward, listed at most once per action-phase decision, and the distance
//! from a hex to the nearest of them, remembered within the decision.

use crate::map::{HexId, Terrain};
use crate::rules::state::{Bits, HexState, Slot};
use crate::rules::{NOBODY, PlayerId, Rules, State};

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
pub(super) struct Goals {
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
pub(super) enum Set {
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

pub(super) const SETS: usize = 5;
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
    pub(super) fn forget(&mut self) {
        self.listed = 0;
        for &(i, h) in &self.filled {
            self.near[i as usize][h as usize] = UNKNOWN;
        }
        self.filled.clear();
    }

    /// Distance from `h` to the nearest goal of `set`, or 999 without one.
    pub(super) fn dist(&mut self, r: Rules<'_>, st: &State, me: PlayerId, set: Set, h: HexId) -> u32 {
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
    pub(super) fn near_dist(&mut self, r: Rules<'_>, st: &State, me: PlayerId, set: Set, h: HexId) -> u32 {
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
    pub(super) fn at_goal(&self, r: Rules<'_>, st: &State, me: PlayerId, set: Set, h: HexId) -> bool {
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

#[cfg(test)]
mod tests {
    use super::super::Weighted;
    use super::*;
    use crate::rules::setup::{initial_state, make_map};
    use crate::rules::{Action, Decision, NoLog, RngDice};
    use crate::rules::{Driver, Players};
    use crate::strategy::{Strategy, shipped};
    use rand_pcg::Pcg64Mcg;

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
}
