//! The rules core: pure and deterministic.
//!
//! Invariants (see ARCHITECTURE.md):
//! - no IO, no threads, no polars or plotters here;
//! - the engine owns the dice: strategies only pick among legal actions;
//! - the engine owns the one secret, the attacker's bid while the defender
//!   bids (G-07): players see an `Observation` of a `State`, which holds
//!   none;
//! - given the scenario, the map, the dice faces and the strategies' picks,
//!   a campaign always unfolds the same way.
//!
//! The season follows G-01; each step lives in the module named for it.

pub mod action;
pub mod action_phase;
pub mod army;
pub mod dice;
pub mod driver;
pub mod economy;
pub mod empire;
pub mod event;
pub mod game;
pub mod invariants;
pub mod naval;
pub mod observation;
pub mod season;
pub mod setup;
pub mod siege;
pub mod spy;
pub mod state;
pub mod step;

pub use action::{Action, CombatKind, Decision, Item, SpyKind};
pub use dice::{Dice, RngDice, ScriptedDice};
pub use driver::{Driver, Players};
pub use event::{CombatRecord, Event, Log, NoLog, ScoreParts};
pub use game::{Game, Illegal, Move, Node};
pub use observation::Observation;
pub use state::{EndReason, Fight, NOBODY, Owner, PlayerId, State, Step};

use crate::map::Map;
use crate::scenario::Scenario;

/// The fixed part of a campaign: its scenario and its map.
#[derive(Clone, Copy)]
pub struct Rules<'a> {
    pub sc: &'a Scenario,
    pub map: &'a Map,
    /// `rival[a] >> b & 1`: whether `a` and `b` are rivals (E-02), worked
    /// out once from the teams because strategies ask it for every hex of
    /// every decision.
    rival: [u16; MAX_SEATS],
}

/// Seats a rival table holds: `PlayerState::beaten` is a `u16` mask, so no
/// scenario seats more (`scenario::check` allows far fewer).
const MAX_SEATS: usize = 16;

impl<'a> Rules<'a> {
    pub fn new(sc: &'a Scenario, map: &'a Map) -> Self {
        let mut rival = [0u16; MAX_SEATS];
        let n = sc.players.len().min(MAX_SEATS);
        for (a, row) in rival.iter_mut().enumerate().take(n) {
            for b in 0..n {
                let same_team = matches!(
                    (sc.players[a].team, sc.players[b].team),
                    (Some(x), Some(y)) if x == y
                );
                if a != b && !same_team {
                    *row |= 1 << b;
                }
            }
        }
        Rules { sc, map, rival }
    }

    /// Two players are rivals unless they share a team (E-02). `NOBODY` is
    /// everyone's rival but its own.
    #[inline]
    pub fn rivals(&self, a: PlayerId, b: PlayerId) -> bool {
        if a == NOBODY || b == NOBODY {
            return a != b;
        }
        match self.rival.get(a as usize) {
            Some(row) if (b as usize) < MAX_SEATS => row >> b & 1 == 1,
            _ => false,
        }
    }

    /// The rivals of seat `a` as a bit mask (bit `b`: `rivals(a, b)`), for
    /// a strategy that tests every hex's owner against it.
    #[inline]
    pub fn rivals_of(&self, a: PlayerId) -> u16 {
        self.rival.get(a as usize).copied().unwrap_or(0)
    }
}

/// The rules at work on a campaign: owns the dice and writes the log. It
/// asks no one: `next_decision` runs the rules up to a decision and lists
/// its legal actions, `apply` plays the one picked, and whoever picks
/// (a `Driver` with its players; a `Game`'s user) loops over the two.
pub struct Engine<'a, D, L> {
    pub rules: Rules<'a>,
    pub dice: D,
    pub log: L,
    /// Reused for every list of options, so deciding allocates nothing.
    buf: Vec<Action>,
    /// Reused by `is_legal` (debug builds) and a hit's ships, so
    /// `options()` stays as listed.
    check: Vec<Action>,
    /// Reused for the sea hexes a ship can reach (W-17).
    reach: Vec<(crate::map::HexId, i32)>,
    /// Reused: a bit per hex next to a hex the spending player controls.
    next_to_spender: Vec<u64>,
    /// Per player, the hexes next to its banners, kept as its row changes
    /// (`empire::NextToBanners`).
    next_to_banners: Vec<empire::NextToBanners>,
    /// The building kinds each coast and terrain take (`empire::build_on`).
    build_on: [[u8; crate::map::Terrain::ALL.len()]; 2],
    /// Reused by every season's order (`empire::rank_into`): the sizes,
    /// the seats ranked and the standings.
    sizes: Vec<empire::Size>,
    seats: Vec<PlayerId>,
    ranked: Vec<empire::Standing>,
    /// The attacker's bid while the defender bids (G-07): the rules' one
    /// secret, kept here and not in the `State` every player sees, and
    /// read by nothing outside the rules. Set when the attacker bids (or
    /// by `assume_attacker_bid`), taken when the bids are spent.
    attacker_bid: Option<i32>,
}

impl<'a, D: Dice, L: Log> Engine<'a, D, L> {
    pub fn new(rules: Rules<'a>, dice: D, log: L) -> Self {
        Engine {
            rules,
            dice,
            log,
            buf: Vec::with_capacity(128),
            check: Vec::with_capacity(128),
            reach: Vec::with_capacity(64),
            next_to_spender: Vec::with_capacity(rules.map.len().div_ceil(64)),
            next_to_banners: Vec::new(),
            build_on: empire::build_on(rules.sc),
            sizes: Vec::new(),
            seats: Vec::new(),
            ranked: Vec::new(),
            attacker_bid: None,
        }
    }

    /// Fight the defender's bid of a copy of a state against `guess` in
    /// place of the attacker's secret bid (G-07): the state holds no bid,
    /// so an engine playing on from a copy taken at a defender's bid
    /// (a search's rollout) is told what to assume, as OpenSpiel's
    /// resampling from an information state does. It writes a guess and
    /// reads nothing; without one the attacker's bid is taken as 0.
    pub fn assume_attacker_bid(&mut self, guess: i32) {
        self.attacker_bid = Some(guess);
    }

    /// The options listed by the last `*_options` call.
    pub fn options(&self) -> &[Action] {
        &self.buf
    }

    #[inline]
    fn sc(&self) -> &'a Scenario {
        self.rules.sc
    }

    #[inline]
    fn map(&self) -> &'a Map {
        self.rules.map
    }

    #[inline]
    fn emit(&mut self, e: impl FnOnce() -> Event) {
        if L::ENABLED {
            self.log.push(e());
        }
    }

    /// Roll the combat die ("dé", G-05).
    #[inline]
    fn die(&mut self) -> i32 {
        let e = self.rules.sc.combat.die;
        self.dice.roll_expr(&e).1 as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// E-02: the rival table worked out once agrees with the rule read
    /// directly from the teams, for every pair and for `NOBODY`.
    #[test]
    fn e02_rivals_table_matches_the_teams() {
        let mut sc = Scenario::default();
        while sc.players.len() < 5 {
            sc.players.push(sc.players[0].clone());
        }
        let teams = [Some(1), Some(1), None, Some(2), None];
        for (p, t) in sc.players.iter_mut().zip(teams) {
            p.team = t;
        }
        let map = Map::from_hexes(vec![((0, 0), crate::map::Terrain::Plains)], Default::default());
        let r = Rules::new(&sc, &map);
        for a in 0..5u8 {
            for b in 0..5u8 {
                let same_team = matches!((teams[a as usize], teams[b as usize]), (Some(x), Some(y)) if x == y);
                assert_eq!(r.rivals(a, b), a != b && !same_team, "{a} and {b}");
                assert_eq!(r.rivals_of(a) >> b & 1 == 1, r.rivals(a, b), "mask of {a}, bit {b}");
            }
            assert!(r.rivals(a, NOBODY) && r.rivals(NOBODY, a));
        }
        assert!(!r.rivals(NOBODY, NOBODY));
    }
}
