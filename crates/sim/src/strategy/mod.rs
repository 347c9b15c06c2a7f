//! Players' strategies (G-30). A strategy sees what its player may see (an
//! `Observation`: the position, which holds no secret, G-07) and the legal
//! options, and returns the index of its pick; it never rolls dice.
//! Its own randomness (tie-breaks, random play) comes from a stream seeded
//! from the campaign seed (`seed::Stream::Strategy`).

pub mod lookahead;
pub mod random;
pub mod restrict;
pub mod rollout;
pub mod search;
pub mod value;
pub mod weighted;

use crate::rules::Players;
use crate::rules::{Action, Decision, Observation, Rules};
use crate::scenario::ACTION_KIND_COUNT;
use crate::scenario::{Scenario, StrategyKind, StrategySpec};
use crate::seed::{self, Stream};
use rand_pcg::Pcg64Mcg;

/// The strong field: what every study that rests on strong play seats
/// by default. Every scenario knows it: the embedded archetypes define it
/// as the default island's equilibrium (`tuned` alone, which `empires
/// psro` found no response to), and a scenario refitted with `empires
/// psro --install` carries its own.
pub const STRONG: &str = "equilibrium";

pub trait Strategy: Send {
    /// The index in `options` of the pick of `obs.player()`, who sees `obs`.
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, decision: Decision, options: &[Action]) -> usize;

    /// A searching player's rollout begins, with its own seed: a player
    /// that draws who it is per game (a mixture in the rollouts, `Drawn`)
    /// draws again from it. Every other player ignores it.
    fn redraw(&mut self, _seed: u64) {}
}

/// Build a strategy from its spec with its own random stream. `sc` names
/// the strategies a spec may refer to (a lookahead's `base`).
pub fn build(sc: &Scenario, spec: &StrategySpec, mut rng: Pcg64Mcg) -> Box<dyn Strategy> {
    if spec.kind == StrategyKind::Mixture {
        // The member is drawn once, from the seat's own stream, which the
        // member then plays on: the engine's dice never see the draw. A
        // mixture of one member draws nothing, so it plays exactly the
        // games that member plays (the default island's equilibrium is
        // `tuned` alone, and studies that default to it keep `tuned`'s
        // figures).
        let k = if Drawn::draws(spec) {
            pick(&spec.weights, spec.members.len(), &mut rng)
        } else {
            chances(spec).iter().position(|c| *c > 0.0).unwrap_or(0)
        };
        let member = spec.members.get(k).and_then(|m| sc.strategy_ref(m)).cloned().unwrap_or_default();
        let inner = build(sc, &member, rng);
        return if !restrict::Restricted::needed(spec) {
            inner
        } else {
            Box::new(restrict::Restricted::of(inner, spec))
        };
    }
    let inner: Box<dyn Strategy> = match spec.kind {
        StrategyKind::Random => Box::new(random::RandomStrategy::new(rng)),
        StrategyKind::Weighted => Box::new(weighted::Weighted::of(spec, rng)),
        StrategyKind::Lookahead => Box::new(lookahead::Lookahead::new(sc, spec, rng)),
        StrategyKind::Search => Box::new(search::Search::new(sc, spec, rng)),
        StrategyKind::Mixture => unreachable!("drawn above"),
    };
    if !restrict::Restricted::needed(spec) { inner } else { Box::new(restrict::Restricted::of(inner, spec)) }
}

/// A mixture in a searching player's rollouts: every member built once,
/// and the one that plays drawn anew at each rollout (`redraw`), so the
/// rollouts sample the population rather than one member per campaign.
pub struct Drawn {
    members: Vec<Box<dyn Strategy>>,
    weights: Vec<f64>,
    at: usize,
}

impl Drawn {
    /// Whether a mixture draws at all: more than one member has a chance.
    pub fn draws(spec: &StrategySpec) -> bool {
        chances(spec).iter().filter(|c| **c > 0.0).count() > 1
    }

    /// Each member from its own stream drawn from `rng`, in `members`
    /// order, with the mixture's restrictions around the whole.
    pub fn boxed(sc: &Scenario, spec: &StrategySpec, mut rng: Pcg64Mcg) -> Box<dyn Strategy> {
        use rand::RngExt;
        let members = spec
            .members
            .iter()
            .map(|m| {
                let member = sc.strategy_ref(m).cloned().unwrap_or_default();
                build(sc, &member, Pcg64Mcg::new(rng.random::<u128>()))
            })
            .collect();
        let inner = Box::new(Drawn { members, weights: spec.weights.clone(), at: 0 });
        if !restrict::Restricted::needed(spec) { inner } else { Box::new(restrict::Restricted::of(inner, spec)) }
    }
}

impl Strategy for Drawn {
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        self.members[self.at].choose(r, obs, d, options)
    }

    fn redraw(&mut self, seed: u64) {
        let mut rng = Pcg64Mcg::new(((seed as u128) << 64) | seed as u128 | 1);
        self.at = pick(&self.weights, self.members.len(), &mut rng);
    }
}

/// Each member's chance in a mixture: its weight over the sum of the
/// positive ones (0 for a weight of 0 or below), or equal chances when
/// there are no weights. What `pick` draws from, a search's `prior`
/// averages by, and a best response starts from the heaviest of.
pub fn chances(spec: &StrategySpec) -> Vec<f64> {
    let n = spec.members.len();
    if spec.weights.is_empty() {
        return vec![1.0 / n.max(1) as f64; n];
    }
    let total: f64 = spec.weights.iter().filter(|w| **w > 0.0).sum();
    (0..n).map(|i| spec.weights.get(i).copied().filter(|w| *w > 0.0).map_or(0.0, |w| w / total)).collect()
}

/// A member index drawn with chances proportional to `weights` (equal
/// chances when there are none), from one uniform draw of `rng`.
pub fn pick(weights: &[f64], members: usize, rng: &mut Pcg64Mcg) -> usize {
    use rand::RngExt;
    let x: f64 = rng.random();
    if weights.is_empty() {
        return ((x * members as f64) as usize).min(members.saturating_sub(1));
    }
    let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        if *w > 0.0 {
            acc += w / total;
            if x < acc {
                return i;
            }
        }
    }
    // Rounding left x at or above the last sum: the last member with weight.
    weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
}

/// One strategy per seat: the `Players` the engine talks to.
pub struct Seats {
    pub seats: Vec<Box<dyn Strategy>>,
    /// Actions each seat took, by kind (`ActionKind::index`): the
    /// mechanics coverage of a run. Counting here, at the players' side of
    /// the engine, keeps the rules core free of bookkeeping.
    pub taken: Vec<[u32; ACTION_KIND_COUNT]>,
}

impl Seats {
    /// The strategies named by the scenario's players, seeded for one campaign.
    /// Names were checked when the scenario loaded; an unknown one falls back
    /// to the default (`balanced`) player rather than failing mid-run.
    pub fn for_campaign(sc: &Scenario, campaign_seed: u64) -> Seats {
        let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
        Seats::named(sc, campaign_seed, &names)
    }

    /// Seat `i` plays strategy `names[i]`.
    pub fn named(sc: &Scenario, campaign_seed: u64, names: &[&str]) -> Seats {
        let seats: Vec<Box<dyn Strategy>> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let rng = seed::rng(campaign_seed, Stream::Strategy(i as u8));
                match sc.strategy_ref(name) {
                    Some(spec) => build(sc, spec, rng),
                    None => build(sc, &StrategySpec::default(), rng),
                }
            })
            .collect();
        Seats { seats, taken: vec![[0; ACTION_KIND_COUNT]; names.len()] }
    }
}

impl Players for Seats {
    #[inline]
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        let player = obs.player() as usize;
        let i = self.seats[player].choose(r, obs, d, options);
        if let Some(a) = options.get(i) {
            self.taken[player][a.kind().index()] += 1;
        }
        i
    }
}

/// A scenario shipped in `scenarios/`, loaded as a user's file is: the
/// players' unit tests play the shipped rule sets and players.
#[cfg(test)]
pub(crate) fn shipped(file: &str) -> Scenario {
    let path = format!("{}/../../scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    crate::scenario::load_str(&text, &crate::scenario::Source::file(&path)).unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mixture in the rollouts draws its member anew from each rollout's
    /// seed, in proportion to the weights (a weight of 0 never plays), and
    /// the same seed always draws the same member.
    #[test]
    fn g30_a_drawn_mixture_redraws_per_rollout_in_proportion_to_its_weights() {
        let sc = shipped("duel.toml");
        let spec = StrategySpec {
            kind: StrategyKind::Mixture,
            members: vec!["tuned".into(), "random".into(), "warlord".into()],
            weights: vec![1.0, 0.0, 3.0],
            ..StrategySpec::default()
        };
        assert!(Drawn::draws(&spec));
        let mut d = Drawn { members: Vec::new(), weights: spec.weights.clone(), at: 0 };
        let _ = Drawn::boxed(&sc, &spec, Pcg64Mcg::new(3));
        let mut counts = [0u32; 3];
        for seed in 0..20_000u64 {
            d.redraw(crate::seed::mix2(seed, 7));
            counts[d.at] += 1;
            let first = d.at;
            d.redraw(crate::seed::mix2(seed, 7));
            assert_eq!(d.at, first, "seed {seed}");
        }
        assert_eq!(counts[1], 0, "a weight of 0 never plays");
        // 5,000 expected for the first: 5 standard deviations is 306.
        assert!((counts[0] as i64 - 5_000).abs() < 306, "{counts:?}");
        let one = StrategySpec { weights: vec![0.0, 0.0, 2.0], ..spec };
        assert!(!Drawn::draws(&one), "one member with a chance: nothing to draw");
    }
}
