//! A solve as written: one key (bisection), two (Newton) or a curve of
//! one against the other; the solved scenario as TOML with its `--set`
//! flags, the evaluations as parquet, `solve.json` (also when no root was
//! found), the summary and the page.

use super::range;
use crate::balance::param::{Param, Target};
use crate::balance::solve::{
    Bracket, Curve, Eval, Goal, Grid, Located, NoRootKind, Rhs, Side, Solution, SolveError, Unmet, chi2_95,
};
use crate::error::Error;
use crate::report::charts::{Chart, Series};
use crate::report::dataset::save_parquet;
use crate::report::files::write_file;
use crate::report::html::Page;
use crate::report::study::metrics::definitions;
use crate::report::table::text_table;
use crate::scenario::Scenario;
use crate::stats::z;
use crate::strength::probe::Competence;
use polars::prelude::*;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

fn show_interval(s: &Solution) -> String {
    let p = &s.params[0];
    let Some([iv]) = s.found.interval.as_deref() else { return String::new() };
    let fine = |v: f64| if p.integer { format!("{v:.2}") } else { p.show(v) };
    let lo = if iv.open[0] { format!("≤ {}", fine(iv.lo)) } else { fine(iv.lo) };
    let hi = if iv.open[1] { format!("≥ {}", fine(iv.hi)) } else { fine(iv.hi) };
    format!("[{lo}, {hi}]")
}

/// The `--set` flag that gives the solved scenario.
pub fn set_flag(s: &Solution) -> String {
    format!("--set {}", s.params[0].set_flag(&s.scenario))
}

/// The base scenario's text with the solved keys written in (comments and
/// layout kept), headed by how they were solved.
pub fn patched_toml(base_text: &str, params: &[&Param], solved: &Scenario, header: &[String]) -> Result<String, Error> {
    let mut doc: toml_edit::DocumentMut = base_text.parse().map_err(|e| Error::input(format!("{e}")))?;
    for p in params {
        let key = p.key();
        let parts: Vec<&str> = key.split('.').collect();
        let (last, tables) = parts.split_last().ok_or_else(|| Error::internal("an empty key"))?;
        let mut at = doc.as_table_mut();
        for t in tables {
            let item = at.entry(t).or_insert_with(|| {
                let mut t = toml_edit::Table::new();
                t.set_implicit(true);
                toml_edit::Item::Table(t)
            });
            at = item
                .as_table_mut()
                .ok_or_else(|| Error::input(format!("{key}: {t} is not a table in the scenario file")))?;
        }
        let value: toml_edit::Value = match p.target {
            Target::Dice(..) => toml_edit::Value::from(p.toml_value(solved)),
            Target::Rule(_) if p.integer => toml_edit::Value::from(p.get(solved).round() as i64),
            Target::Rule(_) => toml_edit::Value::from(p.get(solved)),
        };
        at.insert(last, toml_edit::value(value));
    }
    let mut out: String = header.iter().map(|l| format!("# {l}\n")).collect();
    out.push_str(&doc.to_string());
    Ok(out)
}

fn fmt_gap(x: f64) -> String {
    format!("{x:+.4}")
}

fn band(e: &Eval) -> String {
    format!("{} ± {:.4}", fmt_gap(e.gap[0]), z(0.95) * e.gap_se[0])
}

/// A solve's first lines, whether it found a root or not: its targets,
/// the keys and ranges it searched, its campaigns and seed, then the
/// definitions of the metrics the targets name.
fn heading(goals: &[Goal], params: &[Param], campaigns: u64, master: u64, evals: usize) -> String {
    let targets: Vec<String> = goals.iter().map(|g| g.text()).collect();
    let over: Vec<String> = params.iter().map(|p| format!("{}={}", p.name, range(p))).collect();
    let mut out = format!(
        "solve {} over {}: {campaigns} campaigns per evaluation, master seed {master}, {evals} evaluations\n",
        targets.join(" and "),
        over.join(" and ")
    );
    out.push_str(&goal_metrics(goals));
    out
}

/// The metrics a target names, for their definitions.
fn goal_metrics(goals: &[Goal]) -> String {
    let sides = goals.iter().flat_map(|g| {
        std::iter::once(&g.lhs).chain(match &g.rhs {
            Rhs::Side(s) => Some(s),
            Rhs::Value(_) => None,
        })
    });
    definitions(sides.filter_map(|s| match s {
        Side::Metric(m) => Some(m),
        Side::Restriction { .. } => None,
    }))
}

/// What the players of the held-out campaigns at the written value never
/// (or almost never) did: a solution is a claim about play, and says
/// nothing about a rule part nobody played there.
pub fn never_played(s: &Solution) -> Option<String> {
    crate::study::exercised::line(&s.confirm.coverage, s.campaigns)
}

/// `never_played` as a line of the text (two spaces in), or nothing.
fn never_played_line(s: &Solution) -> String {
    never_played(s).map_or(String::new(), |l| format!("  {l}\n"))
}

/// `never_played` as the end of a page's answer, or nothing.
fn never_played_sentence(s: &Solution) -> String {
    never_played(s).map_or(String::new(), |l| format!(" {l}."))
}

/// The summary printed by the command.
pub fn solve_text(s: &Solution, command: &str) -> String {
    match &s.found.located {
        Located::Bracket(b) => one_key_text(s, b, command),
        Located::Grid(_) => grid_text(s, command),
    }
}

fn one_key_text(s: &Solution, b: &Bracket, command: &str) -> String {
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

/// The text of a one-key solve that found no root.
pub fn unmet_text(u: &Unmet, command: &str) -> String {
    if u.params.len() > 1 {
        return unmet_grid_text(u, command);
    }
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
pub fn unmet_json(u: &Unmet, command: &str) -> String {
    if u.params.len() > 1 {
        return unmet_grid_json(u, command);
    }
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

/// The players line of a solve's text, and under best response the
/// competence check of the player tuned at the solved point.
fn players_lines(players: Option<&str>, competence: Option<&Competence>) -> String {
    let mut out = String::new();
    if let Some(l) = players {
        let _ = writeln!(out, "  {l}");
        let _ = writeln!(
            out,
            "  {}",
            competence.map_or_else(
                || "players: the solved point's player was not checked for competence (--probe-campaigns 0)".into(),
                |c| format!("at the solved point, {}", c.line())
            )
        );
    }
    out
}

/// The answer's last sentence under best response: whose answer it is.
fn competence_sentence(competence: Option<&Competence>) -> String {
    competence.map_or(String::new(), |c| format!(" At the solved point, {}.", c.line()))
}

/// Write `solve.json`, `evaluations.parquet`, `solved.toml` and the page.
pub fn write_solve(s: &Solution, patched: &str, command: &str, dir: &Path) -> Result<Vec<String>, Error> {
    match &s.found.located {
        Located::Bracket(b) => write_one_key(s, b, patched, command, dir),
        Located::Grid(g) => write_grid(s, g, patched, command, dir),
    }
}

fn write_one_key(s: &Solution, b: &Bracket, patched: &str, command: &str, dir: &Path) -> Result<Vec<String>, Error> {
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

// ------------------------------------------------------- two keys, curve

/// A key's projection of the two-key region, with `≤`/`≥` at a range end
/// and "at least" where the grid stopped growing.
fn projection(p: &Param, iv: (f64, f64), open: [bool; 2], truncated: [bool; 2]) -> String {
    let end = |v: f64, open: bool, trunc: bool, sign: &str| {
        if open {
            format!("{sign} {}", p.show(v))
        } else if trunc {
            format!("{} (the region goes on past the grid)", p.show(v))
        } else {
            p.show(v)
        }
    };
    format!("{} to {}", end(iv.0, open[0], truncated[0], "≤"), end(iv.1, open[1], truncated[1], "≥"))
}

/// The summary of a two-key solve.
fn grid_text(s: &Solution, command: &str) -> String {
    let (f, c) = (&s.found, &s.confirm);
    let zz = z(0.95);
    let mut out = heading(&s.goals, &s.params, s.campaigns, s.master, f.evals.len());
    out.push_str(&players_lines(s.players.as_deref(), s.competence.as_ref()));
    let e = &f.at_value;
    let _ = writeln!(
        out,
        "  solution: {} = {}, {} = {} (played: gaps {} ± {:.4} and {} ± {:.4} on the search's seeds, joint χ² {:.2} on 2 d.f.)",
        s.params[0].name,
        s.params[0].show(f.value[0]),
        s.params[1].name,
        s.params[1].show(f.value[1]),
        fmt_gap(e.gap[0]),
        zz * e.gap_se[0],
        fmt_gap(e.gap[1]),
        zz * e.gap_se[1],
        e.chi2()
    );
    let Located::Grid(Grid { region: r, .. }) = &f.located else { return String::new() };
    let _ = writeln!(
        out,
        "  95% confidence region: the points where the joint χ² test of both gaps (their covariance from the same campaigns) is not rejected; {} of a {} × {} grid around the solution are in it",
        r.points().len(),
        r.axes[0].len(),
        r.axes[1].len()
    );
    match &f.interval {
        Some(iv) => {
            for (k, p) in s.params.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    {}: {}",
                    p.name,
                    projection(p, (iv[k].lo, iv[k].hi), iv[k].open, iv[k].truncated)
                );
            }
            let _ = writeln!(
                out,
                "    (the region's projections on each key: together they cover the root at least 95% of the time)"
            );
        }
        None => {
            let _ = writeln!(out, "    no point of the grid is in the region");
        }
    }
    if !f.inside {
        let _ = writeln!(
            out,
            "  the written value is outside the region: each target alone holds within noise there, but the joint test rejects both at once (χ² {:.2} > {:.2})",
            e.chi2(),
            chi2_95(2)
        );
    }
    let flags: Vec<String> = s.params.iter().map(|p| format!("--set {}", p.set_flag(&s.scenario))).collect();
    let _ = writeln!(out, "  as flags: {}", flags.join(" "));
    let h = &c.eval;
    let _ = writeln!(
        out,
        "  held-out seeds (master {}, {} campaigns): gaps {} ± {:.4} and {} ± {:.4} at the written values, joint χ² {:.2} on 2 d.f. against 0 ({}): the targets are {} there",
        c.seed,
        s.campaigns,
        fmt_gap(h.gap[0]),
        zz * h.gap_se[0],
        fmt_gap(h.gap[1]),
        zz * h.gap_se[1],
        c.chi2,
        if c.widened {
            "with the held-out covariance plus the search's, whose estimate the written value is"
        } else {
            "with the held-out covariance"
        },
        c.verdict()
    );
    if c.vacuous {
        let _ = writeln!(out, "  (the check is vacuous about the root's place: the region reaches an end of a range)");
    }
    out.push_str(&never_played_line(s));
    let _ = writeln!(out, "  redo: {command}");
    out
}

/// The text of a two-key solve that found no root.
fn unmet_grid_text(u: &Unmet, command: &str) -> String {
    let zz = z(0.95);
    let mut out = heading(&u.goals, &u.params, u.campaigns, u.master, u.found.evals.len());
    if let Some(l) = &u.players {
        let _ = writeln!(out, "  {l}");
    }
    let _ = writeln!(out, "  no root found: {}", u.summary());
    let mut evals = u.found.evals.clone();
    evals.sort_by(|a, b| a.chi2().total_cmp(&b.chi2()));
    let mut rows = vec![vec![
        u.params[0].name.clone(),
        u.params[1].name.clone(),
        "gap 1 (95%)".into(),
        "gap 2 (95%)".into(),
        "joint χ²".into(),
    ]];
    rows.extend(evals.iter().take(10).map(|e| {
        vec![
            u.params[0].show(e.x[0]),
            u.params[1].show(e.x[1]),
            format!("{} ± {:.4}", fmt_gap(e.gap[0]), zz * e.gap_se[0]),
            format!("{} ± {:.4}", fmt_gap(e.gap[1]), zz * e.gap_se[1]),
            format!("{:.1}", e.chi2()),
        ]
    }));
    out.push_str("  the points played nearest the targets (search seeds):\n");
    for line in text_table(&rows).lines() {
        let _ = writeln!(out, "    {line}");
    }
    let _ = writeln!(out, "  nothing written to a scenario; redo: {command}");
    out
}

fn ev2(e: &Eval) -> serde_json::Value {
    json!({"values": e.x, "gaps": e.gap, "gap_se": e.gap_se, "covariance": e.cov, "chi2": e.chi2(), "campaigns": e.campaigns})
}

/// `solve.json` of a two-key solve that found no root.
fn unmet_grid_json(u: &Unmet, command: &str) -> String {
    let v = json!({
        "targets": [u.goals[0].text(), u.goals[1].text()],
        "keys": [u.params[0].name, u.params[1].name],
        "ranges": [[u.params[0].lo, u.params[0].hi], [u.params[1].lo, u.params[1].hi]],
        "status": "no root found",
        "why": u.summary(),
        "best": ev2(&u.found.best),
        "campaigns": u.campaigns,
        "master_seed": u.master,
        "evaluations": u.found.evals.iter().map(ev2).collect::<Vec<_>>(),
        "players": u.players,
        "command": command,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

fn grid_json(s: &Solution, g: &Grid, command: &str) -> String {
    let f = &s.found;
    let zz = z(0.95);
    let h = &s.confirm.eval;
    let v = json!({
        "targets": [s.goals[0].text(), s.goals[1].text()],
        "keys": [s.params[0].name, s.params[1].name],
        "ranges": [[s.params[0].lo, s.params[0].hi], [s.params[1].lo, s.params[1].hi]],
        "status": "root found",
        "solution": f.value,
        "at_solution": ev2(&f.at_value),
        "region": {
            "level": 0.95,
            "test": "joint chi-square on 2 d.f. of both gaps, their covariance from the same campaigns",
            "grid": g.region.axes,
            "points": g.region.points(),
            "projections": f.interval.as_ref().map(|iv| iv.iter().map(|iv| [iv.lo, iv.hi]).collect::<Vec<_>>()),
            "open": f.interval.as_ref().map_or(vec![[false; 2]; s.params.len()], |iv| iv.iter().map(|iv| iv.open).collect()),
            "truncated": f.interval.as_ref().map_or(vec![[false; 2]; s.params.len()], |iv| iv.iter().map(|iv| iv.truncated).collect()),
            "solution_inside": f.inside,
        },
        "set": [s.params[0].set_flag(&s.scenario), s.params[1].set_flag(&s.scenario)],
        "method": "damped Newton on sample-average gaps over common random numbers, finite-difference Jacobian; region by test inversion on a grid of evaluated points (95%)",
        "campaigns": s.campaigns,
        "master_seed": s.master,
        "confirm": {
            "master_seed": s.confirm.seed,
            "evaluation": ev2(h),
            "gap_intervals": [[h.gap[0] - zz * h.gap_se[0], h.gap[0] + zz * h.gap_se[0]], [h.gap[1] - zz * h.gap_se[1], h.gap[1] + zz * h.gap_se[1]]],
            "chi2": s.confirm.chi2,
            "widened": s.confirm.widened,
            "met": s.confirm.met,
            "verdict": s.confirm.verdict(),
            "vacuous": s.confirm.vacuous,
        },
        "evaluations": f.evals.iter().map(ev2).collect::<Vec<_>>(),
        "players": s.players,
        "competence": s.competence.as_ref().map(|c| json!({"verdict": c.verdict().words(), "line": c.line()})),
        "never_played": never_played(s),
        "command": command,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// Write `solve.json`, `evaluations.parquet`, `solved.toml` and the page of
/// a two-key solve.
fn write_grid(s: &Solution, g: &Grid, patched: &str, command: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let f = &s.found;
    let n = f.evals.len() + 1;
    let rows: Vec<(&Eval, &str)> =
        f.evals.iter().map(|e| (e, "search")).chain(std::iter::once((&s.confirm.eval, "held-out"))).collect();
    let df = DataFrame::new(
        n,
        vec![
            Column::new("seeds".into(), rows.iter().map(|r| r.1).collect::<Vec<_>>()),
            Column::new(s.params[0].name.as_str().into(), rows.iter().map(|r| r.0.x[0]).collect::<Vec<_>>()),
            Column::new(s.params[1].name.as_str().into(), rows.iter().map(|r| r.0.x[1]).collect::<Vec<_>>()),
            Column::new("gap_1".into(), rows.iter().map(|r| r.0.gap[0]).collect::<Vec<_>>()),
            Column::new("gap_1_se".into(), rows.iter().map(|r| r.0.gap_se[0]).collect::<Vec<_>>()),
            Column::new("gap_2".into(), rows.iter().map(|r| r.0.gap[1]).collect::<Vec<_>>()),
            Column::new("gap_2_se".into(), rows.iter().map(|r| r.0.gap_se[1]).collect::<Vec<_>>()),
            Column::new("gap_cov".into(), rows.iter().map(|r| r.0.cov[0][1]).collect::<Vec<_>>()),
            Column::new("chi2".into(), rows.iter().map(|r| r.0.chi2()).collect::<Vec<_>>()),
            Column::new(
                "in_region".into(),
                rows.iter().map(|r| r.1 == "search" && r.0.chi2() <= chi2_95(2)).collect::<Vec<_>>(),
            ),
            Column::new("campaigns".into(), rows.iter().map(|r| r.0.campaigns).collect::<Vec<_>>()),
        ],
    )
    .map_err(|e| Error::internal(e.to_string()))?;
    save_parquet(dir, "evaluations", df)?;
    write_file(&dir.join("solve.json"), grid_json(s, g, command).as_bytes())?;
    write_file(&dir.join("solved.toml"), patched.as_bytes())?;
    let mut page = Page::new(&format!("Solve: {} and {}", s.goals[0].text(), s.goals[1].text()));
    page.answer(&(format!(
        "{} = {} and {} = {} meet {:?} and {:?} within noise ({} campaigns an evaluation, master seed {}); on held-out \
         seeds the targets are {}.",
        s.params[0].name,
        s.params[0].show(s.found.value[0]),
        s.params[1].name,
        s.params[1].show(s.found.value[1]),
        s.goals[0].text(),
        s.goals[1].text(),
        s.campaigns,
        s.master,
        s.confirm.verdict()
    ) + &competence_sentence(s.competence.as_ref())
            + &never_played_sentence(s)));
    page.pre(&grid_text(s, command));
    let table: Vec<Vec<String>> = std::iter::once(vec![
        "seeds".into(),
        s.params[0].name.clone(),
        s.params[1].name.clone(),
        "gap 1".into(),
        "gap 2".into(),
        "joint χ²".into(),
    ])
    .chain(rows.iter().map(|(e, k)| {
        vec![
            k.to_string(),
            s.params[0].show(e.x[0]),
            s.params[1].show(e.x[1]),
            format!("{} ± {:.4}", fmt_gap(e.gap[0]), z(0.95) * e.gap_se[0]),
            format!("{} ± {:.4}", fmt_gap(e.gap[1]), z(0.95) * e.gap_se[1]),
            format!("{:.2}", e.chi2()),
        ]
    }))
    .collect();
    page.h2("Evaluations");
    page.table(&table);
    let mut files = vec!["evaluations.parquet".into(), "solve.json".into(), "solved.toml".into()];
    files.extend(page.files());
    page.finish(dir)?;
    Ok(files)
}

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

/// Write `solve.json` (and no scenario) for a solve that found no root.
pub fn write_unmet(e: &SolveError, command: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let json = match e {
        SolveError::NoRoot(u) => unmet_json(u, command),
        SolveError::Failed(_) => return Ok(Vec::new()),
    };
    write_file(&dir.join("solve.json"), json.as_bytes())?;
    Ok(vec!["solve.json".into()])
}
