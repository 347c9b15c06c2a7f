//! Spies (document 003): what a spy may do and where (W-18, W-19, W-22 to
//! W-24), the spy score and its fate (W-20, W-21) and spy against spy
//! (W-25), with scripted dice and exact outcomes.

use crate::common::*;
use empires_core::rules::state::Slot;
use empires_core::rules::{Action, Decision, Event, SpyKind, State};
use empires_core::scenario::{BuildingKind, Scenario};

/// P1 owns (4,2) with a castle; P0's spy stands at (3,2).
fn spy_setup() -> (World, State, usize, u16) {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let t = w.hex(4, 2);
    st.set_owner(t, empires_core::rules::Owner::of(1));
    st.hexes[t as usize].main = Some(BuildingKind::Castle);
    st.hexes[t as usize].main_pv = 3;
    let s = spy(&mut st, 0, w.hex(3, 2));
    (w, st, s, t)
}

#[test]
fn w18_spies_act_once_per_season_without_open_war() {
    let (w, mut st, s, t) = spy_setup();
    let act = Action::SpyAct { spy: s as u16, target: t, kind: SpyKind::Steal };
    assert!(act_options(&w, &st, 0).contains(&act));
    let mut e = w.engine(&[6, 1], Script::default());
    e.apply_act(&mut st, 0, act);
    assert_eq!((st.players[0].gold, st.players[1].gold), (120, 80));
    assert_eq!((st.players[0].battles, st.players[1].battles), (0, 0), "no battle, no EP");
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::SpyAct { .. })));
}

#[test]
fn w19_the_spy_must_be_adjacent() {
    let (w, mut st, s, t) = spy_setup();
    st.spies[s].hex = w.hex(2, 2);
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::SpyAct { target, .. } if *target == t)));
    st.spies[s].hex = w.hex(3, 2);
    assert!(act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::SpyAct { target, .. } if *target == t)));
}

#[test]
fn w19_a_spy_acts_on_adjacent_hexes_not_its_own() {
    // `spy.own_hex = true` allows the spy's own hex as well.
    for own_hex in [false, true] {
        let w = world(PLAINS, |sc| sc.spy.own_hex = own_hex);
        let mut st = w.bare();
        let t = w.hex(4, 2);
        st.set_owner(t, empires_core::rules::Owner::of(1));
        st.hexes[t as usize].main = Some(BuildingKind::Castle);
        st.hexes[t as usize].main_pv = 3;
        let mine = spy(&mut st, 0, t);
        let theirs = spy(&mut st, 1, t);
        let opts = act_options(&w, &st, 0);
        let on_own = opts.iter().any(|x| matches!(x, Action::SpyAct { target, .. } if *target == t));
        let duel = opts.contains(&Action::SpyDuel { spy: mine as u16, target: theirs as u16 });
        assert_eq!((on_own, duel), (own_hex, own_hex), "own_hex = {own_hex}");
        if own_hex {
            // 3 + die 4 = 7 against castle 2 + die 2 = 4: -1 PV.
            let mut e = w.engine(&[4, 2], Script::default());
            act(&mut e, &mut st, 0, Action::SpyAct { spy: mine as u16, target: t, kind: SpyKind::DamageMain });
            assert_eq!(st.hexes[t as usize].main_pv, 2);
        }
    }
}

#[test]
fn w20_spy_score_is_3_plus_die_against_defence_plus_die() {
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[4, 2], Script::default());
    let c = e.engine.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!((c.a.total(), c.d.total(), c.gap), (3 + 4, 2 + 2, 3));
    assert!(c.success);
    assert_eq!(st.hexes[t as usize].main_pv, 2);
}

#[test]
fn w21_a_spy_losing_by_1_survives_by_more_dies() {
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[1, 3], Script::default());
    let c = e.engine.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(c.gap, -1);
    assert!(!c.success && st.spies[s].alive);
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[1, 4], Script::default());
    let c = e.engine.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(c.gap, -2);
    assert!(!st.spies[s].alive);
    assert_eq!((st.players[0].tally.spy_lost, st.players[0].tally.spy_success), (1, 0));
    // A tie fails and the spy survives (G-28).
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[2, 3], Script::default());
    let c = e.engine.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!((c.gap, c.success, st.spies[s].alive), (0, false, true));
}

#[test]
fn w22_a_city_suffers_one_hostile_action_per_season() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let cap = w.hex(5, 3);
    let s1 = spy(&mut st, 0, w.hex(4, 3));
    let s2 = spy(&mut st, 0, w.hex(5, 2));
    let mut e = w.engine(&[1, 6], Script::default());
    e.engine.spy_action(&mut st, s1, cap, SpyKind::Destabilize);
    let opts = act_options(&w, &st, 0);
    assert!(
        !opts.iter().any(|x| matches!(x, Action::SpyAct { spy, target, .. } if *spy == s2 as u16 && *target == cap))
    );
    e.engine.end_of_season(&mut st);
    assert!(act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::SpyAct { target, .. } if *target == cap)));
}

/// G-28 / docs/log.md: a spy's damage follows its combat line, so the
/// `building_destroyed` event comes after the `Combat` event.
#[test]
fn w20_a_building_a_spy_destroys_is_logged_after_the_combat() {
    let (w, mut st, s, t) = spy_setup();
    st.hexes[t as usize].extra = Some(BuildingKind::Tower);
    st.hexes[t as usize].extra_pv = 1;
    // 3 + 6 = 9 against tower defence 2 + 1 = 3: success.
    let mut e = w.engine(&[6, 1], Script::default());
    act(&mut e, &mut st, 0, Action::SpyAct { spy: s as u16, target: t, kind: SpyKind::DamageExtra });
    assert_eq!(st.hexes[t as usize].extra, None);
    let at = |f: fn(&Event) -> bool| e.engine.log.iter().position(f).unwrap();
    assert!(at(|x| matches!(x, Event::Combat(_))) < at(|x| matches!(x, Event::BuildingDestroyed { .. })));
}

#[test]
fn w23_a_garrison_blocks_hostile_actions() {
    let (w, mut st, _, t) = spy_setup();
    army(&mut st, 1, t, 1);
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::SpyAct { target, .. } if *target == t)));
}

#[test]
fn w24_a_spy_cannot_explore_and_act_in_one_turn() {
    let (w, mut st, s, _) = spy_setup();
    let mut e = w.engine(&[6, 1], Script::default());
    e.apply_act(&mut st, 0, Action::MoveSpy { spy: s as u16, to: w.hex(3, 1) });
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::SpyAct { .. })), "moved: no action");
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[6, 1], Script::default());
    e.apply_act(&mut st, 0, Action::SpyAct { spy: s as u16, target: t, kind: SpyKind::Steal });
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::MoveSpy { .. })), "acted: no move");
}

#[test]
fn w25_the_winning_defender_spy_cannot_act_again() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    pools(&mut st, 3);
    let (mine_hex, theirs_hex) = (w.hex(3, 2), w.hex(4, 2));
    // P0's castle next to P1's spy, so P1's spy has a target before the duel.
    st.set_owner(mine_hex, empires_core::rules::Owner::of(0));
    st.hexes[mine_hex as usize].main = Some(BuildingKind::Castle);
    st.hexes[mine_hex as usize].main_pv = 3;
    let mine = spy(&mut st, 0, mine_hex);
    let theirs = spy(&mut st, 1, theirs_hex);
    let uses = |st: &State| {
        act_options(&w, st, 1)
            .iter()
            .filter(|x| matches!(x, Action::SpyAct { spy, .. } | Action::MoveSpy { spy, .. } if *spy == theirs as u16))
            .count()
    };
    assert!(uses(&st) > 0);
    // Die 1 + bid 0 against die 4 + bid 0: the defender wins by 3.
    let mut e = w.engine(&[1, 4], Script::bids(&[0, 0]));
    act(&mut e, &mut st, 0, Action::SpyDuel { spy: mine as u16, target: theirs as u16 });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.gap, c.a_destroyed, c.d_destroyed), (-3, true, false));
    assert!(!st.spies[mine].alive && st.spies[theirs].alive);
    assert_eq!(uses(&st), 0, "the winner cannot act again this turn");
}

#[test]
fn w25_spy_against_spy() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    pools(&mut st, 3);
    let mine = spy(&mut st, 0, w.hex(3, 2));
    let theirs = spy(&mut st, 1, w.hex(4, 2));
    let duel = Action::SpyDuel { spy: mine as u16, target: theirs as u16 };
    assert!(act_options(&w, &st, 0).contains(&duel));
    // die 2 + bid 3 = 5 against die 4 + bid 0 = 4: P0 wins by 1.
    let mut e = w.engine(&[2, 4], Script::bids(&[3, 0]));
    let c = e.spy_duel(&mut st, mine, theirs);
    assert_eq!((c.a.total(), c.d.total()), (5, 4));
    assert!(!st.spies[theirs].alive, "the loser loses its spy");
    assert!(st.spies[mine].acted, "the winner cannot act again this turn");
    let offered = e.players.last_options(|d| matches!(d, Decision::Bid { .. }));
    assert_eq!(offered.len(), 4, "spy-vs-spy initiative 0 to +3");
    assert_eq!((c.success, c.a_destroyed, c.d_destroyed), (true, false, true));
    assert_eq!((st.players[0].tally.spy_success, st.players[1].tally.spy_lost), (1, 1));
    // The other way: P1's spy wins against P0's next one.
    let other = spy(&mut st, 0, w.hex(3, 2));
    let winner = spy(&mut st, 1, w.hex(4, 2));
    let mut e = w.engine(&[1, 6], Script::default());
    let c = e.spy_duel(&mut st, other, winner);
    assert_eq!((c.success, c.a_destroyed, c.d_destroyed), (false, true, false));
    assert_eq!((st.players[1].tally.spy_success, st.players[0].tally.spy_lost), (1, 1));
}

/// W-01 "chaque victoire" for spy duels (`spy.duel_loots`): the winner of a
/// duel gets `army.victory_loot`, or nothing.
#[test]
fn w01_a_spy_duel_won_loots_only_if_the_scenario_says_so() {
    for (loots, gold) in [(false, 100), (true, 110)] {
        let w = world(PLAINS, |sc| sc.spy.duel_loots = loots);
        let mut st = w.bare();
        let mine = spy(&mut st, 0, w.hex(3, 2));
        let theirs = spy(&mut st, 1, w.hex(4, 2));
        // die 5 against die 2: P0's spy wins by 3.
        let mut e = w.engine(&[5, 2], Script::default());
        act(&mut e, &mut st, 0, Action::SpyDuel { spy: mine as u16, target: theirs as u16 });
        assert!(!st.spies[theirs].alive);
        assert_eq!((st.players[0].gold, st.players[1].gold), (gold, 100), "loots {loots}");
    }
}

/// W-23 (`spy.own_army_blocks`): the spying player's own army on the target
/// blocks its spy, or only the other players' armies do.
#[test]
fn w23_the_spys_own_army_blocks_only_if_the_scenario_says_so() {
    for blocks in [true, false] {
        let (mut w, mut st, s, t) = spy_setup();
        w.sc.spy.own_army_blocks = blocks;
        army(&mut st, 0, t, 1);
        let acts = |st: &State| {
            act_options(&w, st, 0)
                .iter()
                .any(|x| matches!(x, Action::SpyAct { spy, target, .. } if *spy == s as u16 && *target == t))
        };
        assert_eq!(acts(&st), !blocks, "P0's own army on the target, blocks {blocks}");
        // A defending army always blocks.
        st.hexes[t as usize].army = Slot::EMPTY;
        st.armies[0].alive = false;
        army(&mut st, 1, t, 1);
        assert!(!acts(&st));
    }
}

/// W-19 / W-24 for duels (`spy.duel_limits`): by default a spy duels only an
/// enemy spy on an adjacent hex, and not after moving; without the limits,
/// on its own hex too, and after moving.
#[test]
fn w19_w24_duel_limits_are_a_key() {
    for limits in [true, false] {
        let w = world(PLAINS, |sc| sc.spy.duel_limits = limits);
        let mut st = w.bare();
        let mine = spy(&mut st, 0, w.hex(3, 2));
        let same = spy(&mut st, 1, w.hex(3, 2));
        let next = spy(&mut st, 1, w.hex(5, 2));
        let duel = |t: usize| Action::SpyDuel { spy: mine as u16, target: t as u16 };
        let opts = act_options(&w, &st, 0);
        assert_eq!(opts.contains(&duel(same)), !limits, "same hex, limits {limits}");
        assert!(!opts.contains(&duel(next)), "two hexes away");
        // Move next to the other spy: a duel after moving only without limits.
        let mut e = w.engine(&[], Script::default());
        act(&mut e, &mut st, 0, Action::MoveSpy { spy: mine as u16, to: w.hex(4, 2) });
        let opts = act_options(&w, &st, 0);
        assert_eq!(opts.contains(&duel(next)), !limits, "after moving, limits {limits}");
        // W-24 still holds for the spy's actions: none after moving, even
        // next to P1's castle at (4,1), which an unmoved spy there could hit.
        let castle = w.hex(4, 1);
        st.set_owner(castle, empires_core::rules::Owner::of(1));
        st.hexes[castle as usize].main = Some(BuildingKind::Castle);
        st.hexes[castle as usize].main_pv = 3;
        let spy_acts = |st: &State| act_options(&w, st, 0).iter().any(|a| matches!(a, Action::SpyAct { .. }));
        assert!(!spy_acts(&st), "limits {limits}");
        let mut fresh = st.clone();
        fresh.spies[mine].moved = false;
        assert!(spy_acts(&fresh), "limits {limits}");
    }
}

/// W-25: the duel table by the size of the gap: at a tie nobody loses and
/// nobody is spent (row 0); from a gap of 1 either way the loser's spy is
/// lost and the winner is spent (row 1). The record names the row.
#[test]
fn w25_the_duel_table_by_the_size_of_the_gap() {
    use empires_core::rules::spy::duel_effect;
    let sc = Scenario::default();
    assert_eq!(duel_effect(&sc, 0), (0, false, false));
    for g in [1, 2, 5, -1, -4] {
        assert_eq!(duel_effect(&sc, g), (1, true, true), "gap {g}");
    }
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = spy(&mut st, 0, w.hex(3, 2));
    let d = spy(&mut st, 1, w.hex(4, 2));
    let mut e = w.engine(&[4, 4], Script::default());
    let c = e.spy_duel(&mut st, a, d);
    assert_eq!((c.gap, c.row, c.success, c.a_destroyed, c.d_destroyed), (0, 0, false, false, false));
    assert!(st.spies[a].alive && st.spies[d].alive && !st.spies[d].acted);
}

/// W-21 / G-28: which spy actions apply to what stands on a hex: sabotage
/// to a mine not yet sabotaged; destabilizing to a city above the lowest
/// stability; damage to the main building (a city above the spy's PV
/// floor); damage to the second building; theft wherever a building is.
#[test]
fn w21_each_spy_action_applies_to_its_own_targets() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let e = w.engine(&[], Script::default());
    let kinds = |st: &State, h| -> Vec<SpyKind> {
        [SpyKind::Sabotage, SpyKind::Destabilize, SpyKind::DamageMain, SpyKind::DamageExtra, SpyKind::Steal]
            .into_iter()
            .filter(|&k| e.engine.spy_kind_applies(st, h, k))
            .collect()
    };
    let x = w.hex(3, 2);
    assert_eq!(kinds(&st, x), [], "an empty hex");
    st.hexes[x as usize].main = Some(BuildingKind::Mine);
    st.hexes[x as usize].main_pv = 1;
    assert_eq!(kinds(&st, x), [SpyKind::Sabotage, SpyKind::DamageMain, SpyKind::Steal]);
    st.hexes[x as usize].sabotaged = true;
    assert_eq!(kinds(&st, x), [SpyKind::DamageMain, SpyKind::Steal]);
    st.hexes[x as usize].main = None;
    st.hexes[x as usize].extra = Some(BuildingKind::Tower);
    st.hexes[x as usize].extra_pv = 2;
    assert_eq!(kinds(&st, x), [SpyKind::DamageExtra, SpyKind::Steal]);
    // W-20 / G-28: the tower's own defence, not the empty main slot's.
    assert_eq!(e.engine.spy_defence(&st, x, SpyKind::Steal), (w.sc.buildings.tower.defence, 0));
    let cap = w.hex(5, 3);
    let c = st.hexes[cap as usize].city.get().unwrap();
    let (lo, floor) = (w.sc.cities.stability_min, w.sc.spy.city_pv_floor);
    st.cities[c].stability = lo + 1;
    st.cities[c].pv = floor + 1;
    st.hexes[cap as usize].extra = None;
    assert_eq!(kinds(&st, cap), [SpyKind::Destabilize, SpyKind::DamageMain, SpyKind::Steal]);
    st.cities[c].stability = lo;
    st.cities[c].pv = floor;
    assert_eq!(kinds(&st, cap), [SpyKind::Steal], "at the lowest stability and the PV floor");
}

/// W-21: a spy that destabilizes a city takes one stability; one that
/// damages a city takes one PV.
#[test]
fn w21_destabilizing_and_damaging_a_city_take_one_each() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let s = spy(&mut st, 0, w.hex(4, 3));
    let cap = w.hex(5, 3);
    let c = st.hexes[cap as usize].city.get().unwrap();
    st.cities[c].stability = w.sc.cities.stability_max;
    let (stab, pv) = (st.cities[c].stability, st.cities[c].pv);
    // A sure success: die 6 against die 1.
    let mut e = w.engine(&[6, 1], Script::default());
    let r = e.engine.spy_action(&mut st, s, cap, SpyKind::Destabilize);
    assert!(r.success);
    assert_eq!(st.cities[c].stability, stab - 1);
    let s2 = spy(&mut st, 0, w.hex(4, 3));
    st.cities[c].hostile = false;
    let mut e = w.engine(&[6, 1], Script::default());
    let r = e.engine.spy_action(&mut st, s2, cap, SpyKind::DamageMain);
    assert!(r.success);
    assert_eq!(st.cities[c].pv, pv - 1);
}

/// W-21: what a successful spy action did is logged after its combat
/// line: the city's new values, a damaged building's PV, or the fall of a
/// building (and then no PV line).
#[test]
fn w21_a_spy_actions_effect_is_logged_after_its_combat() {
    let after_combat = |log: &[Event]| -> Vec<Event> {
        let i = log.iter().position(|x| matches!(x, Event::Combat(_))).unwrap();
        log[i + 1..].to_vec()
    };
    // The castle at (4,2), 3 PV: damaged to 2.
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[6, 1], Script::default());
    e.engine.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(after_combat(&e.engine.log), [Event::BuildingPv { hex: t, kind: BuildingKind::Castle, pv: 2 }]);
    // A tower at 2 PV: damaged to 1, then destroyed.
    let (w, mut st, s, t) = spy_setup();
    st.hexes[t as usize].extra = Some(BuildingKind::Tower);
    st.hexes[t as usize].extra_pv = 2;
    let mut e = w.engine(&[6, 1], Script::default());
    e.engine.spy_action(&mut st, s, t, SpyKind::DamageExtra);
    assert_eq!(after_combat(&e.engine.log), [Event::BuildingPv { hex: t, kind: BuildingKind::Tower, pv: 1 }]);
    let s2 = spy(&mut st, 0, w.hex(3, 2));
    let mut e = w.engine(&[6, 1], Script::default());
    e.engine.spy_action(&mut st, s2, t, SpyKind::DamageExtra);
    assert_eq!(after_combat(&e.engine.log), [Event::BuildingDestroyed { hex: t, kind: BuildingKind::Tower }]);
    // A city destabilized: its values.
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let s = spy(&mut st, 0, w.hex(4, 3));
    let cap = w.hex(5, 3);
    let c = st.hexes[cap as usize].city.get().unwrap();
    let mut e = w.engine(&[6, 1], Script::default());
    e.engine.spy_action(&mut st, s, cap, SpyKind::Destabilize);
    let after = after_combat(&e.engine.log);
    assert!(matches!(after[..], [Event::City { city, .. }] if city as usize == c), "{after:?}");
    // A failed action logs nothing after its line.
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[1, 6], Script::default());
    e.engine.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(after_combat(&e.engine.log), []);
}
