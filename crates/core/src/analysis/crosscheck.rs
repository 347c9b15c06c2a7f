//! Played combats against the exact tables: for each kind, a chi-square
//! test of the observed table rows against the exact row probabilities of
//! each (attacker base, defender base) cell.
//!
//! A row's probability depends only on the two bases (the dice are rolled
//! after bids are made), so combats of one cell are independent draws from
//! that cell's exact distribution. Within a cell, rows expected fewer than 5
//! times are pooled (the chi-square approximation needs it); the cells'
//! statistics and degrees of freedom add up to the table's test. A row that
//! was hit although its exact probability is 0 is a disagreement outright.

use super::combat::table;
use crate::rules::CombatKind;
use crate::scenario::Scenario;
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::collections::BTreeMap;

/// One played combat: its kind, the two bases and the row hit (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub kind: CombatKind,
    pub attacker: i32,
    pub defender: i32,
    pub row: usize,
}

/// One cell's test.
#[derive(Clone, Debug, PartialEq)]
pub struct CellCheck {
    pub attacker: i32,
    pub defender: i32,
    pub combats: u64,
    /// Observed and expected count per row.
    pub observed: Vec<u64>,
    pub expected: Vec<f64>,
    pub chi2: f64,
    pub df: u32,
    pub p: f64,
}

/// One kind's test over all its cells.
#[derive(Clone, Debug, PartialEq)]
pub struct TableCheck {
    pub kind: CombatKind,
    pub combats: u64,
    /// Cells with enough combats to test (two buckets or more after pooling).
    pub cells_tested: usize,
    pub chi2: f64,
    pub df: u32,
    pub p: f64,
    /// Cells that disagree at `alpha`, worst first.
    pub disagree: Vec<CellCheck>,
}

/// Minimum expected count of a bucket.
const MIN_EXPECTED: f64 = 5.0;

fn p_value(chi2: f64, df: u32) -> f64 {
    if chi2.is_infinite() {
        return 0.0;
    }
    if df == 0 {
        return 1.0;
    }
    ChiSquared::new(df as f64).map_or(1.0, |d| (1.0 - d.cdf(chi2)).clamp(0.0, 1.0))
}

/// Chi-square of observed against expected counts, pooling small rows.
fn cell_test(observed: &[u64], expected: &[f64]) -> (f64, u32) {
    // A hit on an impossible row cannot come from this table.
    if observed.iter().zip(expected).any(|(&o, &e)| o > 0 && e == 0.0) {
        return (f64::INFINITY, 1);
    }
    let mut buckets: Vec<(f64, f64)> = Vec::new();
    let mut pool = (0.0, 0.0);
    for (&o, &e) in observed.iter().zip(expected) {
        if e == 0.0 {
            continue;
        }
        if e < MIN_EXPECTED {
            pool.0 += o as f64;
            pool.1 += e;
        } else {
            buckets.push((o as f64, e));
        }
    }
    if pool.1 > 0.0 {
        if pool.1 >= MIN_EXPECTED || buckets.is_empty() {
            buckets.push(pool);
        } else if let Some(b) = buckets.iter_mut().min_by(|a, b| a.1.total_cmp(&b.1)) {
            b.0 += pool.0;
            b.1 += pool.1;
        }
    }
    if buckets.len() < 2 {
        return (0.0, 0);
    }
    let chi2 = buckets.iter().map(|&(o, e)| (o - e) * (o - e) / e).sum();
    (chi2, buckets.len() as u32 - 1)
}

/// Test every kind present in `obs` against `sc`'s tables.
pub fn check(sc: &Scenario, obs: &[Observation], alpha: f64) -> Vec<TableCheck> {
    let mut by_cell: BTreeMap<(usize, i32, i32), Vec<u64>> = BTreeMap::new();
    for o in obs {
        let k = CombatKind::ALL.iter().position(|&x| x == o.kind).unwrap_or(0);
        let rows = super::combat::rows(sc, o.kind).len();
        let v = by_cell.entry((k, o.attacker, o.defender)).or_insert_with(|| vec![0; rows]);
        if o.row < v.len() {
            v[o.row] += 1;
        } else {
            // A row the scenario's table does not have.
            v.push(0);
            let last = v.len() - 1;
            v[last] += 1;
        }
    }
    let mut out = Vec::new();
    for (ki, &kind) in CombatKind::ALL.iter().enumerate() {
        let cells: Vec<_> = by_cell.iter().filter(|((k, _, _), _)| *k == ki).collect();
        if cells.is_empty() {
            continue;
        }
        let mut t = TableCheck { kind, combats: 0, cells_tested: 0, chi2: 0.0, df: 0, p: 1.0, disagree: Vec::new() };
        for (&(_, a, d), observed) in cells {
            let n: u64 = observed.iter().sum();
            t.combats += n;
            let exact = table(sc, kind, vec![a], vec![d]);
            let c = &exact.cells[0];
            let mut expected: Vec<f64> = c.rows.iter().map(|&r| n as f64 * r as f64 / exact.den as f64).collect();
            expected.resize(observed.len(), 0.0);
            let (chi2, df) = cell_test(observed, &expected);
            if df == 0 {
                continue;
            }
            t.cells_tested += 1;
            t.chi2 += chi2;
            t.df += df;
            let p = p_value(chi2, df);
            if p < alpha {
                t.disagree.push(CellCheck {
                    attacker: a,
                    defender: d,
                    combats: n,
                    observed: observed.clone(),
                    expected,
                    chi2,
                    df,
                    p,
                });
            }
        }
        t.p = p_value(t.chi2, t.df);
        t.disagree.sort_by(|x, y| x.p.total_cmp(&y.p));
        out.push(t);
    }
    out
}
