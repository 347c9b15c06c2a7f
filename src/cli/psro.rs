//! `empires psro`: flags, files and the progress bar around
//! `strength::psro` (an equilibrium over a population, and its
//! exploitability).

use super::CliError;
use super::args::{ScenarioArgs, SeedArg, ThreadsArg, list};
use super::key::{ResultKey, Shape, blank};
use super::long::{Long, LongArgs, after_step, read_record, write_record};
use super::out::{Out, PsroFolder, Request};
use super::shard::ShardArgs;
use crate::report::files::write_file;
use crate::report::psro as rp;
use crate::strength::climb::{Length, Plan, Regime, Start};
use crate::strength::psro::{self, Record, Settings};
use crate::strength::tune::Objective;
use clap::Args;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct PsroArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The population's first members (A,B,...: weighted strategies).
    #[arg(long, default_value = "tuned")]
    pub members: String,
    /// Rounds: each adds the best response to the population's equilibrium.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub rounds: u32,
    /// Campaigns per composition of the meta-game.
    #[arg(long, default_value_t = 400, allow_negative_numbers = true, value_parser = super::args::count::<2>)]
    pub meta_campaigns: u64,
    /// Where the oracle's restarts start besides one from each member
    /// (A,B,...: weighted strategies, or `random`).
    #[arg(long, default_value = "warlord,pillager,miner,random")]
    pub starts: String,
    /// The oracle's restarts a round, at least one a member and a start.
    #[arg(long, default_value_t = 0)]
    pub restarts: u32,
    /// How the oracle's population grows from one pass over its starts to
    /// the next (`tune --regime`).
    #[arg(long, default_value = "ipop", value_parser = super::args::parse_regime)]
    pub regime: Regime,
    /// Campaigns each of the oracle's restarts plays.
    #[arg(long, default_value_t = 60_000)]
    pub budget: u64,
    /// Campaigns per candidate of the oracle (rounded up to the seats).
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = super::args::count::<1>)]
    pub campaigns_per_eval: u64,
    /// Candidates per generation of the oracle's CMA-ES.
    #[arg(long, default_value_t = 15)]
    pub cma_population: usize,
    /// The oracle's initial step size, as a share of each key's range.
    #[arg(long, default_value_t = 0.2)]
    pub sigma: f64,
    /// What the oracle maximises (`tune --objective`).
    #[arg(long, default_value = "rank", value_parser = super::args::parse_objective)]
    pub objective: Objective,
    /// Campaigns each of the oracle's finalists plays in its selection.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = super::args::count::<2>)]
    pub select_campaigns: u64,
    /// Campaigns of the oracle's style map a round (`styles` against the
    /// mixture, from the members and the named starts; its best 3 elites
    /// join the selection). 0: the restarts alone.
    #[arg(long, default_value_t = 240_000)]
    pub styles_budget: u64,
    /// Campaigns of each round's held-out exploitability measurement.
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = super::args::count::<2>)]
    pub eval_campaigns: u64,
    #[command(flatten)]
    pub master: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<PsroFolder>,
    /// Also write the population's new members and `[strategies.equilibrium]`
    /// into this scenario file (replacing tables of those names; the rest of
    /// the file is kept as it is). The file is checked with them in before
    /// it is written.
    #[arg(long, value_name = "FILE")]
    pub install: Option<std::path::PathBuf>,
    /// Play one shard of the work, every shard with the same flags and
    /// `--out` on a shared file system (a Slurm job array: one task a
    /// shard). Each shard walks every round, plays the pieces that fall to
    /// it and reads the others' from OUT/cells/ as they appear, so all end
    /// with the same files; a piece not delivered within a few times what
    /// it takes to play is played by whoever waits for it.
    #[command(flatten)]
    pub shards: ShardArgs,
    /// `--resume` continues from the rounds recorded in the output folder
    /// (record.json), and the round Ctrl-C stopped from its kept work.
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for PsroArgs {
    fn key(&self) -> String {
        let shape = Shape::new("PsroArgs")
            .group("scenario", self.scenario.shape())
            // Named as it was when the flag was `--population`, so old
            // folders keep their key.
            .field("population", &self.members)
            .field("rounds", &self.rounds)
            .field("meta_campaigns", &self.meta_campaigns)
            .field("starts", &self.starts)
            .field("restarts", &self.restarts)
            .field("regime", &self.regime)
            .field("budget", &self.budget)
            .field("campaigns_per_eval", &self.campaigns_per_eval)
            .field("cma_population", &self.cma_population)
            .field("sigma", &self.sigma)
            .field("objective", &self.objective)
            .field("select_campaigns", &self.select_campaigns)
            .field("eval_campaigns", &self.eval_campaigns)
            .field("styles_budget", &self.styles_budget)
            .group("master", self.master.shape())
            .neutral("threads", blank::THREADS)
            .neutral_out()
            .neutral("long", blank::LONG)
            // Every shard walks the whole request and ends with its answer.
            .neutral("shards", blank::SHARDS)
            // The same tables written into another file: the same result.
            .neutral("install", blank::NONE);
        format!("psro {shape}")
    }
}

pub fn psro_cmd(a: PsroArgs) -> Result<(), CliError> {
    let started = Instant::now();
    let sc = a.scenario.load()?;
    if !(a.sigma.is_finite() && a.sigma > 0.0 && a.sigma <= 1.0) {
        return Err(CliError::input(format!("--sigma must be above 0 and at most 1 (found {})", a.sigma)));
    }
    if a.cma_population < 2 {
        return Err(CliError::input("--cma-population must be at least 2"));
    }
    let starts: Vec<Start> = list(&a.starts).iter().map(|s| Start::parse(s)).collect();
    for s in &starts {
        if let Start::Named(n) = s {
            sc.named_strategy(n).map_err(|e| e.at("--starts"))?;
        }
    }
    let settings = Settings {
        population: list(&a.members),
        rounds: a.rounds,
        meta_campaigns: a.meta_campaigns,
        plan: Plan { starts, restarts: a.restarts, regime: a.regime, length: Length::Campaigns(a.budget) },
        per_eval: a.campaigns_per_eval,
        population_size: a.cma_population,
        sigma: a.sigma,
        objective: a.objective,
        select_campaigns: a.select_campaigns,
        eval_campaigns: a.eval_campaigns,
        seed: a.master.seed,
        styles_budget: a.styles_budget,
    };
    psro::check(&sc, &settings).map_err(|e| e.at("--members"))?;
    // Read before any round, so a missing file fails in a second.
    let install = match &a.install {
        None => None,
        Some(f) => Some((
            f,
            std::fs::read_to_string(f)
                .map_err(|e| CliError::input(format!("--install {}: cannot read the scenario: {e}", f.display())))?,
        )),
    };
    let request = Request::of(&a.key(), &[&sc]);
    let out = a.out.resolve("psro", &a.scenario.file_name(), &request)?;
    let record_path = out.join("record.json");
    let previous: Option<Record> = read_record(a.long.resume, &record_path, |text| {
        serde_json::from_str(text).map_err(|e| format!("not a PSRO record: {e}"))
    })?;
    let planned = psro::planned(&sc, &settings);
    sayln!(
        "psro on {}: population {}, up to {} rounds (meta-game {} campaigns a composition; oracle: a restart from \
         each member and from {}, {} campaigns each, and a style map of {} campaigns, maximising {}; \
         exploitability on {} held-out campaigns), at most {planned} campaigns (seed {})",
        sc.name,
        settings.population.join(", "),
        a.rounds,
        a.meta_campaigns,
        list(&a.starts).join(", "),
        a.budget,
        a.styles_budget,
        a.objective.words(),
        a.eval_campaigns,
        a.master.seed
    );
    let long = Long::start_shard(a.threads, a.long, planned, &out, super::shard::said(a.shards, &out)?)?;
    let seats = sc.players.len();
    let mut write_err: Option<CliError> = None;
    let rec = long.run(|| {
        psro::run(&sc, &settings, previous, |rec| {
            let r = rec.rounds.last().expect("called after a round");
            long.println(rp::round_line(rec.rounds.len() - 1, r, seats));
            after_step(&mut write_err, || write_record(&record_path, rec))
        })
        .map_err(CliError::from)
    });
    if let Some(e) = write_err {
        return Err(e);
    }
    let rec = rec?;
    let closed = rec.rounds.last().is_some_and(|r| !r.new);
    if rec.rounds.len() < a.rounds as usize && !closed {
        return Err(long.interrupted(&format!("after {} of {} rounds", rec.rounds.len(), a.rounds)));
    }
    long.finish();
    write_record(&record_path, &rec)?;
    let command = rp::command(&a.scenario.scenario, &a.scenario.set.set, &settings, a.budget, a.restarts);
    let text = rp::text(&sc, &rec, &command, started.elapsed().as_secs_f64());
    say!("{text}");
    write_file(&out.join("psro.txt"), text.as_bytes())?;
    let tables = rp::equilibrium_toml(&sc, &rec, &command)?;
    write_file(&out.join("equilibrium.toml"), tables.as_bytes())?;
    if let Some((file, text)) = install {
        let mut text = text;
        let mut said = Vec::new();
        let old_members = crate::report::strength::mixture_members(&text, psro::MIXTURE);
        let names: Vec<String> =
            rec.rounds.iter().enumerate().filter(|(_, r)| r.new).map(|(k, _)| psro::response_name(k)).collect();
        for name in names.iter().cloned().chain(std::iter::once(psro::MIXTURE.to_string())) {
            let (new, replaced) = crate::report::strength::install(&text, &tables, &name)
                .map_err(|e| e.at(format_args!("--install {}", file.display())))?;
            said.push(format!("{} [strategies.{name}]", if replaced { "replaced" } else { "added" }));
            text = new;
        }
        let source = crate::scenario::Source::file(file.display().to_string());
        let loads = |text: &str| crate::scenario::load_with_overrides(text, &source, &[]);
        loads(&text).map_err(|e| {
            CliError::input(format!("--install {}: the file would not load with the tables in:\n{e}", file.display()))
        })?;
        // A response an earlier fit installed and this one did not find
        // would stay in the file as a player nobody seats and the docs
        // never name; it goes, unless something else in the file still
        // plays it (then the file would not load without it).
        for stale in old_members
            .iter()
            .filter(|m| psro::is_response_name(m) && !names.contains(m) && !settings.population.contains(m))
        {
            let Some(without) = crate::report::strength::uninstall(&text, stale)
                .map_err(|e| e.at(format_args!("--install {}", file.display())))?
            else {
                continue;
            };
            if loads(&without).is_ok() {
                said.push(format!("removed [strategies.{stale}] (the earlier fit's)"));
                text = without;
            } else {
                said.push(format!("kept [strategies.{stale}] (the earlier fit's, still played in the file)"));
            }
        }
        write_file(file, text.as_bytes())?;
        sayln!(
            "{} in {}; play it with --scenario {} --players {}",
            said.join(", "),
            file.display(),
            file.display(),
            psro::MIXTURE
        );
    }
    sayln!("wrote psro.txt, equilibrium.toml and record.json to {}", out.display());
    Ok(())
}
