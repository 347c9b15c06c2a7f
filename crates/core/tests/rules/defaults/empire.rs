//! G defaults of the empire: recruits and loot (G-13, G-14), buildings
//! and cities (G-15 to G-19, G-21, G-22), the map (G-23) and moves (G-27,
//! with W-17's transports).

use super::*;
use empires_core::map::Terrain;
use empires_core::rules::empire::{Size, sizes};
use empires_core::rules::state::NOBODY;
use empires_core::rules::{Action, CombatKind, Decision, Event, Item, SpyKind, State};
use empires_core::scenario::{
    BattleResult, BuildingKind, CityStats, FormationChoice, GenerateSpec, Scenario, SiegeChoice,
};

#[test]
fn g13_recruit_costs_are_scenario_data() {
    let w = world(PLAINS, |sc| sc.recruit.unit = 40);
    let mut st = w.start();
    let mut e = w.engine(&[], Script::default());
    e.engine.recruit(&mut st, 0, w.hex(1, 1), empires_core::rules::Item::Unit);
    assert_eq!(st.players[0].gold, 60);
}

#[test]
fn g14_loot_is_scenario_data() {
    let w = world(PLAINS, |sc| sc.army.victory_loot = 0);
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[6, 1], Script::default());
    e.army_combat(&mut st, a, d);
    assert_eq!(st.players[0].gold, 100);
}

#[test]
fn g17_g18_cities_recover_in_peace() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let c = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
    st.cities[c].pv = 1;
    st.cities[c].stability = -2;
    let mut e = w.engine(&[], Script::default());
    e.engine.end_of_season(&mut st);
    assert_eq!((st.cities[c].pv, st.cities[c].stability), (2, -1));
    // A besieged city does not recover.
    st.cities[c].besieged = true;
    e.engine.end_of_season(&mut st);
    assert_eq!((st.cities[c].pv, st.cities[c].stability), (2, -1));
}

#[test]
fn g15_port_on_coast_tower_on_any_land_bridge_on_river() {
    let w = world(SITES, |_| {});
    let mut st = w.bare();
    let (coast, inland, river, marsh) = (w.hex(2, 1), w.hex(2, 2), w.hex(3, 2), w.hex(4, 2));
    assert!(w.map.coastal[coast as usize]);
    for h in [inland, river, marsh] {
        assert!(!w.map.coastal[h as usize]);
    }
    for h in [coast, inland, river, marsh] {
        st.set_owner(h, empires_core::rules::Owner::of(0));
    }
    st.players[0].ep = 1;
    let opts = spend_options(&w, &st, 0);
    let built = |h: u16, k: BuildingKind| opts.contains(&Action::Build { hex: h, kind: k });
    use BuildingKind::{Bridge, Port, Tower};
    // (hex, port, tower, bridge)
    for (h, port, tower, bridge) in [
        (coast, true, true, false),
        (inland, false, true, false),
        (river, false, true, true),
        (marsh, false, true, false),
    ] {
        assert_eq!((built(h, Port), built(h, Tower), built(h, Bridge)), (port, tower, bridge), "hex {h}");
    }
    // Each costs 1 EP (scenario data): at cost 2 one EP buys none.
    let w2 = world(SITES, |sc| {
        sc.buildings.port.cost = 2;
        sc.buildings.tower.cost = 2;
        sc.buildings.bridge.cost = 2;
    });
    let opts2 = spend_options(&w2, &st, 0);
    assert!(!opts2.iter().any(|a| matches!(a, Action::Build { kind: Port | Tower | Bridge, .. })));
    let mut e = w.engine(&[], Script::default());
    e.engine.spend(&mut st, 0, Action::Build { hex: coast, kind: Port });
    assert_eq!(
        (st.hexes[coast as usize].extra, st.hexes[coast as usize].extra_pv, st.players[0].ep),
        (Some(Port), 2, 0)
    );
}

#[test]
fn g15_port_tower_bridge_defence_and_pv_are_scenario_data() {
    // A port of defence 4 and 5 PV on P1's coastal capital, attacked from the sea:
    // 1 ship + 6 = 7 against 4 + 1 = 5, gap 2: the port loses 3 PV.
    let w = world(STRAIT, |sc| {
        sc.buildings.port.defence = 4;
        sc.buildings.port.pv = 5;
    });
    let mut st = w.bare();
    let port = w.hex(5, 2);
    assert_eq!((st.hexes[port as usize].extra, st.hexes[port as usize].extra_pv), (Some(BuildingKind::Port), 5));
    let s = ship(&mut st, 0, w.hex(4, 2), 3);
    let mut e = w.engine(&[6, 1], Script::default());
    let c = e.coastal_attack(&mut st, 0, w.hex(4, 2), port);
    assert_eq!((c.d.defence, c.gap, c.d_loss, c.d_destroyed), (4, 2, 3, false));
    assert_eq!((st.hexes[port as usize].extra_pv, st.ships[s].pv), (2, 2));
    // A tower of defence 3 and 4 PV: its garrison adds 3 (W-05).
    let w = world(SITES, |sc| {
        sc.buildings.tower.defence = 3;
        sc.buildings.tower.pv = 4;
        sc.buildings.bridge.defence = 5;
    });
    let mut st = w.bare();
    let (t, river) = (w.hex(2, 2), w.hex(3, 2));
    st.set_owner(t, empires_core::rules::Owner::of(0));
    st.set_owner(river, empires_core::rules::Owner::of(0));
    st.players[0].ep = 2;
    let mut e = w.engine(&[3, 3], Script::default());
    e.engine.spend(&mut st, 0, Action::Build { hex: t, kind: BuildingKind::Tower });
    e.engine.spend(&mut st, 0, Action::Build { hex: river, kind: BuildingKind::Bridge });
    assert_eq!(st.hexes[t as usize].extra_pv, 4);
    assert_eq!(st.hexes[river as usize].extra_pv, 2, "bridge PV default");
    let g = army(&mut st, 0, t, 3);
    let a = army(&mut st, 1, w.hex(2, 1), 3);
    let c = e.army_combat(&mut st, a, g);
    assert_eq!((c.d.defence, c.gap), (3, -3));
    // The bridge's defence against a spy is its own (5).
    assert_eq!(e.engine.spy_defence(&st, river, SpyKind::DamageExtra), (5, 0));
}

#[test]
fn g16_neutral_cities_take_cities_neutral() {
    for (stats, pv) in [(None, 3), (Some(CityStats { defence: 1, level: 2, stability: -1 }), 5)] {
        let w = world(NEUTRAL, |sc| {
            if let Some(s) = &stats {
                sc.cities.neutral = s.clone();
            }
        });
        let st = w.start();
        let h = w.hex(3, 2);
        let c = st.cities[st.hexes[h as usize].city.get().unwrap()];
        let want = stats.clone().unwrap_or_default();
        assert_eq!((c.defence, c.level, c.stability, c.pv), (want.defence, want.level, want.stability, pv));
        assert_eq!((c.controller.id(), c.influence, st.hexes[h as usize].owner().id()), (NOBODY, 0, NOBODY));
        assert_eq!(st.hexes[h as usize].main, Some(BuildingKind::City));
    }
}

#[test]
fn g16_a_built_city_takes_cities_built_at_max_pv() {
    for (stats, base, pv) in
        [(None, 3, 3), (Some(CityStats { defence: 3, level: 1, stability: 1 }), 3, 4), (None, 5, 5)]
    {
        let w = world(PLAINS, |sc| {
            if let Some(s) = &stats {
                sc.cities.built = s.clone();
            }
            sc.cities.max_pv_base = base;
        });
        let mut st = w.bare();
        let h = w.hex(2, 1);
        st.set_owner(h, empires_core::rules::Owner::of(0));
        st.players[0].ep = 2;
        let mut e = w.engine(&[], Script::default());
        e.engine.spend(&mut st, 0, Action::Build { hex: h, kind: BuildingKind::Castle });
        e.engine.spend(&mut st, 0, Action::Build { hex: h, kind: BuildingKind::City });
        let c = st.cities[st.hexes[h as usize].city.get().unwrap()];
        let want = stats.clone().unwrap_or_default();
        assert_eq!((c.defence, c.level, c.stability, c.pv), (want.defence, want.level, want.stability, pv));
        assert_eq!((c.controller.id(), c.influence, c.hex), (0, 6, h));
    }
}

/// P0's army at (4,3) takes P1's capital (5,3) with `choice`.
fn take_capital(choice: SiegeChoice) -> (World, State) {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(4, 3), 3);
    st.armies[a].engines = 1;
    let city = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
    st.cities[city].pv = 1;
    let mut script = Script::default();
    script.outcome = Some(choice);
    let mut e = w.engine(&[6, 1], script);
    assert!(e.siege(&mut st, a, city).d_destroyed);
    drop(e);
    (w, st)
}

#[test]
fn g19_a_federated_city_counts_for_adjacency_not_size_nor_building() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let (cap1, beyond) = (w.hex(5, 3), w.hex(5, 2));
    st.players[0].ep = 2;
    assert!(!spend_options(&w, &st, 0).contains(&Action::Capture(beyond)), "not next to P0's land");

    let (w, mut st) = take_capital(SiegeChoice::Federate);
    let c = st.cities[st.hexes[cap1 as usize].city.get().unwrap()];
    assert_eq!((c.controller.id(), c.influence, st.hexes[cap1 as usize].owner().id()), (0, 3, NOBODY));
    st.players[0].ep = 2;
    let opts = spend_options(&w, &st, 0);
    assert!(opts.contains(&Action::Capture(beyond)), "the federated city counts for adjacency");
    assert!(!opts.iter().any(|a| matches!(a, Action::Build { hex, .. } if *hex == cap1)), "no building there");
    let s = sizes(w.rules(), &st);
    assert_eq!(s[0], Size { size: 2, hexes: 1, cities: 1, castles: 0 }, "only P0's capital counts");

    // Conquered instead: the city carries P0's banner and counts.
    let (w, mut st) = take_capital(SiegeChoice::Conquer);
    st.players[0].ep = 2;
    assert!(spend_options(&w, &st, 0).contains(&Action::Build { hex: cap1, kind: BuildingKind::Tower }));
    assert_eq!(sizes(w.rules(), &st)[0], Size { size: 4, hexes: 2, cities: 2, castles: 0 });
}

#[test]
fn g21_neutral_cities_never_act() {
    let w = world(NEUTRAL, |_| {});
    let mut st = w.bare();
    pools(&mut st, 3);
    let h = w.hex(3, 2);
    let city = st.hexes[h as usize].city.get().unwrap();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    st.armies[a].engines = 1;
    // 3 + 1 engine + bid 2 + 1 = 7 against 2 + 0 + 0 + 6 = 8: the city wins.
    let mut e = w.engine(&[1, 6], Script::bids(&[2]));
    let c = e.siege(&mut st, a, city);
    assert_eq!((c.defender, c.d.bid, c.gap, c.a_loss), (NOBODY, 0, -1, 2));
    assert_eq!((c.a_result, c.d_result), (Some(BattleResult::Defeat), None));
    // Only the attacker was asked anything; the city bid nothing and earned nothing.
    let asked: Vec<(u8, Decision)> = e.players.asked.iter().map(|x| (x.0, x.1)).collect();
    assert_eq!(asked, vec![(0, Decision::Bid { kind: CombatKind::Siege, attacking: true })]);
    assert_eq!((st.players[0].gold, st.players[1].gold), (100, 100), "no loot for a neutral winner");
    e.engine.earn_ep(&mut st);
    let eps: Vec<u8> = e
        .engine
        .log
        .iter()
        .filter_map(|ev| if let Event::Ep { player, .. } = ev { Some(*player) } else { None })
        .collect();
    assert_eq!(eps, vec![0, 1]);

    // A whole season: the city is in no order, recruits nothing, is asked nothing.
    let mut st = w.start();
    let before = st.cities[city];
    // Equal sizes: one tie-break die each (G-03).
    let mut e = w.engine(&[3, 5], Script::default());
    e.play_season(&mut st);
    assert_eq!(e.engine.dice.remaining(), 0);
    let order: Vec<u8> = e
        .engine
        .log
        .iter()
        .filter_map(|ev| if let Event::Order { player, .. } = ev { Some(*player) } else { None })
        .collect();
    assert_eq!(order, vec![0, 1]);
    assert!(!e.engine.log.iter().any(|ev| matches!(ev, Event::Recruit { hex, .. } if *hex == h)));
    assert!(e.players.asked.iter().all(|x| x.0 == 0 || x.0 == 1));
    assert_eq!(st.cities[city], before);
}

#[test]
fn g22_one_castle_city_or_mine_plus_one_port_tower_or_bridge() {
    let w = world(SITES, |_| {});
    let mut st = w.bare();
    let river = w.hex(3, 2);
    st.set_owner(river, empires_core::rules::Owner::of(0));
    st.players[0].ep = 4;
    let mut e = w.engine(&[], Script::default());
    let kinds = |st: &State| (st.hexes[river as usize].main, st.hexes[river as usize].extra);
    buy(&mut e, &mut st, 0, Action::Build { hex: river, kind: BuildingKind::Mine });
    buy(&mut e, &mut st, 0, Action::Build { hex: river, kind: BuildingKind::Bridge });
    assert_eq!(kinds(&st), (Some(BuildingKind::Mine), Some(BuildingKind::Bridge)), "one of each slot");
    // A castle replaces the mine, the bridge stays; a tower replaces the bridge.
    buy(&mut e, &mut st, 0, Action::Build { hex: river, kind: BuildingKind::Castle });
    assert_eq!(kinds(&st), (Some(BuildingKind::Castle), Some(BuildingKind::Bridge)));
    buy(&mut e, &mut st, 0, Action::Build { hex: river, kind: BuildingKind::Tower });
    assert_eq!(kinds(&st), (Some(BuildingKind::Castle), Some(BuildingKind::Tower)));
    assert_eq!(st.players[0].ep, 0);
    // A building is never built again on its own hex.
    st.players[0].ep = 4;
    let opts = spend_options(&w, &st, 0);
    assert!(opts.contains(&Action::Build { hex: river, kind: BuildingKind::Bridge }));
    assert!(!opts.contains(&Action::Build { hex: river, kind: BuildingKind::Tower }));
    assert!(!opts.contains(&Action::Build { hex: river, kind: BuildingKind::Castle }));
    st.players[0].ep = 0;
    // Coastal: land next to sea; sea itself is never coastal.
    assert!(w.map.coastal[w.hex(1, 1) as usize]);
    assert!(!w.map.coastal[w.hex(0, 0) as usize]);
    assert_eq!(w.map.terrain[w.hex(0, 0) as usize], Terrain::Sea);
    // A drawn hex with two main buildings is refused.
    let mut sc = w.sc.clone();
    sc.map.rows = Some(SITES.iter().map(|r| r.replace(" r ", " rkn ")).collect());
    let problems = empires_core::scenario::check::check(&sc);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].1.contains("at most one castle, city or mine"));
}

#[test]
fn g23_generated_map_counts_follow_the_spec() {
    let mut sc = Scenario::default();
    sc.map.generate = Some(GenerateSpec {
        land: 40,
        mountains: 5,
        river_share: 0.0,
        marsh_share: 0.25,
        forest_share: 0.25,
        ..GenerateSpec::default()
    });
    assert!(empires_core::scenario::check::check(&sc).is_empty());
    for seed in [1u64, 2, 3] {
        let m = empires_core::rules::setup::make_map(&sc, seed).expect("map");
        let count = |t: Terrain| m.terrain.iter().filter(|&&x| x == t).count();
        assert_eq!(m.land_count, 40);
        assert_eq!(
            (
                count(Terrain::Mountain),
                count(Terrain::River),
                count(Terrain::Marsh),
                count(Terrain::Forest),
                count(Terrain::Plains)
            ),
            (5, 0, 10, 10, 15)
        );
        // The sea ring closes the land.
        for h in 0..m.len() {
            if m.terrain[h].is_land() {
                assert_eq!(m.adjacent(h as u16).count(), 6);
            }
        }
        assert_eq!(m.placements.capitals.len(), 4);
    }
    // Default: 48 land hexes, 6 of them mountain.
    let sc = Scenario::default();
    let m = empires_core::rules::setup::make_map(&sc, 5).expect("map");
    assert_eq!((m.land_count, m.terrain.iter().filter(|&&t| t == Terrain::Mountain).count()), (48, 6));
}

#[test]
fn g27_movement_costs_are_a_terrain_table() {
    // P0's army and spy on plains (2,2); forest at (3,2), plains at (2,1).
    for (forest_cost, enters) in [(1, true), (2, false)] {
        let w = world(WOODS, |sc| sc.movement.cost.forest = forest_cost);
        let (forest, plains) = (w.hex(3, 2), w.hex(2, 1));
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3) as u16;
        let s = spy(&mut st, 0, w.hex(2, 2)) as u16;
        let opts = act_options(&w, &st, 0);
        assert_eq!(opts.contains(&Action::MoveArmy { army: a, to: forest }), enters, "forest cost {forest_cost}");
        assert_eq!(opts.contains(&Action::MoveSpy { spy: s, to: forest }), enters);
        assert!(opts.contains(&Action::MoveArmy { army: a, to: plains }));
        assert!(opts.contains(&Action::MoveSpy { spy: s, to: plains }));
    }
    // With 2 MP (Light formation) the army enters the forest at cost 2 and stops.
    let w = world(WOODS, |sc| sc.movement.cost.forest = 2);
    let forest = w.hex(3, 2);
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    st.armies[a].formation = Some(FormationChoice::Light);
    let mut e = w.engine(&[], Script::default());
    e.engine.end_of_season(&mut st);
    assert_eq!(st.armies[a].mp, 2);
    let go = Action::MoveArmy { army: a as u16, to: forest };
    assert!(act_options(&w, &st, 0).contains(&go));
    e.apply_act(&mut st, 0, go);
    assert_eq!((st.armies[a].hex, st.armies[a].mp), (forest, 0));
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::MoveArmy { .. })));
}

#[test]
fn g27_armies_move_one_hex_on_land_and_movement_army_is_data() {
    for (mp, steps) in [(1, 1), (2, 2)] {
        let w = world(PLAINS, |sc| sc.movement.army = mp);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(1, 2), 3);
        let mut e = w.engine(&[], Script::default());
        e.engine.end_of_season(&mut st);
        assert_eq!(st.armies[a].mp, mp);
        // Never onto the sea at (0,2).
        assert!(!act_options(&w, &st, 0).contains(&Action::MoveArmy { army: a as u16, to: w.hex(0, 2) }));
        let path = [w.hex(2, 2), w.hex(3, 2), w.hex(4, 2)];
        let mut done = 0;
        for &to in &path {
            let m = Action::MoveArmy { army: a as u16, to };
            if !act_options(&w, &st, 0).contains(&m) {
                break;
            }
            e.apply_act(&mut st, 0, m);
            done += 1;
        }
        assert_eq!(done, steps);
        assert_eq!(st.armies[a].hex, path[steps - 1]);
    }
}

/// G-13: a recruited ship is launched on a sea hex next to its port that no
/// rival ship holds (its own ships may be there); with every such hex held
/// by a rival, no ship is offered.
#[test]
fn g13_a_ship_is_launched_next_to_its_port_where_no_rival_ship_stands() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    st.players[0].gold = 1000;
    let cap = w.hex(1, 2);
    let seas: Vec<_> = w.map.adjacent(cap).filter(|&n| w.map.terrain[n as usize] == Terrain::Sea).collect();
    assert!(seas.len() >= 3);
    let ship_at = Action::Recruit { hex: cap, item: Item::Ship };
    for &s in &seas {
        ship(&mut st, 1, s, 3);
    }
    assert!(!recruit_options(&w, &st, 0).contains(&ship_at), "every sea hex by the port is held");
    // Free the last: the ship is launched there and only there.
    let free = *seas.last().unwrap();
    st.ships.last_mut().unwrap().alive = false;
    let mut e = w.engine(&[], Script::default());
    e.engine.recruit_options(&st, 0);
    assert!(e.engine.options().contains(&ship_at));
    e.engine.recruit(&mut st, 0, cap, Item::Ship);
    let new = st.ships.len() - 1;
    assert_eq!((st.ships[new].owner, st.ships[new].hex, st.ships[new].pv), (0, free, 3));
    assert_eq!(
        e.engine.log.last(),
        Some(&Event::Recruit {
            player: 0,
            hex: cap,
            item: Item::Ship,
            cost: w.sc.recruit.ship as i64,
            piece: new as u16,
            at: free
        })
    );
    // Next season that hex holds P0's own ship, and a second one joins it.
    e.engine.end_of_season(&mut st);
    e.engine.recruit(&mut st, 0, cap, Item::Ship);
    assert_eq!(st.ships.last().unwrap().hex, free);
}

/// G-13 / E-16: recruiting pays its price (counted as gold spent), and each
/// new piece is numbered as the log says: a unit joins the army on the hex,
/// an engine joins it too, a spy is a new piece.
#[test]
fn g13_recruiting_pays_and_numbers_the_new_piece() {
    let w = world(PLAINS, |sc| sc.recruit.per_hex = 3);
    let mut st = w.start();
    let cap = w.hex(1, 1);
    st.players[0].gold = 1000;
    let a = st.hexes[cap as usize].army.get().unwrap();
    let (units, spies) = (st.armies[a].units, st.spies.len());
    let (unit, engine, spy) = (w.sc.recruit.unit as i64, w.sc.recruit.engine as i64, w.sc.recruit.spy as i64);
    let mut e = w.engine(&[], Script::default());
    e.engine.recruit(&mut st, 0, cap, Item::Unit);
    e.engine.recruit(&mut st, 0, cap, Item::Engine);
    e.engine.recruit(&mut st, 0, cap, Item::Spy);
    assert_eq!((st.armies[a].units, st.armies[a].engines), (units + 1, 1));
    assert_eq!(st.spies.len(), spies + 1);
    assert_eq!(st.players[0].gold, 1000 - unit - engine - spy);
    assert_eq!(st.players[0].tally.gold_spent, unit + engine + spy);
    let pieces: Vec<_> = e
        .engine
        .log
        .iter()
        .filter_map(|x| match x {
            Event::Recruit { item, piece, at, .. } => Some((*item, *piece, *at)),
            _ => None,
        })
        .collect();
    assert_eq!(pieces, [(Item::Unit, a as u16, cap), (Item::Engine, a as u16, cap), (Item::Spy, spies as u16, cap)]);
    // A unit recruited where no army stands is a new army, numbered last.
    let x = w.hex(2, 1);
    st.set_owner(x, empires_core::rules::Owner::of(0));
    st.hexes[x as usize].main = Some(BuildingKind::Castle);
    st.hexes[x as usize].main_pv = 3;
    e.engine.recruit(&mut st, 0, x, Item::Unit);
    let n = st.armies.len() - 1;
    assert_eq!((st.armies[n].owner, st.armies[n].hex, st.armies[n].units), (0, x, 1));
    assert!(matches!(e.engine.log.last(), Some(Event::Recruit { piece, at, .. }) if *piece as usize == n && *at == x));
}

/// G-13: an engine is offered for the player's own army on the hex until
/// it carries `siege.engine_cap`.
#[test]
fn g13_engines_are_offered_up_to_the_cap() {
    let w = world(PLAINS, |sc| sc.recruit.per_hex = 5);
    let mut st = w.start();
    let cap = w.hex(1, 1);
    st.players[0].gold = 10_000;
    let a = st.hexes[cap as usize].army.get().unwrap();
    let engine = Action::Recruit { hex: cap, item: Item::Engine };
    assert_eq!(w.sc.siege.engine_cap, 2);
    for n in 0..2 {
        assert_eq!(st.armies[a].engines, n);
        assert!(recruit_options(&w, &st, 0).contains(&engine), "{n} engines");
        w.engine(&[], Script::default()).engine.recruit(&mut st, 0, cap, Item::Engine);
    }
    assert_eq!(st.armies[a].engines, 2);
    assert!(!recruit_options(&w, &st, 0).contains(&engine), "at the cap");
}

/// E-12 / G-15: a building that `requires` another of its slot is offered
/// only where that one stands (here a tower only on a bridge).
#[test]
fn g15_a_building_that_requires_another_stands_only_on_it() {
    let w = world(SITES, |sc| sc.buildings.tower.requires = Some(BuildingKind::Bridge));
    let mut st = w.bare();
    let river = w.hex(3, 2);
    st.set_owner(river, empires_core::rules::Owner::of(0));
    st.players[0].ep = 4;
    let tower = Action::Build { hex: river, kind: BuildingKind::Tower };
    assert!(!spend_options(&w, &st, 0).contains(&tower), "no bridge yet");
    let mut e = w.engine(&[], Script::default());
    buy(&mut e, &mut st, 0, Action::Build { hex: river, kind: BuildingKind::Bridge });
    assert!(spend_options(&w, &st, 0).contains(&tower), "on the bridge");
}

/// The moves and attacks listed for one army.
fn army_options(w: &World, st: &State, p: u8, army: usize) -> Vec<Action> {
    let mut v: Vec<Action> = act_options(w, st, p)
        .into_iter()
        .filter(|a| match *a {
            Action::MoveArmy { army: x, .. } | Action::Attack { army: x, .. } => x as usize == army,
            _ => false,
        })
        .collect();
    v.sort_by_key(|a| format!("{a:?}"));
    v
}

/// G-27 / W-08: an army moves onto an empty land hex, its own city or an
/// ally's city, never onto a rival's city (cities fall by siege) or a hex
/// with an army; it attacks a rival army next to it, never an ally's.
#[test]
fn g27_an_army_enters_empty_land_and_its_own_or_an_allys_city_only() {
    // P0 and P1 allies, P2 their rival: P0's army at (4,3) next to P1's
    // capital (5,3), P2's army at (4,2), P0's other army at (5,2) and sea.
    let w = world(THREE, |sc| {
        sc.players[0].team = Some(1);
        sc.players[1].team = Some(1);
    });
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(4, 3), 3);
    let rival = army(&mut st, 2, w.hex(4, 2), 3);
    army(&mut st, 0, w.hex(5, 2), 3);
    let mv = |h| Action::MoveArmy { army: a as u16, to: h };
    let mut want = vec![mv(w.hex(3, 3)), mv(w.hex(5, 3)), Action::Attack { army: a as u16, target: rival as u16 }];
    want.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(army_options(&w, &st, 0, a), want, "the ally's capital is open, the rival army is attacked");
    // Without the alliance P1's capital is closed to P0.
    let w2 = world(THREE, |_| {});
    let mut want2 = vec![mv(w.hex(3, 3)), Action::Attack { army: a as u16, target: rival as u16 }];
    want2.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(army_options(&w2, &st, 0, a), want2, "a rival's city is taken by siege only");
    // P0's own capital is open to its army next to it.
    let b = army(&mut st, 0, w.hex(2, 1), 3);
    assert!(army_options(&w2, &st, 0, b).contains(&Action::MoveArmy { army: b as u16, to: w.hex(1, 1) }));
    // An ally's army is not attacked.
    let ally = army(&mut st, 1, w.hex(3, 3), 3);
    assert!(!army_options(&w, &st, 0, a).contains(&Action::Attack { army: a as u16, target: ally as u16 }));
    assert!(army_options(&w2, &st, 0, a).contains(&Action::Attack { army: a as u16, target: ally as u16 }));
}

/// W-12 / G-26 / G-27: ships move onto free sea hexes or their own ships'
/// within their movement; a stack's ready ships attack once, listed once
/// for the hex; dead ships, spent ships and other players' ships offer
/// nothing; no attack on one's own ships.
#[test]
fn g27_ship_moves_and_stack_attacks_are_listed_once_per_stack() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (home, north) = (w.hex(2, 2), w.hex(2, 1));
    let spent = ship(&mut st, 0, home, 3);
    st.ships[spent].attacked = true;
    st.ships[spent].mp = 0;
    let a = ship(&mut st, 0, home, 3);
    let b = ship(&mut st, 0, home, 3);
    let c = ship(&mut st, 0, north, 3);
    st.ships[c].mp = 0;
    let dead = ship(&mut st, 0, w.hex(2, 3), 3);
    st.ships[dead].alive = false;
    let enemy = ship(&mut st, 1, w.hex(3, 2), 3);
    let opts = act_options(&w, &st, 0);
    let seas = |h: u16| -> Vec<u16> {
        w.map.adjacent(h).filter(|&n| w.map.terrain[n as usize] == Terrain::Sea && n != w.hex(3, 2)).collect()
    };
    for s in [spent, c, dead, enemy] {
        assert!(!opts.iter().any(|x| matches!(x, Action::MoveShip { ship, .. } if *ship as usize == s)), "ship {s}");
    }
    for s in [a, b] {
        let mut to: Vec<u16> = opts
            .iter()
            .filter_map(|x| match x {
                Action::MoveShip { ship, to } if *ship as usize == s => Some(*to),
                _ => None,
            })
            .collect();
        to.sort();
        let mut want = seas(home);
        want.sort();
        assert_eq!(to, want, "ship {s}: every free sea hex next to it, the rival's not, its own ships' yes");
    }
    let attacks = |opts: &[Action]| -> Vec<Action> {
        opts.iter().copied().filter(|x| matches!(x, Action::NavalAttack { .. })).collect()
    };
    let want =
        [Action::NavalAttack { from: home, to: w.hex(3, 2) }, Action::NavalAttack { from: north, to: w.hex(3, 2) }];
    assert_eq!(attacks(&opts), want, "one attack per stack, none against one's own ships");
    // A ready ship of the first stack listed after the other stack's ship
    // still adds no second attack.
    ship(&mut st, 0, home, 3);
    assert_eq!(attacks(&act_options(&w, &st, 0)), want);
    // The other player sees its own ship's moves only.
    let opts1 = act_options(&w, &st, 1);
    assert!(opts1.iter().all(|x| !matches!(x, Action::MoveShip { ship, .. } if *ship as usize != enemy)));
}

/// W-17 / G-27: an army that has not moved boards an own ship next to it
/// that has not moved; the ship sails through free sea hexes (never
/// through a rival's ships) within its movement and lands the units on a
/// hex the army may enter, each landing hex listed once per ship.
#[test]
fn w17_transports_reach_within_the_ships_movement_around_rival_ships() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let cap = w.hex(1, 2);
    let a = army(&mut st, 0, cap, 3);
    let s = ship(&mut st, 0, w.hex(2, 2), 3);
    ship(&mut st, 1, w.hex(3, 2), 3);
    let dead = ship(&mut st, 0, w.hex(0, 2), 3);
    st.ships[dead].alive = false;
    ship(&mut st, 1, w.hex(0, 3), 3);
    let landings = |st: &State| -> Vec<(u16, u16)> {
        let mut v: Vec<(u16, u16)> = act_options(&w, st, 0)
            .into_iter()
            .filter_map(|x| match x {
                Action::Transport { ship, army, to } if army as usize == a => Some((ship, to)),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    // One MP: the ship's hex and the free sea next to it; it lands beside.
    st.ships[s].mp = 1;
    let s16 = s as u16;
    let mut near = vec![(s16, w.hex(1, 1)), (s16, w.hex(1, 3))];
    near.sort();
    assert_eq!(landings(&st), near);
    // Three MP: round the rival ship to the far coast, but not onto P1's
    // capital (a rival's city).
    st.ships[s].mp = 3;
    let got = landings(&st);
    assert!(got.contains(&(s16, w.hex(5, 1))) && got.contains(&(s16, w.hex(5, 3))), "{got:?}");
    assert!(!got.iter().any(|&(_, to)| to == w.hex(5, 2) || to == cap), "{got:?}");
    let mut dedup = got.clone();
    dedup.dedup();
    assert_eq!(dedup, got, "each landing once");
    // Walled in by rival ships on every sea hex around it, the ship lands
    // only on the near coast; with one of the walls its owner's own ship,
    // it sails through to the far coast again.
    let walls = [w.hex(2, 1), w.hex(2, 3)];
    let wall_ships: Vec<usize> = walls.iter().map(|&h| ship(&mut st, 1, h, 3)).collect();
    assert_eq!(landings(&st), near);
    st.ships[wall_ships[0]].owner = 0;
    assert!(landings(&st).contains(&(s16, w.hex(5, 1))));
    for i in wall_ships {
        st.ships[i].alive = false;
    }
    // A ship that moved, or an army that moved, offers no transport.
    st.ships[s].moved = true;
    assert!(landings(&st).is_empty());
    st.ships[s].moved = false;
    st.armies[a].moved = true;
    assert!(landings(&st).is_empty());
}

/// G-18: at the end of a season an unharmed city's stability moves one
/// step (`cities.stability_recover`) toward 0 from either side.
#[test]
fn g18_stability_recovers_toward_zero_from_either_side() {
    let w = world(PLAINS, |sc| {
        sc.cities.stability_min = -3;
        sc.cities.stability_max = 3;
        sc.cities.stability_recover = 1;
    });
    let mut st = w.bare();
    let (c0, c1) =
        (st.hexes[w.hex(1, 1) as usize].city.get().unwrap(), st.hexes[w.hex(5, 3) as usize].city.get().unwrap());
    st.cities[c0].stability = 2;
    st.cities[c1].stability = -2;
    let mut e = w.engine(&[], Script::default());
    e.engine.end_of_season(&mut st);
    assert_eq!((st.cities[c0].stability, st.cities[c1].stability), (1, -1));
    e.engine.end_of_season(&mut st);
    e.engine.end_of_season(&mut st);
    assert_eq!((st.cities[c0].stability, st.cities[c1].stability), (0, 0));
}

/// G-23: a scenario's map is the same for every campaign when it is drawn
/// or has a fixed seed, and a map that cannot be made says why.
#[test]
fn g23_a_drawn_or_seeded_map_is_fixed_and_a_bad_one_says_why() {
    use empires_core::rules::setup::{make_map, map_is_fixed};
    let w = world(PLAINS, |_| {});
    assert!(map_is_fixed(&w.sc));
    let mut sc = Scenario::default();
    assert!(!map_is_fixed(&sc));
    let mut g = sc.map.generator();
    g.seed = Some(7);
    sc.map.generate = Some(g);
    assert!(map_is_fixed(&sc));
    let mut bad = Scenario::default();
    bad.map.rows = Some(vec!["~ x ~".into()]);
    let err = make_map(&bad, 0).unwrap_err();
    assert!(err.to_string().starts_with("map.rows: "), "{err}");
}

/// E-12 / G-15: a building may only require another of its own slot, and
/// the error names that slot.
#[test]
fn g15_a_requirement_from_the_other_slot_is_refused_with_the_slot_named() {
    let mut sc = Scenario::default();
    sc.buildings.tower.requires = Some(BuildingKind::Castle);
    sc.buildings.mine.requires = Some(BuildingKind::Port);
    let problems = empires_core::scenario::check::check(&sc);
    let msgs: Vec<&str> = problems.iter().map(|p| p.1.as_str()).collect();
    assert!(msgs.contains(&"must name another building of the same slot (port, tower, bridge)"), "{msgs:?}");
    assert!(msgs.contains(&"must name another building of the same slot (castle, city, mine)"), "{msgs:?}");
}
