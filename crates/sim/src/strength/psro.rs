//! `empires psro`: an equilibrium over a population of players, and how
//! far a best response can exploit it.
//!
//! Policy-Space Response Oracles (Lanctot et al. 2017; OpenSpiel's
//! `psro_v2`), for the symmetric game of a scenario's seats:
//!
//! 1. **The meta-game.** Every composition of the population over the
//!    seats plays `meta_campaigns` campaigns (seats rotated, common seeds:
//!    `metagame`'s empirical game). A composition played in an earlier
//!    round is not played again: the seeds are the same every round.
//! 2. **The mixture** σ is a symmetric Nash equilibrium of that game
//!    (`metagame::EmpiricalGame::equilibrium`, with its regret in the game).
//! 3. **The oracle.** A best response to σ is fitted by `climb`: CMA-ES
//!    restarts from the population's members and from other starts, every
//!    opponent seat playing σ (a `kind = "mixture"` player that draws a
//!    member each campaign), ranked by the objective; and by a style map
//!    (`styles`: MAP-Elites searched by CMA-ME's emitters, against σ, from
//!    the same starts), whose best elites found what the restarts missed
//!    (on the duel a castle builder bred from one member beat the
//!    restarts' equilibrium by 18 points). The response is chosen among
//!    the restarts' finalists and the map's best elites on a selection
//!    seed, the population's best member against σ entering as the
//!    start, so the response is never below it there.
//! 4. **Exploitability.** The response plays σ in every other seat on
//!    held-out campaigns: its win rate less the fair share `1/seats` (what
//!    σ wins against itself) is what σ gives away to it, with the Wilson
//!    interval of that rate. It is a lower bound on σ's exploitability:
//!    only as strong as the oracle.
//! 5. The response joins the population, and the next round begins, until
//!    the rounds run out or the oracle finds nothing that beats the
//!    population's best member on the selection seed.
//!
//! Every seed is derived from the master seed and the round; the result
//! depends on the scenario, the settings and the seed only. No IO here.

use super::climb::{self, Plan};
use super::metagame::{Composition, EmpiricalGame, multisets};
use super::tune::{self, Field, Flow, Objective, Problem, Settings as TuneSettings};
use crate::error::{Error, Input};
use crate::scenario::{Scenario, StrategyKind, StrategySpec};
use crate::seed::mix2;
use crate::sim::lineup::{Lineup, Wins};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

const TAG_META: u64 = 0x7073_726f_0000_0001;
const TAG_ORACLE: u64 = 0x7073_726f_0000_0002;
const TAG_HELD_OUT: u64 = 0x7073_726f_0000_0003;
const TAG_STYLES: u64 = 0x7073_726f_0000_0004;

/// The name the mixture plays under in the population's scenario: the
/// strong field every study seats by default.
pub const MIXTURE: &str = crate::strategy::STRONG;

/// Everything that decides a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The population's first members (weighted strategies of the scenario).
    pub population: Vec<String>,
    pub rounds: u32,
    /// Campaigns per composition of the meta-game.
    pub meta_campaigns: u64,
    /// The oracle's restarts: where they start (besides the population's
    /// members, which always start one each) and how they grow.
    pub plan: Plan,
    pub per_eval: u64,
    pub population_size: usize,
    pub sigma: f64,
    pub objective: Objective,
    pub select_campaigns: u64,
    /// Campaigns of the held-out exploitability measurement.
    pub eval_campaigns: u64,
    pub seed: u64,
    /// Campaigns of the oracle's style map a round (`styles` against σ,
    /// from the same starts): its best elites join the selection beside
    /// the restarts' finalists. 0: restarts only (records made before the
    /// map joined the oracle read so).
    #[serde(default)]
    pub styles_budget: u64,
}

/// The style map's best elites that join a round's selection.
pub const STYLE_ENTRANTS: usize = 3;

/// One round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// The population the meta-game was played over, by name.
    pub members: Vec<String>,
    /// Its symmetric equilibrium, in `members` order, and the most a member
    /// gains over it in the meta-game.
    pub sigma: Vec<f64>,
    pub regret: f64,
    /// Each member's win rate against σ in every other seat, from the
    /// meta-game.
    pub values: Vec<f64>,
    /// The oracle's response, and which entrant it was.
    pub response: StrategySpec,
    pub response_label: String,
    /// Whether the response is a new player (not the population's own best
    /// member, which enters the selection as the start).
    pub new: bool,
    /// The response against σ in every other seat, on held-out campaigns.
    pub held: Wins,
    pub campaigns_played: u64,
}

impl Round {
    /// The response's held-out win rate less the fair share: what σ gives
    /// away to it, with the Wilson interval, in win-rate units.
    pub fn exploitability(&self, seats: usize) -> (f64, f64, f64) {
        let fair = 1.0 / seats as f64;
        let (lo, hi) = crate::stats::wilson(self.held.by_slot[0] as f64, self.held.campaigns as f64, 0.95);
        (self.held.rate(0) - fair, lo - fair, hi - fair)
    }
}

/// A run so far: what `--resume` continues.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub settings: Settings,
    /// Each round's response that joined the population, as named there.
    pub rounds: Vec<Round>,
}

impl Record {
    /// The population after the rounds so far: the first members and each
    /// new response, as (name, spec).
    pub fn population(&self, sc: &Scenario) -> Result<Vec<(String, StrategySpec)>, Error> {
        let mut out: Vec<(String, StrategySpec)> = self
            .settings
            .population
            .iter()
            .map(|n| Ok((n.clone(), sc.named_strategy(n)?)))
            .collect::<Result<_, Error>>()?;
        for (r, round) in self.rounds.iter().enumerate() {
            if round.new {
                out.push((response_name(r), round.response.clone()));
            }
        }
        Ok(out)
    }
}

/// Master seed of round `r`'s held-out exploitability measurement.
pub fn held_out_master(seed: u64, r: usize) -> u64 {
    mix2(mix2(seed, TAG_HELD_OUT), r as u64)
}

/// Master seed of the meta-game's campaigns (the same every round).
pub fn meta_master(seed: u64) -> u64 {
    mix2(seed, TAG_META)
}

/// The name round `r`'s response joins the population under.
pub fn response_name(r: usize) -> String {
    format!("psro_{}", r + 1)
}

/// Whether `name` is one `response_name` gives.
pub fn is_response_name(name: &str) -> bool {
    name.strip_prefix("psro_").is_some_and(|k| k.parse::<usize>().is_ok_and(|k| k >= 1))
}

/// `sc` with every member of `population` in it under its name, and the
/// mixture `sigma` over them as `MIXTURE`.
pub fn scenario_with(sc: &Scenario, population: &[(String, StrategySpec)], sigma: &[f64]) -> Scenario {
    let mut s = sc.clone();
    for (n, spec) in population {
        s.strategies.insert(n.clone(), spec.clone());
    }
    s.strategies.insert(MIXTURE.to_string(), mixture(population, sigma));
    s
}

/// The mixed player over `population` with weights `sigma`.
pub fn mixture(population: &[(String, StrategySpec)], sigma: &[f64]) -> StrategySpec {
    StrategySpec {
        kind: StrategyKind::Mixture,
        members: population.iter().map(|(n, _)| n.clone()).collect(),
        weights: sigma.to_vec(),
        ..StrategySpec::default()
    }
}

/// The meta-game's compositions played so far, by the names in them, so a
/// round plays only those its new member is in.
#[derive(Default)]
struct Played {
    by_names: HashMap<Vec<(String, u32)>, Vec<(String, u64)>>,
}

fn key_of(names: &[String], counts: &[u32]) -> Vec<(String, u32)> {
    let mut k: Vec<(String, u32)> =
        names.iter().zip(counts).filter(|(_, c)| **c > 0).map(|(n, c)| (n.clone(), *c)).collect();
    k.sort();
    k
}

/// Check the settings against the scenario.
pub fn check(sc: &Scenario, s: &Settings) -> Result<(), Error> {
    if s.population.is_empty() {
        return Err(Error::input("a population needs at least one member"));
    }
    for (i, n) in s.population.iter().enumerate() {
        if s.population[..i].contains(n) {
            return Err(Error::input(format!("{n:?} is listed twice")));
        }
        if sc.named_strategy(n)?.kind != StrategyKind::Weighted {
            return Err(Error::input(format!(
                "{n:?} is not a weighted strategy: the oracle tunes weighted players from each member"
            )));
        }
    }
    if sc.players.len() < 2 {
        return Err(Error::input("the scenario needs at least 2 seats"));
    }
    if s.rounds == 0 || s.meta_campaigns < 2 || s.eval_campaigns < 2 {
        return Err(Error::input("at least one round, and 2 campaigns per composition and held out"));
    }
    Ok(())
}

/// The campaigns one round's meta-game plays when its population has `k`
/// members and the last round's had `k − 1` (all of them for the first).
pub fn meta_campaigns_of(k: usize, seats: u32, first: bool, campaigns: u64) -> u64 {
    let all = multisets(k, seats).len() as u64;
    let old = if first || k < 2 { 0 } else { multisets(k - 1, seats).len() as u64 };
    (all - old) * campaigns
}

/// Run (or continue) PSRO. `previous` holds the rounds done; each new round
/// is appended and handed to `after`, which may stop the run.
pub fn run(
    sc: &Scenario,
    settings: &Settings,
    previous: Option<Record>,
    mut after: impl FnMut(&Record) -> Flow,
) -> Result<Record, Error> {
    check(sc, settings)?;
    let mut rec = match previous {
        // More rounds go on from a finished run (the library's door; the
        // command names its folder by every flag, `--rounds` too): every
        // other setting must be the record's.
        Some(mut r) if Settings { rounds: settings.rounds, ..r.settings.clone() } == *settings => {
            r.settings.rounds = settings.rounds;
            r
        }
        Some(_) => {
            return Err(Error::input_naming([
                "the record was made with other settings; start again without ".into(),
                Input::Resume.into(),
            ]));
        }
        None => Record { settings: settings.clone(), rounds: Vec::new() },
    };
    let seats = sc.players.len() as u32;
    let meta_master = meta_master(settings.seed);
    let mut played = Played::default();
    while (rec.rounds.len() as u32) < settings.rounds {
        let r = rec.rounds.len();
        if rec.rounds.last().is_some_and(|x| !x.new) {
            break; // the oracle found nothing new: the population is closed
        }
        let population = rec.population(sc)?;
        let names: Vec<String> = population.iter().map(|(n, _)| n.clone()).collect();
        let base = scenario_with(sc, &population, &vec![1.0; population.len()]);
        // 1. The meta-game, playing only what no earlier round played.
        let k = names.len();
        let mut comps = Vec::new();
        let mut campaigns_played = 0;
        for counts in multisets(k, seats) {
            let key = key_of(&names, &counts);
            let wins_by_name = match played.by_names.get(&key) {
                Some(w) => w.clone(),
                None => {
                    let lineup: Vec<StrategySpec> = counts
                        .iter()
                        .enumerate()
                        .flat_map(|(i, &c)| std::iter::repeat_n(population[i].1.clone(), c as usize))
                        .collect();
                    let slot_of: Vec<usize> =
                        counts.iter().enumerate().flat_map(|(i, &c)| std::iter::repeat_n(i, c as usize)).collect();
                    let w = Lineup::new(&base, &lineup)
                        .and_then(|l| l.wins(meta_master, 0..settings.meta_campaigns))
                        .map_err(Error::from)?;
                    let mut by = vec![0u64; k];
                    for (slot, n) in w.by_slot.iter().enumerate() {
                        by[slot_of[slot]] += n;
                    }
                    let w: Vec<(String, u64)> = names
                        .iter()
                        .zip(&by)
                        .filter(|(n, _)| key.iter().any(|(m, _)| m == *n))
                        .map(|(n, b)| (n.clone(), *b))
                        .collect();
                    played.by_names.insert(key.clone(), w.clone());
                    w
                }
            };
            // Counted as this round's when a member new to it is in it, so
            // the count is the same after a resume, which plays them again.
            let earlier = r.checked_sub(1).map(|q| &rec.rounds[q].members);
            if earlier.is_none_or(|m| key.iter().any(|(n, _)| !m.contains(n))) {
                campaigns_played += settings.meta_campaigns;
            }
            let wins: Vec<u64> =
                names.iter().map(|n| wins_by_name.iter().find(|(m, _)| m == n).map_or(0, |(_, w)| *w)).collect();
            comps.push(Composition { counts, campaigns: settings.meta_campaigns, wins });
        }
        let game = EmpiricalGame::new(k, seats, comps);
        // 2. The mixture.
        let (sigma, regret) = game.equilibrium();
        let values = game.values(&sigma);
        let sc_mix = scenario_with(sc, &population, &sigma);
        // 3. The oracle: restarts from every member, then the plan's starts.
        let best_member = (0..k).max_by(|&a, &b| values[a].total_cmp(&values[b]).then(b.cmp(&a))).unwrap_or(0);
        let keys = super::styles::keys_of(&population.iter().map(|(_, s)| s.clone()).collect::<Vec<_>>());
        let oracle_seed = mix2(mix2(settings.seed, TAG_ORACLE), r as u64);
        let per_eval = settings.per_eval.div_ceil(seats as u64) * seats as u64;
        let base_settings = TuneSettings {
            start: names[best_member].clone(),
            field: Field::Fixed(vec![MIXTURE.to_string()]),
            keys,
            per_eval,
            generations: 1,
            population: settings.population_size,
            sigma: settings.sigma,
            seed: oracle_seed,
            vary: Vec::new(),
            variants: 0,
            gift_gold: 0,
            given: None,
            objective: settings.objective,
            start_at: None,
        };
        let mut plan = settings.plan.clone();
        let mut starts: Vec<climb::Start> = names.iter().map(|n| climb::Start::Named(n.clone())).collect();
        starts.extend(plan.starts.iter().cloned());
        plan.restarts = plan.restarts.max(starts.len() as u32);
        plan.starts = starts;
        let runs = climb::schedule(&base_settings, &plan)?;
        let problems = climb::problems(&sc_mix, &runs)?;
        let main = Problem::new(&sc_mix, TuneSettings { generations: 1, ..base_settings.clone() })?;
        let done = climb::climb(&problems, None, |_, _| Flow::Continue)?;
        campaigns_played += done
            .restarts
            .iter()
            .zip(&runs)
            .map(|(rr, s)| tune::campaigns(rr.generations.len() as u64, s.population, s.per_eval))
            .sum::<u64>();
        // The style map against σ, from the same named starts.
        let (extra, map_played) = if settings.styles_budget > 0 {
            style_entrants(&sc_mix, &names, settings, &base_settings.keys, per_eval, oracle_seed)?
        } else {
            (Vec::new(), 0)
        };
        campaigns_played += map_played;
        let select_master = mix2(oracle_seed, 0x7365_6c65_6374);
        let choice = climb::choose_with(&main, &problems, &done, extra, select_master, settings.select_campaigns)?;
        campaigns_played += choice.entrants.len() as u64 * choice.campaigns;
        let response = choice.spec().clone();
        // 4. Exploitability, held out.
        let held_master = held_out_master(settings.seed, r);
        let held =
            main.wins_on(&main.variants, &response, &main.reference_field(), held_master, settings.eval_campaigns)?;
        campaigns_played += settings.eval_campaigns;
        rec.rounds.push(Round {
            members: names,
            sigma,
            regret,
            values,
            response,
            response_label: choice.entrants[choice.chosen].label.clone(),
            new: choice.chosen != 0,
            held,
            campaigns_played,
        });
        if after(&rec) == Flow::Stop {
            break;
        }
    }
    Ok(rec)
}

/// The oracle's style map of a round: against σ (`MIXTURE`), from
/// `starts`, over `keys`, on the map's default axes, bins and emitters,
/// with the oracle's CMA-ES population and step, and as many generations
/// as `styles_budget` buys.
pub fn map_settings(
    settings: &Settings,
    starts: Vec<String>,
    keys: Vec<String>,
    per_eval: u64,
    seed: u64,
) -> super::styles::Settings {
    let generations =
        super::styles::generations_for(settings.styles_budget, starts.len(), settings.population_size, per_eval);
    super::styles::Settings {
        starts,
        field: vec![MIXTURE.to_string()],
        keys,
        axes: super::styles::AXES,
        bins: super::styles::BINS,
        per_eval,
        emitters: super::styles::EMITTERS,
        population: settings.population_size,
        sigma: settings.sigma,
        generations,
        objective: settings.objective,
        seed,
    }
}

/// The style map's best `STYLE_ENTRANTS` elites against σ (label and
/// player), from the members `names` and the plan's named weighted
/// starts, and the campaigns the map played.
fn style_entrants(
    sc_mix: &Scenario,
    names: &[String],
    settings: &Settings,
    keys: &[String],
    per_eval: u64,
    oracle_seed: u64,
) -> Result<(Vec<(String, StrategySpec)>, u64), Error> {
    let mut starts = names.to_vec();
    for s in &settings.plan.starts {
        if let climb::Start::Named(n) = s
            && !starts.contains(n)
            && sc_mix.strategy_ref(n).is_some_and(|x| x.kind == StrategyKind::Weighted)
        {
            starts.push(n.clone());
        }
    }
    let map = super::styles::Styles::new(
        sc_mix,
        map_settings(settings, starts, keys.to_vec(), per_eval, mix2(oracle_seed, TAG_STYLES)),
    )?;
    let styled = super::styles::run(&map, None, |_| Flow::Continue)?;
    let archive = map.archive(&styled);
    let mut elites: Vec<_> = archive.cells.iter().collect();
    elites.sort_by(|a, b| b.1.eval.measure.objective().total_cmp(&a.1.eval.measure.objective()));
    let extra = elites
        .into_iter()
        .take(STYLE_ENTRANTS)
        .map(|(cell, e)| {
            let from = &map.settings.starts[e.eval.base];
            (
                format!("style map cell {cell:?} from {from} (generation {})", e.generation),
                map.spec_rounded(e.eval.base, &e.eval.u),
            )
        })
        .collect();
    Ok((extra, super::styles::campaigns(&map.settings)))
}

/// The campaigns a run plays at most: each round's meta-game (the
/// population growing by one a round), oracle, selection and held-out
/// measurement (a progress bar's length; rounds may stop early).
pub fn planned(sc: &Scenario, s: &Settings) -> u64 {
    let seats = sc.players.len() as u32;
    let per_eval = s.per_eval.div_ceil(seats as u64) * seats as u64;
    let mut total = 0;
    for r in 0..s.rounds as usize {
        let k = s.population.len() + r;
        total += meta_campaigns_of(k, seats, r == 0, s.meta_campaigns);
        let restarts = s.plan.restarts.max((k + s.plan.starts.len()) as u32) as u64;
        let budget = match s.plan.length {
            climb::Length::Campaigns(c) => c,
            climb::Length::Generations(g) => tune::campaigns(g as u64, s.population_size, per_eval),
        };
        let styles = if s.styles_budget > 0 { s.styles_budget + STYLE_ENTRANTS as u64 * s.select_campaigns } else { 0 };
        total += restarts * budget + (1 + 2 * restarts) * s.select_campaigns + s.eval_campaigns + styles;
    }
    total
}

/// The final population and its mixture as scenario text: every new
/// member spelled out, then `[strategies.equilibrium]`.
pub fn final_mixture(sc: &Scenario, rec: &Record) -> Result<(Vec<(String, StrategySpec)>, Vec<f64>), Error> {
    let pop = rec.population(sc)?;
    let last = rec.rounds.last().ok_or_else(|| Error::input("no round was played"))?;
    // The last round's σ is over its members; a response added after it
    // has no mass yet.
    let mut sigma = last.sigma.clone();
    sigma.resize(pop.len(), 0.0);
    Ok((pop, sigma))
}
