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
            .neutral("long", blank::LONG);
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
    sc.named_strategy(&a.strategy)?;
    let wanted: Option<Vec<&str>> = topics.as_ref().map(|ts| ts.iter().map(String::as_str).collect());
    let probes = probe::on_topics(&settings, wanted.as_deref());
    let out = a.out.resolve("probe", &a.strategy, &Request::of(&a.key(), &[&sc]))?;
    let campaigns = a.campaigns.n;
    let long = Long::start(a.threads, a.long, probe::planned(&probes, campaigns), &out)?;
    let c = long.run(|| {
        probe::check(&sc, &a.strategy, probes.clone(), settings, a.master.seed, campaigns).map_err(CliError::from)
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
