//! A finished meta-game's findings in words: the equilibrium, how many
//! were found, α-rank's top strategy, the strategies never a best
//! response, and cycles of three head to head. Read by the text, the page
//! and the JSON alike, so each says the same.

use super::Metagame;

impl Metagame {
    /// The findings, in words.
    pub fn findings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let pct = |x: f64| format!("{:.0}%", 100.0 * x);
        let support: Vec<usize> = (0..self.names.len()).filter(|&i| self.equilibrium[i] >= 0.01).collect();
        let b = &self.equilibrium_boot;
        match support.as_slice() {
            [one] => out.push(format!(
                "every player playing {} is a symmetric Nash equilibrium (regret {:.4}); the bootstrap's equilibrium \
                 is that same one in {} of {} resamples",
                self.names[*one], self.regret, b[*one].at_estimate, b[*one].of
            )),
            many => out.push(format!(
                "the equilibrium mixes {} (regret {:.4}): no single strategy is dominant",
                many.iter()
                    .map(|&i| format!("{} {}", self.names[i], pct(self.equilibrium[i])))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.regret
            )),
        }
        let mix = |s: &[f64]| -> String {
            (0..self.names.len())
                .filter(|&i| s[i] >= 0.0005)
                .map(|i| format!("{} {:.1}%", self.names[i], 100.0 * s[i]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push(format!(
            "{} distinct symmetric equilibri{} found by searching every support from {} starts (a count of what was \
             found, not a proof that there are no others): {}",
            self.equilibria.len(),
            if self.equilibria.len() == 1 { "um" } else { "a" },
            self.starts,
            self.equilibria.iter().map(|s| format!("[{}]", mix(s))).collect::<Vec<_>>().join("; ")
        ));
        let top = (0..self.names.len()).max_by(|&a, &b| self.alpha_rank[a].total_cmp(&self.alpha_rank[b])).unwrap_or(0);
        out.push(format!("α-rank puts {} of its mass on {}", pct(self.alpha_rank[top]), self.names[top]));
        let never: Vec<&str> =
            (0..self.names.len()).filter(|&i| self.never_best[i]).map(|i| self.names[i].as_str()).collect();
        if !never.is_empty() {
            out.push(format!(
                "never a best response to any lineup of opponents (for every lineup another strategy wins \
                 significantly more; family-wise error 5%): {}",
                never.join(", ")
            ));
        }
        // Cycles of three: a beats b beats c beats a, each head to head and clearly (Wilson).
        let beats = |a: usize, b: usize| {
            let (w, n) = self.game.head_to_head(a, b);
            n > 0 && crate::stats::wilson(w as f64, n as f64, 0.95).0 > 0.5
        };
        let k = self.names.len();
        for a in 0..k {
            for b in 0..k {
                for c in 0..k {
                    if a < b && a < c && b != c && beats(a, b) && beats(b, c) && beats(c, a) {
                        out.push(format!(
                            "{} beats {} beats {} beats {} (head to head, seats split)",
                            self.names[a], self.names[b], self.names[c], self.names[a]
                        ));
                    }
                }
            }
        }
        out
    }
}
