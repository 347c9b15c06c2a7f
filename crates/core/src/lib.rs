//! `empires-core`: the rules of the game, and nothing else.
//!
//! - [`scenario`]: every number and table of the rules, as data;
//! - [`building`]: the kinds of building, which map and scenario share;
//! - [`map`]: the hex grid, drawn or generated;
//! - [`rules`]: the pure, deterministic engine;
//! - [`analysis`]: exact outcome distributions of the tables;
//! - [`seed`]: the per-campaign random streams (G-31);
//! - [`error`]: the one error type, which carries its class to the exit code.
//!
//! The crate's dependencies are its invariant: no threads, no data frames,
//! no charts, no command line, no IO beyond parsing the text it is given.
//! A campaign here is a pure function of the scenario, the seeds and the
//! players' choices.

pub mod analysis;
pub mod building;
pub mod error;
pub mod map;
pub mod rules;
pub mod scenario;
pub mod seed;
