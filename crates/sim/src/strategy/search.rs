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
//!    stopping is an option. With a `prior` (a weighted player, or a
//!    mixture of them such as the population `empires psro` found) the
//!    policy is its members' softmaxes averaged by weight instead of the
//!    own weights'; `explore` mixes in uniform over the options and
//!    `explore_kinds` uniform over the kinds of action among them (then
//!    over each kind's options), so a siege or a mine keeps a kind's share
//!    of the draw however many moves there are;
//! 2. shares `budget` rollouts among the candidates by sequential halving
//!    (Karnin et al. 2013): each round gives every remaining candidate the
//!    same number of rollouts on the same rollout dice (common random
//!    numbers) and keeps the better half by mean value;
//! 3. plays each rollout on a copy of the state with the candidate applied,
//!    every player (itself included) following `base`, to the end of the
//!    campaign (`horizon` 0) or for `horizon` seasons; a mixture `base`
//!    draws each seat's member anew for every rollout, so the rollouts
//!    sample the population;
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
//! The defender's bid hides information (G-07): what the player sees holds
//! no attacker's bid, so, as in the lookahead, each rollout of it is played
//! against the bid `base` would make in the attacker's place (a
//! determinization, handed to the rollout's engine). Rollout dice come
//! from the strategy's own stream.

use super::Strategy;
use super::rollout::{LookAt, Rollouts, margin_of, searcher};
use super::weighted::Weighted;
use crate::rules::empire::sizes;
use crate::rules::{Action, Decision, Observation, PlayerId, Rules, State};
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
    /// Share spread evenly over the options' kinds (`explore_kinds`).
    explore_kinds: f64,
    /// The prior's weighted players and their chances (`prior`); empty:
    /// the policy is `own`'s.
    prior: Vec<(Weighted, f64)>,
    /// The prior's mixed probabilities, reused per decision.
    mixed: Vec<f64>,
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
        let prior = super::rollout::prior(sc, spec, &mut rng);
        Search {
            own,
            crowd,
            budget: spec.budget.max(1),
            top_k: spec.top_k.max(1) as usize,
            horizon: (spec.horizon > 0).then_some(spec.horizon),
            temperature: if spec.temperature > 0.0 { spec.temperature } else { 1.0 },
            explore: spec.explore.clamp(0.0, 1.0),
            explore_kinds: spec.explore_kinds.clamp(0.0, 1.0),
            prior,
            mixed: Vec::new(),
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
    fn logits(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) {
        if !self.prior.is_empty() || self.explore_kinds > 0.0 {
            return self.mixed_logits(r, obs, d, options);
        }
        let (st, me) = (obs.state(), obs.player());
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
                let pick = self.own.choose(r, obs, d, options);
                scores.clear();
                scores.extend((0..options.len()).map(|i| if i == pick { 1.0 / self.temperature } else { 0.0 }));
            }
        }
        self.scores = scores;
    }

    /// The logits of the prior's mixture, `explore` and `explore_kinds`:
    /// the log of each option's probability under
    /// `(1 − k) · ((1 − e) · Σ wᵢ πᵢ + e · uniform) + k · uniform over kinds`,
    /// where `πᵢ` is the softmax of member `i`'s scores over the
    /// temperature at a turn's decision, and its own answer (all its
    /// chance) inside an action.
    fn mixed_logits(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) {
        let (st, me) = (obs.state(), obs.player());
        let n = options.len();
        let mut p = std::mem::take(&mut self.mixed);
        let mut scores = std::mem::take(&mut self.scores);
        p.clear();
        p.resize(n, 0.0);
        let turn = matches!(d, Decision::Recruit | Decision::Act | Decision::Spend);
        let mut add = |w: &mut Weighted, share: f64, scores: &mut Vec<f64>| {
            if turn {
                w.score_options(r, st, me, d, options, scores);
                let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                for s in scores.iter_mut() {
                    *s = ((*s - top) / self.temperature).exp();
                }
                let z: f64 = scores.iter().sum();
                for (pi, e) in p.iter_mut().zip(scores.iter()) {
                    *pi += share * e / z;
                }
            } else {
                p[w.choose(r, obs, d, options).min(n - 1)] += share;
            }
        };
        if self.prior.is_empty() {
            add(&mut self.own, 1.0, &mut scores);
        } else {
            for (w, share) in self.prior.iter_mut() {
                add(w, *share, &mut scores);
            }
        }
        if turn && self.explore > 0.0 {
            for x in p.iter_mut() {
                *x = (1.0 - self.explore) * *x + self.explore / n as f64;
            }
        }
        if self.explore_kinds > 0.0 {
            let mut per_kind = [0u32; crate::scenario::ACTION_KIND_COUNT];
            for a in options {
                per_kind[a.kind().index()] += 1;
            }
            let kinds = per_kind.iter().filter(|c| **c > 0).count() as f64;
            for (x, a) in p.iter_mut().zip(options) {
                let even = 1.0 / (kinds * per_kind[a.kind().index()] as f64);
                *x = (1.0 - self.explore_kinds) * *x + self.explore_kinds * even;
            }
        }
        scores.clear();
        // An option no part of the mixture gives any chance keeps the
        // lowest key rather than −∞, so the halving's ties stay ordered.
        scores.extend(p.iter().map(|x| x.max(1e-300).ln()));
        self.scores = scores;
        self.mixed = p;
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
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        if options.len() < 2 || !self.look.wants(d, options) {
            return self.own.choose(r, obs, d, options);
        }
        let (st, me) = (obs.state(), obs.player());
        self.logits(r, obs, d, options);
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
                    rollouts.play(obs, d, options[c.option], seed, self.horizon, &mut copy);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::setup::{initial_state, make_map};
    use crate::rules::{Driver, Players};
    use crate::rules::{NoLog, RngDice};
    use crate::strategy::{Seats, shipped};

    /// The first few action-phase decisions of a straits campaign with
    /// three kinds of option or more (every mechanic plays there).
    fn act_decisions(sc: &Scenario) -> Vec<(State, Vec<Action>, PlayerId)> {
        let map = make_map(sc, 5).unwrap();
        let r = Rules::new(sc, &map);
        let mut st = initial_state(r);
        let mut d = Driver::new(r, RngDice(Pcg64Mcg::new(5)), Seats::for_campaign(sc, 5), NoLog);
        let mut out = Vec::new();
        while out.len() < 6 {
            let Some((p, dec)) = d.engine.next_decision(&mut st) else { break };
            let options = d.engine.options().to_vec();
            let kinds: std::collections::BTreeSet<_> = options.iter().map(|a| a.kind()).collect();
            if dec == Decision::Act && kinds.len() >= 3 {
                out.push((st.clone(), options.clone(), p));
            }
            let i = d.players.choose(r, Observation::new(&st, p), dec, &options);
            d.engine.apply(&mut st, options[i]);
        }
        assert!(out.len() >= 3, "{} decisions", out.len());
        out
    }

    /// A search spec over `sc`'s `tuned` with the given prior and shares.
    fn spec(prior: &str, explore: f64, explore_kinds: f64) -> StrategySpec {
        StrategySpec {
            kind: crate::scenario::StrategyKind::Search,
            base: "tuned".into(),
            prior: prior.into(),
            explore,
            explore_kinds,
            jitter: 0.0,
            ..StrategySpec::default()
        }
    }

    /// Each option's probability under the search's policy.
    fn probabilities(s: &mut Search, r: Rules<'_>, st: &State, me: PlayerId, options: &[Action]) -> Vec<f64> {
        s.logits(r, Observation::new(st, me), Decision::Act, options);
        s.scores.iter().map(|l| l.exp()).collect()
    }

    /// How many of `options` are of each kind.
    fn options_per_kind(options: &[Action]) -> std::collections::BTreeMap<crate::scenario::ActionKind, usize> {
        let mut per_kind = std::collections::BTreeMap::new();
        for a in options {
            *per_kind.entry(a.kind()).or_insert(0usize) += 1;
        }
        per_kind
    }

    /// `explore_kinds = 1`: every kind among the options has the same
    /// chance, shared evenly by its options, however many of them there
    /// are (forty moves and one siege: the siege has a kind's share).
    #[test]
    fn explore_kinds_gives_every_kind_of_option_the_same_chance() {
        let sc = shipped("straits.toml");
        let map = make_map(&sc, 5).unwrap();
        let r = Rules::new(&sc, &map);
        let mut s = Search::new(&sc, &spec("", 0.0, 1.0), Pcg64Mcg::new(1));
        for (st, options, me) in act_decisions(&sc) {
            let p = probabilities(&mut s, r, &st, me, &options);
            let per_kind = options_per_kind(&options);
            for (a, x) in options.iter().zip(&p) {
                let want = 1.0 / (per_kind.len() * per_kind[&a.kind()]) as f64;
                assert!((x - want).abs() < 1e-12, "{a:?}: {x} against {want}");
            }
        }
    }

    /// A prior mixture's policy is its members' softmaxes averaged by
    /// weight, then mixed with `explore` (uniform over options) and
    /// `explore_kinds` (uniform over kinds), in that order.
    #[test]
    fn a_prior_mixture_averages_its_members_policies_by_weight() {
        let mut sc = shipped("straits.toml");
        for name in ["tuned", "warlord"] {
            sc.strategies.get_mut(name).unwrap().jitter = 0.0;
        }
        sc.strategies.insert(
            "mix".into(),
            StrategySpec {
                kind: crate::scenario::StrategyKind::Mixture,
                members: vec!["tuned".into(), "warlord".into()],
                weights: vec![3.0, 1.0],
                ..StrategySpec::default()
            },
        );
        let map = make_map(&sc, 5).unwrap();
        let r = Rules::new(&sc, &map);
        let (e, k) = (0.2, 0.1);
        let mut s = Search::new(&sc, &spec("mix", e, k), Pcg64Mcg::new(1));
        let softmax = |name: &str, st: &State, me: PlayerId, options: &[Action]| -> Vec<f64> {
            let mut w = Weighted::of(sc.strategy_ref(name).unwrap(), Pcg64Mcg::new(9));
            let mut sc_ = Vec::new();
            w.score_options(r, st, me, Decision::Act, options, &mut sc_);
            let top = sc_.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = sc_.iter().map(|x| (x - top).exp()).sum();
            sc_.iter().map(|x| (x - top).exp() / z).collect()
        };
        for (st, options, me) in act_decisions(&sc) {
            let p = probabilities(&mut s, r, &st, me, &options);
            let (a, b) = (softmax("tuned", &st, me, &options), softmax("warlord", &st, me, &options));
            let n = options.len() as f64;
            let per_kind = options_per_kind(&options);
            for i in 0..options.len() {
                let prior = 0.75 * a[i] + 0.25 * b[i];
                let even_kind = 1.0 / (per_kind.len() * per_kind[&options[i].kind()]) as f64;
                let want = (1.0 - k) * ((1.0 - e) * prior + e / n) + k * even_kind;
                assert!((p[i] - want).abs() < 1e-12, "option {i}: {} against {want}", p[i]);
            }
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    /// With neither a prior nor `explore_kinds`, the policy is the one the
    /// shipped searches were measured with: the weights' scores over the
    /// temperature, unchanged (their figures stand).
    #[test]
    fn without_prior_or_kinds_the_logits_are_the_weights_scores() {
        let sc = shipped("straits.toml");
        let map = make_map(&sc, 5).unwrap();
        let r = Rules::new(&sc, &map);
        let mut s = Search::new(&sc, &spec("", 0.0, 0.0), Pcg64Mcg::new(1));
        for (st, options, me) in act_decisions(&sc) {
            s.logits(r, Observation::new(&st, me), Decision::Act, &options);
            let mut w = Weighted::of(&spec("", 0.0, 0.0), Pcg64Mcg::new(9));
            let mut want = Vec::new();
            w.score_options(r, &st, me, Decision::Act, &options, &mut want);
            assert_eq!(s.scores, want);
        }
    }
}
