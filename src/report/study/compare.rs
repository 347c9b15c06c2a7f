//! The text and page of `empires compare`: two variants on the same
//! seeds, every metric's paired difference, and under `--best-response`
//! the players each variant's search tuned.

use super::metrics::{definitions, rests_on};
use super::paired::{columns_note, diff_bars, paired_rows, reshuffled_note, verdict, verdicts_note};
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
        crate::strength::best_response::TUNED_OVER,
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
    out.push_str(&columns_note(&c.rows, true));
    out.push_str(&verdicts_note(&c.verdicts_line()));
    out.push_str(&reshuffled_note(&c.rows));
    out.push_str(&definitions(c.rows.iter().map(|r| &r.metric)));
    out.push_str(&rests_on(c.rows.iter().map(|r| &r.metric)));
    out
}

/// The page, and `compare.json` beside it (`compare_json`). `best`: what
/// `--best-response` tuned (`best_response_text`), shown under the opening
/// paragraph so the page says which players it rests on.
pub fn compare_page(c: &Comparison, dir: &Path, best: Option<&str>) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires compare: {} against {}", c.b_name, c.a_name));
    page.answer(&super::shift::compare_answer(c));
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
        columns_note(&c.rows, true),
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
    let json = serde_json::to_string_pretty(&compare_json(c)).unwrap_or_default() + "\n";
    crate::report::files::write_file(&dir.join("compare.json"), json.as_bytes())?;
    files.push("compare.json".into());
    Ok(files)
}

/// `compare.json`: the answer, what each side's players never did, and
/// every row as the table shows it (each side's mean with its interval and
/// count, the paired difference with its own), for a program to read.
pub fn compare_json(c: &Comparison) -> serde_json::Value {
    use serde_json::json;
    let mean =
        |m: &crate::stats::Mean| json!({ "mean": num(m.mean), "low": num(m.low), "high": num(m.high), "n": m.n });
    let side = |name: &str, p: &crate::study::compare::Played| {
        let unused: Vec<serde_json::Value> = crate::study::exercised::unused(&p.coverage)
            .iter()
            .map(|u| json!({ "part": u.part.did, "times": u.times }))
            .collect();
        json!({
            "name": name,
            "campaigns": p.campaigns,
            "players": p.coverage.by_strategy.keys().collect::<Vec<_>>(),
            "never_played": unused,
        })
    };
    let rows: Vec<serde_json::Value> = c
        .rows
        .iter()
        .map(|r| {
            json!({
                "metric": r.metric.name(),
                "a": mean(&r.a),
                "b": mean(&r.b),
                "b_minus_a": mean(&r.diff),
                "adjusted_p": num(r.p_adj),
                "detectable": num(r.detectable),
                "verdict": verdict(r),
            })
        })
        .collect();
    json!({
        "answer": super::shift::compare_answer(c),
        "never_played": c.never_played(),
        "never_played_threshold": format!("under once in {} player-campaigns", crate::study::exercised::RARE_PER),
        "a": side(&c.a_name, &c.played[0]),
        "b": side(&c.b_name, &c.played[1]),
        "campaigns": c.campaigns,
        "master_seed": c.seed,
        "rotate_seats": c.rotate_seats,
        "verdicts": c.verdicts_line(),
        "rows": rows,
    })
}

/// A number for JSON: `null` where it is not finite.
fn num(x: f64) -> serde_json::Value {
    if x.is_finite() { serde_json::json!(x) } else { serde_json::Value::Null }
}
