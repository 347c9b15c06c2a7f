//! `empires value`: flags and files around `strength::value`, the value a
//! search's cut-short rollouts are judged by, learned from self-play.

use super::CliError;
use super::args::{ScenarioArgs, SeedArg, SelfPlayCampaigns, ThreadsArg};
use super::key::{ResultKey, Shape, blank};
use super::long::{Long, LongArgs};
use super::out::{Out, Request, ValueFolder};
use crate::report::files::write_file;
use crate::strategy::value::NAMES;
use crate::strength::tune::held_out_master;
use crate::strength::value::{collect, fit, judge};
use clap::Args;
use std::fmt::Write;

#[derive(Args, Debug, Clone)]
pub struct ValueArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The strategy that plays every seat of the self-play campaigns (the
    /// search's `base`: its rollouts play it).
    #[arg(long, default_value = "tuned")]
    pub strategy: String,
    #[command(flatten)]
    pub campaigns: SelfPlayCampaigns,
    /// Campaigns, on a seed the fit never saw, that judge it.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = super::args::count::<1>)]
    pub held_out: u64,
    /// The search strategy the coefficients are for (named in the TOML
    /// written).
    #[arg(long, default_value = "search")]
    pub search: String,
    #[command(flatten)]
    pub master: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<ValueFolder>,
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for ValueArgs {
    fn key(&self) -> String {
        let shape = Shape::new("ValueArgs")
            .group("scenario", self.scenario.shape())
            .field("strategy", &self.strategy)
            .field("campaigns", &self.campaigns.n)
            .field("held_out", &self.held_out)
            .field("search", &self.search)
            .group("master", self.master.shape())
            .neutral_threads_out()
            .neutral("long", blank::LONG);
        format!("value {shape}")
    }
}

pub fn run(a: ValueArgs) -> Result<(), CliError> {
    let sc = a.scenario.load()?;
    sc.named_strategy(&a.strategy)?;
    let out = a.out.resolve("value", &a.strategy, &Request::of(&a.key(), &[&sc]))?;
    let held = held_out_master(a.master.seed);
    let campaigns = a.campaigns.n;
    let long = Long::start(a.threads, a.long, campaigns + a.held_out, &out)?;
    let (train, test) = long.run(|| {
        let train = collect(&sc, &a.strategy, a.master.seed, 0..campaigns)?;
        let test = collect(&sc, &a.strategy, held, 0..a.held_out)?;
        Ok::<_, CliError>((train, test))
    })?;
    long.finish();
    let f = fit(&train)?;
    let j = judge(&f.coef, &test, sc.players.len());
    let coefs = f.coef.iter().map(|c| format!("{c:.6}")).collect::<Vec<_>>().join(", ");
    let mut text = String::new();
    let _ = writeln!(
        text,
        "learned value for {}'s rollouts on {}: {} in every seat, {} campaigns (master seed {}), {} positions (every \
         seat at the end of every season before the last), logistic fit in {} Newton steps",
        a.search, sc.name, a.strategy, campaigns, a.master.seed, f.samples, f.steps
    );
    let _ = writeln!(
        text,
        "  held out ({} campaigns, master seed {held}, {} positions), log loss (lower is better): the fit {:.4}; \
         each seat 1/{} {:.4}; \"who leads in size wins\" {:.4}",
        a.held_out,
        j.samples,
        j.fit,
        sc.players.len(),
        j.seats_only,
        j.leader
    );
    let _ = writeln!(
        text,
        "  Brier scores: the fit {:.4}; each seat 1/{} {:.4}; who leads {:.4}",
        j.brier[0],
        sc.players.len(),
        j.brier[1],
        j.brier[2]
    );
    let _ = writeln!(text, "  coefficients (logit of the win probability):");
    for (n, c) in NAMES.iter().zip(f.coef) {
        let _ = writeln!(text, "    {n:<22} {c:+.4}");
    }
    let toml = format!(
        "# Learned by: empires value --strategy {} --campaigns {} --held-out {} --seed {}{}\n[strategies.{}]\nvalue = [{coefs}]\n",
        a.strategy,
        campaigns,
        a.held_out,
        a.master.seed,
        a.scenario.flags(),
        a.search
    );
    let _ = writeln!(text, "  for a scenario file (value.toml), or --set 'strategies.{}.value=[{coefs}]':", a.search);
    say!("{text}");
    write_file(&out.join("value.txt"), text.as_bytes())?;
    write_file(&out.join("value.toml"), toml.as_bytes())?;
    sayln!("wrote value.txt and value.toml to {}", out.display());
    Ok(())
}
