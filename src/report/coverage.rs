//! The mechanics coverage table: how often each action kind of G-30 and
//! each army battle result came up, per strategy. Balance figures mean
//! little if the players never siege, sail or spy, so a mechanic that never
//! happened is marked for the designer to see.

use crate::scenario::ActionKind;
use crate::sim::record::Coverage;
use std::fmt::Write;

/// What a row of the table counts.
#[derive(Clone, Copy, Debug)]
pub enum Counted {
    /// Actions of this kind taken.
    Action(ActionKind),
    /// Army battles with this result (`BattleResult::key`).
    Result(&'static str),
}

use ActionKind as K;
use Counted::{Action as A, Result as R};

/// The rows of the table, in play order: (label, what is counted).
pub const ROWS: &[(&str, Counted)] = &[
    ("recruit unit", A(K::RecruitUnit)),
    ("recruit ship", A(K::RecruitShip)),
    ("recruit spy", A(K::RecruitSpy)),
    ("recruit engine", A(K::RecruitEngine)),
    ("move army", A(K::MoveArmy)),
    ("army attack", A(K::Attack)),
    ("  draw", R("draw")),
    ("  minor victory", R("minor")),
    ("  major victory", R("major")),
    ("  massacre", R("massacre")),
    ("formation", A(K::Formation)),
    ("siege assault", A(K::Siege)),
    ("  city conquered", A(K::OutcomeConquer)),
    ("  city federated", A(K::OutcomeFederate)),
    ("  city pillaged", A(K::OutcomePillage)),
    ("move ship", A(K::MoveShip)),
    ("naval attack", A(K::NavalAttack)),
    ("coastal attack", A(K::CoastalAttack)),
    ("transport", A(K::Transport)),
    ("move spy", A(K::MoveSpy)),
    ("spy action", A(K::SpyAction)),
    ("spy vs spy", A(K::SpyDuel)),
    ("capture", A(K::Capture)),
    ("conquer", A(K::Conquer)),
    ("castle", A(K::Castle)),
    ("city", A(K::City)),
    ("mine", A(K::Mine)),
    ("port", A(K::Port)),
    ("tower", A(K::Tower)),
    ("bridge", A(K::Bridge)),
    ("pillage", A(K::Pillage)),
];

/// Times `what` came up for one strategy, or for all.
pub fn count(cov: &Coverage, strategy: Option<&str>, what: Counted) -> u64 {
    let one = |m: &crate::sim::record::Mechanics| match what {
        Counted::Result(r) => m.result(r),
        Counted::Action(k) => m.action(k),
    };
    match strategy {
        Some(s) => cov.by_strategy.get(s).map_or(0, one),
        None => cov.by_strategy.values().map(one).sum(),
    }
}

/// Rows that never came up in the whole run.
pub fn never(cov: &Coverage) -> Vec<&'static str> {
    ROWS.iter().filter(|(_, what)| count(cov, None, *what) == 0).map(|(label, _)| label.trim()).collect()
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
            let _ = write!(out, " {:>12}", count(cov, Some(n), *what));
        }
        let all = count(cov, None, *what);
        let flag = if all == 0 { "  NEVER" } else { "" };
        let _ = writeln!(out, " {all:>12}{flag}");
    }
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
