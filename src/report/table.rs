//! Rows of cells as aligned text, and the cells that tables of every kind
//! share. A table is built once as rows of strings, header first, so the
//! terminal shows it with `text_table` and a page with `html::Page::table`.

use std::fmt::Write;

/// A share as a percent with one decimal (`crate::text`, where every
/// percent format lives).
pub use super::number::pct;

/// A square table of shares (row against column) as aligned text: whole
/// percents, `-` where there is no value (the diagonal).
pub fn share_matrix(names: &[String], grid: &[Vec<f64>]) -> String {
    let mut rows = vec![std::iter::once(String::new()).chain(names.iter().cloned()).collect::<Vec<_>>()];
    for (n, r) in names.iter().zip(grid) {
        rows.push(
            std::iter::once(n.clone())
                .chain(r.iter().map(|v| if v.is_finite() { format!("{:.0}%", 100.0 * v) } else { "-".into() }))
                .collect(),
        );
    }
    text_table(&rows)
}

/// Rows as aligned text.
pub fn text_table(rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..rows.first().map_or(0, |r| r.len()))
        .map(|j| rows.iter().map(|r| r.get(j).map_or(0, |c| c.chars().count())).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let _ = write!(out, " ");
        for (j, c) in r.iter().enumerate() {
            let pad = widths[j] - c.chars().count();
            if j == 0 {
                let _ = write!(out, " {c}{}", " ".repeat(pad));
            } else {
                let _ = write!(out, "  {}{c}", " ".repeat(pad));
            }
        }
        out.push('\n');
    }
    out
}
