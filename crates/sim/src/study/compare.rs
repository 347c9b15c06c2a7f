//! Two variants on the same seeds: the paired difference of every metric.

use super::metrics::{Measured, Metric, measure, standard};
use crate::rules::setup::SetupError;
use crate::scenario::Scenario;
use crate::stats::{Mean, mean_interval, min_detectable};

/// One metric in both variants.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub metric: Metric,
    pub a: Mean,
    pub b: Mean,
    /// B minus A, campaign by campaign.
    pub diff: Mean,
    /// The smallest difference this many campaigns detects (80% power, 5% level).
    pub detectable: f64,
}

impl Row {
    /// The interval of the difference contains 0.
    pub fn undetected(&self) -> bool {
        self.diff.low <= 0.0 && self.diff.high >= 0.0
    }
}

/// Paired rows of two measured variants (campaign `i` against campaign `i`).
pub fn paired(metrics: &[Metric], a: &Measured, b: &Measured) -> Vec<Row> {
    let mut rows = Vec::new();
    for (j, m) in metrics.iter().enumerate() {
        let col = |x: &Measured| x.values.iter().map(|v| v[j]).collect::<Vec<f64>>();
        let (va, vb) = (col(a), col(b));
        let diffs: Vec<f64> = va.iter().zip(&vb).map(|(x, y)| y - x).collect();
        let diff = mean_interval(diffs, 0.95);
        if diff.n == 0 {
            continue;
        }
        rows.push(Row {
            metric: m.clone(),
            a: mean_interval(va, 0.95),
            b: mean_interval(vb, 0.95),
            diff,
            detectable: min_detectable(diff.sd, diff.n),
        });
    }
    rows
}

/// A finished comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub a_name: String,
    pub b_name: String,
    pub campaigns: u64,
    pub seed: u64,
    pub rotate_seats: bool,
    pub rows: Vec<Row>,
}

/// Play `campaigns` of each variant on master seed `seed` and compare.
pub fn compare(
    a: (&str, &Scenario),
    b: (&str, &Scenario),
    seed: u64,
    campaigns: u64,
    rotate_seats: bool,
) -> Result<Comparison, SetupError> {
    let metrics = standard(&[a.1, b.1]);
    let ma = measure(a.1, seed, campaigns, rotate_seats, &metrics, false)?;
    let mb = measure(b.1, seed, campaigns, rotate_seats, &metrics, false)?;
    Ok(Comparison {
        a_name: a.0.to_string(),
        b_name: b.0.to_string(),
        campaigns,
        seed,
        rotate_seats,
        rows: paired(&metrics, &ma, &mb),
    })
}
