//! Gap tables: a combat result looked up by the score gap (W-03, W-10, W-13,
//! G-10, W-21, W-25). Designers write rows as inclusive ranges; a missing `from`
//! or `to` means the range is open on that side.
//!
//! Validation (`check.rs`) proves the rows cover the table's domain exactly
//! once; lookups then go through a dense index built at load time so the hot
//! loop never scans rows.

use serde::{Deserialize, Serialize};

/// Gaps this far from zero are clamped before the dense lookup. Scores in the
/// game stay far below this; the clamped ends are open rows by validation.
pub const DENSE_LIMIT: i32 = 64;

/// The range a row covers: `from..=to`, either end open when `None`.
pub trait GapRow {
    fn from(&self) -> Option<i32>;
    fn to(&self) -> Option<i32>;
    fn covers(&self, gap: i32) -> bool {
        self.from().is_none_or(|f| gap >= f) && self.to().is_none_or(|t| gap <= t)
    }
}

/// Whether a table is read by the signed gap (attacker minus defender) or by
/// the unsigned gap between winner and loser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Gaps from 0 upward.
    Unsigned,
    /// Every integer.
    Signed,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GapTable<R> {
    pub rows: Vec<R>,
    /// `dense[g + DENSE_LIMIT]` is the row index for gap `g`.
    dense: Vec<u8>,
}

impl<R: GapRow> GapTable<R> {
    pub fn new(rows: Vec<R>) -> Self {
        let dense =
            (-DENSE_LIMIT..=DENSE_LIMIT).map(|g| rows.iter().position(|r| r.covers(g)).unwrap_or(0) as u8).collect();
        GapTable { rows, dense }
    }

    /// Index of the row hit by `gap`.
    #[inline]
    pub fn row_index(&self, gap: i32) -> usize {
        let g = gap.clamp(-DENSE_LIMIT, DENSE_LIMIT);
        self.dense[(g + DENSE_LIMIT) as usize] as usize
    }

    #[inline]
    pub fn lookup(&self, gap: i32) -> &R {
        &self.rows[self.row_index(gap)]
    }

    /// Problems with coverage of `domain`: uncovered gaps and overlaps, as
    /// `(row index, message)`; row index `None` means the table as a whole.
    pub fn coverage_problems(&self, domain: Domain) -> Vec<(Option<usize>, String)> {
        let mut out = Vec::new();
        if self.rows.is_empty() {
            out.push((None, "the table has no rows".to_string()));
            return out;
        }
        for (i, r) in self.rows.iter().enumerate() {
            if let (Some(f), Some(t)) = (r.from(), r.to())
                && f > t
            {
                out.push((Some(i), format!("row range is empty: from = {f} is above to = {t}")));
            }
            if domain == Domain::Unsigned && r.from().is_none() {
                out.push((Some(i), "this table is read by the unsigned gap: `from` must be given (0 or more)".into()));
            }
            if domain == Domain::Unsigned && r.from().is_some_and(|f| f < 0) {
                out.push((Some(i), "this table is read by the unsigned gap: `from` cannot be negative".into()));
            }
        }
        // Overlaps: any two rows that share a gap.
        for i in 0..self.rows.len() {
            for j in i + 1..self.rows.len() {
                let (a, b) = (&self.rows[i], &self.rows[j]);
                let lo = max_opt(a.from(), b.from());
                let hi = min_opt(a.to(), b.to());
                let overlap = match (lo, hi) {
                    (Some(l), Some(h)) => l <= h,
                    _ => true,
                };
                if overlap {
                    out.push((Some(j), format!("row overlaps row {} (gap {})", i + 1, describe(lo, hi))));
                }
            }
        }
        // Holes: walk the domain. Rows are finite in count, so check each
        // boundary and the open ends.
        let start = match domain {
            Domain::Unsigned => Some(0),
            Domain::Signed => None,
        };
        if start.is_none() && !self.rows.iter().any(|r| r.from().is_none()) {
            let lowest = self.rows.iter().filter_map(|r| r.from()).min().unwrap_or(0);
            out.push((None, format!("no row covers gaps below {lowest}: give the lowest row no `from`")));
        }
        if !self.rows.iter().any(|r| r.to().is_none()) {
            let highest = self.rows.iter().filter_map(|r| r.to()).max().unwrap_or(0);
            out.push((None, format!("no row covers gaps above {highest}: give the highest row no `to`")));
        }
        let mut points: Vec<i32> =
            self.rows.iter().flat_map(|r| [r.from(), r.to().map(|t| t.saturating_add(1))]).flatten().collect();
        if let Some(s) = start {
            points.push(s);
        }
        points.sort_unstable();
        points.dedup();
        for p in points {
            if start.is_some_and(|s| p < s) {
                continue;
            }
            if !self.rows.iter().any(|r| r.covers(p)) {
                // find the end of the hole for the message
                // Past the last row is the open end, reported above.
                let Some(n) = self.rows.iter().filter_map(|r| r.from()).filter(|&f| f > p).min() else { continue };
                let msg = if n - 1 > p {
                    format!("no row covers gaps {p} to {}", n - 1)
                } else {
                    format!("no row covers gap {p}")
                };
                out.push((None, msg));
            }
        }
        out
    }
}

fn max_opt(a: Option<i32>, b: Option<i32>) -> Option<i32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) | (None, x) => x,
    }
}

fn min_opt(a: Option<i32>, b: Option<i32>) -> Option<i32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) | (None, x) => x,
    }
}

/// A gap range in words: `3`, `1 to 2`, `5 and above`, `-1 and below`.
pub fn describe(lo: Option<i32>, hi: Option<i32>) -> String {
    match (lo, hi) {
        (Some(l), Some(h)) if l == h => format!("{l}"),
        (Some(l), Some(h)) => format!("{l} to {h}"),
        (Some(l), None) => format!("{l} and above"),
        (None, Some(h)) => format!("{h} and below"),
        (None, None) => "every gap".into(),
    }
}

impl<R: GapRow + Serialize> Serialize for GapTable<R> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.rows.serialize(s)
    }
}

impl<'de, R: GapRow + Deserialize<'de>> Deserialize<'de> for GapTable<R> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(GapTable::new(Vec::<R>::deserialize(d)?))
    }
}

/// Implements `GapRow` for a row struct with `from`/`to` fields.
macro_rules! gap_row {
    ($t:ty) => {
        impl $crate::scenario::table::GapRow for $t {
            fn from(&self) -> Option<i32> {
                self.from
            }
            fn to(&self) -> Option<i32> {
                self.to
            }
        }
    };
}
pub(crate) use gap_row;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Row {
        from: Option<i32>,
        to: Option<i32>,
    }
    gap_row!(Row);

    fn t(rows: &[(Option<i32>, Option<i32>)]) -> GapTable<Row> {
        GapTable::new(rows.iter().map(|&(from, to)| Row { from, to }).collect())
    }

    #[test]
    fn full_cover_has_no_problems() {
        let tab = t(&[(None, Some(-1)), (Some(0), Some(0)), (Some(1), Some(2)), (Some(3), None)]);
        assert!(tab.coverage_problems(Domain::Signed).is_empty());
        assert_eq!(tab.row_index(-7), 0);
        assert_eq!(tab.row_index(0), 1);
        assert_eq!(tab.row_index(2), 2);
        assert_eq!(tab.row_index(300), 3);
    }

    #[test]
    fn holes_and_overlaps_are_found() {
        let hole = t(&[(Some(0), Some(0)), (Some(2), None)]);
        let p = hole.coverage_problems(Domain::Unsigned);
        assert_eq!(p, vec![(None, "no row covers gap 1".to_string())]);
        let over = t(&[(Some(0), Some(3)), (Some(3), None)]);
        let p = over.coverage_problems(Domain::Unsigned);
        assert_eq!(p, vec![(Some(1), "row overlaps row 1 (gap 3)".to_string())]);
        let open = t(&[(Some(0), Some(3))]);
        assert_eq!(open.coverage_problems(Domain::Unsigned).len(), 1);
    }
}
