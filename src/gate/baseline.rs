//! The baseline run's per-campaign values, stored beside the balance file
//! (`balance.toml` → `balance.baseline.json`) by `check --update`, so the
//! next check can pair campaign `i` of its run with campaign `i` of the
//! baseline run: both have the metric's seed, so they share the map, the
//! dice stream and the players' streams as far as the rules let them. The
//! per-campaign differences then vary far less than either run, and the
//! test sees a change the unpaired test misses.
//!
//! A stored entry pairs only with a metric of the same name, seed and
//! campaigns whose `baseline` is the stored run's mean (to the 1e-6 the
//! balance file keeps); otherwise the test falls back to the unpaired one
//! and says why.

use super::spec::MetricSpec;
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The format written in the file's `format` field.
pub const FORMAT: u32 = 1;

/// Every stored baseline run, by metric name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stored {
    pub format: u32,
    pub metrics: BTreeMap<String, Run>,
}

/// One metric's baseline run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    pub seed: u64,
    pub campaigns: u64,
    /// The mean of the values (what `baseline` holds, before rounding).
    pub mean: f64,
    /// Campaign `i`'s value; `null` where the metric had none.
    pub values: Vec<Option<f64>>,
    /// SHA-256 of the scenario file the run played, so a check says when
    /// its baseline came from another version of the file (older files
    /// have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_sha256: Option<String>,
}

/// `dir/balance.toml` → `dir/balance.baseline.json`.
pub fn path_of(balance: &Path) -> PathBuf {
    let stem = balance.file_stem().map_or("balance".into(), |s| s.to_string_lossy().to_string());
    balance.with_file_name(format!("{stem}.baseline.json"))
}

impl Stored {
    /// Read the file at `path`; no file is no stored run (every baseline
    /// test unpaired). A file that does not parse is an error.
    pub fn read(path: &Path) -> Result<Stored, Error> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Stored::default()),
            Err(e) => return Err(Error::input(format!("{}: {e}", path.display()))),
        };
        let s: Stored = serde_json::from_str(&text).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        if s.format != FORMAT {
            return Err(Error::input(format!("{}: format {} (this empires reads {FORMAT})", path.display(), s.format)));
        }
        Ok(s)
    }

    /// The text to write (pretty JSON; every value round-trips exactly).
    pub fn to_json(&self) -> String {
        let mut t = serde_json::to_string_pretty(self).unwrap_or_default();
        t.push('\n');
        t
    }

    /// Keep `values` as the baseline run of `spec`, played on the scenario
    /// file of hash `scenario_sha256`.
    pub fn insert(&mut self, spec: &MetricSpec, mean: f64, values: &[f64], scenario_sha256: Option<String>) {
        self.format = FORMAT;
        self.metrics.insert(
            spec.name.clone(),
            Run {
                seed: spec.seed,
                campaigns: spec.campaigns,
                mean,
                values: values.iter().map(|v| v.is_finite().then_some(*v)).collect(),
                scenario_sha256,
            },
        );
    }

    /// The per-campaign differences (this run minus the baseline run) of the
    /// campaigns where both have a value, or why they cannot be paired.
    pub fn pairs(&self, spec: &MetricSpec, baseline: f64, values: &[f64]) -> Result<Vec<f64>, Error> {
        if values.is_empty() {
            return Err(Error::input(
                "this metric is not a mean over campaigns, so it has no per-campaign values to pair",
            ));
        }
        let Some(r) = self.metrics.get(&spec.name) else {
            return Err(Error::input("no per-campaign baseline stored (run --update)"));
        };
        if r.seed != spec.seed || r.campaigns != spec.campaigns || r.values.len() != values.len() {
            return Err(Error::input(format!(
                "the stored run is {} campaigns on seed {}, this one {} on seed {}",
                r.campaigns, r.seed, spec.campaigns, spec.seed
            )));
        }
        if (r.mean - baseline).abs() > 1e-6 * baseline.abs().max(1.0) {
            return Err(Error::input(format!("the stored run's mean {} is not the baseline {baseline}", r.mean)));
        }
        let d: Vec<f64> =
            r.values.iter().zip(values).filter_map(|(b, x)| b.filter(|_| x.is_finite()).map(|b| x - b)).collect();
        if d.len() < 2 {
            return Err(Error::input("fewer than 2 campaigns with a value in both runs"));
        }
        Ok(d)
    }
}
