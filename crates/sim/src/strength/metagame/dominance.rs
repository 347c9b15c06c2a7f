//! Who loses to whom, each claim a test on the played campaigns rather
//! than a reading of the payoffs:
//!
//! - **Never a best response**: for every lineup of opponents, some other
//!   strategy wins significantly more than this one (a one-sided z test of
//!   the two win rates, Agresti–Caffo variances). The claim holds only if
//!   every lineup rejects (an intersection–union test, so no correction
//!   over lineups), and each lineup's test is Bonferroni-corrected over the
//!   other strategies and over the strategies claimed: the family-wise
//!   error of all the claims together is at most 5%.
//! - **Head to head**: two strategies' wins when they alone hold the seats,
//!   split as evenly as the seats allow (the findings' cycles read it).

use super::game::EmpiricalGame;
use statrs::distribution::{ContinuousCDF, Normal};

impl EmpiricalGame {
    /// Strategies never a best response to any lineup of opponents, each
    /// claim a test: for every lineup, another strategy wins significantly
    /// more (one-sided z at `alpha / (k (k − 1))`, Agresti–Caffo
    /// variances), so all the claims together hold a family-wise error of
    /// at most `alpha`.
    pub fn never_best_response(&self, alpha: f64) -> Vec<bool> {
        let k = self.k;
        let level = alpha / (k * (k - 1).max(1)) as f64;
        let normal = Normal::new(0.0, 1.0).expect("standard normal");
        // A player of `i`'s win rate against `d` and its variance.
        let rate = |i: usize, d: &[u32]| -> (f64, f64) {
            let comp = self.composition_with(i, d);
            let n = comp.campaigns as f64;
            let team = (comp.wins[i] as f64 + 2.0) / (n + 4.0);
            let seats = comp.counts[i] as f64;
            (comp.payoff(i), team * (1.0 - team) / (n * seats * seats))
        };
        (0..k)
            .map(|i| {
                self.others.iter().all(|d| {
                    let (ui, vi) = rate(i, d);
                    (0..k).filter(|&j| j != i).any(|j| {
                        let (uj, vj) = rate(j, d);
                        normal.sf((uj - ui) / (vi + vj).sqrt()) < level
                    })
                })
            })
            .collect()
    }

    /// The head-to-head share of `a` against `b`: in the compositions of
    /// only those two, `a`'s wins over both's, seats split as evenly as the
    /// count allows (both splits for an odd count).
    pub fn head_to_head(&self, a: usize, b: usize) -> (u64, u64) {
        let n = self.seats;
        let mut splits = vec![n / 2];
        if n % 2 == 1 {
            splits.push(n / 2 + 1);
        }
        let (mut wa, mut total) = (0, 0);
        for sa in splits {
            let mut c = vec![0; self.k];
            c[a] = sa;
            c[b] = n - sa;
            let comp = self.composition(&c);
            wa += comp.wins[a];
            total += comp.wins[a] + comp.wins[b];
        }
        (wa, total)
    }
}

#[cfg(test)]
mod tests {

    use super::super::game::scripted as game;

    /// Never a best response is a test: a strategy behind by less than the
    /// noise is not claimed, one far behind at every lineup is.
    #[test]
    fn metagame_never_a_best_response_needs_a_significant_gap_at_every_lineup() {
        // 52 against 48 of 100: not significant.
        let close = game(100, &[(vec![2, 0], vec![100, 0]), (vec![1, 1], vec![52, 48]), (vec![0, 2], vec![0, 100])]);
        assert_eq!(close.never_best_response(0.05), vec![false, false]);
        let far = game(1000, &[(vec![2, 0], vec![1000, 0]), (vec![1, 1], vec![700, 300]), (vec![0, 2], vec![0, 1000])]);
        assert_eq!(far.never_best_response(0.05), vec![false, true]);
    }
}
