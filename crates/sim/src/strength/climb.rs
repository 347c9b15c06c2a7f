//! Tuning that climbs from anywhere: CMA-ES restarted from several starts
//! (named strategies and random points), its population grown as IPOP or
//! BIPOP grow it, and one result chosen among every restart's finalists on
//! seeds none of them played.
//!
//! - **Why restarts.** One CMA-ES run stays in the basin it starts in: from
//!   `tuned` it polishes a peaceful castle builder, from `warlord` it
//!   polishes war. A designer asking whether war can pay needs a search
//!   that has tried both, so every start is searched and the results meet
//!   in one selection.
//! - **The schedule** (`schedule`). Restart `r` starts from
//!   `starts[r mod len]`; pass `k = r div len` over the list sets the
//!   population. IPOP (Auger and Hansen 2005) doubles it each pass; BIPOP
//!   (Hansen 2009) alternates passes of that growing population with
//!   passes of a small one, `λ₀ (λ_large / 2λ₀)^(U²)` with step size
//!   `σ₀ 10^(−2U)`, `U` uniform from the seed. Every restart gets the same
//!   campaigns, so a larger population plays fewer generations.
//!   Restart 0 is the plain run (the seed itself, the first start), so one
//!   restart is exactly `tune`.
//! - **Why not the `cmaes` crate's restarter.** It draws every start
//!   uniformly from a box and runs each search to its end inside one call;
//!   a start here may be a named player, and each generation needs seeds
//!   of its own, a reference measurement and a record `--resume` replays,
//!   which `tune::tune` already gives. So this module only says what each
//!   restart is and runs `tune::tune` for each.
//! - **The result** (`choose`): the start of the run and every restart's
//!   finalists (`Problem::finalists`) play the field on the selection seed;
//!   the one that wins most is the result, so it is never below the start
//!   there. The held-out evaluation plays other seeds again.

use super::tune::{self, Entrant, Flow, Problem, Record, Settings};
use crate::error::{Error, Input};
use crate::scenario::{Scenario, StrategySpec};
use crate::seed::mix2;
use serde::{Deserialize, Serialize};

const TAG_RESTART: u64 = 0x636c_696d_6200_0001;
const TAG_RANDOM_START: u64 = 0x636c_696d_6200_0002;
const TAG_BIPOP: u64 = 0x636c_696d_6200_0003;

/// How the population grows from one pass over the starts to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Regime {
    /// Doubled each pass.
    #[default]
    Ipop,
    /// Passes of the doubling population alternate with passes of a small
    /// one with a small step (local restarts).
    Bipop,
}

impl Regime {
    pub fn parse(s: &str) -> Result<Regime, Error> {
        match s {
            "ipop" => Ok(Regime::Ipop),
            "bipop" => Ok(Regime::Bipop),
            _ => Err(Error::input(format!("{s:?} is not a restart regime (ipop, bipop)"))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Regime::Ipop => "ipop",
            Regime::Bipop => "bipop",
        }
    }
}

/// Where a restart starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Start {
    /// A named strategy's own values.
    Named(String),
    /// A point drawn uniformly over the tuned keys' ranges (the run's own
    /// start keeps every other key).
    Random,
}

impl Start {
    /// `random`, or a strategy name.
    pub fn parse(s: &str) -> Start {
        if s == "random" { Start::Random } else { Start::Named(s.to_string()) }
    }

    pub fn name(&self) -> &str {
        match self {
            Start::Named(n) => n,
            Start::Random => "random",
        }
    }
}

/// How much each restart plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Length {
    /// These campaigns, shared into generations of its population.
    Campaigns(u64),
    /// These generations, whatever the population.
    Generations(u32),
}

/// Every restart of a climb.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub starts: Vec<Start>,
    pub restarts: u32,
    pub regime: Regime,
    pub length: Length,
}

/// The generations a run of `population` plays with `campaigns` (the
/// start's reference measurement once, then each generation's candidates
/// and mean), at least one.
pub fn generations_for(campaigns: u64, population: usize, per_eval: u64) -> u32 {
    let per_gen = (population as u64 + 1) * per_eval.max(1);
    (campaigns.saturating_sub(per_eval) / per_gen).max(1) as u32
}

/// The settings of every restart: `base` (the first start's run, on its
/// seed) and the others after it, each with its start, seed, population,
/// step size and generations.
pub fn schedule(base: &Settings, plan: &Plan) -> Result<Vec<Settings>, Error> {
    if plan.starts.is_empty() {
        return Err(Error::input("a climb needs at least one start"));
    }
    if plan.restarts == 0 {
        return Err(Error::input("a climb needs at least one restart"));
    }
    let dim = base.keys.len();
    let len = plan.starts.len() as u32;
    let mut out = Vec::with_capacity(plan.restarts as usize);
    for r in 0..plan.restarts {
        let pass = r / len;
        let (population, sigma) = match plan.regime {
            Regime::Ipop => (base.population << pass.min(16), base.sigma),
            Regime::Bipop if pass % 2 == 0 => (base.population << (pass / 2).min(16), base.sigma),
            Regime::Bipop => {
                // The large population of the pass before.
                let large = (base.population << (pass / 2).min(16)) as f64;
                let mut rng = crate::seed::rng(mix2(mix2(base.seed, TAG_BIPOP), r as u64), crate::seed::Stream::Map);
                let u: f64 = rand::RngExt::random(&mut rng);
                let small = (base.population as f64 * (large / (2.0 * base.population as f64)).powf(u * u)).floor();
                (small.max(2.0) as usize, base.sigma * 10f64.powf(-2.0 * u))
            }
        };
        let start = &plan.starts[(r % len) as usize];
        let start_at = match start {
            Start::Named(_) => None,
            Start::Random => {
                let mut rng =
                    crate::seed::rng(mix2(mix2(base.seed, TAG_RANDOM_START), r as u64), crate::seed::Stream::Map);
                Some((0..dim).map(|_| rand::RngExt::random::<f64>(&mut rng)).collect())
            }
        };
        let generations = match plan.length {
            Length::Campaigns(c) => generations_for(c, population, base.per_eval),
            Length::Generations(g) => g,
        };
        out.push(Settings {
            start: match start {
                Start::Named(n) => n.clone(),
                Start::Random => base.start.clone(),
            },
            seed: if r == 0 { base.seed } else { mix2(mix2(base.seed, TAG_RESTART), r as u64) },
            population,
            sigma,
            generations,
            start_at,
            ..base.clone()
        });
    }
    Ok(out)
}

/// The record of every restart so far, in schedule order (the last may
/// be unfinished): what `--resume` continues.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Climb {
    pub restarts: Vec<Record>,
}

impl Climb {
    /// Whether restart `r` of `runs` is done (its generations played, or
    /// converged).
    pub fn finished(&self, r: usize, runs: &[Settings]) -> bool {
        self.restarts
            .get(r)
            .is_some_and(|rec| rec.stopped.is_some() || rec.generations.len() >= runs[r].generations as usize)
    }

    /// Every restart done.
    pub fn complete(&self, runs: &[Settings]) -> bool {
        (0..runs.len()).all(|r| self.finished(r, runs))
    }
}

/// The campaigns restart `s` plays at most.
pub fn campaigns_of(s: &Settings) -> u64 {
    tune::campaigns(s.generations as u64, s.population, s.per_eval)
}

/// Run (or continue) every restart of `problems` (one per scheduled run,
/// in order). `previous` holds what a stopped climb did: its finished
/// restarts are replayed by `tune::tune` without playing, and its last one
/// is continued. `after(r, record)` is called after every new generation
/// of restart `r` and may stop the climb. Returns the climb so far.
pub fn climb(
    problems: &[Problem<'_>],
    previous: Option<Climb>,
    mut after: impl FnMut(usize, &Climb) -> Flow,
) -> Result<Climb, Error> {
    let old = previous.unwrap_or_default().restarts;
    if old.len() > problems.len() {
        return Err(Error::input_naming([
            "the record has more restarts than these settings; start again without ".into(),
            Input::Resume.into(),
        ]));
    }
    let mut old = old.into_iter();
    let mut done = Climb::default();
    for (r, p) in problems.iter().enumerate() {
        let prev = old.next();
        let mut stop = false;
        let rec = tune::tune(p, prev, |rec| {
            let mut view = done.clone();
            view.restarts.push(rec.clone());
            let flow = after(r, &view);
            stop = flow == Flow::Stop;
            flow
        })?;
        let finished = rec.stopped.is_some() || rec.generations.len() >= p.settings.generations as usize;
        done.restarts.push(rec);
        if stop || !finished {
            break;
        }
    }
    Ok(done)
}

/// Who a climb's selection played: the run's start, then every restart's
/// finalists.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    /// The restart the entrant comes from (`None`: the run's start).
    pub restart: Option<usize>,
    /// Its unit coordinates in that restart's space (`None`: the start).
    pub u: Option<Vec<f64>>,
}

/// A climb's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub master: u64,
    pub campaigns: u64,
    /// Index into `entrants` of the result.
    pub chosen: usize,
    pub entrants: Vec<Entrant>,
    pub picks: Vec<Pick>,
}

impl Choice {
    pub fn spec(&self) -> &StrategySpec {
        &self.entrants[self.chosen].spec
    }
}

/// The entrants `choose` plays: how many (a progress bar's length).
pub fn entrants_of(problems: &[Problem<'_>], climb: &Climb) -> usize {
    1 + problems.iter().zip(&climb.restarts).map(|(p, rec)| p.finalists(rec).len()).sum::<usize>()
}

/// Choose the climb's result: `main` (the run's own start, whose field
/// judges) and each restart's finalists play on campaigns `0..campaigns`
/// of `master` (`tune::select`).
pub fn choose(
    main: &Problem<'_>,
    problems: &[Problem<'_>],
    climb: &Climb,
    master: u64,
    campaigns: u64,
) -> Result<Choice, Error> {
    choose_with(main, problems, climb, Vec::new(), master, campaigns)
}

/// `choose`, with `extra` entrants (label and player: a style map's best
/// elites) after the restarts' finalists.
pub fn choose_with(
    main: &Problem<'_>,
    problems: &[Problem<'_>],
    climb: &Climb,
    extra: Vec<(String, StrategySpec)>,
    master: u64,
    campaigns: u64,
) -> Result<Choice, Error> {
    let mut entrants = vec![(format!("{} (the start)", main.settings.start), main.start.clone())];
    let mut picks = vec![Pick { restart: None, u: None }];
    for (r, (p, rec)) in problems.iter().zip(&climb.restarts).enumerate() {
        for f in p.finalists(rec) {
            entrants.push((format!("restart {r} from {}: {}", start_words(p), f.label), p.spec_rounded(&f.u)));
            picks.push(Pick { restart: Some(r), u: Some(f.u) });
        }
    }
    for e in extra {
        entrants.push(e);
        picks.push(Pick { restart: None, u: None });
    }
    let (chosen, entrants) = tune::select(main, entrants, master, campaigns)?;
    Ok(Choice { master, campaigns, chosen, entrants, picks })
}

/// A restart's start in words: its strategy, or `random` over a strategy.
pub fn start_words(p: &Problem<'_>) -> String {
    match &p.settings.start_at {
        None => p.settings.start.clone(),
        Some(_) => format!("a random point (other keys of {})", p.settings.start),
    }
}

/// The scenarios each restart plays: `sc` itself (starts are named
/// strategies of it, or its run's start at a random point).
pub fn problems<'a>(sc: &'a Scenario, runs: &[Settings]) -> Result<Vec<Problem<'a>>, Error> {
    runs.iter().map(|s| Problem::new(sc, s.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strength::tune::{Field, Objective};

    fn base() -> Settings {
        Settings {
            start: "balanced".into(),
            field: Field::Fixed(vec!["tuned".into()]),
            keys: vec!["capture".into(), "attack".into(), "mine".into()],
            per_eval: 100,
            generations: 10,
            population: 8,
            sigma: 0.2,
            seed: 5,
            vary: Vec::new(),
            variants: 0,
            gift_gold: 0,
            given: None,
            objective: Objective::Share,
            start_at: None,
        }
    }

    fn plan(regime: Regime, restarts: u32) -> Plan {
        Plan {
            starts: vec![Start::Named("warlord".into()), Start::Random, Start::Named("pillager".into())],
            restarts,
            regime,
            length: Length::Campaigns(10_000),
        }
    }

    #[test]
    fn ipop_doubles_the_population_each_pass_over_the_starts_and_keeps_the_budget() {
        let runs = schedule(&base(), &plan(Regime::Ipop, 7)).unwrap();
        let pops: Vec<usize> = runs.iter().map(|s| s.population).collect();
        assert_eq!(pops, [8, 8, 8, 16, 16, 16, 32]);
        let starts: Vec<&str> = runs.iter().map(|s| s.start.as_str()).collect();
        assert_eq!(starts, ["warlord", "balanced", "pillager", "warlord", "balanced", "pillager", "warlord"]);
        // (10,000 − 100) / ((λ + 1) × 100) generations.
        let gens: Vec<u32> = runs.iter().map(|s| s.generations).collect();
        assert_eq!(gens, [11, 11, 11, 5, 5, 5, 3]);
        assert!(runs.iter().all(|s| campaigns_of(s) <= 10_000));
        // Restart 0 plays the run's own seed; every other its own.
        assert_eq!(runs[0].seed, 5);
        let mut seeds: Vec<u64> = runs.iter().map(|s| s.seed).collect();
        seeds.sort();
        seeds.dedup();
        assert_eq!(seeds.len(), 7);
        // Random starts are points of the unit box, each its own, the same every time.
        let (a, b) = (runs[1].start_at.clone().unwrap(), runs[4].start_at.clone().unwrap());
        assert_eq!(a.len(), 3);
        assert!(a.iter().chain(&b).all(|x| (0.0..=1.0).contains(x)));
        assert_ne!(a, b);
        assert_eq!(schedule(&base(), &plan(Regime::Ipop, 7)).unwrap(), runs);
        assert!(runs[0].start_at.is_none() && runs[2].start_at.is_none());
    }

    #[test]
    fn bipop_alternates_growing_passes_with_small_local_ones() {
        let runs = schedule(&base(), &plan(Regime::Bipop, 12)).unwrap();
        for (r, s) in runs.iter().enumerate() {
            let pass = r / 3;
            if pass % 2 == 0 {
                assert_eq!(s.population, 8 << (pass / 2), "restart {r}");
                assert_eq!(s.sigma, 0.2);
            } else {
                // λ₀ (λ_large / 2λ₀)^(U²) with U in [0, 1): at most the large one's half, at least 2.
                let large = 8 << (pass / 2);
                assert!(s.population >= 2 && s.population <= (large / 2).max(8), "restart {r}: {}", s.population);
                assert!(s.sigma <= 0.2 && s.sigma > 0.2e-2, "restart {r}: {}", s.sigma);
            }
        }
        assert_ne!(runs[3].sigma, runs[4].sigma, "each small restart draws its own U");
    }

    #[test]
    fn a_plan_without_starts_or_restarts_is_refused() {
        let mut p = plan(Regime::Ipop, 1);
        p.starts.clear();
        assert!(schedule(&base(), &p).unwrap_err().message().contains("one start"));
        assert!(schedule(&base(), &plan(Regime::Ipop, 0)).unwrap_err().message().contains("one restart"));
    }
}
