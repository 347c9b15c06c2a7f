//! The text and page of `empires compare`: two variants on the same
//! seeds, every metric's paired difference, and under `--best-response`
//! the players each variant's search tuned.

use super::metrics::{definitions, rests_on};
use super::paired::{diff_bars, paired_rows, reshuffled_note, verdicts_note};
use crate::error::Error;
use crate::report::charts::Chart;
use crate::report::html::Page;
use crate::report::table::text_table;
use crate::study::compare::{BestResponse, Comparison};
use crate::study::metrics::Metric;
use std::fmt::Write;
use std::path::Path;

/// What `compare --best-response` tuned, before the comparison's table.
pub fn best_response_text(br: &BestResponse) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "best response: every seat plays {} re-tuned in self-play under its variant's rules ({}, \
         {} generations, {} campaigns a candidate, step 0.1 of each range; {} and {} campaigns of search on master \
         seed {}, never the comparison's); {}",
        br.start,
        crate::study::restrict::TUNED_OVER,
        br.budget.generations,
        br.budget.per_eval,
        br.tuning_campaigns.0,
        br.tuning_campaigns.1,
        br.tuning_seed,
        br.budget.family.words()
    );
    for (variant, c) in ["A", "B"].iter().zip(&br.competence) {
        match c {
            Some(c) => {
                let _ = writeln!(out, "  {variant}: {}", c.line());
            }
            None => {
                let _ = writeln!(out, "  {variant}: players not checked (--probe-campaigns 0)");
            }
        }
    }
    let moved = br.moved(6);
    if moved.is_empty() {
        let _ = writeln!(out, "  the two searches found the same player");
    } else {
        let keys: Vec<String> = moved.iter().map(|(k, a, b)| format!("{k} {a:.3} (A) / {b:.3} (B)")).collect();
        let _ = writeln!(out, "  keys that differ most between the variants' players: {}", keys.join(", "));
    }
    out
}

pub fn compare_text(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "compare: A = {}, B = {}; {} campaigns each on master seed {} (the same seeds: paired differences){}\n",
        c.a_name,
        c.b_name,
        c.campaigns,
        c.seed,
        if c.rotate_seats { ", seats rotated" } else { "" }
    );
    out.push_str(&text_table(&paired_rows(&c.rows, "A", "B")));
    out.push_str(&verdicts_note(&c.verdicts_line()));
    out.push_str(&reshuffled_note(&c.rows));
    out.push_str(&definitions(c.rows.iter().map(|r| &r.metric)));
    out.push_str(&rests_on(c.rows.iter().map(|r| &r.metric)));
    out
}

/// `best`: what `--best-response` tuned (`best_response_text`), shown
/// under the opening paragraph so the page says which players it rests on.
pub fn compare_page(c: &Comparison, dir: &Path, best: Option<&str>) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires compare: {} against {}", c.b_name, c.a_name));
    page.answer(&crate::report::verdict::compare_answer(c));
    page.p(&format!(
        "A = {}, B = {}. Both played {} campaigns on master seed {}: campaign i of A and of B share their seeds, map and \
         dice stream, so each difference is taken campaign by campaign (95% normal interval). Where the interval holds 0, \
         the page says there is no detectable difference at this number of campaigns. {}",
        c.a_name,
        c.b_name,
        c.campaigns,
        c.seed,
        verdicts_note(&c.verdicts_line())
    ));
    if let Some(b) = best {
        page.pre(b);
    }
    page.h2("Win rates: B − A");
    page.chart(
        dir,
        "win-rate-diff",
        &Chart::Bars {
            title: "Win rate difference, B − A (95% interval)".into(),
            y_label: "difference (pts)".into(),
            bars: diff_bars(&c.rows, |m| matches!(m, Metric::WinStrategy(_) | Metric::WinSeat(_))),
            reference: Some(0.0),
        },
        "Paired difference of each strategy's and seat's win rate.",
    )?;
    page.h2("Every metric");
    page.table(&paired_rows(&c.rows, &c.a_name, &c.b_name));
    for note in [
        reshuffled_note(&c.rows),
        definitions(c.rows.iter().map(|r| &r.metric)),
        rests_on(c.rows.iter().map(|r| &r.metric)),
    ] {
        if !note.is_empty() {
            page.p(&note);
        }
    }
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}
