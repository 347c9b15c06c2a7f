//! One integration-test binary (each extra binary would link polars again).
//! The rules' own tests live in the core crate (`crates/core/tests/rules`);
//! the test worlds they build are shared with this binary.

#[path = "../../crates/core/tests/rules/common.rs"]
mod common;

mod bad_input;
mod balance;
mod charts;
mod exit_codes;
mod fuzz;
mod game_api;
mod gate;
mod guide;
mod interrupt;
mod language;
mod layers;
mod log_replay;
mod merge;
mod outputs;
mod pages;
mod play_cli;
mod probe;
mod progress;
mod properties;
mod provenance;
mod psro;
mod readings;
mod replay_page;
mod report;
mod runner;
mod scaleout;
mod seats;
mod seeds;
mod sensitivity;
mod standalone;
mod strategies;
mod strength;
mod studies;
mod styles;
mod tables;
mod value;
