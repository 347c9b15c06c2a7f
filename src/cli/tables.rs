//! `empires tables`: exact combat outcome distributions and fairness findings.

use super::{CliError, load_scenario};
use crate::report::files::write_atomic;
use crate::report::tables::{csv, exact, json, text};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
}

#[derive(Args, Debug)]
pub struct TablesArgs {
    /// Scenario TOML file (default: the embedded default scenario).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// What to print on standard output.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write tables.txt, tables.json and tables.csv into this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override a scenario key by its dotted path. Repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

pub fn run(a: TablesArgs) -> Result<(), CliError> {
    let sc = load_scenario(a.scenario.as_deref(), &a.set)?;
    let e = exact(&sc);
    let as_json = || serde_json::to_string_pretty(&json(&sc, &e)).unwrap_or_default() + "\n";
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir)
            .map_err(|err| CliError::input(format!("{}: cannot create the output directory: {err}", dir.display())))?;
        for (name, body) in [("tables.txt", text(&sc, &e)), ("tables.json", as_json()), ("tables.csv", csv(&e))] {
            write_atomic(&dir.join(name), body.as_bytes())
                .map_err(|err| CliError { code: 1, message: format!("{}: {err}", dir.join(name).display()) })?;
        }
    }
    let body = match a.format {
        Format::Text => text(&sc, &e),
        Format::Json => as_json(),
        Format::Csv => csv(&e),
    };
    print!("{body}");
    Ok(())
}
