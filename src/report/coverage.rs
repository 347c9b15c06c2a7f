//! The mechanics coverage table: how often each action kind of G-30 and
//! each army battle result came up, per strategy. Balance figures mean
//! little if the players never siege, sail or spy, so a mechanic that never
//! happened is marked for the designer to see.

use crate::sim::record::Coverage;
use std::fmt::Write;

/// The rows of the table, in play order: (label, what is counted). An
/// entry `result:NAME` counts army battles with that result.
pub const ROWS: &[(&str, &str)] = &[
    ("recruit unit", "recruit_unit"),
    ("recruit ship", "recruit_ship"),
    ("recruit spy", "recruit_spy"),
    ("recruit engine", "recruit_engine"),
    ("move army", "move_army"),
    ("army attack", "attack"),
    ("  draw", "result:draw"),
    ("  minor victory", "result:minor"),
    ("  major victory", "result:major"),
    ("  massacre", "result:massacre"),
    ("formation", "formation"),
    ("siege assault", "siege"),
    ("  city conquered", "outcome_conquer"),
    ("  city federated", "outcome_federate"),
    ("  city pillaged", "outcome_pillage"),
    ("move ship", "move_ship"),
    ("naval attack", "naval_attack"),
    ("coastal attack", "coastal_attack"),
    ("transport", "transport"),
    ("move spy", "move_spy"),
    ("spy action", "spy_action"),
    ("spy vs spy", "spy_duel"),
    ("capture", "capture"),
    ("conquer", "conquer"),
    ("castle", "castle"),
    ("city", "city"),
    ("mine", "mine"),
    ("port", "port"),
    ("tower", "tower"),
    ("bridge", "bridge"),
    ("pillage", "pillage"),
];

/// Times `what` (a `ROWS` entry) came up for one strategy, or for all.
pub fn count(cov: &Coverage, strategy: Option<&str>, what: &str) -> u64 {
    let one = |m: &crate::sim::record::Mechanics| match what.strip_prefix("result:") {
        Some(r) => m.result(r),
        None => m.action(what),
    };
    match strategy {
        Some(s) => cov.by_strategy.get(s).map_or(0, one),
        None => cov.by_strategy.values().map(one).sum(),
    }
}

/// Rows that never came up in the whole run.
pub fn never(cov: &Coverage) -> Vec<&'static str> {
    ROWS.iter().filter(|(_, what)| count(cov, None, what) == 0).map(|(label, _)| label.trim()).collect()
}

/// The table as text: one column per strategy, then the total.
pub fn render(cov: &Coverage) -> String {
    let mut out = String::new();
    let names: Vec<&String> = cov.by_strategy.keys().collect();
    let _ = writeln!(out, "mechanics coverage (times taken, all campaigns):");
    let _ = write!(out, "  {:<18}", "");
    for n in &names {
        let _ = write!(out, " {:>12}", truncate(n, 12));
    }
    let _ = writeln!(out, " {:>12}", "all");
    for (label, what) in ROWS {
        let _ = write!(out, "  {label:<18}");
        for n in &names {
            let _ = write!(out, " {:>12}", count(cov, Some(n), what));
        }
        let all = count(cov, None, what);
        let flag = if all == 0 { "  NEVER" } else { "" };
        let _ = writeln!(out, " {all:>12}{flag}");
    }
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
