//! `empires report RUN_DIR`: an HTML page with charts for a run.

use super::CliError;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A run directory written by `empires run` (or `merge`).
    pub run: PathBuf,
    #[command(flatten)]
    pub out: super::out::Out<super::out::ReportFolder>,
}

pub fn run(a: ReportArgs) -> Result<(), CliError> {
    // The page shows one run's data: its request is that run's manifest.
    let manifest = std::fs::read_to_string(a.run.join("manifest.json")).map_err(|e| {
        CliError::input(format!("{}: not a finished run directory (no manifest.json: {e})", a.run.display()))
    })?;
    let out = a.out.given().map_or_else(|| a.run.join("report"), Path::to_path_buf);
    a.out.claim_at(&out, &super::out::Request::new(&format!("report {manifest}"), ""))?;
    let files = crate::report::run_page::build(&a.run, &out)?;
    sayln!("wrote {} files to {}; open {}", files.len(), out.display(), out.join("index.html").display());
    if let Ok(m) = crate::report::manifest::Manifest::read(&a.run)
        && m.interrupted
    {
        eprintln!(
            "warning: {}: the run was interrupted after {} of {} campaigns: the page shows partial data (it says so \
             at the top); finish the run with the same `empires run` and --resume",
            a.run.display(),
            m.campaign_end - m.campaign_start,
            m.total_campaigns
        );
    }
    Ok(())
}
