//! JSON lines for `empires play --json`: one object per event, with player
//! names and hex coordinates resolved, so the stream reads on its own.

use super::Names;
use crate::rules::event::{CombatRecord, Event, ScoreParts, SpendKind};
use crate::rules::state::Piece;
use serde_json::{Value, json};

fn parts(p: &ScoreParts) -> Value {
    json!({
        "units": p.units, "xp": p.xp, "bid": p.bid, "order": p.order, "defence": p.defence,
        "engines": p.engines, "level": p.level, "stability": p.stability, "strength": p.strength,
        "port": p.port, "die": p.die, "total": p.total(),
    })
}

fn combat(n: &Names, c: &CombatRecord) -> Value {
    json!({
        "event": "combat",
        "kind": c.kind.name(),
        "attacker": n.player(c.attacker),
        "defender": n.player(c.defender),
        "from": n.hex(c.from),
        "target": n.hex(c.target),
        "attacker_score": parts(&c.a),
        "defender_score": parts(&c.d),
        "gap": c.gap,
        "row": c.row + 1,
        "attacker_loss": c.a_loss,
        "defender_loss": c.d_loss,
        "attacker_destroyed": c.a_destroyed,
        "defender_destroyed": c.d_destroyed,
        "attacker_result": c.a_result.map(|r| format!("{r:?}").to_lowercase()),
        "defender_result": c.d_result.map(|r| format!("{r:?}").to_lowercase()),
        "spy_action": c.spy_kind.map(|k| k.name()),
        "success": c.success,
    })
}

pub fn event(n: &Names, e: &Event) -> Value {
    match e {
        Event::SeasonStart { season } => json!({"event": "season", "season": season}),
        Event::Order { pos, player, size } => {
            json!({"event": "order", "position": pos + 1, "player": n.player(*player), "size": size})
        }
        Event::Payday { player, hex, faces, gold, sabotaged } => json!({
            "event": "payday", "player": n.player(*player), "hex": n.hex(*hex),
            "terrain": n.map.terrain[*hex as usize].name(), "faces": faces, "gold": gold, "sabotaged": sabotaged,
        }),
        Event::Recruit { player, hex, item, cost } => {
            json!({"event": "recruit", "player": n.player(*player), "hex": n.hex(*hex), "item": item.name(), "cost": cost})
        }
        Event::Move { player, piece, from, to } => {
            let (kind, id) = match piece {
                Piece::Army(i) => ("army", i),
                Piece::Ship(i) => ("ship", i),
                Piece::Spy(i) => ("spy", i),
            };
            json!({"event": "move", "player": n.player(*player), "piece": kind, "id": id, "from": n.hex(*from), "to": n.hex(*to)})
        }
        Event::Transport { player, ship, army, from, to } => json!({
            "event": "transport", "player": n.player(*player), "ship": ship, "army": army, "from": n.hex(*from), "to": n.hex(*to),
        }),
        Event::Combat(c) => combat(n, c),
        Event::Loot { player, gold } => json!({"event": "loot", "player": n.player(*player), "gold": gold}),
        Event::Xp { army, xp } => json!({"event": "experience", "army": army, "xp": xp}),
        Event::Formation { army, formation } => {
            json!({"event": "formation", "army": army, "formation": format!("{formation:?}").to_lowercase()})
        }
        Event::Hit { player, ship, pv } => {
            json!({"event": "ship_hit", "player": n.player(*player), "ship": ship, "pv": pv})
        }
        Event::CityTaken { player, hex, outcome, gold, .. } => json!({
            "event": "city_taken", "player": n.player(*player), "hex": n.hex(*hex),
            "outcome": format!("{outcome:?}").to_lowercase(), "gold": gold,
        }),
        Event::BuildingDestroyed { hex, kind } => {
            json!({"event": "building_destroyed", "hex": n.hex(*hex), "building": kind.name()})
        }
        Event::Ep { player, battles, sum, earned } => {
            json!({"event": "ep", "player": n.player(*player), "battles": battles, "sum": sum, "earned": earned})
        }
        Event::Spend { player, kind, hex, cost, ep_left, gold } => {
            let what = match kind {
                SpendKind::Capture => "capture".to_string(),
                SpendKind::Conquer => "conquer".to_string(),
                SpendKind::Build(b) => format!("build_{}", b.name()),
                SpendKind::Pillage => "pillage".to_string(),
            };
            json!({"event": "spend", "player": n.player(*player), "what": what, "hex": n.hex(*hex), "cost": cost, "ep_left": ep_left, "gold": gold})
        }
        Event::EpLost { player, ep } => json!({"event": "ep_lost", "player": n.player(*player), "ep": ep}),
        Event::Eliminated { player } => json!({"event": "eliminated", "player": n.player(*player)}),
        Event::End { season, reason } => json!({"event": "end", "season": season, "reason": reason.name()}),
        Event::Standing { rank, player, size, hexes, cities, castles, tie } => json!({
            "event": "standing", "rank": rank, "player": n.player(*player), "size": size,
            "hexes": hexes, "cities": cities, "castles": castles, "tie": tie,
        }),
    }
}

pub fn render(n: &Names, events: &[Event]) -> String {
    let mut s = String::new();
    for e in events {
        s.push_str(&event(n, e).to_string());
        s.push('\n');
    }
    s
}
