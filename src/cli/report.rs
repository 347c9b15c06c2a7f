//! `empires report RUN_DIR`: an HTML page with charts for a run.

use super::CliError;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A run directory written by `empires run` (or `merge`).
    pub run: PathBuf,
    /// Output directory (default: reports/<run directory name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(a: ReportArgs) -> Result<(), CliError> {
    let name = a.run.file_name().map_or("run".to_string(), |n| n.to_string_lossy().to_string());
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from("reports").join(name));
    let files = crate::report::run_page::build(&a.run, &out).map_err(CliError::input)?;
    sayln!("wrote {} files to {}; open {}", files.len(), out.display(), out.join("index.html").display());
    Ok(())
}
