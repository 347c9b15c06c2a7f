//! `lookahead`: a weighted player that thinks before it decides.
//!
//! At every decision of a kind listed in `look_at` (recruiting, the action
//! phase or only its attacks, spending, initiative bids, the formation, the
//! siege outcome, where a ship takes a hit), it takes its `width` best
//! candidates by its own weights (plus `Done` where stopping is an option)
//! and plays each one out `rollouts` times on a copy of the state: the rest
//! of this season, then up to `horizon` seasons in all, with every player
//! following the `base` strategy. It keeps the candidate with the best mean
//! empire-size margin over its strongest rival. Every other decision is its
//! own weights'.
//!
//! The engine is a state machine (`rules::step`): the state a player is
//! shown holds the position inside the rule being played, a combat's bids
//! and hits included, so a rollout is a copy of that state with the
//! candidate applied and the campaign played on from there. Every
//! candidate starts from the very same position; nothing is replayed.
//!
//! One decision hides information: a defender bids without knowing the
//! attacker's secret bid (G-07), which the campaign's engine keeps and the
//! state does not hold. A rollout of a defender's bid is played against a
//! guess, the bid the `base` strategy makes in the attacker's place,
//! handed to the rollout's engine (`Rollouts::play`).
//!
//! Rollouts are the strategy's imagination, not the game: they roll their
//! own dice from the strategy's stream (seeded from the campaign seed), so
//! the real campaign's dice are untouched and the result still depends only
//! on (scenario, master seed, campaign index). Every candidate is played on
//! the same rollout dice (common random numbers), so the comparison between
//! candidates is not drowned in dice noise.

use super::Strategy;
use super::rollout::{LookAt, Rollouts, is_attack, margin, searcher};
use super::weighted::Weighted;
use crate::rules::{Action, Decision, Observation, PlayerId, Rules, State};
use crate::scenario::{Scenario, StrategySpec};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub struct Lookahead {
    own: Weighted,
    /// One `base` player per seat, reused across rollouts.
    crowd: Vec<Box<dyn Strategy>>,
    rollouts: u32,
    /// Seasons a rollout plays; `None` to the campaign's end.
    horizon: Option<u32>,
    width: usize,
    look: LookAt,
    rng: Pcg64Mcg,
    scores: Vec<f64>,
    cands: Vec<usize>,
    seeds: Vec<u128>,
    /// The copy every rollout plays on, kept for its vectors.
    copy: Option<State>,
}

impl Lookahead {
    /// `spec` is the lookahead's own entry; `sc` supplies its base strategy
    /// (checked to exist and not to look ahead itself).
    pub fn new(sc: &Scenario, spec: &StrategySpec, mut rng: Pcg64Mcg) -> Self {
        let (own, crowd) = searcher(sc, spec, &mut rng);
        Lookahead {
            own,
            crowd,
            rollouts: spec.rollouts.max(1),
            horizon: (spec.horizon > 0).then_some(spec.horizon),
            width: spec.width.max(1) as usize,
            look: LookAt::of(&spec.look_at),
            rng,
            scores: Vec::new(),
            cands: Vec::new(),
            seeds: Vec::new(),
            copy: None,
        }
    }

    /// The options worth a rollout, best first by the own weights; empty when
    /// this decision is left to the weights alone.
    fn candidates(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) {
        self.cands.clear();
        if options.len() < 2 {
            return;
        }
        let l = self.look;
        if !l.wants(d, options) {
            return;
        }
        let mut scores = std::mem::take(&mut self.scores);
        self.own.score_options(r, st, me, d, options, &mut scores);
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        match d {
            Decision::Act if !l.act => {
                // Attacks only: the best attacks, then what the weights
                // would do otherwise.
                self.cands.extend(order.iter().copied().filter(|&i| is_attack(&options[i])).take(self.width));
                let stay = order.iter().copied().find(|&i| !is_attack(&options[i]) && scores[i] > 0.0);
                self.cands.push(stay.unwrap_or(options.len() - 1));
            }
            Decision::Recruit | Decision::Act | Decision::Spend => {
                // The best choices, then stopping (`Done` is the last option).
                let last = options.len() - 1;
                self.cands.extend(order.iter().copied().filter(|&i| i != last).take(self.width));
                self.cands.push(last);
            }
            _ => {
                // A choice inside an action: its best `width` + 1 answers.
                self.cands.extend(order.iter().copied().take(self.width + 1));
            }
        }
        self.scores = scores;
    }
}

impl Strategy for Lookahead {
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        let (st, me) = (obs.state(), obs.player());
        self.candidates(r, st, me, d, options);
        if self.cands.len() < 2 {
            return self.own.choose(r, obs, d, options);
        }
        self.seeds.clear();
        for _ in 0..self.rollouts {
            let s = self.rng.random::<u128>();
            self.seeds.push(s);
        }
        let cands = std::mem::take(&mut self.cands);
        let seeds = std::mem::take(&mut self.seeds);
        let mut best = cands[0];
        let mut best_value = f64::NEG_INFINITY;
        let mut copy = self.copy.take().unwrap_or_else(|| st.clone());
        let mut rollouts = Rollouts::new(r, &mut self.crowd);
        // Best-ranked first, and only a strictly better mean replaces it, so
        // ties go to the weights' choice. A rollout's value: my empire size
        // minus my strongest rival's where it stops.
        for &c in &cands {
            let mut total = 0.0;
            for &seed in &seeds {
                rollouts.play(obs, d, options[c], seed, self.horizon, &mut copy);
                total += margin(r, &copy, me);
            }
            let mean = total / seeds.len() as f64;
            if mean > best_value {
                best_value = mean;
                best = c;
            }
        }
        self.cands = cands;
        self.seeds = seeds;
        self.copy = Some(copy);
        best
    }
}
