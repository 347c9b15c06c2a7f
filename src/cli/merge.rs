//! `empires merge`: shard outputs into one run directory.

use super::CliError;
use super::run_dir::finish_run_dir;
use crate::report::manifest;
use crate::report::merge::{check, concat_table, read_shard};
use crate::scenario::Scenario;
use crate::sim::record::Coverage;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Shard directories written by `empires run --shard`, or glob patterns
    /// such as 'reports/runs/default-s1/shard-*'.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<String>,
    #[command(flatten)]
    pub out: super::out::Out<super::out::MergeFolder>,
}

/// Expand the arguments: a pattern becomes its matches, sorted.
fn expand(args: &[String]) -> Result<Vec<PathBuf>, CliError> {
    let mut dirs = Vec::new();
    for a in args {
        if a.contains(['*', '?', '[']) {
            let paths = glob::glob(a).map_err(|e| CliError::input(format!("{a}: not a valid pattern: {e}")))?;
            let mut found: Vec<PathBuf> = paths.filter_map(Result::ok).filter(|p| p.is_dir()).collect();
            if found.is_empty() {
                return Err(CliError::input(format!("{a}: no directory matches")));
            }
            found.sort();
            dirs.extend(found);
        } else {
            dirs.push(PathBuf::from(a));
        }
    }
    Ok(dirs)
}

pub fn merge_cmd(a: MergeArgs) -> Result<(), CliError> {
    let t0 = Instant::now();
    // clap requires --out here (`MergeFolder`).
    let out = a.out.given().ok_or_else(|| CliError::input("merge: give the merged run's folder with --out DIR"))?;
    let dirs = expand(&a.dirs)?;
    // The request is the shards it reads.
    let claim = || a.out.claim_at(out, &super::out::Request::new(&format!("merge {dirs:?}"), ""));
    // Shards of `empires metagame` join the same way as runs.
    if dirs.first().is_some_and(|d| d.join("metagame-shard.json").is_file()) {
        return super::strength::merge_metagame(&dirs, out, claim);
    }
    let shards = dirs.iter().map(|d| read_shard(d)).collect::<Result<Vec<_>, _>>()?;
    let shards = check(shards)?;
    claim()?;
    let first = &shards[0];
    let sc: Scenario = first.manifest.scenario().map_err(|e| e.at(first.dir.join("manifest.json").display()))?;
    if crate::report::manifest::scenario_hash(&sc) != first.manifest.scenario_hash {
        return Err(CliError::input(format!(
            "{}: the manifest's scenario does not match its hash (was it edited?)",
            first.dir.join("manifest.json").display()
        )));
    }
    super::create_out_dir(out)?;
    let fail = |e: polars::error::PolarsError| CliError::io(format!("{}: cannot merge: {e}", out.display()));
    let csv = shards.iter().all(|s| s.csv());
    let mut files = Vec::new();
    for t in &first.tables() {
        concat_table(&shards, t, out, csv).map_err(fail)?;
        files.push(format!("{t}.parquet"));
        if csv {
            files.push(format!("{t}.csv"));
        }
    }
    let mut coverage = Coverage::default();
    for s in &shards {
        coverage.merge(&s.manifest.coverage);
    }
    let last = shards.last().map_or(0, |s| s.manifest.campaign_end);
    let m = &first.manifest;
    let info = manifest::RunInfo {
        scenario: &sc,
        scenario_source: &m.scenario_source,
        git_commit: m.git_commit.clone(),
        git_dirty: m.git_dirty,
        master_seed: first.manifest.master_seed,
        campaigns: 0..last,
        total_campaigns: first.manifest.total_campaigns,
        shard: None,
        rotate_seats: first.manifest.rotate_seats,
        threads: 0,
        overrides: m.overrides.clone(),
        // The shards' own time: the work the merged run stands for.
        wall_seconds: shards.iter().map(|s| s.manifest.wall_seconds).sum(),
        // A shard's resumed campaigns took none of its wall time.
        resumed: shards.iter().map(|s| s.manifest.resumed_campaigns).sum(),
        files,
        coverage: &coverage,
        precision: None,
        interrupted: false,
        dir: out,
    };
    let took = crate::report::number::seconds(t0.elapsed().as_secs_f64());
    let mut notes = format!("merged from {} shards in {took}:", shards.len());
    for s in &shards {
        notes.push_str(&format!(
            "\n  {} campaigns {}..{}",
            s.dir.display(),
            s.manifest.campaign_start,
            s.manifest.campaign_end
        ));
    }
    notes.push('\n');
    let text = finish_run_dir(out, &info, &notes)?;
    say!("{text}");
    sayln!("written to {}", out.display());
    Ok(())
}
