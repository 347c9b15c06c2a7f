//! Who plays at a point a solve evaluates, and the scenario played there.
//!
//! A point is the base scenario with the varied keys set; under best
//! response its players are also re-tuned under those rules. That tuning
//! costs far more than an evaluation, so `Points` keeps each point's
//! scenario for the root finder and the held-out check to share.

use super::Settings;
use super::holdout_seed;
use crate::balance::scenario_with;
use crate::error::Error;
use crate::scenario::Scenario;
use crate::scenario::param::Param;
use crate::strength::best_response::tune_from;
use crate::strength::best_response::tuning_seed;
use crate::strength::probe::{self, Competence};
use crate::strength::tune::Field;
use std::cell::RefCell;

/// Who plays at each point a solve evaluates. (Not `Players`: that is the
/// engine's trait for whoever picks the moves.)
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PointPlayers {
    /// The scenario's seats as they are, at every point.
    #[default]
    AsSeated,
    /// `start` re-tuned in self-play under each point's rules (warm-started
    /// from it, every numeric key, `budget`, on the best-response search
    /// seed of the solve's master seed, which no evaluation plays), and
    /// played in every seat under `start`'s own name, so a target naming
    /// `start` (a restriction's field, a strategy's win rate) names the
    /// re-tuned player. The tuned player is a function of the point alone:
    /// the held-out check plays the player the search tuned there.
    ///
    /// The gap is then measured with the players of each point, so it
    /// carries the search's own variance from point to point: a root is
    /// still reported only where the target holds within noise with the
    /// players tuned there, and a gap that jumps across 0 between two
    /// points (the players change their play) is "no root found".
    BestResponse { start: String, budget: crate::strength::best_response::Budget },
}

impl PointPlayers {
    /// `tuned, re-tuned at each point (20 generations × 400 campaigns a
    /// candidate, search seed S); player family: weighted` (or search), or None.
    pub fn line(&self, master: u64) -> Option<String> {
        match self {
            PointPlayers::AsSeated => None,
            PointPlayers::BestResponse { start, budget } => Some(format!(
                "players: {start} re-tuned in self-play under the rules at each point played ({} generations, {} campaigns a candidate, step {} of each key's range, search seed {}); {}",
                budget.generations,
                budget.per_eval,
                budget.sigma,
                tuning_seed(master),
                budget.family.words()
            )),
        }
    }

    /// Under best response, the competence check of `start` as tuned in
    /// `solved` (the scenario at the solved point, from `scenario_at`):
    /// every probe, `probe_campaigns` each, on the held-out seed, which no
    /// search or evaluation of the root finder played. The answer is the
    /// rules at which that player meets the target, so it is only as good
    /// as that player. `None` as seated, or with no probe campaigns.
    pub fn check(&self, solved: &Scenario, master: u64) -> Result<Option<Competence>, Error> {
        let PointPlayers::BestResponse { start, budget } = self else {
            return Ok(None);
        };
        if budget.probe_campaigns == 0 {
            return Ok(None);
        }
        let settings = probe::Settings::default();
        probe::check(solved, start, probe::family(&settings), settings, holdout_seed(master), budget.probe_campaigns)
            .map(Some)
    }

    /// The campaigns `check` plays.
    pub fn check_planned(&self) -> u64 {
        match self {
            PointPlayers::BestResponse { budget, .. } => crate::strength::best_response::check_planned(budget),
            PointPlayers::AsSeated => 0,
        }
    }
}

/// The scenario a solve plays at `x`: `params` set to `x`, and under best
/// response every seat playing `start` re-tuned under those rules (under
/// `start`'s own name).
pub fn scenario_at(base: &Scenario, params: &[Param], x: &[f64], settings: &Settings) -> Result<Scenario, Error> {
    let sc = scenario_with(base, params, x)?;
    let PointPlayers::BestResponse { start, budget: tune } = &settings.seating else {
        return Ok(sc);
    };
    let spec = sc.named_strategy(start).map_err(|e| e.at_input(crate::error::Input::Players))?;
    let (best, _) = tune_from(&sc, &spec, Field::SelfPlay, tuning_seed(settings.master), tune)?;
    crate::strength::best_response::seat_tuned(&sc, start, &best, tune.family)
}

/// The scenario at each point a solve plays, with its players: under best
/// response, tuned once per point (the root finder and the held-out check
/// may ask for the same point twice; a search costs far more than an
/// evaluation).
pub(super) struct Points<'a> {
    base: &'a Scenario,
    params: &'a [Param],
    settings: &'a Settings,
    tuned: RefCell<Vec<(Vec<f64>, Scenario)>>,
}

impl<'a> Points<'a> {
    pub(super) fn new(base: &'a Scenario, params: &'a [Param], settings: &'a Settings) -> Self {
        Points { base, params, settings, tuned: RefCell::new(Vec::new()) }
    }

    pub(super) fn at(&self, x: &[f64]) -> Result<Scenario, Error> {
        if let Some((_, s)) = self.tuned.borrow().iter().find(|(y, _)| y.as_slice() == x) {
            return Ok(s.clone());
        }
        let out = scenario_at(self.base, self.params, x, self.settings)?;
        if self.settings.seating == PointPlayers::AsSeated {
            return Ok(out);
        }
        self.tuned.borrow_mut().push((x.to_vec(), out.clone()));
        Ok(out)
    }

    /// The point `x` in words: `KEY=VALUE, KEY2=VALUE2`.
    pub(super) fn show(&self, x: &[f64]) -> String {
        let each: Vec<String> = self.params.iter().zip(x).map(|(p, &v)| format!("{}={}", p.name, p.show(v))).collect();
        each.join(", ")
    }
}
