//! The end-of-run summary, computed with polars `group_by` over the
//! `players.parquet` just written: per strategy and per seat, campaigns, win
//! rate with its Wilson 95% interval, ties, mean rank, mean empire size and
//! mean gold by source; the seat effect (a chi-square test of equal seat
//! win rates); the end reasons.

use crate::report::number::{p_is, seconds};
use crate::sim::runner::Seating;
use crate::stats::{ChiSquare, equal_shares, wilson};
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
    /// Equal seat win rates, tested on the wins per seat (`None` with one seat).
    pub seat_test: Option<ChiSquare>,
    pub end_reasons: Vec<(String, u64)>,
}

/// The significance level of the plain-words seat verdict.
pub const SEAT_ALPHA: f64 = 0.05;

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
    let mut by_seat = groups(lf.clone(), col("seat"))?;
    // Seats sort as numbers (seat 10 after seat 9), not as text.
    by_seat.sort_by_key(|l| l.key.parse::<u64>().unwrap_or(u64::MAX));
    let wins: Vec<u64> = by_seat.iter().map(|l| l.wins).collect();
    let seat_test = equal_shares(&wins);
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
    Ok(Summary { campaigns, by_strategy, by_seat, seat_test, end_reasons })
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

/// The seat effect in words: the chi-square line and the verdict, each
/// ending in a newline (empty for a one-seat run).
pub fn seat_effect(s: &Summary, seating: Seating) -> String {
    let mut out = String::new();
    let Some(t) = s.seat_test else { return out };
    let ties: u64 = s.by_seat.iter().map(|l| l.ties).sum();
    let _ = writeln!(
        out,
        "seat effect: chi-square {:.2} on {} df, {} (wins per seat against {:.1} each if seats were equal)",
        t.statistic,
        t.df,
        p_is(t.p),
        t.expected
    );
    if t.p < SEAT_ALPHA {
        let top = s.by_seat.iter().max_by(|a, b| a.win_rate.total_cmp(&b.win_rate));
        if let Some(l) = top {
            let _ = writeln!(
                out,
                "  seat effect: seat {} wins most ({:.1}%, 95% {:.1}%–{:.1}%; equal seats would win {:.1}%)",
                l.key,
                100.0 * l.win_rate,
                100.0 * l.win_low,
                100.0 * l.win_high,
                100.0 / s.by_seat.len() as f64
            );
        }
    } else {
        let _ = writeln!(out, "  no seat effect detected at 5%");
    }
    let _ = writeln!(
        out,
        "  one winner per campaign: a tie at the top ({ties} campaigns) counts for the player the tie-break ranked first"
    );
    if seating == Seating::FixedByFlag {
        let _ = writeln!(
            out,
            "  (seats fixed with different strategies: this tests seat and strategy together; rotate to separate them)"
        );
    }
    out
}

/// The summary as text, with its provenance and how the seats were taken.
/// `resumed` campaigns were kept from an interrupted run, so `wall`
/// (this process's) timed only the others.
pub fn render(s: &Summary, scenario: &str, seed: u64, wall: f64, resumed: u64, seating: Seating) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "scenario {scenario}, master seed {seed}, {} campaigns", s.campaigns);
    let _ = writeln!(out, "{}", seating.describe());
    table(&mut out, "by strategy (win rate per player-campaign, Wilson 95% interval):", &s.by_strategy);
    table(&mut out, "by seat (seats count from 0; win rate per campaign, Wilson 95% interval):", &s.by_seat);
    out.push_str(&seat_effect(s, seating));
    let _ = writeln!(out, "end reasons:");
    for (r, n) in &s.end_reasons {
        let share = if s.campaigns > 0 { 100.0 * *n as f64 / s.campaigns as f64 } else { 0.0 };
        let _ = writeln!(out, "  {r:<16} {n:>9} ({share:.1}%)");
    }
    out.push_str(&throughput(s.campaigns, resumed, wall));
    out
}

/// The speed of the campaigns this process played: a resumed run's
/// earlier campaigns took none of its wall time, so they are named, not
/// counted.
pub fn throughput(campaigns: u64, resumed: u64, wall: f64) -> String {
    if wall <= 0.0 {
        return String::new();
    }
    let played = campaigns.saturating_sub(resumed);
    let speed = played as f64 / wall;
    if resumed == 0 {
        format!("throughput: {speed:.0} campaigns/s ({} wall)\n", seconds(wall))
    } else {
        format!(
            "throughput: {speed:.0} campaigns/s ({played} campaigns played in {} wall; {resumed} resumed from the \
             interrupted run, not counted)\n",
            seconds(wall)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::throughput;

    /// A resumed run's speed counts only the campaigns its own process
    /// played, and names the ones resumed: 77,472 of 100,000 played in
    /// 10.9 s is 7108 a second, not 9174.
    #[test]
    fn a_resumed_runs_throughput_counts_only_the_campaigns_it_played() {
        assert_eq!(
            throughput(100_000, 22_528, 10.9),
            "throughput: 7108 campaigns/s (77472 campaigns played in 10.9 s wall; 22528 resumed from the \
             interrupted run, not counted)\n"
        );
        assert_eq!(throughput(100_000, 0, 1.8158803460000001), "throughput: 55070 campaigns/s (1.82 s wall)\n");
        assert_eq!(throughput(100, 0, 0.0), "");
    }
}
