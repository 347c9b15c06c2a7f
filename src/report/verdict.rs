//! Question 3's answer lines: what a rule change moved and what it did
//! not, each built once here and shown word for word as the first line of
//! `compare` and `sweep` in the terminal and as their page's first screen.
//! Every figure is the table's own (the same ± and intervals), and a metric
//! is called moved only where the table's multiple-comparison verdict says
//! "higher" or "lower".

use super::study::metrics::fmt_diff;
use super::study::sweep::cell_name;
use crate::report::number::pct_small;
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

/// The opening words of question 1's answer.
pub const MINE_LEAD: &str = "Question 1, is a mine worth more than a pillage (both 1 EP), and from which season on?";

/// "a river mine (70 a payday) beats it when built in seasons 1 to 10,
/// ties in season 11 and pays less in season 12": every season, exactly.
fn mine_seasons(x: &crate::study::mine_pillage::Exact, terrain: &str, y: f64, q: f64) -> String {
    use crate::study::mine_pillage::{against_pillage, seasons_where};
    use std::cmp::Ordering::{Equal, Greater, Less};
    let c = against_pillage(y, x.pillage, q, x.seasons);
    let when = |o, verb: &str| {
        seasons_where(&c, o).map(|s| format!("{verb} in season{} {s}", if s.contains(' ') { "s" } else { "" }))
    };
    let parts: Vec<String> = [when(Greater, "beats it when built"), when(Equal, "ties"), when(Less, "pays less")]
        .into_iter()
        .flatten()
        .collect();
    // The question asks from which season on: the first season from which
    // a pillage is worth at least as much for every later season.
    let from = c.iter().rposition(|o| *o == Greater).map_or(1, |i| i + 2);
    let on = if from as u32 > x.seasons {
        "never worth less than a pillage in this campaign".to_string()
    } else {
        format!("a pillage is worth at least as much from season {from} on")
    };
    format!("a {terrain} mine ({y:.0} a payday) {}: {on}", parts.join(", "))
}

/// What a restricted variant moved in play: the win rates it raised or
/// lowered beyond chance (Holm over the experiment), then how many other
/// metrics moved, or that no win rate did.
fn variant_moves(v: &crate::study::mine_pillage::Variant) -> String {
    let mut won: Vec<&Row> =
        v.rows.iter().filter(|r| matches!(r.metric, Metric::WinStrategy(_)) && r.rejected()).collect();
    won.sort_by(|a, b| a.p_adj.total_cmp(&b.p_adj));
    // The two surest; the table has the rest.
    let said: Vec<String> = won
        .iter()
        .take(2)
        .map(|r| {
            let who = r.metric.name().trim_start_matches("win rate: ").to_string();
            format!(
                "{} {who}'s win rate by {} ({} to {})",
                if r.diff.mean > 0.0 { "raises" } else { "lowers" },
                fmt_diff(&r.metric, r.diff.mean.abs()).trim_start_matches('+'),
                fmt_diff(&r.metric, r.diff.low),
                fmt_diff(&r.metric, r.diff.high)
            )
        })
        .collect();
    let others = v.rows.iter().filter(|r| r.rejected()).count() - said.len();
    let wins = if said.is_empty() { "moves no win rate detectably".to_string() } else { said.join(", ") };
    format!("{} {wins} (and moves {others} more of its {} metrics)", v.name, v.rows.len())
}

/// The answer in play when every seat plays one strategy: each one-player
/// restriction's paired difference with its interval, and a verdict word
/// only where Holm over the restrictions (5% family-wise) rejects "no
/// difference".
fn solo_clause(e: &crate::study::mine_pillage::Experiment) -> String {
    let p: Vec<f64> = e
        .solo
        .iter()
        .map(|s| crate::stats::p_two_sided(s.diff.mean, s.diff.sd / (s.diff.n.max(1) as f64).sqrt()))
        .collect();
    let adjusted = crate::stats::holm(&p);
    let rows: Vec<String> = e
        .solo
        .iter()
        .zip(&adjusted)
        .map(|(s, &p)| {
            let d = &s.diff;
            let word = if p < 0.05 && d.mean < 0.0 {
                "costs wins".to_string()
            } else if p < 0.05 {
                "gains wins".to_string()
            } else {
                // At the level Holm's first step gives one of the
                // family's tests: the power the verdict has, not that of
                // an unadjusted test.
                let se = d.sd / (d.n.max(1) as f64).sqrt();
                format!(
                    "no detectable change (±{:.1} pts detectable at 80% power, Holm's level)",
                    100.0 * crate::stats::detectable_at(se, 0.05 / e.solo.len().max(1) as f64)
                )
            };
            format!("{}: {} pts, {word}", s.name, super::study::mine_pillage::points(d))
        })
        .collect();
    let s = &e.solo[0];
    format!(
        " In play, one {} so restricted against unrestricted copies, paired with the unrestricted {} in the same seat \
         ({} campaigns, master seed {}, seats rotated, Holm 5% family-wise): {}.",
        s.strategy,
        s.strategy,
        s.campaigns,
        e.seed,
        rows.join("; ")
    )
}

/// Question 1's one answer line, the first line of `experiment
/// mine-vs-pillage` and its page: every section's result in its own words,
/// so the line agrees with each. The exact gold per EP (section 1, at the
/// measured loss chance when there is one); what forbidding pillage or
/// mines moves in play (section 2); what building a mine first costs or
/// gains under the shipped reading (section 4); and whose play it is (the
/// players' competence check).
pub fn mine_answer(e: &crate::study::mine_pillage::Experiment) -> String {
    let x = &e.exact;
    let (q, at) = match &e.loss {
        Some(l) => {
            let (lo, hi) = l.interval();
            let rate = format!("{} [{}, {}]", pct_small(l.rate()), pct_small(lo), pct_small(hi));
            (l.rate(), format!("at the measured {rate} chance a season of losing the hex ({} players)", l.players))
        }
        None => (0.0, "if the hex is never lost".to_string()),
    };
    let sites: Vec<String> = x.sites.iter().map(|s| mine_seasons(x, &s.terrain, s.mean_yield, q)).collect();
    let mut out = format!(
        "{MINE_LEAD} In expected gold (exact, {} seasons, {at}; a pillage pays its mean {:.0} once): {}.",
        x.seasons,
        x.pillage,
        sites.join("; ")
    );
    if let Some(p) = super::study::mine_pillage::payback_clause(e) {
        out.push_str(&format!(" {p}."));
    }
    if let Some(w) = &e.worth {
        // The gold above read in win points, at what gold is worth to the
        // strongest player the tool has (part 5).
        if let Some(q) = super::worth::mine_pillage_in_points(&e.exact, w) {
            out.push_str(&format!(" {q} (part 5)."));
        }
    }
    if !e.solo.is_empty() {
        // Every seat plays one strategy: restricting every seat alike leaves
        // the game symmetric, so no win rate can move, and the answer in play
        // is one player restricted against unrestricted copies (the same
        // figures as the one-player table and the readings' shipped row).
        out.push_str(&solo_clause(e));
    } else if !e.variants.is_empty() {
        let moves: Vec<String> = e.variants.iter().map(variant_moves).collect();
        out.push_str(&format!(
            " In play ({} campaigns, master seed {}, Holm 5% family-wise): {}.",
            e.campaigns,
            e.seed,
            moves.join("; ")
        ));
    }
    if let Some(l) = crate::study::exercised::line(&e.baseline.coverage, e.campaigns) {
        // The in-play figures above come from these campaigns: name what
        // their players never did, so a "no effect" there is not read as
        // the rules' answer.
        out.push_str(&format!(" {l}."));
    }
    if let Some(row) = e.readings.as_ref().and_then(|r| r.rows.first()).filter(|_| e.solo.is_empty()) {
        out.push_str(&format!(
            " A player made to build a mine first whenever it can: {} ({} pts, {} campaigns, {}).",
            super::study::mine_pillage::reading_verdict(row, e.readings.as_ref().map_or(1, |r| r.rows.len())),
            super::study::mine_pillage::points(&row.mines_first.diff),
            row.mines_first.diff.n,
            e.readings.as_ref().map_or("", |r| r.players.as_str())
        ));
    }
    if !e.competence.is_empty() {
        out.push_str(&format!(
            " {}.",
            super::probe::verdicts_on(&e.competence, crate::study::mine_pillage::TOPICS)
                .replacen("players:", "Players:", 1)
        ));
    }
    out
}
