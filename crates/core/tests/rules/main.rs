//! The rules, proved one ID at a time with scripted dice, in the core crate:
//! these tests build and run without the simulation or report layers (no
//! rayon, polars or plotters to compile or link).
//!
//! - `rules_e.rs`: the campaign layer, `e01_*` .. `e16_*`;
//! - `rules_w/`: combat, `w01_*` .. `w25_*`, one file per kind (army,
//!   siege, naval, spy);
//! - `defaults/`: the defaults of the gaps, `g01_*` .. `g30_*`, one file per
//!   layer of the game (the season, combat, the empire) (G-31, the
//!   seeds of whole campaigns, is proved where campaigns are played:
//!   `tests/it/seeds.rs` at the root);
//! - `game.rs`: the game API (`rules::Game`): random games of every
//!   shipped scenario one move at a time, as OpenSpiel tests a game;
//! - `scenarios.rs`: the shipped scenario files load and check;
//! - `reference.rs`: `docs/scenario.md`'s key reference and
//!   `scenarios/default.toml` are generated from the declarations.

mod common;
mod defaults;
mod game;
mod invariants;
mod reference;
mod rules_e;
mod rules_w;
mod scenarios;
