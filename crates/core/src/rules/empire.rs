//! Empires: size and order (G-03, E-04), empire points earned (E-01..E-03,
//! G-10, G-11) and spent (E-04..E-14), and the end of the campaign (G-02).

use super::action::Action;
use super::event::{Event, SpendKind};
use super::setup::place_city;
use super::state::{Bits, HexState, NOBODY, Owner, PlayerId, State};
use super::{Dice, Engine, Log, Rules};
use crate::map::{HexId, Terrain};
use crate::scenario::{BattleResult, BuildingKind, BuildingSpec, TieBreak};

/// What G-03 and G-02 rank players by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Hexes held plus hexes with a castle (a city counts as one): with
    /// `buildings.<kind>.counts_in_size`.
    pub size: u32,
    pub hexes: u32,
    pub cities: u32,
    /// Castles that are not cities.
    pub castles: u32,
}

/// G-03: empire size of every player, from the hexes each holds.
pub fn sizes(r: Rules<'_>, st: &State) -> Vec<Size> {
    let mut out = Vec::new();
    sizes_into(r, st, &mut out);
    out
}

/// `sizes` into `out`, reusing its room.
pub fn sizes_into(r: Rules<'_>, st: &State, out: &mut Vec<Size>) {
    out.clear();
    out.resize(st.players.len(), Size::default());
    // The kinds that count, as bits by kind: asked once here, not of
    // every building of every hex.
    let counts =
        BuildingKind::ALL.into_iter().filter(|&b| r.sc.building(b).counts_in_size).fold(0u8, |m, b| m | 1 << b as u8);
    let counted = |b: Option<BuildingKind>| b.is_some_and(|b| counts >> b as u8 & 1 == 1);
    for (p, s) in out.iter_mut().enumerate() {
        for h in st.banners().hexes(p as PlayerId) {
            let hs = &st.hexes[h as usize];
            s.hexes += 1;
            s.size += 1;
            if counted(hs.main) || counted(hs.extra) {
                s.size += 1;
            }
            if let Some(m) = hs.main {
                match m {
                    BuildingKind::City => s.cities += 1,
                    BuildingKind::Castle => s.castles += 1,
                    _ => {}
                }
            }
        }
    }
}

/// E-01 / E-02: the EP one battle's `result` gives player `p`: the
/// result's EP, less the team malus for a team member, never below 0.
pub fn battle_ep(sc: &crate::scenario::Scenario, p: PlayerId, result: BattleResult) -> i32 {
    let malus = if sc.team_of(p as usize).is_some() { sc.ep.team_malus } else { 0 };
    (sc.ep.results.get(result) - malus).max(0)
}

/// G-10: the winner's result by gap; destroying the enemy army is a
/// massacre when the scenario says so. A free function so that players can
/// weigh a battle's EP before they fight it.
pub fn result_for_gap(sc: &crate::scenario::Scenario, gap: i32, enemy_destroyed: bool) -> BattleResult {
    let ep = &sc.ep;
    if enemy_destroyed && ep.destroyed_is_massacre && gap > 0 {
        return BattleResult::Massacre;
    }
    ep.result_by_gap.lookup(gap.abs()).result
}

/// One line of the final standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player: PlayerId,
    pub rank: u8,
    pub size: Size,
    /// Equal to another player on size and every tie-break but the die (G-02).
    pub tie: bool,
}

/// Rounds of the tie-break roll-off before seat order decides (a guard for
/// dice that can keep tying forever; with a D6 two players are still equal
/// after 16 rounds once in 6^16 ≈ 2.8e12 roll-offs).
pub const ROLL_OFF_ROUNDS: u32 = 16;

impl<D: Dice, L: Log> Engine<'_, D, L> {
    /// Players ranked largest empire first (G-02, G-03), with the scenario's
    /// tie-breaks. A tie-break die is rolled only for players still tied.
    pub fn ranking(&mut self, st: &State, include_eliminated: bool) -> Vec<Standing> {
        let mut out = Vec::new();
        self.rank_into(st, include_eliminated, &mut out);
        out
    }

    /// `ranking` into `out`, on the engine's own buffers: every season's
    /// order asks it (a search's rollouts start many seasons), and it
    /// allocated its three small vectors afresh each time.
    fn rank_into(&mut self, st: &State, include_eliminated: bool, out: &mut Vec<Standing>) {
        let mut sizes = std::mem::take(&mut self.sizes);
        let mut ps = std::mem::take(&mut self.seats);
        sizes_into(self.rules, st, &mut sizes);
        ps.clear();
        ps.extend((0..st.players.len() as u8).filter(|&p| include_eliminated || !st.players[p as usize].eliminated));
        let tb = &self.sc().campaign.tiebreak;
        let key = |p: PlayerId| {
            let s = sizes[p as usize];
            let mut k = [s.size, 0, 0];
            let mut i = 1;
            for t in tb {
                match t {
                    TieBreak::Cities => {
                        k[i] = s.cities;
                        i += 1;
                    }
                    TieBreak::Castles => {
                        k[i] = s.castles;
                        i += 1;
                    }
                    TieBreak::Die => break,
                }
                if i == 3 {
                    break;
                }
            }
            k
        };
        ps.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
        let use_die = tb.contains(&TieBreak::Die);
        out.clear();
        let mut i = 0;
        while i < ps.len() {
            let mut j = i + 1;
            while j < ps.len() && key(ps[j]) == key(ps[i]) {
                j += 1;
            }
            let tied = j - i > 1;
            if tied && use_die {
                self.roll_off(&mut ps[i..j], ROLL_OFF_ROUNDS);
            }
            for &p in &ps[i..j] {
                out.push(Standing { player: p, rank: out.len() as u8 + 1, size: sizes[p as usize], tie: tied });
            }
            i = j;
        }
        self.sizes = sizes;
        self.seats = ps;
    }

    /// The die tie-break (G-02, G-03) as a roll-off: each tied player rolls
    /// the combat die, highest first; players whose rolls are equal roll
    /// again among themselves, for at most `rounds` rounds. Only players
    /// still equal after the last round keep seat order (`ps` comes in seat
    /// order), so seat order decides nothing a die could decide.
    fn roll_off(&mut self, ps: &mut [PlayerId], rounds: u32) {
        if ps.len() < 2 || rounds == 0 {
            return;
        }
        // On the stack for any seat count a scenario allows: a season's
        // order rolls off ties often, a search's rollouts many times.
        let mut stack = [(0, 0); super::MAX_SEATS];
        let mut heap = Vec::new();
        let rolls: &mut [(i32, PlayerId)] = if ps.len() <= stack.len() {
            &mut stack[..ps.len()]
        } else {
            heap.resize(ps.len(), (0, 0));
            &mut heap
        };
        for (roll, &p) in rolls.iter_mut().zip(ps.iter()) {
            *roll = (self.die(), p);
        }
        for &(die, player) in rolls.iter() {
            self.emit(|| Event::TieBreak { player, die });
        }
        rolls.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (k, &(_, p)) in rolls.iter().enumerate() {
            ps[k] = p;
        }
        let mut i = 0;
        while i < rolls.len() {
            let mut j = i + 1;
            while j < rolls.len() && rolls[j].0 == rolls[i].0 {
                j += 1;
            }
            self.roll_off(&mut ps[i..j], rounds - 1);
            i = j;
        }
    }

    /// E-04 / G-03 / G-04: the order for this season, smallest empire first,
    /// fixed for the whole season.
    pub fn set_order(&mut self, st: &mut State) {
        let mut ranking = std::mem::take(&mut self.ranked);
        self.rank_into(st, false, &mut ranking);
        st.order.clear();
        st.order.extend(ranking.iter().rev().map(|s| s.player));
        if L::ENABLED {
            for (pos, s) in ranking.iter().rev().enumerate() {
                self.log.push(Event::Order { pos: pos as u8, player: s.player, size: s.size.size });
            }
        }
        self.ranked = ranking;
    }

    /// E-01 / E-02: record one battle's result for a player.
    pub fn record_battle(&mut self, st: &mut State, p: PlayerId, result: BattleResult) {
        if p == NOBODY {
            return;
        }
        let ep = battle_ep(self.sc(), p, result);
        let pl = &mut st.players[p as usize];
        pl.battle_ep += ep;
        pl.battles += 1;
        match result {
            BattleResult::Defeat => pl.tally.battles_lost += 1,
            BattleResult::Draw => pl.tally.battles_drawn += 1,
            _ => pl.tally.battles_won += 1,
        }
    }

    /// G-10: the winner's result by gap (`result_for_gap`).
    pub fn result_for_gap(&self, gap: i32, enemy_destroyed: bool) -> BattleResult {
        result_for_gap(self.sc(), gap, enemy_destroyed)
    }

    /// G-01 step 5: E-01..E-03 and G-11.
    pub fn earn_ep(&mut self, st: &mut State) {
        let sc = self.sc();
        let no_battle = sc.ep.no_battle;
        for p in 0..st.players.len() {
            if st.players[p].eliminated {
                st.players[p].ep = 0;
                continue;
            }
            // E-02 read as "the team's battles are every member's": each
            // member counts the battles of its living teammates with its
            // own. This loop sets only EP, so what it reads here is the
            // season's, whichever player is paid first.
            let (battle_ep, battles) = match sc.team_of(p).filter(|_| sc.ep.team_shares_battles) {
                None => (st.players[p].battle_ep, st.players[p].battles),
                Some(t) => (0..st.players.len())
                    .filter(|&q| !st.players[q].eliminated && sc.team_of(q) == Some(t))
                    .fold((0, 0), |(s, n), q| (s + st.players[q].battle_ep, n + st.players[q].battles)),
            };
            let pl = &mut st.players[p];
            // E-03: the average, rounded down (EP per battle are never negative).
            let earned = if battles > 0 { battle_ep / battles } else { no_battle };
            // A gift is spent or lost like any EP (E-05), but is not earned;
            // a negative one (a resource's worth asked the other way) takes
            // from the earnings, never below none.
            pl.ep = (earned + std::mem::take(&mut pl.ep_gift)).max(0);
            pl.tally.ep_earned += earned as i64;
            let (battles, sum) = (battles, battle_ep);
            self.emit(|| Event::Ep { player: p as u8, battles, sum, earned });
        }
    }

    /// EP cost of capturing (E-06, E-10) or conquering (E-07, E-10, E-11) a hex.
    pub fn take_cost(&self, st: &State, h: HexId, conquer: bool) -> i32 {
        let sc = self.sc();
        let t = self.map().terrain[h as usize];
        let mut c = if conquer { sc.costs.conquer } else { sc.costs.capture };
        c += *sc.costs.terrain_surcharge.get(t);
        let hs = &st.hexes[h as usize];
        if conquer && [hs.main, hs.extra].into_iter().flatten().any(|b| sc.building(b).fortified) {
            c += sc.costs.fortified_surcharge;
        }
        c
    }

    /// Mark in `self.next_to_spender` the hexes next to one `p` controls
    /// (G-19): its banners and the cities it holds influence over.
    ///
    /// The part from the banners is kept per player (`NextToBanners`) and
    /// brought up to date from what the row gained and lost since: within
    /// a spending phase a player only gains hexes, so most listings mark
    /// the neighbours of one new hex, where marking the whole row each
    /// time was the largest line of spending.
    fn mark_next_to_own(&mut self, st: &State, p: PlayerId) {
        let map = self.map();
        let row = st.banners().row(p);
        if self.next_to_banners.len() <= p as usize {
            self.next_to_banners.resize_with(p as usize + 1, NextToBanners::default);
        }
        self.next_to_banners[p as usize].update(map, row);
        let near = &mut self.next_to_spender;
        near.clear();
        near.extend_from_slice(&self.next_to_banners[p as usize].near);
        // Cities it controls without its banner (federated, G-19); those
        // under its banner were marked with the row.
        for c in &st.cities {
            if c.controller.is(p) && !st.hexes[c.hex as usize].owner().is(p) && st.controls(p, c.hex) {
                mark_neighbours(map, near, c.hex);
            }
        }
    }

    /// Whether `p` may put `kind` on hex `h` now (E-08, E-12..E-15, G-15, G-22).
    pub fn can_build(&self, st: &State, p: PlayerId, h: HexId, kind: BuildingKind) -> bool {
        let sc = self.sc();
        let map = self.map();
        let hs = &st.hexes[h as usize];
        let spec = sc.building(kind);
        if !hs.owner().is(p) || !spec.terrain.contains(map.terrain[h as usize]) {
            return false;
        }
        if spec.coastal_only && !map.coastal[h as usize] {
            return false;
        }
        fits(spec, kind, hs)
    }

    /// Everything `p` can buy with its EP right now, into `self.buf`: the
    /// pillage, then hex by hex in map order, each hex's buildings in
    /// `BuildingKind::ALL` order. That order is part of the game (a
    /// strategy's tie-break draws follow it), so it must not change.
    pub fn spend_options(&mut self, st: &State, p: PlayerId) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.list_spend(st, p, &mut buf);
        self.buf = buf;
    }

    /// `spend_options` into `out`.
    fn list_spend(&mut self, st: &State, p: PlayerId, out: &mut Vec<Action>) {
        let sc = self.sc();
        let map = self.map();
        let ep = st.players[p as usize].ep;
        if ep <= 0 {
            return;
        }
        if sc.costs.pillage <= ep {
            out.push(Action::Pillage);
        }
        // What `p` can afford, as bits in `BuildingKind::ALL` order; with
        // the kinds a hex's terrain and coast take (`build_on`), a hex `p`
        // owns asks only what stands on it (`fits`) of the rest.
        let specs = BuildingKind::ALL.map(|kind| sc.building(kind));
        let afford = specs.iter().enumerate().filter(|(_, s)| s.cost <= ep).fold(0u8, |m, (k, _)| m | 1 << k);
        // E-07: the owners `p` may conquer from: rivals beaten this season.
        let conquerable = u32::from(st.players[p as usize].beaten & self.rules.rivals_of(p));
        // Only a hex `p` holds or one next to a hex it controls can be
        // bought: the two sets' union, walked in map order.
        self.mark_next_to_own(st, p);
        let own = st.banners().row(p);
        for w in 0..own.len() {
            let near_w = self.next_to_spender[w];
            for b in Bits::new(&[own[w] | near_w]) {
                let near = near_w >> b & 1 == 1;
                let hex = (w * 64) as HexId + b;
                let hs = &st.hexes[hex as usize];
                if !map.terrain[hex as usize].is_land() {
                    continue;
                }
                if hs.owner().is_nobody() {
                    // E-06: cities are taken by siege or conquest, never captured.
                    if hs.city.is_empty() && near && self.take_cost(st, hex, false) <= ep {
                        out.push(Action::Capture(hex));
                    }
                } else if hs.owner().is(p) {
                    let mut m =
                        afford & self.build_on[map.coastal[hex as usize] as usize][map.terrain[hex as usize] as usize];
                    while m != 0 {
                        let k = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let kind = BuildingKind::ALL[k];
                        if fits(specs[k], kind, hs) {
                            out.push(Action::Build { hex, kind });
                        }
                    }
                } else if conquerable.checked_shr(u32::from(hs.owner().id())).unwrap_or(0) & 1 == 1
                    && hs.army.get().is_none_or(|a| !hs.owner().is(st.armies[a].owner))
                    && (sc.costs.conquer_cities || hs.city.is_empty())
                    && near
                    && self.take_cost(st, hex, true) <= ep
                {
                    // E-07: only against a player beaten this season, and not
                    // while that player's own army still stands on the hex; a
                    // city only if the scenario lets EP take cities.
                    out.push(Action::Conquer(hex));
                }
            }
        }
    }

    /// E-05: a player's spending is over; the EP it did not spend are lost.
    pub(crate) fn close_spending(&mut self, st: &mut State, p: PlayerId) {
        let left = st.players[p as usize].ep;
        if left > 0 {
            st.players[p as usize].tally.ep_lost += left as i64;
            self.emit(|| Event::EpLost { player: p, ep: left });
        }
        st.players[p as usize].ep = 0;
    }

    /// Apply one purchase. The caller took it from `spend_options`.
    pub fn spend(&mut self, st: &mut State, p: PlayerId, a: Action) {
        let sc = self.sc();
        let (kind, hex, cost, gold) = match a {
            Action::Capture(h) => {
                let c = self.take_cost(st, h, false);
                st.set_owner(h, Owner::of(p));
                st.players[p as usize].tally.ep_capture += c as i64;
                (SpendKind::Capture, h, c, 0)
            }
            Action::Conquer(h) => {
                let c = self.take_cost(st, h, true);
                st.set_owner(h, Owner::of(p));
                if let Some(ci) = st.city_at(h) {
                    st.cities[ci].controller = Owner::of(p);
                    st.cities[ci].influence = sc.cities.owned_influence;
                }
                st.players[p as usize].tally.ep_conquer += c as i64;
                (SpendKind::Conquer, h, c, 0)
            }
            Action::Build { hex, kind } => {
                let c = sc.building(kind).cost;
                if kind == BuildingKind::City {
                    place_city(st, sc, hex, &sc.cities.built, p);
                } else {
                    let hs = &mut st.hexes[hex as usize];
                    if kind.is_main() {
                        hs.main = Some(kind);
                        hs.main_pv = sc.building(kind).pv;
                        hs.sabotaged = false;
                    } else {
                        hs.extra = Some(kind);
                        hs.extra_pv = sc.building(kind).pv;
                    }
                }
                st.players[p as usize].tally.ep_build += c as i64;
                (SpendKind::Build(kind), hex, c, 0)
            }
            Action::Pillage => {
                let c = sc.costs.pillage;
                let (_, g) = self.dice.roll_expr(&sc.economy.pillage);
                let pl = &mut st.players[p as usize];
                pl.gold += g;
                pl.tally.gold_pillage += g;
                pl.tally.ep_pillage += c as i64;
                (SpendKind::Pillage, crate::map::NO_HEX, c, g)
            }
            _ => return,
        };
        st.players[p as usize].ep -= cost;
        let ep_left = st.players[p as usize].ep;
        self.emit(|| Event::Spend { player: p, kind, hex, cost, ep_left, gold });
        // What the purchase made of the hex, for readers of the log.
        match kind {
            SpendKind::Conquer | SpendKind::Build(BuildingKind::City) => {
                if let Some(c) = st.city_at(hex) {
                    self.log_city(st, c);
                }
            }
            SpendKind::Build(b) => self.log_building(st, hex, b.is_main()),
            _ => {}
        }
    }

    /// G-02: the reason the campaign ends after this season, if any.
    pub fn end_check(&self, st: &State) -> Option<super::EndReason> {
        use super::EndReason::*;
        let sc = self.sc();
        let land = self.map().land_count as f64;
        // The players holding hexes, as bits by seat (a scenario has at
        // most `MAX_PLAYERS`, fewer than 64).
        let mut alive = 0u64;
        for p in 0..st.players.len() {
            let h = st.hexes_of(p as PlayerId);
            if h > 0 {
                alive |= 1 << p;
            }
            if land > 0.0 && h as f64 >= sc.campaign.land_share_to_win * land {
                return Some(Domination);
            }
        }
        if alive == 0 {
            return Some(AllEliminated);
        }
        let seats = || Bits::new(std::slice::from_ref(&alive));
        if sc.campaign.end_when_last_standing
            && st.players.len() > 1
            && seats().all(|a| seats().all(|b| !self.rules.rivals(a as PlayerId, b as PlayerId)))
        {
            return Some(LastStanding);
        }
        if st.season >= sc.campaign.seasons {
            let stalled = sc.campaign.stall_seasons > 0 && st.quiet_seasons >= sc.campaign.stall_seasons;
            return Some(if stalled { Stalled } else { SeasonLimit });
        }
        None
    }
}

/// Set in `near` the bit of every neighbour of `h`.
fn mark_neighbours(map: &crate::map::Map, near: &mut [u64], h: HexId) {
    for &n in map.neighbors[h as usize].iter().filter(|&&n| n != crate::map::NO_HEX) {
        near[n as usize / 64] |= 1 << (n % 64);
    }
}

/// Per coast (0: inland, 1: on the coast) and terrain, the building kinds
/// the scenario allows there, as bits in `BuildingKind::ALL` order: the
/// half of `can_build` that never changes in a campaign, worked out once
/// per engine where asking it of every hex and kind of every spending
/// listing was the largest line of spending.
pub(super) fn build_on(sc: &crate::scenario::Scenario) -> [[u8; Terrain::ALL.len()]; 2] {
    let mut on = [[0u8; Terrain::ALL.len()]; 2];
    for (k, kind) in BuildingKind::ALL.into_iter().enumerate() {
        let spec = sc.building(kind);
        for t in Terrain::ALL.into_iter().filter(|&t| spec.terrain.contains(t)) {
            on[1][t as usize] |= 1 << k;
            if !spec.coastal_only {
                on[0][t as usize] |= 1 << k;
            }
        }
    }
    on
}

/// Whether `kind` may go on a hex `p` owns where the terrain takes it,
/// given what stands there (E-12..E-15, G-16, G-22): `can_build`'s half
/// that changes as the campaign goes.
#[inline(always)]
fn fits(spec: &BuildingSpec, kind: BuildingKind, hs: &HexState) -> bool {
    if kind.is_main() {
        // A city is a city of document 003 too (G-16): it is never replaced.
        if hs.main == Some(BuildingKind::City) || hs.main == Some(kind) {
            return false;
        }
        match spec.requires {
            Some(r) => hs.main == Some(r),
            None => true,
        }
    } else {
        hs.extra != Some(kind) && spec.requires.is_none_or(|r| hs.extra == Some(r))
    }
}

/// One player's hexes next to its banners, and the banner row they were
/// marked from: a pure function of the map and the row, so it is kept
/// for as long as the engine plays on one map.
#[derive(Clone, Debug, Default)]
pub(crate) struct NextToBanners {
    row: Vec<u64>,
    near: Vec<u64>,
    /// Per hex, how many hexes of `row` it is next to: a hex keeps its
    /// mark while one is left, so a lost banner costs its six neighbours,
    /// where marking again from nothing cost the whole row. A search's
    /// rollouts lose many banners at once each time one starts again from
    /// the decision's state.
    count: Vec<u8>,
}

impl NextToBanners {
    /// Bring the marks up to `row`: the neighbours of each hex gained
    /// count one more, those of each hex lost one fewer.
    fn update(&mut self, map: &crate::map::Map, row: &[u64]) {
        if self.row.len() != row.len() || self.count.len() != map.len() {
            self.row.clear();
            self.row.resize(row.len(), 0);
            self.near.clear();
            self.near.resize(row.len(), 0);
            self.count.clear();
            self.count.resize(map.len(), 0);
        }
        for (w, (old, &new)) in self.row.iter_mut().zip(row).enumerate() {
            if *old == new {
                continue;
            }
            for b in Bits::new(&[new & !*old]) {
                for &n in map.neighbors[w * 64 + b as usize].iter().filter(|&&n| n != crate::map::NO_HEX) {
                    let c = &mut self.count[n as usize];
                    *c += 1;
                    if *c == 1 {
                        self.near[n as usize / 64] |= 1 << (n % 64);
                    }
                }
            }
            for b in Bits::new(&[*old & !new]) {
                for &n in map.neighbors[w * 64 + b as usize].iter().filter(|&&n| n != crate::map::NO_HEX) {
                    let c = &mut self.count[n as usize];
                    *c -= 1;
                    if *c == 0 {
                        self.near[n as usize / 64] &= !(1 << (n % 64));
                    }
                }
            }
            *old = new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;
    use rand_pcg::Pcg64Mcg;

    /// The builds a spending decision lists are those `can_build` (the
    /// rule as written, hex by hex) allows: every hex the spender holds in
    /// map order, every kind it can afford in `BuildingKind::ALL` order.
    /// Checked at every spending decision of random campaigns on the
    /// default rules and on a map with coasts and rivers for ports and
    /// bridges, so the listing's table of kinds per terrain and coast
    /// cannot drift from the rule.
    #[test]
    fn e12_the_builds_listed_are_those_the_rule_allows() {
        use crate::rules::{Action, Decision, NoLog, RngDice, Rules};
        let path = format!("{}/../../scenarios/straits.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let straits = crate::scenario::load_str(&text, &crate::scenario::Source::file(&path)).unwrap();
        let mut kinds_listed = [0usize; BuildingKind::ALL.len()];
        for sc in [crate::scenario::Scenario::default(), straits] {
            for seed in 0..4u64 {
                let map = crate::rules::setup::make_map(&sc, seed).unwrap();
                let r = Rules::new(&sc, &map);
                let mut st = crate::rules::setup::initial_state(r);
                let mut eng = Engine::new(r, RngDice(Pcg64Mcg::new(seed as u128)), NoLog);
                let mut pick = Pcg64Mcg::new(seed as u128 + 100);
                while st.ended.is_none() {
                    while let Some((p, d)) = eng.next_decision(&mut st) {
                        let options = eng.options().to_vec();
                        if d == Decision::Spend {
                            let ep = st.players[p as usize].ep;
                            let want: Vec<Action> = (0..map.len() as HexId)
                                .flat_map(|hex| BuildingKind::ALL.into_iter().map(move |kind| (hex, kind)))
                                .filter(|&(hex, kind)| {
                                    map.terrain[hex as usize].is_land()
                                        && sc.building(kind).cost <= ep
                                        && eng.can_build(&st, p, hex, kind)
                                })
                                .map(|(hex, kind)| Action::Build { hex, kind })
                                .collect();
                            let listed: Vec<Action> =
                                options.iter().copied().filter(|a| matches!(a, Action::Build { .. })).collect();
                            assert_eq!(listed, want, "season {}, player {p}, seed {seed}", st.season);
                            for a in &listed {
                                if let Action::Build { kind, .. } = a {
                                    kinds_listed[*kind as usize] += 1;
                                }
                            }
                        }
                        let i = pick.random_range(0..options.len());
                        eng.apply(&mut st, options[i]);
                    }
                }
            }
        }
        assert!(kinds_listed.iter().all(|&n| n > 0), "every kind listed somewhere: {kinds_listed:?}");
    }

    /// Kept up to date through gains and losses, the marks are those made
    /// from nothing for every row.
    #[test]
    fn g19_the_hexes_next_to_a_players_banners_are_kept_as_they_are_marked_afresh() {
        let sc = crate::scenario::Scenario::default();
        let map = crate::rules::setup::make_map(&sc, 3).unwrap();
        let words = map.len().div_ceil(64);
        let mut rng = Pcg64Mcg::new(11);
        let mut kept = NextToBanners::default();
        let mut row = vec![0u64; words];
        let mut saved = row.clone();
        for step in 0..4_000 {
            // Mostly gains, now and then a loss, as campaigns go; and now
            // and then a jump back to an earlier row, many banners at
            // once, as a search's rollouts start again from its decision.
            let h = rng.random_range(0..map.len());
            match rng.random_range(0..40) {
                0 => std::mem::swap(&mut row, &mut saved),
                1 => saved.clone_from(&row),
                2..10 => row[h / 64] &= !(1 << (h % 64)),
                _ => row[h / 64] |= 1 << (h % 64),
            }
            kept.update(&map, &row);
            let mut fresh = vec![0u64; words];
            for h in Bits::new(&row) {
                mark_neighbours(&map, &mut fresh, h);
            }
            assert_eq!(kept.near, fresh, "step {step}");
        }
    }
}
