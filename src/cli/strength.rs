//! `empires tune`, `deviate`, `ladder` and `metagame`: flags, files and the
//! progress bar around `strength::{tune, deviation, ladder, metagame}`.

use super::CliError;
use super::args::{CompositionCampaigns, DeviantCampaigns, PairCampaigns, ScenarioArgs, SeedArg, ThreadsArg, list};
use super::key::{ResultKey, Shape, blank};
use super::long::{Long, LongArgs, after_step, read_record, write_record};
use super::out::{DeviateFolder, LadderFolder, MetagameFolder, Out, Request, TuneFolder};
use super::shard::ShardArgs;
use crate::report::files::write_file;
use crate::report::strength as rs;
use crate::strength::climb::{self, Climb, Length, Plan, Regime, Start};
use crate::strength::tune::{
    self, Field, Objective, Problem, Record, Settings, default_population, evaluate, evaluation_rows, held_out_master,
    select_master,
};
use crate::strength::{deviation, ladder, metagame};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The weighted strategy to start from; the tuned one extends it.
    #[arg(long, default_value = "balanced")]
    pub strategy: String,
    /// The opponents, filling the other seats in turn (A,B,...), or `self`:
    /// the current mean of the search, re-chosen every generation.
    #[arg(long, default_value = "self")]
    pub against: String,
    /// The keys to tune (K1,K2,...), or `all` numeric keys.
    #[arg(long, default_value = "all")]
    pub keys: String,
    /// Campaigns to spend in all, shared equally among the restarts; sets
    /// the number of generations.
    #[arg(long, default_value_t = 240_000, conflicts_with = "generations")]
    pub budget: u64,
    /// Generations of each restart, instead of --budget.
    #[arg(long)]
    pub generations: Option<u32>,
    /// What the search maximises: `rank` (rank points, 1 first to 0 last:
    /// they move with every place gained even where the player never
    /// wins), `share` (its share of the final empire sizes) or `wins`. The
    /// figures reported are win rates whatever it is.
    #[arg(long, default_value = "rank", value_parser = super::args::parse_objective)]
    pub objective: Objective,
    /// CMA-ES runs, each from the next of --starts in turn (the population
    /// grows by --regime with each pass over them); the result is chosen
    /// among all of them on seeds none played.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub restarts: u32,
    /// Where the restarts start (A,B,...): weighted strategies, or `random`
    /// (a point drawn over the keys' ranges). Default: --strategy.
    #[arg(long)]
    pub starts: Option<String>,
    /// How the population grows from one pass over --starts to the next:
    /// `ipop` doubles it; `bipop` alternates those passes with small ones
    /// of a small step size (Hansen 2009).
    #[arg(long, default_value = "ipop", value_parser = super::args::parse_regime)]
    pub regime: Regime,
    /// Campaigns each finalist (the start, and each restart's best and last
    /// means) plays against the field on the selection seed.
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = super::args::count::<2>)]
    pub select_campaigns: u64,
    /// Campaigns per candidate (a multiple of the seat count).
    #[arg(long, default_value_t = 500, allow_negative_numbers = true, value_parser = super::args::count::<1>)]
    pub campaigns_per_eval: u64,
    /// Candidates per generation (default: CMA-ES's 4 + 3 ln(keys)).
    #[arg(long)]
    pub population: Option<usize>,
    /// Initial step size, as a share of each key's range.
    #[arg(long, default_value_t = 0.2)]
    pub sigma: f64,
    /// A scenario number and the interval it varies over, KEY=LO..HI (a
    /// dice key by its .mult or .count).
    ///
    /// Here an interval the tuning draws scenarios from (repeatable; e.g.
    /// start.gold=100..800, economy.pillage.mult=5..40,
    /// economy.mine.river.mult=10..160, recruit.per_hex=1..3): every
    /// evaluation plays --variants scenarios drawn from the ranges, so the
    /// player meets economies the scenario alone never shows it. The
    /// held-out evaluation draws variants of its own.
    #[arg(long = "range", value_name = "KEY=LO..HI", value_parser = super::args::key_range)]
    pub vary: Vec<String>,
    /// Scenarios drawn per evaluation with --range (campaigns per candidate
    /// must be a multiple of seats × variants).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pub variants: u32,
    /// Gold handed to the tuned player in the last quarter of each
    /// evaluation's campaigns (0: none). The competence check hands 500 and
    /// asks that it not hurt (`empires probe`); campaigns without a gift
    /// never show a tuning the gold-rich games where the recruit, engine
    /// and siege keys decide. The best responses are tuned with 500.
    #[arg(long, value_name = "GOLD", default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..))]
    pub gift_gold: i32,
    #[command(flatten)]
    pub master: SeedArg,
    /// Campaigns per row of the held-out evaluation.
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = super::args::count::<1>)]
    pub eval_campaigns: u64,
    /// Master seed of the held-out evaluation (default: derived from --seed,
    /// never one the search plays).
    #[arg(long)]
    pub eval_seed: Option<u64>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Name of the tuned strategy.
    #[arg(long, default_value = "tuned")]
    pub name: String,
    #[command(flatten)]
    pub out: Out<TuneFolder>,
    /// Also write the tuned strategy into this scenario file, as
    /// [strategies.NAME] (replacing a table of that name; the rest of the
    /// file is kept as it is). The file is checked with the table in before
    /// it is written.
    #[arg(long, value_name = "FILE")]
    pub install: Option<PathBuf>,
    /// Play one shard of the work into a shared `--out` (`psro --shard`):
    /// every shard walks the whole search and ends with its answer.
    #[command(flatten)]
    pub shards: ShardArgs,
    /// `--resume` continues the generations recorded in the output folder
    /// (record.json), and the generation Ctrl-C stopped from its kept work.
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for TuneArgs {
    /// `--install` writes the same strategy into another file: the result
    /// in the folder is the same.
    fn key(&self) -> String {
        let shape = Shape::new("TuneArgs")
            .group("scenario", self.scenario.shape())
            .field("strategy", &self.strategy)
            .field("against", &self.against)
            .field("keys", &self.keys)
            .field("budget", &self.budget)
            .field("generations", &self.generations)
            .field("campaigns_per_eval", &self.campaigns_per_eval)
            .field("population", &self.population)
            .field("sigma", &self.sigma)
            .field("vary", &self.vary)
            .field("variants", &self.variants)
            .group("master", self.master.shape())
            .field("eval_campaigns", &self.eval_campaigns)
            .field("eval_seed", &self.eval_seed)
            .neutral("threads", blank::THREADS)
            .field("name", &self.name)
            .neutral_out()
            .neutral("install", blank::NONE)
            .neutral("long", blank::LONG)
            // `--shard` changes nothing, and came after keys were kept:
            // unnamed, so folders made before keep their key.
            .added("gift_gold", &self.gift_gold, &0)
            .added("objective", &self.objective, &Objective::Wins)
            .added("restarts", &self.restarts, &1)
            .added("starts", &self.starts, &None)
            .added("regime", &self.regime, &Regime::Ipop)
            .added("select_campaigns", &self.select_campaigns, &2000);
        format!("tune {shape}")
    }
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

pub fn tune_cmd(a: TuneArgs) -> Result<(), CliError> {
    let started = Instant::now();
    if !is_name(&a.name) {
        return Err(CliError::input(format!(
            "--name {:?}: use letters, digits, _ and - (it names a [strategies.NAME] table)",
            a.name
        )));
    }
    let sc = a.scenario.load()?;
    // `all` leaves the start's `tune_keep` as it is; keys named one by one are tuned as asked.
    let keys = if a.keys == "all" {
        crate::scenario::knobs::tunable(&sc.named_strategy(&a.strategy).map_err(|e| e.at("--strategy"))?)
    } else {
        list(&a.keys)
    };
    let field = if a.against == "self" { Field::SelfPlay } else { Field::Fixed(list(&a.against)) };
    let population = a.population.unwrap_or_else(|| default_population(keys.len()));
    let per_eval = a.campaigns_per_eval;
    let starts: Vec<Start> = match &a.starts {
        None => vec![Start::Named(a.strategy.clone())],
        Some(s) => list(s).iter().map(|x| Start::parse(x)).collect(),
    };
    if starts.is_empty() {
        return Err(CliError::input("--starts: name at least one start (a weighted strategy, or random)"));
    }
    // Each generation plays its candidates and measures its mean; the start
    // is measured once. The budget is shared equally among the restarts.
    let length = match a.generations {
        Some(g) => Length::Generations(g),
        None => Length::Campaigns(a.budget / a.restarts as u64),
    };
    let settings = Settings {
        start: a.strategy.clone(),
        field,
        keys,
        per_eval,
        generations: match length {
            Length::Generations(g) => g,
            Length::Campaigns(c) => climb::generations_for(c, population, per_eval),
        },
        population,
        sigma: a.sigma,
        seed: a.master.seed,
        vary: a.vary.clone(),
        variants: if a.vary.is_empty() { 0 } else { a.variants },
        gift_gold: a.gift_gold,
        given: None,
        objective: a.objective,
        start_at: None,
    };
    let main = Problem::new(&sc, settings.clone())?;
    let plan = Plan { starts, restarts: a.restarts, regime: a.regime, length };
    let runs = climb::schedule(&settings, &plan)?;
    let problems = climb::problems(&sc, &runs).map_err(|e| e.at("--starts"))?;
    if a.eval_campaigns < 2 {
        return Err(CliError::input("--eval-campaigns must be at least 2 for an interval"));
    }
    let request = Request::of(&a.key(), &[&sc]);
    // Read before any tuning, so a missing file fails in a second, not after the search.
    let install = match &a.install {
        None => None,
        Some(f) => Some((
            f,
            std::fs::read_to_string(f)
                .map_err(|e| CliError::input(format!("--install {}: cannot read the scenario: {e}", f.display())))?,
        )),
    };
    let out = a.out.resolve("tune", &a.name, &request)?;
    let record_path = out.join("record.json");
    // Stopped inside the first generation, no generation is recorded yet,
    // but its finished candidates are kept in OUT/cells.
    let previous: Option<Climb> = read_record(a.long.resume, &record_path, read_climb)?;
    let command = rs::tune_command(
        &main,
        &plan,
        a.scenario.scenario.as_ref().and_then(|f| f.to_str()),
        &a.scenario.set.set,
        &a.name,
        a.select_campaigns,
    );
    let dim = main.space.dim();
    let tuning: u64 = runs.iter().map(climb::campaigns_of).sum();
    if runs.len() == 1 {
        sayln!(
            "tune {} from {} against {}: {dim} keys, {} generations × {population} candidates × {per_eval} \
             campaigns = {tuning} campaigns, maximising {} (seed {})",
            a.name,
            a.strategy,
            main.settings.field.describe(),
            runs[0].generations,
            a.objective.words(),
            a.master.seed
        );
    } else {
        sayln!(
            "tune {} against {}: {dim} keys, {} restarts ({}) from {}, {tuning} campaigns, maximising {} (seed {})",
            a.name,
            main.settings.field.describe(),
            runs.len(),
            a.regime.name(),
            plan.starts.iter().map(|s| s.name().to_string()).collect::<Vec<_>>().join(", "),
            a.objective.words(),
            a.master.seed
        );
    }

    let eval_rows = evaluation_rows(&main);
    // The selection's finalists are at most the start and two a restart.
    let selecting = (1 + 2 * runs.len() as u64) * a.select_campaigns;
    let planned = tuning + selecting + eval_rows * 2 * a.eval_campaigns;
    let long = Long::start_shard(a.threads, a.long, planned, &out, super::shard::said(a.shards, &out)?)?;
    if let Some(prev) = &previous {
        let done: u64 = prev
            .restarts
            .iter()
            .zip(&runs)
            .map(|(r, s)| s.per_eval + r.generations.len() as u64 * (s.population as u64 + 1) * s.per_eval)
            .sum();
        long.skip(done);
    }
    let mut write_err: Option<CliError> = None;
    let mut best_mean = f64::NEG_INFINITY;
    let result = long.run(|| {
        climb::climb(&problems, previous, |r, c| {
            let rec = c.restarts.last().expect("called after a generation");
            let s = &runs[r];
            let g = rec.generations.last().expect("called after a generation");
            let rate = g.reference_wins as f64 / s.per_eval as f64;
            best_mean = best_mean.max(rate);
            long.message(format!(
                "{}gen {}/{}  best candidate {:.1}%  mean vs reference {:.1}% (best {:.1}%)  σ {:.3}",
                if runs.len() > 1 { format!("restart {}/{} ", r + 1, runs.len()) } else { String::new() },
                rec.generations.len(),
                s.generations,
                100.0 * g.candidates.first().map_or(0.0, |c| c.wins as f64 / s.per_eval as f64),
                100.0 * rate,
                100.0 * best_mean,
                g.sigma
            ));
            // The record and history are rewritten after every generation,
            // so an interrupted run loses at most the generation in flight.
            after_step(&mut write_err, || write_climb(&record_path, &problems, c, &out))
        })
        .map_err(CliError::from)
    });
    if let Some(e) = write_err {
        return Err(e);
    }
    let done = result?;
    if !done.complete(&runs) {
        let r = done.restarts.len().max(1) - 1;
        let g = done.restarts.last().map_or(0, |rec| rec.generations.len());
        return Err(long.interrupted(&format!(
            "in restart {} of {}, after {g} of {} generations",
            r + 1,
            runs.len(),
            runs[r].generations
        )));
    }
    // Written again whole (a resume of a finished run plays nothing new).
    write_climb(&record_path, &problems, &done, &out)?;

    let sel_master = select_master(a.master.seed);
    let choice =
        long.run(|| climb::choose(&main, &problems, &done, sel_master, a.select_campaigns).map_err(CliError::from))?;
    let tuned = choice.spec().clone();
    let eval_master = a.eval_seed.unwrap_or_else(|| held_out_master(a.master.seed));
    let rows = long.run(|| evaluate(&main, &tuned, eval_master, a.eval_campaigns).map_err(CliError::from))?;
    long.finish();
    let played = done
        .restarts
        .iter()
        .zip(&runs)
        .map(|(r, s)| tune::campaigns(r.generations.len() as u64, s.population, s.per_eval))
        .sum::<u64>()
        + choice.entrants.len() as u64 * choice.campaigns
        + rows.len() as u64 * 2 * a.eval_campaigns;
    let summary = rs::Summary {
        name: a.name.clone(),
        command: command.clone(),
        campaigns_played: played,
        seconds: started.elapsed().as_secs_f64(),
        eval_master,
        eval_campaigns: a.eval_campaigns,
        rows,
    };
    let runs_of: Vec<(&Problem<'_>, &Record)> = problems.iter().zip(&done.restarts).collect();
    let text = rs::evaluation_text(&main, &runs_of, &choice, &summary);
    say!("{text}");
    let mut header = vec![format!("Made by: {command}")];
    if let Some(r) = summary.rows.first() {
        header.push(format!(
            "Held-out (master seed {eval_master}, {} campaigns, seats rotated): against {}: {} (the start: {}).",
            a.eval_campaigns,
            r.against,
            rs::rate_ci(r.tuned.by_slot[0], r.tuned.campaigns),
            rs::rate_ci(r.start.by_slot[0], r.start.campaigns)
        ));
    }
    header.push(format!("Chosen on master seed {sel_master}: {}.", choice.entrants[choice.chosen].label));
    header
        .push("Install it with `empires tune ... --install FILE`, or append it to a scenario file, to play it.".into());
    // The chosen point's own problem writes it: its start is the one its
    // keys move from (a named restart's start, or the run's start).
    let (from, values) = match &choice.picks[choice.chosen] {
        climb::Pick { restart: Some(r), u: Some(u) } => {
            let p = &problems[*r];
            (p, p.space.rounded(&p.space.values(u)))
        }
        _ => (&main, main.space.rounded(&main.space.values(&main.space.coords(&main.start)))),
    };
    let table = rs::strategy_toml(from, &values, &a.name, &header);
    write_file(&out.join("strategy.toml"), table.as_bytes())?;
    if let Some((file, text)) = &install {
        let (new, replaced) =
            rs::install(text, &table, &a.name).map_err(|e| e.at(format_args!("--install {}", file.display())))?;
        let source = crate::scenario::Source::file(file.display().to_string());
        crate::scenario::load_with_overrides(&new, &source, &[]).map_err(|e| {
            CliError::input(format!(
                "--install {}: the file would not load with the tuned table in:\n{e}",
                file.display()
            ))
        })?;
        write_file(file, new.as_bytes())?;
        sayln!(
            "{} [strategies.{}] in {}; play it with --scenario {} --players {}",
            if replaced { "replaced" } else { "added" },
            a.name,
            file.display(),
            file.display(),
            a.name
        );
    }
    write_file(&out.join("evaluation.txt"), text.as_bytes())?;
    let files = rs::tune_page(&main, &runs_of, &choice, &summary, from, &values, &out)
        .map_err(|e| CliError::io(format!("{}: {e}", out.display())))?;
    sayln!(
        "wrote strategy.toml, history.parquet, record.json, evaluation.txt, index.html and {} chart files to {}",
        files.len(),
        out.display()
    );
    Ok(())
}

/// A tuning record: a climb, or a single run's record as `tune` wrote it
/// before restarts existed (its one restart).
fn read_climb(text: &str) -> Result<Climb, String> {
    if let Ok(c) = serde_json::from_str::<Climb>(text) {
        return Ok(c);
    }
    serde_json::from_str::<Record>(text)
        .map(|r| Climb { restarts: vec![r] })
        .map_err(|e| format!("not a tuning record: {e}"))
}

/// `record.json` and `history.parquet` for the climb so far.
fn write_climb(record: &Path, problems: &[Problem<'_>], c: &Climb, out: &Path) -> Result<(), CliError> {
    write_record(record, c)?;
    let runs: Vec<(&Problem<'_>, &Record)> = problems.iter().zip(&c.restarts).collect();
    rs::write_history(&runs, out).map_err(|e| CliError::io(format!("{}: {e}", out.display())))
}

#[derive(Args, Debug, Clone)]
pub struct DeviateArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The strategy to check: every other seat plays it.
    #[arg(long, default_value = "tuned")]
    pub strategy: String,
    /// Each number key is multiplied and divided by this.
    #[arg(long, default_value_t = 4.0)]
    pub factor: f64,
    /// Only these keys (K1,K2,...; default: every number and choice key).
    #[arg(long)]
    pub keys: Option<String>,
    #[command(flatten)]
    pub campaigns: DeviantCampaigns,
    #[command(flatten)]
    pub master: SeedArg,
    /// Rows to print (every row goes to deviations.csv).
    #[arg(long, default_value_t = 15)]
    pub top: usize,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<DeviateFolder>,
    /// Exit with code 1 when a deviant wins clearly more than the fair share
    /// (for a CI check).
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for DeviateArgs {
    /// `--strict` changes the exit code, which a finished folder records.
    fn key(&self) -> String {
        let shape = Shape::new("DeviateArgs")
            .group("scenario", self.scenario.shape())
            .field("strategy", &self.strategy)
            .field("factor", &self.factor)
            .field("keys", &self.keys)
            .field("campaigns", &self.campaigns.n)
            .group("master", self.master.shape())
            .field("top", &self.top)
            .neutral_threads_out()
            .field("strict", &self.strict)
            .neutral("long", blank::LONG);
        format!("deviate {shape}")
    }
}

pub fn deviate_cmd(a: DeviateArgs) -> Result<(), CliError> {
    let campaigns = a.campaigns.n;
    if campaigns < 2 {
        return Err(CliError::input("--campaigns must be at least 2 for an interval"));
    }
    let sc = a.scenario.load()?;
    let keys = a.keys.as_deref().map(list);
    if let Some(ks) = &keys {
        for k in ks {
            if crate::scenario::knobs::knob(k).is_none() && !crate::scenario::knobs::CHOICES.contains(&k.as_str()) {
                return Err(CliError::input(format!("--keys: {k:?} is not a strategy key that can deviate")));
            }
        }
    }
    let out = a.out.resolve("deviate", &a.strategy, &Request::of(&a.key(), &[&sc]))?;
    let planned = deviation::planned(&sc, &a.strategy, a.factor, keys.as_deref(), campaigns);
    let long = Long::start(a.threads, a.long, planned, &out)?;
    let dv = long.run(|| {
        deviation::check(&sc, &a.strategy, a.factor, keys.as_deref(), a.master.seed, campaigns).map_err(CliError::from)
    })?;
    long.finish();
    let text = rs::deviation_text(&dv, a.top);
    say!("{text}");
    write_file(&out.join("deviations.csv"), rs::deviation_csv(&dv).as_bytes())?;
    write_file(&out.join("deviation.txt"), text.as_bytes())?;
    rs::deviation_page(&dv, &text, &out).map_err(|e| e.at(out.display()))?;
    sayln!("wrote deviations.csv, deviation.txt and index.html to {}", out.display());
    if a.strict && !dv.beaten_by().is_empty() {
        return Err(CliError::verdict(format!(
            "{} is beaten by {} one-key deviant(s)",
            a.strategy,
            dv.beaten_by().len()
        )));
    }
    Ok(())
}

#[derive(Args, Debug, Clone)]
pub struct LadderArgs {
    /// The strategies (A,B,C,...): every pair plays.
    #[arg(long, required = true)]
    pub strategies: String,
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Play duels: only the scenario's first two seats.
    #[arg(long)]
    pub duels: bool,
    #[command(flatten)]
    pub campaigns: PairCampaigns,
    #[command(flatten)]
    pub master: SeedArg,
    /// The strategy rated 0 (default: the first listed).
    #[arg(long)]
    pub anchor: Option<String>,
    /// Bootstrap resamples for the intervals.
    #[arg(long, default_value_t = 1000)]
    pub bootstrap: u32,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<LadderFolder>,
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for LadderArgs {
    fn key(&self) -> String {
        let shape = Shape::new("LadderArgs")
            .field("strategies", &self.strategies)
            .group("scenario", self.scenario.shape())
            .field("duels", &self.duels)
            .field("campaigns", &self.campaigns.n)
            .group("master", self.master.shape())
            .field("anchor", &self.anchor)
            .field("bootstrap", &self.bootstrap)
            .neutral_threads_out()
            .neutral("long", blank::LONG);
        format!("ladder {shape}")
    }
}

pub fn ladder_cmd(a: LadderArgs) -> Result<(), CliError> {
    let mut sc = a.scenario.load()?;
    if a.duels {
        if sc.players.len() < 2 {
            return Err(CliError::input("--duels needs a scenario with at least 2 seats"));
        }
        sc.players.truncate(2);
    }
    let names = list(&a.strategies);
    let anchor = a.anchor.clone().or_else(|| names.first().cloned()).unwrap_or_default();
    if a.bootstrap < 100 {
        return Err(CliError::input("--bootstrap must be at least 100 for a 95% interval"));
    }
    let out = a.out.resolve("ladder", &a.scenario.file_name(), &Request::of(&a.key(), &[&sc]))?;
    let campaigns = a.campaigns.n;
    let long = Long::start(a.threads, a.long, ladder::planned(names.len(), campaigns), &out)?;
    let l = long
        .run(|| ladder::ladder(&sc, &names, &anchor, a.master.seed, campaigns, a.bootstrap).map_err(CliError::from))?;
    long.finish();
    let text = rs::ladder_text(&l);
    say!("{text}");
    write_file(&out.join("ladder.txt"), text.as_bytes())?;
    rs::write_ladder_tables(&l, &out).map_err(|e| CliError::io(format!("{}: {e}", out.display())))?;
    rs::ladder_page(&l, &text, &out).map_err(|e| e.at(out.display()))?;
    sayln!("wrote ladder.parquet, differences.parquet, pairs.parquet, ladder.txt and index.html to {}", out.display());
    Ok(())
}

#[derive(Args, Debug, Clone)]
pub struct MetagameArgs {
    /// The strategies (A,B,C,...): every composition of them over the seats plays.
    #[arg(long, required = true)]
    pub strategies: String,
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub campaigns: CompositionCampaigns,
    #[command(flatten)]
    pub master: SeedArg,
    /// Bootstrap resamples for the intervals.
    #[arg(long, default_value_t = 200)]
    pub bootstrap: u32,
    /// α-rank's selection intensity (α in Omidshafiei et al. 2019).
    #[arg(long = "intensity", default_value_t = 100.0)]
    pub alpha: f64,
    /// α-rank's population size (m; not tune's --population, the
    /// candidates of a generation).
    #[arg(long = "rank-population", default_value_t = 50)]
    pub population: u32,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<MetagameFolder>,
    /// Play one shard of the compositions (`empires merge` joins them), as
    /// for `run`.
    #[command(flatten)]
    pub shards: ShardArgs,
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for MetagameArgs {
    /// The shard is not named: a shard's folder adds it (`resolve_shard`).
    fn key(&self) -> String {
        let shape = Shape::new("MetagameArgs")
            .field("strategies", &self.strategies)
            .group("scenario", self.scenario.shape())
            .field("campaigns", &self.campaigns.n)
            .group("master", self.master.shape())
            .field("bootstrap", &self.bootstrap)
            .field("alpha", &self.alpha)
            .field("population", &self.population)
            .neutral_threads_out()
            .neutral("shards", blank::SHARDS)
            .neutral("long", blank::LONG);
        format!("metagame {shape}")
    }
}

/// What a shard of a meta-game records beside its `payoffs.parquet`, and
/// what `empires merge` checks before joining shards.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MetagameShard {
    pub kind: String,
    pub strategies: Vec<String>,
    pub seats: u32,
    pub seed: u64,
    pub campaigns: u64,
    pub bootstrap: u32,
    pub alpha: f64,
    pub population: u32,
    pub scenario_hash: String,
    pub shard: (u64, u64),
    /// Compositions `start..end` of `total`, in `multisets` order.
    pub start: usize,
    pub end: usize,
    pub total: usize,
}

const SHARD_FILE: &str = "metagame-shard.json";

/// Write a finished meta-game's files to `out`.
fn write_metagame(mg: &metagame::Metagame, out: &Path) -> Result<(), CliError> {
    let text = crate::report::metagame::text(mg);
    say!("{text}");
    super::create_out_dir(out)?;
    let json = serde_json::to_string_pretty(&crate::report::metagame::json(mg)).expect("a JSON value serialises");
    write_file(&out.join("metagame.json"), json.as_bytes())?;
    write_file(&out.join("metagame.txt"), text.as_bytes())?;
    crate::report::metagame::write_payoffs(&mg.names, mg.game.compositions(), 0, out)
        .map_err(|e| CliError::io(format!("{}: {e}", out.display())))?;
    crate::report::metagame::page(mg, &text, out).map_err(|e| e.at(out.display()))?;
    sayln!("wrote payoffs.parquet, metagame.json, metagame.txt and index.html to {}", out.display());
    Ok(())
}

/// `empires merge` of meta-game shards: check they belong together and tile
/// the compositions, then analyse the whole game.
/// Join meta-game shards into `out`, claimed (`claim`) once the shards
/// are checked to be one meta-game.
pub fn merge_metagame(
    dirs: &[PathBuf],
    out: &Path,
    claim: impl FnOnce() -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut shards: Vec<(PathBuf, MetagameShard)> = Vec::new();
    for d in dirs {
        let p = d.join(SHARD_FILE);
        let text = std::fs::read_to_string(&p).map_err(|e| CliError::input(format!("{}: {e}", p.display())))?;
        let m: MetagameShard = serde_json::from_str(&text)
            .map_err(|e| CliError::input(format!("{}: not a meta-game shard: {e}", p.display())))?;
        shards.push((d.clone(), m));
    }
    shards.sort_by_key(|(_, m)| m.start);
    let first = shards[0].1.clone();
    let mut next = 0;
    for (d, m) in &shards {
        let same = MetagameShard { shard: first.shard, start: first.start, end: first.end, ..m.clone() } == first;
        if !same {
            return Err(CliError::input(format!(
                "{}: another meta-game (strategies, scenario, seed, campaigns or analysis settings differ)",
                d.display()
            )));
        }
        if m.start != next {
            return Err(CliError::input(format!(
                "{}: compositions {}..{} do not follow {next}: a shard is missing or overlaps",
                d.display(),
                m.start,
                m.end
            )));
        }
        next = m.end;
    }
    if next != first.total {
        return Err(CliError::input(format!(
            "the shards end at composition {next} of {}: a shard is missing",
            first.total
        )));
    }
    claim()?;
    let mut comps = Vec::with_capacity(first.total);
    for (d, m) in &shards {
        let part = crate::report::metagame::read_payoffs(&d.join("payoffs.parquet"), &first.strategies)?;
        if part.len() != m.end - m.start || part.iter().enumerate().any(|(j, (ix, _))| *ix != m.start + j) {
            return Err(CliError::input(format!("{}: payoffs.parquet does not hold its compositions", d.display())));
        }
        comps.extend(part.into_iter().map(|(_, c)| c));
    }
    let mg = metagame::analyse(
        &first.strategies,
        first.seats,
        first.seed,
        first.campaigns,
        comps,
        first.bootstrap,
        first.alpha,
        first.population,
    )?;
    write_metagame(&mg, out)
}

pub fn metagame_cmd(a: MetagameArgs) -> Result<(), CliError> {
    let sc = a.scenario.load()?;
    let names = list(&a.strategies);
    if a.bootstrap < 100 {
        return Err(CliError::input("--bootstrap must be at least 100 for a 95% interval"));
    }
    let shard = a.shards.resolve()?;
    let out = a.out.resolve_shard("metagame", &sc.name, &a.key(), &[&sc], shard)?;
    let campaigns = a.campaigns.n;
    let total = metagame::compositions_of(&sc, &names)?;
    let Some((i, k)) = shard else {
        let long = Long::start(a.threads, a.long, metagame::planned(total, campaigns), &out)?;
        let mg = long.run(|| {
            metagame::metagame(&sc, &names, a.master.seed, campaigns, a.bootstrap, a.alpha, a.population)
                .map_err(CliError::from)
        })?;
        long.finish();
        return write_metagame(&mg, &out);
    };
    // A shard: play its compositions and record them; `merge` analyses.
    let r = crate::sim::runner::shard_range(total as u64, i, k);
    let (start, end) = (r.start as usize, r.end as usize);
    let long = Long::start(a.threads, a.long, metagame::planned(end - start, campaigns), &out)?;
    let comps =
        long.run(|| metagame::play(&sc, &names, a.master.seed, campaigns, start..end).map_err(CliError::from))?;
    long.finish();
    crate::report::metagame::write_payoffs(&names, &comps, start, &out)
        .map_err(|e| CliError::io(format!("{}: {e}", out.display())))?;
    let m = MetagameShard {
        kind: "empires metagame shard".into(),
        strategies: names.clone(),
        seats: sc.players.len() as u32,
        seed: a.master.seed,
        campaigns,
        bootstrap: a.bootstrap,
        alpha: a.alpha,
        population: a.population,
        scenario_hash: crate::report::manifest::scenario_hash(&sc),
        shard: (i, k),
        start,
        end,
        total,
    };
    // Written last: a shard without it is not complete.
    write_file(&out.join(SHARD_FILE), serde_json::to_string_pretty(&m).expect("a shard record serialises").as_bytes())?;
    sayln!(
        "metagame shard {i}/{k}: compositions {start}..{end} of {total} written to {}; join the shards with `empires merge`",
        out.display()
    );
    Ok(())
}
