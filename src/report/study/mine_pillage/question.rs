//! Question 1's one answer line, built once here and shown word for word
//! as the first line of `empires experiment mine-vs-pillage` and of its
//! page: each section's result in its own words, so the line agrees with
//! every section it sums up.

use crate::report::number::pct_small;
use crate::report::study::metrics::fmt_diff;
use crate::study::compare::Row;
use crate::study::metrics::Metric;

/// The opening words of question 1's answer.
pub const LEAD: &str = "Question 1, is a mine worth more than a pillage (both 1 EP), and from which season on?";

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
            format!("{}: {} pts, {word}", s.name, super::points(d))
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
pub fn answer(e: &crate::study::mine_pillage::Experiment) -> String {
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
        "{LEAD} In expected gold (exact, {} seasons, {at}; a pillage pays its mean {:.0} once): {}.",
        x.seasons,
        x.pillage,
        sites.join("; ")
    );
    if let Some(p) = super::payback_clause(e) {
        out.push_str(&format!(" {p}."));
    }
    if let Some(w) = &e.worth {
        // The gold above read in win points, at what gold is worth to the
        // strongest player the tool has (part 5).
        if let Some(q) = crate::report::worth::mine_pillage_in_points(&e.exact, w) {
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
            super::reading_verdict(row, e.readings.as_ref().map_or(1, |r| r.rows.len())),
            super::points(&row.mines_first.diff),
            row.mines_first.diff.n,
            e.readings.as_ref().map_or("", |r| r.players.as_str())
        ));
    }
    if !e.competence.is_empty() {
        out.push_str(&format!(
            " {}.",
            crate::report::probe::verdicts_on(&e.competence, crate::study::mine_pillage::TOPICS)
                .replacen("players:", "Players:", 1)
        ));
    }
    out
}
