//! Exact analysis: what the dice and the tables give, computed by
//! enumerating every face instead of sampling.
//!
//! Like `rules/`, this layer is pure: no IO, no threads, no polars or
//! plotters. It reads the tables through the same functions the engine uses
//! (`rules::army::army_losses`, `siege_effect`, `naval_losses`,
//! `spy_effect`, `duel_effect`), so an exact table and a played combat can
//! never read a row differently.
//!
//! - `dice.rs`: the exact distribution of a dice expression and of the
//!   difference of two rolls.
//! - `combat.rs`: one combat's outcome distribution per (attacker base,
//!   defender base) cell, for each of the six kinds.
//! - `markov.rs`: sieges to the end (assaults and units spent, P(the army is
//!   spent first)) and naval battles to destruction.
//! - `fairness.rs`: question 2's findings and verdict on each table, as
//!   numbers (the report words them).
//!
//! Played combats are checked against these tables in sim's `crosscheck`:
//! a statistical test of campaigns, which the rules do not need.

pub mod combat;
pub mod dice;
pub mod fairness;
pub mod markov;
