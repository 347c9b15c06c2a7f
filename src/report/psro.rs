//! What `empires psro` writes: each round's mixture and exploitability in
//! words, and the final population with its mixture as scenario text.

use super::table::{pct, text_table};
use crate::error::Error;
use crate::scenario::Scenario;
use crate::stats::wilson;
use crate::strength::psro::{self, MIXTURE, Record, Round, Settings};
use std::fmt::Write;
use std::path::PathBuf;

/// The command that redoes a run exactly.
pub fn command(scenario: &Option<PathBuf>, sets: &[String], s: &Settings, budget: u64, restarts: u32) -> String {
    let mut c = String::from("empires psro");
    if let Some(f) = scenario.as_ref().and_then(|f| f.to_str()) {
        let _ = write!(c, " --scenario {f}");
    }
    for kv in sets {
        let _ = write!(c, " --set '{}'", kv.replace('\'', "'\\''"));
    }
    let starts: Vec<&str> = s.plan.starts.iter().map(|x| x.name()).collect();
    let _ = write!(
        c,
        " --members {} --rounds {} --meta-campaigns {} --starts {} --restarts {restarts} --regime {} --budget \
         {budget} --campaigns-per-eval {} --cma-population {} --sigma {} --objective {} --select-campaigns {} \
         --eval-campaigns {} --styles-budget {} --seed {}",
        s.population.join(","),
        s.rounds,
        s.meta_campaigns,
        starts.join(","),
        s.plan.regime.name(),
        s.per_eval,
        s.population_size,
        s.sigma,
        s.objective.name(),
        s.select_campaigns,
        s.eval_campaigns,
        s.styles_budget,
        s.seed
    );
    c
}

/// The mixture in words: `tuned 61.2%, psro_1 38.8%` (members with mass).
pub fn mixture_words(members: &[String], sigma: &[f64]) -> String {
    let mut v: Vec<(&String, f64)> = members.iter().zip(sigma.iter().copied()).filter(|(_, s)| *s >= 0.0005).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    v.iter().map(|(n, s)| format!("{n} {}", pct(*s))).collect::<Vec<_>>().join(", ")
}

/// One round in one line, as printed when it ends.
pub fn round_line(r: usize, round: &Round, seats: usize) -> String {
    let (e, lo, hi) = round.exploitability(seats);
    format!(
        "round {}: mixture {} (regret {:.1} points in the meta-game); best response: {}, {} against it held out \
         ({} campaigns): exploitability {:+.1} points [{:+.1}, {:+.1}]{}",
        r + 1,
        mixture_words(&round.members, &round.sigma),
        100.0 * round.regret,
        round.response_label,
        rate(round.held.by_slot[0], round.held.campaigns),
        round.held.campaigns,
        100.0 * e,
        100.0 * lo,
        100.0 * hi,
        if round.new { "" } else { "; it is the population's own best member: the population is closed" }
    )
}

fn rate(wins: u64, campaigns: u64) -> String {
    let (lo, hi) = wilson(wins as f64, campaigns as f64, 0.95);
    format!("{} [{}, {}]", pct(wins as f64 / campaigns as f64), pct(lo), pct(hi))
}

/// The rounds as rows, header first.
pub fn rows(rec: &Record, seats: usize) -> Vec<Vec<String>> {
    let mut out = vec![
        ["round", "members", "mixture", "regret (points)", "response wins vs σ", "exploitability (points)", "response"]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>(),
    ];
    for (r, round) in rec.rounds.iter().enumerate() {
        let (e, lo, hi) = round.exploitability(seats);
        out.push(vec![
            (r + 1).to_string(),
            round.members.len().to_string(),
            mixture_words(&round.members, &round.sigma),
            format!("{:.1}", 100.0 * round.regret),
            rate(round.held.by_slot[0], round.held.campaigns),
            format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * e, 100.0 * lo, 100.0 * hi),
            if round.new {
                format!("{} ({})", psro::response_name(r), round.response_label)
            } else {
                "none new".into()
            },
        ]);
    }
    out
}

pub fn text(sc: &Scenario, rec: &Record, command: &str, seconds: f64) -> String {
    let seats = sc.players.len();
    let mut out = String::new();
    let played: u64 = rec.rounds.iter().map(|r| r.campaigns_played).sum();
    if let Some(last) = rec.rounds.last() {
        let (e, lo, hi) = last.exploitability(seats);
        let _ = writeln!(
            out,
            "The equilibrium of {} players on {} after {} rounds: {}. Its exploitability is at least {:+.1} points \
             [{:+.1}, {:+.1}]: the best response found wins {} against it in every other seat on {} held-out \
             campaigns, against the fair {} (a lower bound: only as strong as the oracle, restarts of CMA-ES from \
             every member and from {}{}).",
            last.members.len(),
            sc.name,
            rec.rounds.len(),
            mixture_words(&last.members, &last.sigma),
            100.0 * e,
            100.0 * lo,
            100.0 * hi,
            rate(last.held.by_slot[0], last.held.campaigns),
            last.held.campaigns,
            pct(1.0 / seats as f64),
            rec.settings.plan.starts.iter().map(|s| s.name().to_string()).collect::<Vec<_>>().join(", "),
            if rec.settings.styles_budget > 0 {
                format!(", and a style map of {} campaigns a round", rec.settings.styles_budget)
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(out, "  {played} campaigns played in {seconds:.1} s");
    let _ = writeln!(out, "  redo: {command}");
    let _ = writeln!(
        out,
        "\nrounds: the meta-game's symmetric equilibrium σ over the members ({} campaigns a composition, common \
         seeds), its regret there, and the oracle's response to σ measured held out against σ in every other seat",
        rec.settings.meta_campaigns
    );
    out.push_str(&text_table(&rows(rec, seats)));
    out
}

/// The final population and its mixture as scenario tables: every response
/// spelled out as `[strategies.psro_K]`, then `[strategies.equilibrium]`.
pub fn equilibrium_toml(sc: &Scenario, rec: &Record, command: &str) -> Result<String, Error> {
    let (pop, sigma) = psro::final_mixture(sc, rec)?;
    let mut out = format!(
        "# Made by: {command}\n# The population of the last round and its equilibrium; append to the scenario to play \
         it (players[N].strategy = \"{MIXTURE}\").\n\n"
    );
    for (r, round) in rec.rounds.iter().enumerate() {
        if round.new {
            let (e, lo, hi) = round.exploitability(sc.players.len());
            let header = vec![format!(
                "Round {}'s best response ({}): {:+.1} points [{:+.1}, {:+.1}] over the fair share against that round's σ",
                r + 1,
                round.response_label,
                100.0 * e,
                100.0 * lo,
                100.0 * hi
            )];
            out += &super::strength::spec_toml(&round.response, &psro::response_name(r), &header)?;
            out.push('\n');
        }
    }
    let _ = writeln!(
        out,
        "# The last round's equilibrium: {}",
        mixture_words(&pop.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(), &sigma)
    );
    let _ = writeln!(out, "[strategies.{MIXTURE}]");
    let _ = writeln!(out, "kind = \"mixture\"");
    let names: Vec<String> = pop.iter().map(|(n, _)| format!("{n:?}")).collect();
    let _ = writeln!(out, "members = [{}]", names.join(", "));
    let w: Vec<String> = sigma.iter().map(|s| format!("{:.4}", s)).collect();
    let _ = writeln!(out, "weights = [{}]", w.join(", "));
    if let Some(last) = rec.rounds.last() {
        // The last round's response against the last σ, in points: what
        // every answer resting on this field quotes.
        let (e, lo, hi) = last.exploitability(sc.players.len());
        let _ = writeln!(out, "exploitability = [{:.1}, {:.1}, {:.1}]", 100.0 * e, 100.0 * lo, 100.0 * hi);
    }
    Ok(out)
}
