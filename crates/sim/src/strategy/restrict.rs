//! Restricted play (Jaffe et al. 2012, "Evaluating competitive game balance
//! with restricted play"): any strategy with some action kinds forbidden, or
//! forced first whenever legal. Comparing a strategy with and without a kind
//! measures how much that option matters, with no new code per question.

use super::Strategy;
use crate::rules::action::ActionKind;
use crate::rules::{Action, Decision, Observation, Rules, State};

pub struct Restricted {
    inner: Box<dyn Strategy>,
    forbid: Vec<ActionKind>,
    force: Vec<ActionKind>,
    /// No army leaves a hex where its garrison defends it (W-05).
    hold_garrisons: bool,
    /// Reused per decision: the options the inner strategy may see, and
    /// where each sits in the full list.
    opts: Vec<Action>,
    idx: Vec<usize>,
}

impl Restricted {
    /// `inner` under `spec`'s restrictions.
    pub fn of(inner: Box<dyn Strategy>, spec: &crate::scenario::StrategySpec) -> Self {
        Restricted {
            inner,
            forbid: spec.forbid.clone(),
            force: spec.force.clone(),
            hold_garrisons: spec.hold_garrisons,
            opts: Vec::new(),
            idx: Vec::new(),
        }
    }

    /// Whether `spec` restricts anything (else its player is not wrapped).
    pub fn needed(spec: &crate::scenario::StrategySpec) -> bool {
        !spec.forbid.is_empty() || !spec.force.is_empty() || spec.hold_garrisons
    }

    /// Whether `a` takes an army away from a hex its garrison defends.
    fn leaves_garrison(r: Rules<'_>, st: &State, a: &Action) -> bool {
        match *a {
            Action::MoveArmy { army, .. } | Action::Transport { army, .. } => {
                crate::rules::army::garrison_defence(r, st, army as usize) > 0
            }
            _ => false,
        }
    }

    /// Let the inner strategy choose among `self.idx`, mapped back.
    fn delegate(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        self.opts.clear();
        self.opts.extend(self.idx.iter().map(|&i| options[i]));
        let k = self.inner.choose(r, obs, d, &self.opts);
        self.idx[k.min(self.idx.len() - 1)]
    }
}

impl Strategy for Restricted {
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        // Forced kinds, in list order: the first one with a legal option wins,
        // and the inner strategy picks which of those options.
        for f in 0..self.force.len() {
            let want = self.force[f];
            self.idx.clear();
            self.idx.extend((0..options.len()).filter(|&i| options[i].kind() == want));
            if !self.idx.is_empty() {
                return self.delegate(r, obs, d, options);
            }
        }
        self.idx.clear();
        let hold = self.hold_garrisons;
        self.idx.extend((0..options.len()).filter(|&i| {
            !self.forbid.contains(&options[i].kind()) && !(hold && Self::leaves_garrison(r, obs.state(), &options[i]))
        }));
        if self.idx.is_empty() {
            // Everything offered is forbidden (a sub-decision such as a bid):
            // fall back to the full list rather than stall the game.
            self.idx.extend(0..options.len());
        }
        self.delegate(r, obs, d, options)
    }

    fn redraw(&mut self, seed: u64) {
        self.inner.redraw(seed);
    }
}
