//! `empires sensitivity` and `empires solve`: flags, files and progress
//! around `balance::{sensitivity, solve}`.

use super::args::{
    BestResponseArgs, EvaluationCampaigns, PlayersArg, PointCampaigns, ScenarioArgs, SeedArg, ThreadsArg,
};
use super::key::{ResultKey, Shape, blank};
use super::long::{Interruption, Long, LongArgs};
use super::out::{Out, Request, SensitivityFolder, SolveFolder};
use super::shard::ShardArgs;
use super::{CliError, SeatArgs, create_out_dir};
use crate::balance::sensitivity::{self, Plan};
use crate::balance::solve::{self, Goal, PointPlayers, Settings};
use crate::balance::{metric_named, sobol};
use crate::report::balance as rb;
use crate::scenario::Scenario;
use crate::scenario::param::{self, Param};
use crate::sim::runner::seating;
use clap::Args;
use std::path::{Path, PathBuf};

/// Flags both commands share.
#[derive(Args, Debug, Clone)]
pub struct BalanceFlags {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub seats: SeatArgs,
    #[command(flatten)]
    pub master: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub long: LongArgs,
}

impl BalanceFlags {
    /// What these flags put in a key.
    fn shape(&self) -> Shape {
        Shape::new("BalanceFlags")
            .group("scenario", self.scenario.shape())
            .field("players", &self.players.players)
            .group("seats", self.seats.shape())
            .group("master", self.master.shape())
            .neutral("threads", blank::THREADS)
            .neutral("long", blank::LONG)
    }

    /// The base scenario with `--players` applied, and whether seats rotate.
    fn base(&self) -> Result<(Scenario, bool), CliError> {
        let sc = self.players.seat(self.scenario.load()?)?;
        let seated = seating(&[&sc], self.seats.flag());
        Ok((sc, seated.rotate()))
    }

    fn redo(&self) -> String {
        let c = self.scenario.flags() + &self.players.flag();
        let seats = crate::report::seating::flag(seating(&[], self.seats.flag()));
        c + seats + &format!(" --seed {}", self.master.seed)
    }

    /// The progress, Ctrl-C and kept work of `planned` campaigns into `out`.
    fn long(&self, planned: u64, out: &Path) -> Result<Long, CliError> {
        Long::start(self.threads, self.long, planned, out)
    }
}

#[derive(Args, Debug, Clone)]
pub struct SensitivityArgs {
    /// A metric by name, e.g. "share of gold from mines" or "win rate: seat
    /// 0".
    ///
    /// Here the one metric whose sensitivity is measured.
    #[arg(long)]
    pub metric: String,
    /// The keys to vary, `all` (every numeric key of the rules and every
    /// dice key) or K1,K2=LO..HI,...; a dice key varies its `.mult` or
    /// `.count`. Without a range a key varies by ±50% within its declared
    /// range.
    #[arg(long = "inputs", value_name = "all|K1,K2=LO..HI,...", value_delimiter = ',', default_value = "all")]
    pub keys: Vec<String>,
    /// Morris trajectories (each plays keys + 1 design points).
    #[arg(long, default_value_t = 10)]
    pub trajectories: usize,
    #[command(flatten)]
    pub campaigns: PointCampaigns,
    /// Sobol' indices for these keys (a short list of the --inputs keys), after
    /// the screening.
    #[arg(long, value_delimiter = ',')]
    pub sobol_keys: Vec<String>,
    /// Sobol' indices for the N keys with the largest μ* (no shards).
    #[arg(long, value_name = "N", conflicts_with = "sobol_keys")]
    pub sobol_top: Option<usize>,
    /// Rows of the Sobol' design (each plays keys + 2 points).
    #[arg(long, default_value_t = 64)]
    pub sobol_rows: usize,
    /// Analyse the points.parquet of finished shards (their directories)
    /// instead of playing.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub merge: Vec<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub out: Out<SensitivityFolder>,
    #[command(flatten)]
    pub flags: BalanceFlags,
}

impl ResultKey for SensitivityArgs {
    /// The shard is not named: a shard's folder adds it (`resolve_shard`).
    fn key(&self) -> String {
        let shape = Shape::new("SensitivityArgs")
            .field("metric", &self.metric)
            .field("keys", &self.keys)
            .field("trajectories", &self.trajectories)
            .field("campaigns", &self.campaigns.n)
            .field("sobol_keys", &self.sobol_keys)
            .field("sobol_top", &self.sobol_top)
            .field("sobol_rows", &self.sobol_rows)
            .field("merge", &self.merge)
            .neutral("shard", blank::SHARDS)
            .neutral_out()
            .group("flags", self.flags.shape());
        format!("sensitivity {shape}")
    }
}

fn slug(s: &str) -> String {
    let s: String = s.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    s.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-")
}

pub fn sensitivity_cmd(a: &SensitivityArgs) -> Result<(), CliError> {
    let (base, rotate) = a.flags.base()?;
    let metric = metric_named(&base, &a.metric)?;
    let params = param::parse_list(&a.keys, &base).map_err(|e| e.at("--inputs"))?;
    if params.is_empty() {
        return Err(CliError::input("--inputs: no key to vary"));
    }
    if a.trajectories < 2 || a.campaigns.n < 2 {
        return Err(CliError::input("--trajectories and --campaigns must each be at least 2 for an interval"));
    }
    let sobol_keys: Vec<usize> = a
        .sobol_keys
        .iter()
        .map(|k| {
            let k = k.trim();
            params
                .iter()
                .position(|p| p.name == k || p.key() == k)
                .ok_or_else(|| CliError::input(format!("--sobol-keys: {k} is not among the --inputs keys")))
        })
        .collect::<Result<_, _>>()?;
    let sobol = !sobol_keys.is_empty() || a.sobol_top.is_some();
    let plan = Plan {
        params,
        metric,
        trajectories: a.trajectories,
        campaigns: a.campaigns.n,
        master: a.flags.master.seed,
        rotate,
        sobol_rows: if sobol { a.sobol_rows.max(2) } else { 0 },
    };
    let shard = a.shard.resolve()?;
    if shard.is_some() && a.sobol_top.is_some() {
        return Err(CliError::input(
            "--sobol-top needs the whole screening first; with shards, name the keys with --sobol-keys",
        ));
    }
    let name = format!("{}-s{}", slug(&a.metric), plan.master);
    let out = a.out.resolve_shard("sensitivity", &name, &a.key(), &[&base], shard)?;
    let mut command = format!(
        "empires sensitivity --metric '{}' --inputs {} --trajectories {} --campaigns {}",
        a.metric,
        a.keys.join(","),
        a.trajectories,
        a.campaigns.n
    );
    if !a.sobol_keys.is_empty() {
        command += &format!(" --sobol-keys {} --sobol-rows {}", a.sobol_keys.join(","), plan.sobol_rows);
    }
    if let Some(n) = a.sobol_top {
        command += &format!(" --sobol-top {n} --sobol-rows {}", plan.sobol_rows);
    }
    command += &a.flags.redo();
    // Design points to play: every Morris point of this shard, the Sobol'
    // points of named keys, and (--sobol-top) those of the top keys.
    let (i, k) = shard.map_or((0, 1), |(i, k)| (i as usize, k as usize));
    let sobol_points = |keys: usize| (plan.sobol_rows.div_ceil(k) * (keys + 2)) as u64;
    let long = if a.merge.is_empty() || a.sobol_top.is_some() {
        let morris =
            if a.merge.is_empty() { (plan.trajectories.div_ceil(k) * (plan.params.len() + 1)) as u64 } else { 0 };
        let sobol = match a.sobol_top {
            Some(n) => sobol_points(n.min(plan.params.len())),
            None if sobol_keys.is_empty() => 0,
            None => sobol_points(sobol_keys.len()),
        };
        Some(a.flags.long((morris + sobol) * plan.campaigns, &out)?)
    } else {
        None
    };
    let points = match &long {
        Some(long) if a.merge.is_empty() => {
            let mut points =
                long.run(|| sensitivity::play_morris(&base, &plan, (i, k), |_| ()).map_err(CliError::from))?;
            if !sobol_keys.is_empty() {
                points.extend(long.run(|| {
                    sensitivity::play_sobol(&base, &plan, &sobol_keys, (i, k), |_| ()).map_err(CliError::from)
                })?);
            }
            points
        }
        _ => read_points(&a.merge, &plan)?,
    };
    if shard.is_some() && a.merge.is_empty() {
        // A shard writes its points; `--merge` analyses them all.
        drop(long);
        create_out_dir(&out)?;
        let df = rb::points_frame(&plan, &points).map_err(|e| CliError::io(e.to_string()))?;
        crate::report::dataset::write_parquet(&out, "points", df).map_err(|e| CliError::io(e.to_string()))?;
        sayln!("shard done: {} design points in {}/points.parquet", points.len(), out.display());
        sayln!("when every shard is done: {command} --merge DIR...");
        return Ok(());
    }
    let effects = sensitivity::morris_effects(&plan, &points);
    let mut points = points;
    let sobol_keys = match a.sobol_top {
        Some(n) => {
            let top = sensitivity::top(&effects, n.min(plan.params.len()));
            let long = long.as_ref().ok_or_else(|| CliError::io("internal: --sobol-top planned no play"))?;
            points.extend(
                long.run(|| sensitivity::play_sobol(&base, &plan, &top, (0, 1), |_| ()).map_err(CliError::from))?,
            );
            top
        }
        None => sobol_keys,
    };
    let indices: Option<sobol::Indices> =
        (!sobol_keys.is_empty()).then(|| sensitivity::sobol_indices(&plan, &sobol_keys, &points));
    let s = rb::Sensitivity {
        plan: &plan,
        effects: &effects,
        sobol: indices.as_ref(),
        sobol_keys: &sobol_keys,
        points: &points,
        command,
    };
    if let Some(l) = &long {
        l.finish();
    }
    say!("{}", rb::sensitivity_text(&s, 15));
    create_out_dir(&out)?;
    let files = rb::write_sensitivity(&s, &out)?;
    wrote(&files, &out);
    Ok(())
}

/// The design points of finished shards, checked to be one whole design.
fn read_points(dirs: &[PathBuf], plan: &Plan) -> Result<Vec<sensitivity::Point>, CliError> {
    let mut points = Vec::new();
    for d in dirs {
        points.extend(rb::read_points(&d.join("points.parquet"), plan)?);
    }
    let morris = points.iter().filter(|p| p.stage == "morris").count();
    let want = plan.trajectories * (plan.params.len() + 1);
    if morris != want {
        return Err(CliError::input(format!(
            "the shards hold {morris} Morris points, the design has {want}: give every shard's directory once, each run with the same flags"
        )));
    }
    // Each point must be the one this plan's design puts there: a shard
    // played with another --seed or other ranges holds other values.
    let design = plan.trajectories();
    for p in points.iter().filter(|p| p.stage == "morris") {
        let u = design.get(p.group).and_then(|t| t.points.get(p.position));
        let same = u.is_some_and(|u| plan.params.iter().zip(u).zip(&p.values).all(|((q, x), v)| q.value_at(*x) == *v));
        if !same {
            return Err(CliError::input(format!(
                "trajectory {} point {} of the shards is not this design's: were the shards run with another --seed or other --inputs ranges?",
                p.group, p.position
            )));
        }
    }
    Ok(points)
}

#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// A scenario number and the interval it varies over, KEY=LO..HI (a
    /// dice key by its .mult or .count).
    ///
    /// Here the interval the answer is searched in. One or two.
    #[arg(long = "range", value_name = "KEY=LO..HI", value_parser = super::args::key_range, required = true)]
    pub vary: Vec<String>,
    /// "METRIC = VALUE" or "METRIC = METRIC2". One per key; with two keys
    /// and one target, the balance curve.
    #[arg(long, required = true)]
    pub target: Vec<String>,
    #[command(flatten)]
    pub campaigns: EvaluationCampaigns,
    /// Bisection steps for a key that is not a whole number.
    #[arg(long, default_value_t = 12)]
    pub steps: usize,
    /// Two keys and one target: the values of the first key at which the
    /// second is solved.
    #[arg(long, default_value_t = 5)]
    pub curve_points: usize,
    #[command(flatten)]
    pub out: Out<SolveFolder>,
    #[command(flatten)]
    pub flags: BalanceFlags,
    /// With --best-response, every point the solve plays seats the players
    /// re-tuned in self-play under that point's rules; a restriction's
    /// field is the re-tuned player, and its restricted player that player
    /// with the restriction (not re-tuned under it: `experiment restrict
    /// --best-response` does that).
    #[command(flatten)]
    pub best: BestResponseArgs,
}

impl ResultKey for SolveArgs {
    fn key(&self) -> String {
        let shape = Shape::new("SolveArgs")
            .field("vary", &self.vary)
            .field("target", &self.target)
            .field("campaigns", &self.campaigns.n)
            .field("steps", &self.steps)
            .field("curve_points", &self.curve_points)
            .neutral_out()
            .group("flags", self.flags.shape())
            .group("best", self.best.shape());
        format!("solve {shape}")
    }
}

pub fn solve_cmd(a: &SolveArgs) -> Result<(), CliError> {
    let (base, rotate) = a.flags.base()?;
    let (keys, targets) = (a.vary.len(), a.target.len());
    if !(1..=2).contains(&keys) || !(1..=keys).contains(&targets) {
        return Err(CliError::input(
            "give one --range and one --target, two of each, or two --range and one --target (the balance curve)",
        ));
    }
    let params: Vec<Param> = a
        .vary
        .iter()
        .map(|v| Param::parse(v, &base).map_err(|e| CliError::from(e.at("--range"))))
        .collect::<Result<_, _>>()?;
    if keys == 2 && params[0].key() == params[1].key() {
        return Err(CliError::input("--range: the two keys must differ"));
    }
    let goals: Vec<Goal> = a.target.iter().map(|t| Goal::parse(t, &base)).collect::<Result<_, _>>()?;
    let campaigns = a.campaigns.n;
    if campaigns < 2 {
        return Err(CliError::input("--campaigns must be at least 2 for an interval"));
    }
    let mut command = String::from("empires solve");
    for v in &a.vary {
        command += &format!(" --range {v}");
    }
    for t in &a.target {
        command += &format!(" --target '{t}'");
    }
    command += &format!(" --campaigns {campaigns} --steps {}", a.steps);
    if keys == 2 && targets == 1 {
        command += &format!(" --curve-points {}", a.curve_points);
    }
    command += &a.flags.redo();
    command += &a.best.redo();
    let seating = match a.best.budget() {
        None => PointPlayers::AsSeated,
        Some(budget) => PointPlayers::BestResponse { start: a.flags.players.or_tuned(), budget },
    };
    let settings = Settings { campaigns, master: a.flags.master.seed, rotate, max_steps: a.steps.max(1), seating };
    if let PointPlayers::BestResponse { start, .. } = &settings.seating {
        base.named_strategy(start).map_err(|e| e.at("--players"))?;
    }
    let players_line = settings.seating.line(settings.master);
    let out = {
        let name: Vec<String> = params.iter().map(|p| slug(&p.name)).collect();
        a.out.resolve("solve", &format!("{}-s{}", name.join("+"), settings.master), &Request::of(&a.key(), &[&base]))?
    };
    let text = base_text(a.flags.scenario.scenario.as_deref())?;
    let mut header = vec![format!("Solved by: {command}")];
    if !a.flags.scenario.set.is_empty() {
        header.push(format!(
            "Played with these overrides too: {}",
            a.flags.scenario.set.iter().map(|s| format!("--set '{s}'")).collect::<Vec<_>>().join(" ")
        ));
    }
    if let Some(l) = &players_line {
        header.push(format!("Solved with {l}"));
    }
    // No root is a negative answer (exit 1), with what the search played;
    // anything else that stops a solve keeps the class it failed with.
    let unmet = |e: solve::SolveError, text: String| -> CliError {
        if let solve::SolveError::Failed(e) = e {
            return e.into();
        }
        say!("{text}");
        let written = create_out_dir(&out).and_then(|_| rb::write_unmet(&e, &command, &out).map_err(CliError::from));
        match written {
            Ok(files) => {
                wrote(&files, &out);
                CliError::verdict("no root found (exit 1): no value played meets the target within noise")
            }
            Err(io) => io,
        }
    };
    // The bar's length is an estimate: a bisection stops when it meets the
    // target (each evaluation plays --campaigns, and with --best-response
    // first tunes the players); the held-out confirmation plays once more.
    let evaluations = (a.steps.max(1) + 3) as u64
        * match (keys, targets) {
            (1, 1) => 1,
            (2, 2) => 2 * (a.steps.max(1) + 3) as u64,
            _ => a.curve_points.max(1) as u64,
        };
    let tuning = a.best.budget().map_or(0, |b| crate::strength::best_response::tuning_planned(&base, &b));
    // Under best response, each solved point's player gets the competence
    // check (a curve solves once per point).
    let solutions = if (keys, targets) == (2, 1) { a.curve_points.max(1) as u64 } else { 1 };
    let checks = solutions * settings.seating.check_planned();
    let long = a.flags.long(evaluations * (campaigns + tuning) + checks, &out)?;
    let zz = crate::stats::z(0.95);
    let (files, met) = match (keys, targets) {
        (k, t) if k == t => {
            let s = long.check(long.pool().install(|| {
                solve::solve(&base, &params, &goals, settings, |e| {
                    long.println(match params.as_slice() {
                        [p] => {
                            format!("  {} = {}: gap {:+.4} ± {:.4}", p.name, p.show(e.x[0]), e.gap[0], zz * e.gap_se[0])
                        }
                        _ => {
                            let at: Vec<String> = params.iter().zip(&e.x).map(|(p, &x)| p.show(x)).collect();
                            let gaps: Vec<String> = e
                                .gap
                                .iter()
                                .zip(&e.gap_se)
                                .map(|(g, se)| format!("{g:+.4} ± {:.4}", zz * se))
                                .collect();
                            format!("  ({}): gaps {}", at.join(", "), gaps.join(", "))
                        }
                    });
                })
            }))?;
            long.finish();
            let s = match s {
                Ok(s) => s,
                Err(solve::SolveError::NoRoot(u)) => {
                    let text = rb::unmet_text(&u, &command);
                    return Err(unmet(solve::SolveError::NoRoot(u), text));
                }
                Err(e) => return Err(crate::error::Error::from(e).into()),
            };
            say!("{}", rb::solve_text(&s, &command));
            header.push(format!("{}; held-out seeds: {}", s.summary(), s.confirm.verdict()));
            create_out_dir(&out)?;
            let patched = rb::patched_toml(&text, &params.iter().collect::<Vec<_>>(), &s.scenario, &header)?;
            (rb::write_solve(&s, &patched, &command, &out)?, s.confirm.met)
        }
        _ => {
            let ps = [params[0].clone(), params[1].clone()];
            let c = long.run(|| {
                solve::curve(&base, &ps, &goals[0], settings, a.curve_points, |x, e| {
                    long.println(format!(
                        "  {} = {}, {} = {}: gap {:+.4} ± {:.4}",
                        ps[0].name,
                        ps[0].show(x),
                        ps[1].name,
                        ps[1].show(e.x[0]),
                        e.gap[0],
                        zz * e.gap_se[0]
                    ));
                })
                .map_err(CliError::from)
            })?;
            // A point's solve stopped by Ctrl-C is kept as that point's
            // error: the curve is interrupted, not a verdict.
            if c.points.iter().any(|(_, r)| matches!(r, Err(e) if e.is_interruption())) {
                return Err(long.interrupted(""));
            }
            long.finish();
            say!("{}", rb::curve_text(&c, &ps[1], &goals[0].text(), &command));
            create_out_dir(&out)?;
            let files = rb::write_curve(&c, &ps[1], &goals[0].text(), &text, &command, &out)?;
            if c.points.iter().all(|(_, r)| r.is_err()) {
                wrote(&files, &out);
                return Err(CliError::verdict("no root found (exit 1) at any point of the curve"));
            }
            (files, c.points.iter().all(|(_, r)| r.as_ref().map_or(true, |s| s.confirm.met)))
        }
    };
    wrote(&files, &out);
    if !met {
        return Err(CliError::verdict(
            "the written value does NOT meet the target on the held-out seeds (exit 1): see the held-out line above",
        ));
    }
    Ok(())
}

/// The text of the scenario file, or of the embedded default.
fn base_text(path: Option<&Path>) -> Result<String, CliError> {
    match path {
        None => Ok(crate::scenario::DEFAULT_TOML.to_string()),
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| CliError::input(format!("{}: cannot read the scenario: {e}", p.display()))),
    }
}

/// Say what was written where, and which page to open.
fn wrote(files: &[String], out: &Path) {
    sayln!("wrote {} and index.html in {}; open {}", files.join(", "), out.display(), out.join("index.html").display());
}
