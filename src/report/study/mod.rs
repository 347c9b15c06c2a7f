//! Text and HTML pages of the studies, a module each as in `crate::study`:
//! compare, sweep, restricted play and the mine-against-pillage
//! experiment; with how a metric reads (`metrics`) and how a paired
//! comparison is shown (`paired`), which they share.

pub mod compare;
pub mod metrics;
pub mod mine_pillage;
pub mod paired;
pub mod restrict;
pub mod shift;
pub mod sweep;

// The study commands reach every page through `report::study`, one module
// for their one file (`cli/study.rs`).
pub use compare::{best_response_text, compare_page, compare_text};
pub use mine_pillage::{experiment_page, experiment_text};
pub use restrict::{restrict_page, restrict_text};
pub use sweep::{sweep_page, sweep_text};
