//! `manifest.json`: everything needed to know what a run was and to redo it.

use crate::error::Error;
use crate::scenario::Scenario;
use crate::sim::record::Coverage;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// A stable hash of the fully resolved scenario (defaults filled in), so two
/// files that mean the same rules hash the same.
pub fn scenario_hash(sc: &Scenario) -> String {
    let text = toml::to_string(sc).unwrap_or_default();
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a text's bytes, hex.
pub fn text_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
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
    /// Campaigns kept from an interrupted run (`--resume`): part of the
    /// run, not of `wall_seconds`.
    pub resumed: u64,
    pub files: Vec<String>,
    /// Mechanics coverage, summed by `merge`.
    pub coverage: &'a Coverage,
    /// The `--precision` target, when the run stopped on it.
    pub precision: Option<f64>,
    /// Stopped by SIGINT before its last campaign: not a complete run.
    pub interrupted: bool,
}

/// `manifest.json`, as one type: `run` writes it, `run --resume` and
/// `merge` read it, `report` shows it. On disk its keys are sorted
/// (`Manifest::to_json`); docs/datasets.md describes each field.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    /// The commit the binary was built from (`build_info`).
    pub git_commit: Option<String>,
    /// Whether that build had uncommitted changes.
    #[serde(default)]
    pub git_dirty: Option<bool>,
    pub scenario_source: String,
    pub scenario_name: String,
    pub scenario_hash: String,
    /// The fully resolved scenario. Kept as JSON so that a manifest of an
    /// older scenario format still reads; `Manifest::scenario` parses it.
    pub scenario: Value,
    pub master_seed: u64,
    pub campaign_start: u64,
    pub campaign_end: u64,
    pub total_campaigns: u64,
    pub shard: Option<ShardOf>,
    pub strategies: Vec<SeatStrategy>,
    pub rotate_seats: bool,
    pub seating: String,
    pub overrides: Vec<String>,
    pub threads: usize,
    pub wall_seconds: f64,
    /// Campaigns played in the process that wrote the manifest, per second
    /// of its wall time (a resumed run's earlier campaigns not counted).
    pub campaigns_per_second: f64,
    /// Campaigns kept from an interrupted run by `--resume` (0 otherwise).
    #[serde(default)]
    pub resumed_campaigns: u64,
    pub precision: Option<f64>,
    pub interrupted: bool,
    pub files: Vec<String>,
    /// SHA-256 of each data file, which `--resume` checks.
    pub file_hashes: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    pub coverage: Coverage,
}

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardOf {
    pub index: u64,
    pub count: u64,
}

/// A player and the strategy it was given.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeatStrategy {
    pub player: String,
    pub strategy: String,
}

impl Manifest {
    /// The run directory's manifest, or why it cannot be read
    /// (`path:line:col` for bad JSON).
    pub fn read(dir: &std::path::Path) -> Result<Manifest, Error> {
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Error::input(format!("{}: {e} (not the output directory of `empires run`?)", path.display()))
        })?;
        serde_json::from_str(&text)
            .map_err(|e| Error::input(format!("{}:{}:{}: {e}", path.display(), e.line(), e.column())))
    }

    /// The text written to disk: pretty JSON, keys sorted.
    pub fn to_json(&self) -> String {
        // Through `Value`, whose maps are sorted, so the file does not
        // depend on the order fields are declared in.
        serde_json::to_value(self).and_then(|v| serde_json::to_string_pretty(&v)).unwrap_or_default()
    }

    /// The scenario the run played.
    pub fn scenario(&self) -> Result<Scenario, Error> {
        serde_json::from_value(self.scenario.clone())
            .map_err(|e| Error::input(format!("the manifest's scenario cannot be read: {e}")))
    }
}

pub fn manifest(r: &RunInfo<'_>) -> Manifest {
    let played = (r.campaigns.end - r.campaigns.start).saturating_sub(r.resumed) as f64;
    Manifest {
        tool: "empires".into(),
        version: crate::build_info::VERSION.into(),
        git_commit: r.git_commit.clone(),
        git_dirty: r.git_dirty,
        scenario_source: r.scenario_source.into(),
        scenario_name: r.scenario.name.clone(),
        scenario_hash: scenario_hash(r.scenario),
        scenario: serde_json::to_value(r.scenario).unwrap_or(Value::Null),
        master_seed: r.master_seed,
        campaign_start: r.campaigns.start,
        campaign_end: r.campaigns.end,
        total_campaigns: r.total_campaigns,
        shard: r.shard.map(|(index, count)| ShardOf { index, count }),
        strategies: r
            .scenario
            .players
            .iter()
            .map(|p| SeatStrategy { player: p.name.clone(), strategy: p.strategy.clone() })
            .collect(),
        rotate_seats: r.rotate_seats,
        seating: crate::report::seating::describe(crate::sim::runner::SeatRotation::of_run(r.scenario, r.rotate_seats))
            .to_string(),
        overrides: r.overrides.clone(),
        threads: r.threads,
        wall_seconds: r.wall_seconds,
        campaigns_per_second: if r.wall_seconds > 0.0 { played / r.wall_seconds } else { 0.0 },
        resumed_campaigns: r.resumed,
        precision: r.precision,
        interrupted: r.interrupted,
        files: r.files.clone(),
        file_hashes: r
            .files
            .iter()
            .filter(|f| !f.ends_with(".txt"))
            .map(|f| (f.clone(), file_hash(&r.dir.join(f))))
            .collect(),
        coverage: r.coverage.clone(),
    }
}
