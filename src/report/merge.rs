//! Merging shard outputs into one run: the checks that make a merge safe,
//! then a streaming concatenation of each table with a Parquet scan over
//! every shard's file.
//!
//! Shards are merged only when they are slices of one run: the same resolved
//! scenario (by hash, so `--set` overrides count), master seed, seat rotation
//! and detail tables, and campaign ranges that tile `0..total` with no
//! overlap and no hole. Any other case is refused with the shards named,
//! because a merged dataset that silently mixed two experiments would be
//! worse than none.

use super::dataset::TableWriter;
use super::manifest::Manifest;
use crate::error::Error;
use polars::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What a merge needs from one shard: where it is and its manifest.
#[derive(Clone, Debug)]
pub struct Shard {
    pub dir: PathBuf,
    pub manifest: Manifest,
}

impl Shard {
    /// The Parquet tables it holds (`players`, maybe `seasons`, `combats`).
    pub fn tables(&self) -> Vec<String> {
        let files = &self.manifest.files;
        ["players", "seasons", "combats"]
            .iter()
            .filter(|t| files.contains(&format!("{t}.parquet")))
            .map(|t| t.to_string())
            .collect()
    }

    /// It also holds the CSV copies.
    pub fn csv(&self) -> bool {
        self.manifest.files.iter().any(|f| f == "players.csv")
    }
}

/// Read a shard directory's manifest.
pub fn read_shard(dir: &Path) -> Result<Shard, Error> {
    Ok(Shard { dir: dir.to_path_buf(), manifest: Manifest::read(dir)? })
}

/// Check that `shards` are the slices of one run; returns them in campaign
/// order. Every problem is named with the shard directories involved.
pub fn check(mut shards: Vec<Shard>) -> Result<Vec<Shard>, Error> {
    let Some(first) = shards.first().cloned() else { return Err(Error::input("no shard directories given")) };
    let name = |s: &Shard| s.dir.display().to_string();
    for s in &shards[1..] {
        if s.manifest.scenario_hash != first.manifest.scenario_hash {
            return Err(Error::input(format!(
                "{} has scenario hash {}…, but {} has {}…: shards of different scenarios (or --set overrides) cannot be merged",
                name(s),
                &s.manifest.scenario_hash[..s.manifest.scenario_hash.len().min(12)],
                name(&first),
                &first.manifest.scenario_hash[..first.manifest.scenario_hash.len().min(12)]
            )));
        }
        if s.manifest.master_seed != first.manifest.master_seed {
            return Err(Error::input(format!(
                "{} was run with seed {}, but {} with seed {}: shards of different seeds cannot be merged",
                name(s),
                s.manifest.master_seed,
                name(&first),
                first.manifest.master_seed
            )));
        }
        if s.manifest.rotate_seats != first.manifest.rotate_seats {
            return Err(Error::input(format!(
                "{} and {} differ in seat rotation (rotate_seats {} and {}): run every shard with the same --rotate-seats or --fixed-seats",
                name(s),
                name(&first),
                s.manifest.rotate_seats,
                first.manifest.rotate_seats
            )));
        }
        if s.tables() != first.tables() {
            return Err(Error::input(format!(
                "{} holds {}, but {} holds {}: run every shard with the same --detail",
                name(s),
                s.tables().join(", "),
                name(&first),
                first.tables().join(", ")
            )));
        }
        if s.manifest.total_campaigns != first.manifest.total_campaigns {
            return Err(Error::input(format!(
                "{} is a shard of {} campaigns, but {} of {}: run every shard with the same --campaigns",
                name(s),
                s.manifest.total_campaigns,
                name(&first),
                first.manifest.total_campaigns
            )));
        }
    }
    shards.sort_by_key(|s| (s.manifest.campaign_start, s.manifest.campaign_end));
    let mut next = 0u64;
    let mut prev: Option<&Shard> = None;
    for s in &shards {
        if s.manifest.campaign_start < next {
            let p = prev.map(name).unwrap_or_default();
            return Err(Error::input(format!(
                "{} (campaigns {}..{}) and {} (campaigns {}..{}) overlap",
                p,
                prev.map_or(0, |p| p.manifest.campaign_start),
                next,
                name(s),
                s.manifest.campaign_start,
                s.manifest.campaign_end
            )));
        }
        if s.manifest.campaign_start > next {
            let after = prev.map_or("the start".to_string(), name);
            return Err(Error::input(format!(
                "campaigns {next}..{} are missing (between {after} and {})",
                s.manifest.campaign_start,
                name(s)
            )));
        }
        next = s.manifest.campaign_end;
        prev = Some(s);
    }
    if next < first.manifest.total_campaigns {
        return Err(Error::input(format!(
            "campaigns {next}..{} are missing (after {})",
            first.manifest.total_campaigns,
            prev.map(name).unwrap_or_default()
        )));
    }
    Ok(shards)
}

/// Concatenate `table` of every shard (in campaign order) into
/// `out/table.parquet` (and CSV), streaming: a Parquet scan over the shard
/// files feeds the writer batch by batch, so a merge of any size runs in
/// bounded memory. Returns the rows written.
pub fn concat_table(shards: &[Shard], table: &str, out: &Path, csv: bool) -> PolarsResult<u64> {
    let paths: Vec<PlRefPath> = shards
        .iter()
        .map(|s| PlRefPath::new(s.dir.join(format!("{table}.parquet")).to_string_lossy().as_ref()))
        .collect();
    let lf = LazyFrame::scan_parquet_files(paths.into_iter().collect(), ScanArgsParquet::default())?;
    let writer = Arc::new(Mutex::new((Some(TableWriter::create(out, table, csv)?), 0u64)));
    let w = writer.clone();
    lf.sink_batches(
        PlanCallback::new(move |df: DataFrame| {
            let mut g = w.lock().map_err(|_| polars_err!(ComputeError: "writer lock poisoned"))?;
            g.1 += df.height() as u64;
            if let Some(tw) = g.0.as_mut() {
                tw.write(df)?;
            }
            Ok(false)
        }),
        true,
        None,
    )?
    .collect_with_engine(Engine::Streaming)?;
    let mut g = writer.lock().map_err(|_| polars_err!(ComputeError: "writer lock poisoned"))?;
    let rows = g.1;
    if let Some(tw) = g.0.take() {
        // A table with no rows at all keeps the schema of the first shard.
        let first = shards[0].dir.join(format!("{table}.parquet"));
        tw.finish(|| ParquetReader::new(std::fs::File::open(&first)?).finish())?;
    }
    Ok(rows)
}
