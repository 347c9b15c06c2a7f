//! Interval estimates shown to designers.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// The two-sided normal quantile for a confidence level (1.96 for 95%).
pub fn z(confidence: f64) -> f64 {
    let n = Normal::new(0.0, 1.0).expect("standard normal");
    n.inverse_cdf(1.0 - (1.0 - confidence) / 2.0)
}

/// Wilson score interval for `successes` out of `n` at `confidence`.
/// Returns (low, high); (0, 1) when `n` is 0.
pub fn wilson(successes: f64, n: f64, confidence: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = z(confidence);
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // With no success (or no failure) the bound is exactly 0 (or 1): the
    // centre and half-width are then equal, and their difference in floats
    // is rounding (3.4e-21, which printed as a rate of 0.00000000000000000034%).
    let low = if successes <= 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if successes >= n { 1.0 } else { (centre + half).min(1.0) };
    (low, high)
}

/// A mean with its normal 95% interval (for per-campaign values).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    pub n: u64,
    pub mean: f64,
    pub sd: f64,
    pub low: f64,
    pub high: f64,
}

/// The mean of the finite values of `xs` with its normal interval at
/// `confidence` (sample standard deviation; exact enough from a few dozen
/// campaigns on, which every study here runs).
pub fn mean_interval(xs: impl IntoIterator<Item = f64>, confidence: f64) -> Mean {
    let (mut n, mut sum, mut sq) = (0u64, 0.0, 0.0);
    for x in xs.into_iter().filter(|x| x.is_finite()) {
        n += 1;
        sum += x;
        sq += x * x;
    }
    let mean = sum / n as f64;
    let var = if n > 1 { ((sq - n as f64 * mean * mean) / (n as f64 - 1.0)).max(0.0) } else { 0.0 };
    Mean::of(n, mean, var.sqrt(), confidence)
}

impl Mean {
    /// The mean of `n` values with sample standard deviation `sd` and its
    /// normal interval at `confidence`: what `mean_interval` computes from
    /// the values, for a caller that has only their moments (a polars
    /// group's mean and standard deviation). NaN throughout for `n` 0.
    pub fn of(n: u64, mean: f64, sd: f64, confidence: f64) -> Mean {
        if n == 0 {
            return Mean { n, mean: f64::NAN, sd: f64::NAN, low: f64::NAN, high: f64::NAN };
        }
        let sd = if n > 1 { sd } else { 0.0 };
        let half = z(confidence) * sd / (n as f64).sqrt();
        Mean { n, mean, sd, low: mean - half, high: mean + half }
    }

    /// Half the width of the interval: the `±` of `mean ± half`.
    pub fn half(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// A pooled share, Σy ÷ Σx over clusters (`pairs`: one (y, x) per
/// campaign, say a strategy's gold from mines and all its gold), with its
/// normal interval at `confidence`. The campaign is the unit: the standard
/// error is the ratio estimator's linearized (cluster-robust) one,
/// se² = n/(n − 1) · Σ(yᵢ − R·xᵢ)² ÷ (Σx)², so a rich campaign weighs in
/// the share and in its uncertainty alike. `sd` is se·√n, so `sd/√n` reads
/// as for a mean. NaN throughout when Σx is 0.
pub fn ratio_interval(pairs: impl IntoIterator<Item = (f64, f64)>, confidence: f64) -> Mean {
    let pairs: Vec<(f64, f64)> = pairs.into_iter().filter(|(y, x)| y.is_finite() && x.is_finite()).collect();
    let n = pairs.len() as u64;
    let (sy, sx) = pairs.iter().fold((0.0, 0.0), |(a, b), (y, x)| (a + y, b + x));
    if n == 0 || sx == 0.0 {
        return Mean::of(0, f64::NAN, f64::NAN, confidence);
    }
    let r = sy / sx;
    let resid: f64 = pairs.iter().map(|(y, x)| (y - r * x).powi(2)).sum();
    let nf = n as f64;
    let se = if n > 1 { (nf / (nf - 1.0) * resid).sqrt() / sx } else { 0.0 };
    Mean::of(n, r, se * nf.sqrt(), confidence)
}

/// The smallest true difference a paired design of `n` campaigns with this
/// spread of differences detects with 80% power at the 5% level:
/// (z(0.975) + z(0.80)) · sd / √n.
pub fn min_detectable(sd: f64, n: u64) -> f64 {
    if n == 0 {
        return f64::NAN;
    }
    detectable_at(sd / (n as f64).sqrt(), 0.05)
}

/// The smallest true difference a test at two-sided level `level` detects
/// with 80% power, from a standard error: (z(1 − level/2) + z(0.80)) · se.
/// A study's verdicts are corrected for multiplicity, so it passes the
/// level its correction can demand of one test (Holm's first step, α/m).
pub fn detectable_at(se: f64, level: f64) -> f64 {
    (z(1.0 - level) + z_power()) * se
}

/// The one-sided version: (z(1 − level) + z(0.80)) · se, for a test at a
/// bound (the gate's `min` and `max`).
pub fn detectable_one_sided(se: f64, level: f64) -> f64 {
    (z(1.0 - 2.0 * level) + z_power()) * se
}

fn z_power() -> f64 {
    Normal::new(0.0, 1.0).map_or(0.841_621, |d| d.inverse_cdf(0.80))
}

/// The two-sided normal p-value of a difference `d` with standard error
/// `se`: 2·Φ(−|d|/se). With `se` 0 (every campaign gave the same
/// difference) it is 1 for no difference and 0 for any other.
pub fn p_two_sided(d: f64, se: f64) -> f64 {
    p_beyond(d.abs(), se) * 2.0
}

/// The one-sided p-value that a value `beyond` past a bound (positive: on
/// the far side) is noise: Φ(−beyond/se), 1 − Φ when it is on the near side.
pub fn p_beyond(beyond: f64, se: f64) -> f64 {
    if !beyond.is_finite() || !se.is_finite() {
        return f64::NAN;
    }
    if se <= 0.0 {
        return if beyond > 0.0 {
            0.0
        } else if beyond == 0.0 {
            0.5
        } else {
            1.0
        };
    }
    let n = Normal::new(0.0, 1.0).expect("standard normal");
    n.cdf(-beyond / se).clamp(0.0, 1.0)
}

/// How a family of tests in one output is corrected for multiplicity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Correction {
    /// Holm's step-down: the chance of even one false verdict in the family
    /// (the family-wise error) is at most α, whatever the dependence.
    Holm,
    /// Benjamini–Hochberg: the expected share of false verdicts among the
    /// verdicts (the false discovery rate) is at most α (for independent or
    /// positively dependent tests); with no true difference at all it is the
    /// family-wise error too.
    BenjaminiHochberg,
}

impl Correction {
    /// Adjusted p-values, in the order given: a test's verdict holds at
    /// level α exactly when its adjusted p-value is at most α. NaN counts
    /// as 1.
    pub fn adjust(self, p: &[f64]) -> Vec<f64> {
        match self {
            Correction::Holm => holm(p),
            Correction::BenjaminiHochberg => benjamini_hochberg(p),
        }
    }

    /// `verdicts: Holm-adjusted, family-wise error 5% over 14 metrics`.
    pub fn line(self, alpha: f64, tests: usize, what: &str) -> String {
        let (name, rate) = match self {
            Correction::Holm => ("Holm-adjusted", "family-wise error"),
            Correction::BenjaminiHochberg => ("Benjamini–Hochberg-adjusted", "false discovery rate"),
        };
        format!("verdicts: {name}, {rate} {} over {tests} {what}", pct_level(alpha))
    }
}

/// A level such as an error rate, with no trailing zeros: `5%`, `2.5%`,
/// `0.1%` (at most two decimals).
pub fn pct_level(x: f64) -> String {
    let s = format!("{:.2}", 100.0 * x);
    format!("{}%", s.trim_end_matches('0').trim_end_matches('.'))
}

fn sorted(p: &[f64]) -> (Vec<usize>, Vec<f64>) {
    let clean: Vec<f64> = p.iter().map(|&x| if x.is_nan() { 1.0 } else { x.clamp(0.0, 1.0) }).collect();
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| clean[a].total_cmp(&clean[b]));
    (order, clean)
}

/// Holm's adjusted p-values: the k-th smallest (from 0) is
/// max over j ≤ k of min(1, (m − j)·p₍ⱼ₎). Rejecting where it is at most α
/// is Holm's step-down procedure at family-wise level α.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let (order, clean) = sorted(p);
    let mut out = vec![1.0; m];
    let mut running = 0.0f64;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * clean[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Benjamini–Hochberg adjusted p-values: the k-th smallest (from 1) is
/// min over j ≥ k of min(1, m·p₍ⱼ₎/j).
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let (order, clean) = sorted(p);
    let mut out = vec![1.0; m];
    let mut running = 1.0f64;
    for (k, &i) in order.iter().enumerate().rev() {
        running = running.min((m as f64 * clean[i] / (k + 1) as f64).min(1.0));
        out[i] = running;
    }
    out
}

/// Pearson's chi-square test that every category has the same share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    pub statistic: f64,
    /// Categories − 1.
    pub df: u32,
    /// P(χ² ≥ statistic) under equal shares.
    pub p: f64,
    /// The count each category expects: the total over the categories.
    pub expected: f64,
}

/// Test `counts` against equal shares of their total (for seats: each
/// seat's wins, a campaign having exactly one winner, against
/// campaigns / seats each). `None` with fewer than two categories or no count.
pub fn equal_shares(counts: &[u64]) -> Option<ChiSquare> {
    let total: u64 = counts.iter().sum();
    if counts.len() < 2 || total == 0 {
        return None;
    }
    let expected = total as f64 / counts.len() as f64;
    let statistic = counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum::<f64>();
    let df = counts.len() as u32 - 1;
    let p = ChiSquared::new(df as f64).map_or(f64::NAN, |d| d.sf(statistic));
    Some(ChiSquare { statistic, df, p, expected })
}

/// P(χ² ≥ `chi2`) on `df` degrees of freedom, as a goodness-of-fit test
/// reads it: 0 for an infinite statistic (an observation the expected
/// counts call impossible), 1 with no degree of freedom (nothing tested).
pub fn chi_square_sf(chi2: f64, df: u32) -> f64 {
    if chi2.is_infinite() {
        return 0.0;
    }
    if df == 0 {
        return 1.0;
    }
    ChiSquared::new(df as f64).map_or(1.0, |d| (1.0 - d.cdf(chi2)).clamp(0.0, 1.0))
}

/// Pearson's chi-square of observed against expected counts and its
/// degrees of freedom, categories expected fewer than `min_expected` times
/// pooled (the approximation needs it): into a bucket of their own when
/// the pool reaches it, else into the smallest other bucket. A category
/// expected never is left out, and a count there gives an infinite
/// statistic on 1 df; fewer than two buckets test nothing (0 on 0 df).
pub fn chi_square_pooled(observed: &[u64], expected: &[f64], min_expected: f64) -> (f64, u32) {
    // A hit on an impossible category cannot come from these expectations.
    if observed.iter().zip(expected).any(|(&o, &e)| o > 0 && e == 0.0) {
        return (f64::INFINITY, 1);
    }
    let mut buckets: Vec<(f64, f64)> = Vec::new();
    let mut pool = (0.0, 0.0);
    for (&o, &e) in observed.iter().zip(expected) {
        if e == 0.0 {
            continue;
        }
        if e < min_expected {
            pool.0 += o as f64;
            pool.1 += e;
        } else {
            buckets.push((o as f64, e));
        }
    }
    if pool.1 > 0.0 {
        if pool.1 >= min_expected || buckets.is_empty() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_reads_with_no_trailing_zeros() {
        assert_eq!([0.05, 0.025, 0.001, 0.1].map(pct_level), ["5%", "2.5%", "0.1%", "10%"].map(String::from));
    }

    /// No success: the Wilson interval's lower end is 0 exactly, and with
    /// no failure its upper end 1; z² / (n + z²) = 3.8415 / 2003.8415 the
    /// other end (R: binom::binom.wilson(0, 2000)).
    #[test]
    fn wilson_with_no_success_starts_at_zero_exactly() {
        let (lo, hi) = wilson(0.0, 2000.0, 0.95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.001_917).abs() < 1e-6, "{hi}");
        let (lo, hi) = wilson(2000.0, 2000.0, 0.95);
        assert_eq!(hi, 1.0);
        assert!((lo - (1.0 - 0.001_917)).abs() < 1e-6, "{lo}");
    }

    #[test]
    fn chi_square_of_equal_shares_known_values() {
        // (30-25)² + (20-25)² over 25 = 2 on 3 df; R: pchisq(2, 3, lower.tail = FALSE).
        let t = equal_shares(&[30, 20, 25, 25]).unwrap();
        assert_eq!((t.statistic, t.df, t.expected), (2.0, 3, 25.0));
        assert!((t.p - 0.572_406_7).abs() < 1e-6, "{}", t.p);
        // 3.841459 on 1 df is the 5% point.
        let t = equal_shares(&[60, 40]).unwrap();
        assert!((t.statistic - 4.0).abs() < 1e-12);
        assert!((t.p - 0.045_500_26).abs() < 1e-7, "{}", t.p);
        // Equal counts: statistic 0, p 1.
        let t = equal_shares(&[5000, 5000, 5000, 5000]).unwrap();
        assert_eq!((t.statistic, t.p), (0.0, 1.0));
        assert_eq!(equal_shares(&[7]), None);
        assert_eq!(equal_shares(&[0, 0]), None);
    }

    /// The pooled share and its cluster-robust interval, by hand: pairs
    /// (1, 2), (3, 4), (2, 2) give R = 6/8 = 0.75, residuals −0.5, 0, 0.5,
    /// so se² = 3/2 · 0.5 ÷ 64 = 0.01171875.
    #[test]
    fn ratio_interval_by_hand() {
        let m = ratio_interval([(1.0, 2.0), (3.0, 4.0), (2.0, 2.0)], 0.95);
        let se = 0.011_718_75f64.sqrt();
        assert_eq!((m.n, m.mean), (3, 0.75));
        assert!((m.sd - se * 3f64.sqrt()).abs() < 1e-15, "{m:?}");
        assert!((m.low - (0.75 - z(0.95) * se)).abs() < 1e-15 && (m.high - (0.75 + z(0.95) * se)).abs() < 1e-15);
        assert!((m.half() - z(0.95) * se).abs() < 1e-15);
        // Every campaign at the same share: no spread, a zero-width interval.
        let m = ratio_interval([(1.0, 2.0), (3.0, 6.0)], 0.95);
        assert_eq!((m.mean, m.low, m.high), (0.5, 0.5, 0.5));
        // Nothing to share: no value.
        assert!(ratio_interval([(0.0, 0.0)], 0.95).mean.is_nan());
        assert!(ratio_interval([], 0.95).mean.is_nan());
    }

    #[test]
    fn mean_interval_and_detectable_difference() {
        // 1..=9: mean 5, sample sd sqrt(7.5); half-width 1.96 * sqrt(7.5) / 3.
        let m = mean_interval((1..=9).map(f64::from), 0.95);
        assert_eq!(m.n, 9);
        assert!((m.mean - 5.0).abs() < 1e-12);
        assert!((m.sd - 7.5f64.sqrt()).abs() < 1e-12);
        assert!((m.high - 5.0 - 1.959_963_984_540_054 * 7.5f64.sqrt() / 3.0).abs() < 1e-9);
        // (1.959964 + 0.841621) * 1 / sqrt(100) = 0.2801585.
        assert!((min_detectable(1.0, 100) - 0.280_158_5).abs() < 1e-6);
        assert!(mean_interval([f64::NAN], 0.95).mean.is_nan());
    }

    #[test]
    fn holm_and_benjamini_hochberg_known_values() {
        // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
        let p = [0.01, 0.04, 0.03, 0.005];
        let h = holm(&p);
        for (a, b) in h.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((a - b).abs() < 1e-12, "{h:?}");
        }
        // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
        let b = benjamini_hochberg(&p);
        for (a, w) in b.iter().zip([0.02, 0.04, 0.04, 0.02]) {
            assert!((a - w).abs() < 1e-12, "{b:?}");
        }
        // R: p.adjust(c(0.2, 0.6, 0.9, 0.001, 0.04), "holm") = 0.6 1 1 0.005 0.16
        //    p.adjust(..., "BH") = 0.3333333 0.75 0.9 0.005 0.1
        let p = [0.2, 0.6, 0.9, 0.001, 0.04];
        for (a, w) in holm(&p).iter().zip([0.6, 1.0, 1.0, 0.005, 0.16]) {
            assert!((a - w).abs() < 1e-12, "{a} {w}");
        }
        for (a, w) in benjamini_hochberg(&p).iter().zip([0.2 * 5.0 / 3.0, 0.75, 0.9, 0.005, 0.1]) {
            assert!((a - w).abs() < 1e-12, "{a} {w}");
        }
        // Ties, NaN (treated as 1) and the empty family.
        assert_eq!(holm(&[0.01, 0.01]), vec![0.02, 0.02]);
        assert_eq!(holm(&[f64::NAN, 0.01]), vec![1.0, 0.02]);
        assert!(holm(&[]).is_empty() && benjamini_hochberg(&[]).is_empty());
        assert_eq!(Correction::Holm.adjust(&[0.02]), vec![0.02]);
        assert_eq!(
            Correction::Holm.line(0.05, 14, "metrics"),
            "verdicts: Holm-adjusted, family-wise error 5% over 14 metrics"
        );
        assert_eq!(
            Correction::BenjaminiHochberg.line(0.01, 3, "tests"),
            "verdicts: Benjamini–Hochberg-adjusted, false discovery rate 1% over 3 tests"
        );
    }

    #[test]
    fn p_values_and_detectable_effects() {
        // 2·Φ(−1.959964) = 0.05; Φ(−1.644854) = 0.05.
        assert!((p_two_sided(1.959_963_985, 1.0) - 0.05).abs() < 1e-9);
        assert!((p_two_sided(-1.959_963_985, 1.0) - 0.05).abs() < 1e-9);
        assert!((p_beyond(1.644_853_627, 1.0) - 0.05).abs() < 1e-9);
        assert!((p_beyond(-1.644_853_627, 1.0) - 0.95).abs() < 1e-9);
        assert_eq!((p_two_sided(0.0, 0.0), p_two_sided(0.1, 0.0)), (1.0, 0.0));
        // (z(0.975) + z(0.8)) = 2.801585; (z(0.95) + z(0.8)) = 2.486475.
        assert!((detectable_at(1.0, 0.05) - 2.801_585).abs() < 1e-6);
        assert!((detectable_one_sided(1.0, 0.05) - 2.486_475).abs() < 1e-6);
        assert!((detectable_at(0.1, 0.05) - min_detectable(1.0, 100)).abs() < 1e-12);
    }

    #[test]
    fn z_for_95_percent() {
        assert!((z(0.95) - 1.959_963_984_540_054).abs() < 1e-9);
    }

    #[test]
    fn wilson_known_values() {
        // Reference values from the Wilson score formula (R: prop.test without
        // continuity correction / binom::binom.wilson).
        let (l, h) = wilson(50.0, 100.0, 0.95);
        assert!((l - 0.403_831_4).abs() < 1e-6 && (h - 0.596_168_6).abs() < 1e-6, "{l} {h}");
        let (l, h) = wilson(0.0, 10.0, 0.95);
        assert!(l.abs() < 1e-12 && (h - 0.277_532_6).abs() < 1e-6, "{l} {h}");
        let (l, h) = wilson(81.0, 263.0, 0.95);
        assert!((l - 0.255_288_5).abs() < 1e-6 && (h - 0.366_209_6).abs() < 1e-6, "{l} {h}");
    }

    /// Rows expected fewer than 5 times pool into the smallest bucket:
    /// (12, 10) and (8+3, 8+2) give 0.4 + 0.1 on 1 df; a count on a row
    /// expected never is a rejection outright.
    #[test]
    fn chi_square_pools_small_rows_and_rejects_the_impossible() {
        let (chi2, df) = chi_square_pooled(&[12, 8, 3, 0], &[10.0, 8.0, 2.0, 0.0], 5.0);
        assert_eq!(df, 1);
        assert!((chi2 - (0.4 + 1.0 / 10.0)).abs() < 1e-12, "{chi2}");
        assert_eq!(chi_square_pooled(&[1, 5], &[0.0, 6.0], 5.0), (f64::INFINITY, 1));
        assert_eq!(chi_square_sf(f64::INFINITY, 1), 0.0);
        assert_eq!(chi_square_pooled(&[5], &[5.0], 5.0), (0.0, 0));
        assert_eq!(chi_square_sf(0.0, 0), 1.0);
        // R: pchisq(3.841459, 1, lower.tail = FALSE) = 0.05.
        assert!((chi_square_sf(3.841_459, 1) - 0.05).abs() < 1e-6);
    }
}
