//! What the player-strength commands write, one file per command:
//! `tune` (the tuned strategy, its history and evaluation), `deviation`
//! (`empires deviate`'s one-key table) and `ladder` (the ratings), with a
//! strategy's scenario table and the file edits that install it in
//! `strategy_table` (shared by tune, psro and the studies). The win-rate
//! format they share is here.

mod deviation;
mod ladder;
mod strategy_table;
mod tune;

pub use deviation::*;
pub use ladder::*;
pub use strategy_table::*;
pub use tune::*;

use super::table::pct;
use crate::stats::wilson;

/// `41.2% [39.1%, 43.4%]`: a win rate with its Wilson 95% interval.
pub fn rate_ci(wins: u64, campaigns: u64) -> String {
    let (lo, hi) = wilson(wins as f64, campaigns as f64, 0.95);
    format!("{} [{}, {}]", pct(wins as f64 / campaigns as f64), pct(lo), pct(hi))
}
