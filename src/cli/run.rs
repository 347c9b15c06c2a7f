//! `empires run`: many campaigns in parallel into a polars dataset.

use super::{CliError, SeatArgs, load_scenario};
use crate::report::{coverage, dataset::RunWriters, files::write_atomic, manifest, summary};
use crate::sim::Detail;
use crate::sim::record::{Coverage, PlayerRecord};
use crate::sim::runner::{Flow, RunConfig, Seating, run, seating, shard_range};
use crate::stats::wilson;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Scenario TOML file (default: the embedded default scenario).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// Number of campaigns (before sharding).
    #[arg(long, default_value_t = 10_000)]
    pub campaigns: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (default: reports/runs/<scenario>-s<seed>/, plus
    /// shard-I-of-K/ for a shard).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Run only shard I of K (0-based), e.g. 2/8. Without it, a Slurm job
    /// array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) or a Kubernetes
    /// Indexed Job (JOB_COMPLETION_INDEX with --shards K) picks the shard.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// The number of shards of a Kubernetes Indexed Job (JOB_COMPLETION_INDEX
    /// gives this task's index).
    #[arg(long, value_name = "K")]
    pub shards: Option<u64>,
    /// Skip the run when the output directory already holds it complete
    /// (same scenario, seed, campaigns and files, checked by hash); redo it
    /// otherwise.
    #[arg(long)]
    pub resume: bool,
    /// Run batches until every strategy's win-rate 95% interval half-width
    /// is at most P (e.g. 0.01), instead of a fixed --campaigns.
    #[arg(long, value_name = "P")]
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
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Override a scenario key by its dotted path, e.g. economy.mine.river=3D6x10
    /// or strategies.miner.forbid=["pillage"]. Repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
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

pub(crate) fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, k) = s.split_once('/').ok_or_else(|| format!("expected I/K such as 0/4, got {s:?}"))?;
    let i: u64 = i.trim().parse().map_err(|_| format!("shard index {i:?} is not a whole number"))?;
    let k: u64 = k.trim().parse().map_err(|_| format!("shard count {k:?} is not a whole number"))?;
    if k == 0 || i >= k {
        return Err(format!("shard {i}/{k}: need 0 <= I < K"));
    }
    Ok((i, k))
}

/// The flags that decide which campaigns run, checked together.
struct Plan {
    range: std::ops::Range<u64>,
    chunk: u64,
    precision: Option<f64>,
}

/// The shard to run: `--shard`, else a Slurm array task, else a Kubernetes
/// Indexed Job's completion index with `--shards K`. `env` reads the
/// environment (a parameter so tests can give one).
pub fn resolve_shard(a: &RunArgs, env: impl Fn(&str) -> Option<String>) -> Result<Option<(u64, u64)>, CliError> {
    shard_of(a.shard, a.shards, env)
}

/// `resolve_shard` for any command with `--shard I/K` and `--shards K`.
pub(crate) fn shard_of(
    shard: Option<(u64, u64)>,
    shards: Option<u64>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<(u64, u64)>, CliError> {
    if let Some(s) = shard {
        if shards.is_some() {
            return Err(CliError::input("give --shard I/K or --shards K, not both"));
        }
        return Ok(Some(s));
    }
    let num = |k: &str| -> Result<Option<u64>, CliError> {
        match env(k) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse::<u64>()
                .map(Some)
                .map_err(|_| CliError::input(format!("{k}={v:?} is not a whole number"))),
        }
    };
    if let Some(k) = shards {
        let i = num("JOB_COMPLETION_INDEX")?.ok_or_else(|| {
            CliError::input("--shards K takes the shard index from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), which is not set; use --shard I/K")
        })?;
        if k == 0 || i >= k {
            return Err(CliError::input(format!("JOB_COMPLETION_INDEX={i} with --shards {k}: need 0 <= index < K")));
        }
        return Ok(Some((i, k)));
    }
    if let (Some(id), Some(count)) = (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?) {
        // Array ids need not start at 0 (`--array=1-4`).
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let i = id
            .checked_sub(min)
            .ok_or_else(|| CliError::input(format!("SLURM_ARRAY_TASK_ID={id} is below SLURM_ARRAY_TASK_MIN={min}")))?;
        if count == 0 || i >= count {
            return Err(CliError::input(format!(
                "Slurm array task {id} (from {min}) of {count}: the array's ids must be consecutive"
            )));
        }
        return Ok(Some((i, count)));
    }
    Ok(None)
}

fn plan(a: &RunArgs, shard: Option<(u64, u64)>) -> Result<Plan, CliError> {
    if a.threads == Some(0) {
        return Err(CliError::input("--threads must be at least 1"));
    }
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
                Some((i, k)) => shard_range(a.campaigns, i, k),
                None => 0..a.campaigns,
            };
            Ok(Plan { range, chunk: 2048, precision: None })
        }
    }
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
    let sc = load_scenario(a.scenario.as_deref(), &a.set)?;
    let shard = resolve_shard(&a, |k| std::env::var(k).ok())?;
    let plan = plan(&a, shard)?;
    let seated = seating(&[&sc], a.seats.flag());
    let detail = Detail {
        seasons: a.detail.contains(&DetailKind::Seasons),
        combats: a.detail.contains(&DetailKind::Combats),
        check_invariants: a.check_invariants,
    };
    let out = a.out.clone().unwrap_or_else(|| {
        let mut p = PathBuf::from("reports/runs").join(format!("{}-s{}", sc.name, a.seed));
        if let Some((i, k)) = shard {
            p = p.join(format!("shard-{i}-of-{k}"));
        }
        p
    });
    super::create_out_dir(&out)?;
    if a.resume && plan.precision.is_none() {
        let mut expect = vec!["players.parquet".to_string()];
        if a.detail.contains(&DetailKind::Seasons) {
            expect.push("seasons.parquet".into());
        }
        if a.detail.contains(&DetailKind::Combats) {
            expect.push("combats.parquet".into());
        }
        if a.csv {
            let csvs: Vec<String> = expect.iter().map(|f| f.replace(".parquet", ".csv")).collect();
            expect.extend(csvs);
        }
        if already_complete(&out, &sc, a.seed, &plan.range, seated.rotate(), &expect) {
            sayln!("{}: already complete (manifest and file hashes match); skipped", out.display());
            return Ok(());
        }
    }
    // SIGINT stops the run after the chunk in flight (the handler can only
    // be set once per process, hence the ignored error on a second run).
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    // 0 lets rayon use every core.
    let threads = a.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::input(format!("cannot start {threads} threads: {e}")))?;
    let cfg = RunConfig {
        master: a.seed,
        range: plan.range.clone(),
        rotate_seats: seated.rotate(),
        chunk: plan.chunk,
        detail,
    };

    let bar = ProgressBar::new(plan.range.end - plan.range.start);
    if a.quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} campaigns  {per_sec}  ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    }
    let write_err =
        |e: polars::error::PolarsError| CliError::io(format!("{}: cannot write the dataset: {e}", out.display()));
    let mut writers = RunWriters::create(&out, a.csv, detail).map_err(write_err)?;
    let mut coverage = Coverage::default();
    let mut wins = WinCount::default();
    let mut violation: Option<crate::sim::runner::Violation> = None;
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
                if STOP.load(Ordering::SeqCst) {
                    return Ok(Flow::Stop);
                }
                Ok(match plan.precision {
                    Some(p) if wins.widest() <= p => Flow::Stop,
                    _ => Flow::Continue,
                })
            },
            |done| bar.set_position(done),
        )
    });
    bar.finish_and_clear();
    let done = match result {
        Ok(n) => n,
        Err(RunError::Setup(e)) => return Err(CliError::input(format!("cannot set up a campaign: {e}"))),
        Err(RunError::Write(e)) => return Err(write_err(e)),
    };
    let files = writers.finish(a.csv).map_err(write_err)?;
    if let Some(v) = violation {
        let scenario = a.scenario.as_ref().map_or(String::new(), |p| format!(" --scenario {}", p.display()));
        let sets: String = a.set.iter().map(|s| format!(" --set '{s}'")).collect();
        // A broken invariant is the engine's failure, not the designer's.
        return Err(CliError::io(format!(
            "invariant broken in campaign {} (campaign seed {}) after season {}: {}\nreplay it with: empires play{scenario}{sets} --seed {} --campaign {}{}",
            v.campaign,
            v.campaign_seed,
            v.season,
            v.message,
            a.seed,
            v.campaign,
            seated.play_flag()
        )));
    }
    let wall = t0.elapsed().as_secs_f64();
    let ran = plan.range.start..plan.range.start + done;
    let interrupted = STOP.load(Ordering::SeqCst) && ran.end < plan.range.end;

    let mut notes = String::new();
    if interrupted {
        let _ = writeln!(
            notes,
            "INTERRUPTED by SIGINT after {done} of {} campaigns: the files hold the campaigns completed; \
             run again (or with --resume) for the rest",
            plan.range.end - plan.range.start
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
    let source = a.scenario.as_ref().map_or("<embedded default.toml>".to_string(), |p| p.display().to_string());
    let info = manifest::RunInfo {
        scenario: &sc,
        scenario_source: &source,
        git_commit: crate::build_info::commit().map(String::from),
        git_dirty: crate::build_info::dirty(),
        master_seed: a.seed,
        campaigns: ran.clone(),
        total_campaigns: if plan.precision.is_some() { done } else { a.campaigns },
        shard,
        rotate_seats: seated.rotate(),
        threads: pool.current_num_threads(),
        overrides: a.set.clone(),
        wall_seconds: wall,
        files,
        coverage: &coverage,
        precision: plan.precision,
        interrupted,
        dir: &out,
    };
    let text = finish_run_dir(&out, &info, &notes)?;
    say!("{text}");
    sayln!("written to {}", out.display());
    if interrupted {
        return Err(CliError::interrupted(format!("{}: interrupted; the run is not complete", out.display())));
    }
    Ok(())
}

/// Set by SIGINT; the runner stops after the chunk in flight.
static STOP: AtomicBool = AtomicBool::new(false);

/// Whether `out` already holds this run complete: its manifest names the
/// same resolved scenario, seed, campaign range, seat rotation and files,
/// it was not interrupted, and every data file still has the hash the
/// manifest recorded. A partial run (killed before its manifest was
/// written, or interrupted) is not complete.
pub fn already_complete(
    out: &Path,
    sc: &crate::scenario::Scenario,
    seed: u64,
    range: &std::ops::Range<u64>,
    rotate: bool,
    files: &[String],
) -> bool {
    let Ok(m) = manifest::Manifest::read(out) else { return false };
    let same = m.scenario_hash == manifest::scenario_hash(sc)
        && m.master_seed == seed
        && m.campaign_start == range.start
        && m.campaign_end == range.end
        && m.rotate_seats == rotate
        && !m.interrupted;
    same && files
        .iter()
        .all(|f| m.file_hashes.get(f).is_some_and(|h| !h.is_empty() && manifest::file_hash(&out.join(f)) == *h))
}

/// Write `summary.txt` and `manifest.json` for a run directory whose
/// Parquet files are complete; returns the summary text. Shared by `run`
/// and `merge`, so a merged run reads exactly like one run.
pub fn finish_run_dir(out: &Path, info: &manifest::RunInfo<'_>, notes: &str) -> Result<String, CliError> {
    let fail = |e: String| CliError::io(format!("{}: {e}", out.display()));
    let s = summary::summarize(&out.join("players.parquet")).map_err(|e| fail(e.to_string()))?;
    let seated = Seating::of_run(info.scenario, info.rotate_seats);
    let mut text = summary::render(&s, &info.scenario.name, info.master_seed, info.wall_seconds, seated);
    text.push_str(notes);
    text.push_str(&coverage::render(info.coverage));
    let mut files = info.files.clone();
    files.push("summary.txt".into());
    write_atomic(&out.join("summary.txt"), text.as_bytes()).map_err(|e| fail(e.to_string()))?;
    let m = manifest::manifest(&manifest::RunInfo { files, ..info.clone() });
    write_atomic(&out.join("manifest.json"), m.to_json().as_bytes()).map_err(|e| fail(e.to_string()))?;
    Ok(text)
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
