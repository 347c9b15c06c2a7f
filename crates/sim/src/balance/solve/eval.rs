//! One evaluation of a solve's targets at a point (each target's mean gap,
//! its standard error and the gaps' covariance), and the joint test of
//! the gaps that the region, the ranking of points and the held-out check
//! share.
//!
//! The matrix work is nalgebra's (already a dependency of this crate, for
//! `strength::value`); its closed forms for 1 to 3 dimensions are the ones
//! a hand-written 2 × 2 inverse would use.

use super::target::SideAndGap;
use crate::balance::mean_se;
use crate::stats::z;
use nalgebra::{DMatrix, DVector};
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// One evaluation of the targets at one point: one gap per target, and
/// one value per key.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    /// Each key's value.
    pub x: Vec<f64>,
    /// Each target's mean gap and its standard error.
    pub gap: Vec<f64>,
    pub gap_se: Vec<f64>,
    /// The covariance of the targets' mean gaps, from the same campaigns
    /// (row by row; one target: its squared standard error).
    pub cov: Vec<Vec<f64>>,
    /// Each target's left side, its mean over the campaigns where it is
    /// defined.
    pub metric: Vec<f64>,
    /// The campaigns behind the figures (see `from_sides`).
    pub campaigns: u64,
}

impl Eval {
    /// One target's evaluation from its figures (a scripted gap).
    pub fn one(x: f64, gap: f64, gap_se: f64, metric: f64, campaigns: u64) -> Eval {
        Eval {
            x: vec![x],
            gap: vec![gap],
            gap_se: vec![gap_se],
            cov: vec![vec![gap_se * gap_se]],
            metric: vec![metric],
            campaigns,
        }
    }

    /// From each target's per-campaign (left side, gap), `played`
    /// campaigns. One target: its mean and standard error over the
    /// campaigns where it is defined, as `stats::mean_interval` gives every
    /// mean a study prints, so a solve's gap reads as the same metric does
    /// in `compare`; `campaigns` is the campaigns played. Several targets: a
    /// joint test needs the gaps paired, so the means and their covariance
    /// are over the campaigns where every gap is defined, and `campaigns`
    /// counts those.
    pub fn from_sides(x: Vec<f64>, sides: &[SideAndGap], played: u64) -> Eval {
        let metric = sides.iter().map(|(lhs, _)| mean_se(lhs).0).collect();
        if let [(_, gaps)] = sides {
            let (gap, gap_se, _) = mean_se(gaps);
            return Eval {
                x,
                gap: vec![gap],
                gap_se: vec![gap_se],
                cov: vec![vec![gap_se * gap_se]],
                metric,
                campaigns: played,
            };
        }
        let k = sides.len();
        let len = sides.iter().map(|(_, g)| g.len()).min().unwrap_or(0);
        let rows: Vec<Vec<f64>> = (0..len)
            .map(|i| sides.iter().map(|(_, g)| g[i]).collect::<Vec<f64>>())
            .filter(|r| r.iter().all(|g| g.is_finite()))
            .collect();
        let n = rows.len() as f64;
        let mean: Vec<f64> = (0..k).map(|t| rows.iter().map(|r| r[t]).sum::<f64>() / n).collect();
        let mut cov = vec![vec![0.0; k]; k];
        for a in 0..k {
            for b in a..k {
                let c = rows.iter().map(|r| (r[a] - mean[a]) * (r[b] - mean[b])).sum::<f64>() / (n - 1.0).max(1.0) / n;
                (cov[a][b], cov[b][a]) = (c, c);
            }
        }
        let gap_se = (0..k).map(|t| cov[t][t].sqrt()).collect();
        Eval { x, gap: mean, gap_se, cov, metric, campaigns: rows.len() as u64 }
    }

    /// Every target is not rejected on its own here at level `z`:
    /// `|gap| ≤ z se` for each.
    pub fn accepted(&self, z: f64) -> bool {
        self.gap.iter().zip(&self.gap_se).all(|(g, se)| g.abs() <= z * se)
    }

    /// The joint test statistic of the targets here, `gᵀ Σ⁻¹ g` with `Σ`
    /// the covariance of the gaps' means from the same campaigns: χ² with
    /// as many degrees of freedom as targets where they all hold.
    pub fn chi2(&self) -> f64 {
        chi2_of(&self.gap, &self.cov)
    }
}

/// `gᵀ Σ⁻¹ g`; for a singular `Σ` (a gap without noise), each gap's own
/// statistic, summed.
pub fn chi2_of(g: &[f64], cov: &[Vec<f64>]) -> f64 {
    match inverse(cov) {
        Some(ci) => {
            let g = DVector::from_column_slice(g);
            g.dot(&(&ci * &g)).max(0.0)
        }
        None => (0..g.len())
            .map(|i| {
                if g[i] == 0.0 {
                    0.0
                } else if cov[i][i] > 0.0 {
                    g[i] * g[i] / cov[i][i]
                } else {
                    f64::INFINITY
                }
            })
            .sum(),
    }
}

/// The 95% point of χ² with `df` degrees of freedom. The closed forms for
/// one and two (`z²`, and `−2 ln 0.05` since the distribution function is
/// `1 − e^(−x/2)`) are exact; more take statrs' quantile.
pub fn chi2_95(df: usize) -> f64 {
    match df {
        1 => z(0.95) * z(0.95),
        2 => -2.0 * 0.05f64.ln(),
        _ => ChiSquared::new(df as f64).map_or(f64::NAN, |c| c.inverse_cdf(0.95)),
    }
}

/// A square matrix, row by row, as nalgebra's.
pub(super) fn matrix(m: &[Vec<f64>]) -> DMatrix<f64> {
    DMatrix::from_fn(m.len(), m.len(), |i, j| m[i][j])
}

/// The inverse of `m`, or `None` when it is singular *relative to its
/// entries* (`|det| ≤ 10⁻¹² · max|mᵢⱼ|ⁿ`): a Jacobian or covariance of
/// targets that move together is singular up to rounding, and an absolute
/// test would call it invertible and take a wild step.
pub(super) fn inverse(m: &[Vec<f64>]) -> Option<DMatrix<f64>> {
    let a = matrix(m);
    let det = a.determinant();
    let scale = m.iter().flatten().map(|x| x.abs()).fold(0.0, f64::max);
    let bound = (0..m.len()).fold(1e-12, |b, _| b * scale);
    if !det.is_finite() || det.abs() <= bound {
        return None;
    }
    a.try_inverse()
}

/// `m v`, as plain numbers.
pub(super) fn apply(m: &DMatrix<f64>, v: &[f64]) -> Vec<f64> {
    (m * DVector::from_column_slice(v)).iter().copied().collect()
}

/// The lexicographic order of points (first key first).
pub(super) fn by_point(p: &Eval, q: &Eval) -> std::cmp::Ordering {
    p.x.iter().zip(&q.x).map(|(a, b)| a.total_cmp(b)).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(gaps: &[&[f64]]) -> Vec<SideAndGap> {
        gaps.iter().map(|g| (g.to_vec(), g.to_vec())).collect()
    }

    /// One target: the study-wide mean and standard error over the
    /// campaigns where it is defined, of every campaign played. Several:
    /// the means and covariance over the campaigns where all are defined.
    #[test]
    fn an_evaluation_reads_its_campaigns() {
        let e = Eval::from_sides(vec![1.0], &sides(&[&[1.0, 2.0, 3.0, f64::NAN]]), 4);
        let (mean, se, _) = mean_se(&[1.0, 2.0, 3.0]);
        assert_eq!((e.gap[0], e.gap_se[0], e.cov[0][0], e.campaigns), (mean, se, se * se, 4));
        let e = Eval::from_sides(vec![1.0, 2.0], &sides(&[&[1.0, 2.0, 3.0, 9.0], &[2.0, 4.0, 6.0, f64::NAN]]), 4);
        assert_eq!((e.gap.clone(), e.campaigns), (vec![2.0, 4.0], 3));
        // Var 1 and 4 with covariance 2 (perfectly correlated), over n = 3.
        assert_eq!(e.cov, vec![vec![1.0 / 3.0, 2.0 / 3.0], vec![2.0 / 3.0, 4.0 / 3.0]]);
        assert_eq!(e.gap_se, vec![(1.0f64 / 3.0).sqrt(), (4.0f64 / 3.0).sqrt()]);
    }

    /// The joint statistic: `gᵀ Σ⁻¹ g`, and for a singular `Σ` each gap's
    /// own, summed (0 for a gap of 0, infinite for another gap without
    /// noise).
    #[test]
    fn the_joint_statistic_of_the_gaps() {
        let cov = vec![vec![4.0, 0.0, 0.0], vec![0.0, 1.0, 0.0], vec![0.0, 0.0, 0.25]];
        assert_eq!(chi2_of(&[2.0, 1.0, 0.5], &cov), 3.0);
        let cov = vec![vec![2.0, 1.0], vec![1.0, 2.0]];
        assert!((chi2_of(&[1.0, 1.0], &cov) - 2.0 / 3.0).abs() < 1e-15);
        let singular = vec![vec![1.0, 1.0], vec![1.0, 1.0 + 1e-14]];
        assert!(inverse(&singular).is_none(), "singular relative to its entries");
        assert_eq!(chi2_of(&[1.0, 0.0], &singular), 1.0);
        assert_eq!(chi2_of(&[0.0, 0.0], &[vec![0.0, 0.0], vec![0.0, 0.0]]), 0.0);
        assert_eq!(chi2_of(&[0.1, 0.0], &[vec![0.0, 0.0], vec![0.0, 0.0]]), f64::INFINITY);
        // A small matrix is not singular for being small.
        assert!(inverse(&[vec![1e-9, 0.0], vec![0.0, 1e-9]]).is_some());
    }

    /// The 95% points of χ²: `z²` on 1 degree of freedom, `−2 ln 0.05` on
    /// 2, and the tables' 7.815 and 9.488 on 3 and 4.
    #[test]
    fn the_levels_of_the_joint_test() {
        assert_eq!(chi2_95(1), z(0.95) * z(0.95));
        assert!((chi2_95(1) - 3.8415).abs() < 1e-4 && (chi2_95(2) - 5.9915).abs() < 1e-4);
        assert!((chi2_95(3) - 7.8147).abs() < 1e-4 && (chi2_95(4) - 9.4877).abs() < 1e-4);
    }
}
