//! Dice expressions such as `2D6x10` (G-05), parsed once when the scenario loads.
//!
//! Grammar: `[N]D<S>[x<M>][+K|-K]`, case-insensitive `d`/`x`. `N` defaults to 1.
//! The engine rolls them (see `rules::dice`); this module only holds the shape.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// `count` dice of `sides` faces, summed, multiplied by `mult`, plus `plus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DiceExpr {
    pub count: u8,
    pub sides: u8,
    pub mult: u32,
    pub plus: i32,
}

impl DiceExpr {
    pub const D6: DiceExpr = DiceExpr { count: 1, sides: 6, mult: 1, plus: 0 };

    pub const fn new(count: u8, sides: u8, mult: u32) -> Self {
        DiceExpr { count, sides, mult, plus: 0 }
    }

    /// Smallest value the expression can produce.
    pub fn min(&self) -> i64 {
        self.count as i64 * self.mult as i64 + self.plus as i64
    }

    /// Largest value the expression can produce.
    pub fn max(&self) -> i64 {
        self.count as i64 * self.sides as i64 * self.mult as i64 + self.plus as i64
    }

    /// Exact mean.
    pub fn mean(&self) -> f64 {
        self.count as f64 * (self.sides as f64 + 1.0) / 2.0 * self.mult as f64 + self.plus as f64
    }

    /// Value for one set of already-rolled faces summed to `sum`.
    #[inline]
    pub fn apply(&self, sum: u32) -> i64 {
        sum as i64 * self.mult as i64 + self.plus as i64
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceParseError(pub String);

impl fmt::Display for DiceParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DiceParseError {}

impl FromStr for DiceExpr {
    type Err = DiceParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: &str| {
            DiceParseError(format!(
                "invalid dice expression {s:?}: {why} (expected a form like \"2D6x10\", \"D6\" or \"3D6x10+5\")"
            ))
        };
        let t = s.trim();
        let d = t.find(['d', 'D']).ok_or_else(|| bad("missing 'D'"))?;
        let count = if d == 0 {
            1
        } else {
            t[..d].parse::<u8>().map_err(|_| bad("dice count must be a whole number from 1 to 255"))?
        };
        if count == 0 {
            return Err(bad("dice count must be at least 1"));
        }
        let rest = &t[d + 1..];
        let sides_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let sides =
            rest[..sides_end].parse::<u8>().map_err(|_| bad("number of sides must be a whole number from 2 to 255"))?;
        if sides < 2 {
            return Err(bad("a die needs at least 2 sides"));
        }
        let mut rest = &rest[sides_end..];
        let mut mult = 1u32;
        if let Some(r) = rest.strip_prefix(['x', 'X', '*']) {
            let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            mult = r[..end].parse::<u32>().map_err(|_| bad("multiplier must be a whole number"))?;
            rest = &r[end..];
        }
        let mut plus = 0i32;
        if !rest.is_empty() {
            let (sign, num) = match rest.as_bytes()[0] {
                b'+' => (1, &rest[1..]),
                b'-' => (-1, &rest[1..]),
                _ => return Err(bad("unexpected trailing text")),
            };
            plus = sign * num.parse::<i32>().map_err(|_| bad("modifier must be a whole number"))?;
        }
        Ok(DiceExpr { count, sides, mult, plus })
    }
}

impl TryFrom<String> for DiceExpr {
    type Error = DiceParseError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<DiceExpr> for String {
    fn from(d: DiceExpr) -> String {
        d.to_string()
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}D{}", self.count, self.sides)?;
        if self.mult != 1 {
            write!(f, "x{}", self.mult)?;
        }
        if self.plus > 0 {
            write!(f, "+{}", self.plus)?;
        } else if self.plus < 0 {
            write!(f, "{}", self.plus)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_rule_forms() {
        assert_eq!("2D6x10".parse::<DiceExpr>().unwrap(), DiceExpr::new(2, 6, 10));
        assert_eq!("3d6x10".parse::<DiceExpr>().unwrap(), DiceExpr::new(3, 6, 10));
        assert_eq!("D6".parse::<DiceExpr>().unwrap(), DiceExpr::D6);
        let e: DiceExpr = "1D8+2".parse().unwrap();
        assert_eq!((e.count, e.sides, e.mult, e.plus), (1, 8, 1, 2));
        assert_eq!(e.to_string(), "1D8+2");
        assert_eq!(DiceExpr::new(2, 6, 10).mean(), 70.0);
        assert_eq!(DiceExpr::new(3, 6, 10).max(), 180);
    }

    #[test]
    fn rejects_garbage() {
        for s in ["", "2x6", "0D6", "2D1", "2D6x", "2D6y3", "D", "2D6+"] {
            assert!(s.parse::<DiceExpr>().is_err(), "{s} should not parse");
        }
    }
}
