//! `search`: a rollout search that judges an option by the campaigns it
//! wins, not by hand weights.
//!
//! At every decision of a kind listed in `look_at` with two options or
//! more, it
//!
//! 1. takes its weights' scores of the options as the logits of a policy
//!    (divided by `temperature`) and samples `top_k` distinct options from
//!    it with the Gumbel top-k trick (Kool et al. 2019, as Gumbel MuZero,
//!    Danihelka et al. 2022): every legal option has a chance, the weights
//!    only say which are likely; `Done` is always a candidate where
//!    stopping is an option;
//! 2. shares `budget` rollouts among the candidates by sequential halving
//!    (Karnin et al. 2013): each round gives every remaining candidate the
//!    same number of rollouts on the same rollout dice (common random
//!    numbers) and keeps the better half by mean value;
//! 3. plays each rollout on a copy of the state with the candidate applied,
//!    every player (itself included) following `base`, to the end of the
//!    campaign (`horizon` 0) or for `horizon` seasons;
//! 4. values a rollout by its result for the player: 1 for the largest
//!    empire (G-02), ½ for a tie for it, 0 otherwise, plus `margin_weight`
//!    times its size margin over the largest rival (a share of the land),
//!    so that among equally won games the larger win counts (a larger
//!    weight judges mostly by the margin). A rollout cut short by the horizon is
//!    valued the same way where it stops (who leads there), or by the
//!    learned value's win probability when `value` is set
//!    (`strategy::value`).
//!
//! This is a rollout algorithm (one step of policy improvement over `base`,
//! Bertsekas): what it prefers comes from the outcomes of the games the
//! rules produce, so a mine whose paydays win campaigns, a siege that takes
//! a city or a landing that takes hexes is chosen because of what it wins,
//! under whatever rule variant the scenario sets. Its strength is stated
//! against `base` and its family (weighted players): the rollouts are
//! `base`'s play. With a horizon, "what it wins" is the lead it holds
//! `horizon` seasons on: a mine's later paydays count only through the
//! lead the first ones buy. The shipped `search` looks 3 seasons ahead,
//! which duels showed stronger than rollouts to the end at half the cost
//! (docs/strength.md).
//!
//! The defender's bid hides information (G-07): as in the lookahead, each
//! rollout of it replaces the attacker's secret bid by the one `base` would
//! make (a determinization), so the real bid is never read. Rollout dice
//! come from the strategy's own stream.

use super::Strategy;
use super::rollout::{LookAt, Rollouts, margin_of, searcher};
use super::weighted::Weighted;
use crate::rules::empire::sizes;
use crate::rules::{Action, Decision, PlayerId, Rules, State};
use crate::scenario::{Scenario, StrategySpec};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub struct Search {
    /// Its own weights: the policy the candidates are sampled from, and
    /// its play at the decisions it does not search.
    own: Weighted,
    /// One `base` player per seat for the rollouts.
    crowd: Vec<Box<dyn Strategy>>,
    budget: u32,
    top_k: usize,
    /// Seasons a rollout plays; `None` to the campaign's end.
    horizon: Option<u32>,
    temperature: f64,
    /// Share of the policy spread evenly over the options (`explore`).
    explore: f64,
    /// A rollout's margin next to its win (`margin_weight`).
    margin_weight: f64,
    /// The learned value's coefficients (`value`); empty: `outcome`.
    value: Vec<f64>,
    look: LookAt,
    rng: Pcg64Mcg,
    scores: Vec<f64>,
    /// (option index, Gumbel key, value sum, rollouts) per candidate.
    cands: Vec<Candidate>,
    seeds: Vec<u128>,
    /// The copy every rollout plays on, kept for its vectors.
    copy: Option<State>,
}

#[derive(Clone, Copy, Debug)]
struct Candidate {
    option: usize,
    /// Gumbel noise plus logit: the sample's order, and the tie-break.
    key: f64,
    sum: f64,
    n: u32,
}

impl Candidate {
    fn mean(&self) -> f64 {
        if self.n == 0 { f64::NEG_INFINITY } else { self.sum / self.n as f64 }
    }
}

/// A rollout's value for `me`: a win (½ for a tie for the largest empire)
/// plus `margin_weight` times the size margin as a share of the land. At
/// the default 0.25 a won game always beats a lost one (a margin is at
/// most the whole land); larger weights let a wide lead in a lost rollout
/// outweigh a narrow win, which judges a short rollout by a steadier
/// signal than who happens to lead where it stops.
pub fn outcome(r: Rules<'_>, st: &State, me: PlayerId, margin_weight: f64) -> f64 {
    let sz = sizes(r, st);
    let m = margin_of(r, &sz, me);
    let win = if m > 0.0 {
        1.0
    } else if m == 0.0 {
        // Tied with the largest rival: shared between the tied players.
        let top = sz[me as usize].size;
        let tied = sz.iter().filter(|s| s.size == top).count().max(1);
        1.0 / tied as f64
    } else {
        0.0
    };
    let land = r.map.land_count.max(1) as f64;
    win + margin_weight * m / land
}

/// A rollout's worth to `me`: at the campaign's end (or without a learned
/// `value`) its `outcome`; cut short by the horizon, the learned value's
/// win probability at its last state.
fn worth(value: &[f64], margin_weight: f64, r: Rules<'_>, st: &State, me: PlayerId) -> f64 {
    if value.len() != crate::scenario::VALUE_FEATURES || st.ended.is_some() {
        return outcome(r, st, me, margin_weight);
    }
    super::value::win_probability(value, &super::value::features(r, st, me))
}

/// Turn logits into those of the mixture `(1 − e) · softmax + e · uniform`:
/// the log of each option's mixed probability. Gumbel top-k on them samples
/// without replacement from the mixture, so every option keeps at least
/// `e / n` of the first draw.
pub fn mix_uniform(logits: &mut [f64], e: f64) {
    let n = logits.len() as f64;
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let z: f64 = logits.iter().map(|l| (l - top).exp()).sum();
    for l in logits.iter_mut() {
        *l = ((1.0 - e) * (*l - top).exp() / z + e / n).ln();
    }
}

impl Search {
    /// `spec` is the search's own entry; `sc` supplies its base strategy
    /// (checked to exist and not to search itself).
    pub fn new(sc: &Scenario, spec: &StrategySpec, mut rng: Pcg64Mcg) -> Self {
        let (own, crowd) = searcher(sc, spec, &mut rng);
        Search {
            own,
            crowd,
            budget: spec.budget.max(1),
            top_k: spec.top_k.max(1) as usize,
            horizon: (spec.horizon > 0).then_some(spec.horizon),
            temperature: if spec.temperature > 0.0 { spec.temperature } else { 1.0 },
            explore: spec.explore.clamp(0.0, 1.0),
            margin_weight: spec.margin_weight,
            value: spec.value.clone(),
            look: LookAt::of(&spec.look_at),
            rng,
            scores: Vec::new(),
            cands: Vec::new(),
            seeds: Vec::new(),
            copy: None,
        }
    }

    /// A standard Gumbel draw from the strategy's stream.
    fn gumbel(&mut self) -> f64 {
        let u: f64 = self.rng.random::<f64>();
        -(-(u.max(1e-300)).ln()).ln()
    }

    /// The policy's logits of every option, into `self.scores`: the
    /// weights' scores over the temperature for a turn's decision; for a
    /// choice inside an action, 1 for the weights' own answer and 0 for
    /// every other.
    fn logits(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) {
        let mut scores = std::mem::take(&mut self.scores);
        match d {
            Decision::Recruit | Decision::Act | Decision::Spend => {
                self.own.score_options(r, st, me, d, options, &mut scores);
                for s in scores.iter_mut() {
                    *s /= self.temperature;
                }
                if self.explore > 0.0 {
                    mix_uniform(&mut scores, self.explore);
                }
            }
            _ => {
                let pick = self.own.choose(r, st, me, d, options);
                scores.clear();
                scores.extend((0..options.len()).map(|i| if i == pick { 1.0 / self.temperature } else { 0.0 }));
            }
        }
        self.scores = scores;
    }

    /// Sample the candidates: the `top_k` options by Gumbel key, plus
    /// `Done` (the last option of a turn's decision) if not drawn.
    fn sample(&mut self, d: Decision, options: &[Action]) {
        self.cands.clear();
        for i in 0..options.len() {
            let key = self.scores[i] + self.gumbel();
            self.cands.push(Candidate { option: i, key, sum: 0.0, n: 0 });
        }
        self.cands.sort_by(|a, b| b.key.total_cmp(&a.key));
        let done = options.len() - 1;
        let turn = matches!(d, Decision::Recruit | Decision::Act | Decision::Spend);
        let keep_done = turn && self.cands.iter().take(self.top_k).all(|c| c.option != done);
        if let Some(pos) = self.cands.iter().position(|c| c.option == done).filter(|_| keep_done) {
            let c = self.cands.remove(pos);
            self.cands.truncate(self.top_k);
            self.cands.push(c);
        } else {
            self.cands.truncate(self.top_k);
        }
    }
}

impl Strategy for Search {
    fn choose(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) -> usize {
        if options.len() < 2 || !self.look.wants(d, options) {
            return self.own.choose(r, st, me, d, options);
        }
        self.logits(r, st, me, d, options);
        self.sample(d, options);
        if self.cands.len() < 2 {
            return self.cands.first().map_or(0, |c| c.option);
        }
        // Sequential halving: ceil(log2 k) rounds share the budget evenly.
        let rounds = usize::BITS - (self.cands.len() - 1).leading_zeros();
        let mut alive = self.cands.len();
        let mut cands = std::mem::take(&mut self.cands);
        let mut seeds = std::mem::take(&mut self.seeds);
        let mut copy = self.copy.take().unwrap_or_else(|| st.clone());
        let mut rollouts = Rollouts::new(r, &mut self.crowd);
        while alive > 1 {
            let per = (self.budget as usize / (alive * rounds as usize)).max(1);
            seeds.clear();
            for _ in 0..per {
                let s = self.rng.random::<u128>();
                seeds.push(s);
            }
            for c in cands[..alive].iter_mut() {
                for &seed in &seeds {
                    rollouts.play(st, d, options[c.option], seed, self.horizon, &mut copy);
                    c.sum += worth(&self.value, self.margin_weight, r, &copy, me);
                    c.n += 1;
                }
            }
            // The better half by mean value; ties by the policy's key.
            cands[..alive].sort_by(|a, b| b.mean().total_cmp(&a.mean()).then(b.key.total_cmp(&a.key)));
            alive = alive.div_ceil(2);
        }
        let best = cands[0].option;
        self.cands = cands;
        self.seeds = seeds;
        self.copy = Some(copy);
        best
    }
}
