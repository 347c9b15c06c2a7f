//! Two variants on the same seeds: the paired difference of every metric.
//!
//! Each row's test is two-sided at the normal approximation; the verdict
//! words "higher" and "lower" are given only where the test still rejects
//! after the output's multiplicity correction (Holm's step-down over every
//! metric of the comparison, family-wise error `ALPHA`), so an A/A
//! comparison prints a false verdict in at most `ALPHA` of runs.

use super::metrics::{Measured, Metric, measure, standard};
use crate::rules::setup::SetupError;
use crate::scenario::Scenario;
use crate::stats::{Correction, Mean, detectable_at, mean_interval, p_two_sided};

/// The error rate every study's verdicts hold (family-wise for Holm, the
/// false discovery rate for Benjamini–Hochberg).
pub const ALPHA: f64 = 0.05;

/// One metric in both variants.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub metric: Metric,
    pub a: Mean,
    pub b: Mean,
    /// B minus A, campaign by campaign.
    pub diff: Mean,
    /// The smallest difference this many campaigns detects with 80% power
    /// at the level the correction demands of one test (α/m, Holm's first
    /// step; the 5% level until `adjust` is called).
    pub detectable: f64,
    /// The two-sided p-value of "no difference", unadjusted.
    pub p: f64,
    /// The p-value adjusted for the output's family (`adjust`).
    pub p_adj: f64,
}

impl Row {
    /// The unadjusted 95% interval of the difference contains 0.
    pub fn undetected(&self) -> bool {
        self.diff.low <= 0.0 && self.diff.high >= 0.0
    }

    /// The adjusted test rejects "no difference" at `ALPHA`: only then is
    /// the row "higher" or "lower".
    pub fn rejected(&self) -> bool {
        self.p_adj <= ALPHA
    }
}

/// Adjust the rows of one output as one family with `how`; each row's
/// detectable difference becomes the one at the level of one test of the
/// family (α/m, which Holm's first step and Benjamini–Hochberg's strictest
/// step demand). Returns the family's size.
pub fn adjust<'a>(rows: impl IntoIterator<Item = &'a mut Row>, how: Correction) -> usize {
    let mut rows: Vec<&mut Row> = rows.into_iter().collect();
    let p: Vec<f64> = rows.iter().map(|r| r.p).collect();
    let m = p.len();
    for (r, q) in rows.iter_mut().zip(how.adjust(&p)) {
        r.p_adj = q;
        r.detectable = detectable_at(r.diff.sd / (r.diff.n as f64).sqrt(), ALPHA / m as f64);
    }
    m
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
        let se = diff.sd / (diff.n as f64).sqrt();
        let p = p_two_sided(diff.mean, se);
        rows.push(Row {
            metric: m.clone(),
            a: mean_interval(va, 0.95),
            b: mean_interval(vb, 0.95),
            diff,
            detectable: detectable_at(se, ALPHA),
            p,
            p_adj: p,
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
    /// How the rows' verdicts are corrected (Holm over every row).
    pub correction: Correction,
}

impl Comparison {
    /// `verdicts: Holm-adjusted, family-wise error 5% over 17 metrics`.
    pub fn verdicts_line(&self) -> String {
        self.correction.line(ALPHA, self.rows.len(), "metrics")
    }
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
    let mut rows = paired(&metrics, &ma, &mb);
    adjust(&mut rows, Correction::Holm);
    Ok(Comparison {
        a_name: a.0.to_string(),
        b_name: b.0.to_string(),
        campaigns,
        seed,
        rotate_seats,
        rows,
        correction: Correction::Holm,
    })
}
