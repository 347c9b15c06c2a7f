//! What the searching players share: which decisions they search
//! (`look_at`), the players of their imagined games, and playing a copy of
//! the state on from a decision with one option applied.
//!
//! A rollout rolls its own dice from a seed the searching player draws
//! from its own stream, so the real campaign's dice are untouched and its
//! result still depends only on (scenario, master seed, campaign index).

use super::Strategy;
use crate::rules::empire::sizes;
use crate::rules::{Action, Decision, NoLog, Observation, PlayerId, RngDice, Rules, State, Step};
use crate::rules::{Driver, Players};
use rand_pcg::Pcg64Mcg;

/// Which decisions get rollouts (`look_at`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LookAt {
    pub recruit: bool,
    pub act: bool,
    pub attack: bool,
    pub spend: bool,
    pub bid: bool,
    pub formation: bool,
    pub siege_outcome: bool,
    pub take_hit: bool,
}

impl LookAt {
    pub fn of(names: &[String]) -> LookAt {
        let has = |n: &str| names.iter().any(|x| x == n);
        LookAt {
            recruit: has("recruit"),
            act: has("act"),
            attack: has("attack"),
            spend: has("spend"),
            bid: has("bid"),
            formation: has("formation"),
            siege_outcome: has("siege_outcome"),
            take_hit: has("take_hit"),
        }
    }

    /// A decision inside an action (a combat's bid, formation, siege
    /// outcome or hit) that is searched.
    pub fn inline(&self, d: Decision) -> bool {
        match d {
            Decision::Bid { .. } => self.bid,
            Decision::Formation { .. } => self.formation,
            Decision::SiegeOutcome { .. } => self.siege_outcome,
            Decision::TakeHit { .. } => self.take_hit,
            _ => false,
        }
    }

    /// Whether decision `d`, with these options, is searched.
    pub fn wants(&self, d: Decision, options: &[Action]) -> bool {
        match d {
            Decision::Recruit => self.recruit,
            Decision::Act => self.act || (self.attack && options.iter().any(is_attack)),
            Decision::Spend => self.spend,
            _ => self.inline(d),
        }
    }
}

/// An attack of the action phase.
pub(super) fn is_attack(a: &Action) -> bool {
    matches!(a, Action::Attack { .. } | Action::Siege { .. } | Action::NavalAttack { .. } | Action::Coastal { .. })
}

/// The rollout players, as the engine sees them: one strategy per seat.
pub(super) struct Crowd<'a> {
    pub crowd: &'a mut [Box<dyn Strategy>],
}

impl Players for Crowd<'_> {
    fn choose(&mut self, r: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        self.crowd[obs.player() as usize].choose(r, obs, d, options)
    }
}

/// A searching player's parts, drawn from its stream in this order: its
/// own weights (`spec`), then one `spec.base` player per seat for the
/// rollouts.
///
/// A mixture `base` gives every seat all its members, and each rollout
/// draws one per seat anew (`Strategy::redraw`): the rollouts are played
/// by the population, not by the one member a campaign's first draw gave.
pub(super) fn searcher(
    sc: &crate::scenario::Scenario,
    spec: &crate::scenario::StrategySpec,
    rng: &mut Pcg64Mcg,
) -> (super::weighted::Weighted, Vec<Box<dyn Strategy>>) {
    use rand::RngExt;
    let base = sc.strategy(&spec.base).unwrap_or_default();
    let own = super::weighted::Weighted::of(spec, Pcg64Mcg::new(rng.random::<u128>()));
    let crowd = (0..sc.players.len())
        .map(|_| {
            let seat = Pcg64Mcg::new(rng.random::<u128>());
            if base.kind == crate::scenario::StrategyKind::Mixture && super::Drawn::draws(&base) {
                super::Drawn::boxed(sc, &base, seat)
            } else {
                super::build(sc, &base, seat)
            }
        })
        .collect();
    (own, crowd)
}

/// A search's prior (`prior`): each member's weighted player and its
/// chance, drawn from the searcher's stream after its other parts. A
/// weighted prior is one member of chance 1; empty when `prior` is.
pub(super) fn prior(
    sc: &crate::scenario::Scenario,
    spec: &crate::scenario::StrategySpec,
    rng: &mut Pcg64Mcg,
) -> Vec<(super::weighted::Weighted, f64)> {
    use rand::RngExt;
    let Some(p) = sc.strategy_ref(&spec.prior).filter(|_| !spec.prior.is_empty()) else {
        return Vec::new();
    };
    let members: Vec<(&crate::scenario::StrategySpec, f64)> = if p.kind == crate::scenario::StrategyKind::Mixture {
        p.members
            .iter()
            .zip(super::chances(p))
            .filter(|(_, w)| *w > 0.0)
            .filter_map(|(m, w)| sc.strategy_ref(m).map(|s| (s, w)))
            .collect()
    } else {
        vec![(p, 1.0)]
    };
    members
        .into_iter()
        .map(|(s, w)| (super::weighted::Weighted::of(s, Pcg64Mcg::new(rng.random::<u128>())), w))
        .collect()
}

/// The rollouts of one decision, played on one engine. Its option lists
/// and its marks next to each player's banners serve every rollout (the
/// marks follow from the map and the banners alone, whatever state they
/// were last brought up to), where a new engine and a new copy per
/// rollout cost about 5% of a search's instructions, mostly allocating
/// and freeing. Made in a player's `choose` and dropped with it, so it
/// never plays on another map.
pub(super) struct Rollouts<'a, 'c> {
    driver: Driver<'a, RngDice, Crowd<'c>, NoLog>,
}

impl<'a, 'c> Rollouts<'a, 'c> {
    pub fn new(r: Rules<'a>, crowd: &'c mut [Box<dyn Strategy>]) -> Self {
        // The dice are replaced by each rollout's own before it rolls.
        Rollouts { driver: Driver::new(r, RngDice(Pcg64Mcg::new(0)), Crowd { crowd }, NoLog) }
    }

    /// Make `copy` a copy of what the searching player sees, at decision
    /// `d`, with `a` applied and played on with rollout dice from `seed`:
    /// the rest of this season, then up to `horizon` seasons in all
    /// (`None`: to the campaign's end). At a defender's bid the attacker's
    /// bid is not in what it sees (G-07): the rollout fights against the
    /// guess `guess_attacker_bid` makes, handed to its engine. `copy` may
    /// hold any earlier state: its vectors are reused.
    pub fn play(
        &mut self,
        obs: Observation<'_>,
        d: Decision,
        a: Action,
        seed: u128,
        horizon: Option<u32>,
        copy: &mut State,
    ) {
        let eng = &mut self.driver;
        eng.engine.dice = RngDice(Pcg64Mcg::new(seed));
        for (i, p) in eng.players.crowd.iter_mut().enumerate() {
            p.redraw(crate::seed::mix2(seed as u64 ^ (seed >> 64) as u64, i as u64));
        }
        copy.clone_from(obs.state());
        if let Decision::Bid { attacking: false, .. } = d {
            let guess = guess_attacker_bid(eng, copy);
            eng.engine.assume_attacker_bid(guess);
        }
        eng.engine.apply(copy, a);
        eng.seasons(copy, horizon, |_, _| std::ops::ControlFlow::Continue(()));
    }
}

/// G-07 bids are secret: at the defender's bid, a guess of the attacker's
/// bid, the one the rollout's own player for the attacker's seat makes
/// from the same position (a determinization). `s` is left as it was.
fn guess_attacker_bid(eng: &mut Driver<'_, RngDice, Crowd<'_>, NoLog>, s: &mut State) -> i32 {
    s.step = Step::Bid { attacking: true };
    let guess = match eng.engine.next_decision(s) {
        Some((p, d)) => {
            let options = eng.engine.options().to_vec();
            let i = eng.players.choose(eng.engine.rules, Observation::new(s, p), d, &options);
            match options.get(i) {
                Some(Action::Bid(b)) => *b as i32,
                _ => 0,
            }
        }
        None => 0,
    };
    s.step = Step::Bid { attacking: false };
    guess
}

/// Empire size of `me` minus that of its largest rival (G-02's measure).
pub(super) fn margin(r: Rules<'_>, st: &State, me: PlayerId) -> f64 {
    margin_of(r, &sizes(r, st), me)
}

/// `margin` from sizes already worked out.
pub(super) fn margin_of(r: Rules<'_>, sz: &[crate::rules::empire::Size], me: PlayerId) -> f64 {
    let mine = sz[me as usize].size as f64;
    let rival = (0..sz.len())
        .filter(|&p| r.rivals(me, p as PlayerId))
        .map(|p| sz[p].size as f64)
        .fold(f64::NEG_INFINITY, f64::max);
    if rival.is_finite() { mine - rival } else { mine }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::setup::{initial_state, make_map};
    use crate::strategy::{Seats, build, shipped};

    /// Rollouts played one after another on one engine and one copy end
    /// where each ends alone, on a new engine and a new copy: nothing one
    /// rollout leaves in the engine's lists and marks or in the copy's
    /// vectors reaches the next. The decisions rolled out from are taken
    /// from a straits campaign (every mechanic plays there), every
    /// defender's bid among them (the attacker's bid is guessed there).
    #[test]
    fn rollouts_on_one_engine_and_one_copy_end_where_each_ends_alone() {
        let sc = shipped("straits.toml");
        let map = make_map(&sc, 9).unwrap();
        let r = Rules::new(&sc, &map);
        let mut st = initial_state(r);
        let mut d = Driver::new(r, RngDice(Pcg64Mcg::new(9)), Seats::for_campaign(&sc, 9), NoLog);
        let mut points = Vec::new();
        let mut asked = 0;
        loop {
            while let Some((p, dec)) = d.engine.next_decision(&mut st) {
                let options = d.engine.options().to_vec();
                asked += 1;
                let defends = matches!(dec, Decision::Bid { attacking: false, .. });
                if options.len() > 1 && (asked % 29 == 0 || defends) {
                    points.push((st.clone(), p, dec, options.clone()));
                }
                let i = d.players.choose(r, Observation::new(&st, p), dec, &options);
                d.engine.apply(&mut st, options[i]);
            }
            if st.ended.is_some() || points.len() >= 40 {
                break;
            }
        }
        let bids = points.iter().filter(|p| matches!(p.2, Decision::Bid { attacking: false, .. })).count();
        assert!(points.len() >= 20 && bids > 0, "{} decisions, {bids} defenders' bids", points.len());
        let tuned = sc.strategy("tuned").unwrap();
        let crowd = || -> Vec<Box<dyn Strategy>> {
            (0..sc.players.len()).map(|i| build(&sc, &tuned, Pcg64Mcg::new(i as u128 + 1))).collect()
        };
        let (mut kept_crowd, mut lone_crowd) = (crowd(), crowd());
        let mut copy = st.clone();
        for (n, (at, p, dec, options)) in points.iter().enumerate() {
            let seen = Observation::new(at, *p);
            let mut kept = Rollouts::new(r, &mut kept_crowd);
            for (j, &a) in options.iter().enumerate().take(3) {
                let seed = (n * 10 + j) as u128;
                let horizon = if j == 1 { None } else { Some(2) };
                kept.play(seen, *dec, a, seed, horizon, &mut copy);
                let mut alone = at.clone();
                Rollouts::new(r, &mut lone_crowd).play(seen, *dec, a, seed, horizon, &mut alone);
                assert_eq!(copy, alone, "decision {n} ({dec:?}), option {j}");
            }
        }
    }
}
