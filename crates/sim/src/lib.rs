//! `empires-sim`: who plays, and how many campaigns at once.
//!
//! - [`strategy`]: the players (random, weighted, lookahead, restricted);
//! - [`sim`]: the one door that plays a campaign (`Campaign`), the parallel
//!   runner, lineups and the rows of a run;
//! - [`study`]: compare, sweep, restricted play and the mine-against-pillage
//!   experiment, on common random numbers;
//! - [`strength`]: tuning, the deviation check, the ladder and the meta-game;
//! - [`balance`]: sensitivity of a metric to the scenario's numbers, and
//!   the balance solver;
//! - [`stats`]: the intervals every figure shown to a designer carries;
//! - [`crosscheck`]: played combats against the exact tables (chi-square).
//!
//! It adds rayon to the core and nothing that writes files: results leave
//! as plain rows and structs, and the `empires` package writes them.
//!
//! The core's modules are re-exported at this crate's root, so code here
//! names them `crate::rules`, `crate::scenario`, ... as the layer beneath.

pub use empires_core::{analysis, error, map, rules, scenario, seed};

pub mod balance;
pub mod crosscheck;
pub mod sim;
pub mod stats;
pub mod strategy;
pub mod strength;
pub mod study;
