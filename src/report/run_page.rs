//! `empires report RUN_DIR`: the HTML page of a run, its charts computed
//! with polars from the run's Parquet files.

use super::charts::{Bar, Chart, Series};
use super::html::Page;
use super::manifest::Manifest;
use super::summary::{self, GroupLine, summarize};
use crate::error::Error;
use crate::scenario::Scenario;
use crate::sim::runner::SeatRotation;
use crate::stats::wilson;
use polars::prelude::*;
use serde_json::Value;
use std::path::Path;

fn scan(path: &Path) -> PolarsResult<LazyFrame> {
    LazyFrame::scan_parquet(PlRefPath::new(path.to_string_lossy().as_ref()), ScanArgsParquet::default())
}

fn f64s(df: &DataFrame, name: &str) -> PolarsResult<Vec<f64>> {
    Ok(df.column(name)?.cast(&DataType::Float64)?.f64()?.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
}

fn strs(df: &DataFrame, name: &str) -> PolarsResult<Vec<String>> {
    Ok(df.column(name)?.cast(&DataType::String)?.str()?.iter().map(|v| v.unwrap_or("").to_string()).collect())
}

/// Win-rate bars with their Wilson intervals.
pub fn win_bars(lines: &[GroupLine]) -> Vec<Bar> {
    lines.iter().map(|l| Bar { label: l.key.clone(), value: l.win_rate, low: l.win_low, high: l.win_high }).collect()
}

/// Mean empire size per season and strategy with its 10–90% band, and the
/// mean gold by source per season (all players).
pub fn season_series(seasons: &Path) -> PolarsResult<(Vec<Series>, Vec<Series>)> {
    let q = |p: f64| col("empire_size").cast(DataType::Float64).quantile(lit(p), QuantileMethod::Linear);
    let df = scan(seasons)?
        .group_by([col("strategy"), col("season")])
        .agg([
            col("empire_size").cast(DataType::Float64).mean().alias("mean"),
            q(0.1).alias("p10"),
            q(0.9).alias("p90"),
        ])
        .sort(["strategy", "season"], SortMultipleOptions::default())
        .collect()?;
    let (names, season, mean, p10, p90) =
        (strs(&df, "strategy")?, f64s(&df, "season")?, f64s(&df, "mean")?, f64s(&df, "p10")?, f64s(&df, "p90")?);
    let mut size: Vec<Series> = Vec::new();
    for i in 0..df.height() {
        if size.last().is_none_or(|s| s.name != names[i]) {
            size.push(Series { name: names[i].clone(), points: Vec::new(), band: Some(Vec::new()) });
        }
        if let Some(s) = size.last_mut() {
            s.points.push((season[i], mean[i]));
            if let Some(b) = &mut s.band {
                b.push((season[i], p10[i], p90[i]));
            }
        }
    }
    let g = scan(seasons)?
        .group_by([col("season")])
        .agg([
            col("gold_mines").cast(DataType::Float64).mean().alias("mines"),
            col("gold_pillage").cast(DataType::Float64).mean().alias("pillage"),
            col("gold_loot").cast(DataType::Float64).mean().alias("loot"),
        ])
        .sort(["season"], SortMultipleOptions::default())
        .collect()?;
    let s = f64s(&g, "season")?;
    let gold = ["mines", "pillage", "loot"]
        .iter()
        .map(|k| {
            let v = f64s(&g, k).unwrap_or_default();
            Series { name: format!("gold from {k}"), points: s.iter().copied().zip(v).collect(), band: None }
        })
        .collect();
    Ok((size, gold))
}

/// What the siege heatmap of `exact_heatmaps` shows, as every page
/// captions it.
pub const SIEGE_EXACT_CAPTION: &str =
    "Exact (Markov chain): P(the city falls first), the chance the city falls before the army is spent.";

/// Exact siege and naval heatmaps for a scenario.
pub fn exact_heatmaps(sc: &Scenario) -> (Chart, Chart) {
    let sieges = crate::analysis::markov::sieges(sc);
    let t = &sc.tables;
    let pvs: Vec<i32> = (t.siege_city_pv[0]..=t.siege_city_pv[1]).collect();
    let units: Vec<i32> = (t.siege_army_units[0]..=t.siege_army_units[1]).collect();
    let siege_rows = pvs
        .iter()
        .map(|&pv| {
            units
                .iter()
                .map(|&u| {
                    // The city falling first is the attacker's advantage, so
                    // red means the attacker is ahead as on every other grid
                    // (`fairness::SIDES`); a chain that may never end has no
                    // such chance.
                    sieges.iter().find(|s| s.city_pv == pv && s.units == u && s.ends).map_or(f64::NAN, |s| s.falls)
                })
                .collect()
        })
        .collect();
    let siege = Chart::Heatmap {
        title: format!(
            "Siege to the end: P(the city falls first), % (army +{}, city base {})",
            t.siege_army_extra, t.siege_city_base
        ),
        x_label: "army units".into(),
        y_label: "city PV".into(),
        xs: units.iter().map(|u| u.to_string()).collect(),
        ys: pvs.iter().map(|p| p.to_string()).collect(),
        rows: siege_rows,
        percent: true,
        intervals: Vec::new(),
        sides: Some(super::fairness::SIDES.map(String::from)),
    };
    let naval = crate::analysis::markov::naval(sc);
    let ships: Vec<i32> = (t.naval_ships[0]..=t.naval_ships[1]).collect();
    let naval_rows = ships
        .iter()
        .map(|&m| {
            ships
                .iter()
                .map(|&n| naval.iter().find(|c| c.ships == n && c.enemy == m).map_or(f64::NAN, |c| c.win))
                .collect()
        })
        .collect();
    let naval = Chart::Heatmap {
        title: "Naval battle to destruction: P(attacker wins), %".into(),
        x_label: "attacking ships".into(),
        y_label: "defending ships".into(),
        xs: ships.iter().map(|s| s.to_string()).collect(),
        ys: ships.iter().map(|s| s.to_string()).collect(),
        rows: naval_rows,
        percent: true,
        intervals: Vec::new(),
        sides: Some(super::fairness::SIDES.map(String::from)),
    };
    (siege, naval)
}

fn group_rows(lines: &[GroupLine], key: &str) -> Vec<Vec<String>> {
    let head = [key, "player-campaigns", "win rate", "95% interval"].into_iter().chain(summary::MEAN_HEADS);
    let mut rows = vec![head.map(String::from).collect()];
    for l in lines {
        let mut r = vec![
            l.key.clone(),
            l.rows.to_string(),
            crate::report::number::pct(l.win_rate),
            format!("{:.1}%–{:.1}%", 100.0 * l.win_low, 100.0 * l.win_high),
        ];
        r.extend(summary::mean_cells(l));
        rows.push(r);
    }
    rows
}

/// The provenance rows of a manifest.
pub fn provenance(m: &Manifest) -> Vec<Vec<String>> {
    // Each value as the manifest file writes it.
    let m = serde_json::to_value(m).unwrap_or(Value::Null);
    let s = |k: &str| match &m[k] {
        Value::String(x) => x.clone(),
        Value::Null => "—".into(),
        v => v.to_string(),
    };
    vec![
        vec!["field".into(), "value".into()],
        vec!["tool".into(), format!("empires {} ({})", s("version"), s("git_commit"))],
        vec!["scenario".into(), format!("{} from {}", s("scenario_name"), s("scenario_source"))],
        vec!["scenario hash (SHA-256)".into(), s("scenario_hash")],
        vec!["master seed".into(), s("master_seed")],
        vec!["campaigns".into(), format!("{}..{} of {}", s("campaign_start"), s("campaign_end"), s("total_campaigns"))],
        vec!["rotate seats".into(), s("rotate_seats")],
        vec!["seating".into(), s("seating")],
        vec!["overrides".into(), s("overrides")],
        vec!["wall time".into(), wall_time(&m)],
    ]
}

/// The manifest's wall time, with the campaigns a resume kept (which took
/// none of it).
fn wall_time(m: &Value) -> String {
    let wall = m["wall_seconds"].as_f64().map_or("—".into(), crate::report::number::seconds);
    match m["resumed_campaigns"].as_u64() {
        Some(r) if r > 0 => format!("{wall} (after resuming {r} campaigns played before)"),
        _ => wall,
    }
}

/// Build the report of `run` into `out`; returns the files written.
pub fn build(run: &Path, out: &Path) -> Result<Vec<String>, Error> {
    let m = Manifest::read(run)?;
    let sc: Scenario = m.scenario().map_err(|e| e.at(run.join("manifest.json").display()))?;
    let s = summarize(&run.join("players.parquet"))
        .map_err(|e| Error::input(format!("{}: {e}", run.join("players.parquet").display())))?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(format!("{}: {e}", out.display())))?;
    let seed = m.master_seed;
    let mut page = Page::new(&format!("empires: {} — {} campaigns, seed {seed}", sc.name, s.campaigns));
    let fair = 100.0 / sc.players.len().max(1) as f64;
    let top = s.by_strategy.iter().max_by(|a, b| a.win_rate.total_cmp(&b.win_rate));
    let seats = match s.seat_test {
        Some(t) if t.p < summary::SEAT_ALPHA => "the seats are not equal (see the seat effect below)".to_string(),
        Some(_) => "no seat effect is detectable".to_string(),
        None => String::new(),
    };
    let partial = if m.interrupted {
        format!(
            "PARTIAL DATA: the run was interrupted after {} of {} campaigns; finish it with the same `empires run` and \
             --resume. ",
            m.campaign_end - m.campaign_start,
            m.total_campaigns
        )
    } else {
        String::new()
    };
    page.answer(&match top {
        Some(l) => format!(
            "{partial}{} wins most: {:.1}% of its player-campaigns (95% {:.1}%–{:.1}%) against the fair share of \
             {fair:.1}%, over {} campaigns (master seed {seed}){}.",
            l.key,
            100.0 * l.win_rate,
            100.0 * l.win_low,
            100.0 * l.win_high,
            s.campaigns,
            if seats.is_empty() { String::new() } else { format!("; {seats}") }
        ),
        None => format!("{partial}No campaign in this run."),
    });
    page.p(&format!(
        "Every rate is over {} campaigns of scenario {} with master seed {seed}, with its Wilson 95% interval. \
         Re-run with the command below; the data depend only on the scenario, the seed and the campaign indices.",
        s.campaigns, sc.name
    ));
    let overrides: Vec<String> = m.overrides.iter().map(|x| format!(" --set '{x}'")).collect();
    let source = m.scenario_source.as_str();
    // The embedded default needs no --scenario.
    let scenario_flag =
        if source.starts_with('<') || source.is_empty() { String::new() } else { format!(" --scenario {source}") };
    let seated = SeatRotation::of_run(&sc, m.rotate_seats);
    page.pre(&format!(
        "empires run{scenario_flag} --campaigns {} --seed {seed}{}{}",
        m.total_campaigns,
        crate::report::seating::flag(seated),
        overrides.concat()
    ));

    page.h2("Win rate by strategy");
    let fair = 1.0 / sc.players.len().max(1) as f64;
    page.chart(
        out,
        "win-rate-strategy",
        &Chart::Bars {
            title: "Win rate by strategy (95% interval)".into(),
            y_label: "win rate (%)".into(),
            bars: win_bars(&s.by_strategy),
            reference: Some(fair),
        },
        &format!("Win rate per player-campaign, Wilson 95% intervals; the line is 1/{} players.", sc.players.len()),
    )?;
    page.table(&group_rows(&s.by_strategy, "strategy"));
    page.p(&format!("{}.", summary::MEANS_NOTE));

    page.h2("Win rate by seat");
    page.chart(
        out,
        "win-rate-seat",
        &Chart::Bars {
            title: "Win rate by seat (95% interval)".into(),
            y_label: "win rate (%)".into(),
            bars: win_bars(&s.by_seat),
            reference: Some(fair),
        },
        &format!("Seats count from 0; {}.", crate::report::seating::describe(seated)),
    )?;
    page.table(&group_rows(&s.by_seat, "seat"));
    page.pre(summary::seat_effect(&s, seated).trim_end());

    let seasons = run.join("seasons.parquet");
    if seasons.exists() {
        let (size, gold) = season_series(&seasons).map_err(|e| Error::input(format!("{}: {e}", seasons.display())))?;
        page.h2("Empire size over the seasons");
        page.chart(
            out,
            "empire-size",
            &Chart::Lines {
                title: "Empire size by season (mean, 10–90% band)".into(),
                x_label: "season".into(),
                y_label: "empire size".into(),
                series: size,
            },
            "Mean empire size at the end of each season per strategy; the band holds the middle 80% of players.",
        )?;
        page.h2("Gold sources over the seasons");
        page.chart(
            out,
            "gold-sources",
            &Chart::Lines {
                title: "Gold earned so far, by source (mean per player)".into(),
                x_label: "season".into(),
                y_label: "gold".into(),
                series: gold,
            },
            "Mines (E-15), pillage (E-09) and loot (victories, pillaged cities, stolen gold), summed from the start.",
        )?;
    } else {
        page.h2("Seasons");
        page.p("This run has no seasons.parquet: run it with --detail seasons for the charts over the seasons.");
    }

    page.h2("End reasons");
    let n = s.campaigns as f64;
    let ends: Vec<Bar> = s
        .end_reasons
        .iter()
        .map(|(r, k)| {
            let (lo, hi) = wilson(*k as f64, n, 0.95);
            Bar { label: r.clone(), value: *k as f64 / n.max(1.0), low: lo, high: hi }
        })
        .collect();
    page.chart(
        out,
        "end-reasons",
        &Chart::Bars {
            title: "How campaigns end (share, 95% interval)".into(),
            y_label: "share (%)".into(),
            bars: ends,
            reference: None,
        },
        "Share of campaigns by end reason.",
    )?;

    page.h2("Exact siege and naval tables");
    let (siege, naval) = exact_heatmaps(&sc);
    page.chart(out, "siege-exact", &siege, SIEGE_EXACT_CAPTION)?;
    page.chart(
        out,
        "naval-exact",
        &naval,
        "Exact (Markov chain): the chance the attacker sinks the whole enemy fleet.",
    )?;

    let cov = &m.coverage;
    if !cov.by_strategy.is_empty() {
        page.h2("Mechanics coverage");
        let names: Vec<String> = cov.by_strategy.keys().cloned().collect();
        let mut rows =
            vec![std::iter::once("mechanic".to_string()).chain(names.iter().cloned()).chain(["all".into()]).collect()];
        for (label, what) in super::coverage::ROWS {
            let mut r = vec![label.trim().to_string()];
            for nme in &names {
                r.push(super::coverage::count(cov, Some(nme), *what).to_string());
            }
            let all = super::coverage::count(cov, None, *what);
            r.push(if all == 0 { "NEVER".into() } else { all.to_string() });
            rows.push(r);
        }
        page.table(&rows);
    }

    page.h2("Provenance");
    page.table(&provenance(&m));
    let mut files = page.files();
    page.finish(out)?;
    files.push("index.html".into());
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::wall_time;
    use serde_json::json;

    /// The page shows a wall time with the digits it carries, not the
    /// manifest's float (`1.8158803460000001 s`), and a resumed run's kept
    /// campaigns beside it.
    #[test]
    fn the_wall_time_reads_as_seconds() {
        assert_eq!(wall_time(&json!({"wall_seconds": 1.8158803460000001, "resumed_campaigns": 0})), "1.82 s");
        assert_eq!(
            wall_time(&json!({"wall_seconds": 10.9, "resumed_campaigns": 22528})),
            "10.9 s (after resuming 22528 campaigns played before)"
        );
        assert_eq!(wall_time(&json!({"wall_seconds": 2.5})), "2.50 s");
    }
}
