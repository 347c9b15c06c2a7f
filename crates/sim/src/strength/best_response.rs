//! Best responses: a player tuned to play as well as tuning can make it
//! under a scenario's rules, against a field or in self-play. `compare`,
//! `sweep`, `solve` and the experiments (`restrict`, `worth`,
//! `mine-vs-pillage`) answer under strong play through it, so what "a best
//! response" means (the keys tuned, the gift in a quarter of the campaigns,
//! keys no game exercised set back, the gold repair, the search seated on
//! top) is said and done here once.
//!
//! - `tune_from`: the weighted player fitted to a field (`tune`'s CMA-ES),
//!   then `keep_unexercised` and `repair_gift`; `tune_given` fits a player
//!   handed a resource in every campaign (`experiment worth`).
//! - `retuned`: a start re-tuned in self-play under a variant's rules and
//!   seated in every seat (`seat_tuned`: as weights, or as the scenario's
//!   `search` with the weights as its prior), with its competence check.

use crate::error::{Error, Input};
use crate::rules::setup::Gift;
use crate::scenario::{Scenario, StrategyKind, StrategySpec};
use crate::sim::lineup::Lineup;
use crate::strength::probe::{self, Competence};
use crate::strength::tune::{self, Field, Flow, Problem, Settings};

/// The tuning budget of the best-response answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    pub generations: u32,
    pub per_eval: u64,
    pub population: Option<usize>,
    pub sigma: f64,
    /// Campaigns each probe of the competence check gives a player this
    /// budget tuned (`retuned`); 0 checks nothing. It also sizes
    /// the gold-gift repair after each tuning (`repair_campaigns`).
    pub probe_campaigns: u64,
    /// The player seated once the weighted player is tuned (`compare`,
    /// `sweep` and `solve`; `restrict` values restrictions between weighted
    /// players only).
    pub family: Family,
}

/// The player family a best response seats. The weights are always tuned
/// first (CMA-ES is what fits a player to a variant at a cost a designer
/// accepts); `Search` then seats the scenario's `search` on top of them,
/// the tuned weights as its prior and its rollouts' player, so the
/// strongest player the project has is fitted to each variant too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Family {
    #[default]
    Weighted,
    Search,
}

impl Family {
    /// `player family: ...` as the best-response lines print it.
    pub fn words(self) -> &'static str {
        match self {
            Family::Weighted => "player family: weighted",
            Family::Search => {
                "player family: search (the scenario's strategies.search keys: budget, top_k, horizon; the re-tuned \
                 weights as its prior and its rollouts' player)"
            }
        }
    }
}

/// What a best response's tuning moves and plays, as every best-response
/// line says it: `tune_from`'s keys and its campaigns.
pub const TUNED_OVER: &str = "every numeric key but the start's tune_keep, the competence check's 500-gold gift in a \
                              quarter of the campaigns, keys no game exercised set back, keys whose move wastes the \
                              gift set back";

/// The weighted player a best response starts from: `start` itself, or,
/// for a mixture (the strong field, `equilibrium`), its heaviest member
/// (the first of equal weights). Tuning a mixture's own keys would move
/// nothing it plays. A random or searching player has no weights to tune.
pub fn weighted_start(sc: &Scenario, start: &StrategySpec) -> Result<StrategySpec, Error> {
    use crate::scenario::StrategyKind;
    match start.kind {
        StrategyKind::Weighted => Ok(start.clone()),
        StrategyKind::Mixture => {
            let chance = crate::strategy::chances(start);
            // The first of equal chances (`max_by` keeps the last it sees).
            let heaviest = (0..chance.len())
                .rev()
                .max_by(|&a, &b| chance[a].total_cmp(&chance[b]))
                .ok_or_else(|| Error::input("a best response cannot start from a mixture with no members"))?;
            let member = sc.named_strategy(&start.members[heaviest])?;
            weighted_start(sc, &member)
        }
        kind => Err(Error::input(format!(
            "a best response tunes a weighted player's keys; it cannot start from a {kind:?} player (name a \
             weighted one, or a mixture of them)"
        ))),
    }
}

/// The most campaigns `tune_from` plays under `sc` with `budget` (its
/// search may converge sooner): a progress bar's length.
pub fn tuning_planned(sc: &Scenario, budget: &Budget) -> u64 {
    // The start's `tune_keep` may leave fewer keys; this is an upper bound.
    let keys = crate::scenario::knobs::KNOBS.len();
    let population = budget.population.unwrap_or_else(|| tune::default_population(keys));
    let seats = sc.players.len().max(1) as u64;
    let per_eval = budget.per_eval.div_ceil(seats) * seats;
    // Then `keep_unexercised`'s reference games and one trial per key, and
    // `repair_gift`'s first probe (its repairs, when needed, run past the bar).
    tune::campaigns(budget.generations as u64, population, per_eval)
        + (keys as u64 + 1) * per_eval
        + 2 * repair_campaigns(budget)
}

/// Tune `start` (a spec) over every numeric key against `field` (fixed
/// opponents, or itself) under `sc`'s rules with `budget`: the tuned
/// spec, and the campaigns the search played. After the search, keys no
/// game exercised are set back (`keep_unexercised`), then keys whose move
/// makes the player waste the competence check's gold gift
/// (`repair_gift`), so a best response is one the check can pass.
pub fn tune_from(
    sc: &Scenario,
    start: &StrategySpec,
    field: Field,
    seed: u64,
    budget: &Budget,
) -> Result<(StrategySpec, u64), Error> {
    fit(sc, start, field, seed, budget, None)
}

/// As `tune_from`, for a player handed `gift` at the start of every
/// campaign (`experiment worth`'s best response fitted with the gift): the
/// search, its reference games and the set-back of unexercised keys all
/// play the gifted game. The competence check's gold repair is left out:
/// it asks how a player spends a gift it was not fitted to, and this
/// player is fitted to one.
pub fn tune_given(
    sc: &Scenario,
    start: &StrategySpec,
    field: Field,
    seed: u64,
    budget: &Budget,
    gift: Gift,
) -> Result<(StrategySpec, u64), Error> {
    fit(sc, start, field, seed, budget, Some(gift))
}

/// The most campaigns `tune_given` plays under `sc` with `budget`.
pub fn tuning_given_planned(sc: &Scenario, budget: &Budget) -> u64 {
    tuning_planned(sc, budget) - 2 * repair_campaigns(budget)
}

fn fit(
    sc: &Scenario,
    start: &StrategySpec,
    field: Field,
    seed: u64,
    budget: &Budget,
    given: Option<Gift>,
) -> Result<(StrategySpec, u64), Error> {
    let start = &weighted_start(sc, start)?;
    let mut sc = sc.clone();
    let name = "best-response start".to_string();
    sc.strategies.insert(name.clone(), start.clone());
    let keys = crate::scenario::knobs::tunable(start);
    let population = budget.population.unwrap_or_else(|| tune::default_population(keys.len()));
    let seats = sc.players.len() as u64;
    let per_eval = budget.per_eval.div_ceil(seats) * seats;
    let settings = Settings {
        start: name,
        field,
        keys,
        per_eval,
        generations: budget.generations,
        population,
        sigma: budget.sigma,
        seed,
        vary: Vec::new(),
        variants: 0,
        // The competence check's gold gift, so the player fitted is one the
        // check can call competent (`Settings::gift_gold`).
        // (A player fitted with a gift of its own plays no second one.)
        gift_gold: if given.is_some() { 0 } else { crate::strength::probe::Settings::default().gold },
        given,
        // Win rates: the best responses behind the studies' published
        // figures were fitted so (a dense objective is `tune`'s and
        // `climb`'s, docs/strength.md).
        objective: tune::Objective::Wins,
        start_at: None,
    };
    let p = Problem::new(&sc, settings)?;
    let rec = tune::tune(&p, None, |_| Flow::Continue)?;
    let played = tune::campaigns(rec.generations.len() as u64, population, per_eval);
    let tuned = p.best_by_reference(&rec);
    let kept = keep_unexercised(&sc, start, tuned, &p.settings.field, given, tune::reference_master(seed), per_eval)?;
    let repair = repair_campaigns(budget);
    if repair == 0 || given.is_some() {
        return Ok((kept.spec, played + kept.played));
    }
    let repaired = repair_gift(&sc, start, kept.spec, &p.settings.field, repair_master(seed), repair)?;
    Ok((repaired.spec, played + kept.played + repaired.played))
}

/// Campaigns a probe of `repair_gift` plays at most: enough to see a harm
/// of about 3 points, a fraction of what the tuning itself played.
pub const REPAIR_CAMPAIGNS: u64 = 2000;

/// Campaigns each of `repair_gift`'s probes plays under `budget`: the
/// competence check's own size, at most `REPAIR_CAMPAIGNS`, and none when
/// the budget runs no check (`probe_campaigns = 0`). Why: the repair
/// exists so the player passes that check, and a budget of a few campaigns
/// a point (a test's, a quick look) must not pay thousands for it.
pub fn repair_campaigns(budget: &Budget) -> u64 {
    budget.probe_campaigns.min(REPAIR_CAMPAIGNS)
}

/// The master seed of `repair_gift`'s probes: the tuning's, never one a
/// study's held-out check plays.
pub fn repair_master(seed: u64) -> u64 {
    crate::seed::campaign_seed(tune::reference_master(seed), 0x6f1d)
}

/// A tuned player repaired for the competence check's gold gift.
#[derive(Clone, Debug)]
pub struct Repaired {
    pub spec: StrategySpec,
    /// The keys set back to the start's value, in the order they were.
    pub keys: Vec<&'static str>,
    /// The gift's harm (win-rate share) before and after.
    pub harm: (f64, f64),
    pub played: u64,
}

/// `tuned` with moved keys set back to `start`'s values, one at a time,
/// while handing it the competence check's gold costs it more than the
/// check's tolerance on `campaigns` campaigns of `master` (against the
/// tuning's field); each round sets back the key whose return leaves the
/// smallest harm, for at most three rounds.
///
/// Why: a quarter of the tuning's campaigns hand the player that gold
/// (`Settings::gift_gold`), yet a weight can still move across a threshold
/// the gifted games reward too little to hold. Under river and mountain
/// mines ×4, a best response moved `ship` from 5.30 to 5.80 and, handed
/// 500 gold, bought ships that were sunk: it lost 7.4 points [5.9, 8.9] to
/// copies that kept the gold unspent, and setting `ship` back alone made
/// it pass (+0.8 [−0.7, +2.2]). The start passed the check, so its value
/// of a key is the one known to spend a gift well. A player already
/// within the tolerance is returned as it is, after one probe.
pub fn repair_gift(
    sc: &Scenario,
    start: &StrategySpec,
    tuned: StrategySpec,
    field: &Field,
    master: u64,
    campaigns: u64,
) -> Result<Repaired, Error> {
    use crate::strength::probe;
    let settings = probe::Settings::default();
    let gift = vec![probe::family(&settings).remove(0)];
    let fixed = match field {
        Field::Fixed(names) if names.len() == 1 => Some((names[0].as_str(), sc.named_strategy(&names[0])?)),
        _ => None,
    };
    let harm = |spec: &StrategySpec| -> Result<f64, Error> {
        let c = match &fixed {
            Some((name, f)) => {
                probe::check_against(sc, "tuned", spec, (name, f), gift.clone(), settings, master, campaigns)?
            }
            None => probe::check_spec(sc, "tuned", spec, gift.clone(), settings, master, campaigns)?,
        };
        Ok(c.rows[0].harm)
    };
    let first = harm(&tuned)?;
    let mut played = 2 * campaigns;
    let (mut spec, mut now, mut keys) = (tuned, first, Vec::new());
    for _ in 0..3 {
        if now <= settings.tolerance {
            break;
        }
        let mut best: Option<(f64, StrategySpec, &'static str)> = None;
        for k in crate::scenario::knobs::KNOBS {
            let Some(back) = set_back(start, &spec, k) else { continue };
            let h = harm(&back)?;
            played += 2 * campaigns;
            if best.as_ref().is_none_or(|b| h < b.0) {
                best = Some((h, back, k.key));
            }
        }
        let Some((h, back, key)) = best else { break };
        if h >= now {
            break;
        }
        (spec, now) = (back, h);
        keys.push(key);
    }
    Ok(Repaired { spec, keys, harm: (first, now), played })
}

/// `spec` with key `k` set back to `start`'s value, or `None` when the
/// tuning left it there.
fn set_back(start: &StrategySpec, spec: &StrategySpec, k: &crate::scenario::knobs::Knob) -> Option<StrategySpec> {
    let was = (k.get)(start);
    ((k.get)(spec) != was).then(|| {
        let mut back = spec.clone();
        (k.set)(&mut back, was);
        back
    })
}

/// A tuned player with the keys its games never exercised set back.
#[derive(Clone, Debug)]
pub struct Kept {
    pub spec: StrategySpec,
    /// The keys set back to the start's value, in `KNOBS` order.
    pub keys: Vec<&'static str>,
    /// Campaigns played to find them.
    pub played: u64,
}

/// `tuned` with every key that no game exercises set back to `start`'s
/// value.
///
/// CMA-ES moves every key it is given, and a key that no tuning game
/// exercises (a lone recruit's factor where the player never has the gold
/// for one, a ship's weight where there is no sea) moves wherever the
/// search's noise takes it. The start's value was chosen for the
/// situations the tuning never shows (the competence check's gifts among
/// them), so the noise can only lose what it protected: a best response
/// under river and mountain mines ×16 had `unit_alone` drift from 0 to
/// 0.575 and then lost 5.7 points [4.2, 7.2] when handed 500 gold, though
/// setting it back changes none of its games. So each key the search moved
/// is set back in turn, and stays back when the player then plays exactly
/// the same games (the same final-state fingerprints) on `campaigns`
/// campaigns of `master` against the tuning's field. A revert that changes
/// no game leaves the player's games as they were, so one set of games is
/// the reference for every key. A player fitted with `given` is judged on
/// the gifted games it was fitted to.
pub fn keep_unexercised(
    sc: &Scenario,
    start: &StrategySpec,
    tuned: StrategySpec,
    field: &Field,
    given: Option<Gift>,
    master: u64,
    campaigns: u64,
) -> Result<Kept, Error> {
    let seats = sc.players.len();
    let others: Vec<StrategySpec> = match field {
        Field::SelfPlay => Vec::new(),
        Field::Fixed(names) => names.iter().map(|n| sc.named_strategy(n)).collect::<Result<_, _>>()?,
    };
    let games = |me: &StrategySpec| -> Result<Vec<u64>, Error> {
        let lineup: Vec<StrategySpec> = (0..seats)
            .map(|s| if s == 0 || others.is_empty() { me.clone() } else { others[(s - 1) % others.len()].clone() })
            .collect();
        let played = Lineup::new(sc, &lineup)
            .map(|l| match given {
                Some(g) => l.with_gift(0, g),
                None => l,
            })
            .and_then(|l| l.games(master, 0..campaigns))
            .map_err(|e| Error::input(e.to_string()))?;
        Ok(played.into_iter().map(|g| g.print).collect())
    };
    let reference = games(&tuned)?;
    let mut played = campaigns;
    let (mut spec, mut keys) = (tuned, Vec::new());
    for k in crate::scenario::knobs::KNOBS {
        let Some(back) = set_back(start, &spec, k) else { continue };
        played += campaigns;
        if games(&back)? == reference {
            spec = back;
            keys.push(k.key);
        }
    }
    Ok(Kept { spec, keys, played })
}

/// The name the re-tuned player has in each variant.
pub const BEST_RESPONSE: &str = "best response";

/// The master seed of the best-response searches of a comparison on
/// master seed `seed`.
pub fn tuning_seed(seed: u64) -> u64 {
    crate::seed::mix2(seed, 0x4252_4553_504f_4e53)
}

/// The campaigns the competence check of one re-tuned player plays.
pub fn check_planned(budget: &Budget) -> u64 {
    if budget.probe_campaigns == 0 {
        return 0;
    }
    probe::planned(&probe::family(&probe::Settings::default()), budget.probe_campaigns)
}

/// Re-tune `start` in self-play under `sc`'s rules, warm-started from it,
/// on the best-response search seed of master seed `seed`, and seat the
/// result in every seat: the scenario to play, the tuned player, and the
/// campaigns the search played. One variant of `best_response`; `sweep
/// --best-response` calls it per cell.
///
/// The tuned player then gets the competence check under the same rules
/// (every probe, `budget.probe_campaigns` each, on the comparison's own
/// master seed, which the search never played): a best response that
/// cannot use what it is given answers for its own limits.
pub fn retuned(sc: &Scenario, start: &str, seed: u64, budget: &Budget) -> Result<Retuned, Error> {
    let spec = sc.named_strategy(start).map_err(|e| e.at_input(Input::Players))?;
    let (best, played) = tune_from(sc, &spec, Field::SelfPlay, tuning_seed(seed), budget)?;
    let seated = seat_tuned(sc, BEST_RESPONSE, &best, budget.family)?;
    let competence = if budget.probe_campaigns == 0 {
        None
    } else {
        let settings = probe::Settings::default();
        Some(probe::check(&seated, BEST_RESPONSE, probe::family(&settings), settings, seed, budget.probe_campaigns)?)
    };
    Ok(Retuned { scenario: seated, spec: best, played, competence })
}

/// `sc` with `tuned` (weights tuned under its rules) playing every seat
/// under `name`: as it is, or for `Family::Search` as the scenario's
/// `search` (its budget, top-k, horizon, temperature, exploration and
/// value from `strategies.search`) whose prior is `tuned`'s weights and
/// whose rollouts `tuned` plays, under `NAME (rollouts)`.
pub fn seat_tuned(sc: &Scenario, name: &str, tuned: &StrategySpec, family: Family) -> Result<Scenario, Error> {
    let mut out = sc.clone();
    match family {
        Family::Weighted => {
            out.strategies.insert(name.to_string(), tuned.clone());
        }
        Family::Search => {
            let search = sc.named_strategy("search").map_err(|e| e.at_input(Input::BestResponsePlayer))?;
            if search.kind != StrategyKind::Search {
                return Err(Error::input(format!(
                    "the scenario's strategy `search` is a {:?} player, not a search",
                    search.kind
                ))
                .at_input_value(Input::BestResponsePlayer, "search"));
            }
            let rollouts = format!("{name} (rollouts)");
            let mut player = tuned.clone();
            player.kind = StrategyKind::Search;
            player.base = rollouts.clone();
            player.budget = search.budget;
            player.top_k = search.top_k;
            player.horizon = search.horizon;
            player.temperature = search.temperature;
            player.explore = search.explore;
            player.value = search.value.clone();
            player.look_at = search.look_at.clone();
            out.strategies.insert(rollouts, tuned.clone());
            out.strategies.insert(name.to_string(), player);
        }
    }
    out.with_players(name)
}

/// A player re-tuned under a variant's rules (`retuned`).
pub struct Retuned {
    /// The variant with the tuned player in every seat.
    pub scenario: Scenario,
    pub spec: StrategySpec,
    /// Campaigns the search played.
    pub played: u64,
    pub competence: Option<Competence>,
}
