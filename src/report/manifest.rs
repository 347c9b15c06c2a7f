//! `manifest.json`: everything needed to know what a run was and to redo it.

use crate::scenario::Scenario;
use crate::sim::record::Coverage;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// A stable hash of the fully resolved scenario (defaults filled in), so two
/// files that mean the same rules hash the same.
pub fn scenario_hash(sc: &Scenario) -> String {
    let text = toml::to_string(sc).unwrap_or_default();
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a file's bytes, hex; empty when it cannot be read.
pub fn file_hash(path: &std::path::Path) -> String {
    use std::io::Read;
    let Ok(mut f) = std::fs::File::open(path) else { return String::new() };
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => h.update(&buf[..n]),
            Err(_) => return String::new(),
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Clone)]
pub struct RunInfo<'a> {
    /// The run directory (file hashes are read from it).
    pub dir: &'a std::path::Path,
    pub scenario: &'a Scenario,
    pub scenario_source: &'a str,
    /// The commit the binary was built from (`build_info`), not the
    /// current directory's.
    pub git_commit: Option<String>,
    /// Whether that build had uncommitted changes.
    pub git_dirty: Option<bool>,
    pub master_seed: u64,
    pub campaigns: std::ops::Range<u64>,
    pub total_campaigns: u64,
    pub shard: Option<(u64, u64)>,
    pub rotate_seats: bool,
    pub threads: usize,
    pub overrides: Vec<String>,
    pub wall_seconds: f64,
    pub files: Vec<String>,
    /// Mechanics coverage, summed by `merge`.
    pub coverage: &'a Coverage,
    /// The `--precision` target, when the run stopped on it.
    pub precision: Option<f64>,
    /// Stopped by SIGINT before its last campaign: not a complete run.
    pub interrupted: bool,
}

pub fn manifest(r: &RunInfo<'_>) -> Value {
    json!({
        "tool": "empires",
        "version": crate::build_info::VERSION,
        "git_commit": r.git_commit,
        "git_dirty": r.git_dirty,
        "scenario_source": r.scenario_source,
        "scenario_name": r.scenario.name,
        "scenario_hash": scenario_hash(r.scenario),
        "scenario": serde_json::to_value(r.scenario).unwrap_or(Value::Null),
        "master_seed": r.master_seed,
        "campaign_start": r.campaigns.start,
        "campaign_end": r.campaigns.end,
        "total_campaigns": r.total_campaigns,
        "shard": r.shard.map(|(i, k)| json!({"index": i, "count": k})),
        "strategies": r.scenario.players.iter().map(|p| json!({"player": p.name, "strategy": p.strategy})).collect::<Vec<_>>(),
        "rotate_seats": r.rotate_seats,
        "seating": crate::sim::runner::Seating::of_run(r.scenario, r.rotate_seats).describe(),
        "overrides": r.overrides,
        "threads": r.threads,
        "wall_seconds": r.wall_seconds,
        "campaigns_per_second": if r.wall_seconds > 0.0 { (r.campaigns.end - r.campaigns.start) as f64 / r.wall_seconds } else { 0.0 },
        "precision": r.precision,
        "interrupted": r.interrupted,
        "files": r.files,
        "file_hashes": r.files.iter().filter(|f| !f.ends_with(".txt")).map(|f| (f.clone(), Value::String(file_hash(&r.dir.join(f))))).collect::<serde_json::Map<String, Value>>(),
        "coverage": serde_json::to_value(r.coverage).unwrap_or(Value::Null),
    })
}
