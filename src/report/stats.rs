//! Interval estimates shown to designers.

use statrs::distribution::{ContinuousCDF, Normal};

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

#[cfg(test)]
mod tests {
    use super::*;

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
