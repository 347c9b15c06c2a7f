//! A solve as written: one key (bisection, `one_key`), two (Newton,
//! `grid`) or a curve of one against the other (`curve`), each shape in
//! its formats (the summary, `solve.json` or `curve.json` with the
//! evaluations as parquet, and the page); here what they share: the
//! solved scenario as TOML with its `--set` flags, the heading, the
//! players' lines, and the doors that pick the shape (also when no root
//! was found).

mod curve;
mod grid;
mod one_key;

pub use curve::{curve_text, write_curve};
pub use one_key::evals_frame;

use super::range;
use crate::balance::param::{Param, Target};
use crate::balance::solve::{Eval, Goal, Located, Rhs, Side, Solution, SolveError, Unmet};
use crate::error::Error;
use crate::report::files::write_file;
use crate::report::study::metrics::definitions;
use crate::scenario::Scenario;
use crate::stats::z;
use crate::strength::probe::Competence;
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
        Located::Bracket(b) => one_key::one_key_text(s, b, command),
        Located::Grid(_) => grid::grid_text(s, command),
    }
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
        Located::Bracket(b) => one_key::write_one_key(s, b, patched, command, dir),
        Located::Grid(g) => grid::write_grid(s, g, patched, command, dir),
    }
}

/// The text of a solve that found no root.
pub fn unmet_text(u: &Unmet, command: &str) -> String {
    if u.params.len() > 1 { grid::unmet_grid_text(u, command) } else { one_key::unmet_text(u, command) }
}

/// `solve.json` of a solve that found no root.
pub fn unmet_json(u: &Unmet, command: &str) -> String {
    if u.params.len() > 1 { grid::unmet_grid_json(u, command) } else { one_key::unmet_json(u, command) }
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
