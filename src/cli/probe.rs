//! `empires probe`: flags, files and the progress bar around
//! `strength::probe`, the competence check.

use super::CliError;
use super::args::{ProbeCampaigns, ScenarioArgs, SeedArg, ThreadsArg};
use super::key::{ResultKey, Shape, blank};
use super::long::{Long, LongArgs};
use super::out::{Out, ProbeFolder, Request};
use crate::report::files::write_file;
use crate::report::probe as rp;
use crate::strength::probe::{self, Settings};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The strategy to check: the probed player and its copies in every
    /// other seat.
    #[arg(long, default_value = "tuned")]
    pub strategy: String,
    #[command(flatten)]
    pub campaigns: ProbeCampaigns,
    #[command(flatten)]
    pub master: SeedArg,
    /// Only the probes on these topics (T1,T2,...: gold, mine, pillage,
    /// loot, units, army, spies, ships, naval, siege, ep).
    #[arg(long)]
    pub topics: Option<String>,
    /// The gold gift.
    #[arg(long, default_value_t = Settings::default().gold as u64, allow_negative_numbers = true, value_parser = super::args::count::<1>)]
    pub gold: u64,
    /// The harm, in win-rate points, that a probe tolerates: a gift must
    /// not cost more, a restriction not gain more.
    #[arg(long, default_value_t = 100.0 * Settings::default().tolerance)]
    pub tolerance: f64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<ProbeFolder>,
    /// Exit with code 1 when the verdict is "bounded by the players" (for
    /// a CI check).
    #[arg(long)]
    pub strict: bool,
    /// Add a best-response probe (weighted players): every key tuned at
    /// once against copies of the player, on seeds of its own, then played
    /// in the probed slot; it must not win more than the tolerance. Finds
    /// holes no single gift or restriction shows (two keys at once).
    #[arg(long = "best-response-probe")]
    pub best_response: bool,
    /// The best response's tuning: CMA-ES generations.
    #[arg(long, value_name = "N", default_value_t = probe::BestResponse::default().generations, value_parser = clap::value_parser!(u32).range(1..))]
    pub best_response_generations: u32,
    /// The best response's tuning: campaigns an evaluation plays.
    #[arg(long, default_value_t = probe::BestResponse::default().per_eval, value_parser = super::args::count::<1>)]
    pub best_response_campaigns: u64,
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for ProbeArgs {
    /// `--strict` changes the exit code, which a finished folder records
    /// (and `--resume` there returns), as `deviate`'s does.
    fn key(&self) -> String {
        let shape = Shape::new("ProbeArgs")
            .group("scenario", self.scenario.shape())
            .field("strategy", &self.strategy)
            .field("campaigns", &self.campaigns.n)
            .group("master", self.master.shape())
            .field("topics", &self.topics)
            .field("gold", &self.gold)
            .field("tolerance", &self.tolerance)
            .neutral_threads_out()
            .field("strict", &self.strict)
            .neutral("long", blank::LONG)
            .added("best_response", &self.best_response, &false)
            .added(
                "best_response_generations",
                &self.best_response_generations,
                &probe::BestResponse::default().generations,
            )
            .added("best_response_campaigns", &self.best_response_campaigns, &probe::BestResponse::default().per_eval);
        format!("probe {shape}")
    }
}

/// Every topic a probe names, for checking `--topics`.
fn known_topics() -> Vec<&'static str> {
    let mut t: Vec<&str> = probe::family(&Settings::default()).iter().flat_map(|p| p.topics.iter().copied()).collect();
    t.sort_unstable();
    t.dedup();
    t
}

pub fn run(a: ProbeArgs) -> Result<(), CliError> {
    if !(0.0..100.0).contains(&a.tolerance) {
        return Err(CliError::input(format!("--tolerance {}: give points in [0, 100)", a.tolerance)));
    }
    let gold = i32::try_from(a.gold).map_err(|_| CliError::input(format!("--gold {}: too large", a.gold)))?;
    let settings = Settings { gold, tolerance: a.tolerance / 100.0, ..Settings::default() };
    let topics: Option<Vec<String>> =
        a.topics.as_deref().map(|s| s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect());
    if let Some(ts) = &topics {
        let known = known_topics();
        if let Some(bad) = ts.iter().find(|t| !known.contains(&t.as_str())) {
            return Err(CliError::input(format!("--topics: {bad:?} is not a topic (known: {})", known.join(", "))));
        }
    }
    let sc = a.scenario.load()?;
    let spec = sc.named_strategy(&a.strategy)?;
    if a.best_response && spec.kind != crate::scenario::StrategyKind::Weighted {
        return Err(CliError::input(format!(
            "--best-response-probe tunes a weighted player's keys; {:?} is a {:?} player",
            a.strategy, spec.kind
        )));
    }
    let wanted: Option<Vec<&str>> = topics.as_ref().map(|ts| ts.iter().map(String::as_str).collect());
    let probes = probe::on_topics(&settings, wanted.as_deref());
    let out = a.out.resolve("probe", &a.strategy, &Request::of(&a.key(), &[&sc]))?;
    let campaigns = a.campaigns.n;
    let budget = probe::BestResponse {
        generations: a.best_response_generations,
        per_eval: a.best_response_campaigns,
        ..probe::BestResponse::default()
    };
    // The best response's tuning, then its probe, then the others.
    let planned = probe::planned(&probes, campaigns)
        + if a.best_response { budget.campaigns(sc.players.len()) + campaigns } else { 0 };
    let long = Long::start(a.threads, a.long, planned, &out)?;
    let c = long.run(|| {
        let mut probes = probes.clone();
        if a.best_response {
            let (br, _) = probe::best_response(&sc, &a.strategy, a.master.seed, budget)?;
            probes.push(br);
        }
        probe::check(&sc, &a.strategy, probes, settings, a.master.seed, campaigns).map_err(CliError::from)
    })?;
    long.finish();
    let text = rp::text(&c);
    say!("{text}");
    write_file(&out.join("probe.csv"), rp::csv(&c).as_bytes())?;
    write_file(&out.join("probe.txt"), text.as_bytes())?;
    rp::page(&c, &text, &out).map_err(|e| e.at(out.display()))?;
    sayln!("wrote probe.csv, probe.txt and index.html to {}", out.display());
    if a.strict && c.verdict() == probe::Verdict::Bounded {
        return Err(CliError::verdict(format!("{} is bounded by the players on {}", a.strategy, sc.name)));
    }
    Ok(())
}
