//! Invariants that hold at every decision and after every season. The
//! property tests check them over many random campaigns of every shipped
//! scenario.

use super::state::{PlayerId, Slot, State};
use super::{Decision, Rules};
use crate::map::{HexId, Terrain};
use crate::scenario::BuildingKind;

/// The first broken invariant at the end of a season, in words: those of
/// `at_decision`, and no EP kept after construction (E-05).
pub fn check(r: Rules<'_>, st: &State) -> Result<(), String> {
    if let Some((i, p)) = st.players.iter().enumerate().find(|(_, p)| p.ep != 0) {
        return Err(format!("player {i} kept {} EP after construction (E-05)", p.ep));
    }
    common(r, st, None)
}

/// The first broken invariant in the state of decision `d` (every decision,
/// mid-season and mid-combat included), in words. EP are only spent at
/// construction, so they are not checked here; and a city whose fall is
/// being decided (`Decision::SiegeOutcome`, W-11) stands at 0 PV or below
/// until its attacker picks the outcome.
pub fn at_decision(r: Rules<'_>, st: &State, d: Decision) -> Result<(), String> {
    let falling = match d {
        Decision::SiegeOutcome { city } => Some(city as usize),
        _ => None,
    };
    common(r, st, falling)
}

fn common(r: Rules<'_>, st: &State, falling: Option<usize>) -> Result<(), String> {
    let sc = r.sc;
    for (i, p) in st.players.iter().enumerate() {
        if p.gold < 0 {
            return Err(format!("player {i} has negative gold {}", p.gold));
        }
        if p.initiative < 0 {
            return Err(format!("player {i} has negative initiative"));
        }
    }
    for (i, a) in st.armies.iter().enumerate() {
        if !a.alive {
            continue;
        }
        if a.units <= 0 {
            return Err(format!("army {i} is alive with {} units", a.units));
        }
        if a.engines < 0 || a.engines > sc.siege.engine_cap.max(0) {
            return Err(format!("army {i} carries {} engines", a.engines));
        }
        if a.xp < 0 || a.xp > sc.army.xp_max {
            return Err(format!("army {i} has experience {}", a.xp));
        }
        if !r.map.terrain[a.hex as usize].is_land() {
            return Err(format!("army {i} stands at sea"));
        }
        if st.hexes[a.hex as usize].army != Slot::of(i) {
            return Err(format!("army {i} is not recorded on its hex"));
        }
        if st.players[a.owner as usize].eliminated {
            return Err(format!("army {i} belongs to an eliminated player"));
        }
    }
    for (h, hs) in st.hexes.iter().enumerate() {
        let t = r.map.terrain[h];
        if let Some(i) = hs.army.get() {
            // Looked up with `get`: a broken state must be reported, not panic.
            if !st.armies.get(i).is_some_and(|a| a.alive && a.hex as usize == h) {
                return Err(format!("hex {h} points at army {i} which is not there"));
            }
        }
        if let Some(o) = hs.owner().get()
            && (o as usize >= st.players.len() || t == Terrain::Sea)
        {
            return Err(format!("hex {h} has an impossible owner {o}"));
        }
        for (b, pv) in [(hs.main, hs.main_pv), (hs.extra, hs.extra_pv)] {
            let Some(b) = b else { continue };
            let spec = sc.building(b);
            if !spec.terrain.contains(t) {
                return Err(format!("a {} stands on {} at hex {h}", b.name(), t.name()));
            }
            if spec.coastal_only && !r.map.coastal[h] {
                return Err(format!("a {} stands inland at hex {h}", b.name()));
            }
            if b != BuildingKind::City && (pv <= 0 || pv > spec.pv) {
                return Err(format!("the {} at hex {h} has {pv} PV", b.name()));
            }
            if b.is_main() != (Some(b) == hs.main) {
                return Err(format!("a {} is in the wrong slot at hex {h}", b.name()));
            }
        }
        if (hs.main == Some(BuildingKind::City)) != !hs.city.is_empty() {
            return Err(format!("hex {h}: city building and city record disagree"));
        }
    }
    // The per-player hex sets say exactly what the banners say.
    for p in 0..st.players.len() as PlayerId {
        let scan = st.hexes.iter().enumerate().filter(|(_, hs)| hs.owner().is(p)).map(|(h, _)| h as HexId);
        if !scan.eq(st.banners().hexes(p)) {
            return Err(format!("player {p}'s hex set disagrees with the banners on the map"));
        }
    }
    for (i, c) in st.cities.iter().enumerate() {
        if st.hexes[c.hex as usize].city != Slot::of(i) {
            continue; // a city record no hex points at (never happens today)
        }
        if (c.pv < 1 && falling != Some(i)) || c.pv > sc.cities.max_pv(c.level) {
            return Err(format!("city {i} has {} PV", c.pv));
        }
        if c.stability < sc.cities.stability_min || c.stability > sc.cities.stability_max {
            return Err(format!("city {i} has stability {}", c.stability));
        }
        let owner = st.hexes[c.hex as usize].owner();
        if !owner.is_nobody() && owner != c.controller {
            return Err(format!("city {i}: banner {} but controller {}", owner.id(), c.controller.id()));
        }
    }
    for (i, s) in st.ships.iter().enumerate() {
        if s.alive && (s.pv <= 0 || s.pv > sc.naval.ship_pv || r.map.terrain[s.hex as usize] != Terrain::Sea) {
            return Err(format!("ship {i} is alive with {} PV on {}", s.pv, r.map.terrain[s.hex as usize].name()));
        }
    }
    for (h, _) in st.hexes.iter().enumerate() {
        let mut owners = st.ships.iter().filter(|s| s.alive && s.hex as usize == h).map(|s| s.owner);
        if let Some(first) = owners.next()
            && owners.any(|o| o != first)
        {
            return Err(format!("ships of two players share sea hex {h}"));
        }
    }
    for (i, s) in st.spies.iter().enumerate() {
        if s.alive && !r.map.terrain[s.hex as usize].is_land() {
            return Err(format!("spy {i} stands at sea"));
        }
    }
    Ok(())
}
