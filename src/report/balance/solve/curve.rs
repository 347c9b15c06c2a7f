//! A balance curve (the second key's root at each value of the first):
//! its summary, `curve.json`, `curve.parquet`, a solved scenario per
//! point and the page.

use super::{never_played, patched_toml, set_flag, show_interval};
use crate::balance::param::Param;
use crate::balance::solve::{Bracket, Curve, Located, NoRootKind, Solution, SolveError};
use crate::error::Error;
use crate::report::charts::{Chart, Series};
use crate::report::dataset::save_parquet;
use crate::report::files::write_file;
use crate::report::html::Page;
use crate::report::table::text_table;
use polars::prelude::*;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// The summary of a balance curve.
pub fn curve_text(c: &Curve, second: &Param, goal: &str, command: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "balance curve of {goal:?}: the {} that meets it at each {}", second.name, c.first.name);
    // Under best response each point's player answers for the point, so
    // each gets its own competence verdict.
    let checked = c.points.iter().any(|(_, r)| r.as_ref().is_ok_and(|s| s.competence.is_some()));
    let mut rows =
        vec![vec![c.first.name.clone(), second.name.clone(), "95% interval".into(), "held-out".into(), "flags".into()]];
    if checked {
        rows[0].push("players' competence".into());
    }
    for (x, r) in &c.points {
        rows.push(match r {
            Ok(s) => vec![
                c.first.show(*x),
                match &s.found.located {
                    Located::Bracket(Bracket { between: Some((a, b)), .. }) => format!(
                        "{} (crossing between {} and {})",
                        second.show(s.found.value[0]),
                        second.show(a.x[0]),
                        second.show(b.x[0])
                    ),
                    _ => second.show(s.found.value[0]),
                },
                show_interval(s),
                s.confirm.verdict(),
                format!("--set {} {}", c.first.set_flag(&s.scenario), set_flag(s)),
                s.competence.as_ref().map_or(String::new(), |c| c.verdict().words().to_string()),
            ],
            // The full reason is in curve.json.
            Err(SolveError::NoRoot(u)) => vec![
                c.first.show(*x),
                "—".into(),
                match u.found.kind {
                    NoRootKind::OneSign => "no root found: not met in the range".into(),
                    NoRootKind::NoWholeValue => "no root found: no whole value meets it".into(),
                    NoRootKind::Jump => "no root found: the gap jumps across 0".into(),
                    NoRootKind::NotJointly => "no root found: the targets are not met together".into(),
                },
                String::new(),
                String::new(),
            ],
            Err(e) => vec![c.first.show(*x), "—".into(), e.to_string(), String::new(), String::new()],
        });
        let width = rows[0].len();
        if let Some(r) = rows.last_mut() {
            r.resize(width, String::new());
        }
    }
    out.push_str(&text_table(&rows));
    for (x, s) in c.points.iter().filter_map(|(x, r)| r.as_ref().ok().map(|s| (x, s))) {
        if let Some(k) = &s.competence {
            let _ = writeln!(out, "  at {} = {}, {}", c.first.name, c.first.show(*x), k.line());
        }
        if let Some(l) = never_played(s) {
            let _ = writeln!(out, "  at {} = {}, {l}", c.first.name, c.first.show(*x));
        }
    }
    let _ = writeln!(out, "  redo: {command}");
    out
}

/// A curve point's one-key crossing (a curve solves one key at each point).
fn crossing(s: &Solution) -> crate::balance::solve::Crossing {
    s.found.crossing().unwrap_or(crate::balance::solve::Crossing {
        root: f64::NAN,
        interval: (f64::NAN, f64::NAN),
        open_low: false,
        open_high: false,
    })
}

/// Write `curve.json`, `curve.parquet`, one `solved-N.toml` per solved
/// point, and the page.
pub fn write_curve(
    c: &Curve,
    second: &Param,
    goal: &str,
    base_text: &str,
    command: &str,
    dir: &Path,
) -> Result<Vec<String>, Error> {
    let ok: Vec<(f64, &Solution)> = c.points.iter().filter_map(|(x, r)| r.as_ref().ok().map(|s| (*x, s))).collect();
    let n = c.points.len();
    let get = |f: &dyn Fn(&Solution) -> f64| -> Vec<Option<f64>> {
        c.points.iter().map(|(_, r)| r.as_ref().ok().map(f)).collect()
    };
    let df = DataFrame::new(
        n,
        vec![
            Column::new(c.first.name.as_str().into(), c.points.iter().map(|p| p.0).collect::<Vec<_>>()),
            Column::new("root".into(), get(&|s| crossing(s).root)),
            Column::new("solution".into(), get(&|s| s.found.value[0])),
            Column::new("low".into(), get(&|s| crossing(s).interval.0)),
            Column::new("high".into(), get(&|s| crossing(s).interval.1)),
            Column::new(
                "confirmed".into(),
                c.points.iter().map(|(_, r)| r.as_ref().ok().map(|s| s.confirm.met)).collect::<Vec<_>>(),
            ),
            Column::new(
                "error".into(),
                c.points.iter().map(|(_, r)| r.as_ref().err().map(|e| e.to_string())).collect::<Vec<_>>(),
            ),
        ],
    )
    .map_err(|e| Error::internal(e.to_string()))?;
    save_parquet(dir, "curve", df)?;
    let json = json!({
        "target": goal,
        "keys": [c.first.name, second.name],
        "points": c.points.iter().map(|(x, r)| match r {
            Ok(s) => json!({"first": x, "root": crossing(s).root, "solution": s.found.value[0], "interval": [crossing(s).interval.0, crossing(s).interval.1],
                            "set": [c.first.set_flag(&s.scenario), second.set_flag(&s.scenario)], "confirmed": s.confirm.met,
                            "competence": s.competence.as_ref().map(|c| json!({"verdict": c.verdict().words(), "line": c.line()})),
                            "never_played": never_played(s)}),
            Err(e) => json!({"first": x, "error": e.to_string(), "no_root": matches!(e, SolveError::NoRoot(_))}),
        }).collect::<Vec<_>>(),
        "command": command,
    });
    let mut files = vec!["curve.parquet".to_string(), "curve.json".into()];
    write_file(&dir.join("curve.json"), serde_json::to_string_pretty(&json).unwrap_or_default().as_bytes())?;
    for (i, (x, s)) in ok.iter().enumerate() {
        let header = vec![
            format!("Solved by: {command}"),
            format!(
                "point {}: {} = {}, {} = {}",
                i + 1,
                c.first.name,
                c.first.show(*x),
                second.name,
                second.show(s.found.value[0])
            ),
        ];
        let text = patched_toml(base_text, &[&c.first, second], &s.scenario, &header)?;
        let name = format!("solved-{}.toml", i + 1);
        write_file(&dir.join(&name), text.as_bytes())?;
        files.push(name);
    }
    let mut page = Page::new(&format!("Balance curve: {goal}"));
    let found: Vec<String> = c
        .points
        .iter()
        .filter_map(|(x, r)| {
            r.as_ref().ok().map(|s| format!("{} at {}", second.show(s.found.value[0]), c.first.show(*x)))
        })
        .collect();
    page.answer(&format!(
        "{} meets {goal:?} at {} of {} values of {}{}{}.",
        second.name,
        found.len(),
        c.points.len(),
        c.first.name,
        if found.is_empty() { "" } else { ": " },
        found.join(", ")
    ));
    page.pre(&curve_text(c, second, goal, command));
    let chart = Chart::Lines {
        title: format!("{} that meets the target", second.name),
        x_label: c.first.name.clone(),
        y_label: second.name.clone(),
        series: vec![Series {
            name: "root, 95% interval".into(),
            points: ok.iter().map(|(x, s)| (*x, crossing(s).root)).collect(),
            band: Some(ok.iter().map(|(x, s)| (*x, crossing(s).interval.0, crossing(s).interval.1)).collect()),
        }],
    };
    page.chart(dir, "curve", &chart, "The second key's root at each value of the first, with its 95% interval.")?;
    files.extend(page.files());
    page.finish(dir)?;
    Ok(files)
}
