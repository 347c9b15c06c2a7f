//! What `empires probe` writes: the competence verdict first, then every
//! probe's figure (text, CSV and an HTML page). The verdict line is
//! `Competence::line`, the same words every study prints beside an answer
//! that rests on players.

use super::charts::{Bar, Chart};
use super::html::Page;
use super::table::{pct, text_table};
use crate::error::Error;
use crate::report::number::p_value;
use crate::strength::probe::{Competence, Row, points};
use std::fmt::Write;
use std::path::Path;

/// The table: header first, one row per probe in the family's order.
pub fn rows(c: &Competence) -> Vec<Vec<String>> {
    let mut out = vec![
        [
            "probe",
            "its win rate",
            "minus the baseline (points)",
            "95% interval",
            "harm",
            "changed games",
            "Holm p",
            "finds (80% power)",
            "verdict",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for r in &c.rows {
        let (rate, lo, hi) = r.rate();
        out.push(vec![
            r.probe.name.clone(),
            format!("{} [{}, {}]", pct(rate), pct(lo), pct(hi)),
            points(r.diff.mean),
            format!("[{}, {}]", points(r.diff.low), points(r.diff.high)),
            if r.probe.is_gift() { "loss".into() } else { "gain".into() },
            format!("{} of {}", r.changed, r.campaigns),
            if r.tested() { p_value(r.p_holm) } else { "-".into() },
            if r.tested() { format!("{:.1} pts", 100.0 * r.detectable) } else { "-".into() },
            verdict(r).into(),
        ]);
    }
    out
}

fn verdict(r: &Row) -> &'static str {
    if !r.tested() {
        "changed no game"
    } else if r.fails {
        "FAILS"
    } else {
        "passes"
    }
}

/// The terminal's and `probe.txt`'s text: the verdict line first.
pub fn text(c: &Competence) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", c.line());
    let _ = writeln!(
        out,
        "  {} in the probed seat against {} copies of itself, no probe: {} of {} campaigns won ({}); fair share {}",
        c.strategy,
        c.seats - 1,
        c.base_wins,
        c.campaigns,
        pct(c.base_wins as f64 / c.campaigns.max(1) as f64),
        pct(1.0 / c.seats as f64)
    );
    let br = c.rows.iter().any(|r| matches!(r.probe.test, crate::strength::probe::Test::Play(_)));
    let _ = writeln!(
        out,
        "  a gift fails when it lowers the win rate, a restriction{} when it raises it, by more than {} point{} \
         (one-sided, Holm over the {} probes that changed a game)",
        if br { " or the best response (tuned on seeds of its own)" } else { "" },
        100.0 * c.settings.tolerance,
        if c.settings.tolerance == 0.01 { "" } else { "s" },
        c.tested()
    );
    out.push('\n');
    out.push_str(&text_table(&rows(c)));
    out
}

pub fn csv(c: &Competence) -> String {
    let mut out = String::from(
        "probe,kind,campaigns,wins,base_wins,diff,diff_low,diff_high,harm,p,p_holm,changed,detectable,fails\n",
    );
    for r in &c.rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.probe.name,
            if r.probe.is_gift() { "gift" } else { "restriction" },
            r.campaigns,
            r.wins,
            r.base_wins,
            r.diff.mean,
            r.diff.low,
            r.diff.high,
            r.harm,
            r.p,
            r.p_holm,
            r.changed,
            r.detectable,
            r.fails
        );
    }
    out
}

pub fn page(c: &Competence, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires probe: {} on {}", c.strategy, c.scenario));
    page.answer(&c.line());
    page.p("A gift probe hands the probed player a resource its copies do not get; a player can always leave a gift \
         unused, so one that uses gifts well never does worse for it. A restriction probe forbids it one kind of \
         action; a player that takes an action only where it helps never gains when it is forbidden. Each figure is \
         the probed player's win minus the baseline's (the strategy itself in that seat) on the same campaigns. The \
         check finds over-use, not weakness: a player that ignores a resource passes it, so \"no over-use found\" \
         says nothing of how strong the player is (its exploitability does: docs/strength.md).");
    page.pre(text.lines().take(3).collect::<Vec<_>>().join("\n").as_str());
    let bars: Vec<Bar> = c
        .rows
        .iter()
        .map(|r| {
            let (value, low, high) = r.rate();
            Bar { label: r.probe.name.clone(), value, low, high }
        })
        .collect();
    let base = c.base_wins as f64 / c.campaigns.max(1) as f64;
    page.chart(
        dir,
        "probes",
        &Chart::HBars {
            title: format!("The probed player's win rate (baseline {})", pct(base)),
            x_label: "win rate (%)".into(),
            bars,
        },
        &format!(
            "Win rate of the probed player with each gift or restriction, 95% Wilson intervals; without one it wins {} \
             in that seat on the same campaigns.",
            pct(base)
        ),
    )?;
    page.table(&rows(c));
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}

/// The verdicts of several strategies on `topics`, in one sentence for an
/// answer: `players: tuned (weighted) no over-use found; balanced
/// (weighted) bounded by the players (fails no mine +3.1 points [1.2, 5.0])`.
pub fn verdicts_on(cs: &[Competence], topics: &[&str]) -> String {
    let one = |c: &Competence| {
        let failed = c.bounded_on(topics);
        let mut s = format!("{} ({}) {}", c.strategy, c.family, c.verdict_on(topics).words());
        if !failed.is_empty() {
            let _ = write!(s, " (fails {})", failed.iter().map(|r| r.figure()).collect::<Vec<_>>().join("; "));
        }
        s
    };
    let basis = cs.first().map(|c| format!(" [over-use check on {}: {}]", topics.join(", "), c.basis()));
    format!("players: {}{}", cs.iter().map(one).collect::<Vec<_>>().join("; "), basis.unwrap_or_default())
}

/// `verdicts_on` over every topic the checks played.
pub fn verdicts(cs: &[Competence]) -> String {
    let mut topics: Vec<&str> =
        cs.iter().flat_map(|c| c.rows.iter().flat_map(|r| r.probe.topics.iter().copied())).collect();
    topics.sort_unstable();
    topics.dedup();
    verdicts_on(cs, &topics)
}
