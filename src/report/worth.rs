//! What `empires experiment worth` writes: the answer line (what each
//! resource is worth to the strongest candidate, both ways), the table with
//! each candidate's selection figure, and what question 1's gold reads as
//! in those units. Text, CSV and a page.

use super::html::Page;
use super::table::text_table;
use crate::error::Error;
use crate::rules::setup::Gift;
use crate::scenario::Scenario;
use crate::study::worth::{Fitted, Study, Worth, label, resource};
use std::fmt::Write;
use std::path::Path;

/// The answer's opening words.
pub const LEAD: &str = "What is a resource worth?";

/// `+2.1 [+0.4, +3.8] pts`.
fn points(w: &Worth) -> String {
    format!("{} pts", super::study::mine_pillage::points(&w.diff))
}

/// One ask in words: `+100 gold +2.1 [+0.4, +3.8] pts to tuned`, or that
/// it changed no game.
fn ask_words(w: &Worth) -> String {
    if w.changed == 0 {
        format!("{} changes no game of {} (worth nothing to it; it has no place or no use)", label(w.gift), w.player)
    } else {
        let some = if w.changed < w.diff.n {
            format!(", changing {} of {} games (the rest had no place for it or no use)", w.changed, w.diff.n)
        } else {
            String::new()
        };
        format!("{} {} to {}{some}", label(w.gift), points(w), w.player)
    }
}

/// The field and how strong it is known to be.
fn field_words(s: &Study) -> String {
    match s.exploitability {
        Some([e, lo, hi]) => format!(
            "against {} in every other seat (its exploitability: a best response found beats it by {e:+.1} points \
             [{lo:+.1}, {hi:+.1}], so these are the values to a player at most that far from the best)",
            s.field
        ),
        None => format!(
            "against {} in every other seat (no exploitability is stated for it: how strong these players are is \
             not measured)",
            s.field
        ),
    }
}

/// The best responses fitted with each gift, as the answer names them.
fn fitted_words(f: &Fitted) -> String {
    format!(
        " and a best response fitted with each ask (the field's heaviest weighted member tuned against the field \
         with the ask in every tuning campaign: {} generations, {} campaigns a candidate, {} tuning campaigns on \
         seeds of their own)",
        f.generations, f.per_eval, f.played
    )
}

/// Win points a gold piece is worth to the strongest player, from the
/// one-unit-price gift: the slope question 1's gold is read in.
pub fn per_gold(s: &Study) -> Option<(f64, f64, f64, u32)> {
    let w = s.rows.iter().find(|w| matches!(w.gift, Gift::Gold(g) if g > 0))?;
    let Gift::Gold(g) = w.gift else { return None };
    let g = g as f64;
    Some((w.diff.mean / g, w.diff.low / g, w.diff.high / g, g as u32))
}

/// Question 1 in those units: what the gold of a pillage and of a mine
/// built in the first season is worth, read at the gift's slope (the
/// worth of gold handed at the start; gold that comes later may be worth
/// less, so these are at most that). `None` without a gold row.
pub fn mine_pillage_in_points(x: &crate::study::mine_pillage::Exact, s: &Study) -> Option<String> {
    let (m, lo, hi, g) = per_gold(s)?;
    let ep = s
        .rows
        .iter()
        .find(|w| w.gift == Gift::Ep(1))
        .map_or(String::new(), |w| format!("; the EP either costs is worth {}", points(w)));
    if lo <= 0.0 {
        // A slope whose interval holds 0 (or lies below it) says this player
        // turns gold into no detectable wins: a mine's or a pillage's gold
        // is worth nothing detectable to it, whatever the gold.
        return Some(format!(
            "In win points: {g} gold at the start is worth {:+.1} [{:+.1}, {:+.1}] pts to {}, no detectable gain, so \
             neither a pillage's {:.0} gold nor a mine's gold is worth detectable wins to the strongest player here{ep}",
            100.0 * m * g as f64,
            100.0 * lo * g as f64,
            100.0 * hi * g as f64,
            s.rows.iter().find(|w| matches!(w.gift, Gift::Gold(x) if x > 0)).map_or("", |w| w.player.as_str()),
            x.pillage
        ));
    }
    let pts = |gold: f64| format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * gold * m, 100.0 * gold * lo, 100.0 * gold * hi);
    let mut parts = vec![format!("a pillage's {:.0} gold {}", x.pillage, pts(x.pillage))];
    for site in &x.sites {
        let gold = crate::study::mine_pillage::mine_gold(site.mean_yield, x.seasons.saturating_sub(1), 0.0);
        parts.push(format!("a {} mine built in season 1 ({gold:.0} gold if never lost) {}", site.terrain, pts(gold)));
    }
    Some(format!(
        "In win points at the rate {g} gold is worth at the start (read linearly: gold earned later, or this much \
         of it, may be worth otherwise): {}{ep}",
        parts.join(", ")
    ))
}

/// The one answer line.
pub fn answer(sc: &Scenario, s: &Study) -> String {
    answer_of(&crate::study::mine_pillage::Exact::of(sc), s)
}

/// As `answer`, from question 1's exact part (what its gold reads as).
pub fn answer_of(x: &crate::study::mine_pillage::Exact, s: &Study) -> String {
    let mut by: Vec<(&str, Vec<String>)> = Vec::new();
    for w in &s.rows {
        let r = resource(w.gift);
        match by.iter_mut().find(|(k, _)| *k == r) {
            Some((_, v)) => v.push(ask_words(w)),
            None => by.push((r, vec![ask_words(w)])),
        }
    }
    let parts: Vec<String> = by.iter().map(|(r, v)| format!("{r}: {}", v.join(", "))).collect();
    let chosen = if s.candidates.len() > 1 || s.fitted.is_some() {
        format!(
            "; the candidate chosen on {} other campaigns, seed {}, among {}{}",
            s.campaigns,
            s.selection_seed,
            s.candidates.join(", "),
            s.fitted.as_ref().map_or(String::new(), fitted_words)
        )
    } else {
        format!("; one candidate, {}", s.candidates.join(""))
    };
    let mut out = format!(
        "{LEAD} In win-rate points to the strongest candidate that can use it, handed (or taken) at the start to one \
         seat, seats rotated, {} ({} campaigns an ask, master seed {}{chosen}; 95% intervals): {}.",
        field_words(s),
        s.campaigns,
        s.seed,
        parts.join("; ")
    );
    if let Some(q1) = mine_pillage_in_points(x, s) {
        let _ = write!(out, " {q1}.");
    }
    out
}

/// The table: one row per ask; header first.
pub fn rows(s: &Study) -> Vec<Vec<String>> {
    let mut out = vec![
        [
            "resource",
            "ask",
            "strongest candidate",
            "worth (held out, 95%)",
            "its win rate with / without",
            "changed games",
            "each candidate (selection)",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for w in &s.rows {
        let n = w.diff.n.max(1) as f64;
        out.push(vec![
            resource(w.gift).to_string(),
            label(w.gift),
            w.player.clone(),
            points(w),
            format!("{:.1}% / {:.1}%", 100.0 * w.wins as f64 / n, 100.0 * w.base_wins as f64 / n),
            format!("{} of {}", w.changed, w.diff.n),
            if w.selection.is_empty() {
                "— (one candidate)".into()
            } else {
                w.selection
                    .iter()
                    .map(|(c, m)| format!("{c} {}", super::study::mine_pillage::points(m)))
                    .collect::<Vec<_>>()
                    .join("; ")
            },
        ]);
    }
    out
}

pub fn text(s: &Study) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "each resource handed (or taken) before season 1 to one seat, seats rotated, {}; worth = that seat's win \
         rate minus the same player's without it, paired campaign by campaign",
        field_words(s)
    );
    out.push_str(&text_table(&rows(s)));
    out
}

pub fn csv(s: &Study) -> String {
    let mut out =
        String::from("resource,ask,player,campaigns,wins,base_wins,worth,worth_low,worth_high,changed,seed\n");
    for w in &s.rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{}",
            resource(w.gift),
            label(w.gift),
            w.player,
            w.diff.n,
            w.wins,
            w.base_wins,
            w.diff.mean,
            w.diff.low,
            w.diff.high,
            w.changed,
            s.seed
        );
    }
    out
}

pub fn page(sc: &Scenario, s: &Study, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires experiment worth: {}", sc.name));
    page.answer(&answer(sc, s));
    page.p("A resource is handed (or taken) at the start of the campaign to one seat; the seat's win rate is paired, \
         campaign by campaign, with the same player's without it. Each candidate is measured on selection seeds, \
         and only the one that gains most is measured again, on held-out seeds, so choosing the best of several \
         noisy figures does not inflate the answer. A gift that changes no game is worth nothing to that player, \
         not to every player.");
    page.table(&rows(s));
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    super::files::write_file(&dir.join("worth.csv"), csv(s).as_bytes())?;
    files.push("worth.csv".into());
    Ok(files)
}
