//! The one season loop: a driver asks its players every decision the
//! engine lists and plays seasons to a campaign's end. Every campaign is
//! played through it: `sim::Campaign` (the runner, lineups, studies, the
//! replay page), the searches' rollouts (`seasons` from a copy of a
//! state, to a horizon) and the rule tests' scripted players.
//!
//! It asks, the engine rules: the dice are the engine's (`Dice`), so a
//! campaign is the same game whoever plays it. `Game` is the same
//! campaign one move at a time, with its dice as chance nodes
//! (`tests/it/game_api.rs` holds that the two agree).

use std::ops::ControlFlow;

use super::season::Outcome;
use super::{Action, CombatRecord, Decision, Dice, EndReason, Engine, Log, Observation, PlayerId, Rules, State};

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

    /// Ask `p` to pick among the options the engine has just listed, and
    /// play the pick. An index out of range is the player's bug: the last
    /// option is played (checked in debug builds).
    pub fn decide(&mut self, st: &mut State, p: PlayerId, d: Decision) {
        let options = self.engine.options();
        let i = self.players.choose(self.engine.rules, Observation::new(st, p), d, options);
        debug_assert!(i < options.len(), "strategy returned option {i} of {}", options.len());
        let a = options[i.min(options.len() - 1)];
        self.engine.apply(st, a);
    }

    /// Ask the decisions left inside the action under way (bids, hits,
    /// formation, siege outcome), up to its end; the record of its combat
    /// (the last one's, for an action without combat).
    pub fn finish_action(&mut self, st: &mut State) -> CombatRecord {
        while st.step.inside_action() {
            let (p, d) = self.engine.legal_actions(st).expect("a step inside an action is a decision");
            self.decide(st, p, d);
        }
        st.fight.rec
    }

    /// Play an action whole from any position: `begin` starts it on the
    /// engine, its decisions are asked, and `st.step` is left as it was.
    pub fn whole(&mut self, st: &mut State, begin: impl FnOnce(&mut Engine<'a, D, L>, &mut State)) -> CombatRecord {
        let back = st.step;
        begin(&mut self.engine, st);
        let rec = self.finish_action(st);
        st.step = back;
        rec
    }

    /// Play `a` as `p`'s whole action of the action phase from any
    /// position (`whole`).
    pub fn act(&mut self, st: &mut State, p: PlayerId, a: Action) -> CombatRecord {
        self.whole(st, |e, st| e.begin_act(st, p, a))
    }

    /// Play the season to its end from wherever `st.step` stands inside
    /// it (its start, or any decision, as a rollout's copy is); the end
    /// reason if the campaign ends with it.
    pub fn play_season(&mut self, st: &mut State) -> Option<EndReason> {
        while let Some((p, d)) = self.engine.next_decision(st) {
            self.decide(st, p, d);
        }
        st.ended
    }

    /// Play seasons from `st` (a season's start, or any decision inside
    /// one, as a rollout's copy is) until the campaign ends, `horizon`
    /// seasons have been played (counting the one under way), or `after`,
    /// called with the state at the end of every season, breaks. The end
    /// reason when the campaign ended.
    pub fn seasons(
        &mut self,
        st: &mut State,
        horizon: Option<u32>,
        mut after: impl FnMut(Rules<'_>, &State) -> ControlFlow<()>,
    ) -> Option<EndReason> {
        let mut played = 0;
        loop {
            let end = self.play_season(st);
            played += 1;
            if after(self.engine.rules, st).is_break() || end.is_some() || horizon.is_some_and(|h| played >= h) {
                return end;
            }
        }
    }

    /// Play seasons to the campaign's end and rank the players.
    pub fn play_campaign(&mut self, st: &mut State) -> Outcome {
        let end = self.seasons(st, None, |_, _| ControlFlow::Continue(()));
        self.engine.finish(st, end.unwrap_or(EndReason::SeasonLimit))
    }
}
