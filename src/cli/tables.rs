//! `empires tables`: exact combat outcome distributions and fairness findings.

use super::CliError;
use super::args::{ScenarioArgs, SeedArg};
use super::key::ResultKey;
use super::out::{Out, TablesFolder};
use crate::crosscheck::{Observation, check};
use crate::report::files::write_atomic;
use crate::report::tables::{against_text, csv, exact, json, text};
use crate::rules::CombatKind;
use crate::scenario::Scenario;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
}

const ALPHA: f64 = 0.001;
const READINGS_CAMPAIGNS: u64 = 500;

#[derive(Args, Debug)]
pub struct TablesArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// What to print on standard output.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub out: Out<TablesFolder>,
    /// Compare the combats of a run (written with --detail combats) with
    /// the exact tables: of the run's own scenario, or of --scenario if given.
    #[arg(long = "against-run", value_name = "RUN_DIR")]
    pub against: Option<PathBuf>,
    /// Significance level of the cross-check.
    #[arg(long, default_value_t = ALPHA)]
    pub alpha: f64,
    /// Campaigns of each variant of the readings table (what the answer
    /// rests on: each combat reading flipped by its key and played against
    /// the shipped one on the same seeds); 0 leaves the table out.
    #[arg(long, value_name = "N", default_value_t = READINGS_CAMPAIGNS)]
    pub readings_campaigns: u64,
    /// The readings table's.
    #[command(flatten)]
    pub master: SeedArg,
    /// Show how another scenario's tables (this file, with --set applied to
    /// both) move each part of the fairness criterion, table by table.
    #[arg(long, value_name = "OTHER.toml")]
    pub diff: Option<PathBuf>,
}

impl ResultKey for TablesArgs {
    /// The tables are exact, so only the readings table, which is played,
    /// adds flags: its campaigns and seed (the scenario is in its hash).
    fn key(&self) -> String {
        format!("tables readings {} seed {}", self.readings_campaigns, self.master.seed)
    }
}

/// The combats of a run, as observations of (kind, bases, row).
fn observations(dir: &Path) -> Result<Vec<Observation>, CliError> {
    use polars::prelude::*;
    let path = dir.join("combats.parquet");
    if !path.exists() {
        return Err(CliError::input(format!(
            "{}: no combats.parquet (run it with `empires run --detail combats`)",
            dir.display()
        )));
    }
    let bad = |e: PolarsError| CliError::input(format!("{}: {e}", path.display()));
    let df = LazyFrame::scan_parquet(PlRefPath::new(path.to_string_lossy().as_ref()), ScanArgsParquet::default())
        .map_err(bad)?
        .select([
            col("kind"),
            (col("a_total") - col("a_die")).alias("a"),
            (col("d_total") - col("d_die")).alias("d"),
            col("row").cast(DataType::Int64),
        ])
        .collect()
        .map_err(bad)?;
    let kinds = df.column("kind").map_err(bad)?.str().map_err(bad)?.clone();
    let int = |n: &str| -> Result<Int64Chunked, CliError> {
        Ok(df.column(n).map_err(bad)?.cast(&DataType::Int64).map_err(bad)?.i64().map_err(bad)?.clone())
    };
    let (a, d, row) = (int("a")?, int("d")?, int("row")?);
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let name = kinds.get(i).unwrap_or("");
        let kind = CombatKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .ok_or_else(|| CliError::input(format!("{}: unknown combat kind {name:?}", path.display())))?;
        out.push(Observation {
            kind,
            attacker: a.get(i).unwrap_or(0) as i32,
            defender: d.get(i).unwrap_or(0) as i32,
            row: (row.get(i).unwrap_or(1) - 1).max(0) as usize,
        });
    }
    Ok(out)
}

/// `--against-run`: the run's scenario (from its manifest) unless one is given.
fn against(a: &TablesArgs, dir: &Path) -> Result<(), CliError> {
    if a.scenario.scenario.is_none() && !a.scenario.set.is_empty() {
        return Err(CliError::input(
            "--set with --against-run: the played combats are checked against the run's own scenario, which --set \
             cannot change; give --scenario FILE with the --set to check them against another",
        ));
    }
    if a.out.given().is_some() {
        return Err(CliError::input("--out with --against-run: --against-run prints its check and writes no page"));
    }
    let obs = observations(dir)?;
    let sc: Scenario = match &a.scenario.scenario {
        Some(_) => a.scenario.load()?,
        None => crate::report::manifest::Manifest::read(dir)?
            .scenario()
            .map_err(|e| e.at(dir.join("manifest.json").display()))?,
    };
    if !(a.alpha > 0.0 && a.alpha < 1.0) {
        return Err(CliError::input(format!("--alpha {}: give a level between 0 and 1", a.alpha)));
    }
    let checks = check(&sc, &obs, a.alpha);
    say!("{}", against_text(&dir.display().to_string(), &sc, &checks, a.alpha));
    if checks.iter().any(|t| t.df > 0 && t.p < a.alpha) {
        return Err(CliError::verdict("the played combats disagree with the exact tables"));
    }
    Ok(())
}

/// `--against-run` and `--diff` print a check and play nothing, so a flag that
/// only shapes the readings table or the written files cannot apply: it is
/// refused rather than silently ignored. A value other than the default is
/// the only sign a flag was given.
fn refuse_unused(a: &TablesArgs) -> Result<(), CliError> {
    let mode = match (&a.against, &a.diff) {
        (Some(_), Some(_)) => return Err(CliError::input("give --against-run RUN_DIR or --diff OTHER.toml, not both")),
        (Some(_), None) => "--against-run",
        (None, Some(_)) => "--diff",
        (None, None) => return Ok(()),
    };
    let unused = [
        (a.readings_campaigns != READINGS_CAMPAIGNS, "--readings-campaigns"),
        (a.master.seed != super::args::DEFAULT_SEED, "--seed"),
        (a.format != Format::Text, "--format"),
        (a.diff.is_some() && a.out.given().is_some(), "--out"),
        (a.diff.is_some() && a.alpha != ALPHA, "--alpha"),
    ];
    if let Some((_, flag)) = unused.iter().find(|(given, _)| *given) {
        return Err(CliError::input(format!(
            "{flag} with {mode}: {mode} prints its check as text and plays no readings, so {flag} cannot apply"
        )));
    }
    Ok(())
}

pub fn run(a: TablesArgs) -> Result<(), CliError> {
    refuse_unused(&a)?;
    if let Some(dir) = &a.against {
        return against(&a, dir);
    }
    let sc = a.scenario.load()?;
    let mut e = exact(&sc);
    if let Some(other) = &a.diff {
        let b = ScenarioArgs { scenario: Some(other.clone()), set: a.scenario.set.clone() }.load()?;
        say!("{}", crate::report::fairness::diff_text(&sc, &e, &b, &exact(&b)));
        return Ok(());
    }
    // The readings are played, not exact: their campaigns and seed name the
    // request, so another count or seed writes its own folder.
    if a.readings_campaigns > 0 {
        let r = crate::study::combat_readings::run(&sc, a.master.seed, a.readings_campaigns).map_err(CliError::from)?;
        e.readings = Some(r);
    }
    let as_json = || serde_json::to_string_pretty(&json(&sc, &e)).unwrap_or_default() + "\n";
    // A page by default, as every other command writes one.
    let request = super::out::Request::of(&a.key(), &[&sc]);
    let dir = a.out.resolve("tables", &a.scenario.file_name(), &request)?;
    for (name, body) in [("tables.txt", text(&sc, &e)), ("tables.json", as_json()), ("tables.csv", csv(&e))] {
        write_atomic(&dir.join(name), body.as_bytes())
            .map_err(|err| CliError::io(format!("{}: {err}", dir.join(name).display())))?;
    }
    crate::report::tables::page(&sc, &e, &dir).map_err(|err| err.at(dir.display()))?;
    // Standard error, so `--format json` output stays JSON.
    eprintln!("wrote tables.txt, tables.json, tables.csv and index.html to {}", dir.display());
    let body = match a.format {
        Format::Text => text(&sc, &e),
        Format::Json => as_json(),
        Format::Csv => csv(&e),
    };
    say!("{body}");
    Ok(())
}
