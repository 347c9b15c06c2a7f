//! `empires styles`: flags, files and the progress bar around
//! `strength::styles` (the map of viable styles).

use super::CliError;
use super::args::{ScenarioArgs, SeedArg, ThreadsArg, list};
use super::key::{ResultKey, Shape, blank};
use super::long::{Long, LongArgs, after_step, read_record, write_record};
use super::out::{Out, Request, StylesFolder};
use super::shard::ShardArgs;
use crate::report::files::write_file;
use crate::report::styles as rs;
use crate::strength::styles::{self, Axis, Record, Settings, Styles};
use crate::strength::tune::{Objective, default_population};
use clap::Args;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct StylesArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The strategies that seed the map (A,B,...; default: every weighted
    /// strategy the scenario knows). Each point keeps its start's other
    /// keys (formation, siege outcome, keys not mapped).
    #[arg(long)]
    pub starts: Option<String>,
    /// The opponents, filling the other seats in turn (A,B,...; default:
    /// the scenario's strong field, `equilibrium`).
    #[arg(long, default_value = crate::strategy::STRONG)]
    pub against: String,
    /// The keys the emitters move (K1,K2,...), or `all`: every numeric key
    /// but those a start keeps (`tune_keep`).
    #[arg(long, default_value = "all")]
    pub keys: String,
    /// The map's two behaviour axes, X,Y: battles, source, spent, mines,
    /// raids, castles, sieges, ships (docs/tuning.md).
    #[arg(long, default_value = crate::strength::styles::AXES_FLAG)]
    pub axes: String,
    /// Bins along each axis (`source` has one more: no gold earned).
    #[arg(long, default_value_t = crate::strength::styles::BINS as u32, value_parser = clap::value_parser!(u32).range(2..=32))]
    pub bins: u32,
    /// Campaigns to spend on the search (the starts once, then the
    /// emitters' generations); sets the number of generations.
    #[arg(long, default_value_t = 240_000, conflicts_with = "generations")]
    pub budget: u64,
    /// Emitter generations in all, instead of --budget.
    #[arg(long)]
    pub generations: Option<u32>,
    /// Campaigns per candidate (a multiple of the seat count).
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = super::args::count::<1>)]
    pub campaigns_per_eval: u64,
    /// CMA-ES emitters, taking turns.
    #[arg(long, default_value_t = crate::strength::styles::EMITTERS as u32, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub emitters: u32,
    /// Candidates per emitter generation (default: CMA-ES's 4 + 3 ln(keys)).
    #[arg(long)]
    pub population: Option<usize>,
    /// Each emitter's initial step size, as a share of each key's range.
    #[arg(long, default_value_t = 0.2)]
    pub sigma: f64,
    /// What a cell's elite is the best at: `rank` points, `share` of the
    /// final sizes or `wins` (the held-out figures are win rates).
    #[arg(long, default_value = "rank", value_parser = super::args::parse_objective)]
    pub objective: Objective,
    #[command(flatten)]
    pub master: SeedArg,
    /// Campaigns each elite plays on the held-out seed.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = super::args::count::<2>)]
    pub eval_campaigns: u64,
    /// Master seed of the held-out evaluation (default: derived from --seed,
    /// never one the search plays).
    #[arg(long)]
    pub eval_seed: Option<u64>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<StylesFolder>,
    /// Play one shard of the work into a shared `--out` (`psro --shard`):
    /// every shard walks the whole search and ends with its answer.
    #[command(flatten)]
    pub shards: ShardArgs,
    /// `--resume` continues the generations recorded in the output folder
    /// (record.json), and the generation Ctrl-C stopped from its kept work.
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for StylesArgs {
    fn key(&self) -> String {
        let shape = Shape::new("StylesArgs")
            .group("scenario", self.scenario.shape())
            .field("starts", &self.starts)
            .field("against", &self.against)
            .field("keys", &self.keys)
            .field("axes", &self.axes)
            .field("bins", &self.bins)
            .field("budget", &self.budget)
            .field("generations", &self.generations)
            .field("campaigns_per_eval", &self.campaigns_per_eval)
            .field("emitters", &self.emitters)
            .field("population", &self.population)
            .field("sigma", &self.sigma)
            .field("objective", &self.objective)
            .group("master", self.master.shape())
            .field("eval_campaigns", &self.eval_campaigns)
            .field("eval_seed", &self.eval_seed)
            .neutral("threads", blank::THREADS)
            .neutral_out()
            .neutral("long", blank::LONG)
            .neutral("shards", blank::SHARDS);
        format!("styles {shape}")
    }
}

pub fn styles_cmd(a: StylesArgs) -> Result<(), CliError> {
    let started = Instant::now();
    let sc = a.scenario.load()?;
    let starts = match &a.starts {
        Some(s) => list(s),
        None => styles::weighted_strategies(&sc),
    };
    let specs: Vec<_> =
        starts.iter().map(|n| sc.named_strategy(n)).collect::<Result<_, _>>().map_err(|e| e.at("--starts"))?;
    let keys = if a.keys == "all" { styles::keys_of(&specs) } else { list(&a.keys) };
    let axes = list(&a.axes);
    let [x, y] = axes.as_slice() else {
        return Err(CliError::input(format!("--axes: name two axes, X,Y (found {:?})", a.axes)));
    };
    let axes = [Axis::parse(x).map_err(|e| e.at("--axes"))?, Axis::parse(y).map_err(|e| e.at("--axes"))?];
    let population = a.population.unwrap_or_else(|| default_population(keys.len()));
    let per_eval = a.campaigns_per_eval;
    let generations =
        a.generations.unwrap_or_else(|| styles::generations_for(a.budget, starts.len(), population, per_eval));
    let settings = Settings {
        starts,
        field: list(&a.against),
        keys,
        axes,
        bins: a.bins as usize,
        per_eval,
        emitters: a.emitters as usize,
        population,
        sigma: a.sigma,
        generations,
        objective: a.objective,
        seed: a.master.seed,
    };
    let p = Styles::new(&sc, settings)?;
    let request = Request::of(&a.key(), &[&sc]);
    let out = a.out.resolve("styles", &a.scenario.file_name(), &request)?;
    let record_path = out.join("record.json");
    let previous: Option<Record> = read_record(a.long.resume, &record_path, |text| {
        serde_json::from_str(text).map_err(|e| format!("not a style map's record: {e}"))
    })?;
    let search = styles::campaigns(&p.settings);
    sayln!(
        "styles of {} against {}: {} keys, axes {} × {}, {} emitters × {generations} generations × {population} \
         candidates × {per_eval} campaigns = {search} campaigns, each cell's elite the best by {} (seed {})",
        p.settings.starts.join(", "),
        p.settings.field.join(","),
        p.space.dim(),
        axes[0].name(),
        axes[1].name(),
        a.emitters,
        a.objective.words(),
        a.master.seed
    );
    // The held-out evaluation's length is known only once the map is: the
    // bar counts the search, then grows by what the evaluation plays.
    let long = Long::start_shard(a.threads, a.long, search, &out, super::shard::said(a.shards, &out)?)?;
    if let Some(prev) = &previous {
        long.skip(
            p.settings.starts.len() as u64 * per_eval + prev.generations.len() as u64 * population as u64 * per_eval,
        );
    }
    let mut write_err: Option<CliError> = None;
    let rec = long.run(|| {
        styles::run(&p, previous, |rec| {
            let g = rec.generations.last().expect("called after a generation");
            long.message(format!(
                "gen {}/{generations}  emitter {}  new cells {}  improved {}{}",
                rec.generations.len(),
                g.emitter,
                g.new,
                g.improved,
                if g.restarted { "  (restarted)" } else { "" }
            ));
            after_step(&mut write_err, || write_record(&record_path, rec))
        })
        .map_err(CliError::from)
    });
    if let Some(e) = write_err {
        return Err(e);
    }
    let rec = rec?;
    if rec.generations.len() < generations as usize {
        return Err(long.interrupted(&format!("after {} of {generations} generations", rec.generations.len())));
    }
    write_record(&record_path, &rec)?;
    let archive = p.archive(&rec);
    let eval_master = a.eval_seed.unwrap_or_else(|| styles::held_out_master(a.master.seed));
    long.grow(archive.cells.len() as u64 * a.eval_campaigns);
    let rows = long.run(|| styles::evaluate(&p, &archive, eval_master, a.eval_campaigns).map_err(CliError::from))?;
    long.finish();
    let summary = rs::Summary {
        command: rs::command(
            &p,
            a.scenario.scenario.as_ref().and_then(|f| f.to_str()),
            &a.scenario.set.set,
            a.keys == "all",
        ),
        campaigns_played: search + rows.len() as u64 * a.eval_campaigns,
        seconds: started.elapsed().as_secs_f64(),
        eval_master,
        eval_campaigns: a.eval_campaigns,
    };
    let text = rs::text(&p, &rec, &rows, &summary);
    say!("{text}");
    write_file(&out.join("styles.txt"), text.as_bytes())?;
    write_file(&out.join("styles.toml"), rs::strategies_toml(&p, &rows, &summary)?.as_bytes())?;
    rs::write_table(&p, &rows, &out).map_err(|e| CliError::io(format!("{}: {e}", out.display())))?;
    let files = rs::page(&p, &rec, &rows, &summary, &text, &out)
        .map_err(|e| CliError::io(format!("{}: {e}", out.display())))?;
    sayln!(
        "wrote styles.txt, styles.toml, styles.parquet, record.json, index.html and {} chart files to {}",
        files.len(),
        out.display()
    );
    Ok(())
}
