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
    Ok(())
}
