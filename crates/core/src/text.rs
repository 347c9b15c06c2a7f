//! How shares read in the tool's words: the percent formats every table,
//! verdict and finding shares, in one place so that a share reads the same
//! wherever it is printed.

/// A share as a percent with one decimal: `12.3%`.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A small share with the digits it needs: `12.3%`, `1.2%`, `0.12%`,
/// `0.012%` (a verdict's rates, where one decimal would read `0.0%`).
pub fn pct_small(x: f64) -> String {
    let p = 100.0 * x;
    let digits = if p == 0.0 || p >= 1.0 { 1 } else { (1.0 - p.log10().floor()) as usize };
    format!("{p:.digits$}%")
}

/// A level such as an error rate, with no trailing zeros: `5%`, `2.5%`,
/// `0.1%` (at most two decimals).
pub fn pct_level(x: f64) -> String {
    let s = format!("{:.2}", 100.0 * x);
    format!("{}%", s.trim_end_matches('0').trim_end_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_read_with_the_digits_each_format_gives() {
        assert_eq!((pct(0.1234), pct(0.0), pct(1.0)), ("12.3%".into(), "0.0%".into(), "100.0%".into()));
        assert_eq!(
            [0.123, 0.0123, 0.00123, 0.000123, 0.0].map(pct_small),
            ["12.3%", "1.2%", "0.12%", "0.012%", "0.0%"].map(String::from)
        );
        assert_eq!([0.05, 0.025, 0.001, 0.1].map(pct_level), ["5%", "2.5%", "0.1%", "10%"].map(String::from));
    }
}
