//! A two-key solve (damped Newton, a confidence region on a grid): its
//! summary, `solve.json`, the evaluations as parquet and the page, and
//! the same when no root was found.

use super::{
    competence_sentence, fmt_gap, heading, never_played, never_played_line, never_played_sentence, players_lines,
};
use crate::balance::param::Param;
use crate::balance::solve::{Eval, Grid, Located, Solution, Unmet, chi2_95};
use crate::error::Error;
use crate::report::dataset::save_parquet;
use crate::report::files::write_file;
use crate::report::html::Page;
use crate::report::table::text_table;
use crate::stats::z;
use polars::prelude::*;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

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
pub(super) fn grid_text(s: &Solution, command: &str) -> String {
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
pub(super) fn unmet_grid_text(u: &Unmet, command: &str) -> String {
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
pub(super) fn unmet_grid_json(u: &Unmet, command: &str) -> String {
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
pub(super) fn write_grid(
    s: &Solution,
    g: &Grid,
    patched: &str,
    command: &str,
    dir: &Path,
) -> Result<Vec<String>, Error> {
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
