//! `empires`: a Monte Carlo balance simulator for a hex-map campaign wargame.
//!
//! Layers, from the inside out (see ARCHITECTURE.md):
//! - [`scenario`]: every number and table of the rules, as data;
//! - [`map`]: the hex grid, drawn or generated;
//! - [`rules`]: the pure, deterministic engine;
//! - [`analysis`]: exact outcome distributions of the tables (pure);
//! - [`strategy`]: the players;
//! - [`sim`]: seeds and campaign runs;
//! - [`study`]: compare, sweep and the mine-against-pillage experiment;
//! - [`report`]: turning results into text, JSON and files;
//! - [`gate`]: the balance regression gate (`empires check`);
//! - [`cli`]: the command line;
//! - [`build_info`]: the commit this binary was built from.

pub mod analysis;
pub mod build_info;
pub mod cli;
pub mod gate;
pub mod map;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod sim;
pub mod strategy;
pub mod strength;
pub mod study;
