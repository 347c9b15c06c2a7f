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

/// The line of a command that plays campaigns: where it is, its rate and
/// when it ends.
const CAMPAIGNS: &str = "{bar:30} {pos}/{len} campaigns  {rate}  ETA {eta}  {wide_msg}";

/// The bar of a command that plays `len` campaigns.
pub fn campaigns(len: u64, quiet: bool) -> ProgressBar {
    bar(len, quiet, CAMPAIGNS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal that keeps what is drawn on it.
    #[derive(Clone, Debug, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// On a terminal the bar counts campaigns, one at a time, and writes
    /// its rate as the summaries do ("N campaigns/s"), with an ETA: not
    /// indicatif's "1,103.9738/s".
    #[test]
    fn the_bar_counts_campaigns_with_a_rate_and_an_eta() {
        let screen = Screen::default();
        let bar = ProgressBar::with_draw_target(Some(2000), ProgressDrawTarget::term_like(Box::new(screen.clone())));
        bar.set_style(style(CAMPAIGNS));
        for _ in 0..3 {
            bar.inc(1);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        bar.tick();
        let text = screen.0.lock().unwrap().clone();
        let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default().to_string();
        assert!(last.contains(" 3/2000 campaigns  "), "{last}");
        let rate = last.split("  ").find(|w| w.ends_with(" campaigns/s")).unwrap_or_else(|| panic!("{last}"));
        assert!(rate.trim_end_matches(" campaigns/s").chars().all(|c| c.is_ascii_digit()), "{last}");
        assert!(last.contains("  ETA "), "{last}");
    }
}
