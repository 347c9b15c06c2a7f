//! Exact dice distributions (G-05), as integer counts over a total, so every
//! probability derived from them is an exact rational.

use crate::scenario::DiceExpr;
use std::collections::BTreeMap;

/// Values and how many of the `total` equally likely face combinations give
/// each, in increasing value order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    pub values: Vec<(i64, u64)>,
    pub total: u64,
}

impl Distribution {
    pub fn mean(&self) -> f64 {
        self.values.iter().map(|&(v, n)| v as f64 * n as f64).sum::<f64>() / self.total as f64
    }
}

/// The distribution of one roll of `e`: the sum of its dice, then `x` and `+`.
pub fn roll(e: &DiceExpr) -> Distribution {
    // Counts of each sum of `k` dice, built one die at a time.
    let mut sums: Vec<u64> = vec![1];
    for _ in 0..e.count {
        let mut next = vec![0u64; sums.len() + e.sides as usize];
        for (s, &n) in sums.iter().enumerate() {
            for f in 1..=e.sides as usize {
                next[s + f] += n;
            }
        }
        sums = next;
    }
    let total = (e.sides as u64).pow(e.count as u32);
    let values = sums.iter().enumerate().filter(|&(_, &n)| n > 0).map(|(s, &n)| (e.apply(s as u32), n)).collect();
    Distribution { values, total }
}

/// The distribution of `x - y` for two independent rolls of `e`: the noise
/// the dice add to a score gap. Symmetric around 0.
pub fn difference(e: &DiceExpr) -> Distribution {
    let r = roll(e);
    let mut d: BTreeMap<i64, u64> = BTreeMap::new();
    for &(a, na) in &r.values {
        for &(b, nb) in &r.values {
            *d.entry(a - b).or_default() += na * nb;
        }
    }
    Distribution { values: d.into_iter().collect(), total: r.total * r.total }
}
