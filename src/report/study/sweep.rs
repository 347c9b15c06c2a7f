//! The text and page of `empires sweep`: every cell of a grid of scenario
//! values on the same seeds, each against the first cell, as a line with
//! its band for one key and a heatmap a metric for two.

use super::metrics::{definitions, fmt, rests_on};
use super::paired::{columns_note, diff_cells, diff_head, verdicts_note};
use crate::error::Error;
use crate::report::charts::{Chart, Series};
use crate::report::html::Page;
use crate::report::table::text_table;
use crate::stats::Mean;
use crate::study::metrics::Metric;
use crate::study::sweep::Sweep;
use std::fmt::Write;
use std::path::Path;

fn mean_cell(m: &Metric, v: &Mean) -> String {
    format!("{} ({} to {})", fmt(m, v.mean), fmt(m, v.low), fmt(m, v.high))
}

pub fn sweep_rows(s: &Sweep) -> Vec<Vec<String>> {
    let mut head: Vec<String> = s.axes.iter().map(|a| a.key.clone()).collect();
    head.extend(s.metrics.iter().map(|m| m.name()));
    let mut rows = vec![head];
    for c in &s.cells {
        let mut r = c.at.clone();
        r.extend(s.metrics.iter().zip(&c.values).map(|(m, v)| mean_cell(m, v)));
        rows.push(r);
    }
    rows
}

pub fn sweep_text(s: &Sweep) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "sweep over {}: {} campaigns per cell on master seed {} (the same seeds in every cell); mean (95% interval)\n",
        s.axes.iter().map(|a| a.key.as_str()).collect::<Vec<_>>().join(" × "),
        s.campaigns,
        s.seed
    );
    // The chosen metrics only, to keep the text narrow; the page has every metric.
    let keep = &s.chosen;
    let mut rows = Vec::new();
    for (i, r) in sweep_rows(s).into_iter().enumerate() {
        let _ = i;
        let mut row: Vec<String> = r[..s.axes.len()].to_vec();
        row.extend(keep.iter().map(|&j| r[s.axes.len() + j].clone()));
        rows.push(row);
    }
    out.push_str(&text_table(&rows));
    if s.cells.len() > 1 {
        let _ = writeln!(out, "\nagainst the first cell ({}), paired campaign by campaign:", cell_name(s, 0));
        out.push_str(&text_table(&against_rows(s, keep)));
        out.push_str(&columns_note(&against(s, keep), false));
        out.push_str(&verdicts_note(&s.verdicts_line()));
    }
    out.push_str(&definitions(keep.iter().map(|&j| &s.metrics[j])));
    out.push_str(&rests_on(keep.iter().map(|&j| &s.metrics[j])));
    out
}

/// The rows against the first cell that `against_rows` shows.
fn against(s: &Sweep, keep: &[usize]) -> Vec<crate::study::compare::Row> {
    let shown = |r: &&crate::study::compare::Row| keep.iter().any(|&j| s.metrics[j] == r.metric);
    s.cells.iter().skip(1).flat_map(|c| c.against.iter().filter(shown).cloned()).collect()
}

/// `costs.capture=2, costs.pillage=1`: a cell by its values.
pub fn cell_name(s: &Sweep, i: usize) -> String {
    s.axes.iter().zip(&s.cells[i].at).map(|(a, v)| format!("{}={v}", a.key)).collect::<Vec<_>>().join(", ")
}

/// Every cell but the first against the first, for the metrics `keep`
/// (indices into `s.metrics`): header first.
pub fn against_rows(s: &Sweep, keep: &[usize]) -> Vec<Vec<String>> {
    let mut head = vec!["cell".to_string(), "metric".into()];
    head.extend(diff_head("difference"));
    let mut out = vec![head];
    for (i, c) in s.cells.iter().enumerate().skip(1) {
        for r in c.against.iter().filter(|r| keep.iter().any(|&j| s.metrics[j] == r.metric)) {
            let mut row = vec![cell_name(s, i), r.metric.name()];
            row.extend(diff_cells(r));
            out.push(row);
        }
    }
    out
}

/// `best`: what `--best-response` tuned, as for `compare_page`.
pub fn sweep_page(s: &Sweep, dir: &Path, best: Option<&str>) -> Result<Vec<String>, Error> {
    let keys: Vec<&str> = s.axes.iter().map(|a| a.key.as_str()).collect();
    let mut page = Page::new(&format!("empires sweep: {}", keys.join(" × ")));
    page.answer(&super::shift::sweep_answer(s));
    page.p(&format!(
        "Each cell played {} campaigns on master seed {}: the same seeds in every cell. Means with 95% intervals \
         (Wilson for win rates).",
        s.campaigns, s.seed
    ));
    if let Some(b) = best {
        page.pre(b);
    }
    let wins = &s.chosen;
    let rates = wins.iter().all(|&j| s.metrics[j].is_rate());
    if s.axes.len() == 1 {
        // A line with its interval band per strategy; x is the value's
        // position unless every value is a number.
        let a = &s.axes[0];
        let numbers = a.values.iter().map(|v| v.parse::<f64>()).collect::<Result<Vec<_>, _>>().ok();
        let xs: Vec<f64> = numbers.clone().unwrap_or_else(|| (0..a.values.len()).map(|i| i as f64).collect());
        let series = wins
            .iter()
            .map(|&j| Series {
                name: s.metrics[j].name(),
                points: s.cells.iter().zip(&xs).map(|(c, &x)| (x, c.values[j].mean)).collect(),
                band: Some(s.cells.iter().zip(&xs).map(|(c, &x)| (x, c.values[j].low, c.values[j].high)).collect()),
            })
            .collect();
        page.h2("The chosen metrics by value");
        page.chart(
            dir,
            "sweep-line",
            &if numbers.is_some() {
                Chart::Lines {
                    title: format!("Against {} (95% band)", a.key),
                    x_label: a.key.clone(),
                    y_label: if rates { "rate (%)".into() } else { "value".into() },
                    series,
                }
            } else {
                Chart::Categories {
                    title: format!("At each value of {} (95% intervals)", a.key),
                    x_label: a.key.clone(),
                    y_label: if rates { "rate (%)".into() } else { "value".into() },
                    categories: a.values.clone(),
                    series,
                }
            },
            &format!("Values: {}", a.values.join(", ")),
        )?;
    } else {
        page.h2("The chosen metrics over the grid");
        for (n, &j) in wins.iter().enumerate() {
            let (a, b) = (&s.axes[0], &s.axes[1]);
            // One grid, row by row of the second key: each cell's value, and
            // its 95% interval printed under it, as the table gives it.
            let rate = s.metrics[j].is_rate();
            let grid = |f: &dyn Fn(Option<&crate::study::sweep::Cell>) -> (f64, String)| -> Vec<Vec<(f64, String)>> {
                b.values
                    .iter()
                    .map(|vb| {
                        a.values.iter().map(|va| f(s.cells.iter().find(|c| &c.at[0] == va && &c.at[1] == vb))).collect()
                    })
                    .collect()
            };
            let cells = grid(&|c| match c {
                None => (f64::NAN, String::new()),
                Some(c) => {
                    let m = &c.values[j];
                    let ci = if rate {
                        format!("{:.0}–{:.0}", 100.0 * m.low + 0.0, 100.0 * m.high + 0.0)
                    } else {
                        format!("{:.2}–{:.2}", m.low + 0.0, m.high + 0.0)
                    };
                    (m.mean, ci)
                }
            });
            let rows = cells.iter().map(|r| r.iter().map(|c| c.0).collect()).collect();
            let intervals = cells.iter().map(|r| r.iter().map(|c| c.1.clone()).collect()).collect();
            page.chart(
                dir,
                &format!("sweep-heatmap-{n}"),
                &Chart::Heatmap {
                    title: if s.metrics[j].is_rate() {
                        format!("{}, %", s.metrics[j].name())
                    } else {
                        s.metrics[j].name()
                    },
                    x_label: a.key.clone(),
                    y_label: b.key.clone(),
                    xs: a.values.clone(),
                    ys: b.values.clone(),
                    rows,
                    percent: s.metrics[j].is_rate(),
                    intervals,
                    sides: None,
                },
                &format!("{} for each pair of values, with its 95% interval under it.", s.metrics[j].name()),
            )?;
        }
    }
    page.h2("Every metric");
    page.table(&sweep_rows(s));
    for note in [definitions(&s.metrics), rests_on(&s.metrics)] {
        if !note.is_empty() {
            page.p(&note);
        }
    }
    if s.cells.len() > 1 {
        page.h2("Every metric against the first cell");
        page.p(&verdicts_note(&s.verdicts_line()));
        let every: Vec<usize> = (0..s.metrics.len()).collect();
        page.table(&against_rows(s, &every));
        let columns = columns_note(&against(s, &every), false);
        if !columns.is_empty() {
            page.p(&columns);
        }
    }
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}
