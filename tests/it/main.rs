//! One integration-test binary (each extra binary would link polars again).

mod bad_input;
mod common;
mod defaults;
mod exit_codes;
mod fuzz;
mod gate;
mod log_replay;
mod merge;
mod play_cli;
mod properties;
mod provenance;
mod replay_page;
mod report;
mod rules_e;
mod rules_w;
mod runner;
mod scaleout;
mod scenarios;
mod seats;
mod standalone;
mod strategies;
mod strength;
mod studies;
mod tables;
