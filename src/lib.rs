//! `empires`: a Monte Carlo balance simulator for a hex-map campaign wargame.
//!
//! Three crates, from the inside out (see ARCHITECTURE.md):
//! - `empires-core` (`crates/core`): [`scenario`], [`map`], [`rules`],
//!   [`analysis`], [`seed`]: the rules as data and a pure engine;
//! - `empires-sim` (`crates/sim`): [`strategy`], [`sim`], [`study`],
//!   [`strength`], [`stats`]: the players and parallel campaign runs;
//! - this package: [`report`] (datasets, charts, pages), [`gate`] (the
//!   balance gate), [`cli`] (the command line) and [`build_info`].

// The layers beneath, under the names the whole program uses. The crates
// enforce the layering; these re-exports keep one set of paths for code,
// tests and benchmarks alike.
pub use empires_sim::{
    analysis, balance, crosscheck, error, map, rules, scenario, seed, sim, stats, strategy, strength, study,
};

pub mod build_info;
pub mod cli;
pub mod gate;
pub mod report;
