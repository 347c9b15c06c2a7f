//! `empires run`: many campaigns in parallel into a polars dataset.

use super::args::{PlayersArg, RunCampaigns, ScenarioArgs, SeedArg, ThreadsArg};
use super::key::{ResultKey, Shape, blank};
use super::long::LongArgs;
use super::out::{Out, RunFolder};
use super::shard::ShardArgs;
use super::{CliError, SeatArgs, run_dir};
use crate::report::merge::{Shard, concat_table};
use crate::report::{dataset::RunWriters, manifest};
use crate::sim::Detail;
use crate::sim::record::{Coverage, PlayerRecord};
use crate::sim::runner::{Flow, RunConfig, run, seating, shard_range};
use crate::stats::wilson;
use clap::Args;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub campaigns: RunCampaigns,
    #[command(flatten)]
    pub master: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<RunFolder>,
    #[command(flatten)]
    pub seats: SeatArgs,
    #[command(flatten)]
    pub shards: ShardArgs,
    /// Run batches until every strategy's win-rate 95% interval half-width
    /// is at most P (e.g. 0.01), instead of a fixed --campaigns.
    #[arg(long, value_name = "P", conflicts_with = "campaigns")]
    pub precision: Option<f64>,
    /// With --precision: stop after this many campaigns even if P is not reached.
    #[arg(long, value_name = "M")]
    pub max_campaigns: Option<u64>,
    /// Check the engine's invariants after every season of every campaign;
    /// stop at the first violation with its campaign index and seed.
    #[arg(long)]
    pub check_invariants: bool,
    /// Extra datasets: seasons (seasons.parquet), combats (combats.parquet).
    #[arg(long, value_delimiter = ',', value_name = "seasons,combats")]
    pub detail: Vec<DetailKind>,
    /// Also write players.csv.
    #[arg(long)]
    pub csv: bool,
    /// `--resume` keeps the campaigns an interrupted run wrote and plays
    /// only the rest; on a run its manifest and file hashes prove complete,
    /// it plays nothing.
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for RunArgs {
    fn key(&self) -> String {
        let shape = Shape::new("RunArgs")
            .group("scenario", self.scenario.shape())
            .group("players", self.players.shape())
            .field("campaigns", &self.campaigns.n)
            .group("master", self.master.shape())
            .neutral_threads_out()
            .group("seats", self.seats.shape())
            .neutral("shards", blank::SHARDS)
            .neutral("resume", blank::FALSE)
            .field("precision", &self.precision)
            .field("max_campaigns", &self.max_campaigns)
            .field("check_invariants", &self.check_invariants)
            .field("detail", &self.detail)
            .field("csv", &self.csv)
            .neutral("quiet", blank::FALSE);
        format!("run {shape}")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DetailKind {
    Seasons,
    Combats,
}

/// Campaigns per batch when running to a precision: the stopping rule is
/// checked after each, so the count needed is a multiple of it.
pub const PRECISION_BATCH: u64 = 500;
/// `--max-campaigns` when not given.
pub const DEFAULT_MAX_CAMPAIGNS: u64 = 1_000_000;

/// The flags that decide which campaigns run, checked together.
struct Plan {
    range: std::ops::Range<u64>,
    chunk: u64,
    precision: Option<f64>,
}

fn plan(a: &RunArgs, shard: Option<(u64, u64)>) -> Result<Plan, CliError> {
    match a.precision {
        Some(p) => {
            if !(p > 0.0 && p <= 0.5) {
                return Err(CliError::input(format!(
                    "--precision {p}: give a half-width between 0 and 0.5, e.g. 0.01"
                )));
            }
            if shard.is_some() {
                return Err(CliError::input(
                    "--precision needs every campaign's result to decide when to stop: it cannot run as a --shard",
                ));
            }
            let max = a.max_campaigns.unwrap_or(DEFAULT_MAX_CAMPAIGNS);
            if max == 0 {
                return Err(CliError::input("--max-campaigns must be at least 1"));
            }
            Ok(Plan { range: 0..max, chunk: PRECISION_BATCH, precision: Some(p) })
        }
        None => {
            if a.max_campaigns.is_some() {
                return Err(CliError::input(
                    "--max-campaigns caps a --precision run; without --precision use --campaigns",
                ));
            }
            let range = match shard {
                Some((i, k)) => shard_range(a.campaigns.n, i, k),
                None => 0..a.campaigns.n,
            };
            Ok(Plan { range, chunk: 2048, precision: None })
        }
    }
}

/// The run's folder, claimed for its request (`out`): the key leaves out
/// the shard, so every shard of one run lands under one folder, each
/// shard's own folder claimed for the shard.
fn out_dir(a: &RunArgs, sc: &crate::scenario::Scenario, shard: Option<(u64, u64)>) -> Result<PathBuf, CliError> {
    let name = format!("{}-s{}", a.scenario.file_name(), a.master.seed);
    a.out.resolve_shard("runs", &name, &a.key(), &[sc], shard)
}

/// Wins and player-campaigns per strategy, for the precision rule.
#[derive(Default)]
struct WinCount(BTreeMap<String, (u64, u64)>);

impl WinCount {
    fn add(&mut self, rows: &[PlayerRecord]) {
        for r in rows {
            let e = self.0.entry(r.strategy.clone()).or_default();
            e.0 += r.winner as u64;
            e.1 += 1;
        }
    }

    /// The widest Wilson 95% half-width over the strategies.
    fn widest(&self) -> f64 {
        self.0
            .values()
            .map(|&(w, n)| {
                let (lo, hi) = wilson(w as f64, n as f64, 0.95);
                (hi - lo) / 2.0
            })
            .fold(0.0, f64::max)
    }
}

pub fn run_cmd(a: RunArgs) -> Result<(), CliError> {
    let sc = a.players.seat(a.scenario.load()?)?;
    let seed = a.master.seed;
    let shard = a.shards.resolve()?;
    let plan = plan(&a, shard)?;
    let seated = seating(&[&sc], a.seats.flag());
    let detail = Detail {
        seasons: a.detail.contains(&DetailKind::Seasons),
        combats: a.detail.contains(&DetailKind::Combats),
        check_invariants: a.check_invariants,
    };
    let out = out_dir(&a, &sc, shard)?;
    // `--resume` on a run stopped by Ctrl-C keeps the campaigns it wrote
    // and plays only the rest (into a folder of its own, joined after).
    let mut prefix: Option<manifest::Manifest> = None;
    if a.long.resume && plan.precision.is_none() {
        let expect = run_dir::data_files(detail, a.csv);
        if run_dir::already_complete(&out, &sc, seed, &plan.range, seated.rotate(), &expect) {
            sayln!("{}: already complete (manifest and file hashes match); skipped", out.display());
            return Ok(());
        }
        prefix = run_dir::interrupted_prefix(&out, &sc, seed, &plan.range, seated.rotate(), &expect);
    }
    let start = prefix.as_ref().map_or(plan.range.start, |m| m.campaign_end);
    let rest_dir = out.join(".resume-rest");
    let write_dir = if prefix.is_some() {
        let _ = std::fs::remove_dir_all(&rest_dir);
        super::create_out_dir(&rest_dir)?;
        sayln!(
            "{}: resuming after the {} campaigns already written; playing campaigns {}..{}",
            out.display(),
            start - plan.range.start,
            start,
            plan.range.end
        );
        rest_dir.clone()
    } else {
        out.clone()
    };
    // SIGINT stops the run after the chunk in flight (the handler can only
    // be set once per process, hence the ignored error on a second run).
    super::interrupt::listen();
    let cfg = RunConfig {
        master: seed,
        range: start..plan.range.end,
        rotate_seats: seated.rotate(),
        chunk: plan.chunk,
        detail,
    };
    let bar = super::progress::campaigns(plan.range.end - start, a.long.quiet);
    // The bar moves per campaign through the watch; `run` keeps its work
    // as written chunks (its own --resume), so it keeps no cells.
    let pool = super::long::counted_pool(a.threads, &bar)?;
    let write_err =
        |e: polars::error::PolarsError| CliError::io(format!("{}: cannot write the dataset: {e}", out.display()));
    let mut writers = RunWriters::create(&write_dir, a.csv, detail).map_err(write_err)?;
    let mut coverage = Coverage::default();
    let mut wins = WinCount::default();
    let mut violation: Option<crate::sim::runner::Violation> = None;
    // Whether the sink stopped for Ctrl-C: what makes this run interrupted.
    let mut stopped = false;
    let t0 = Instant::now();
    let result: Result<u64, RunError> = pool.install(|| {
        run(
            &sc,
            &cfg,
            |chunk| {
                writers.write(&chunk).map_err(RunError::Write)?;
                if let Some(v) = &chunk.violation {
                    violation = Some(v.clone());
                    return Ok(Flow::Stop);
                }
                coverage.merge(&chunk.coverage);
                wins.add(&chunk.players);
                // SIGINT: the chunk in flight is finished and written, then
                // the run stops with what it completed.
                if super::interrupt::requested() {
                    stopped = true;
                    return Ok(Flow::Stop);
                }
                Ok(match plan.precision {
                    Some(p) if wins.widest() <= p => Flow::Stop,
                    _ => Flow::Continue,
                })
            },
            |_| (),
        )
    });
    bar.finish_and_clear();
    let done = match result {
        Ok(n) => n,
        Err(RunError::Setup(e)) => return Err(e.into()),
        Err(RunError::Write(e)) => return Err(write_err(e)),
    };
    let files = writers.finish(a.csv).map_err(write_err)?;
    if let Some(m) = &prefix {
        // The campaigns written before, then the rest, in campaign order.
        let shards =
            [Shard { dir: out.clone(), manifest: m.clone() }, Shard { dir: rest_dir.clone(), manifest: m.clone() }];
        for t in shards[0].tables() {
            concat_table(&shards, &t, &out, a.csv).map_err(write_err)?;
        }
        coverage.merge(&m.coverage);
        let _ = std::fs::remove_dir_all(&rest_dir);
    }
    if let Some(v) = violation {
        // A broken invariant is the engine's failure, not the designer's.
        return Err(CliError::io(format!(
            "invariant broken in campaign {} (campaign seed {}) after season {}: {}\nreplay it with: empires play{} --seed {} --campaign {}{}",
            v.campaign,
            v.campaign_seed,
            v.season,
            v.message,
            a.scenario.flags() + &a.players.flag(),
            seed,
            v.campaign,
            crate::report::seating::flag(seated)
        )));
    }
    let wall = t0.elapsed().as_secs_f64();
    let ran = plan.range.start..start + done;
    let done = ran.end - ran.start;
    let interrupted = stopped && ran.end < plan.range.end;
    let notes = notes(&plan, done, interrupted, &wins);
    let source = a.scenario.source();
    let info = manifest::RunInfo {
        scenario: &sc,
        scenario_source: &source,
        git_commit: crate::build_info::commit().map(String::from),
        git_dirty: crate::build_info::dirty(),
        master_seed: seed,
        campaigns: ran.clone(),
        total_campaigns: if plan.precision.is_some() { done } else { a.campaigns.n },
        shard,
        rotate_seats: seated.rotate(),
        threads: pool.current_num_threads(),
        overrides: a.scenario.set.to_vec(),
        wall_seconds: wall,
        resumed: start - plan.range.start,
        files,
        coverage: &coverage,
        precision: plan.precision,
        interrupted,
        dir: &out,
    };
    let text = run_dir::finish_run_dir(&out, &info, &notes)?;
    say!("{text}");
    sayln!("written to {}", out.display());
    if interrupted {
        return Err(CliError::interrupted(format!("{}: interrupted; the run is not complete", out.display())));
    }
    Ok(())
}

/// The lines the summary adds about how the run ended: interrupted, or
/// whether its `--precision` was reached.
fn notes(plan: &Plan, done: u64, interrupted: bool, wins: &WinCount) -> String {
    let mut notes = String::new();
    let total = plan.range.end - plan.range.start;
    if interrupted {
        let _ = writeln!(
            notes,
            "INTERRUPTED by SIGINT after {done} of {total} campaigns: the files and the summary below hold only the \
             campaigns completed; run the same command with --resume to play the other {}",
            total - done
        );
    }
    if let Some(p) = plan.precision {
        let widest = wins.widest();
        if widest <= p {
            let _ = writeln!(
                notes,
                "precision: every strategy's 95% half-width is at most {p} (widest {widest:.4}) after {done} campaigns"
            );
        } else {
            let _ = writeln!(
                notes,
                "precision {p} NOT reached within --max-campaigns {done}: the widest 95% half-width is {widest:.4}"
            );
        }
    }
    notes
}

enum RunError {
    Setup(crate::rules::setup::SetupError),
    Write(polars::error::PolarsError),
}

impl From<crate::rules::setup::SetupError> for RunError {
    fn from(e: crate::rules::setup::SetupError) -> Self {
        RunError::Setup(e)
    }
}
