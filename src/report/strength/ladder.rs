//! What `empires ladder` writes: the ranked ratings, the pairwise
//! differences and the head-to-head shares, as text, parquet and an HTML
//! page.

use crate::error::Error;
use crate::report::charts::{Bar, Chart};
use crate::report::dataset::write_parquet;
use crate::report::html::Page;
use crate::report::number::p_is;
use crate::report::table::{pct, share_matrix, text_table};
use crate::strength::ladder::{Group, Ladder};
use polars::prelude::*;
use std::fmt::Write;
use std::path::Path;

fn signed(x: f64) -> String {
    format!("{x:+.0}")
}

/// The ranked table: header first.
pub fn ladder_rows(l: &Ladder) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "rank".to_string(),
        "strategy".into(),
        "rating".into(),
        "95% interval".into(),
        "campaigns".into(),
        "won".into(),
    ]];
    for (i, r) in l.ranked.iter().enumerate() {
        rows.push(vec![
            (i + 1).to_string(),
            r.name.clone(),
            signed(r.rating),
            if r.name == l.anchor { "(anchor)".into() } else { format!("[{}, {}]", signed(r.low), signed(r.high)) },
            r.campaigns.to_string(),
            pct(r.wins as f64 / r.campaigns as f64),
        ]);
    }
    rows
}

/// Row strategy's share of wins against the column strategy, by rank order.
fn pair_matrix(l: &Ladder) -> (Vec<String>, Vec<Vec<f64>>) {
    let order: Vec<usize> = l.ranked.iter().map(|r| l.names.iter().position(|n| n == &r.name).unwrap_or(0)).collect();
    let rate = |i: usize, j: usize| -> f64 {
        l.pairs
            .iter()
            .find_map(|p| {
                if p.a == i && p.b == j {
                    Some(p.rate_a().0)
                } else if p.a == j && p.b == i {
                    Some(1.0 - p.rate_a().0)
                } else {
                    None
                }
            })
            .unwrap_or(f64::NAN)
    };
    let names = order.iter().map(|&i| l.names[i].clone()).collect();
    let grid = order.iter().map(|&i| order.iter().map(|&j| rate(i, j)).collect()).collect();
    (names, grid)
}

pub fn ladder_text(l: &Ladder) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ladder: {} strategies, every pair {} campaigns on master seed {}, {} seats split between the two, rotated",
        l.names.len(),
        l.campaigns,
        l.seed,
        l.seats
    );
    let _ = writeln!(
        out,
        "  Bradley–Terry ratings on the Elo scale ({} = 0; +400 is 10-to-1 odds between equal sides), 95% intervals \
         from {} bootstrap resamples of the campaigns",
        l.anchor, l.bootstrap
    );
    out.push_str(&text_table(&ladder_rows(l)));
    out.push_str(&fit_line(l));
    let _ = writeln!(
        out,
        "\nevery pair's rating difference (row minus column strategy), 95% intervals from the same bootstrap; \
         \"stronger\" holds a 5% family-wise error over the {} pairs (Holm):",
        l.differences.len()
    );
    out.push_str(&text_table(&difference_rows(l)));
    let (names, grid) = pair_matrix(l);
    let _ = writeln!(out, "\nrow's share of the wins against column:");
    out.push_str(&share_matrix(&names, &grid));
    // The matrix rounds; a claim about one pair needs its count and
    // interval.
    let _ = writeln!(out, "\neach pair, the first side's share of the wins (Wilson 95% interval):");
    for p in &l.pairs {
        let (r, lo, hi) = p.rate_a();
        let _ = writeln!(
            out,
            "  {} against {}: {:.1}% [{:.1}, {:.1}], {} of {} campaigns",
            l.names[p.a],
            l.names[p.b],
            100.0 * r,
            100.0 * lo,
            100.0 * hi,
            p.wins_a(),
            p.campaigns()
        );
    }
    out
}

/// The model's goodness of fit, and the warning when it does not fit.
pub fn fit_line(l: &Ladder) -> String {
    let f = &l.fit;
    let mut out = format!(
        "  fit of the Bradley–Terry model to the pair tables: Pearson X² = {:.1} on {} d.f., {}\n",
        f.x2,
        f.df,
        if f.p.is_nan() { "no test (no degree of freedom)".to_string() } else { p_is(f.p) }
    );
    if !f.fits() {
        out += "  WARNING: the model does not fit (p < 0.05): the ratings are a summary only, not a scale on which \
                every pair's odds can be read; who beats whom is in the pair table below\n";
    }
    out
}

/// Every pair's rating difference: header first.
pub fn difference_rows(l: &Ladder) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "strategy".to_string(),
        "against".into(),
        "difference".into(),
        "95% interval".into(),
        "p (Holm)".into(),
        "verdict".into(),
    ]];
    for d in &l.differences {
        rows.push(vec![
            d.a.clone(),
            d.b.clone(),
            signed(d.diff),
            format!("[{}, {}]", signed(d.low), signed(d.high)),
            if d.p_holm.is_nan() { "—".into() } else { format!("{:.4}", d.p_holm) },
            if d.stronger() { "stronger".into() } else { "no detectable difference".into() },
        ]);
    }
    rows
}

/// `ladder.parquet` (one row per strategy) and `pairs.parquet` (one row per
/// pair and seating).
pub fn write_ladder_tables(l: &Ladder, dir: &Path) -> PolarsResult<()> {
    let r = &l.ranked;
    let ladder = DataFrame::new(
        r.len(),
        vec![
            Column::new("rank".into(), (1..=r.len() as u32).collect::<Vec<_>>()),
            Column::new("strategy".into(), r.iter().map(|x| x.name.as_str()).collect::<Vec<_>>()),
            Column::new("rating".into(), r.iter().map(|x| x.rating).collect::<Vec<_>>()),
            Column::new("low".into(), r.iter().map(|x| x.low).collect::<Vec<_>>()),
            Column::new("high".into(), r.iter().map(|x| x.high).collect::<Vec<_>>()),
            Column::new("campaigns".into(), r.iter().map(|x| x.campaigns).collect::<Vec<_>>()),
            Column::new("wins".into(), r.iter().map(|x| x.wins).collect::<Vec<_>>()),
        ],
    )?;
    write_parquet(dir, "ladder", ladder)?;
    let d = &l.differences;
    let differences = DataFrame::new(
        d.len(),
        vec![
            Column::new("a".into(), d.iter().map(|x| x.a.as_str()).collect::<Vec<_>>()),
            Column::new("b".into(), d.iter().map(|x| x.b.as_str()).collect::<Vec<_>>()),
            Column::new("difference".into(), d.iter().map(|x| x.diff).collect::<Vec<_>>()),
            Column::new("low".into(), d.iter().map(|x| x.low).collect::<Vec<_>>()),
            Column::new("high".into(), d.iter().map(|x| x.high).collect::<Vec<_>>()),
            Column::new("p".into(), d.iter().map(|x| x.p).collect::<Vec<_>>()),
            Column::new("p_holm".into(), d.iter().map(|x| x.p_holm).collect::<Vec<_>>()),
            Column::new("stronger".into(), d.iter().map(|x| x.stronger()).collect::<Vec<_>>()),
        ],
    )?;
    write_parquet(dir, "differences", differences)?;
    let rows: Vec<(&str, &str, Group)> = l
        .pairs
        .iter()
        .flat_map(|p| p.groups.iter().map(move |g| (l.names[p.a].as_str(), l.names[p.b].as_str(), *g)))
        .collect();
    let pairs = DataFrame::new(
        rows.len(),
        vec![
            Column::new("a".into(), rows.iter().map(|x| x.0).collect::<Vec<_>>()),
            Column::new("b".into(), rows.iter().map(|x| x.1).collect::<Vec<_>>()),
            Column::new("seats_a".into(), rows.iter().map(|x| x.2.seats_a).collect::<Vec<_>>()),
            Column::new("seats_b".into(), rows.iter().map(|x| x.2.seats_b).collect::<Vec<_>>()),
            Column::new("campaigns".into(), rows.iter().map(|x| x.2.campaigns).collect::<Vec<_>>()),
            Column::new("wins_a".into(), rows.iter().map(|x| x.2.wins_a).collect::<Vec<_>>()),
        ],
    )?;
    write_parquet(dir, "pairs", pairs)
}

pub fn ladder_page(l: &Ladder, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new("empires ladder");
    let order: Vec<String> =
        l.ranked.iter().map(|r| format!("{} {:+.0} ({:+.0} to {:+.0})", r.name, r.rating, r.low, r.high)).collect();
    page.answer(&format!(
        "Strongest first, in Elo points against {} (95% bootstrap intervals; {} campaigns a pair, master seed {}): {}.",
        l.anchor,
        l.campaigns,
        l.seed,
        order.join(", ")
    ));
    page.pre(text.lines().take(2).collect::<Vec<_>>().join("\n").as_str());
    let bars: Vec<Bar> =
        l.ranked.iter().map(|r| Bar { label: r.name.clone(), value: r.rating, low: r.low, high: r.high }).collect();
    page.chart(
        dir,
        "ladder",
        &Chart::Bars { title: "Ratings (Elo scale)".into(), y_label: "rating".into(), bars, reference: None },
        &format!("Bradley–Terry ratings with bootstrap 95% intervals; {} is 0.", l.anchor),
    )?;
    page.table(&ladder_rows(l));
    page.pre(&fit_line(l));
    page.h2("Every pair's rating difference");
    page.p("Row strategy minus column strategy, with 95% intervals from the bootstrap over campaigns (shared by every pair); \"stronger\" holds a 5% family-wise error over all pairs (Holm).");
    page.table(&difference_rows(l));
    let (names, grid) = pair_matrix(l);
    page.chart(
        dir,
        "pairs",
        &Chart::Heatmap {
            title: "Row's share of the wins against column".into(),
            x_label: "against".into(),
            y_label: "strategy".into(),
            xs: names.clone(),
            ys: names,
            rows: grid,
            percent: true,
            intervals: Vec::new(),
            sides: None,
        },
        "Each cell is one pair's campaigns, seats split between the two and rotated.",
    )?;
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}
