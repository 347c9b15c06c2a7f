//! Campaign state: flat vectors indexed by id, cheap to clone (lookahead
//! strategies clone it for rollouts) and free of pointers.
//!
//! Pieces are never removed from their vectors during a campaign: a destroyed
//! piece is marked dead, so ids stay stable for logs and replays.

use crate::map::HexId;
use crate::scenario::{BuildingKind, FormationChoice};

pub type PlayerId = u8;
pub const NOBODY: PlayerId = u8::MAX;
/// "No piece" where an id is a plain `u16` (events, combat records).
pub const NONE: u16 = u16::MAX;

/// A hex's banner or a city's controller: a player, or nobody. One byte,
/// like the `PlayerId` with a sentinel it replaces, but the player is only
/// reached through `get`, so "nobody" cannot be used as an index by
/// mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Owner(u8);

impl Owner {
    pub const NOBODY: Owner = Owner(NOBODY);

    #[inline]
    pub fn of(p: PlayerId) -> Owner {
        Owner(p)
    }

    /// The player, if any.
    #[inline]
    pub fn get(self) -> Option<PlayerId> {
        (self.0 != NOBODY).then_some(self.0)
    }

    /// Held by player `p`. `p` is a player, never `NOBODY` (checked in
    /// debug builds; the hot loops ask this of every hex).
    #[inline]
    pub fn is(self, p: PlayerId) -> bool {
        debug_assert!(p != NOBODY, "Owner::is asks about a player");
        self.0 == p
    }

    #[inline]
    pub fn is_nobody(self) -> bool {
        self.0 == NOBODY
    }

    /// The id as events, logs and the rivalry test take it (`NOBODY` for
    /// nobody).
    #[inline]
    pub fn id(self) -> PlayerId {
        self.0
    }
}

/// What a hex holds of one kind of piece: an index into the state's vector
/// of it (`State::armies`, `State::cities`), or nothing. Two bytes, like the
/// `u16` with a sentinel it replaces, but "nothing" cannot be indexed by
/// mistake: the index is only reached through `get`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot(u16);

impl Slot {
    pub const EMPTY: Slot = Slot(u16::MAX);

    /// The slot holding piece `i`.
    #[inline]
    pub fn of(i: usize) -> Slot {
        debug_assert!(i < u16::MAX as usize, "piece index {i} out of range");
        Slot(i as u16)
    }

    /// The piece's index, if there is one.
    #[inline]
    pub fn get(self) -> Option<usize> {
        (self.0 != u16::MAX).then_some(self.0 as usize)
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == u16::MAX
    }

    /// The id as actions and events carry it (`NONE` when empty).
    #[inline]
    pub fn id(self) -> u16 {
        self.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexState {
    /// Banner on the hex (E-06, E-07), `NOBODY` if none. Private: it
    /// changes only through `State::set_owner`, the one door where a
    /// per-player index of hexes can be kept up to date.
    owner: Owner,
    /// Castle, city or mine (one per hex, G-22).
    pub main: Option<BuildingKind>,
    pub main_pv: i32,
    /// Port, tower or bridge.
    pub extra: Option<BuildingKind>,
    pub extra_pv: i32,
    /// The city, when `main` is a city.
    pub city: Slot,
    /// The army on the hex (at most one).
    pub army: Slot,
    /// A sabotaged mine pays nothing at the next payday (G-28).
    pub sabotaged: bool,
    /// Items recruited here this season (G-13).
    pub recruited: u8,
}

impl Default for HexState {
    fn default() -> Self {
        HexState {
            owner: Owner::NOBODY,
            main: None,
            main_pv: 0,
            extra: None,
            extra_pv: 0,
            city: Slot::EMPTY,
            army: Slot::EMPTY,
            sabotaged: false,
            recruited: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct City {
    pub hex: HexId,
    /// Who holds influence over it (G-19); `NOBODY` for a neutral city.
    pub controller: Owner,
    pub influence: i32,
    pub defence: i32,
    pub level: i32,
    pub stability: i32,
    pub pv: i32,
    /// A siege was made against it this season (G-17, G-18).
    pub besieged: bool,
    /// It suffered a hostile spy action this season (W-22, G-18).
    pub hostile: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Army {
    pub owner: PlayerId,
    pub hex: HexId,
    pub units: i32,
    pub xp: i32,
    pub formation: Option<FormationChoice>,
    pub engines: i32,
    /// Movement points left this season.
    pub mp: i32,
    /// Moved (or was carried) this season.
    pub moved: bool,
    /// Attacked this season (G-08).
    pub attacked: bool,
    /// Gained experience this season (W-06).
    pub xp_gained: bool,
    pub alive: bool,
}

impl Army {
    /// A fresh army, ready to move this season.
    pub fn new(owner: PlayerId, hex: HexId, units: i32, engines: i32, mp: i32) -> Army {
        Army {
            owner,
            hex,
            units,
            xp: 0,
            formation: None,
            engines,
            mp,
            moved: false,
            attacked: false,
            xp_gained: false,
            alive: true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ship {
    pub owner: PlayerId,
    pub hex: HexId,
    pub pv: i32,
    pub mp: i32,
    pub moved: bool,
    pub attacked: bool,
    pub alive: bool,
}

impl Ship {
    /// A fresh ship at full PV, ready to sail this season (G-26).
    pub fn new(sc: &crate::scenario::Scenario, owner: PlayerId, hex: HexId) -> Ship {
        Ship { owner, hex, pv: sc.naval.ship_pv, mp: sc.movement.ship, moved: false, attacked: false, alive: true }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spy {
    pub owner: PlayerId,
    pub hex: HexId,
    pub mp: i32,
    pub moved: bool,
    /// Used its hostile action this season, or lost it to W-25.
    pub acted: bool,
    pub alive: bool,
}

/// Counters kept per player for reports (players.parquet in the runner).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub gold_mines: i64,
    pub gold_pillage: i64,
    pub gold_loot: i64,
    pub gold_spent: i64,
    pub ep_earned: i64,
    pub ep_capture: i64,
    pub ep_conquer: i64,
    pub ep_build: i64,
    pub ep_pillage: i64,
    pub ep_lost: i64,
    pub battles_won: u32,
    pub battles_drawn: u32,
    pub battles_lost: u32,
    pub sieges: u32,
    pub cities_taken: u32,
    pub naval_won: u32,
    pub naval_lost: u32,
    pub spy_success: u32,
    pub spy_lost: u32,
    /// Experience its armies gained (W-06): what `army.xp_needs_destroyed`
    /// moves, counted for the combat answers' readings.
    pub xp_gained: u32,
    /// Army battles this player started, by the better of the two sides'
    /// results (indexed by `BattleResult as usize`): how often each row of
    /// the result scale comes up, for the coverage table.
    pub army_results: [u32; 5],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerState {
    pub gold: i64,
    pub ep: i32,
    /// Initiative points left this season (G-07).
    pub initiative: i32,
    /// E-01..E-03: EP of this season's battles, summed, and their count.
    pub battle_ep: i32,
    pub battles: i32,
    /// Players beaten in a battle this season (E-07), as a bit mask.
    pub beaten: u16,
    pub eliminated: bool,
    /// EP handed to the player on top of the next season's earnings (a
    /// gift of the competence check, `setup::give`); 0 in ordinary play.
    pub ep_gift: i32,
    pub tally: Tally,
}

impl PlayerState {
    pub fn new(gold: i64) -> Self {
        PlayerState {
            gold,
            ep: 0,
            initiative: 0,
            battle_ep: 0,
            battles: 0,
            beaten: 0,
            eliminated: false,
            ep_gift: 0,
            tally: Tally::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The season limit was reached (G-02).
    SeasonLimit,
    /// A player holds the winning share of land hexes (G-02).
    Domination,
    /// Every rival has lost all its hexes (G-02).
    LastStanding,
    /// Every player lost all its hexes.
    AllEliminated,
    /// The season limit was reached after `campaign.stall_seasons` seasons
    /// in which no hex changed hands and no building rose or fell: a
    /// degenerate campaign, flagged so it can be replayed and looked at.
    Stalled,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::SeasonLimit => "season_limit",
            EndReason::Domination => "domination",
            EndReason::LastStanding => "last_standing",
            EndReason::AllEliminated => "all_eliminated",
            EndReason::Stalled => "stalled",
        }
    }
}

/// Where the campaign stands between two decisions: OpenSpiel's "current
/// player" and the position inside a rule, held in the state itself so a
/// copy of the state can be played on from any decision (a search does
/// that) and no rule keeps its place on the call stack.
///
/// The three turn loops of a season (recruit, act, spend) name the player
/// by `State::turn`, a position in `State::order`; the steps inside an
/// action name theirs through `State::fight`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Before a season: its start, the order (E-04) and payday (E-15) come
    /// next.
    SeasonStart,
    /// G-01 step 2: the player at `turn` recruits or says `Done`.
    Recruit,
    /// G-01 step 4: the player at `turn` acts or says `Done`.
    Act,
    /// G-01 step 6: the player at `turn` spends EP or says `Done`.
    Spend,
    /// A combat's secret initiative bid (G-07): the attacker's, then the
    /// defender's.
    Bid { attacking: bool },
    /// G-26: a side of a naval or coastal combat places its next point of
    /// damage; `left` points are still to place.
    TakeHit { attacking: bool, left: u8 },
    /// W-07: the owner of the winning army picks its formation.
    Formation { army: u16 },
    /// W-11: the attacker picks what taking the city does.
    SiegeOutcome { city: u16 },
    /// The campaign is over (`State::ended` says why).
    Over,
}

impl Step {
    /// A step inside an action (a combat under way).
    pub fn inside_action(self) -> bool {
        matches!(self, Step::Bid { .. } | Step::TakeHit { .. } | Step::Formation { .. } | Step::SiegeOutcome { .. })
    }
}

/// A combat between its first decision and its end: what it has resolved
/// so far, in the record it will log. Meaningful only while `State::step`
/// is inside an action; the last combat's record stays until the next.
///
/// It holds nothing secret: the attacker's bid while the defender bids
/// (G-07) is kept by the engine that took it (`Engine::apply`), not here,
/// so every field of the state is one every player may see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fight {
    pub rec: super::event::CombatRecord,
    /// The cap on this combat's bids (G-07).
    pub bid_cap: i32,
    /// Whether the defender bids (a city never does, W-09).
    pub defender_bids: bool,
    /// Coastal attacks: the building under attack, and whether it is the
    /// hex's main building.
    pub building: Option<BuildingKind>,
    pub main: bool,
}

impl Fight {
    /// A combat with its record so far and its bid rules.
    pub fn new(rec: super::event::CombatRecord, bid_cap: i32, defender_bids: bool) -> Fight {
        Fight { rec, bid_cap, defender_bids, building: None, main: false }
    }
}

/// Which hexes each player's banner stands on: a bit per hex, a row of
/// `words` 64-bit words per player, in one flat vector so a state copy (a
/// search copies thousands) is one allocation more, not one per player.
///
/// Kept by `State::set_owner`, the one door a banner changes through, so
/// the rules and players walk a player's own hexes instead of the whole
/// map (the scans of every hex in option lists and payday were the
/// engine's largest cost). Bits are read lowest first, which is map order:
/// the order options are listed in, which strategies' tie-break draws
/// follow. A fixed-size bitset crate would hold one set, not one row per
/// player in a single allocation.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Banners {
    words: usize,
    bits: Vec<u64>,
}

impl Clone for Banners {
    fn clone(&self) -> Self {
        Banners { words: self.words, bits: self.bits.clone() }
    }

    /// Into the rows already held (see `State::clone_from`).
    fn clone_from(&mut self, src: &Self) {
        self.words = src.words;
        self.bits.clone_from(&src.bits);
    }
}

impl Banners {
    /// No banners yet, on a map of `hexes` hexes with `players` players.
    pub fn new(players: usize, hexes: usize) -> Banners {
        let words = hexes.div_ceil(64);
        Banners { words, bits: vec![0; words * players] }
    }

    /// Player `p`'s row, empty for a player the state does not have.
    #[inline]
    pub fn row(&self, p: PlayerId) -> &[u64] {
        let start = p as usize * self.words;
        self.bits.get(start..start + self.words).unwrap_or(&[])
    }

    /// The hexes under `p`'s banner, in map order.
    #[inline]
    pub fn hexes(&self, p: PlayerId) -> Bits<'_> {
        Bits::new(self.row(p))
    }

    /// How many hexes `p` holds.
    #[inline]
    pub fn count(&self, p: PlayerId) -> u32 {
        self.row(p).iter().map(|w| w.count_ones()).sum()
    }

    /// Turn `p`'s bit for hex `h` on or off. A player the state does not
    /// have (only a broken test state names one) has no row; the
    /// invariant check reports such an owner from the hexes themselves.
    #[inline]
    fn put(&mut self, p: PlayerId, h: HexId, on: bool) {
        let i = p as usize * self.words + h as usize / 64;
        if (h as usize / 64) < self.words
            && let Some(w) = self.bits.get_mut(i)
        {
            let bit = 1u64 << (h % 64);
            if on { *w |= bit } else { *w &= !bit }
        }
    }
}

/// The hexes whose bits are set in a row of words, lowest first (map
/// order).
#[derive(Clone)]
pub struct Bits<'a> {
    words: &'a [u64],
    /// Index of the word after `cur`.
    next: usize,
    /// What is left of the current word.
    cur: u64,
}

impl<'a> Bits<'a> {
    pub fn new(words: &'a [u64]) -> Bits<'a> {
        Bits { words, next: 1, cur: words.first().copied().unwrap_or(0) }
    }
}

impl Iterator for Bits<'_> {
    type Item = HexId;

    #[inline]
    fn next(&mut self) -> Option<HexId> {
        while self.cur == 0 {
            self.cur = *self.words.get(self.next)?;
            self.next += 1;
        }
        let bit = self.cur.trailing_zeros() as usize;
        self.cur &= self.cur - 1;
        Some(((self.next - 1) * 64 + bit) as HexId)
    }
}

/// A campaign's position: the map's pieces, the players' purses and what
/// happens next. Every field is public information (G-29): the one secret
/// of the rules, the attacker's bid while the defender bids (G-07), is not
/// held here but by the engine that took it, so a copy of a state, compared
/// or played on, cannot show it. Players see a state through an
/// `Observation`.
#[derive(Debug, PartialEq)]
pub struct State {
    /// The current season, from 1.
    pub season: u32,
    pub hexes: Vec<HexState>,
    pub cities: Vec<City>,
    pub armies: Vec<Army>,
    pub ships: Vec<Ship>,
    pub spies: Vec<Spy>,
    pub players: Vec<PlayerState>,
    /// This season's order, smallest empire first (E-04, G-03, G-04).
    pub order: Vec<PlayerId>,
    pub ended: Option<EndReason>,
    /// Seasons in a row that ended with the same banners and buildings as
    /// the season before (`rules::season::end_of_season`), and the
    /// fingerprint they are compared by.
    pub quiet_seasons: u32,
    pub map_print: u64,
    /// What happens next (see `Step`).
    pub step: Step,
    /// The position in `order` of the player whose recruit, act or spend
    /// turn it is.
    pub turn: u8,
    /// The combat under way, when `step` is inside an action.
    pub fight: Fight,
    /// G-26: the attacking ships of the naval or coastal combat under way
    /// (the only ships the attacker's hits may fall on).
    pub fleet: Vec<u16>,
    /// Each player's hexes, kept by `set_owner` (read with `banners()`).
    pub(super) banners: Banners,
}

/// Written out, not derived, for `clone_from`: a search copies the state it
/// decides at into the same copy before every rollout, and the derived
/// `clone_from` would allocate every vector anew each time (a new copy and
/// a new engine per rollout were about 5% of a search's instructions,
/// mostly allocating and freeing). Both functions name every field, so a
/// new field cannot be left out of either.
impl Clone for State {
    fn clone(&self) -> Self {
        State {
            season: self.season,
            hexes: self.hexes.clone(),
            cities: self.cities.clone(),
            armies: self.armies.clone(),
            ships: self.ships.clone(),
            spies: self.spies.clone(),
            players: self.players.clone(),
            order: self.order.clone(),
            ended: self.ended,
            quiet_seasons: self.quiet_seasons,
            map_print: self.map_print,
            step: self.step,
            turn: self.turn,
            fight: self.fight,
            fleet: self.fleet.clone(),
            banners: self.banners.clone(),
        }
    }

    /// A copy into the vectors `self` already holds.
    fn clone_from(&mut self, src: &Self) {
        let State {
            season,
            hexes,
            cities,
            armies,
            ships,
            spies,
            players,
            order,
            ended,
            quiet_seasons,
            map_print,
            step,
            turn,
            fight,
            fleet,
            banners,
        } = src;
        self.season = *season;
        self.hexes.clone_from(hexes);
        self.cities.clone_from(cities);
        self.armies.clone_from(armies);
        self.ships.clone_from(ships);
        self.spies.clone_from(spies);
        self.players.clone_from(players);
        self.order.clone_from(order);
        self.ended = *ended;
        self.quiet_seasons = *quiet_seasons;
        self.map_print = *map_print;
        self.step = *step;
        self.turn = *turn;
        self.fight = *fight;
        self.fleet.clone_from(fleet);
        self.banners.clone_from(banners);
    }
}

impl HexState {
    /// The banner on the hex (E-06, E-07), `NOBODY` if none.
    #[inline]
    pub fn owner(&self) -> Owner {
        self.owner
    }
}

impl State {
    /// Plant `o`'s banner on hex `h` (`NOBODY` clears it): every change of
    /// a hex's banner goes through here.
    #[inline]
    pub fn set_owner(&mut self, h: HexId, o: Owner) {
        let hs = &mut self.hexes[h as usize];
        let old = std::mem::replace(&mut hs.owner, o);
        if let Some(p) = old.get() {
            self.banners.put(p, h, false);
        }
        if let Some(p) = o.get() {
            self.banners.put(p, h, true);
        }
    }

    /// Every player's hexes, as `set_owner` keeps them.
    #[inline]
    pub fn banners(&self) -> &Banners {
        &self.banners
    }

    #[inline]
    pub fn army_at(&self, h: HexId) -> Option<usize> {
        self.hexes[h as usize].army.get()
    }

    #[inline]
    pub fn city_at(&self, h: HexId) -> Option<usize> {
        self.hexes[h as usize].city.get()
    }

    /// Owner of the ships on a sea hex (ships of one player only share a hex).
    pub fn ship_owner_at(&self, h: HexId) -> PlayerId {
        self.ships.iter().find(|s| s.alive && s.hex == h).map_or(NOBODY, |s| s.owner)
    }

    pub fn ships_at(&self, h: HexId) -> impl Iterator<Item = usize> + '_ {
        self.ships.iter().enumerate().filter(move |(_, s)| s.alive && s.hex == h).map(|(i, _)| i)
    }

    /// Who controls a hex for adjacency (G-19): its banner, or the holder of a
    /// federated city on it.
    #[inline]
    pub fn controls(&self, p: PlayerId, h: HexId) -> bool {
        let hs = &self.hexes[h as usize];
        hs.owner.is(p) || hs.city.get().is_some_and(|c| self.cities[c].controller.is(p))
    }

    pub fn hexes_of(&self, p: PlayerId) -> u32 {
        self.banners.count(p)
    }
}

/// Reference to a piece, for events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    Army(u16),
    Ship(u16),
    Spy(u16),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_is_a_player_or_nobody() {
        assert_eq!(Owner::of(3).get(), Some(3));
        assert!(Owner::of(3).is(3) && !Owner::of(3).is(2) && !Owner::of(3).is_nobody());
        assert_eq!(Owner::NOBODY.get(), None);
        assert!(Owner::NOBODY.is_nobody() && !Owner::NOBODY.is(0));
        assert_eq!((Owner::NOBODY.id(), Owner::of(0).id()), (NOBODY, 0));
        assert_eq!(HexState::default().owner, Owner::NOBODY);
    }

    #[test]
    fn banners_list_a_players_hexes_in_map_order() {
        let mut b = Banners::new(3, 130);
        for h in [129, 0, 64, 63, 5] {
            b.put(1, h, true);
        }
        b.put(2, 7, true);
        b.put(1, 5, false);
        assert_eq!(b.hexes(1).collect::<Vec<_>>(), vec![0, 63, 64, 129]);
        assert_eq!((b.count(0), b.count(1), b.count(2)), (0, 4, 1));
        assert_eq!(b.hexes(2).collect::<Vec<_>>(), vec![7]);
        // A player the state does not have holds nothing and changes nothing.
        b.put(9, 3, true);
        assert_eq!((b.count(9), b.hexes(9).count()), (0, 0));
        assert_eq!(Bits::new(&[]).count(), 0);
    }

    /// A state copied into another, of another map and further on, is
    /// its clone: `clone_from` leaves nothing of what it overwrites.
    #[test]
    fn a_state_copied_into_another_is_its_clone() {
        use crate::rules::Rules;
        use crate::rules::setup::{initial_state, make_map};
        let sc = crate::scenario::Scenario::default();
        let (small, large) = (make_map(&sc, 1).unwrap(), make_map(&sc, 2).unwrap());
        let a = initial_state(Rules::new(&sc, &small));
        let mut b = initial_state(Rules::new(&sc, &large));
        b.season = 7;
        b.armies.truncate(1);
        b.fleet.extend([3, 1]);
        b.order.reverse();
        b.ended = Some(EndReason::SeasonLimit);
        let h = b.hexes.len() as HexId - 1;
        b.set_owner(h, Owner::of(1));
        let mut into = b.clone();
        into.clone_from(&a);
        assert_eq!(into, a);
        into.clone_from(&b);
        assert_eq!(into, b);
        assert_eq!(b.clone(), b);
    }

    #[test]
    fn a_slot_is_an_index_or_nothing() {
        assert_eq!((Slot::of(7).get(), Slot::EMPTY.get()), (Some(7), None));
        assert!(Slot::EMPTY.is_empty() && !Slot::of(0).is_empty());
        assert_eq!(Slot::EMPTY.id(), NONE);
    }
}
