//! The progress bar of long commands, on standard error: hidden with
//! `--quiet` or when standard error is not a terminal (a CI log, a pipe).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps drawn with indicatif's `template`.
pub fn bar(len: u64, quiet: bool, template: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    }
    bar
}
