//! What `empires sensitivity` and `empires solve` write, a module each as
//! in `crate::balance`: the ranked keys and the design points (`sensitivity`),
//! and the solved scenario with its evaluations (`solve`); each as
//! parquet, JSON and an HTML page with its charts.

use crate::scenario::param::Param;

pub mod sensitivity;
pub mod solve;

// The balance commands reach every page through `report::balance`, one
// module for their one file (`cli/balance.rs`).
pub use sensitivity::{Sensitivity, points_frame, read_points, sensitivity_text, write_sensitivity};
pub use solve::{curve_text, patched_toml, solve_text, unmet_text, write_curve, write_solve, write_unmet};

/// `1..30`: a key's range as both the ranked keys and a solve print it.
fn range(p: &Param) -> String {
    format!("{}..{}", p.show(p.lo), p.show(p.hi))
}
