//! The end-of-run summary, computed with polars `group_by` over the
//! `players.parquet` just written: per strategy and per seat, campaigns, win
//! rate with its Wilson 95% interval, ties, mean rank, mean empire size and
//! mean gold by source; the end reasons.

use super::stats::wilson;
use crate::sim::runner::Seating;
use polars::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// One group's line.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupLine {
    pub key: String,
    pub rows: u64,
    pub wins: u64,
    pub ties: u64,
    pub win_rate: f64,
    pub win_low: f64,
    pub win_high: f64,
    pub mean_rank: f64,
    pub mean_size: f64,
    pub gold_mines: f64,
    pub gold_pillage: f64,
    pub gold_loot: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub campaigns: u64,
    pub by_strategy: Vec<GroupLine>,
    pub by_seat: Vec<GroupLine>,
    pub end_reasons: Vec<(String, u64)>,
}

/// The queries run on polars' streaming engine, so a run of any size is
/// summarized in bounded memory.
fn scan(path: &Path) -> PolarsResult<LazyFrame> {
    LazyFrame::scan_parquet(PlRefPath::new(path.to_string_lossy().as_ref()), ScanArgsParquet::default())
}

fn f64_at(df: &DataFrame, name: &str, i: usize) -> PolarsResult<f64> {
    Ok(df.column(name)?.cast(&DataType::Float64)?.f64()?.get(i).unwrap_or(0.0))
}

fn groups(lf: LazyFrame, key: Expr) -> PolarsResult<Vec<GroupLine>> {
    let df = lf
        .group_by([key.clone().cast(DataType::String).alias("key")])
        .agg([
            len().alias("rows"),
            col("winner").cast(DataType::Float64).sum().alias("wins"),
            (col("winner").and(col("tie"))).cast(DataType::Float64).sum().alias("ties"),
            col("rank").cast(DataType::Float64).mean().alias("mean_rank"),
            col("empire_size").cast(DataType::Float64).mean().alias("mean_size"),
            col("gold_mines").cast(DataType::Float64).mean().alias("gold_mines"),
            col("gold_pillage").cast(DataType::Float64).mean().alias("gold_pillage"),
            col("gold_loot").cast(DataType::Float64).mean().alias("gold_loot"),
        ])
        .sort(["key"], SortMultipleOptions::default())
        .collect_with_engine(Engine::Streaming)?
        .unwrap_single();
    let keys = df.column("key")?.str()?.clone();
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let rows = f64_at(&df, "rows", i)?;
        let wins = f64_at(&df, "wins", i)?;
        let (lo, hi) = wilson(wins, rows, 0.95);
        out.push(GroupLine {
            key: keys.get(i).unwrap_or("").to_string(),
            rows: rows as u64,
            wins: wins as u64,
            ties: f64_at(&df, "ties", i)? as u64,
            win_rate: if rows > 0.0 { wins / rows } else { 0.0 },
            win_low: lo,
            win_high: hi,
            mean_rank: f64_at(&df, "mean_rank", i)?,
            mean_size: f64_at(&df, "mean_size", i)?,
            gold_mines: f64_at(&df, "gold_mines", i)?,
            gold_pillage: f64_at(&df, "gold_pillage", i)?,
            gold_loot: f64_at(&df, "gold_loot", i)?,
        });
    }
    Ok(out)
}

/// Summarize a `players.parquet`.
pub fn summarize(players: &Path) -> PolarsResult<Summary> {
    let lf = scan(players)?;
    let by_strategy = groups(lf.clone(), col("strategy"))?;
    let by_seat = groups(lf.clone(), col("seat"))?;
    let ends = lf
        .filter(col("seat").eq(lit(0u32)))
        .group_by([col("end_reason")])
        .agg([len().alias("n")])
        .sort(["end_reason"], SortMultipleOptions::default())
        .collect_with_engine(Engine::Streaming)?
        .unwrap_single();
    let names = ends.column("end_reason")?.str()?.clone();
    let mut end_reasons = Vec::new();
    for i in 0..ends.height() {
        end_reasons.push((names.get(i).unwrap_or("").to_string(), f64_at(&ends, "n", i)? as u64));
    }
    let campaigns = end_reasons.iter().map(|e| e.1).sum();
    Ok(Summary { campaigns, by_strategy, by_seat, end_reasons })
}

fn table(out: &mut String, title: &str, lines: &[GroupLine]) {
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "  {:<14} {:>9} {:>8} {:>17} {:>6} {:>9} {:>9} {:>10} {:>12} {:>9}",
        "",
        "campaigns",
        "win rate",
        "95% interval",
        "ties",
        "mean rank",
        "mean size",
        "gold mines",
        "gold pillage",
        "gold loot"
    );
    for l in lines {
        let _ = writeln!(
            out,
            "  {:<14} {:>9} {:>7.1}% {:>7.1}%–{:>6.1}% {:>6} {:>9.2} {:>9.2} {:>10.1} {:>12.1} {:>9.1}",
            l.key,
            l.rows,
            100.0 * l.win_rate,
            100.0 * l.win_low,
            100.0 * l.win_high,
            l.ties,
            l.mean_rank,
            l.mean_size,
            l.gold_mines,
            l.gold_pillage,
            l.gold_loot
        );
    }
}

/// The summary as text, with its provenance and how the seats were taken.
pub fn render(s: &Summary, scenario: &str, seed: u64, wall: f64, seating: Seating) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "scenario {scenario}, master seed {seed}, {} campaigns", s.campaigns);
    let _ = writeln!(out, "{}", seating.describe());
    table(&mut out, "by strategy (win rate per player-campaign, Wilson 95% interval):", &s.by_strategy);
    table(&mut out, "by seat:", &s.by_seat);
    let _ = writeln!(out, "end reasons:");
    for (r, n) in &s.end_reasons {
        let share = if s.campaigns > 0 { 100.0 * *n as f64 / s.campaigns as f64 } else { 0.0 };
        let _ = writeln!(out, "  {r:<16} {n:>9} ({share:.1}%)");
    }
    if wall > 0.0 {
        let _ = writeln!(out, "throughput: {:.0} campaigns/s ({:.2} s wall)", s.campaigns as f64 / wall, wall);
    }
    out
}
