//! The progress bar of long commands, on standard error: hidden with
//! `--quiet` or when standard error is not a terminal (a CI log, a pipe).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps drawn with indicatif's `template`.
pub fn bar(len: u64, quiet: bool, template: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(style(template));
    }
    bar
}

/// `template` with `{rate}`: campaigns a second, written as the summaries
/// write it (`9130 campaigns/s`), not indicatif's `1,103.9738/s`.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .map(|s| {
            s.with_key("rate", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} campaigns/s", st.per_sec());
            })
        })
        .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// The bar of a command that plays `len` campaigns.
pub fn campaigns(len: u64, quiet: bool) -> ProgressBar {
    bar(len, quiet, "{bar:30} {pos}/{len} campaigns  {rate}  ETA {eta}  {wide_msg}")
}
