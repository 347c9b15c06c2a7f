//! Designer studies on top of the runner: comparing two variants, sweeping
//! scenario keys, and the mine-against-pillage experiment. Each plays its
//! variants on the same seeds (common random numbers) and reports paired
//! differences with 95% intervals. No IO here: `report/` renders the
//! results and `cli/` writes them.

pub mod combat_readings;
pub mod compare;
pub mod exercised;
pub mod metrics;
pub mod mine_pillage;
pub mod restrict;
pub mod sweep;
pub mod worth;
