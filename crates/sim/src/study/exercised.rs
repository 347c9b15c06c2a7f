//! What an answer's players never did. Every answer read off played
//! campaigns is an answer about what its players do: if nobody in them
//! builds a mine, the campaigns say nothing about what a mine is worth in
//! play, however many there were. This module names the rule parts the
//! players never (or almost never) exercised, from the campaigns' mechanics
//! coverage (`sim::record::Coverage`), so each such answer can say where it
//! is silent.

use crate::scenario::ActionKind;
use crate::sim::record::Coverage;

/// A part of the rules a designer asks about, and the action kinds that
/// exercise it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// What a player does, as a verb phrase: `built a mine`.
    pub did: &'static str,
    pub kinds: &'static [ActionKind],
}

use ActionKind as K;

/// Every part, in the order a line lists them: the economy, then war, then
/// the sea and spies, then each purchase.
pub const PARTS: &[Part] = &[
    Part { did: "built a mine", kinds: &[K::Mine] },
    Part { did: "pillaged", kinds: &[K::Pillage] },
    Part { did: "attacked an army", kinds: &[K::Attack] },
    Part { did: "besieged a city", kinds: &[K::Siege] },
    Part { did: "conquered", kinds: &[K::Conquer, K::OutcomeConquer] },
    Part { did: "fought at sea", kinds: &[K::NavalAttack, K::CoastalAttack] },
    Part { did: "transported an army", kinds: &[K::Transport] },
    Part { did: "used a spy", kinds: &[K::SpyAction, K::SpyDuel] },
    Part { did: "captured", kinds: &[K::Capture] },
    Part { did: "built a castle", kinds: &[K::Castle] },
    Part { did: "founded a city", kinds: &[K::City] },
    Part { did: "built a port", kinds: &[K::Port] },
    Part { did: "built a tower", kinds: &[K::Tower] },
    Part { did: "built a bridge", kinds: &[K::Bridge] },
    Part { did: "recruited a unit", kinds: &[K::RecruitUnit] },
    Part { did: "recruited a ship", kinds: &[K::RecruitShip] },
    Part { did: "recruited a spy", kinds: &[K::RecruitSpy] },
    Part { did: "recruited a siege engine", kinds: &[K::RecruitEngine] },
];

/// "Almost never": fewer than one in this many player-campaigns. A part
/// taken this rarely moves no measured mean a designer could read.
pub const RARE_PER: u64 = 100;

/// A part the players (almost) never exercised, with how often they did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unused {
    pub part: Part,
    /// Times it was taken, over every player of every campaign.
    pub times: u64,
}

/// The parts `cov`'s players exercised fewer than once in `RARE_PER`
/// player-campaigns, in `PARTS` order.
pub fn unused(cov: &Coverage) -> Vec<Unused> {
    let players: u64 = cov.by_strategy.values().map(|m| m.players).sum();
    if players == 0 {
        return Vec::new();
    }
    PARTS
        .iter()
        .map(|p| Unused { part: *p, times: p.kinds.iter().map(|k| cov.total(*k)).sum() })
        .filter(|u| u.times * RARE_PER < players)
        .collect()
}

/// The line an answer prints: `its players (tuned, 2,000 campaigns) never
/// built a mine (0 times), pillaged (0) ...; the in-play part is silent
/// there`, or `None` when they exercised every part.
pub fn line(cov: &Coverage, campaigns: u64) -> Option<String> {
    let c = clause(&format!("in its {campaigns} campaigns"), cov, true)?;
    Some(format!("Never played: {c}; {SILENT}"))
}

/// The line of an answer read off two sets of campaigns (compare's A and
/// B, each `(label, coverage, campaigns)`, a label such as `A (default)`):
/// each side's parts named in turn, a side that exercised every part said
/// so, or `None` when every side exercised every part.
pub fn sides(sides: &[(&str, &Coverage, u64)]) -> Option<String> {
    let mut said = Vec::new();
    let mut any = false;
    for (label, cov, campaigns) in sides {
        let place = format!("in the {campaigns} campaigns of {label}");
        match clause(&place, cov, !any) {
            Some(c) => {
                said.push(c);
                any = true;
            }
            None => said.push(format!("{place} its players ({}) exercised every part", who(cov))),
        }
    }
    any.then(|| format!("Never played: {}; {SILENT}", said.join("; ")))
}

/// How a never-played line ends: the answer's in-play part says nothing
/// about the parts it names.
const SILENT: &str = "what it says in play is silent on those";

/// `in its 2000 campaigns its players (tuned) never or almost never ...
/// built a mine (0), ...` (`place`: `in its 2000 campaigns`), with the
/// threshold said when `first`; `None` when `cov`'s players exercised
/// every part.
fn clause(place: &str, cov: &Coverage, first: bool) -> Option<String> {
    let u = unused(cov);
    if u.is_empty() {
        return None;
    }
    let parts: Vec<String> = u.iter().map(|u| format!("{} ({})", u.part.did, u.times)).collect();
    let how =
        if first { format!(" (under once in {RARE_PER} player-campaigns; times in brackets)") } else { String::new() };
    Some(format!("{place} its players ({}) never or almost never{how} {}", who(cov), parts.join(", ")))
}

/// The strategies `cov` counts, by name.
fn who(cov: &Coverage) -> String {
    cov.by_strategy.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::record::Mechanics;

    fn cov(players: u64, taken: &[(ActionKind, u64)]) -> Coverage {
        let mut m = Mechanics::default();
        m.players = players;
        for (k, n) in taken {
            m.actions[k.index()] = *n;
        }
        let mut c = Coverage::default();
        c.by_strategy.insert("tuned".into(), m);
        c
    }

    /// A part taken fewer than once in 100 player-campaigns is unused; one
    /// taken once in 100 is not; conquests count both kinds.
    #[test]
    fn a_part_is_unused_below_once_in_a_hundred_player_campaigns() {
        let everything: Vec<(ActionKind, u64)> = ActionKind::ALL.iter().map(|k| (*k, 10)).collect();
        let mut taken = everything.clone();
        taken.retain(|(k, _)| !matches!(k, K::Mine | K::Pillage | K::Conquer | K::OutcomeConquer));
        taken.push((K::Mine, 0));
        taken.push((K::Pillage, 9));
        taken.push((K::OutcomeConquer, 10));
        let c = cov(1000, &taken);
        let u: Vec<(&str, u64)> = unused(&c).iter().map(|u| (u.part.did, u.times)).collect();
        assert_eq!(u, [("built a mine", 0), ("pillaged", 9)]);
        assert_eq!(
            line(&c, 250).unwrap(),
            "Never played: in its 250 campaigns its players (tuned) never or almost never (under once in 100 \
             player-campaigns; times in brackets) built a mine (0), pillaged (9); what it says in play is silent on \
             those"
        );
        assert_eq!(line(&cov(1000, &everything), 250), None);
        assert!(unused(&Coverage::default()).is_empty());
    }

    /// Two sides (compare's A and B): each side's parts in turn, the
    /// threshold said once, a side that played everything said so, and no
    /// line when both did.
    #[test]
    fn each_side_names_what_its_players_never_did() {
        let everything: Vec<(ActionKind, u64)> = ActionKind::ALL.iter().map(|k| (*k, 10)).collect();
        let mut no_mine = everything.clone();
        no_mine.retain(|(k, _)| *k != K::Mine);
        let (a, b, all) = (cov(1000, &no_mine), cov(1000, &[(K::Attack, 10)]), cov(1000, &everything));
        let two = sides(&[("A (a)", &a, 250), ("B (b)", &b, 250)]).unwrap();
        assert!(
            two.starts_with(
                "Never played: in the 250 campaigns of A (a) its players (tuned) never or almost never (under once in \
                 100 player-campaigns; times in brackets) built a mine (0); in the 250 campaigns of B (b) its players \
                 (tuned) never or almost never built a mine (0), pillaged (0), besieged a city (0), "
            ),
            "{two}"
        );
        assert!(two.ends_with(", recruited a siege engine (0); what it says in play is silent on those"), "{two}");
        assert_eq!(
            sides(&[("A (a)", &all, 250), ("B (b)", &a, 300)]).unwrap(),
            "Never played: in the 250 campaigns of A (a) its players (tuned) exercised every part; in the 300 \
             campaigns of B (b) its players (tuned) never or almost never (under once in 100 player-campaigns; times \
             in brackets) built a mine (0); what it says in play is silent on those"
        );
        assert_eq!(sides(&[("A", &all, 250), ("B", &all, 250)]), None);
    }
}
