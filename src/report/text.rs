//! The season-by-season log of `empires play`, for a designer to follow.

use super::Names;
use crate::rules::event::{CombatRecord, Event, ScoreParts, SpendKind};
use crate::rules::state::Piece;
use crate::rules::{CombatKind, Item};
use crate::scenario::BattleResult;
use std::fmt::Write;

fn parts(kind: CombatKind, p: &ScoreParts) -> String {
    let mut v: Vec<String> = Vec::new();
    let mut add = |name: &str, x: i32, always: bool| {
        if always || x != 0 {
            v.push(format!("{x} {name}"));
        }
    };
    match kind {
        CombatKind::Army => {
            add("units", p.units, true);
            add("xp", p.xp, true);
            add("bid", p.bid, true);
            add("order", p.order, true);
            add("defence", p.defence, p.defence != 0);
        }
        CombatKind::Siege => {
            add("units", p.units, p.units != 0);
            add("xp", p.xp, p.units != 0);
            add("bid", p.bid, p.units != 0);
            add("engines", p.engines, p.units != 0);
            add("order", p.order, false);
            add("defence", p.defence, p.units == 0);
            add("level", p.level, p.units == 0);
            add("stability", p.stability, p.units == 0);
        }
        CombatKind::Naval | CombatKind::Coastal => {
            add("strength", p.strength, p.strength != 0);
            add("defence", p.defence, p.defence != 0);
            add("port", p.port, false);
            add("bid", p.bid, true);
        }
        CombatKind::Spy => {
            add("base", p.strength, p.strength != 0);
            add("defence", p.defence, p.strength == 0);
            add("level", p.level, false);
        }
        CombatKind::SpyDuel => add("bid", p.bid, true),
    }
    v.push(format!("die {}", p.die));
    format!("{} = {}", v.join(" + "), p.total())
}

/// A battle result and the EP it gives `p`, after the E-02 team malus.
fn result_str(n: &Names, p: crate::rules::PlayerId, r: Option<BattleResult>) -> String {
    r.map_or(String::new(), |r| format!("{} ({} EP)", r.name(), crate::rules::empire::battle_ep(n.sc, p, r)))
}

fn combat(out: &mut String, n: &Names, c: &CombatRecord) {
    let (a, d) = (n.player(c.attacker), n.player(c.defender));
    let title = match c.kind {
        CombatKind::Army => {
            format!("ARMY BATTLE: {a} from {} attacks {d} at {}", n.hex(c.from), n.hex_terrain(c.target))
        }
        CombatKind::Siege => format!("SIEGE: {a} from {} assaults {d}'s city at {}", n.hex(c.from), n.hex(c.target)),
        CombatKind::Naval => {
            format!("NAVAL: {a}'s ships at {} attack {d}'s ships at {}", n.hex(c.from), n.hex(c.target))
        }
        CombatKind::Coastal => {
            format!("COASTAL: {a}'s ships at {} attack {d}'s building at {}", n.hex(c.from), n.hex(c.target))
        }
        CombatKind::Spy => format!(
            "SPY: {a}'s spy at {} tries to {} at {} ({d})",
            n.hex(c.from),
            c.spy_kind.map_or("act", |k| k.name()),
            n.hex(c.target)
        ),
        CombatKind::SpyDuel => {
            format!("SPY DUEL: {a}'s spy at {} attacks {d}'s spy at {}", n.hex(c.from), n.hex(c.target))
        }
    };
    let _ = writeln!(out, "  {title}");
    let dname = if c.kind == CombatKind::Siege { format!("{d} city") } else { d.to_string() };
    let _ = writeln!(out, "    {a}: {}", parts(c.kind, &c.a));
    let _ = writeln!(out, "    {dname}: {}", parts(c.kind, &c.d));
    let unit = match c.kind {
        CombatKind::Army => "unit(s)",
        CombatKind::Siege => "",
        CombatKind::Naval | CombatKind::Coastal => "PV",
        CombatKind::Spy | CombatKind::SpyDuel => "",
    };
    let effect = match c.kind {
        CombatKind::Army => format!("{a} -{} {unit}, {d} -{} {unit}", c.a_loss, c.d_loss),
        CombatKind::Siege => format!("city -{} PV, army -{} unit(s)", c.d_loss, c.a_loss),
        CombatKind::Naval | CombatKind::Coastal => format!("{a} -{} {unit}, {d} -{} {unit}", c.a_loss, c.d_loss),
        CombatKind::Spy => format!(
            "{}{}",
            if c.success { "success" } else { "failure" },
            if c.a_destroyed { ", spy destroyed" } else { ", spy survives" }
        ),
        CombatKind::SpyDuel => match c.gap {
            0 => "no effect".into(),
            g if g > 0 => format!("{d}'s spy {}", if c.d_destroyed { "destroyed" } else { "beaten" }),
            _ => format!("{a}'s spy {}", if c.a_destroyed { "destroyed" } else { "beaten" }),
        },
    };
    let mut line = format!("    gap {:+} -> table row {}: {effect}", c.gap, c.row + 1);
    if c.a_destroyed && matches!(c.kind, CombatKind::Army | CombatKind::Siege) {
        line.push_str(&format!("; {a}'s army destroyed"));
    }
    if c.d_destroyed && c.kind == CombatKind::Army {
        line.push_str(&format!("; {d}'s army destroyed"));
    }
    if c.d_destroyed && c.kind == CombatKind::Siege {
        line.push_str("; the city falls");
    }
    let _ = writeln!(out, "{line}");
    if c.a_result.is_some() || c.d_result.is_some() {
        let mut r = format!("    result: {a} {}", result_str(n, c.attacker, c.a_result));
        if c.d_result.is_some() {
            r.push_str(&format!(", {d} {}", result_str(n, c.defender, c.d_result)));
        }
        let _ = writeln!(out, "{r}");
    }
}

fn piece(p: &Piece) -> String {
    match p {
        Piece::Army(i) => format!("army #{i}"),
        Piece::Ship(i) => format!("ship #{i}"),
        Piece::Spy(i) => format!("spy #{i}"),
    }
}

/// Render the whole log.
pub fn render(n: &Names, events: &[Event]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < events.len() {
        let e = &events[i];
        match e {
            Event::SeasonStart { season } => {
                let _ = writeln!(out, "\n=== Season {season} ===");
            }
            Event::TieBreak { .. } => {
                // Group a roll-off into one line.
                let mut v = Vec::new();
                while let Some(Event::TieBreak { player, die }) = events.get(i) {
                    v.push(format!("{} {die}", n.player(*player)));
                    i += 1;
                }
                let _ = writeln!(out, "  tie-break dice: {}", v.join(", "));
                continue;
            }
            Event::Order { .. } => {
                // Group the order into one line.
                let mut v = Vec::new();
                while let Some(Event::Order { player, size, .. }) = events.get(i) {
                    v.push(format!("{} ({size})", n.player(*player)));
                    i += 1;
                }
                let _ = writeln!(out, "  order, smallest empire first: {}", v.join(", "));
                continue;
            }
            Event::Payday { player, hex, faces, gold, sabotaged } => {
                if *sabotaged {
                    let _ = writeln!(
                        out,
                        "  payday: {}'s mine at {} was sabotaged and pays nothing",
                        n.player(*player),
                        n.hex_terrain(*hex)
                    );
                } else {
                    let _ = writeln!(
                        out,
                        "  payday: {}'s mine at {} rolls {faces} -> +{gold} gold",
                        n.player(*player),
                        n.hex_terrain(*hex)
                    );
                }
            }
            Event::Recruit { player, hex, item, cost, .. } => {
                let art = if matches!(item, Item::Unit) { "an" } else { "a" };
                let _ = writeln!(
                    out,
                    "  recruit: {} buys {art} {} at {} for {cost} gold",
                    n.player(*player),
                    item.name(),
                    n.hex(*hex)
                );
            }
            Event::Move { player, piece: p, from, to } => {
                let _ = writeln!(
                    out,
                    "  move: {} {} {} -> {}",
                    n.player(*player),
                    piece(p),
                    n.hex(*from),
                    n.hex_terrain(*to)
                );
            }
            Event::Transport { player, ship, army, landed, units, from, to, .. } => {
                let detached = if landed == army { String::new() } else { format!(" (landing as army #{landed})") };
                let _ = writeln!(
                    out,
                    "  transport: {}'s ship #{ship} carries {units} unit(s) of army #{army} from {} to {}{detached}",
                    n.player(*player),
                    n.hex(*from),
                    n.hex_terrain(*to)
                );
            }
            Event::Combat(c) => combat(&mut out, n, c),
            Event::Loot { player, gold } => {
                let _ = writeln!(out, "    loot: {} +{gold} gold", n.player(*player));
            }
            Event::Xp { army, xp } => {
                let _ = writeln!(out, "    army #{army} reaches experience {xp}");
            }
            Event::Formation { army, formation } => {
                let _ = writeln!(out, "    army #{army} takes the {formation:?} formation");
            }
            Event::Hit { player, ship, pv } => {
                let _ = writeln!(
                    out,
                    "    {}'s ship #{ship} takes a hit: {}",
                    n.player(*player),
                    if *pv <= 0 { "sunk".to_string() } else { format!("{pv} PV left") }
                );
            }
            Event::ShipRepaired { ship, pv } => {
                let _ = writeln!(out, "  ship #{ship} repairs in port: {pv} PV");
            }
            Event::City { hex, controller, stability, pv, level, .. } => {
                let _ = writeln!(
                    out,
                    "    city at {}: {}, PV {pv}, level {level}, stability {stability:+}",
                    n.hex(*hex),
                    n.player(*controller)
                );
            }
            Event::BuildingPv { hex, kind, pv } => {
                let _ = writeln!(out, "    the {} at {} has {pv} PV", kind.name(), n.hex(*hex));
            }
            Event::CityTaken { player, hex, outcome, gold, .. } => {
                let g = if *gold > 0 { format!(" (+{gold} gold)") } else { String::new() };
                let _ = writeln!(out, "    city at {} taken by {}: {outcome:?}{g}", n.hex(*hex), n.player(*player));
            }
            Event::BuildingDestroyed { hex, kind } => {
                let _ = writeln!(out, "    the {} at {} is destroyed", kind.name(), n.hex(*hex));
            }
            Event::Ep { player, battles, sum, earned } => {
                let who = n.player(*player);
                if *battles == 0 {
                    let _ = writeln!(out, "  EP: {who} fought no battle: {earned} EP");
                } else {
                    let _ = writeln!(
                        out,
                        "  EP: {who} fought {battles} battle(s), {sum} EP in all, average rounded down: {earned} EP"
                    );
                }
            }
            Event::Spend { player, kind, hex, cost, ep_left, gold } => {
                let what = match kind {
                    SpendKind::Capture => format!("capture {}", n.hex_terrain(*hex)),
                    SpendKind::Conquer => format!("conquer {}", n.hex_terrain(*hex)),
                    SpendKind::Build(b) => format!("build a {} at {}", b.name(), n.hex_terrain(*hex)),
                    SpendKind::Pillage => format!("pillage: +{gold} gold"),
                };
                let _ = writeln!(out, "  spend: {} pays {cost} EP to {what} ({ep_left} EP left)", n.player(*player));
            }
            Event::EpLost { player, ep } => {
                let _ = writeln!(out, "  {} loses {ep} unspent EP", n.player(*player));
            }
            Event::Eliminated { player } => {
                let _ = writeln!(out, "  {} has lost all its hexes and is eliminated", n.player(*player));
            }
            Event::End { season, reason } => {
                let why = match reason {
                    crate::rules::EndReason::SeasonLimit => "the season limit was reached",
                    crate::rules::EndReason::Domination => "a player holds the winning share of the land",
                    crate::rules::EndReason::LastStanding => "every rival has lost all its hexes",
                    crate::rules::EndReason::AllEliminated => "every player has lost all its hexes",
                    crate::rules::EndReason::Stalled => {
                        "the season limit was reached, but nothing had changed hands for many seasons (stalled)"
                    }
                };
                let _ = writeln!(out, "\n=== The campaign ends after season {season}: {why} ===");
                let _ = writeln!(out, "Standings by empire size (hexes + castles, a city counts as a castle):");
            }
            Event::Standing { rank, player, size, hexes, cities, castles, tie } => {
                let t = if *tie { "  (tied; broken by die)" } else { "" };
                let _ = writeln!(
                    out,
                    "  {rank}. {:<12} size {size:>3}  hexes {hexes:>3}  cities {cities}  castles {castles}{t}",
                    n.player(*player)
                );
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Map, Terrain};
    use crate::rules::CombatRecord;
    use crate::scenario::Scenario;

    /// E-02: the text log gives a team member's battle EP after the malus,
    /// as the engine counts them (minor victory 3 - 1 = 2), and a lone
    /// player's in full.
    #[test]
    fn e02_the_text_log_prints_team_ep_after_the_malus() {
        let mut sc = Scenario::default();
        sc.players[0].team = Some(1);
        sc.players[2].team = Some(1);
        let map = Map::from_hexes(vec![((0, 0), Terrain::Plains), ((1, 0), Terrain::Plains)], Default::default());
        let n = Names::new(&sc, &map);
        let c = CombatRecord {
            kind: CombatKind::Army,
            attacker: 0,
            defender: 1,
            from: 0,
            target: 1,
            a_piece: 0,
            d_piece: 1,
            a: ScoreParts::default(),
            d: ScoreParts::default(),
            gap: 2,
            row: 1,
            a_loss: 1,
            d_loss: 1,
            a_destroyed: false,
            d_destroyed: false,
            a_result: Some(BattleResult::Minor),
            d_result: Some(BattleResult::Defeat),
            spy_kind: None,
            success: true,
        };
        let mut out = String::new();
        combat(&mut out, &n, &c);
        assert!(out.contains("P1 minor victory (2 EP)"), "{out}");
        assert!(out.contains("P2 defeat (1 EP)"), "{out}");
    }
}
