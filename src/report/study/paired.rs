//! A paired comparison as shown: a row a metric (both variants, the
//! difference with its interval, the adjusted p-value, the smallest
//! difference detectable and the verdict), the notes under such a table,
//! and its differences as bars. Compare, the sweep's cells against its
//! first and the mine-against-pillage variants all show their
//! `compare::Row`s, so they read alike.

use super::metrics::{fmt_diff, mean_cell, needs};
use crate::report::charts::Bar;
use crate::report::number::p_value as p_cell;
use crate::study::compare::Row;
use crate::study::metrics::Metric;

/// The verdict of one paired row: "higher" or "lower" only when the
/// adjusted test rejects (the output's correction, at `compare::ALPHA`).
pub fn verdict(r: &Row) -> String {
    if r.rejected() {
        if r.diff.mean > 0.0 { "higher".into() } else { "lower".into() }
    } else if r.undetected() {
        format!("no detectable difference at {} campaigns", r.diff.n)
    } else {
        "not significant after adjustment".into()
    }
}

/// The table of paired rows, as rows of strings.
pub fn paired_rows(rows: &[Row], a: &str, b: &str) -> Vec<Vec<String>> {
    let mut head = vec!["metric".to_string(), a.to_string(), b.to_string()];
    head.extend(diff_head(&format!("{b} − {a}")));
    let mut out = vec![head];
    for r in rows {
        let mut row =
            vec![r.metric.name(), mean_cell(&r.metric, &r.a, r.campaigns), mean_cell(&r.metric, &r.b, r.campaigns)];
        row.extend(diff_cells(r));
        out.push(row);
    }
    out
}

/// The headers of `diff_cells`, the first named `first`: every table of
/// paired rows ends in the same five columns, whatever it shows before.
pub fn diff_head(first: &str) -> Vec<String> {
    [first, "95% interval", "adjusted p", "detectable at 80% power", "verdict"].map(String::from).to_vec()
}

/// A paired row's difference (and, when fewer than all campaigns have the
/// metric in both variants, how many it is paired over), its interval,
/// adjusted p-value, what is detectable and verdict.
pub fn diff_cells(r: &Row) -> Vec<String> {
    vec![
        diff_cell(r),
        format!("{} to {}", fmt_diff(&r.metric, r.diff.low), fmt_diff(&r.metric, r.diff.high)),
        p_cell(r.p_adj),
        detectable_cell(r),
        verdict(r),
    ]
}

/// `-1.4 pts`, or `-1.4 pts (paired over the 328 campaigns with a siege in
/// both)` when the metric is missing from some campaigns: the difference is
/// then over fewer campaigns than either side's mean, and can differ from
/// one mean minus the other.
fn diff_cell(r: &Row) -> String {
    let d = fmt_diff(&r.metric, r.diff.mean);
    if r.diff.n < r.campaigns {
        format!("{d} (paired over the {} campaigns with {} in both)", r.diff.n, needs(&r.metric))
    } else {
        d
    }
}

/// `±4.5 pts`; `±4.5 pts if reshuffled` when every paired difference is
/// the same (the paired figure would be ±0); `—` when no campaign's value
/// varies in either variant (nothing can be detected).
fn detectable_cell(r: &Row) -> String {
    if !(r.detectable > 0.0) {
        return "— (no campaign varies)".into();
    }
    let d = format!("±{}", fmt_diff(&r.metric, r.detectable).trim_start_matches('+'));
    if r.reshuffled { format!("{d} if reshuffled") } else { d }
}

/// What "if reshuffled" means, when a row of `rows` says it.
pub fn reshuffled_note(rows: &[Row]) -> String {
    if rows.iter().any(|r| r.reshuffled) {
        "\"if reshuffled\": every campaign gave B the same value as A (the change touched nothing these players do), \
         so the paired test cannot detect anything; the figure is what a change that reshuffled every campaign would \
         need, from A's and B's spreads\n"
            .into()
    } else {
        String::new()
    }
}

/// What the value columns of `rows` mean, under their table: each side's
/// mean with its interval over all its campaigns with the metric, and,
/// when a row's metric is missing from some campaigns, why its difference
/// is paired over fewer. `sides`: the table shows each side's mean (not
/// only the difference, as the sweep's table against its first cell).
pub fn columns_note(rows: &[Row], sides: bool) -> String {
    let partial = rows.iter().any(|r| r.a.n.min(r.b.n).min(r.diff.n) < r.campaigns);
    let mut said = Vec::new();
    if sides {
        said.push(
            "each side's column is its mean over its campaigns with its 95% interval, the campaign as the unit"
                .to_string(),
        );
    }
    if partial {
        said.push(format!(
            "a metric a campaign can lack (a combat's attacker win rate without such a combat, a share without gold) \
             is {}paired over the campaigns with it on both sides, as many as its cells say, so a difference can \
             differ from one side's mean minus the other's",
            if sides { "averaged on each side over all the campaigns that have it and " } else { "" }
        ));
    }
    if said.is_empty() { String::new() } else { said.join("; ") + "\n" }
}

/// What the verdict columns mean, under a table of paired rows.
pub fn verdicts_note(line: &str) -> String {
    format!(
        "{line}; each interval is the unadjusted 95% one, \"adjusted p\" is the p-value after the adjustment, and \
         \"higher\"/\"lower\" appear only where it is at most {:.0}%{}\n",
        100.0 * crate::study::compare::ALPHA,
        if line.contains("Holm") {
            "; \"detectable\" is the smallest true difference found with 80% power at the level of Holm's first step"
        } else if line.contains("Benjamini") {
            "; \"detectable\" is the smallest true difference found with 80% power at the level of \
             Benjamini–Hochberg's strictest step (5% over the number of tests)"
        } else {
            ""
        }
    )
}

/// The bars of the rows whose metric `pick` keeps, each difference with
/// its interval; "win rate: " is left off the labels, since the chart's
/// title says it.
pub fn diff_bars(rows: &[Row], pick: impl Fn(&Metric) -> bool) -> Vec<Bar> {
    rows.iter()
        .filter(|r| pick(&r.metric))
        .map(|r| Bar {
            label: r.metric.name().replace("win rate: ", ""),
            value: r.diff.mean,
            low: r.diff.low,
            high: r.diff.high,
        })
        .collect()
}
