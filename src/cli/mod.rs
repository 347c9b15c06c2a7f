//! The command line: flags are parsed and checked here, in one place; each
//! subcommand is a small function over the library.

/// `print!` to standard output, but a closed pipe (`empires ... | head`)
/// ends the output quietly instead of panicking.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}

/// `println!` with `say!`'s handling of a closed pipe.
macro_rules! sayln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

pub mod args;
mod balance;
mod cells;
mod check;
#[cfg(test)]
mod contract;
pub mod exit;
mod interrupt;
mod key;
mod long;
mod merge;
mod out;
mod play;
mod probe;
mod progress;
mod psro;
mod report;
mod run;
mod run_dir;
mod shard;
mod strength;
mod study;
mod styles;
pub mod synopsis;
mod tables;
mod validate;
mod value;

use crate::scenario::{self, Scenario, Source};
use crate::sim::runner::SeatFlag;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::Path;

#[derive(Parser, Debug)]
#[command(name = "empires", version = crate::build_info::LONG_VERSION, about = "Monte Carlo balance simulator for a hex-map campaign wargame")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one campaign and print its season-by-season log.
    Play(play::PlayArgs),
    /// Play many seeded campaigns in parallel into a polars dataset.
    Run(run::RunArgs),
    /// The balance gate: measure a balance file's metrics, judge them, exit 1 on drift.
    Check(check::CheckArgs),
    /// Two variants on the same seeds: paired differences with 95% intervals.
    Compare(study::CompareArgs),
    /// A grid of variants over one or two keys, on the same seeds.
    Sweep(study::SweepArgs),
    /// Designer experiments.
    #[command(subcommand)]
    Experiment(study::Experiment),
    /// Merge shard outputs of `run --shard` into one run directory.
    Merge(merge::MergeArgs),
    /// An HTML page with charts for a run directory.
    Report(report::ReportArgs),
    /// Exact combat tables by enumerating the dice, with fairness findings.
    Tables(tables::TablesArgs),
    /// Check a scenario file and print "ok" or every problem found.
    Validate(validate::ValidateArgs),
    /// Tune a weighted strategy's keys with CMA-ES against a field (or itself).
    Tune(strength::TuneArgs),
    /// A map of the viable styles: the strongest player found for each kind of play (MAP-Elites, CMA-ME).
    Styles(styles::StylesArgs),
    /// An equilibrium over a population of players (PSRO): its mixture, and how far a best response exploits it.
    Psro(psro::PsroArgs),
    /// Is a strategy near a local optimum? Every one-key deviant plays against it.
    Deviate(strength::DeviateArgs),
    /// Can a strategy use what it is given? Gifts must not cost it, restrictions must not help it.
    Probe(probe::ProbeArgs),
    /// Learn the value a search's cut-short rollouts are judged by, from self-play outcomes.
    Value(value::ValueArgs),
    /// Round robin of strategies: Bradley–Terry (Elo-scale) ratings with bootstrap intervals.
    Ladder(strength::LadderArgs),
    /// The game between strategies: Nash equilibria, α-rank, strategies never a best response.
    Metagame(strength::MetagameArgs),
    /// Which scenario numbers move a metric: Morris screening of every key, Sobol' indices for a few.
    Sensitivity(balance::SensitivityArgs),
    /// The value of a key at which a target holds, with its interval and a held-out confirmation.
    Solve(balance::SolveArgs),
}

/// How strategies take the seats, for `run`, `compare`, `sweep` and
/// `experiment`. The decision itself is `sim::runner::seating`.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct SeatArgs {
    /// Force seat rotation: seat S of campaign I plays the strategy of
    /// player (S + I) mod N. Rotation is already the default when the
    /// players' strategies differ; this forces it even when they do not.
    #[arg(long, conflicts_with = "fixed_seats")]
    pub rotate_seats: bool,
    /// Keep every strategy in its own seat. Without it the seats are
    /// rotated whenever the players' strategies differ.
    #[arg(long)]
    pub fixed_seats: bool,
}

impl SeatArgs {
    pub fn flag(&self) -> SeatFlag {
        SeatFlag::from_flags(self.rotate_seats, self.fixed_seats)
    }

    /// What these flags put in a key.
    pub fn shape(&self) -> key::Shape {
        key::Shape::new("SeatArgs").field("rotate_seats", &self.rotate_seats).field("fixed_seats", &self.fixed_seats)
    }
}

/// An error for the user, with the exit code to return (`exit`).
#[derive(Debug)]
pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    /// Bad input (scenario, flags, input files).
    pub fn input(message: impl Into<String>) -> Self {
        CliError { code: exit::BAD_INPUT, message: message.into() }
    }

    /// A verdict: the gate or a cross-check found what it was asked to
    /// look for.
    pub fn verdict(message: impl Into<String>) -> Self {
        CliError { code: exit::VERDICT, message: message.into() }
    }

    /// An output that could not be written, or a failure of the program
    /// itself.
    pub fn io(message: impl Into<String>) -> Self {
        CliError { code: exit::IO_OR_INTERNAL, message: message.into() }
    }

    /// Stopped by Ctrl-C; what finished is kept.
    pub fn interrupted(message: impl Into<String>) -> Self {
        CliError { code: exit::INTERRUPTED, message: message.into() }
    }
}

impl From<crate::error::Error> for CliError {
    /// The exit code follows the class the library gave its error, at the
    /// place that failed (or stopped: an interruption is a class too); the
    /// inputs it names are worded as flags.
    fn from(e: crate::error::Error) -> Self {
        use crate::error::Class;
        let code = match e.class() {
            Class::Input => exit::BAD_INPUT,
            Class::Io | Class::Internal => exit::IO_OR_INTERNAL,
            Class::Interrupted => exit::INTERRUPTED,
        };
        CliError { code, message: e.render(input_flag) }
    }
}

/// The flag that gives each input the library names in its errors: the one
/// place the library's inputs meet the command line's spelling
/// (`contract::no_flag_name_is_written_in_the_library` holds the library to
/// it).
pub fn input_flag(input: crate::error::Input) -> &'static str {
    use crate::error::Input;
    match input {
        Input::Players => "--players",
        Input::Keys => "--keys",
        Input::BestResponse => "--best-response",
        Input::BestResponsePlayer => "--best-response-player",
        Input::Resume => "--resume",
        Input::Range => "--range",
        Input::Values => "--values",
        Input::Metric => "--metric",
        Input::Target => "--target",
        Input::Forbid => "--forbid",
        Input::Force => "--force",
        Input::Levels => "--levels",
    }
}

impl From<crate::rules::setup::SetupError> for CliError {
    fn from(e: crate::rules::setup::SetupError) -> Self {
        crate::error::Error::from(e).into()
    }
}

/// Create an output directory (and its parents).
pub fn create_out_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::io(format!("{}: cannot create the output directory: {e}", dir.display())))
}

impl From<scenario::ScenarioError> for CliError {
    fn from(e: scenario::ScenarioError) -> Self {
        CliError::input(e.to_string())
    }
}

/// Read and check a scenario file, or the embedded default, with `--set`
/// overrides applied.
pub fn load_scenario(path: Option<&Path>, sets: &[String]) -> Result<Scenario, CliError> {
    load_scenario_varied(path, sets, ("--vary", &[]))
}

/// [`load_scenario`] with a variant's `KEY=VALUE` values applied after the
/// `--set` overrides; a problem is reported against the flag that gave the
/// value (`compare --vary`, `sweep --values`).
pub fn load_scenario_varied(
    path: Option<&Path>,
    sets: &[String],
    (flag, vary): (&'static str, &[String]),
) -> Result<Scenario, CliError> {
    let overrides: Vec<scenario::Flagged> = sets
        .iter()
        .map(|s| scenario::parse_flagged("--set", s))
        .chain(vary.iter().map(|s| scenario::parse_flagged(flag, s)))
        .collect::<Result<_, _>>()?;
    let mut sc = match path {
        None => scenario::load_flagged(scenario::DEFAULT_TOML, &Source::embedded("default.toml"), &overrides)?,
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| CliError::input(format!("{}: cannot read the scenario: {e}", p.display())))?;
            scenario::load_flagged(&text, &Source::file(p.display().to_string()), &overrides)?
        }
    };
    // Every header and dataset that names the scenario names the variant
    // played: `default` under `--set` is another game than `default`.
    if !sets.is_empty() {
        sc.name = format!("{} with {}", sc.name, sets.join(", "));
    }
    Ok(sc)
}

/// Parse the arguments, run, and return the process exit code (`exit`).
/// A panic, which is a bug, prints its message and exits with
/// `exit::IO_OR_INTERNAL` rather than Rust's 101.
pub fn main() -> i32 {
    std::panic::catch_unwind(dispatch).unwrap_or(exit::IO_OR_INTERNAL)
}

fn dispatch() -> i32 {
    let cli = match Cli::command().after_help(exit::help()).try_get_matches().and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let r = match cli.command {
        Command::Play(a) => play::run(a),
        Command::Run(a) => run::run_cmd(a),
        Command::Merge(a) => merge::merge_cmd(a),
        Command::Check(a) => check::run(a),
        Command::Compare(a) => study::compare_cmd(a),
        Command::Sweep(a) => study::sweep_cmd(a),
        Command::Experiment(e) => study::experiment_cmd(e),
        Command::Report(a) => report::run(a),
        Command::Tables(a) => tables::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Tune(a) => strength::tune_cmd(a),
        Command::Styles(a) => styles::styles_cmd(a),
        Command::Psro(a) => psro::psro_cmd(a),
        Command::Deviate(a) => strength::deviate_cmd(a),
        Command::Probe(a) => probe::run(a),
        Command::Value(a) => value::run(a),
        Command::Ladder(a) => strength::ladder_cmd(a),
        Command::Metagame(a) => strength::metagame_cmd(a),
        Command::Sensitivity(a) => balance::sensitivity_cmd(&a),
        Command::Solve(a) => balance::solve_cmd(&a),
    };
    let code = match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{}", e.message);
            e.code
        }
    };
    long::finished(code);
    code
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    /// Each class has its exit code, and the message is the library's.
    #[test]
    fn a_library_error_keeps_its_class_as_the_exit_code() {
        let code = |e: Error| CliError::from(e).code;
        assert_eq!(code(Error::input("x")), exit::BAD_INPUT);
        assert_eq!(code(Error::io("x")), exit::IO_OR_INTERNAL);
        assert_eq!(code(Error::internal("x")), exit::IO_OR_INTERNAL);
        assert_eq!(code(Error::interrupted()), exit::INTERRUPTED);
        assert_eq!(CliError::from(crate::rules::setup::SetupError::Interrupted).code, exit::INTERRUPTED);
        assert_eq!(CliError::from(Error::io("disk full").at("out/page")).message, "out/page: disk full");
    }
}
