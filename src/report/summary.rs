//! The end-of-run summary, computed with polars `group_by` over the
//! `players.parquet` just written: per strategy and per seat, campaigns, win
//! rate with its Wilson 95% interval, ties, and the mean rank, empire size
//! and gold by source, each with its 95% interval over campaigns; the seat
//! effect (a chi-square test of equal seat win rates); the end reasons.

use crate::report::number::{p_is, seconds};
use crate::sim::runner::SeatRotation;
use crate::stats::{ChiSquare, Mean, equal_shares, wilson};
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
    /// The means below are over campaigns, the campaign as the unit: a
    /// campaign's value is the mean of the group's players in it, and the
    /// 95% normal interval comes from the spread of those values.
    pub mean_rank: Mean,
    pub mean_size: Mean,
    pub gold_mines: Mean,
    pub gold_pillage: Mean,
    pub gold_loot: Mean,
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

/// The columns whose mean a group line gives with its interval, and the
/// `GroupLine` field each fills, in order.
const MEANS: [&str; 5] = ["rank", "empire_size", "gold_mines", "gold_pillage", "gold_loot"];

fn groups(lf: LazyFrame, key: Expr) -> PolarsResult<Vec<GroupLine>> {
    let num = |c: &str| col(c).cast(DataType::Float64);
    // First each campaign's value of the group (its players' mean), then
    // the mean and spread of those values over campaigns.
    let mut per_campaign = vec![
        len().cast(DataType::Float64).alias("rows"),
        col("winner").cast(DataType::Float64).sum().alias("wins"),
        (col("winner").and(col("tie"))).cast(DataType::Float64).sum().alias("ties"),
    ];
    per_campaign.extend(MEANS.map(|c| num(c).mean().alias(c)));
    let mut over = vec![col("rows").sum(), col("wins").sum(), col("ties").sum(), len().alias("campaigns")];
    for c in MEANS {
        over.push(col(c).mean().alias(format!("{c} mean")));
        over.push(col(c).std(1).alias(format!("{c} sd")));
    }
    let df = lf
        .group_by([key.clone().cast(DataType::String).alias("key"), col("campaign")])
        .agg(per_campaign)
        .group_by([col("key")])
        .agg(over)
        .sort(["key"], SortMultipleOptions::default())
        .collect_with_engine(Engine::Streaming)?
        .unwrap_single();
    let keys = df.column("key")?.str()?.clone();
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let rows = f64_at(&df, "rows", i)?;
        let wins = f64_at(&df, "wins", i)?;
        let (lo, hi) = wilson(wins, rows, 0.95);
        let campaigns = f64_at(&df, "campaigns", i)? as u64;
        let mean = |c: &str| -> PolarsResult<Mean> {
            Ok(Mean::of(campaigns, f64_at(&df, &format!("{c} mean"), i)?, f64_at(&df, &format!("{c} sd"), i)?, 0.95))
        };
        out.push(GroupLine {
            key: keys.get(i).unwrap_or("").to_string(),
            rows: rows as u64,
            wins: wins as u64,
            ties: f64_at(&df, "ties", i)? as u64,
            win_rate: if rows > 0.0 { wins / rows } else { 0.0 },
            win_low: lo,
            win_high: hi,
            mean_rank: mean(MEANS[0])?,
            mean_size: mean(MEANS[1])?,
            gold_mines: mean(MEANS[2])?,
            gold_pillage: mean(MEANS[3])?,
            gold_loot: mean(MEANS[4])?,
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

/// `2.41 ±0.01`: a mean and the half-width of its 95% interval, with
/// `decimals`; what the summary's mean columns show.
pub fn plus_minus(m: &Mean, decimals: usize) -> String {
    format!("{:.*} ±{:.*}", decimals, m.mean, decimals, m.half())
}

/// A group line's means as cells: rank and size with two decimals, gold
/// with one.
pub fn mean_cells(l: &GroupLine) -> [String; 5] {
    [
        plus_minus(&l.mean_rank, 2),
        plus_minus(&l.mean_size, 2),
        plus_minus(&l.gold_mines, 1),
        plus_minus(&l.gold_pillage, 1),
        plus_minus(&l.gold_loot, 1),
    ]
}

/// The heads of `mean_cells`.
pub const MEAN_HEADS: [&str; 5] = ["mean rank", "mean size", "gold mines", "gold pillage", "gold loot"];

/// What the mean columns are, under a summary's tables.
pub const MEANS_NOTE: &str = "mean rank, size and gold (per player, by source): the mean over campaigns (a \
                              campaign's value is its players' mean) ± the half-width of its 95% interval, the \
                              campaign as the unit";

fn table(out: &mut String, title: &str, lines: &[GroupLine]) {
    let _ = writeln!(out, "{title}");
    let mut rows = vec![
        ["", "campaigns", "win rate", "95% interval", "ties"]
            .into_iter()
            .chain(MEAN_HEADS)
            .map(String::from)
            .collect::<Vec<_>>(),
    ];
    for l in lines {
        let mut r = vec![
            l.key.clone(),
            l.rows.to_string(),
            crate::report::number::pct(l.win_rate),
            format!("{:.1}%–{:.1}%", 100.0 * l.win_low, 100.0 * l.win_high),
            l.ties.to_string(),
        ];
        r.extend(mean_cells(l));
        rows.push(r);
    }
    out.push_str(&super::table::text_table(&rows));
}

/// The seat effect in words: the chi-square line and the verdict, each
/// ending in a newline (empty for a one-seat run).
pub fn seat_effect(s: &Summary, seating: SeatRotation) -> String {
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
    if seating == SeatRotation::FixedByFlag {
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
pub fn render(s: &Summary, scenario: &str, seed: u64, wall: f64, resumed: u64, seating: SeatRotation) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "scenario {scenario}, master seed {seed}, {} campaigns", s.campaigns);
    let _ = writeln!(out, "{}", crate::report::seating::describe(seating));
    table(&mut out, "by strategy (win rate per player-campaign, Wilson 95% interval):", &s.by_strategy);
    table(&mut out, "by seat (seats count from 0; win rate per campaign, Wilson 95% interval):", &s.by_seat);
    let _ = writeln!(out, "{MEANS_NOTE}");
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
