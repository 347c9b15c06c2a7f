//! How a study's metric reads: its value and a difference in a cell (a
//! rate in percent and points, a count with its own decimals), and the
//! definitions of the shares a page shows. Each metric is measured in
//! `study::metrics`; every page and text that shows one shows it here.

use crate::study::metrics::Metric;

/// A metric's value in a cell: a rate in percent, anything else with the
/// decimals its metric keeps; `—` where no campaign defined it.
pub fn fmt(m: &Metric, x: f64) -> String {
    if !x.is_finite() {
        "—".into()
    } else if m.is_rate() {
        crate::report::number::pct(x)
    } else {
        format!("{x:.*}", m.decimals())
    }
}

/// A difference of a metric in a cell, signed: a rate's in points.
pub fn fmt_diff(m: &Metric, x: f64) -> String {
    if m.is_rate() { format!("{:+.1} pts", 100.0 * x) } else { format!("{x:+.*}", m.decimals()) }
}

/// What a campaign must have for `m` to have a value there, as the words
/// after "with": `a siege`, `gold`, `a miner player`.
pub fn needs(m: &Metric) -> String {
    use crate::rules::CombatKind as K;
    match m {
        Metric::Combat(k, _) => match k {
            K::Army => "an army battle",
            K::Siege => "a siege",
            K::Naval => "a naval battle",
            K::Coastal => "a coastal attack",
            K::Spy => "a spy action",
            K::SpyDuel => "a spy duel",
        }
        .into(),
        Metric::MineShare | Metric::PillageShare => "gold".into(),
        Metric::WinStrategy(s) | Metric::SizeStrategy(s) => format!("a {s} player"),
        _ => "a value".into(),
    }
}

/// A mean in a cell with its 95% interval, `80.6% [78.0%, 83.1%]`, and
/// over how many of `campaigns` when fewer had a value; `—` when none did.
/// Every metric is a count, a size, gold or a rate, so the interval is
/// cut at 0 (and a rate's at 100%).
pub fn mean_cell(m: &Metric, x: &crate::stats::Mean, campaigns: u64) -> String {
    if !x.mean.is_finite() {
        return "—".into();
    }
    let high = if m.is_rate() { x.high.min(1.0) } else { x.high };
    let over = if x.n < campaigns { format!(" ({} campaigns)", x.n) } else { String::new() };
    format!("{} {}{over}", fmt(m, x.mean), interval(&fmt(m, x.low.max(0.0)), &fmt(m, high)))
}

/// `[78.0%, 83.1%]`, held together: a page's narrow column wraps a cell
/// between its value and its interval, never inside the interval (the
/// space after the comma does not break).
pub fn interval(low: &str, high: &str) -> String {
    format!("[{low},\u{a0}{high}]")
}

/// The definition of each share among `metrics` ("share of gold from
/// mines: the mean over campaigns of ..."), one line each, for every page
/// that shows one; empty when none is shown.
pub fn definitions<'a>(metrics: impl IntoIterator<Item = &'a Metric>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for d in metrics.into_iter().filter_map(Metric::definition) {
        if !seen.contains(&d) {
            seen.push(d);
        }
    }
    seen.iter().map(|d| format!("{d}\n")).collect()
}

/// The readings of the rules a combat metric among `metrics` rests on
/// (`study::combat_readings`: W-05 for attackers, W-07 in sieges, W-06,
/// E-02, spy-duel loot, a mine's PV), one line, for every page that shows
/// one: a table change measured under another reading would move
/// otherwise. Empty when no metric shown rests on a reading.
pub fn rests_on<'a>(metrics: impl IntoIterator<Item = &'a Metric>) -> String {
    let shown: Vec<&Metric> = metrics.into_iter().collect();
    let readings: Vec<String> = crate::study::combat_readings::readings()
        .into_iter()
        .filter(|r| r.moves.iter().any(|m| shown.contains(&m)))
        .map(|r| format!("{} ({}; --set {} flips it)", r.rule, r.shipped, r.flag()))
        .collect();
    if readings.is_empty() {
        return String::new();
    }
    format!(
        "what these metrics rest on, readings of the rules the documents leave open: {}; `empires tables` plays \
         each flipped against the shipped one (docs/rules.md argues each)\n",
        readings.join("; ")
    )
}
