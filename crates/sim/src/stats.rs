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
    ((centre - half).max(0.0), (centre + half).min(1.0))
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
    if n == 0 {
        return Mean { n, mean: f64::NAN, sd: f64::NAN, low: f64::NAN, high: f64::NAN };
    }
    let mean = sum / n as f64;
    let var = if n > 1 { ((sq - n as f64 * mean * mean) / (n as f64 - 1.0)).max(0.0) } else { 0.0 };
    let sd = var.sqrt();
    let half = z(confidence) * sd / (n as f64).sqrt();
    Mean { n, mean, sd, low: mean - half, high: mean + half }
}

/// The smallest true difference a paired design of `n` campaigns with this
/// spread of differences detects with 80% power at the 5% level:
/// (z(0.975) + z(0.80)) · sd / √n.
pub fn min_detectable(sd: f64, n: u64) -> f64 {
    if n == 0 {
        return f64::NAN;
    }
    let z_power = Normal::new(0.0, 1.0).map_or(0.841_621, |d| d.inverse_cdf(0.80));
    (z(0.95) + z_power) * sd / (n as f64).sqrt()
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

/// A p-value for a summary line, `p = ...`: four decimals, scientific when
/// tiny, and `p < 1e-300` when it underflows to 0.
pub fn format_p(p: f64) -> String {
    if p == 0.0 {
        "p < 1e-300".into()
    } else if p < 1e-4 {
        format!("p = {p:.1e}")
    } else {
        format!("p = {p:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(format_p(0.04550026), "p = 0.0455");
        assert_eq!(format_p(1.23e-7), "p = 1.2e-7");
        assert_eq!(format_p(0.0), "p < 1e-300");
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
}
