//! The held-out check: the written value played on a master seed the
//! search never played, and the targets tested there.
//!
//! The test is the joint one of every target, `hᵀ V⁻¹ h ≤ χ²ₖ(0.95)` with
//! `h` the held-out gaps and `V` their covariance (for one target, the
//! same test as `|h| ≤ 1.96 √V`). When a key is real, the written value is
//! itself the search's estimate of the root and misses it by the search's
//! own noise there, so `V` adds the search's covariance at that point, and
//! a correct root passes 95% of the time. A whole-number key's written
//! value is fixed: the check asks whether the targets hold at it, with the
//! held-out noise alone.

use super::eval::{Eval, chi2_95, chi2_of};
use super::root::Root;
use crate::error::Error;
use crate::stats::z;

/// The held-out check of a root: the targets tested at the written value
/// on another master seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm {
    pub seed: u64,
    /// The evaluation at the written value on the held-out seeds.
    pub eval: Eval,
    /// `V`, the covariance the held-out gaps are tested against: theirs,
    /// plus the search's at the written value when `widened`.
    pub cov: Vec<Vec<f64>>,
    /// `hᵀ V⁻¹ h`.
    pub chi2: f64,
    /// The targets are not rejected on the held-out seeds:
    /// `chi2 ≤ χ²ₖ(0.95)`.
    pub met: bool,
    /// `V` includes the search's covariance (a key is real).
    pub widened: bool,
    /// The search's interval reaches an end of a range (or the root is not
    /// located): the check says the targets are not rejected at the
    /// written value, not that the root lies there.
    pub vacuous: bool,
    /// Why the held-out campaigns at the written value are no game to
    /// balance (most end tied at the top, or a target's value no longer
    /// varies): such a solution is rejected whatever its gap.
    pub degenerate: Option<String>,
    /// What the players did in the held-out campaigns at the written value:
    /// a solution is a claim about play, silent on what nobody played.
    pub coverage: crate::sim::record::Coverage,
}

impl Confirm {
    /// The largest held-out `|gap|` of target `i` that the check allows
    /// alone, `1.96 √Vᵢᵢ`: with one target, the check itself.
    pub fn allowed(&self, i: usize) -> f64 {
        z(0.95) * self.cov[i][i].sqrt()
    }

    /// The check's result in words that claim no more than it shows: a
    /// held-out test that does not reject the targets has not shown them
    /// met, so it says at how many campaigns, and how large a gap it would
    /// have caught (80% power at its 5% level; with several targets, each
    /// target's gap alone, from its held-out noise).
    pub fn verdict(&self) -> String {
        let (n, targets) = (self.eval.campaigns, self.eval.gap.len());
        if let Some(why) = &self.degenerate {
            return format!("rejected at {n} campaigns, as degenerate: {why}");
        }
        let power = z(0.95) + z(0.6);
        if targets == 1 {
            return if self.met {
                let se = self.allowed(0) / z(0.95);
                format!("not rejected at {n} campaigns (power 80% against a gap of ±{:.4})", power * se)
            } else {
                format!("rejected at {n} campaigns (|gap| > {:.4})", self.allowed(0))
            };
        }
        if self.met {
            let each: Vec<String> = self.eval.gap_se.iter().map(|se| format!("±{:.4}", power * se)).collect();
            format!("not rejected at {n} campaigns (power 80% against gaps of {})", and_list(&each))
        } else {
            format!("rejected at {n} campaigns (χ² {:.2} > {:.2})", self.chi2, chi2_95(targets))
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Check a root on held-out seeds: `play` plays the written value there.
pub fn confirm(found: &Root, play: impl FnOnce(&[f64]) -> Result<Eval, Error>, seed: u64) -> Result<Confirm, Error> {
    let e = play(&found.value)?;
    let widened = !found.integer.iter().all(|&i| i);
    let mut cov = e.cov.clone();
    if widened {
        for (row, search) in cov.iter_mut().zip(&found.at_value.cov) {
            for (x, s) in row.iter_mut().zip(search) {
                *x += s;
            }
        }
    }
    let chi2 = chi2_of(&e.gap, &cov);
    let vacuous = !found.identified || found.interval.iter().flatten().any(|iv| iv.open[0] || iv.open[1]);
    Ok(Confirm {
        seed,
        met: chi2 <= chi2_95(e.gap.len()),
        eval: e,
        cov,
        chi2,
        widened,
        vacuous,
        degenerate: None,
        coverage: Default::default(),
    })
}
