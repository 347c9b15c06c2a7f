//! Question 3's answer lines: what a rule change moved and what it did
//! not, each built once here and shown word for word as the first line of
//! `compare` and `sweep` in the terminal and as their page's first screen.
//! Every figure is the table's own (the same ± and intervals), and a metric
//! is called moved only where the table's multiple-comparison verdict says
//! "higher" or "lower".

use super::study::{cell_name, fmt_diff};
use crate::rules::CombatKind;
use crate::study::compare::{Comparison, Row};
use crate::study::metrics::{CombatStat, Metric};
use crate::study::sweep::Sweep;

/// The opening words of question 3's answer.
pub const LEAD: &str = "Question 3, did the change shift the balance?";

/// The rows that moved detectably (the adjusted test rejects), win rates
/// first (what a designer asks first), then smallest adjusted p, as "win rate: miner -9.3 pts (-14.1 pts to -4.6
/// pts)"; at most `top`, then how many more.
fn moved_list(rows: &[&Row], top: usize) -> String {
    let mut rows: Vec<&&Row> = rows.iter().filter(|r| r.rejected()).collect();
    let win = |r: &Row| matches!(r.metric, Metric::WinStrategy(_) | Metric::WinSeat(_));
    rows.sort_by(|a, b| win(b).cmp(&win(a)).then(a.p_adj.total_cmp(&b.p_adj)));
    let shown: Vec<String> = rows
        .iter()
        .take(top)
        .map(|r| {
            format!(
                "{} {} ({} to {})",
                r.metric.name(),
                fmt_diff(&r.metric, r.diff.mean),
                fmt_diff(&r.metric, r.diff.low),
                fmt_diff(&r.metric, r.diff.high)
            )
        })
        .collect();
    let more = rows.len().saturating_sub(top);
    shown.join("; ") + &if more > 0 { format!("; and {more} more in the table") } else { String::new() }
}

/// "±0.5 pts" or "±0.4 to ±0.6 pts": the table's detectable differences
/// of the win rates that did not move; `None` when every one moved.
fn win_limits(rows: &[&Row]) -> Option<String> {
    let win: Vec<f64> = rows
        .iter()
        .filter(|r| matches!(r.metric, Metric::WinStrategy(_) | Metric::WinSeat(_)))
        .filter(|r| !r.rejected() && r.detectable > 0.0)
        .map(|r| 100.0 * r.detectable)
        .collect();
    if win.is_empty() {
        return None;
    }
    let (lo, hi) = win.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
    Some(if format!("{lo:.1}") == format!("{hi:.1}") {
        format!("about ±{lo:.1} points of win rate")
    } else {
        format!("±{lo:.1} to ±{hi:.1} points of win rate")
    })
}

/// The combat kinds by what the change did to them: none of their
/// metrics moved, or neither side played one.
fn combat_kinds(rows: &[&Row]) -> (Vec<&'static str>, Vec<&'static str>) {
    let (mut still, mut unplayed) = (Vec::new(), Vec::new());
    for k in CombatKind::ALL {
        let of: Vec<&&Row> = rows.iter().filter(|r| matches!(r.metric, Metric::Combat(x, _) if x == k)).collect();
        let count = of.iter().find(|r| matches!(r.metric, Metric::Combat(_, CombatStat::Count)));
        match count {
            None => {}
            Some(c) if c.a.mean == 0.0 && c.b.mean == 0.0 => unplayed.push(k.name()),
            Some(_) if of.iter().all(|r| !r.rejected()) => still.push(k.name()),
            Some(_) => {}
        }
    }
    (still, unplayed)
}

/// The compare answer: what B moved against A, what it did not (the win
/// rates with the change the campaigns could have seen, the combat kinds
/// untouched), and the kinds neither side played.
pub fn compare_answer(c: &Comparison) -> String {
    let rows: Vec<&Row> = c.rows.iter().collect();
    let how = format!("{} campaigns each, master seed {}", c.campaigns, c.seed);
    if rows.iter().all(|r| !r.rejected() && r.diff.sd == 0.0 && r.diff.mean == 0.0) {
        return format!(
            "{LEAD} No: {} plays exactly the games of {} ({how}): every metric has the same value in every \
             campaign, so the change touches nothing these players do.",
            c.b_name, c.a_name
        );
    }
    let k = rows.iter().filter(|r| r.rejected()).count();
    let moved = if k == 0 {
        format!("no metric of {} differs detectably from {}", c.b_name, c.a_name)
    } else {
        format!(
            "{} moves {k} of {} metrics detectably against {}: {}",
            c.b_name,
            rows.len(),
            c.a_name,
            moved_list(&rows, 4)
        )
    };
    let mut still = Vec::new();
    if let Some(w) = win_limits(&rows) {
        still.push(format!("the win rates that did not move could hide a change under {w}"));
    }
    let (kinds, unplayed) = combat_kinds(&rows);
    if !kinds.is_empty() {
        still.push(format!("no combat metric of {} moved", kinds.join(", ")));
    }
    if !unplayed.is_empty() {
        still.push(format!("{} not played on either side", unplayed.join(", ")));
    }
    format!(
        "{LEAD} {}{} ({how}; Holm over {} metrics, family-wise error 5%){}.",
        if k == 0 { "No detectable shift: " } else { "Yes: " },
        moved,
        rows.len(),
        if still.is_empty() { String::new() } else { format!("; {}", still.join("; ")) }
    )
}

/// The sweep answer: which cells move which metric detectably against the
/// first cell, in the metrics shown.
pub fn sweep_answer(s: &Sweep) -> String {
    let mut parts = Vec::new();
    let mut k = 0;
    for i in 1..s.cells.len() {
        let rows: Vec<&Row> =
            s.cells[i].against.iter().filter(|r| s.chosen.iter().any(|&j| s.metrics[j] == r.metric)).collect();
        let moved = rows.iter().filter(|r| r.rejected()).count();
        k += moved;
        if moved > 0 && parts.len() < 3 {
            parts.push(format!("at {}: {}", cell_name(s, i), moved_list(&rows, 2)));
        }
    }
    let first = cell_name(s, 0);
    if k == 0 {
        format!(
            "{LEAD} No cell differs detectably from the first ({first}) in the metrics shown, at {} campaigns a cell \
             (master seed {}): the key moves them less than these campaigns can see.",
            s.campaigns, s.seed
        )
    } else {
        format!(
            "{LEAD} Against the first cell ({first}), {k} differences in the metrics shown are detectable at {} \
             campaigns a cell (master seed {}): {}.",
            s.campaigns,
            s.seed,
            parts.join("; ")
        )
    }
}
