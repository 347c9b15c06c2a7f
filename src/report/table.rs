//! Rows of cells as aligned text, and the cells that tables of every kind
//! share. A table is built once as rows of strings, header first, so the
//! terminal shows it with `text_table` and a page with `html::Page::table`.

use std::fmt::Write;

/// A p-value in a table cell: four decimals, scientific when small.
pub fn p_cell(p: f64) -> String {
    if !p.is_finite() {
        "—".into()
    } else if p == 0.0 {
        "< 1e-300".into()
    } else if p < 1e-3 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// `23.2% [21.5, 25.2]`: wins of `n` campaigns with the Wilson 95% interval.
pub fn win_rate(wins: u64, n: u64) -> String {
    let (lo, hi) = crate::stats::wilson(wins as f64, n as f64, 0.95);
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * wins as f64 / n as f64, 100.0 * lo, 100.0 * hi)
}

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
