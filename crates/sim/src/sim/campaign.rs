//! The one door that plays a campaign: a builder over the scenario, the
//! seats, the campaign's seed, its map, gifts, a log and an observer,
//! played by the core's one season loop (`rules::Driver`) with the
//! strategies in the seats. The runner, the lineups, the studies, the
//! replay page and the command line's `play` all build through it.
//!
//! The engine rolls the dice from the campaign's own stream and each seat
//! draws from its own (`seed::Stream`), so a campaign is the same game
//! whoever asks for it: G-31, the result depends only on the scenario and
//! the campaign's seed (`tests/it/seeds.rs`).

use std::borrow::Cow;
use std::ops::ControlFlow;

use crate::map::Map;
use crate::rules::season::Outcome;
use crate::rules::setup::{Gift, SetupError, give, initial_state, make_map};
use crate::rules::{Driver, EndReason, Log, NoLog, PlayerId, RngDice, Rules, State};
use crate::scenario::{ACTION_KIND_COUNT, Scenario};
use crate::seed;
use crate::strategy::Seats;

/// The map is made from the campaign's seed when the campaign is played
/// (which can fail: a scenario's map that cannot be made).
#[derive(Clone, Copy, Debug)]
pub struct MadeMap;

/// A campaign to play: see the module's comment. `M` is where its map
/// comes from: `MadeMap`, or `&Map` (`on`: a fixed map made once per run,
/// or a test's), whose campaign cannot fail.
#[derive(Clone, Debug)]
pub struct Campaign<'a, M = MadeMap, L = NoLog> {
    sc: &'a Scenario,
    seed: u64,
    map: M,
    seats: Option<&'a [&'a str]>,
    gifts: &'a [(PlayerId, Gift)],
    log: L,
}

/// A campaign played to its end (or to where its observer stopped it).
pub struct Played<'a, L> {
    /// The map it was played on (borrowed when it was given).
    pub map: Cow<'a, Map>,
    pub state: State,
    pub outcome: Outcome,
    /// Actions each seat took, by kind (`ActionKind::index`).
    pub taken: Vec<[u32; ACTION_KIND_COUNT]>,
    /// The log the engine wrote.
    pub log: L,
    /// Whether the observer stopped the campaign before its end (the
    /// outcome then ranks the players where they stood, as a season limit
    /// would).
    pub stopped: bool,
}

impl<'a> Campaign<'a> {
    /// The campaign of seed `campaign_seed`, the scenario's strategies in
    /// its seats, its map made from the seed, no gift, no log.
    pub fn new(sc: &'a Scenario, campaign_seed: u64) -> Self {
        Campaign { sc, seed: campaign_seed, map: MadeMap, seats: None, gifts: &[], log: NoLog }
    }

    /// Campaign `index` of master seed `master` (G-31).
    pub fn numbered(sc: &'a Scenario, master: u64, index: u64) -> Self {
        Campaign::new(sc, seed::campaign_seed(master, index))
    }
}

impl<'a, M, L: Log> Campaign<'a, M, L> {
    /// Played on `map`, already made.
    pub fn on(self, map: &'a Map) -> Campaign<'a, &'a Map, L> {
        let Campaign { sc, seed, seats, gifts, log, .. } = self;
        Campaign { sc, seed, map, seats, gifts, log }
    }

    /// Seat `i` plays strategy `names[i]` (seat rotation and lineups move
    /// the strategies around); each seat is seeded from the campaign's
    /// streams whatever it plays.
    pub fn seats(self, names: &'a [&'a str]) -> Self {
        Campaign { seats: Some(names), ..self }
    }

    /// `gifts[k] = (seat, gift)` handed out before season 1 (`setup::give`;
    /// a gift with no place is not given). A gift draws no dice, so every
    /// other seat's game starts from the same streams.
    pub fn gifts(self, gifts: &'a [(PlayerId, Gift)]) -> Self {
        Campaign { gifts, ..self }
    }

    /// The engine writes `log` (a `Vec<Event>`, `&mut` one, a combat log).
    pub fn log<L2: Log>(self, log: L2) -> Campaign<'a, M, L2> {
        let Campaign { sc, seed, map, seats, gifts, .. } = self;
        Campaign { sc, seed, map, seats, gifts, log }
    }

    /// Play it on `map`, calling `after` with the state at the end of every
    /// season (watching draws no dice; breaking stops the campaign there).
    fn run(self, map: Cow<'a, Map>, after: impl FnMut(Rules<'_>, &State) -> ControlFlow<()>) -> Played<'a, L> {
        let Campaign { sc, seed, seats, gifts, log, .. } = self;
        let (state, outcome, taken, log, stopped) = {
            let rules = Rules::new(sc, &*map);
            let mut st = initial_state(rules);
            for &(seat, gift) in gifts {
                give(rules, &mut st, seat, gift);
            }
            let dice = RngDice(seed::rng(seed, seed::Stream::Dice));
            let players = match seats {
                Some(names) => Seats::named(sc, seed, names),
                None => Seats::for_campaign(sc, seed),
            };
            let mut d = Driver::new(rules, dice, players, log);
            let end = d.seasons(&mut st, None, after);
            let outcome = d.engine.finish(&mut st, end.unwrap_or(EndReason::SeasonLimit));
            (st, outcome, d.players.taken, d.engine.log, end.is_none())
        };
        Played { map, state, outcome, taken, log, stopped }
    }
}

impl<'a, L: Log> Campaign<'a, MadeMap, L> {
    /// Make the map from the campaign's seed and play the campaign to its end.
    pub fn play(self) -> Result<Played<'a, L>, SetupError> {
        self.watch(|_, _| ControlFlow::Continue(()))
    }

    /// As `play`, calling `after` with the state at the end of every season
    /// (the same game: watching draws no dice; breaking stops it there).
    pub fn watch(self, after: impl FnMut(Rules<'_>, &State) -> ControlFlow<()>) -> Result<Played<'a, L>, SetupError> {
        let map = make_map(self.sc, self.seed)?;
        Ok(self.run(Cow::Owned(map), after))
    }
}

impl<'a, L: Log> Campaign<'a, &'a Map, L> {
    /// Play the campaign to its end on the map given.
    pub fn play(self) -> Played<'a, L> {
        self.watch(|_, _| ControlFlow::Continue(()))
    }

    /// As `play`, calling `after` with the state at the end of every season
    /// (the same game: watching draws no dice; breaking stops it there).
    pub fn watch(self, after: impl FnMut(Rules<'_>, &State) -> ControlFlow<()>) -> Played<'a, L> {
        let map = self.map;
        self.run(Cow::Borrowed(map), after)
    }
}
