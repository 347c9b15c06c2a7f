//! A one-key solve (bisection): its summary, `solve.json`, the
//! evaluations as parquet and the page, and the same when no root was
//! found.

use super::{band, competence_sentence, fmt_gap, heading, never_played, never_played_line, never_played_sentence};
use super::{players_lines, set_flag, show_interval, solve_text};
use crate::balance::solve::{Bracket, Eval, Solution, Unmet};
use crate::error::Error;
use crate::report::charts::{Chart, Series};
use crate::report::dataset::save_parquet;
use crate::report::files::write_file;
use crate::report::html::Page;
use crate::report::table::text_table;
use crate::stats::z;
use polars::prelude::*;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

pub(super) fn one_key_text(s: &Solution, b: &Bracket, command: &str) -> String {
    let (p, f, c) = (&s.params[0], &s.found, &s.confirm);
    let mut out = heading(&s.goals, &s.params, s.campaigns, s.master, f.evals.len());
    out.push_str(&players_lines(s.players.as_deref(), s.competence.as_ref()));
    let zz = z(0.95);
    let verdict = |e: &Eval| if e.accepted(zz) { "target not rejected" } else { "target rejected" };
    match &b.between {
        Some((a, b)) => {
            let _ = writeln!(
                out,
                "  the gap crosses 0 between the whole values {} and {} ({} takes whole values only):",
                p.show(a.x[0]),
                p.show(b.x[0]),
                p.name
            );
            for e in [a, b] {
                let _ = writeln!(out, "    {} = {}: gap {} ({})", p.name, p.show(e.x[0]), band(e), verdict(e));
            }
            let _ = writeln!(
                out,
                "  solution: {} = {}, the one of the two with the smaller |gap| / se",
                p.name,
                p.show(f.value[0])
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  solution: {} = {} (gap there {} on the search's seeds)",
                p.name,
                p.show(f.value[0]),
                band(&f.at_value)
            );
            if !f.identified {
                let _ = writeln!(
                    out,
                    "  (the gap keeps one sign over the range; the target holds within noise at this end, so the root itself is not located)"
                );
            }
        }
    }
    if p.integer {
        let met: Vec<String> = f.points_met().iter().map(|x| p.show(x[0])).collect();
        let _ = writeln!(
            out,
            "  95% interval of the crossing: {} (interpolated between evaluations; the whole values played at which the target is not rejected: {})",
            show_interval(s),
            met.join(", ")
        );
    } else {
        let _ = writeln!(
            out,
            "  95% interval of the root: {} (the values at which the target is not rejected)",
            show_interval(s)
        );
    }
    if !b.other_crossings.is_empty() {
        let at: Vec<String> =
            b.other_crossings.iter().map(|(a, b)| format!("{}..{}", p.show(*a), p.show(*b))).collect();
        let _ = writeln!(
            out,
            "  warning: the gap also changes sign between {}: the target has more than one root in the range (narrow --range to choose one)",
            at.join(", ")
        );
    }
    let _ = writeln!(out, "  as a flag: {}", set_flag(s));
    let _ = writeln!(
        out,
        "  held-out seeds (master {}, {} campaigns): gap {} at {} = {}: the target is {} there (allowed |gap| ≤ {:.4}: {})",
        c.seed,
        s.campaigns,
        band(&c.eval),
        p.name,
        p.show(c.eval.x[0]),
        c.verdict(),
        c.allowed(0),
        if p.integer {
            "the held-out noise"
        } else {
            "the held-out noise and the search's, whose estimate the written value is"
        }
    );
    if c.vacuous {
        let _ = writeln!(
            out,
            "  (the check is vacuous about the root's place: the interval reaches an end of the range, so it only says the target is not rejected at {})",
            p.show(c.eval.x[0])
        );
    }
    out.push_str(&never_played_line(s));
    let _ = writeln!(out, "  redo: {command}");
    out
}

/// One key's evaluation in `solve.json`.
fn ev(e: &Eval) -> serde_json::Value {
    json!({"value": e.x[0], "gap": e.gap[0], "gap_se": e.gap_se[0], "metric": e.metric[0], "campaigns": e.campaigns})
}

/// The evaluations (the search's, then the held-out one) as a frame.
pub fn evals_frame(s: &Solution) -> PolarsResult<DataFrame> {
    let zz = z(0.95);
    let rows: Vec<(&Eval, &str)> =
        s.found.evals.iter().map(|e| (e, "search")).chain(std::iter::once((&s.confirm.eval, "held-out"))).collect();
    let n = rows.len();
    DataFrame::new(
        n,
        vec![
            Column::new("seeds".into(), rows.iter().map(|r| r.1).collect::<Vec<_>>()),
            Column::new(
                "master_seed".into(),
                rows.iter().map(|r| if r.1 == "search" { s.master } else { s.confirm.seed }).collect::<Vec<_>>(),
            ),
            Column::new(s.params[0].name.as_str().into(), rows.iter().map(|r| r.0.x[0]).collect::<Vec<_>>()),
            Column::new("metric".into(), rows.iter().map(|r| r.0.metric[0]).collect::<Vec<_>>()),
            Column::new("gap".into(), rows.iter().map(|r| r.0.gap[0]).collect::<Vec<_>>()),
            Column::new("gap_low".into(), rows.iter().map(|r| r.0.gap[0] - zz * r.0.gap_se[0]).collect::<Vec<_>>()),
            Column::new("gap_high".into(), rows.iter().map(|r| r.0.gap[0] + zz * r.0.gap_se[0]).collect::<Vec<_>>()),
            Column::new("campaigns".into(), rows.iter().map(|r| r.0.campaigns).collect::<Vec<_>>()),
        ],
    )
}

fn one_key_json(s: &Solution, b: &Bracket, command: &str) -> String {
    let (f, c, p) = (&s.found, &s.confirm, &s.params[0]);
    let iv = f.interval.as_ref().map(|iv| iv[0]);
    let zz = z(0.95);
    let v = json!({
        "target": s.goals[0].text(),
        "key": p.name,
        "range": [p.lo, p.hi],
        "status": "root found",
        "root": b.root,
        "root_identified": f.identified,
        "solution": f.value[0],
        "at_solution": ev(&f.at_value),
        "between": b.between.as_ref().map(|(a, b)| [ev(a), ev(b)]),
        "whole_values_met": if p.integer { Some(f.points_met().iter().map(|x| x[0]).collect::<Vec<_>>()) } else { None },
        "interval": iv.map(|iv| [iv.lo, iv.hi]),
        "interval_open_low": iv.is_some_and(|iv| iv.open[0]),
        "interval_open_high": iv.is_some_and(|iv| iv.open[1]),
        "other_crossings": b.other_crossings.iter().map(|(a, b)| [*a, *b]).collect::<Vec<_>>(),
        "set": p.set_flag(&s.scenario),
        "method": "sample-average approximation on common random numbers, bisection, interval by test inversion (95%)",
        "campaigns": s.campaigns,
        "master_seed": s.master,
        "confirm": {
            "master_seed": c.seed,
            "evaluation": ev(&c.eval),
            "gap_interval": [c.eval.gap[0] - zz * c.eval.gap_se[0], c.eval.gap[0] + zz * c.eval.gap_se[0]],
            "allowed": c.allowed(0),
            "met": c.met,
            "verdict": c.verdict(),
            "vacuous": c.vacuous,
        },
        "evaluations": f.evals.iter().map(ev).collect::<Vec<_>>(),
        "players": s.players,
        "competence": s.competence.as_ref().map(|c| json!({"verdict": c.verdict().words(), "line": c.line()})),
        "never_played": never_played(s),
        "command": command,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

pub(super) fn write_one_key(
    s: &Solution,
    b: &Bracket,
    patched: &str,
    command: &str,
    dir: &Path,
) -> Result<Vec<String>, Error> {
    save_parquet(dir, "evaluations", evals_frame(s).map_err(|e| Error::internal(e.to_string()))?)?;
    write_file(&dir.join("solve.json"), one_key_json(s, b, command).as_bytes())?;
    write_file(&dir.join("solved.toml"), patched.as_bytes())?;
    let zz = z(0.95);
    let (f, p, goal) = (&s.found, &s.params[0], &s.goals[0]);
    let mut page = Page::new(&format!("Solve: {}", goal.text()));
    page.answer(
        &(format!(
            "{} = {} meets {:?} within noise (gap {:+.4} ± {:.4} on the search's {} campaigns, master seed {}); on \
         held-out seeds the target is {}.",
            p.name,
            p.show(f.value[0]),
            goal.text(),
            f.at_value.gap[0],
            zz * f.at_value.gap_se[0],
            s.campaigns,
            s.master,
            s.confirm.verdict()
        ) + &competence_sentence(s.competence.as_ref())
            + &never_played_sentence(s)),
    );
    page.pre(&solve_text(s, command));
    let iv = f.interval.as_ref().map(|iv| iv[0]);
    let curve = Chart::Lines {
        title: format!("gap of the target against {}", p.name),
        x_label: p.name.clone(),
        y_label: "gap (0: target met)".into(),
        series: vec![
            Series {
                name: "gap, 95% band (search seeds)".into(),
                points: f.evals.iter().map(|e| (e.x[0], e.gap[0])).collect(),
                band: Some(
                    f.evals
                        .iter()
                        .map(|e| (e.x[0], e.gap[0] - zz * e.gap_se[0], e.gap[0] + zz * e.gap_se[0]))
                        .collect(),
                ),
            },
            Series { name: "target".into(), points: vec![(p.lo, 0.0), (p.hi, 0.0)], band: None },
            Series {
                name: "95% interval of the root".into(),
                points: iv.map_or(Vec::new(), |iv| vec![(iv.lo, 0.0), (iv.hi, 0.0)]),
                band: None,
            },
        ],
    };
    page.chart(dir, "gap", &curve, "Every evaluation of the search, on the same seeds, with its 95% band.")?;
    let rows: Vec<Vec<String>> =
        std::iter::once(vec!["seeds".into(), p.name.clone(), "metric".into(), "gap".into(), "95% interval".into()])
            .chain(f.evals.iter().map(|e| ("search", e)).chain(std::iter::once(("held-out", &s.confirm.eval))).map(
                |(k, e)| {
                    vec![
                        k.to_string(),
                        p.show(e.x[0]),
                        format!("{:.4}", e.metric[0]),
                        fmt_gap(e.gap[0]),
                        format!("{} to {}", fmt_gap(e.gap[0] - zz * e.gap_se[0]), fmt_gap(e.gap[0] + zz * e.gap_se[0])),
                    ]
                },
            ))
            .collect();
    page.h2("Evaluations");
    page.table(&rows);
    let mut files = vec!["evaluations.parquet".into(), "solve.json".into(), "solved.toml".into()];
    files.extend(page.files());
    page.finish(dir)?;
    Ok(files)
}

/// The text of a one-key solve that found no root.
pub(super) fn unmet_text(u: &Unmet, command: &str) -> String {
    let p = &u.params[0];
    let mut out = heading(&u.goals, &u.params, u.campaigns, u.master, u.found.evals.len());
    if let Some(l) = &u.players {
        let _ = writeln!(out, "  {l}");
    }
    let _ = writeln!(out, "  no root found: {}", u.summary());
    let mut rows = vec![vec![p.name.clone(), "metric".into(), "gap (95% interval)".into()]];
    rows.extend(u.found.evals.iter().map(|e| vec![p.show(e.x[0]), format!("{:.4}", e.metric[0]), band(e)]));
    out.push_str("  evaluations (search seeds):\n");
    for line in text_table(&rows).lines() {
        let _ = writeln!(out, "    {line}");
    }
    let _ = writeln!(out, "  nothing written to a scenario; redo: {command}");
    out
}

/// `solve.json` of a one-key solve that found no root.
pub(super) fn unmet_json(u: &Unmet, command: &str) -> String {
    let v = json!({
        "target": u.goals[0].text(),
        "key": u.params[0].name,
        "range": [u.params[0].lo, u.params[0].hi],
        "status": "no root found",
        "why": u.summary(),
        "best": ev(&u.found.best),
        "between": u.found.between.as_ref().map(|(a, b)| [ev(a), ev(b)]),
        "campaigns": u.campaigns,
        "master_seed": u.master,
        "evaluations": u.found.evals.iter().map(ev).collect::<Vec<_>>(),
        "players": u.players,
        "command": command,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
