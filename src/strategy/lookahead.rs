//! `lookahead`: a weighted player that thinks before it spends or attacks.
//!
//! At a spending decision, and at an action decision where an attack is
//! possible, it takes its `width` best candidates by its own weights (plus
//! `Done`, or the best move that is not an attack) and plays each one out
//! `rollouts` times on a copy of the state: the rest of this season, then up
//! to `horizon` seasons in all, with every player following the `base`
//! strategy. It keeps the candidate with the best mean empire-size margin
//! over its strongest rival. Every other decision is its own weights'.
//!
//! Rollouts are the strategy's imagination, not the game: they roll their
//! own dice from the strategy's stream (seeded from the campaign seed), so
//! the real campaign's dice are untouched and the result still depends only
//! on (scenario, master seed, campaign index). Every candidate is played on
//! the same rollout dice (common random numbers), so the comparison between
//! candidates is not drowned in dice noise.

use super::Strategy;
use super::weighted::Weighted;
use crate::rules::empire::sizes;
use crate::rules::season::Resume;
use crate::rules::{Action, Decision, Engine, NoLog, PlayerId, Players, RngDice, Rules, State};
use crate::scenario::{Scenario, StrategySpec};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub struct Lookahead {
    own: Weighted,
    /// One `base` player per seat, reused across rollouts.
    crowd: Vec<Box<dyn Strategy>>,
    rollouts: u32,
    horizon: u32,
    width: usize,
    rng: Pcg64Mcg,
    scores: Vec<f64>,
    cands: Vec<usize>,
    seeds: Vec<u128>,
}

/// The rollout players, as the engine sees them.
struct Crowd<'a>(&'a mut [Box<dyn Strategy>]);

impl Players for Crowd<'_> {
    fn choose(&mut self, r: Rules<'_>, st: &State, p: PlayerId, d: Decision, options: &[Action]) -> usize {
        self.0[p as usize].choose(r, st, p, d, options)
    }
}

/// An attack of the action phase: the decisions worth a rollout.
fn is_attack(a: &Action) -> bool {
    matches!(a, Action::Attack { .. } | Action::Siege { .. } | Action::NavalAttack { .. } | Action::Coastal { .. })
}

impl Lookahead {
    /// `spec` is the lookahead's own entry; `sc` supplies its base strategy
    /// (checked to exist and not to look ahead itself).
    pub fn new(sc: &Scenario, spec: &StrategySpec, mut rng: Pcg64Mcg) -> Self {
        let base = sc.strategy(&spec.base).unwrap_or_default();
        let own = Weighted::new(spec.clone(), Pcg64Mcg::new(rng.random::<u128>()));
        let crowd =
            (0..sc.players.len()).map(|_| super::build(sc, &base, Pcg64Mcg::new(rng.random::<u128>()))).collect();
        Lookahead {
            own,
            crowd,
            rollouts: spec.rollouts.max(1),
            horizon: spec.horizon.max(1),
            width: spec.width.max(1) as usize,
            rng,
            scores: Vec::new(),
            cands: Vec::new(),
            seeds: Vec::new(),
        }
    }

    /// The options worth a rollout, best first by the own weights; empty when
    /// this decision is left to the weights alone.
    fn candidates(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) {
        self.cands.clear();
        let attack_decision = d == Decision::Act && options.iter().any(is_attack);
        if !(d == Decision::Spend || attack_decision) || options.len() < 2 {
            return;
        }
        let mut scores = std::mem::take(&mut self.scores);
        self.own.score_options(r, st, me, d, options, &mut scores);
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        if d == Decision::Spend {
            // The best purchases, then stopping.
            self.cands.extend(order.iter().copied().filter(|&i| options[i] != Action::Done).take(self.width));
            self.cands.push(options.len() - 1);
        } else {
            // The best attacks, then what the weights would do otherwise.
            self.cands.extend(order.iter().copied().filter(|&i| is_attack(&options[i])).take(self.width));
            let stay = order.iter().copied().find(|&i| !is_attack(&options[i]) && scores[i] > 0.0);
            self.cands.push(stay.unwrap_or(options.len() - 1));
        }
        self.scores = scores;
    }

    /// Play `a` and the rest of the horizon on a copy of `st`; my empire size
    /// minus my strongest rival's at the end.
    fn rollout(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, a: Action, seed: u128) -> f64 {
        let mut s = st.clone();
        let dice = RngDice(Pcg64Mcg::new(seed));
        let mut eng = Engine::new(r, dice, Crowd(&mut self.crowd), NoLog);
        let from = s.order.iter().position(|&p| p == me).unwrap_or(0);
        let done = a == Action::Done;
        let at = match d {
            Decision::Spend => {
                if !done {
                    eng.spend(&mut s, me, a);
                }
                Resume::Spend { from, done }
            }
            _ => {
                if !done {
                    eng.apply_act(&mut s, me, a);
                }
                Resume::Act { from, done }
            }
        };
        let mut end = eng.rest_of_season(&mut s, at);
        for _ in 1..self.horizon {
            if end.is_some() {
                break;
            }
            end = eng.play_season(&mut s);
        }
        margin(r, &s, me)
    }
}

/// Empire size of `me` minus that of its largest rival (G-02's measure).
fn margin(r: Rules<'_>, st: &State, me: PlayerId) -> f64 {
    let sz = sizes(r, st);
    let mine = sz[me as usize].size as f64;
    let rival = (0..sz.len())
        .filter(|&p| r.rivals(me, p as PlayerId))
        .map(|p| sz[p].size as f64)
        .fold(f64::NEG_INFINITY, f64::max);
    if rival.is_finite() { mine - rival } else { mine }
}

impl Strategy for Lookahead {
    fn choose(&mut self, r: Rules<'_>, st: &State, me: PlayerId, d: Decision, options: &[Action]) -> usize {
        self.candidates(r, st, me, d, options);
        if self.cands.len() < 2 {
            return self.own.choose(r, st, me, d, options);
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
        // Best-ranked first, and only a strictly better mean replaces it, so
        // ties go to the weights' choice.
        for &c in &cands {
            let total: f64 = seeds.iter().map(|&seed| self.rollout(r, st, me, d, options[c], seed)).sum();
            let mean = total / seeds.len() as f64;
            if mean > best_value {
                best_value = mean;
                best = c;
            }
        }
        self.cands = cands;
        self.seeds = seeds;
        best
    }
}
