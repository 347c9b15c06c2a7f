//! The invariants the property tests check at every decision
//! (`rules::invariants`) are an oracle: a check that never fires proves
//! nothing. Each one is broken here once, just past its bound, and the
//! state at its bound passes.

use crate::common::*;
use empires_core::rules::invariants::{at_decision, check};
use empires_core::rules::state::Slot;
use empires_core::rules::{Decision, Owner, State};
use empires_core::scenario::BuildingKind;

/// A valid position on STRAIT: both capitals with their armies, a ship
/// and a spy of P0, a ship of P1 at 1 PV, P1's capital at 1 PV and its
/// lowest stability, every other figure at its upper bound where it has one.
fn valid(w: &World) -> State {
    let mut st = w.start();
    let sc = &w.sc;
    ship(&mut st, 1, w.hex(4, 2), 1);
    ship(&mut st, 0, w.hex(2, 2), sc.naval.ship_pv);
    spy(&mut st, 0, w.hex(1, 1));
    let a = st.hexes[w.hex(1, 2) as usize].army.get().unwrap();
    st.armies[a].engines = sc.siege.engine_cap;
    st.armies[a].xp = sc.army.xp_max;
    for p in st.players.iter_mut() {
        p.gold = 0;
        p.initiative = 0;
        p.ep = 0;
    }
    let c = st.hexes[w.hex(1, 2) as usize].city.get().unwrap();
    st.cities[c].pv = sc.cities.max_pv(st.cities[c].level);
    st.cities[c].stability = sc.cities.stability_max;
    let c1 = st.hexes[w.hex(5, 2) as usize].city.get().unwrap();
    st.cities[c1].stability = sc.cities.stability_min;
    st.cities[c1].pv = 1;
    st
}

fn army_of(w: &World, st: &State) -> usize {
    st.hexes[w.hex(1, 2) as usize].army.get().unwrap()
}

fn city_of(w: &World, st: &State) -> usize {
    st.hexes[w.hex(1, 2) as usize].city.get().unwrap()
}

#[test]
fn invariants_pass_at_their_bounds_and_fail_just_past_them() {
    let w = world(STRAIT, |_| {});
    let r = w.rules();
    let ok = valid(&w);
    assert_eq!(check(r, &ok), Ok(()));
    assert_eq!(at_decision(r, &ok, Decision::Act), Ok(()));
    let (cap, sea, land) = (w.hex(1, 2), w.hex(2, 2), w.hex(1, 1));
    let (a, c) = (army_of(&w, &ok), city_of(&w, &ok));
    type Break = Box<dyn Fn(&World, &mut State)>;
    let cases: Vec<(&str, Break)> = vec![
        ("negative gold", Box::new(move |_, st| st.players[1].gold = -1)),
        ("negative initiative", Box::new(move |_, st| st.players[1].initiative = -1)),
        ("alive with 0 units", Box::new(move |_, st| st.armies[a].units = 0)),
        ("engines", Box::new(move |_, st| st.armies[a].engines = -1)),
        ("engines", Box::new(move |w, st| st.armies[a].engines = w.sc.siege.engine_cap + 1)),
        ("experience", Box::new(move |_, st| st.armies[a].xp = -1)),
        ("experience", Box::new(move |w, st| st.armies[a].xp = w.sc.army.xp_max + 1)),
        (
            "stands at sea",
            Box::new(move |_, st| {
                st.hexes[cap as usize].army = Slot::EMPTY;
                st.hexes[sea as usize].army = Slot::of(a);
                st.armies[a].hex = sea;
            }),
        ),
        ("not recorded on its hex", Box::new(move |_, st| st.hexes[cap as usize].army = Slot::EMPTY)),
        ("eliminated player", Box::new(move |_, st| st.players[0].eliminated = true)),
        ("points at army 99", Box::new(move |_, st| st.hexes[land as usize].army = Slot::of(99))),
        ("which is not there", Box::new(move |_, st| st.armies[a].alive = false)),
        (
            "which is not there",
            Box::new(move |_, st| {
                // The army is elsewhere: its new hex holds it, the old one still points at it.
                st.armies[a].hex = land;
                st.hexes[land as usize].army = Slot::of(a);
            }),
        ),
        ("impossible owner", Box::new(move |_, st| st.set_owner(land, Owner::of(7)))),
        ("impossible owner", Box::new(move |_, st| st.set_owner(sea, Owner::of(0)))),
        (
            "stands on",
            Box::new(move |_, st| {
                st.hexes[land as usize].main = Some(BuildingKind::Mine);
                st.hexes[land as usize].main_pv = 1;
            }),
        ),
        ("has 0 PV", Box::new(move |_, st| st.hexes[cap as usize].extra_pv = 0)),
        ("has 3 PV", Box::new(move |_, st| st.hexes[cap as usize].extra_pv = 3)),
        (
            "wrong slot",
            Box::new(move |_, st| {
                st.hexes[land as usize].main = Some(BuildingKind::Tower);
                st.hexes[land as usize].main_pv = 2;
            }),
        ),
        (
            "disagree",
            Box::new(move |_, st| {
                st.hexes[land as usize].main = Some(BuildingKind::City);
                st.hexes[land as usize].main_pv = 3;
            }),
        ),
        (
            "disagree",
            Box::new(move |_, st| {
                st.hexes[cap as usize].main = Some(BuildingKind::Castle);
                st.hexes[cap as usize].main_pv = 3;
            }),
        ),
        ("has 0 PV", Box::new(move |_, st| st.cities[c].pv = 0)),
        ("PV", Box::new(move |_, st| st.cities[c].pv += 1)),
        ("stability", Box::new(move |w, st| st.cities[c].stability = w.sc.cities.stability_max + 1)),
        ("stability", Box::new(move |w, st| st.cities[c].stability = w.sc.cities.stability_min - 1)),
        ("banner 0 but controller 1", Box::new(move |_, st| st.cities[c].controller = Owner::of(1))),
        ("is alive with 0 PV on sea", Box::new(move |_, st| st.ships.last_mut().unwrap().pv = 0)),
        ("is alive with 4 PV on sea", Box::new(move |_, st| st.ships.last_mut().unwrap().pv = 4)),
        ("on plains", Box::new(move |_, st| st.ships.last_mut().unwrap().hex = land)),
        (
            "two players share",
            Box::new(move |_, st| {
                st.ships.push(empires_core::rules::state::Ship { owner: 1, ..*st.ships.last().unwrap() })
            }),
        ),
        ("spy", Box::new(move |_, st| st.spies.last_mut().unwrap().hex = sea)),
    ];
    for (want, break_it) in &cases {
        let mut st = ok.clone();
        break_it(&w, &mut st);
        let got = at_decision(r, &st, Decision::Act).expect_err(want);
        assert!(got.contains(want), "wanted {want:?}, got {got:?}");
        assert_eq!(check(r, &st), Err(got), "check reports the same");
    }
}

/// A city being decided (W-11) may stand at 0 PV, at that decision only;
/// EP are checked at the end of the season, not at a decision (E-05).
#[test]
fn invariants_allow_a_falling_city_and_unspent_ep_mid_season() {
    let w = world(STRAIT, |_| {});
    let r = w.rules();
    let mut st = valid(&w);
    let c = city_of(&w, &st);
    st.cities[c].pv = 0;
    assert_eq!(at_decision(r, &st, Decision::SiegeOutcome { city: c as u16 }), Ok(()));
    assert!(at_decision(r, &st, Decision::SiegeOutcome { city: c as u16 + 1 }).is_err());
    assert!(at_decision(r, &st, Decision::Act).is_err());
    let mut st = valid(&w);
    st.players[1].ep = 2;
    assert_eq!(at_decision(r, &st, Decision::Spend), Ok(()));
    assert_eq!(check(r, &st), Err("player 1 kept 2 EP after construction (E-05)".into()));
    // A dead army is not checked.
    let a = army_of(&w, &st);
    st.players[1].ep = 0;
    st.armies[a].alive = false;
    st.armies[a].units = 0;
    st.hexes[w.hex(1, 2) as usize].army = Slot::EMPTY;
    assert_eq!(check(r, &st), Ok(()));
}
