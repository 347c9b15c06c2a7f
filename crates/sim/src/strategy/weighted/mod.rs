//! `weighted`: a one-step utility player whose weights come from the scenario
//! (`[strategies.NAME]`, G-30). It scores every legal option and takes the
//! best; `Done` scores 0, so it stops when nothing is worth doing. A tiny
//! random jitter from its own stream breaks ties between equal options, so
//! two campaigns never replay the same game move for move.
//!
//! Every number that shapes its play is a key of `StrategySpec`; the
//! archetypes of `scenarios/archetypes.toml` differ only in those numbers.
//!
//! Its parts: `goals` (the hexes pieces move toward and the distances to
//! them), `score` (the utility of each option), and `pool` (the scratch
//! buffers handed from one player to the next on a thread).

mod goals;
mod pool;
mod score;

use super::Strategy;
use crate::analysis::dice::Distribution;
use crate::rules::{Action, Decision, Rules};
use crate::scenario::{SiegeChoice, StrategySpec};
use goals::Goals;
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

impl Weighted {
    pub fn new(w: StrategySpec, rng: Pcg64Mcg) -> Self {
        let (goals, scores) = pool::take();
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
