//! The one driver: the loop that asks the players every decision and plays
//! seasons to a campaign's end. Every campaign the crate plays goes
//! through it: the runner (`play_observed`), the lineups and the studies
//! (`play_on_map_*`), the replay page and the searches' rollouts
//! (`seasons` from a copy of a state, to a horizon).
//!
//! The engine rolls the dice from the campaign's own stream (`Seed`), so a
//! campaign is the same game whoever plays it; `rules::Game` is the same
//! campaign one move at a time, with its dice as chance nodes, and
//! `tests/it/game_api.rs` holds that the two agree.

use std::ops::ControlFlow;

use crate::map::Map;
use crate::rules::season::Outcome;
use crate::rules::setup::{Gift, give, initial_state};
use crate::rules::{
    Action, CombatRecord, Decision, Dice, EndReason, Engine, Log, Observation, PlayerId, RngDice, Rules, State,
};
use crate::scenario::{ACTION_KIND_COUNT, Scenario};
use crate::seed;
use crate::strategy::Seats;

/// The players' side of the game: picks one of the legal options.
///
/// The driver asks it every decision with what the player to decide may
/// see (`Observation`: the position, which holds no secret; the attacker's
/// bid while the defender bids stays in the driver's engine, G-07).
/// Options are never empty; the returned index must be in range.
pub trait Players {
    fn choose(&mut self, rules: Rules<'_>, obs: Observation<'_>, decision: Decision, options: &[Action]) -> usize;
}

/// The engine and the players it is played by.
pub struct Driver<'a, D, P, L> {
    pub engine: Engine<'a, D, L>,
    pub players: P,
}

impl<'a, D: Dice, P: Players, L: Log> Driver<'a, D, P, L> {
    pub fn new(rules: Rules<'a>, dice: D, players: P, log: L) -> Self {
        Driver { engine: Engine::new(rules, dice, log), players }
    }

    pub fn rules(&self) -> Rules<'a> {
        self.engine.rules
    }

    /// Ask `p` to pick among the options the engine has just listed. An
    /// index out of range is the player's bug: the last option is played
    /// (checked in debug builds).
    fn ask(&mut self, st: &State, p: PlayerId, d: Decision) -> Action {
        let options = self.engine.options();
        let i = self.players.choose(self.engine.rules, Observation::new(st, p), d, options);
        debug_assert!(i < options.len(), "strategy returned option {i} of {}", options.len());
        options[i.min(options.len() - 1)]
    }

    /// Play the season to its end from wherever `st.step` stands inside
    /// it (its start, or any decision, as a rollout's copy is); the end
    /// reason if the campaign ends with it.
    pub fn play_season(&mut self, st: &mut State) -> Option<EndReason> {
        while let Some((p, d)) = self.engine.next_decision(st) {
            let a = self.ask(st, p, d);
            self.engine.apply(st, a);
        }
        st.ended
    }

    /// Play `a` as `p`'s whole action of the action phase from any
    /// position, asking the decisions inside it (bids, hits, formation,
    /// siege outcome); `st.step` is left as it was. The record of its
    /// combat (the last one's, for an action without combat).
    pub fn act(&mut self, st: &mut State, p: PlayerId, a: Action) -> CombatRecord {
        let back = st.step;
        self.engine.begin_act(st, p, a);
        while st.step.inside_action() {
            let (p, d) = self.engine.legal_actions(st).expect("a step inside an action is a decision");
            let a = self.ask(st, p, d);
            self.engine.apply(st, a);
        }
        st.step = back;
        st.fight.rec
    }

    /// Play seasons to the campaign's end and rank the players.
    pub fn play_campaign(&mut self, st: &mut State) -> Outcome {
        let end = seasons(self, st, None, |_, _| ControlFlow::Continue(()));
        self.engine.finish(st, end.unwrap_or(EndReason::SeasonLimit))
    }
}

/// Play seasons from `st` (a season's start, or any decision inside one,
/// as a rollout's copy is) until the campaign ends, `horizon` seasons
/// have been played (counting the one under way), or `after`, called with
/// the state at the end of every season, breaks. The end reason when the
/// campaign ended.
pub fn seasons<D: Dice, P: Players, L: Log>(
    d: &mut Driver<'_, D, P, L>,
    st: &mut State,
    horizon: Option<u32>,
    mut after: impl FnMut(Rules<'_>, &State) -> ControlFlow<()>,
) -> Option<EndReason> {
    let mut played = 0;
    loop {
        let end = d.play_season(st);
        played += 1;
        if after(d.engine.rules, st).is_break() || end.is_some() || horizon.is_some_and(|h| played >= h) {
            return end;
        }
    }
}

/// A campaign played by `drive`.
pub struct Driven<L> {
    pub state: State,
    pub outcome: Outcome,
    /// Actions each seat took, by kind (`ActionKind::index`).
    pub taken: Vec<[u32; ACTION_KIND_COUNT]>,
    /// The log the engine wrote.
    pub log: L,
    /// Whether `after` stopped the campaign before its end (the outcome
    /// then ranks the players where they stood, as a season limit would).
    pub stopped: bool,
}

/// Play the campaign of `campaign_seed` on `map` to its end: `strategies`
/// in the seats (each seeded from the campaign's streams), `gifts[k] =
/// (seat, gift)` handed out before season 1 (a gift draws no dice, so
/// every other seat's game starts from the same streams; one with no place
/// is not given), and `after` called with the state after every season
/// (watching draws no dice; breaking stops the campaign there).
pub fn drive<L: Log>(
    sc: &Scenario,
    map: &Map,
    campaign_seed: u64,
    strategies: &[&str],
    gifts: &[(PlayerId, Gift)],
    log: L,
    after: impl FnMut(Rules<'_>, &State) -> ControlFlow<()>,
) -> Driven<L> {
    let rules = Rules::new(sc, map);
    let mut st = initial_state(rules);
    for &(seat, gift) in gifts {
        give(rules, &mut st, seat, gift);
    }
    let dice = RngDice(seed::rng(campaign_seed, seed::Stream::Dice));
    let players = Seats::named(sc, campaign_seed, strategies);
    let mut d = Driver::new(rules, dice, players, log);
    let end = seasons(&mut d, &mut st, None, after);
    let outcome = d.engine.finish(&mut st, end.unwrap_or(EndReason::SeasonLimit));
    Driven { state: st, outcome, taken: d.players.taken, log: d.engine.log, stopped: end.is_none() }
}
