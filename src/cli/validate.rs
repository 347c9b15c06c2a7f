//! `empires validate FILE`: "ok" and a summary, or every problem found.

use super::{CliError, load_scenario};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Scenario TOML file to check.
    pub file: PathBuf,
    #[command(flatten)]
    pub set: super::args::SetArgs,
}

pub fn run(a: ValidateArgs) -> Result<(), CliError> {
    let sc = load_scenario(Some(&a.file), &a.set)?;
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| CliError::input(format!("{}: cannot read the scenario: {e}", a.file.display())))?;
    let map = match &sc.map.rows {
        Some(rows) => format!("drawn map of {} rows", rows.len()),
        None => {
            let g = sc.map.generator();
            match g.seed {
                Some(s) => format!("generated map of {} land hexes (map seed {s})", g.land),
                None => format!("generated map of {} land hexes (one per campaign)", g.land),
            }
        }
    };
    let strategies: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
    sayln!(
        "ok: {} ({}): {} players [{}], {}, {} seasons",
        a.file.display(),
        sc.name,
        sc.players.len(),
        strategies.join(", "),
        map,
        sc.campaign.seasons
    );
    if !names_players(&text) {
        sayln!("{}", default_players_note(&a.file.display().to_string(), &sc));
    }
    Ok(())
}

/// Whether the file has a `players` array. Without one a scenario plays
/// the code's default players (four `balanced`, `P1`..`P4`), not the four
/// different ones of the embedded `default.toml`, which a designer copying
/// a fragment may not expect: `validate` says so.
fn names_players(text: &str) -> bool {
    text.parse::<toml::Table>().map_or(true, |t| t.contains_key("players"))
}

fn default_players_note(file: &str, sc: &crate::scenario::Scenario) -> String {
    let names: Vec<&str> = sc.players.iter().map(|p| p.name.as_str()).collect();
    format!(
        "note: {file} names no [[players]], so it plays the code's default players {} (four `balanced` unless \
         --set changes them; not the players of the built-in default.toml); name 2 to 9 [[players]] to seat your own",
        names.join(", ")
    )
}
