//! The confidence region of a root over several keys, by test inversion on
//! a grid of played points; and each key's interval, the shape the text,
//! `solve.json` and the held-out check read for one key and for several.

use super::eval::{Eval, chi2_95, chi2_of};

/// One key's 95% interval: for one key, the values at which the target is
/// not rejected; for several, the key's projection of the region (the
/// projections together cover the root at least 95% of the time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
    /// `[low, high]`: the interval reaches that end of the key's range (the
    /// root may lie beyond it).
    pub open: [bool; 2],
    /// `[low, high]`: the region reaches that edge of its grid inside the
    /// range (the grid stopped growing), so the interval is at least this
    /// wide. Never for one key, whose interval is walked to its ends.
    pub truncated: [bool; 2],
}

/// The 95% confidence region of a root, by test inversion: the points at
/// which the joint test of every target is not rejected,
/// `gᵀ Σ⁻¹ g ≤ χ²ₖ(0.95)`. The gaps and their covariance are measured at
/// the points of a grid around the solution, each played on the search's
/// seeds; between grid points of a real key they are interpolated
/// multilinearly (exact for gaps linear in the keys). A whole-number key's
/// region holds grid values only.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    /// The grid's values of each key, ascending.
    pub axes: Vec<Vec<f64>>,
    /// The evaluations at the grid's points, the first key's index the
    /// slowest: with two keys, `(axes[0][i], axes[1][j])` is
    /// `cells[i * axes[1].len() + j]`.
    pub cells: Vec<Eval>,
    pub integer: Vec<bool>,
}

/// Calls `f` with every point of the grid whose axes have these lengths,
/// in the order of `Region::cells` (the first index the slowest). An
/// odometer rather than a list: the projections walk millions of points
/// with three keys.
pub(super) fn each_point(lens: &[usize], mut f: impl FnMut(&[usize])) {
    if lens.contains(&0) {
        return;
    }
    let mut at = vec![0; lens.len()];
    loop {
        f(&at);
        let Some(k) = (0..lens.len()).rev().find(|&k| at[k] + 1 < lens[k]) else { return };
        at[k] += 1;
        at[k + 1..].iter_mut().for_each(|i| *i = 0);
    }
}

impl Region {
    /// The grid points around `x` on one axis with their interpolation
    /// weights.
    fn locate(axis: &[f64], x: f64, integer: bool) -> Option<[(usize, f64); 2]> {
        let n = axis.len();
        if integer || n == 1 {
            let i = axis.iter().position(|&a| a == x)?;
            return Some([(i, 1.0), (i, 0.0)]);
        }
        if x < axis[0] || x > axis[n - 1] {
            return None;
        }
        let k = axis.partition_point(|&a| a <= x).clamp(1, n - 1) - 1;
        let t = (x - axis[k]) / (axis[k + 1] - axis[k]);
        Some([(k, 1.0 - t), (k + 1, t)])
    }

    /// The gaps and their covariance at `x`, interpolated; `None` outside
    /// the grid.
    pub fn at(&self, x: &[f64]) -> Option<(Vec<f64>, Vec<Vec<f64>>)> {
        let near: Vec<[(usize, f64); 2]> =
            (0..self.axes.len()).map(|k| Self::locate(&self.axes[k], x[k], self.integer[k])).collect::<Option<_>>()?;
        let targets = self.cells.first().map_or(0, |e| e.gap.len());
        let (mut g, mut c) = (vec![0.0; targets], vec![vec![0.0; targets]; targets]);
        // The 2ᵏ corners of x's cell, each weighted by the product of its
        // axes' weights.
        each_point(&vec![2; near.len()], |corner| {
            let w = corner.iter().zip(&near).fold(1.0, |w, (&s, pair)| w * pair[s].1);
            if w == 0.0 {
                return;
            }
            let index =
                corner.iter().zip(&near).zip(&self.axes).fold(0, |i, ((&s, pair), axis)| i * axis.len() + pair[s].0);
            let e = &self.cells[index];
            for k in 0..targets {
                g[k] += w * e.gap[k];
                for (c, x) in c[k].iter_mut().zip(&e.cov[k]) {
                    *c += w * x;
                }
            }
        });
        Some((g, c))
    }

    /// The joint test does not reject that the targets meet at `x`.
    pub fn contains(&self, x: &[f64]) -> bool {
        self.at(x).is_some_and(|(g, c)| chi2_of(&g, &c) <= chi2_95(g.len()))
    }

    /// The values of key `k` the projections look at: the grid's, and for
    /// a real key 16 steps within each cell.
    fn samples(&self, k: usize) -> Vec<f64> {
        let axis = &self.axes[k];
        if self.integer[k] {
            return axis.clone();
        }
        let mut s = vec![axis[0]];
        for w in axis.windows(2) {
            s.extend((1..=16).map(|i| w[0] + (w[1] - w[0]) * i as f64 / 16.0));
        }
        s
    }

    /// Each key's projection of the region, the lowest and highest value
    /// of a point in it (to within 1/16 of a grid step); `None` when the
    /// region holds no point of the grid.
    pub fn projections(&self) -> Option<Vec<(f64, f64)>> {
        let samples: Vec<Vec<f64>> = (0..self.axes.len()).map(|k| self.samples(k)).collect();
        let lens: Vec<usize> = samples.iter().map(Vec::len).collect();
        let mut out: Option<Vec<(f64, f64)>> = None;
        let mut x = vec![0.0; lens.len()];
        each_point(&lens, |index| {
            for ((x, &i), s) in x.iter_mut().zip(index).zip(&samples) {
                *x = s[i];
            }
            if self.contains(&x) {
                let p = out.get_or_insert_with(|| x.iter().map(|&v| (v, v)).collect());
                for (p, &v) in p.iter_mut().zip(&x) {
                    *p = (p.0.min(v), p.1.max(v));
                }
            }
        });
        out
    }

    /// The grid points in the region.
    pub fn points(&self) -> Vec<Vec<f64>> {
        self.cells.iter().filter(|e| e.chi2() <= chi2_95(e.gap.len())).map(|e| e.x.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The odometer visits every point once, the first index the slowest
    /// (the order `cells` is stored in), and nothing for an empty axis.
    #[test]
    fn each_point_walks_the_grid_in_cell_order() {
        let mut seen = Vec::new();
        each_point(&[2, 3], |p| seen.push(p.to_vec()));
        assert_eq!(seen, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]);
        let mut n = 0;
        each_point(&[3, 0, 2], |_| n += 1);
        assert_eq!(n, 0);
    }

    /// Over three keys the interpolation is exact for gaps linear in the
    /// keys, the region holds their root and not a point 5 standard errors
    /// off, and whole-number keys are read at grid values only.
    #[test]
    fn the_region_interpolates_between_grid_points() {
        let gap = |x: &[f64]| vec![x[0] + x[1] - 1.5, x[1] - 1.0, x[2] - 0.5];
        let axes = vec![vec![0.0, 1.0], vec![0.0, 2.0], vec![0.0, 1.0]];
        let cov = vec![vec![0.01, 0.0, 0.0], vec![0.0, 0.01, 0.0], vec![0.0, 0.0, 0.01]];
        let mut cells = Vec::new();
        each_point(&[2, 2, 2], |i| {
            let x: Vec<f64> = i.iter().zip(&axes).map(|(&i, a)| a[i]).collect();
            let g = gap(&x);
            cells.push(Eval { x, gap: g, gap_se: vec![0.1; 3], cov: cov.clone(), metric: vec![0.0; 3], campaigns: 10 });
        });
        let r = Region { axes, cells, integer: vec![false; 3] };
        let x = [0.25, 1.5, 0.75];
        let (g, c) = r.at(&x).unwrap();
        for (a, b) in g.iter().zip(gap(&x)) {
            assert!((a - b).abs() < 1e-12, "{g:?}");
        }
        assert!((c[1][1] - 0.01).abs() < 1e-15 && c[0][1].abs() < 1e-15, "{c:?}");
        assert!(r.at(&[1.5, 1.0, 0.5]).is_none(), "outside the grid");
        assert!(r.contains(&[0.5, 1.0, 0.5]) && !r.contains(&[0.5, 1.0, 1.0]));
        assert!(r.points().is_empty(), "no corner of the grid is near the root");
        let whole = Region { integer: vec![true; 3], ..r };
        assert!(whole.at(&[0.0, 2.0, 1.0]).is_some() && whole.at(&[0.5, 2.0, 1.0]).is_none());
    }
}
