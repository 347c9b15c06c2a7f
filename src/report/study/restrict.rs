//! The text and page of `empires experiment restrict`: what a restriction
//! costs one player against unrestricted copies at each strength level,
//! and under `--best-response` with both sides tuned, with the warning
//! when the searches' spread cannot carry the search's variance.

use crate::error::Error;
use crate::report::charts::{Bar, Chart};
use crate::report::html::Page;
use crate::report::table::text_table;
use crate::stats::Mean;
use std::fmt::Write;
use std::path::Path;

/// The rows of a restricted-play study: one per strength level, then the
/// best response; header first.
pub fn restrict_rows(s: &crate::study::restrict::Study) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "players".to_string(),
        "restricted player wins".into(),
        "unrestricted player wins".into(),
        "restricted − unrestricted".into(),
        "95% interval".into(),
        "competence".into(),
    ]];
    for v in &s.levels {
        let verdict =
            s.competence.iter().find(|c| c.strategy == v.label).map_or("not checked", |c| c.verdict().words());
        rows.push(restricted_row(
            format!("{} (fixed weights)", v.label),
            (v.wins, v.base_wins, v.campaigns),
            &v.diff,
            verdict,
        ));
    }
    if let Some(b) = &s.best {
        rows.push(restricted_row(
            format!("best response against {}", s.players),
            (b.restricted_wins, b.unrestricted_wins, b.campaigns),
            &b.value,
            b.competence.as_ref().map_or("not checked", |c| c.verdict().words()),
        ));
    }
    rows
}

/// A restricted player against the unrestricted one in the same seat:
/// `label`, both win rates of `(restricted, unrestricted, campaigns)`, the
/// paired difference `diff` in points with its interval, and the players'
/// `verdict`. The one-player restrictions of the mine-against-pillage
/// experiment are the same measurement, so they show the same row.
pub fn restricted_row(label: String, wins: (u64, u64, u64), diff: &Mean, verdict: &str) -> Vec<String> {
    let (restricted, unrestricted, campaigns) = wins;
    vec![
        label,
        win_rate(restricted, campaigns),
        win_rate(unrestricted, campaigns),
        format!("{:+.1} points", 100.0 * diff.mean),
        format!("[{:+.1}, {:+.1}]", 100.0 * diff.low, 100.0 * diff.high),
        verdict.to_string(),
    ]
}

/// `23.2% [21.5, 25.2]`: wins of `n` campaigns with the Wilson 95% interval.
fn win_rate(wins: u64, n: u64) -> String {
    let (lo, hi) = crate::stats::wilson(wins as f64, n as f64, 0.95);
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * wins as f64 / n as f64, 100.0 * lo, 100.0 * hi)
}

/// When the searches' spread cannot carry the search's variance: every
/// search returned the same figure (most likely the same player: the
/// budget did not move them apart), or they differ by no more than the
/// evaluation's noise (τ estimated 0). The interval then holds the
/// evaluation's variance only, and says nothing of another search's.
pub fn search_spread_warning(searches: &[f64], tau: f64) -> Option<String> {
    if searches.len() < 2 {
        return None;
    }
    if searches.iter().all(|&x| x == searches[0]) {
        Some(format!(
            "all {} searches returned the same figure ({:+.1}), most likely the same player: their spread measures \
             none of the search's variance, so the interval holds the evaluation's alone; more generations or other \
             search seeds would show whether another search finds another player",
            searches.len(),
            100.0 * searches[0]
        ))
    } else if tau == 0.0 {
        Some(format!(
            "the {} searches differ by no more than the evaluation's noise (τ estimated 0): the interval holds the \
             evaluation's variance alone",
            searches.len()
        ))
    } else {
        None
    }
}

pub fn restrict_text(s: &crate::study::restrict::Study) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "restricted play: {}; {} campaigns a row on master seed {}; one restricted player against unrestricted copies \
         in the other seats, seats rotated, paired campaign by campaign with an unrestricted player in the same seat",
        s.restriction.label(),
        s.campaigns,
        s.seed
    );
    if !s.competence.is_empty() {
        let _ = writeln!(out, "{}", crate::report::probe::verdicts(&s.competence));
    }
    out.push_str(&text_table(&restrict_rows(s)));
    if let Some(b) = &s.best {
        let _ = writeln!(
            out,
            "\nbest response: a player tuned under the restriction and one tuned without it, each ({}) against {}, \
             then both against {} on held-out campaigns (master seed {}); the pair of searches is repeated with {} \
             search seeds ({} tuning campaigns in all)",
            crate::strength::best_response::TUNED_OVER,
            s.players,
            s.players,
            b.held_out,
            b.searches.len(),
            b.tuning_campaigns
        );
        let _ = writeln!(
            out,
            "  each search's figure: {}; the interval {} the search's own variance: total variance = \
             evaluation variance (± {:.1} points) + between-search variance (τ = {} points) / {} searches",
            b.searches.iter().map(|d| format!("{:+.1}", 100.0 * d)).collect::<Vec<_>>().join(", "),
            if search_spread_warning(&b.searches, b.search_sd).is_some() { "would carry" } else { "carries" },
            100.0 * b.eval_se,
            if b.search_sd.is_nan() {
                "not measured with one search".to_string()
            } else {
                format!("{:.1}", 100.0 * b.search_sd)
            },
            b.searches.len()
        );
        if let Some(w) = search_spread_warning(&b.searches, b.search_sd) {
            let _ = writeln!(out, "  WARNING: {w}");
        }
        let _ = writeln!(
            out,
            "  {}",
            b.competence.as_ref().map_or_else(
                || "players: the best response's competence was not checked (--probe-campaigns 0, or no probe on the kinds it restricts)".to_string(),
                |c| c.line()
            )
        );
        let _ = writeln!(
            out,
            "  the restriction costs a player who plays well {:+.1} points of win rate [{:+.1}, {:+.1}] (for a \
             forbidden action: what the option is worth; below 0, the restricted search found the stronger player, \
             which bounds the search's precision)",
            -100.0 * b.value.mean,
            -100.0 * b.value.high,
            -100.0 * b.value.low
        );
        match s.disagree() {
            Some(true) => {
                let _ = writeln!(
                    out,
                    "  the naive answer ({} with fixed weights) and the best response disagree: their intervals do \
                     not overlap",
                    s.players
                );
            }
            Some(false) => {
                let _ = writeln!(
                    out,
                    "  the naive answer ({} with fixed weights) agrees with the best response",
                    s.players
                );
            }
            None => {}
        }
    }
    out
}

/// The restrict page's answer: what the restriction costs at each level.
pub fn restrict_answer(s: &crate::study::restrict::Study) -> String {
    let pts = |m: &Mean| format!("{:+.1} pts ({:+.1} to {:+.1})", 100.0 * m.mean, 100.0 * m.low, 100.0 * m.high);
    let mut parts: Vec<String> = s.levels.iter().map(|v| format!("{} {}", v.label, pts(&v.diff))).collect();
    if let Some(b) = &s.best {
        let verdict = b.competence.as_ref().map_or("competence not checked", |c| c.verdict().words());
        parts.push(format!("best response (both sides tuned) {} [{verdict}]", pts(&b.value)));
    }
    let costly = s.levels.iter().filter(|v| v.diff.high < 0.0).count();
    let players = if s.competence.is_empty() {
        String::new()
    } else {
        format!(" {}.", crate::report::probe::verdicts(&s.competence))
    };
    format!(
        "A player with {} wins, against unrestricted players: {} ({} campaigns a level, master seed {}). Below 0 the \
         option is worth having; it is clearly worth having at {costly} of {} levels.{players}",
        s.restriction.label(),
        parts.join("; "),
        s.campaigns,
        s.seed,
        s.levels.len()
    )
}

pub fn restrict_page(s: &crate::study::restrict::Study, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires experiment restrict: {}", s.restriction.label()));
    page.answer(&restrict_answer(s));
    page.pre(text);
    let mut bars: Vec<Bar> = s
        .levels
        .iter()
        .map(|v| Bar { label: v.label.clone(), value: v.diff.mean, low: v.diff.low, high: v.diff.high })
        .collect();
    if let Some(b) = &s.best {
        bars.push(Bar { label: "best response".into(), value: b.value.mean, low: b.value.low, high: b.value.high });
    }
    page.chart(
        dir,
        "robustness",
        &Chart::Bars {
            title: format!("{}: restricted minus unrestricted win rate", s.restriction.label()),
            y_label: "difference (pts)".into(),
            bars,
            reference: Some(0.0),
        },
        if s.best.is_some() {
            "At each strength level with fixed weights, then with both sides tuned; 95% intervals. Below 0: the option is \
             worth having."
        } else {
            "At each strength level with fixed weights (--best-response adds both sides tuned); 95% intervals. Below 0: \
             the option is worth having."
        },
    )?;
    page.table(&restrict_rows(s));
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}
