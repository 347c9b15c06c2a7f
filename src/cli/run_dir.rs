//! A run directory's bookkeeping, shared by `run` and `merge`: whether a
//! directory already holds a run complete (`--resume`), and writing its
//! summary and manifest once the data files are complete.

use super::CliError;
use crate::report::{coverage, files::write_atomic, manifest, summary};
use crate::sim::Detail;
use crate::sim::runner::SeatRotation;
use std::path::Path;

/// The data files a run with these detail tables writes.
pub fn data_files(detail: Detail, csv: bool) -> Vec<String> {
    let mut files = vec!["players.parquet".to_string()];
    if detail.seasons {
        files.push("seasons.parquet".into());
    }
    if detail.combats {
        files.push("combats.parquet".into());
    }
    if csv {
        let csvs: Vec<String> = files.iter().map(|f| f.replace(".parquet", ".csv")).collect();
        files.extend(csvs);
    }
    files
}

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
    same_start(&m, sc, seed, range, rotate)
        && m.campaign_end == range.end
        && !m.interrupted
        && files_intact(&m, out, files)
}

/// The manifest's run began as this one: the same resolved scenario, seed,
/// first campaign and seat rotation.
fn same_start(
    m: &manifest::Manifest,
    sc: &crate::scenario::Scenario,
    seed: u64,
    range: &std::ops::Range<u64>,
    rotate: bool,
) -> bool {
    m.scenario_hash == manifest::scenario_hash(sc)
        && m.master_seed == seed
        && m.campaign_start == range.start
        && m.rotate_seats == rotate
}

/// Every one of `files` still has the hash the manifest recorded.
fn files_intact(m: &manifest::Manifest, out: &Path, files: &[String]) -> bool {
    files.iter().all(|f| m.file_hashes.get(f).is_some_and(|h| !h.is_empty() && manifest::file_hash(&out.join(f)) == *h))
}

/// The manifest of `out` when it holds the first campaigns of this run,
/// interrupted: the same resolved scenario, seed, first campaign, total,
/// seat rotation and files, every data file with the hash the manifest
/// recorded. `--resume` then plays only the campaigns after it.
pub fn interrupted_prefix(
    out: &Path,
    sc: &crate::scenario::Scenario,
    seed: u64,
    range: &std::ops::Range<u64>,
    rotate: bool,
    files: &[String],
) -> Option<manifest::Manifest> {
    let m = manifest::Manifest::read(out).ok()?;
    let same = same_start(&m, sc, seed, range, rotate)
        && m.campaign_end > range.start
        && m.campaign_end < range.end
        && m.interrupted
        && m.precision.is_none();
    (same
        && files_intact(&m, out, files)
        && m.files.iter().filter(|f| f.ends_with("parquet") || f.ends_with("csv")).count() == files.len())
    .then_some(m)
}

/// Write `summary.txt` and `manifest.json` for a run directory whose
/// Parquet files are complete; returns the summary text. Shared by `run`
/// and `merge`, so a merged run reads exactly like one run.
pub fn finish_run_dir(out: &Path, info: &manifest::RunInfo<'_>, notes: &str) -> Result<String, CliError> {
    let fail = |e: String| CliError::io(format!("{}: {e}", out.display()));
    let s = summary::summarize(&out.join("players.parquet")).map_err(|e| fail(e.to_string()))?;
    let seated = SeatRotation::of_run(info.scenario, info.rotate_seats);
    let mut text = summary::render(&s, &info.scenario.name, info.master_seed, info.wall_seconds, info.resumed, seated);
    // An interrupted run says so before anything else: the summary under
    // it covers only the campaigns completed.
    text = if info.interrupted { format!("{notes}{text}") } else { text + notes };
    text.push_str(&coverage::render(info.coverage));
    let mut files = info.files.clone();
    files.push("summary.txt".into());
    write_atomic(&out.join("summary.txt"), text.as_bytes()).map_err(|e| fail(e.to_string()))?;
    let m = manifest::manifest(&manifest::RunInfo { files, ..info.clone() });
    write_atomic(&out.join("manifest.json"), m.to_json().as_bytes()).map_err(|e| fail(e.to_string()))?;
    Ok(text)
}
