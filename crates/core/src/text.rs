//! How shares read in the tool's words: the percent formats every table,
//! verdict and finding shares, in one place so that a share reads the same
//! wherever it is printed. The other number formats of the reports (a
//! small percentage, a p-value, seconds, a difference) are the `empires`
//! package's `report::number`: presentation that the rules do not print.

/// A share as a percent with one decimal: `12.3%`.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
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
        assert_eq!([0.05, 0.025, 0.001, 0.1].map(pct_level), ["5%", "2.5%", "0.1%", "10%"].map(String::from));
    }
}
