//! Question 3's answer lines: what a rule change moved and what it did
//! not, each built once here and shown word for word as the first line of
//! `compare` and `sweep` in the terminal and as their page's first screen.
//! Every figure is the table's own (the same ± and intervals), and a metric
//! is called moved only where the table's multiple-comparison verdict says
//! "higher" or "lower".

use super::metrics::fmt_diff;
use super::sweep::cell_name;
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
        // A sweep has a count row per cell: a kind is unplayed only where
        // no cell played it.
        let counts: Vec<&&&Row> =
            of.iter().filter(|r| matches!(r.metric, Metric::Combat(_, CombatStat::Count))).collect();
        if counts.is_empty() {
            continue;
        }
        if counts.iter().all(|c| c.a.mean == 0.0 && c.b.mean == 0.0) {
            unplayed.push(k.name());
        } else if of.iter().all(|r| !r.rejected()) {
            still.push(k.name());
        }
    }
    (still, unplayed)
}

/// The compare answer: what B moved against A, what it did not (the win
/// rates with the change the campaigns could have seen, the combat kinds
/// untouched), the kinds neither side played, and the rule parts each
/// side's players never exercised.
pub fn compare_answer(c: &Comparison) -> String {
    // The verdict holds for these players only: name what they never did,
    // so "no shift" there is not read as the rules' answer.
    let never = c.never_played().map_or(String::new(), |l| format!(" {l}."));
    compare_verdict(c) + &never
}

/// Compare's answer before what its players never did.
fn compare_verdict(c: &Comparison) -> String {
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
    let still = still_parts(&rows);
    format!(
        "{LEAD} {}{} ({how}; Holm over {} metrics, family-wise error 5%){}.",
        if k == 0 { "No detectable shift: " } else { "Yes: " },
        moved,
        rows.len(),
        if still.is_empty() { String::new() } else { format!("; {}", still.join("; ")) }
    )
}

/// What did not move, as compare says it: the win rates that did not move
/// with the table's own detectable change, the combat kinds none of whose
/// metrics moved, and the kinds nobody played; empty when all moved.
fn still_parts(rows: &[&Row]) -> Vec<String> {
    let mut still = Vec::new();
    if let Some(w) = win_limits(rows) {
        still.push(format!("the win rates that did not move could hide a change under {w}"));
    }
    let (kinds, unplayed) = combat_kinds(rows);
    if !kinds.is_empty() {
        still.push(format!("no combat metric of {} moved", kinds.join(", ")));
    }
    if !unplayed.is_empty() {
        still.push(format!("{} not played on either side", unplayed.join(", ")));
    }
    still
}

/// The sweep answer: which cells move which metric detectably against the
/// first cell, in the metrics shown, then what did not move (as compare's
/// answer says it, with the ± of the sweep's table).
pub fn sweep_answer(s: &Sweep) -> String {
    let mut parts = Vec::new();
    let mut k = 0;
    let mut all: Vec<&Row> = Vec::new();
    for i in 1..s.cells.len() {
        let rows: Vec<&Row> =
            s.cells[i].against.iter().filter(|r| s.chosen.iter().any(|&j| s.metrics[j] == r.metric)).collect();
        let moved = rows.iter().filter(|r| r.rejected()).count();
        k += moved;
        if moved > 0 && parts.len() < 3 {
            parts.push(format!("at {}: {}", cell_name(s, i), moved_list(&rows, 2)));
        }
        all.extend(rows);
    }
    let first = cell_name(s, 0);
    let how = format!(
        "{} campaigns a cell (master seed {}; Benjamini–Hochberg over {} tests, false discovery rate 5%)",
        s.campaigns,
        s.seed,
        s.tests()
    );
    let still = still_parts(&all);
    let still = if still.is_empty() { String::new() } else { format!("; {}", still.join("; ")) };
    // Each cell's players answer for what they did only: name what each
    // cell's never did, from its own campaigns.
    let names: Vec<String> = (0..s.cells.len()).map(|i| format!("cell {}", cell_name(s, i))).collect();
    let sides: Vec<(&str, &crate::sim::record::Coverage, u64)> =
        s.cells.iter().zip(&names).map(|(c, n)| (n.as_str(), &c.coverage, s.campaigns)).collect();
    let never = crate::study::exercised::sides(&sides).map_or(String::new(), |l| format!(" {l}."));
    if k == 0 {
        format!(
            "{LEAD} No cell differs detectably from the first ({first}) in the metrics shown, at {how}: the key \
             moves them less than these campaigns can see{still}.{never}"
        )
    } else {
        format!(
            "{LEAD} Against the first cell ({first}), {k} differences in the metrics shown are detectable at {how}: \
             {}{still}.{never}",
            parts.join("; ")
        )
    }
}
