//! What `empires metagame` writes: `payoffs.parquet`, `metagame.json`, the
//! text summary and `index.html` with the payoff heatmap and the
//! equilibrium and α-rank bars.

use super::charts::{Bar, Chart};
use super::dataset::write_parquet;
use super::html::Page;
use super::table::{pct, share_matrix, text_table};
use crate::error::Error;
use crate::strength::metagame::{Composition, Metagame, Resampled};
use polars::prelude::*;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// A composition in words: `balanced×2 random×2`.
pub fn composition_name(names: &[String], counts: &[u32]) -> String {
    counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| format!("{}×{c}", names[i]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the bootstrap resamples gave for one mass, in words: how often it
/// is in the support and the middle 95% of the resampled masses, or, on
/// the edge (every resample in the middle 95% the same), how many gave it.
/// Never a degenerate interval such as "[100.0%, 100.0%]".
pub fn resampled_text(r: &Resampled, support: bool) -> String {
    if r.degenerate() {
        return format!("{} in {} of {} resamples", pct(r.low), r.at_estimate, r.of);
    }
    let spread = format!("resampled {} to {}", pct(r.low), pct(r.high));
    if support { format!("{spread}; in the support in {} of {}", r.in_support, r.of) } else { spread }
}

/// The masses as rows: header first.
pub fn mass_rows(mg: &Metagame) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "strategy".to_string(),
        "equilibrium".into(),
        "bootstrap".into(),
        "α-rank".into(),
        "bootstrap".into(),
        "never a best response".into(),
    ]];
    let mut order: Vec<usize> = (0..mg.names.len()).collect();
    order.sort_by(|&a, &b| {
        mg.equilibrium[b].total_cmp(&mg.equilibrium[a]).then(mg.alpha_rank[b].total_cmp(&mg.alpha_rank[a]))
    });
    for i in order {
        rows.push(vec![
            mg.names[i].clone(),
            pct(mg.equilibrium[i]),
            resampled_text(&mg.equilibrium_boot[i], true),
            pct(mg.alpha_rank[i]),
            resampled_text(&mg.alpha_rank_boot[i], false),
            if mg.never_best[i] { "yes".into() } else { String::new() },
        ]);
    }
    rows
}

/// Head-to-head shares: row's wins over row's and column's wins.
fn head_to_head(mg: &Metagame) -> Vec<Vec<f64>> {
    let k = mg.names.len();
    (0..k)
        .map(|a| {
            (0..k)
                .map(|b| {
                    if a == b {
                        return f64::NAN;
                    }
                    let (w, n) = mg.game.head_to_head(a, b);
                    if n == 0 { f64::NAN } else { w as f64 / n as f64 }
                })
                .collect()
        })
        .collect()
}

pub fn text(mg: &Metagame) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "metagame: {} strategies over {} seats: {} compositions × {} campaigns on master seed {} (the same campaigns \
         for every composition), seats rotated",
        mg.names.len(),
        mg.seats,
        mg.game.compositions().len(),
        mg.campaigns,
        mg.seed
    );
    let _ = writeln!(
        out,
        "  symmetric Nash equilibrium by replicator dynamics (regret {:.5}); α-rank with α = {}, population {}; \
         bootstrap: what {} resamples of the campaigns gave (how often a strategy is in the equilibrium's support, \
         and the middle 95% of its resampled masses; a mass on the edge, 0% or 100%, has no valid percentile \
         interval, so there the count of resamples that gave it); never a best response: a test at every lineup, \
         family-wise error 5%",
        mg.regret, mg.alpha, mg.population, mg.bootstrap
    );
    out.push_str(&text_table(&mass_rows(mg)));
    let _ = writeln!(out, "\nfindings:");
    for f in mg.findings() {
        let _ = writeln!(out, "  - {f}");
    }
    let grid = head_to_head(mg);
    let _ = writeln!(out, "\nhead to head (row's share of the wins against column, seats split between the two):");
    out.push_str(&share_matrix(&mg.names, &grid));
    out
}

/// `metagame.json`.
pub fn json(mg: &Metagame) -> serde_json::Value {
    let map = |xs: &[f64]| -> serde_json::Map<String, serde_json::Value> {
        mg.names.iter().zip(xs).map(|(n, x)| (n.clone(), json!(x))).collect()
    };
    let boot = |r: &Resampled| {
        json!({
            "middle_95_of_resamples": [r.low, r.high],
            "resamples_in_support": r.in_support,
            "resamples_at_estimate": r.at_estimate,
            "resamples": r.of,
        })
    };
    let intervals: serde_json::Map<String, serde_json::Value> = mg
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            (
                n.clone(),
                json!({
                    "equilibrium": boot(&mg.equilibrium_boot[i]),
                    "alpha_rank": boot(&mg.alpha_rank_boot[i]),
                }),
            )
        })
        .collect();
    json!({
        "strategies": mg.names,
        "equilibrium": map(&mg.equilibrium),
        "equilibrium_regret": mg.regret,
        "alpha_rank": map(&mg.alpha_rank),
        "alpha": mg.alpha,
        "population": mg.population,
        "never_best_response": (0..mg.names.len()).filter(|&i| mg.never_best[i]).map(|i| mg.names[i].clone()).collect::<Vec<_>>(),
        "equilibria_found": mg.equilibria.iter().map(|s| map(s)).collect::<Vec<_>>(),
        "equilibrium_search_starts": mg.starts,
        "bootstrap_resamples": intervals,
        "bootstrap": mg.bootstrap,
        "findings": mg.findings(),
        "seats": mg.seats,
        "seed": mg.seed,
        "campaigns_per_composition": mg.campaigns,
        "compositions": mg.game.compositions().len(),
    })
}

/// `payoffs.parquet`: one row per composition and strategy in it. The
/// compositions are numbered in `multisets` order from `first` (a shard
/// writes its own part of the numbering).
pub fn write_payoffs(names: &[String], comps: &[Composition], first: usize, dir: &Path) -> PolarsResult<()> {
    let (mut index, mut comp, mut strategy, mut count, mut campaigns, mut wins, mut rate) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (j, c) in comps.iter().enumerate() {
        let name = composition_name(names, &c.counts);
        for (i, &n) in c.counts.iter().enumerate() {
            if n > 0 {
                index.push((first + j) as u32);
                comp.push(name.clone());
                strategy.push(names[i].clone());
                count.push(n);
                campaigns.push(c.campaigns);
                wins.push(c.wins[i]);
                rate.push(c.payoff(i));
            }
        }
    }
    let df = DataFrame::new(
        comp.len(),
        vec![
            Column::new("composition_index".into(), index),
            Column::new("composition".into(), comp),
            Column::new("strategy".into(), strategy),
            Column::new("seats".into(), count),
            Column::new("campaigns".into(), campaigns),
            Column::new("wins".into(), wins),
            Column::new("win_rate".into(), rate),
        ],
    )?;
    write_parquet(dir, "payoffs", df)
}

/// The compositions of a `payoffs.parquet`, with their index, for `names`.
pub fn read_payoffs(path: &Path, names: &[String]) -> Result<Vec<(usize, Composition)>, Error> {
    let f = std::fs::File::open(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let df = ParquetReader::new(f).finish().map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let col = |n: &str| df.column(n).map_err(|e| Error::input(format!("{}: {e}", path.display())));
    let index = col("composition_index")?.u32().map_err(|e| Error::input(e.to_string()))?.clone();
    let strategy = col("strategy")?.str().map_err(|e| Error::input(e.to_string()))?.clone();
    let seats = col("seats")?.u32().map_err(|e| Error::input(e.to_string()))?.clone();
    let campaigns = col("campaigns")?.u64().map_err(|e| Error::input(e.to_string()))?.clone();
    let wins = col("wins")?.u64().map_err(|e| Error::input(e.to_string()))?.clone();
    let mut out: std::collections::BTreeMap<usize, Composition> = std::collections::BTreeMap::new();
    for r in 0..df.height() {
        let (Some(ix), Some(s), Some(n), Some(c), Some(w)) =
            (index.get(r), strategy.get(r), seats.get(r), campaigns.get(r), wins.get(r))
        else {
            return Err(Error::input(format!("{}: row {r} has an empty cell", path.display())));
        };
        let i = names
            .iter()
            .position(|x| x == s)
            .ok_or_else(|| Error::input(format!("{}: unknown strategy {s:?}", path.display())))?;
        let e = out.entry(ix as usize).or_insert_with(|| Composition {
            counts: vec![0; names.len()],
            campaigns: c,
            wins: vec![0; names.len()],
        });
        e.counts[i] = n;
        e.wins[i] = w;
    }
    Ok(out.into_iter().collect())
}

pub fn page(mg: &Metagame, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new("empires metagame");
    page.answer(&mg.findings().into_iter().take(2).collect::<Vec<_>>().join(" "));
    page.pre(text.lines().take(2).collect::<Vec<_>>().join("\n").as_str());
    page.h2("Findings");
    for f in mg.findings() {
        page.p(&f);
    }
    let bars = |xs: &[f64], ci: &[(f64, f64)]| -> Vec<Bar> {
        mg.names
            .iter()
            .enumerate()
            .map(|(i, n)| Bar { label: n.clone(), value: xs[i], low: ci[i].0, high: ci[i].1 })
            .collect()
    };
    page.chart(
        dir,
        "equilibrium",
        &Chart::Bars {
            title: "Symmetric Nash equilibrium".into(),
            y_label: "probability (%)".into(),
            bars: bars(&mg.equilibrium, &mg.equilibrium_ci),
            reference: None,
        },
        "The mix of strategies no player gains by leaving; whiskers: the middle 95% of the bootstrap resamples (not a confidence interval at 0% or 100%).",
    )?;
    page.chart(
        dir,
        "alpha-rank",
        &Chart::Bars {
            title: "α-rank".into(),
            y_label: "mass (%)".into(),
            bars: bars(&mg.alpha_rank, &mg.alpha_rank_ci),
            reference: None,
        },
        "Where evolution under strong selection spends its time; whiskers: the middle 95% of the bootstrap resamples.",
    )?;
    page.table(&mass_rows(mg));
    page.chart(
        dir,
        "head-to-head",
        &Chart::Heatmap {
            title: "Head to head: row's share of the wins against column".into(),
            x_label: "against".into(),
            y_label: "strategy".into(),
            xs: mg.names.clone(),
            ys: mg.names.clone(),
            rows: head_to_head(mg),
            percent: true,
            intervals: Vec::new(),
            sides: None,
        },
        "From the compositions of only those two strategies, seats split between them.",
    )?;
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}
