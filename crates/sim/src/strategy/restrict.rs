//! Restricted play (Jaffe et al. 2012, "Evaluating competitive game balance
//! with restricted play"): any strategy with some action kinds forbidden, or
//! forced first whenever legal. Comparing a strategy with and without a kind
//! measures how much that option matters, with no new code per question.

use super::Strategy;
use crate::rules::action::ActionKind;
use crate::rules::{Action, Decision, PlayerId, Rules, State};

pub struct Restricted {
    inner: Box<dyn Strategy>,
    forbid: Vec<ActionKind>,
    force: Vec<ActionKind>,
    /// Reused per decision: the options the inner strategy may see, and
    /// where each sits in the full list.
    opts: Vec<Action>,
    idx: Vec<usize>,
}

impl Restricted {
    pub fn new(inner: Box<dyn Strategy>, forbid: &[ActionKind], force: &[ActionKind]) -> Self {
        Restricted { inner, forbid: forbid.to_vec(), force: force.to_vec(), opts: Vec::new(), idx: Vec::new() }
    }

    /// Let the inner strategy choose among `self.idx`, mapped back.
    fn delegate(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) -> usize {
        self.opts.clear();
        self.opts.extend(self.idx.iter().map(|&i| options[i]));
        let k = self.inner.choose(r, st, me, d, &self.opts);
        self.idx[k.min(self.idx.len() - 1)]
    }
}

impl Strategy for Restricted {
    fn choose(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) -> usize {
        // Forced kinds, in list order: the first one with a legal option wins,
        // and the inner strategy picks which of those options.
        for f in 0..self.force.len() {
            let want = self.force[f];
            self.idx.clear();
            self.idx.extend((0..options.len()).filter(|&i| options[i].kind() == want));
            if !self.idx.is_empty() {
                return self.delegate(r, st, me, d, options);
            }
        }
        self.idx.clear();
        self.idx.extend((0..options.len()).filter(|&i| !self.forbid.contains(&options[i].kind())));
        if self.idx.is_empty() {
            // Everything offered is forbidden (a sub-decision such as a bid):
            // fall back to the full list rather than stall the game.
            self.idx.extend(0..options.len());
        }
        self.delegate(r, st, me, d, options)
    }

    fn redraw(&mut self, seed: u64) {
        self.inner.redraw(seed);
    }
}
