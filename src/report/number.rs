//! How the reports print a number: a share, a small percentage, a
//! p-value, a duration, a difference. One home, so a share or a p-value
//! reads the same in `check`, a study's table and a summary, and no output
//! shows a float's raw digits (`1.8158803460000001 s`) or a scientific
//! form where a plain number reads (`+5.000e-1`).
//!
//! The error level of a multiplicity correction is `stats::pct_level`,
//! beside the verdict line that prints it.

/// Below this a percentage prints as `< 0.0001%`: a rate read from
/// campaigns is never known to more digits, and more would print twenty
/// zeros for a rate that underflowed (`0.00000000000000000034%`).
const PCT_FLOOR: f64 = 1e-4;

/// Below this a p-value prints as `< 1e-16`. The tests' p-values come from
/// normal or chi-square approximations that hold nowhere near there, and a
/// probability next to 1 has no more digits in an f64 (its epsilon is
/// 2.2e-16); an exact 0 (a difference with no spread) is no more certain.
pub const P_FLOOR: f64 = 1e-16;

/// A share as a percent with one decimal: `12.3%`, the format every
/// table, verdict and finding shares.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A small share with the digits it needs: `12.3%`, `1.2%`, `0.12%`,
/// `0.012%` (a verdict's rates, where one decimal would read `0.0%`);
/// `< 0.0001%` below that, and `0.0%` for none at all.
pub fn pct_small(x: f64) -> String {
    let p = 100.0 * x;
    if p > 0.0 && p < PCT_FLOOR {
        return format!("< {PCT_FLOOR}%");
    }
    let digits = if p == 0.0 || p >= 1.0 { 1 } else { (1.0 - p.log10().floor()) as usize };
    format!("{p:.digits$}%")
}

/// A p-value in a table cell: four decimals (`0.0455`), two significant
/// digits in scientific form below 0.001 (`1.2e-7`), `< 1e-16` below
/// [`P_FLOOR`], `—` when there is none.
pub fn p_value(p: f64) -> String {
    if !p.is_finite() {
        "—".into()
    } else if p < P_FLOOR {
        format!("< {P_FLOOR:e}")
    } else if p < 1e-3 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// A p-value in a sentence: `p = 0.0455`, `p = 1.2e-7`, `p < 1e-16`.
pub fn p_is(p: f64) -> String {
    let v = p_value(p);
    if v.starts_with('<') { format!("p {v}") } else { format!("p = {v}") }
}

/// A duration in seconds with the digits a wall time carries: `1.82 s`,
/// `14.1 s`, `317 s`.
pub fn seconds(s: f64) -> String {
    if !(s.is_finite() && s >= 0.0) {
        "—".into()
    } else if s < 10.0 {
        format!("{s:.2} s")
    } else if s < 100.0 {
        format!("{s:.1} s")
    } else {
        format!("{s:.0} s")
    }
}

/// A number with four significant digits, plain where a plain number
/// reads (`0.5`, `1234`, `0.0002346`), scientific only far from 1
/// (`3.5e-8`, `1.235e9`); no trailing zeros.
pub fn plain(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if (-4..7).contains(&magnitude) {
        let decimals = (3 - magnitude).max(0) as usize;
        trim_zeros(&format!("{x:.decimals$}"))
    } else {
        let s = format!("{x:.3e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => format!("{}e{exp}", trim_zeros(mantissa)),
            None => s,
        }
    }
}

/// [`plain`] with its sign: `+0.5`, `-0.25`, `0`.
pub fn signed(x: f64) -> String {
    if x > 0.0 { format!("+{}", plain(x)) } else { plain(x) }
}

/// `0.5000` as `0.5`, `12.000` as `12`; a whole number stays as it is.
fn trim_zeros(s: &str) -> String {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_read_with_one_decimal() {
        assert_eq!((pct(0.1234), pct(0.0), pct(1.0)), ("12.3%".into(), "0.0%".into(), "100.0%".into()));
    }

    #[test]
    fn a_tiny_percentage_prints_as_below_the_floor() {
        assert_eq!(
            [0.123, 0.0123, 0.00123, 0.000123, 0.0, 3.4e-21, 9.9e-7, 2e-6].map(pct_small),
            ["12.3%", "1.2%", "0.12%", "0.012%", "0.0%", "< 0.0001%", "< 0.0001%", "0.00020%"].map(String::from)
        );
    }

    #[test]
    fn a_p_value_prints_fixed_digits_or_below_the_floor() {
        assert_eq!(
            [0.04550026, 0.5, 1.23e-7, 0.0, 1e-17, f64::NAN].map(p_value),
            ["0.0455", "0.5000", "1.2e-7", "< 1e-16", "< 1e-16", "—"].map(String::from)
        );
        assert_eq!([0.04550026, 1.23e-7, 0.0].map(p_is), ["p = 0.0455", "p = 1.2e-7", "p < 1e-16"].map(String::from));
    }

    #[test]
    fn seconds_print_the_digits_a_wall_time_carries() {
        assert_eq!(
            [1.8158803460000001, 14.0999, 316.8, 0.0].map(seconds),
            ["1.82 s", "14.1 s", "317 s", "0.00 s"].map(String::from)
        );
    }

    #[test]
    fn a_difference_prints_plain_where_a_plain_number_reads() {
        assert_eq!(
            [0.5, -0.25, 0.0, 1234.5678, 0.00023456, 3.5e-8, 1.23456e9].map(signed),
            ["+0.5", "-0.25", "0", "+1235", "+0.0002346", "+3.5e-8", "+1.235e9"].map(String::from)
        );
        assert_eq!(plain(2.0), "2");
    }
}
