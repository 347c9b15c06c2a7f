//! `empires value`: flags and files around `strength::value`, the value a
//! search's cut-short rollouts are judged by, learned from self-play.

use super::CliError;
use super::args::{ScenarioArgs, SeedArg, ThreadsArg};
use super::long::{Long, LongArgs};
use super::out::{self, OverwriteArg, Request};
use crate::report::files::write_file;
use crate::strategy::value::NAMES;
use crate::strength::tune::held_out_master;
use crate::strength::value::{collect, fit, judge};
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct ValueArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The strategy that plays every seat of the self-play campaigns (the
    /// search's `base`: its rollouts play it).
    #[arg(long, default_value = "tuned")]
    pub strategy: String,
    /// Self-play campaigns the fit learns from.
    #[arg(long, default_value_t = 4000, allow_negative_numbers = true, value_parser = super::args::count::<1>)]
    pub campaigns: u64,
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
    /// Output directory (default: reports/value/STRATEGY-<key>, the key
    /// naming every flag that changes the result).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub overwrite: OverwriteArg,
    #[command(flatten)]
    pub long: LongArgs,
}

pub fn run(a: ValueArgs) -> Result<(), CliError> {
    let sc = a.scenario.load()?;
    sc.named_strategy(&a.strategy)?;
    let mut x = a.clone();
    (x.out, x.threads, x.overwrite, x.long) = (None, Default::default(), Default::default(), Default::default());
    let out = out::resolve(
        a.out.as_deref(),
        "value",
        &a.strategy,
        &Request::of(&format!("value {x:?}"), &[&sc]),
        a.overwrite,
    )?;
    let held = held_out_master(a.master.seed);
    let long = Long::start(a.threads, a.long, a.campaigns + a.held_out, &out)?;
    let (train, test) = long.run(|| {
        let train = collect(&sc, &a.strategy, a.master.seed, 0..a.campaigns)?;
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
        a.search, sc.name, a.strategy, a.campaigns, a.master.seed, f.samples, f.steps
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
        a.campaigns,
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
