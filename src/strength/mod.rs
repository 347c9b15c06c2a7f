//! How strong is a player? Tuning a strategy against a field (`tune`), the
//! search space it moves in (`space`), and the one-key deviation check that
//! tells whether a strategy sits near a local optimum (`deviation`).
//!
//! Every measurement here is a `sim::lineup::Lineup`: given strategy specs
//! in the seats, rotated, on seeds the caller names. No IO here: `cli/`
//! writes the files and `report/` draws the pages.

pub mod deviation;
pub mod ladder;
pub mod space;
pub mod tune;
