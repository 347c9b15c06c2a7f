//! `empires run`: many campaigns in parallel into a polars dataset.

use super::{CliError, load_scenario};
use crate::report::{dataset::PlayersWriter, files::write_atomic, manifest, summary};
use crate::sim::runner::{RunConfig, run, shard_range};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
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
    /// Rotate strategies through the seats by campaign index.
    #[arg(long)]
    pub rotate_seats: bool,
    /// Run only shard I of K (0-based), e.g. 2/8.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
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

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, k) = s.split_once('/').ok_or_else(|| format!("expected I/K such as 0/4, got {s:?}"))?;
    let i: u64 = i.trim().parse().map_err(|_| format!("shard index {i:?} is not a whole number"))?;
    let k: u64 = k.trim().parse().map_err(|_| format!("shard count {k:?} is not a whole number"))?;
    if k == 0 || i >= k {
        return Err(format!("shard {i}/{k}: need 0 <= I < K"));
    }
    Ok((i, k))
}

fn git_commit() -> Option<String> {
    let out = std::process::Command::new("git").args(["rev-parse", "HEAD"]).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

pub fn run_cmd(a: RunArgs) -> Result<(), CliError> {
    let sc = load_scenario(a.scenario.as_deref(), &a.set)?;
    let range = match a.shard {
        Some((i, k)) => shard_range(a.campaigns, i, k),
        None => 0..a.campaigns,
    };
    let out = a.out.clone().unwrap_or_else(|| {
        let mut p = PathBuf::from("reports/runs").join(format!("{}-s{}", sc.name, a.seed));
        if let Some((i, k)) = a.shard {
            p = p.join(format!("shard-{i}-of-{k}"));
        }
        p
    });
    std::fs::create_dir_all(&out)
        .map_err(|e| CliError::input(format!("{}: cannot create the output directory: {e}", out.display())))?;
    if a.threads == Some(0) {
        return Err(CliError::input("--threads must be at least 1"));
    }
    // 0 lets rayon use every core.
    let threads = a.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::input(format!("cannot start {threads} threads: {e}")))?;
    let cfg = RunConfig { master: a.seed, range: range.clone(), rotate_seats: a.rotate_seats, chunk: 2048 };

    let bar = ProgressBar::new(range.end - range.start);
    if a.quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} campaigns  {per_sec}  ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    }
    let write_err = |e: polars::error::PolarsError| CliError {
        code: 1,
        message: format!("{}: cannot write the dataset: {e}", out.display()),
    };
    let mut writer = PlayersWriter::create(&out, a.csv).map_err(write_err)?;
    let t0 = Instant::now();
    let result: Result<u64, RunError> = pool
        .install(|| run(&sc, &cfg, |rows| writer.write(rows).map_err(RunError::Write), |done| bar.set_position(done)));
    bar.finish_and_clear();
    match result {
        Ok(_) => {}
        Err(RunError::Setup(e)) => return Err(CliError::input(format!("cannot set up a campaign: {e}"))),
        Err(RunError::Write(e)) => return Err(write_err(e)),
    }
    writer.finish().map_err(write_err)?;
    let wall = t0.elapsed().as_secs_f64();

    let mut files = vec!["players.parquet".to_string()];
    if a.csv {
        files.push("players.csv".into());
    }
    let s = summary::summarize(&out.join("players.parquet")).map_err(write_err)?;
    let text = summary::render(&s, &sc.name, a.seed, wall);
    write_atomic(&out.join("summary.txt"), text.as_bytes())
        .map_err(|e| CliError { code: 1, message: format!("{}: {e}", out.display()) })?;
    files.push("summary.txt".into());
    let source = a.scenario.as_ref().map_or("<embedded default.toml>".to_string(), |p| p.display().to_string());
    let m = manifest::manifest(&manifest::RunInfo {
        scenario: &sc,
        scenario_source: &source,
        git_commit: git_commit(),
        master_seed: a.seed,
        campaigns: range,
        total_campaigns: a.campaigns,
        shard: a.shard,
        rotate_seats: a.rotate_seats,
        threads: pool.current_num_threads(),
        overrides: a.set.clone(),
        wall_seconds: wall,
        files,
    });
    let body = serde_json::to_string_pretty(&m).unwrap_or_default();
    write_atomic(&out.join("manifest.json"), body.as_bytes())
        .map_err(|e| CliError { code: 1, message: format!("{}: {e}", out.display()) })?;
    print!("{text}");
    println!("written to {}", out.display());
    Ok(())
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
