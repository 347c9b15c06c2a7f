//! What `empires tune` writes: the tuned strategy as a scenario table
//! (`strategy.toml`), the search history as parquet, the command that redoes
//! the run, and the held-out evaluation as text and as an HTML page with
//! its convergence chart.

use super::rate_ci;
use crate::error::Error;
use crate::report::charts::{Bar, Chart, Series};
use crate::report::dataset::write_parquet;
use crate::report::html::Page;
use crate::report::table::{pct, text_table};
use crate::sim::lineup::Wins;
use crate::stats::wilson;
use crate::strength::climb::{Choice, Length, Plan, Regime, Start};
use crate::strength::tune::{EvalRow, Objective, Problem, Record};
use polars::prelude::*;
use std::fmt::Write;
use std::path::Path;

fn slot0(w: &Wins) -> String {
    rate_ci(w.by_slot[0], w.campaigns)
}

/// The history as a DataFrame: one row per candidate (`role` "candidate",
/// `candidate` its rank in the generation) and one per generation's mean
/// (`role` "mean", measured against the reference field on the reference
/// seeds; generation −1 is the start), with every key's value, for every
/// restart (`restart`, in schedule order). `fitness` is the objective's
/// mean (`objective` names it); `wins` are counted whatever it is.
pub fn history_frame(runs: &[(&Problem<'_>, &Record)]) -> PolarsResult<DataFrame> {
    let Some((first, _)) = runs.first() else {
        return DataFrame::new(0, vec![]);
    };
    let dim = first.space.dim();
    let mut restart: Vec<u32> = Vec::new();
    let mut generation: Vec<i32> = Vec::new();
    let mut role: Vec<&str> = Vec::new();
    let mut candidate: Vec<Option<u32>> = Vec::new();
    let mut campaigns: Vec<u64> = Vec::new();
    let mut wins: Vec<u64> = Vec::new();
    let mut fitness: Vec<f64> = Vec::new();
    let mut sigma: Vec<f64> = Vec::new();
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); dim];
    for (r, (p, rec)) in runs.iter().enumerate() {
        let per_eval = p.settings.per_eval;
        let mut push = |g: i32, ro: &'static str, c: Option<u32>, w: u64, score: f64, s: f64, u: &[f64]| {
            restart.push(r as u32);
            generation.push(g);
            role.push(ro);
            candidate.push(c);
            campaigns.push(per_eval);
            wins.push(w);
            fitness.push(p.value(w, score) / per_eval as f64);
            sigma.push(s);
            for (col, v) in values.iter_mut().zip(p.space.values(u)) {
                col.push(v);
            }
        };
        push(
            -1,
            "mean",
            None,
            rec.start_reference_wins,
            rec.start_reference_score,
            p.settings.sigma,
            &p.space.coords(&p.start),
        );
        for g in &rec.generations {
            for (i, c) in g.candidates.iter().enumerate() {
                push(g.index as i32, "candidate", Some(i as u32), c.wins, c.score, f64::NAN, &c.u);
            }
            push(g.index as i32, "mean", None, g.reference_wins, g.reference_score, g.sigma, &g.mean);
        }
    }
    let n = generation.len();
    let objective = vec![first.settings.objective.name(); n];
    let mut cols = vec![
        Column::new("restart".into(), restart),
        Column::new("generation".into(), generation),
        Column::new("role".into(), role),
        Column::new("candidate".into(), candidate),
        Column::new("campaigns".into(), campaigns),
        Column::new("wins".into(), wins),
        Column::new("objective".into(), objective),
        Column::new("fitness".into(), fitness),
        Column::new("sigma".into(), sigma),
    ];
    for (k, col) in first.space.knobs.iter().zip(values) {
        cols.push(Column::new(k.key.into(), col));
    }
    DataFrame::new(n, cols)
}

/// Write `dir/history.parquet` (atomically).
pub fn write_history(runs: &[(&Problem<'_>, &Record)], dir: &Path) -> PolarsResult<()> {
    let df = history_frame(runs)?;
    write_parquet(dir, "history", df)
}

/// The command that redoes this tuning run exactly.
pub fn tune_command(
    p: &Problem<'_>,
    plan: &Plan,
    scenario: Option<&str>,
    sets: &[String],
    name: &str,
    select_campaigns: u64,
) -> String {
    let s = &p.settings;
    let mut c = String::from("empires tune");
    if let Some(f) = scenario {
        let _ = write!(c, " --scenario {f}");
    }
    for kv in sets {
        // Quoted for a shell when it holds anything but a plain key=value.
        if kv.chars().all(|ch| ch.is_ascii_alphanumeric() || "._=-[]".contains(ch)) {
            let _ = write!(c, " --set {kv}");
        } else {
            let _ = write!(c, " --set '{}'", kv.replace('\'', "'\\''"));
        }
    }
    // Restarts sharing a budget play fewer generations as their population
    // grows: the budget, not one restart's generations, redoes them.
    let length = match plan.length {
        Length::Campaigns(each) if plan.restarts > 1 => format!("--budget {}", each * plan.restarts as u64),
        _ => format!("--generations {}", s.generations),
    };
    let _ = write!(
        c,
        " --strategy {} --against {} --keys {} {length} --population {} --campaigns-per-eval {} --sigma {} --seed {} --name {name}",
        s.start,
        s.field.describe(),
        if s.keys.len() == crate::scenario::knobs::KNOBS.len() { "all".to_string() } else { s.keys.join(",") },
        s.population,
        s.per_eval,
        s.sigma,
        s.seed,
    );
    for v in &s.vary {
        let _ = write!(c, " --range {v}");
    }
    if !s.vary.is_empty() {
        let _ = write!(c, " --variants {}", s.variants);
    }
    if s.gift_gold != 0 {
        let _ = write!(c, " --gift-gold {}", s.gift_gold);
    }
    let _ = write!(c, " --objective {}", s.objective.name());
    if plan.restarts > 1 || plan.starts != [Start::Named(s.start.clone())] {
        let starts: Vec<&str> = plan.starts.iter().map(|x| x.name()).collect();
        let _ = write!(c, " --restarts {} --starts {}", plan.restarts, starts.join(","));
        if plan.regime != Regime::Ipop {
            let _ = write!(c, " --regime {}", plan.regime.name());
        }
    }
    if select_campaigns != 2000 {
        let _ = write!(c, " --select-campaigns {select_campaigns}");
    }
    c
}

/// `strategy.toml`: one `[strategies.NAME]` table, with how it was made in
/// comments above it.
pub fn strategy_toml(p: &Problem<'_>, values: &[f64], name: &str, header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "[strategies.{name}]");
    let _ = writeln!(out, "extends = {:?}", p.settings.start);
    for (k, v) in p.space.knobs.iter().zip(values) {
        if k.integer {
            let _ = writeln!(out, "{} = {}", k.key, *v as i64);
        } else {
            let _ = writeln!(out, "{} = {}", k.key, toml_float(*v));
        }
    }
    out
}

fn toml_float(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0');
    if s.ends_with('.') { format!("{s}0") } else { s.to_string() }
}

/// The evaluation as rows: header first.
pub fn evaluation_rows(rows: &[EvalRow], name: &str, start: &str) -> Vec<Vec<String>> {
    let mut out = vec![vec!["against".to_string(), name.to_string(), format!("{start} (the start)")]];
    for r in rows {
        out.push(vec![r.against.clone(), slot0(&r.tuned), slot0(&r.start)]);
    }
    out
}

/// What a run did, in words: the lines `evaluation.txt` and the page share.
pub struct Summary {
    pub name: String,
    pub command: String,
    pub campaigns_played: u64,
    pub seconds: f64,
    pub eval_master: u64,
    pub eval_campaigns: u64,
    pub rows: Vec<EvalRow>,
}

/// One line: who was tuned, against whom, over what.
fn describe_run(p: &Problem<'_>, runs: &[(&Problem<'_>, &Record)], name: &str) -> String {
    let objective = format!("maximising {}", p.settings.objective.words());
    match runs {
        [(q, rec)] => format!(
            "{name} from {} against {}; {} keys; {} generations of {} candidates × {} campaigns, {objective}; seed {}",
            crate::strength::climb::start_words(q),
            p.settings.field.describe(),
            p.space.dim(),
            rec.generations.len(),
            q.settings.population,
            q.settings.per_eval,
            p.settings.seed
        ),
        _ => format!(
            "{name} against {}; {} keys; {} restarts of CMA-ES × {} campaigns a candidate, {objective}; seed {}",
            p.settings.field.describe(),
            p.space.dim(),
            runs.len(),
            p.settings.per_eval,
            p.settings.seed
        ),
    }
}

/// Each restart as rows, header first: its start, population, step size,
/// generations, and its mean's reference measurement at the start and at
/// its best (wins, and the objective where it is not the win rate).
pub fn restart_rows(runs: &[(&Problem<'_>, &Record)]) -> Vec<Vec<String>> {
    let objective = runs.first().map_or(Objective::Wins, |(p, _)| p.settings.objective);
    let mut head: Vec<String> = ["restart", "start", "population", "σ", "generations", "start vs reference"]
        .into_iter()
        .map(String::from)
        .collect();
    head.push("best mean vs reference".into());
    if objective != Objective::Wins {
        head.push(format!("{} (start → best)", objective.name()));
    }
    let mut out = vec![head];
    for (r, (p, rec)) in runs.iter().enumerate() {
        let (g, _) = p.best_reference_point(rec);
        let (bw, bs) = match g.and_then(|g| rec.generations.iter().find(|x| x.index == g)) {
            Some(x) => (x.reference_wins, x.reference_score),
            None => (rec.start_reference_wins, rec.start_reference_score),
        };
        let n = p.settings.per_eval;
        let mut row = vec![
            r.to_string(),
            crate::strength::climb::start_words(p),
            p.settings.population.to_string(),
            format!("{:.3}", p.settings.sigma),
            format!("{}", rec.generations.len()),
            rate_ci(rec.start_reference_wins, n),
            format!(
                "{} ({})",
                rate_ci(bw, n),
                g.map_or_else(|| "the start".to_string(), |g| format!("generation {g}"))
            ),
        ];
        if objective != Objective::Wins {
            row.push(format!("{:.3} → {:.3}", rec.start_reference_score / n as f64, bs / n as f64));
        }
        out.push(row);
    }
    out
}

/// The selection as rows, header first: every entrant's win rate against
/// the field on the selection seed, its objective, and which was chosen.
pub fn selection_rows(c: &Choice) -> Vec<Vec<String>> {
    let mut out = vec![vec!["entrant".to_string(), "wins against the field".into(), "objective".into(), String::new()]];
    for (i, e) in c.entrants.iter().enumerate() {
        out.push(vec![
            e.label.clone(),
            rate_ci(e.tally.wins.by_slot[0], e.tally.wins.campaigns),
            format!("{:.3}", e.tally.mean()),
            if i == c.chosen { "chosen".into() } else { String::new() },
        ]);
    }
    out
}

pub fn evaluation_text(p: &Problem<'_>, runs: &[(&Problem<'_>, &Record)], c: &Choice, s: &Summary) -> String {
    let seats = p.sc.players.len();
    let mut out = String::new();
    let _ = writeln!(out, "tune: {}", describe_run(p, runs, &s.name));
    let _ = writeln!(out, "  {} campaigns played in {:.1} s", s.campaigns_played, s.seconds);
    for (r, (_, rec)) in runs.iter().enumerate() {
        if let Some(why) = &rec.stopped {
            let _ = writeln!(out, "  restart {r} stopped early: {why}");
        }
    }
    let _ = writeln!(out, "  redo: {}", s.command);
    let _ = writeln!(
        out,
        "\nrestarts: each mean against the reference field on its restart's reference campaigns ({} each)",
        p.settings.per_eval
    );
    out.push_str(&text_table(&restart_rows(runs)));
    let _ = writeln!(
        out,
        "\nselection: the start and each restart's best and last means against the field on {} campaigns of master \
         seed {} (no search played it), seats rotated; the one that wins most is {} (ties: the higher objective, \
         then the earlier), so it is never below the start there",
        c.campaigns, c.master, s.name
    );
    out.push_str(&text_table(&selection_rows(c)));
    let _ = writeln!(
        out,
        "\nheld-out evaluation: {} campaigns per row on master seed {} (never used by the search or the selection), \
         seats rotated; the fair share is {} (1 of {seats} seats); 95% Wilson intervals",
        s.eval_campaigns,
        s.eval_master,
        pct(1.0 / seats as f64)
    );
    if !p.params.is_empty() {
        let _ = writeln!(
            out,
            "  rules varied: {}; the search played {} variants drawn from these ranges, the evaluation {} variants \
             of its own (drawn from its master seed), its campaigns shared equally among them",
            p.settings.vary.join(", "),
            p.variants.len(),
            p.variants.len()
        );
    }
    out.push_str(&text_table(&evaluation_rows(&s.rows, &s.name, &p.settings.start)));
    let _ = writeln!(
        out,
        "  these intervals are for the player this search found; another --seed runs another search and finds \
         another player, so a claim about what tuning achieves (not about this player) must add the spread \
         between searches (`experiment restrict --best-response` repeats its searches with {} seeds and does)",
        crate::study::restrict::SEARCHES
    );
    out
}

/// `index.html`: the convergence chart, the restarts, the selection, the
/// evaluation and the tuned keys. `from` is the problem whose space and
/// start the chosen `values` are in.
pub fn tune_page(
    p: &Problem<'_>,
    runs: &[(&Problem<'_>, &Record)],
    c: &Choice,
    s: &Summary,
    from: &Problem<'_>,
    values: &[f64],
    dir: &Path,
) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires tune: {}", s.name));
    page.answer(&match s.rows.first() {
        Some(r) => format!(
            "{} wins {} against {} on {} held-out campaigns (master seed {}, seats rotated), against {} for its start \
             {}; chosen: {}; player family: weighted.",
            s.name,
            rate_ci(r.tuned.by_slot[0], r.tuned.campaigns),
            r.against,
            s.eval_campaigns,
            s.eval_master,
            rate_ci(r.start.by_slot[0], r.start.campaigns),
            p.settings.start,
            c.entrants[c.chosen].label
        ),
        None => format!("{} was tuned; it has no held-out evaluation.", s.name),
    });
    page.p(&format!(
        "CMA-ES, {} (seats rotated, every candidate of a generation on the same seeds).",
        describe_run(p, runs, &s.name)
    ));
    page.pre(&s.command);
    page.h2("Convergence");
    let reference = if p.field.is_empty() {
        "each mean against its start (self-play)".to_string()
    } else {
        format!("the mean against the field ({})", p.settings.field.describe())
    };
    let mut series = Vec::new();
    for (r, (q, rec)) in runs.iter().enumerate() {
        let per_eval = q.settings.per_eval as f64;
        let band = |w: u64| {
            let (lo, hi) = wilson(w as f64, per_eval, 0.95);
            (w as f64 / per_eval, lo, hi)
        };
        let (_, lo0, hi0) = band(rec.start_reference_wins);
        let mut pts = vec![(-1.0, rec.start_reference_wins as f64 / per_eval)];
        let mut bands = vec![(-1.0, lo0, hi0)];
        let mut best = Vec::new();
        for g in &rec.generations {
            let x = g.index as f64;
            let (v, lo, hi) = band(g.reference_wins);
            pts.push((x, v));
            bands.push((x, lo, hi));
            if let Some(c) = g.candidates.first() {
                best.push((x, c.wins as f64 / per_eval));
            }
        }
        let name = if runs.len() == 1 {
            reference.clone()
        } else {
            format!("restart {r} from {}", crate::strength::climb::start_words(q))
        };
        // One band is legible; a dozen are not.
        series.push(Series { name, points: pts, band: (runs.len() == 1).then_some(bands) });
        if runs.len() == 1 {
            series.push(Series { name: "best candidate (its generation's seeds)".into(), points: best, band: None });
        }
    }
    page.chart(
        dir,
        "convergence",
        &Chart::Lines {
            title: "Win rate by generation".into(),
            x_label: "generation (−1: the start)".into(),
            y_label: "win rate (%)".into(),
            series,
        },
        &format!(
            "The strength trace is {reference}, on the same {} reference campaigns every generation of a restart \
             (95% interval where one restart is drawn). The search itself follows {}; the trace counts wins.",
            p.settings.per_eval,
            p.settings.objective.words()
        ),
    )?;
    page.h2("Restarts");
    page.table(&restart_rows(runs));
    page.h2("Selection");
    page.p(&format!(
        "The start and each restart's best and last means played the field on {} campaigns of master seed {}, which \
         no search played; the one that won most is {}, so it is never below the start there.",
        c.campaigns, c.master, s.name
    ));
    page.table(&selection_rows(c));
    page.h2("Held-out evaluation");
    page.p(&format!(
        "{} campaigns per row on master seed {}, which neither the search nor the selection played; seats rotated; \
         the fair share is {}.",
        s.eval_campaigns,
        s.eval_master,
        pct(1.0 / p.sc.players.len() as f64)
    ));
    page.table(&evaluation_rows(&s.rows, &s.name, &p.settings.start));
    let mut bars = Vec::new();
    for r in &s.rows {
        for (who, w) in [(s.name.as_str(), &r.tuned), (p.settings.start.as_str(), &r.start)] {
            let (lo, hi) = wilson(w.by_slot[0] as f64, w.campaigns as f64, 0.95);
            bars.push(Bar { label: format!("{who} vs {}", r.against), value: w.rate(0), low: lo, high: hi });
        }
    }
    page.chart(
        dir,
        "evaluation",
        &Chart::Bars {
            title: "Held-out win rates".into(),
            y_label: "win rate (%)".into(),
            bars,
            reference: Some(1.0 / p.sc.players.len() as f64),
        },
        "The line is the fair share.",
    )?;
    page.h2("The tuned keys");
    let start_values: Vec<f64> = from.space.knobs.iter().map(|k| (k.get)(&from.start)).collect();
    let mut t =
        vec![vec!["key".to_string(), "range".into(), crate::strength::climb::start_words(from), s.name.clone()]];
    for ((k, a), b) in from.space.knobs.iter().zip(&start_values).zip(values) {
        t.push(vec![k.key.to_string(), format!("{}–{}", k.lo, k.hi), toml_float(*a), toml_float(*b)]);
    }
    page.table(&t);
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}
