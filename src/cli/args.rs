//! Argument groups that several commands share, each declared, documented
//! and checked once: the scenario with its overrides, `--players`, the
//! master seed, the worker threads, `--campaigns` and the best-response
//! budget. A command flattens the groups it takes; `--out` and
//! `--overwrite` are in `out.rs`, `--quiet` and `--resume` in `long.rs`,
//! the shard in `shard.rs`, the seats in `mod.rs`.
//!
//! Why once: a flag declared in each command drifted (`--campaigns` had
//! two lower bounds, `--players` four help texts), and each group also
//! says what it puts in an output folder's key (`shape`, see `key.rs`).

use super::key::Shape;
use super::{CliError, load_scenario};
use crate::scenario::Scenario;
use clap::Args;
use std::path::PathBuf;

/// `--set KEY=VALUE`, alone for `validate` (whose scenario is its FILE),
/// and in [`ScenarioArgs`] everywhere else.
#[derive(Args, Debug, Clone, Default)]
pub struct SetArgs {
    /// Override a scenario key by its dotted path, e.g. economy.mine.river=3D6x10
    /// or strategies.miner.forbid=["pillage"]. Repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl std::ops::Deref for SetArgs {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.set
    }
}

/// `--scenario FILE` and `--set KEY=VALUE`.
#[derive(Args, Debug, Clone, Default)]
pub struct ScenarioArgs {
    /// Scenario TOML file (default: the embedded default scenario).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    #[command(flatten)]
    pub set: SetArgs,
}

impl ScenarioArgs {
    /// What these flags put in a key.
    pub fn shape(&self) -> Shape {
        Shape::new("ScenarioArgs").field("scenario", &self.scenario).field("set", &self.set.set)
    }

    /// The scenario, read and checked, with the overrides applied.
    pub fn load(&self) -> Result<Scenario, CliError> {
        load_scenario(self.scenario.as_deref(), &self.set)
    }

    /// What names the scenario's results (their default folders): its
    /// file's stem, since a copied file keeps the `name` it was copied
    /// with; `default` for the embedded default.
    pub fn file_name(&self) -> String {
        file_name(self.scenario.as_deref())
    }

    /// Where the scenario came from, as a manifest records it.
    pub fn source(&self) -> String {
        self.scenario.as_ref().map_or("<embedded default.toml>".to_string(), |p| p.display().to_string())
    }

    /// The flags that give the same scenario to another command:
    /// ` --scenario FILE --set 'K=V'...`, or nothing for the plain default.
    pub fn flags(&self) -> String {
        let scenario = self.scenario.as_ref().map_or(String::new(), |p| format!(" --scenario {}", p.display()));
        let sets: String = self.set.iter().map(|s| format!(" --set '{s}'")).collect();
        scenario + &sets
    }
}

/// The stem of a scenario file, or `default` for the embedded default:
/// the name of its results' default folders.
pub fn file_name(p: Option<&std::path::Path>) -> String {
    p.and_then(|p| p.file_stem()).map_or("default".into(), |s| s.to_string_lossy().to_string())
}

/// `--players STRATEGY`, for a command that plays the scenario's seats as
/// they are unless told otherwise.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayersArg {
    /// Every seat plays this strategy (e.g. `tuned`), in every scenario the
    /// command plays.
    #[arg(long, value_name = "STRATEGY")]
    pub players: Option<String>,
}

impl PlayersArg {
    /// What this flag puts in a key.
    pub fn shape(&self) -> Shape {
        Shape::new("PlayersArg").field("players", &self.players)
    }

    /// The strategy a best response starts from: `--players`, or `tuned`.
    pub fn or_tuned(&self) -> String {
        self.players.clone().unwrap_or_else(|| "tuned".into())
    }

    /// ` --players STRATEGY`, or nothing: the flag that seats the same.
    pub fn flag(&self) -> String {
        self.players.as_ref().map_or(String::new(), |p| format!(" --players {p}"))
    }

    /// `sc` with `--players` applied.
    pub fn seat(&self, sc: Scenario) -> Result<Scenario, CliError> {
        match &self.players {
            Some(s) => sc.with_players(s).map_err(CliError::from),
            None => Ok(sc),
        }
    }
}

/// The master seed when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 1;

/// `--seed S`.
#[derive(Args, Debug, Clone, Copy)]
pub struct SeedArg {
    /// Master seed. Campaign I of master seed S is the same game on any
    /// machine, thread count or shard, so every variant, deviant or pair a
    /// command compares plays the same campaigns.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
}

impl SeedArg {
    /// What this flag puts in a key.
    pub fn shape(&self) -> Shape {
        Shape::new("SeedArg").field("seed", &self.seed)
    }
}

/// `--threads N`: it changes no result, so it is in no key.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<usize>,
}

/// A whole-number count of at least `MIN` (campaigns, generations...), with
/// a message that names the expected form; `allow_negative_numbers` on the
/// flag lets `-5` reach it rather than read as an unknown flag.
pub fn count<const MIN: u64>(s: &str) -> Result<u64, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if n >= MIN as i128 && n <= u64::MAX as i128 => Ok(n as u64),
        Ok(n) => Err(format!("{n}: give a whole number, at least {MIN}")),
        Err(_) => Err(format!("{s:?}: give a whole number, at least {MIN}")),
    }
}

/// `--range KEY=LO..HI`, the one grammar of a scenario number and the
/// interval it varies over (`solve`, `tune`): the key and the numbers are
/// checked against the scenario later, by `scenario::param`.
pub fn key_range(s: &str) -> Result<String, String> {
    let shaped = s.split_once('=').is_some_and(|(key, range)| {
        !key.trim().is_empty()
            && range
                .split_once("..")
                .is_some_and(|(lo, hi)| lo.trim().parse::<f64>().is_ok() && hi.trim().parse::<f64>().is_ok())
    });
    if shaped { Ok(s.to_string()) } else { Err(format!("{s}: give a key and the interval it varies over, KEY=LO..HI")) }
}

/// `--campaigns N`, declared once: `campaigns!` writes one flatten
/// struct per meaning of the count, each with the same long name, parser
/// and handling of a negative number, and its own default, least value and
/// help (what the count is of differs by command, so each command says it
/// in its `--help`). Every meaning is listed below.
///
/// Named structs rather than one generic: clap's `default_value_t` keeps
/// its text in a `static`, which cannot depend on a type parameter.
macro_rules! campaigns {
    ($($(#[$doc:meta])* $name:ident = $default:expr, at least $min:literal, $help:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Args, Debug, Clone, Copy)]
        pub struct $name {
            #[doc = $help]
            #[arg(
                id = "campaigns",
                long = "campaigns",
                value_name = "CAMPAIGNS",
                default_value_t = $default,
                allow_negative_numbers = true,
                value_parser = count::<$min>
            )]
            pub n: u64,
        }

        impl $name {
            /// The count when `--campaigns` is not given.
            pub const DEFAULT: u64 = $default;
        }
    )*};
}

campaigns! {
    /// `run`: the whole run, before sharding.
    RunCampaigns = 10_000, at least 1, "Number of campaigns (before sharding), at least 1.";
    /// `compare`, `sweep` and `experiment`: each variant (each cell, each
    /// restriction level).
    StudyCampaigns = 2000, at least 1, "Campaigns per variant.";
    /// `deviate`: each deviant.
    DeviantCampaigns = 2000, at least 1, "Campaigns per deviant (a multiple of the seat count is fairest).";
    /// `ladder`: each pair of strategies.
    PairCampaigns = 1000, at least 1, "Campaigns per pair.";
    /// `metagame`: each composition of strategies over the seats.
    CompositionCampaigns = 500, at least 1, "Campaigns per composition.";
    /// `probe`: each probe and the baseline; a probe's interval needs 2.
    ProbeCampaigns = 4000, at least 2, "Campaigns per probe, and for the baseline (a multiple of the seat count is fairest).";
    /// `value`: the self-play the fit learns from.
    SelfPlayCampaigns = 4000, at least 1, "Self-play campaigns the fit learns from.";
    /// `sensitivity`: each design point.
    PointCampaigns = 200, at least 1, "Campaigns per design point.";
    /// `solve`: each evaluation.
    EvaluationCampaigns = 2000, at least 1, "Campaigns per evaluation (and of the held-out confirmation).";
}

fn at_least_one(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{s:?}: give a whole number of threads, at least 1")),
    }
}

impl ThreadsArg {
    /// The worker pool: the requested threads, or one per core, each
    /// under `watch` (the command's progress, stop and kept work).
    pub fn pool(&self, watch: &crate::sim::watch::Watch) -> Result<rayon::ThreadPool, CliError> {
        // 0 lets rayon use every core.
        let n = self.threads.unwrap_or(0);
        watch.pool(n).map_err(|e| CliError::io(format!("cannot start {n} worker threads: {e}")))
    }
}

/// `--best-response` and its budget, on every command that answers under
/// strong play (`compare`, `sweep`, `solve`, `experiment`): the players
/// (`--players`, default `tuned`) re-tuned under the rules being asked
/// about. What is re-tuned, and against whom, is each command's to say in
/// its help.
#[derive(Args, Debug, Clone, Copy)]
pub struct BestResponseArgs {
    /// Answer under best response: re-tune the players (--players, default
    /// tuned) under the rules being asked about, warm-started from them,
    /// with the budget below (see the command's help for what is re-tuned).
    #[arg(long)]
    pub best_response: bool,
    /// Tuning generations of each best response.
    #[arg(long, default_value_t = 20, requires = "best_response")]
    pub generations: u32,
    /// Campaigns per candidate of each best response.
    #[arg(long, default_value_t = 400, requires = "best_response", allow_negative_numbers = true, value_parser = count::<1>)]
    pub campaigns_per_eval: u64,
    /// Campaigns per probe of the competence check each re-tuned player
    /// gets under its rules (`empires probe`; 0 skips it, and the answer
    /// then says it was not checked).
    #[arg(long, default_value_t = 1000, requires = "best_response", allow_negative_numbers = true, value_parser = count::<0>)]
    pub probe_campaigns: u64,
    /// The player seated under each variant's rules: `weighted`, the
    /// re-tuned weights themselves, or `search`, the scenario's `search`
    /// (its budget keys `strategies.search.*`) with the re-tuned weights as
    /// its prior and rollout player: the strongest player, at about 100 ms
    /// of one core a campaign per seat (compare, sweep and solve).
    #[arg(long, value_enum, default_value_t = PlayerFamily::Weighted, requires = "best_response")]
    pub best_response_player: PlayerFamily,
}

/// `--best-response-player`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerFamily {
    Weighted,
    Search,
}

impl BestResponseArgs {
    /// What these flags put in a key.
    pub fn shape(&self) -> Shape {
        Shape::new("BestResponseArgs")
            .field("best_response", &self.best_response)
            .field("generations", &self.generations)
            .field("campaigns_per_eval", &self.campaigns_per_eval)
            .field("probe_campaigns", &self.probe_campaigns)
            .field("best_response_player", &self.best_response_player)
    }

    /// The tuning budget, when `--best-response` asks for one: every search
    /// starts from a tuned player, so it steps 0.1 of each key's range
    /// around it.
    pub fn budget(self) -> Option<crate::strength::best_response::Budget> {
        self.best_response.then(|| crate::strength::best_response::Budget {
            generations: self.generations,
            per_eval: self.campaigns_per_eval,
            population: None,
            sigma: 0.1,
            probe_campaigns: self.probe_campaigns,
            family: match self.best_response_player {
                PlayerFamily::Weighted => crate::strength::best_response::Family::Weighted,
                PlayerFamily::Search => crate::strength::best_response::Family::Search,
            },
        })
    }

    /// The budget of a command whose best response values a restriction
    /// between weighted players (`experiment restrict`, `experiment
    /// mine-vs-pillage`): a search seated there is refused, not ignored.
    pub fn weighted_budget(self, command: &str) -> Result<Option<crate::strength::best_response::Budget>, CliError> {
        if self.best_response_player == PlayerFamily::Search {
            return Err(CliError::input(format!(
                "--best-response-player search: {command} values each restriction between weighted players tuned \
                 with and without it; a search on top of them is seated by compare, sweep and solve"
            )));
        }
        Ok(self.budget())
    }

    /// The flags that redo this choice, for a page's command line.
    pub fn redo(self) -> String {
        if self.best_response {
            let player = match self.best_response_player {
                PlayerFamily::Weighted => "",
                PlayerFamily::Search => " --best-response-player search",
            };
            format!(
                " --best-response --generations {} --campaigns-per-eval {} --probe-campaigns {}{player}",
                self.generations, self.campaigns_per_eval, self.probe_campaigns
            )
        } else {
            String::new()
        }
    }
}

/// A comma-separated list of names (`A,B,...`), blanks dropped.
pub fn list(s: &str) -> Vec<String> {
    s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()
}

/// `--objective`, as `tune`, `styles` and `psro` take it.
pub fn parse_objective(s: &str) -> Result<crate::strength::tune::Objective, String> {
    crate::strength::tune::Objective::parse(s).map_err(|e| e.message().to_string())
}

/// `--regime`, as `tune` and `psro` take it.
pub fn parse_regime(s: &str) -> Result<crate::strength::climb::Regime, String> {
    crate::strength::climb::Regime::parse(s).map_err(|e| e.message().to_string())
}
