//! What `empires tune` and `empires deviate` write: the tuned strategy as a
//! scenario table, the search history as parquet, the held-out evaluation
//! as text and as an HTML page with its convergence chart, and the one-key
//! deviation table.

use super::charts::{Bar, Chart, Series};
use super::dataset::write_parquet;
use super::html::Page;
use super::table::{pct, share_matrix, text_table};
use crate::error::Error;
use crate::report::number::p_is;
use crate::sim::lineup::Wins;
use crate::stats::wilson;
use crate::strength::climb::{Choice, Length, Plan, Regime, Start};
use crate::strength::deviation::{Deviant, Deviation};
use crate::strength::ladder::{Group, Ladder};
use crate::strength::tune::{EvalRow, Objective, Problem, Record};
use polars::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// `41.2% [39.1%, 43.4%]`: a win rate with its Wilson 95% interval.
pub fn rate_ci(wins: u64, campaigns: u64) -> String {
    let (lo, hi) = wilson(wins as f64, campaigns as f64, 0.95);
    format!("{} [{}, {}]", pct(wins as f64 / campaigns as f64), pct(lo), pct(hi))
}

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
        let _ = write!(c, " --vary {v}");
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

/// A whole strategy as a `[strategies.NAME]` table, every key spelled out
/// (a best response's player, so the designer can read, probe or replay
/// it): the text to append to a scenario file, `header` as comments above.
pub fn spec_toml(spec: &crate::scenario::StrategySpec, name: &str, header: &[String]) -> Result<String, Error> {
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "# {line}");
    }
    let mut one = toml::Table::new();
    one.insert(name.to_string(), toml::Value::try_from(spec).map_err(|e| Error::internal(format!("{e}")))?);
    let mut top = toml::Table::new();
    top.insert("strategies".into(), toml::Value::Table(one));
    out += &toml::to_string(&top).map_err(|e| Error::internal(format!("{e}")))?;
    Ok(out)
}

/// `file_text` (a scenario file) with the `[strategies.NAME]` table of
/// `strategy_toml` (as `strategy_toml` writes it, its comments kept) put
/// in, replacing a table of that name: the new text, and whether one was
/// replaced. The rest of the file keeps its layout and comments: a
/// replaced table takes the old one's place, a new one goes at the end.
/// (A table keeps the place it had in the text it came from, which put a
/// population's first member between a file's first two `[[players]]`.)
pub fn install(file_text: &str, strategy_toml: &str, name: &str) -> Result<(String, bool), Error> {
    let mut doc: toml_edit::DocumentMut = file_text.parse().map_err(|e| Error::input(format!("{e}")))?;
    let new: toml_edit::DocumentMut =
        strategy_toml.parse().map_err(|e| Error::internal(format!("the tuned table: {e}")))?;
    let mut table = new
        .get("strategies")
        .and_then(|s| s.get(name))
        .cloned()
        .ok_or_else(|| Error::input(format!("the tuned table has no [strategies.{name}]")))?;
    let old_place = doc.get("strategies").and_then(|s| s.get(name)).and_then(|t| t.as_table()).map(|t| t.position());
    let place = match old_place {
        Some(p) => p,
        None => Some(last_position(doc.as_table()).map_or(0, |p| p + 1)),
    };
    if let Some(t) = table.as_table_mut() {
        t.set_position(place);
    }
    let strategies = doc.entry("strategies").or_insert_with(|| {
        let mut t = toml_edit::Table::new();
        t.set_implicit(true);
        toml_edit::Item::Table(t)
    });
    let strategies =
        strategies.as_table_mut().ok_or_else(|| Error::input("`strategies` in the file is not a table"))?;
    let replaced = strategies.insert(name, table).is_some();
    Ok((doc.to_string(), replaced))
}

/// The members the file's `[strategies.MIXTURE]` mixture lists now, in
/// order (empty when it has none): what a new install may leave behind.
pub fn mixture_members(file_text: &str, mixture: &str) -> Vec<String> {
    let Ok(doc) = file_text.parse::<toml_edit::DocumentMut>() else { return Vec::new() };
    doc.get("strategies")
        .and_then(|s| s.get(mixture))
        .and_then(|t| t.get("members"))
        .and_then(|m| m.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// `file_text` without its `[strategies.NAME]` table (and the comment
/// above it), or `None` when it has no such table.
pub fn uninstall(file_text: &str, name: &str) -> Result<Option<String>, Error> {
    let mut doc: toml_edit::DocumentMut = file_text.parse().map_err(|e| Error::input(format!("{e}")))?;
    let removed = doc.get_mut("strategies").and_then(|s| s.as_table_mut()).and_then(|s| s.remove(name));
    Ok(removed.map(|_| doc.to_string()))
}

/// The last document position of any table in `t`, nested ones and
/// arrays of tables included.
fn last_position(t: &toml_edit::Table) -> Option<isize> {
    let mut last = t.position();
    for (_, item) in t.iter() {
        let p = match item {
            toml_edit::Item::Table(sub) => last_position(sub),
            toml_edit::Item::ArrayOfTables(a) => a.iter().filter_map(last_position).max(),
            _ => None,
        };
        last = last.max(p);
    }
    last
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

fn deviant_row(d: &Deviant, fair: f64) -> Vec<String> {
    vec![
        d.key.clone(),
        d.from.clone(),
        d.to.clone(),
        rate_ci(d.wins, d.campaigns),
        format!("{:+.1}", 100.0 * (d.rate - fair)),
        format!("{:.3}", d.p_holm),
        d.changed.to_string(),
        d.note.clone(),
        if d.beats() {
            "BEATS".into()
        } else if !d.tested() {
            "changed no game".into()
        } else {
            String::new()
        },
    ]
}

fn deviation_rows(dv: &Deviation) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "key".to_string(),
        "from".into(),
        "to".into(),
        "deviant's win rate".into(),
        "vs fair (points)".into(),
        "p (Holm)".into(),
        "games changed".into(),
        "deviant".into(),
        String::new(),
    ]];
    rows.extend(dv.deviants.iter().map(|d| deviant_row(d, dv.fair())));
    rows
}

pub fn deviation_text(dv: &Deviation, top: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", dv.competence.line());
    let _ = writeln!(
        out,
        "deviate: one player changes one key of {} (× or ÷ {}), against {} × {}; {} deviants × {} campaigns on master \
         seed {}, seats rotated; fair share {}",
        dv.strategy,
        dv.factor,
        dv.seats - 1,
        dv.strategy,
        dv.deviants.len(),
        dv.campaigns,
        dv.seed,
        pct(dv.fair())
    );
    let _ = writeln!(out, "  {} itself in that seat: {}", dv.strategy, rate_ci(dv.baseline.wins, dv.campaigns));
    let idle = dv.deviants.len() - dv.tested();
    let _ = writeln!(
        out,
        "  {idle} of {} deviants changed no game (not evidence either way; left out of the test); {} tested",
        dv.deviants.len(),
        dv.tested()
    );
    let _ = writeln!(
        out,
        "  power: a deviant winning {} points above the fair share would be found with 80% probability ({} \
         campaigns, {} tests, Holm, 5% family-wise error)",
        if dv.detectable.is_finite() { format!("{:.1}", 100.0 * dv.detectable) } else { "no".into() },
        dv.campaigns,
        dv.tested()
    );
    let beaten = dv.beaten_by();
    if let Some(best) = dv.deviants.first() {
        let _ = writeln!(
            out,
            "  largest deviation: {} {} → {}: {} ({:+.1} points, Holm p = {:.3})",
            best.key,
            best.from,
            best.to,
            rate_ci(best.wins, best.campaigns),
            100.0 * (best.rate - dv.fair()),
            best.p_holm
        );
    }
    if beaten.is_empty() {
        let _ = writeln!(out, "  verdict: no deviant wins clearly more than the fair share (Holm-adjusted p < 0.05)");
    } else {
        let _ = writeln!(
            out,
            "  verdict: {} deviant(s) win clearly more than the fair share: {} is not at a local optimum",
            beaten.len(),
            dv.strategy
        );
    }
    let rows = deviation_rows(dv);
    let shown: Vec<Vec<String>> = rows.into_iter().take(top + 1).collect();
    out.push('\n');
    out.push_str(&text_table(&shown));
    if dv.deviants.len() > top {
        let _ = writeln!(out, "  ... {} more rows in deviations.csv", dv.deviants.len() - top);
    }
    out
}

/// `deviations.csv`: every row.
pub fn deviation_csv(dv: &Deviation) -> String {
    let mut out = String::from("key,from,to,note,campaigns,wins,win_rate,low,high,p,p_holm,changed,beats\n");
    for d in &dv.deviants {
        let _ = writeln!(
            out,
            "{},\"{}\",\"{}\",{},{},{},{},{},{},{},{},{},{}",
            d.key,
            d.from,
            d.to,
            d.note,
            d.campaigns,
            d.wins,
            d.rate,
            d.low,
            d.high,
            d.p,
            d.p_holm,
            d.changed,
            d.beats()
        );
    }
    out
}

pub fn deviation_page(dv: &Deviation, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires deviate: {}", dv.strategy));
    let beaten = dv.beaten_by();
    let deviants = if beaten.is_empty() {
        format!(
            "No one-key deviant beats {} clearly: {} deviants tested, {} campaigns each (master seed {}); a gain of \
             {:.1} win-rate points would have been found with 80% power.",
            dv.strategy,
            dv.tested(),
            dv.campaigns,
            dv.seed,
            100.0 * dv.detectable
        )
    } else {
        let top: Vec<String> =
            beaten.iter().take(3).map(|d| format!("{} {} ({:.1}%)", d.key, d.to, 100.0 * d.rate)).collect();
        format!(
            "{} is not at a local optimum: {} one-key deviant(s) win clearly more than the fair {:.1}% against it \
             ({} campaigns each, master seed {}): {}.",
            dv.strategy,
            beaten.len(),
            100.0 * dv.fair(),
            dv.campaigns,
            dv.seed,
            top.join(", ")
        )
    };
    page.answer(&format!("{deviants} {}.", dv.competence.line()));
    page.pre(text.lines().skip(1).take(7).collect::<Vec<_>>().join("\n").as_str());
    let bars: Vec<Bar> = dv
        .deviants
        .iter()
        .take(24)
        .map(|d| Bar { label: format!("{} {}", d.key, d.to), value: d.rate, low: d.low, high: d.high })
        .collect();
    page.chart(
        dir,
        "deviants",
        // Horizontal: 24 labels such as "mine_slope ×4" cannot stand side by side.
        &Chart::HBars {
            title: format!("The strongest deviants (fair share {:.1}%)", 100.0 * dv.fair()),
            x_label: "win rate (%)".into(),
            bars,
        },
        &format!(
            "Win rate of the deviant against copies of the strategy, with 95% Wilson intervals; the fair share is {:.1}%.",
            100.0 * dv.fair()
        ),
    )?;
    page.table(&deviation_rows(dv));
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}

fn signed(x: f64) -> String {
    format!("{x:+.0}")
}

/// The ranked table: header first.
pub fn ladder_rows(l: &Ladder) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "rank".to_string(),
        "strategy".into(),
        "rating".into(),
        "95% interval".into(),
        "campaigns".into(),
        "won".into(),
    ]];
    for (i, r) in l.ranked.iter().enumerate() {
        rows.push(vec![
            (i + 1).to_string(),
            r.name.clone(),
            signed(r.rating),
            if r.name == l.anchor { "(anchor)".into() } else { format!("[{}, {}]", signed(r.low), signed(r.high)) },
            r.campaigns.to_string(),
            pct(r.wins as f64 / r.campaigns as f64),
        ]);
    }
    rows
}

/// Row strategy's share of wins against the column strategy, by rank order.
fn pair_matrix(l: &Ladder) -> (Vec<String>, Vec<Vec<f64>>) {
    let order: Vec<usize> = l.ranked.iter().map(|r| l.names.iter().position(|n| n == &r.name).unwrap_or(0)).collect();
    let rate = |i: usize, j: usize| -> f64 {
        l.pairs
            .iter()
            .find_map(|p| {
                if p.a == i && p.b == j {
                    Some(p.rate_a().0)
                } else if p.a == j && p.b == i {
                    Some(1.0 - p.rate_a().0)
                } else {
                    None
                }
            })
            .unwrap_or(f64::NAN)
    };
    let names = order.iter().map(|&i| l.names[i].clone()).collect();
    let grid = order.iter().map(|&i| order.iter().map(|&j| rate(i, j)).collect()).collect();
    (names, grid)
}

pub fn ladder_text(l: &Ladder) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ladder: {} strategies, every pair {} campaigns on master seed {}, {} seats split between the two, rotated",
        l.names.len(),
        l.campaigns,
        l.seed,
        l.seats
    );
    let _ = writeln!(
        out,
        "  Bradley–Terry ratings on the Elo scale ({} = 0; +400 is 10-to-1 odds between equal sides), 95% intervals \
         from {} bootstrap resamples of the campaigns",
        l.anchor, l.bootstrap
    );
    out.push_str(&text_table(&ladder_rows(l)));
    out.push_str(&fit_line(l));
    let _ = writeln!(
        out,
        "\nevery pair's rating difference (row minus column strategy), 95% intervals from the same bootstrap; \
         \"stronger\" holds a 5% family-wise error over the {} pairs (Holm):",
        l.differences.len()
    );
    out.push_str(&text_table(&difference_rows(l)));
    let (names, grid) = pair_matrix(l);
    let _ = writeln!(out, "\nrow's share of the wins against column:");
    out.push_str(&share_matrix(&names, &grid));
    // The matrix rounds; a claim about one pair needs its count and
    // interval.
    let _ = writeln!(out, "\neach pair, the first side's share of the wins (Wilson 95% interval):");
    for p in &l.pairs {
        let (r, lo, hi) = p.rate_a();
        let _ = writeln!(
            out,
            "  {} against {}: {:.1}% [{:.1}, {:.1}], {} of {} campaigns",
            l.names[p.a],
            l.names[p.b],
            100.0 * r,
            100.0 * lo,
            100.0 * hi,
            p.wins_a(),
            p.campaigns()
        );
    }
    out
}

/// The model's goodness of fit, and the warning when it does not fit.
pub fn fit_line(l: &Ladder) -> String {
    let f = &l.fit;
    let mut out = format!(
        "  fit of the Bradley–Terry model to the pair tables: Pearson X² = {:.1} on {} d.f., {}\n",
        f.x2,
        f.df,
        if f.p.is_nan() { "no test (no degree of freedom)".to_string() } else { p_is(f.p) }
    );
    if !f.fits() {
        out += "  WARNING: the model does not fit (p < 0.05): the ratings are a summary only, not a scale on which \
                every pair's odds can be read; who beats whom is in the pair table below\n";
    }
    out
}

/// Every pair's rating difference: header first.
pub fn difference_rows(l: &Ladder) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "strategy".to_string(),
        "against".into(),
        "difference".into(),
        "95% interval".into(),
        "p (Holm)".into(),
        "verdict".into(),
    ]];
    for d in &l.differences {
        rows.push(vec![
            d.a.clone(),
            d.b.clone(),
            signed(d.diff),
            format!("[{}, {}]", signed(d.low), signed(d.high)),
            if d.p_holm.is_nan() { "—".into() } else { format!("{:.4}", d.p_holm) },
            if d.stronger() { "stronger".into() } else { "no detectable difference".into() },
        ]);
    }
    rows
}

/// `ladder.parquet` (one row per strategy) and `pairs.parquet` (one row per
/// pair and seating).
pub fn write_ladder_tables(l: &Ladder, dir: &Path) -> PolarsResult<()> {
    let r = &l.ranked;
    let ladder = DataFrame::new(
        r.len(),
        vec![
            Column::new("rank".into(), (1..=r.len() as u32).collect::<Vec<_>>()),
            Column::new("strategy".into(), r.iter().map(|x| x.name.as_str()).collect::<Vec<_>>()),
            Column::new("rating".into(), r.iter().map(|x| x.rating).collect::<Vec<_>>()),
            Column::new("low".into(), r.iter().map(|x| x.low).collect::<Vec<_>>()),
            Column::new("high".into(), r.iter().map(|x| x.high).collect::<Vec<_>>()),
            Column::new("campaigns".into(), r.iter().map(|x| x.campaigns).collect::<Vec<_>>()),
            Column::new("wins".into(), r.iter().map(|x| x.wins).collect::<Vec<_>>()),
        ],
    )?;
    write_parquet(dir, "ladder", ladder)?;
    let d = &l.differences;
    let differences = DataFrame::new(
        d.len(),
        vec![
            Column::new("a".into(), d.iter().map(|x| x.a.as_str()).collect::<Vec<_>>()),
            Column::new("b".into(), d.iter().map(|x| x.b.as_str()).collect::<Vec<_>>()),
            Column::new("difference".into(), d.iter().map(|x| x.diff).collect::<Vec<_>>()),
            Column::new("low".into(), d.iter().map(|x| x.low).collect::<Vec<_>>()),
            Column::new("high".into(), d.iter().map(|x| x.high).collect::<Vec<_>>()),
            Column::new("p".into(), d.iter().map(|x| x.p).collect::<Vec<_>>()),
            Column::new("p_holm".into(), d.iter().map(|x| x.p_holm).collect::<Vec<_>>()),
            Column::new("stronger".into(), d.iter().map(|x| x.stronger()).collect::<Vec<_>>()),
        ],
    )?;
    write_parquet(dir, "differences", differences)?;
    let rows: Vec<(&str, &str, Group)> = l
        .pairs
        .iter()
        .flat_map(|p| p.groups.iter().map(move |g| (l.names[p.a].as_str(), l.names[p.b].as_str(), *g)))
        .collect();
    let pairs = DataFrame::new(
        rows.len(),
        vec![
            Column::new("a".into(), rows.iter().map(|x| x.0).collect::<Vec<_>>()),
            Column::new("b".into(), rows.iter().map(|x| x.1).collect::<Vec<_>>()),
            Column::new("seats_a".into(), rows.iter().map(|x| x.2.seats_a).collect::<Vec<_>>()),
            Column::new("seats_b".into(), rows.iter().map(|x| x.2.seats_b).collect::<Vec<_>>()),
            Column::new("campaigns".into(), rows.iter().map(|x| x.2.campaigns).collect::<Vec<_>>()),
            Column::new("wins_a".into(), rows.iter().map(|x| x.2.wins_a).collect::<Vec<_>>()),
        ],
    )?;
    write_parquet(dir, "pairs", pairs)
}

pub fn ladder_page(l: &Ladder, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new("empires ladder");
    let order: Vec<String> =
        l.ranked.iter().map(|r| format!("{} {:+.0} ({:+.0} to {:+.0})", r.name, r.rating, r.low, r.high)).collect();
    page.answer(&format!(
        "Strongest first, in Elo points against {} (95% bootstrap intervals; {} campaigns a pair, master seed {}): {}.",
        l.anchor,
        l.campaigns,
        l.seed,
        order.join(", ")
    ));
    page.pre(text.lines().take(2).collect::<Vec<_>>().join("\n").as_str());
    let bars: Vec<Bar> =
        l.ranked.iter().map(|r| Bar { label: r.name.clone(), value: r.rating, low: r.low, high: r.high }).collect();
    page.chart(
        dir,
        "ladder",
        &Chart::Bars { title: "Ratings (Elo scale)".into(), y_label: "rating".into(), bars, reference: None },
        &format!("Bradley–Terry ratings with bootstrap 95% intervals; {} is 0.", l.anchor),
    )?;
    page.table(&ladder_rows(l));
    page.pre(&fit_line(l));
    page.h2("Every pair's rating difference");
    page.p("Row strategy minus column strategy, with 95% intervals from the bootstrap over campaigns (shared by every pair); \"stronger\" holds a 5% family-wise error over all pairs (Holm).");
    page.table(&difference_rows(l));
    let (names, grid) = pair_matrix(l);
    page.chart(
        dir,
        "pairs",
        &Chart::Heatmap {
            title: "Row's share of the wins against column".into(),
            x_label: "against".into(),
            y_label: "strategy".into(),
            xs: names.clone(),
            ys: names,
            rows: grid,
            percent: true,
            intervals: Vec::new(),
            sides: None,
        },
        "Each cell is one pair's campaigns, seats split between the two and rotated.",
    )?;
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::install;

    const FILE: &str = "name = \"x\"\n\n[[players]]\nname = \"A\"\n\n[[players]]\nname = \"B\"\n\n[map]\nrows = []\n\n\
                        # old comment\n[strategies.eq]\nkind = \"weighted\"\n\n[campaign]\nseasons = 3\n";
    const NEW: &str = "# header\n# of the file\n\n# round 1\n[strategies.psro_1]\nattack = 1.0\n\n# the mixture\n\
                       [strategies.eq]\nkind = \"mixture\"\nmembers = [\"psro_1\"]\n";

    /// A new table goes at the end of the file and a replaced one takes
    /// the old one's place, whatever place each had in the text it came
    /// from; every other table stays where it was.
    #[test]
    fn install_appends_new_tables_and_replaces_in_place() {
        let (text, replaced) = install(FILE, NEW, "psro_1").unwrap();
        assert!(!replaced);
        let order = |t: &str| t.lines().filter(|l| l.starts_with('[')).map(String::from).collect::<Vec<_>>();
        assert_eq!(
            order(&text),
            ["[[players]]", "[[players]]", "[map]", "[strategies.eq]", "[campaign]", "[strategies.psro_1]"]
        );
        let (text, replaced) = install(&text, NEW, "eq").unwrap();
        assert!(replaced);
        assert_eq!(
            order(&text),
            ["[[players]]", "[[players]]", "[map]", "[strategies.eq]", "[campaign]", "[strategies.psro_1]"]
        );
        assert!(text.contains("# the mixture\n[strategies.eq]\nkind = \"mixture\""), "{text}");
        assert!(!text.contains("old comment"), "{text}");
    }

    /// Removing a table takes its comment with it and leaves the rest;
    /// the mixture's members are read in order.
    #[test]
    fn uninstall_removes_a_table_and_its_comment() {
        let (text, _) = install(FILE, NEW, "psro_1").unwrap();
        let (text, _) = install(&text, NEW, "eq").unwrap();
        assert_eq!(super::mixture_members(&text, "eq"), ["psro_1"]);
        assert!(super::mixture_members(FILE, "eq").is_empty());
        let out = super::uninstall(&text, "psro_1").unwrap().expect("the table is there");
        assert!(!out.contains("[strategies.psro_1]") && !out.contains("# round 1"), "{out}");
        assert!(out.contains("[strategies.eq]") && out.contains("[campaign]"), "{out}");
        assert_eq!(super::uninstall(&out, "psro_1").unwrap(), None);
    }
}
