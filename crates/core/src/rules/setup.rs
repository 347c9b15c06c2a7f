//! The map and the starting position of a campaign (G-23, G-24).

use super::Rules;
use super::state::{Army, City, HexState, NOBODY, Owner, PlayerId, PlayerState, Ship, Slot, Spy, State};
use crate::map::{HexId, Map, Terrain, drawn, generate};
use crate::scenario::{BuildingKind, CityStats, Scenario};

pub use crate::error::SetupError;

/// Whether every campaign of this scenario plays on the same map.
pub fn map_is_fixed(sc: &Scenario) -> bool {
    sc.map.rows.is_some() || sc.map.generator().seed.is_some()
}

/// The campaign's map: the drawn one, or one generated from the scenario's
/// fixed map seed or else from the campaign seed.
pub fn make_map(sc: &Scenario, campaign_seed: u64) -> Result<Map, SetupError> {
    let (map, seats, capital_distance, city_terrain) = map_inputs(sc);
    if let Some(rows) = &map.rows {
        return drawn::parse(rows).map(|(m, _)| m).map_err(|e| {
            SetupError::Invalid(format!("map.rows: {}", e.first().map_or("invalid", |e| e.message.as_str())))
        });
    }
    let g = map.generator();
    let seed = g.seed.unwrap_or_else(|| crate::seed::stream_seed(campaign_seed, crate::seed::Stream::Map));
    generate::generate(&g, seats, capital_distance, city_terrain, seed).map_err(|e| SetupError::Invalid(e.0))
}

/// Everything of the scenario `make_map` reads, and nothing else: two
/// scenarios with equal inputs make the same map from every campaign
/// seed, so a caller that plays many scenarios on the same seeds (a
/// tuning's candidates) may make each map once. `make_map` reads the
/// scenario only through this, so the two cannot drift apart.
pub fn map_inputs(sc: &Scenario) -> (&crate::scenario::MapSpec, usize, u32, crate::map::TerrainSet) {
    (&sc.map, sc.players.len(), sc.start.min_capital_distance, sc.buildings.city.terrain)
}

fn new_city(sc: &Scenario, hex: HexId, stats: &CityStats, controller: u8) -> City {
    City {
        hex,
        controller: Owner::of(controller),
        influence: if controller == NOBODY { 0 } else { sc.cities.owned_influence },
        defence: stats.defence,
        level: stats.level,
        stability: stats.stability,
        pv: sc.cities.max_pv(stats.level),
        besieged: false,
        hostile: false,
    }
}

/// Put a city on a hex (G-16): it stands in the main slot, replacing a castle.
pub fn place_city(st: &mut State, sc: &Scenario, hex: HexId, stats: &CityStats, controller: u8) -> u16 {
    let id = st.cities.len() as u16;
    st.cities.push(new_city(sc, hex, stats, controller));
    let h = &mut st.hexes[hex as usize];
    h.main = Some(BuildingKind::City);
    h.main_pv = 0;
    h.city = Slot::of(id as usize);
    id
}

/// The position before season 1 (G-24).
pub fn initial_state(r: Rules<'_>) -> State {
    let (sc, map) = (r.sc, r.map);
    let mut st = State {
        season: 1,
        hexes: vec![HexState::default(); map.len()],
        cities: Vec::new(),
        armies: Vec::new(),
        ships: Vec::new(),
        spies: Vec::new(),
        players: (0..sc.players.len()).map(|_| PlayerState::new(sc.start.gold as i64)).collect(),
        order: (0..sc.players.len() as u8).collect(),
        ended: None,
        quiet_seasons: 0,
        map_print: 0,
        step: super::state::Step::SeasonStart,
        turn: 0,
        fight: super::state::Fight {
            rec: super::event::CombatRecord::new(super::action::CombatKind::Army, NOBODY, NOBODY, 0, 0),
            bid_cap: 0,
            defender_bids: false,
            building: None,
            main: false,
        },
        fleet: Vec::new(),
        banners: super::state::Banners::new(sc.players.len(), map.len()),
    };
    for &(h, kind) in &map.placements.buildings {
        let spec = sc.building(kind);
        let hs = &mut st.hexes[h as usize];
        if kind.is_main() {
            hs.main = Some(kind);
            hs.main_pv = spec.pv;
        } else {
            hs.extra = Some(kind);
            hs.extra_pv = spec.pv;
        }
    }
    for &h in &map.placements.neutral_cities {
        place_city(&mut st, sc, h, &sc.cities.neutral, NOBODY);
    }
    for (p, &cap) in map.placements.capitals.iter().enumerate() {
        let p = p as u8;
        st.set_owner(cap, Owner::of(p));
        place_city(&mut st, sc, cap, &sc.cities.capital, p);
        if sc.start.coastal_capital_port && map.coastal[cap as usize] && st.hexes[cap as usize].extra.is_none() {
            st.hexes[cap as usize].extra = Some(BuildingKind::Port);
            st.hexes[cap as usize].extra_pv = sc.buildings.port.pv;
        }
        if sc.start.army_units > 0 {
            st.hexes[cap as usize].army = Slot::of(st.armies.len());
            st.armies.push(Army::new(
                p,
                cap,
                sc.start.army_units,
                sc.start.engines.min(sc.siege.engine_cap),
                sc.movement.army,
            ));
        }
        for _ in 0..sc.start.spies {
            st.spies.push(Spy { owner: p, hex: cap, mp: sc.movement.spy, moved: false, acted: false, alive: true });
        }
        if sc.start.ships > 0
            && let Some(sea) = map.adjacent(cap).find(|&n| map.terrain[n as usize] == Terrain::Sea)
        {
            for _ in 0..sc.start.ships {
                st.ships.push(Ship::new(sc, p, sea));
            }
        }
    }
    debug_assert!(st.hexes.iter().all(|h| h.army.get().is_none_or(|a| a < st.armies.len())));
    st
}

/// Something one player is handed at the start, on top of what the
/// scenario gives every seat. The competence check (`strength::probe` in
/// the sim crate) hands one to a player and not to its copies: a player
/// can always leave a gift unused, so a gift that costs it wins shows a
/// player that cannot use it, not a fact about the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Gift {
    Gold(i32),
    /// Units in the player's first army.
    Units(i32),
    Spies(i32),
    Ships(i32),
    /// EP on top of the first season's earnings (spent or lost, E-05).
    Ep(i32),
    /// Hexes a mine may stand on (`buildings.mine.terrain`), unheld, next
    /// to the capital: the player's banner planted on them.
    MineableHexes(i32),
}

impl Gift {
    /// `500 gold`, `1 unit`, `2 ships`, `1 EP`.
    pub fn label(self) -> String {
        let (n, one, many) = match self {
            Gift::Gold(n) => (n, "gold", "gold"),
            Gift::Units(n) => (n, "unit", "units"),
            Gift::Spies(n) => (n, "spy", "spies"),
            Gift::Ships(n) => (n, "ship", "ships"),
            Gift::Ep(n) => (n, "EP", "EP"),
            Gift::MineableHexes(n) => (n, "mine-able hex", "mine-able hexes"),
        };
        format!("{n} {}", if n.abs() == 1 { one } else { many })
    }
}

/// Hand `gift` to player `p` in the position before season 1: gold and EP
/// to its purse, units to its first army (a new army on its capital when
/// it has none), spies to its capital, ships to a sea hex next to its
/// capital, mine-able hexes next to its capital. A negative gold, EP or
/// unit gift takes that much away (what a resource is worth is asked both
/// ways). Returns false, changing nothing, where the gift has no place: a
/// ship or a hex with no free place next to the capital, units with no
/// army and the capital hex taken, more gold or units taken than the
/// player has (an army keeps one unit), a negative gift of anything else.
pub fn give(r: Rules<'_>, st: &mut State, p: PlayerId, gift: Gift) -> bool {
    let (sc, map) = (r.sc, r.map);
    let Some(&cap) = map.placements.capitals.get(p as usize) else { return false };
    match gift {
        Gift::Gold(n) if st.players[p as usize].gold + (n as i64) < 0 => return false,
        Gift::Gold(n) => st.players[p as usize].gold += n as i64,
        // A negative EP gift is taken from the first season's earnings,
        // never below 0 (`Engine::earn`).
        Gift::Ep(n) => st.players[p as usize].ep_gift += n,
        Gift::Units(n) if n < 0 => match st.armies.iter_mut().find(|a| a.alive && a.owner == p) {
            Some(a) if a.units + n >= 1 => a.units += n,
            _ => return false,
        },
        Gift::Spies(n) | Gift::Ships(n) | Gift::MineableHexes(n) if n < 0 => return false,
        Gift::MineableHexes(n) => {
            // The nearest first: next to the capital, in map order.
            let free: Vec<HexId> = map
                .adjacent(cap)
                .filter(|&h| {
                    sc.buildings.mine.terrain.contains(map.terrain[h as usize])
                        && st.hexes[h as usize].owner().is_nobody()
                        && st.city_at(h).is_none()
                })
                .take(n as usize)
                .collect();
            if free.len() < n as usize {
                return false;
            }
            for h in free {
                st.set_owner(h, Owner::of(p));
            }
        }
        Gift::Units(n) => match st.armies.iter_mut().find(|a| a.alive && a.owner == p) {
            Some(a) => a.units += n,
            None if st.hexes[cap as usize].army.is_empty() => {
                st.hexes[cap as usize].army = Slot::of(st.armies.len());
                st.armies.push(Army::new(p, cap, n, 0, sc.movement.army));
            }
            None => return false,
        },
        Gift::Spies(n) => {
            for _ in 0..n {
                st.spies.push(Spy { owner: p, hex: cap, mp: sc.movement.spy, moved: false, acted: false, alive: true });
            }
        }
        Gift::Ships(n) => {
            let free = |h: HexId| map.terrain[h as usize] == Terrain::Sea && [NOBODY, p].contains(&st.ship_owner_at(h));
            let Some(sea) = map.adjacent(cap).find(|&h| free(h)) else { return false };
            for _ in 0..n {
                st.ships.push(Ship::new(sc, p, sea));
            }
        }
    }
    true
}
