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
//!
//! Here in sim, not beside the exact tables in core: it judges played
//! campaigns with statistics (`stats::chi_square_pooled`), which the rules
//! do not need.

use crate::analysis::combat::{self, table};
use crate::rules::CombatKind;
use crate::scenario::Scenario;
use crate::stats::{chi_square_pooled, chi_square_sf};
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

/// Minimum expected count of a bucket (the chi-square approximation
/// needs it).
const MIN_EXPECTED: f64 = 5.0;

/// Test every kind present in `obs` against `sc`'s tables.
pub fn check(sc: &Scenario, obs: &[Observation], alpha: f64) -> Vec<TableCheck> {
    let mut by_cell: BTreeMap<(usize, i32, i32), Vec<u64>> = BTreeMap::new();
    for o in obs {
        let k = CombatKind::ALL.iter().position(|&x| x == o.kind).unwrap_or(0);
        let rows = combat::rows(sc, o.kind).len();
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
            let (chi2, df) = chi_square_pooled(observed, &expected, MIN_EXPECTED);
            if df == 0 {
                continue;
            }
            t.cells_tested += 1;
            t.chi2 += chi2;
            t.df += df;
            let p = chi_square_sf(chi2, df);
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
        t.p = chi_square_sf(t.chi2, t.df);
        t.disagree.sort_by(|x, y| x.p.total_cmp(&y.p));
        out.push(t);
    }
    out
}
