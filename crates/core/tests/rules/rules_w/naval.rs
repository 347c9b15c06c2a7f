//! Naval combat (document 003): the naval score (W-12), the naval table
//! (W-13), the port bonus (W-14), loot (W-15), coastal attacks (W-16) and
//! transport (W-17), with scripted dice and exact outcomes.

use crate::common::*;
use empires_core::rules::naval::naval_losses;
use empires_core::rules::state::Slot;
use empires_core::rules::{Action, Decision, Event, ScoreParts, State};
use empires_core::scenario::{BuildingKind, FormationChoice, Scenario};

/// Ships of P0 on (2,2) and of P1 on (3,2), in the strait.
fn fleets(n0: usize, n1: usize) -> (World, State) {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    for _ in 0..n0 {
        ship(&mut st, 0, w.hex(2, 2), 3);
    }
    for _ in 0..n1 {
        ship(&mut st, 1, w.hex(3, 2), 3);
    }
    (w, st)
}

#[test]
fn w12_naval_score_is_ships_bid_die() {
    let (w, mut st) = fleets(2, 1);
    pools(&mut st, 3);
    let mut e = w.engine(&[3, 4], Script::bids(&[1, 2]));
    let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!(c.a, ScoreParts { strength: 2, bid: 1, die: 3, ..ScoreParts::default() });
    assert_eq!(c.d, ScoreParts { strength: 1, bid: 2, die: 4, ..ScoreParts::default() });
    assert_eq!(c.gap, -1);
    // Two defending ships fight together too; the defender's ship on
    // another hex neither fights nor takes a hit.
    let (w, mut st) = fleets(1, 2);
    let away = ship(&mut st, 1, w.hex(4, 1), 3);
    let mut e = w.engine(&[6, 1], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!((c.a.strength, c.d.strength), (1, 2));
    assert!(c.d_loss > 0);
    let offered: Vec<Action> = e
        .players
        .asked
        .iter()
        .filter(|x| x.0 == 1 && matches!(x.1, Decision::TakeHit { .. }))
        .flat_map(|x| x.2.clone())
        .collect();
    assert!(!offered.is_empty() && !offered.contains(&Action::TakeHit { ship: away as u16 }), "{offered:?}");
    assert_eq!(st.ships[away].pv, 3);
}

/// W-12 / G-26, the archipelago seed 34 season 11 situation: a ship that
/// already attacked this season stays on the hex while the other ship there
/// attacks alone. Only the ship that fought takes the hits: here it loses
/// by 3, so it takes all 3 PV and sinks, and the other keeps its 3 PV.
#[test]
fn w12_only_the_ships_that_fought_take_the_attackers_hits() {
    let (w, mut st) = fleets(2, 1);
    let (from, to) = (w.hex(2, 2), w.hex(3, 2));
    st.ships[0].attacked = true;
    st.ships[0].mp = 0;
    // 1 ship + die 1 = 2 against 1 ship + die 4 = 5: gap -3, the attacker
    // loses 3 PV, the defender 1.
    let mut e = w.engine(&[1, 4], Script::default());
    act(&mut e, &mut st, 0, Action::NavalAttack { from, to });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.a.strength, c.d.strength, c.gap, c.a_loss, c.d_loss), (1, 1, -3, 3, 1));
    let offered: Vec<_> = e
        .players
        .asked
        .iter()
        .filter(|x| x.0 == 0 && matches!(x.1, Decision::TakeHit { .. }))
        .map(|x| x.2.clone())
        .collect();
    assert_eq!(offered, vec![vec![Action::TakeHit { ship: 1 }]; 3], "the idle ship is never offered");
    assert_eq!((st.ships[0].pv, st.ships[0].alive), (3, true));
    assert_eq!((st.ships[1].pv, st.ships[1].alive), (0, false));
    assert!(c.a_destroyed);
}

/// G-26 for a coastal attack (W-16): the same stack, the same rule.
#[test]
fn g26_coastal_hits_fall_on_the_ships_that_fought() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (sea, port) = (w.hex(4, 2), w.hex(5, 2));
    let idle = ship(&mut st, 0, sea, 3);
    let fighter = ship(&mut st, 0, sea, 3);
    st.ships[idle].attacked = true;
    st.ships[idle].mp = 0;
    // 1 ship + die 1 = 2 against port defence 2 + die 3 = 5: gap -3.
    let mut e = w.engine(&[1, 3], Script::default());
    act(&mut e, &mut st, 0, Action::Coastal { from: sea, target: port });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.a.strength, c.gap, c.a_loss, c.a_destroyed), (1, -3, 3, true));
    assert_eq!((st.ships[idle].pv, st.ships[fighter].alive), (3, false));
}

#[test]
fn w13_naval_table() {
    // Gap -1: the defender wins, -1 PV; the attacker loses 2 PV.
    let (w, mut st) = fleets(2, 1);
    let mut e = w.engine(&[2, 4], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!((c.gap, c.a_loss, c.d_loss), (-1, 2, 1));
    assert_eq!(st.ships[2].pv, 2);
    assert_eq!(st.ships[0].pv + st.ships[1].pv, 6 - 2);
    // Gap 2: the loser loses 3 PV and is destroyed.
    let (w, mut st) = fleets(2, 1);
    let mut e = w.engine(&[5, 4], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!((c.gap, c.a_loss, c.d_loss), (2, 1, 3));
    assert!(!st.ships[2].alive);
    assert!(c.d_destroyed);
    // Gap 4: the winner loses nothing.
    let (w, mut st) = fleets(2, 1);
    let mut e = w.engine(&[6, 3], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!((c.gap, c.a_loss, c.d_loss), (4, 0, 3));
}

#[test]
fn w13_the_tie_row_and_gap_3_in_play_and_the_record_says_what_sank() {
    // A tie: 1 ship + die 3 on each side, both lose 1 PV (row 1).
    let (w, mut st) = fleets(1, 1);
    let (from, to) = (w.hex(2, 2), w.hex(3, 2));
    let mut e = w.engine(&[3, 3], Script::default());
    act(&mut e, &mut st, 0, Action::NavalAttack { from, to });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.gap, c.row, c.a_loss, c.d_loss, c.a_destroyed, c.d_destroyed), (0, 0, 1, 1, false, false));
    assert_eq!((st.ships[0].pv, st.ships[1].pv), (2, 2));
    assert_eq!(st.players[0].gold + st.players[1].gold, 200, "a tie loots nothing");
    // Gap 3 (row 3): the loser loses 3 PV, so its only ship sinks, and the
    // winner 1 PV. The logged record comes after the hits and says so.
    let (w, mut st) = fleets(1, 1);
    let mut e = w.engine(&[5, 2], Script::default());
    act(&mut e, &mut st, 0, Action::NavalAttack { from, to });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.gap, c.row, c.a_loss, c.d_loss), (3, 2, 1, 3));
    assert_eq!((st.ships[0].pv, st.ships[1].pv, st.ships[1].alive), (2, 0, false));
    assert!(c.d_destroyed && !c.a_destroyed);
    let at = |f: fn(&Event) -> bool| e.engine.log.iter().position(f).unwrap();
    assert!(at(|x| matches!(x, Event::Hit { .. })) < at(|x| matches!(x, Event::Combat(_))));
}

/// W-12: a stack attacks once a season. After its attack (a tie, so every
/// ship survives) no naval or coastal attack from its hex is offered
/// again, and its ships have no movement left.
#[test]
fn w12_a_stack_that_attacked_is_offered_no_second_attack() {
    let (w, mut st) = fleets(2, 1);
    let (from, to) = (w.hex(2, 2), w.hex(3, 2));
    let attacks_from = |opts: &[Action]| {
        opts.iter()
            .filter(|a| match **a {
                Action::NavalAttack { from: f, .. } | Action::Coastal { from: f, .. } => f == from,
                _ => false,
            })
            .count()
    };
    assert!(attacks_from(&act_options(&w, &st, 0)) > 0);
    // 2 ships + die 2 = 4 against 1 ship + die 3 = 4: a tie.
    let mut e = w.engine(&[2, 3], Script::default());
    act(&mut e, &mut st, 0, Action::NavalAttack { from, to });
    assert_eq!(combats(&e.engine.log)[0].gap, 0);
    assert!(st.ships[0].alive && st.ships[1].alive && st.ships[2].alive);
    assert_eq!(attacks_from(&act_options(&w, &st, 0)), 0);
    assert!(st.ships[..2].iter().all(|s| s.attacked && s.mp == 0));
    assert!(!st.ships[2].attacked, "the defender did not attack");
}

/// W-13: at a tie both sides take the loser's column of the tie row, and a
/// win reads each side's own column. The shipped table has the same figure
/// in both columns of the tie row, so a table whose columns differ shows it.
#[test]
fn w13_a_tie_takes_the_losers_column_whatever_the_table() {
    let mut sc = Scenario::default();
    sc.naval.table.rows[0].winner_pv = 0;
    sc.naval.table.rows[0].loser_pv = 2;
    let row0_gap = 0;
    assert_eq!(naval_losses(&sc, row0_gap), (0, 2, 2));
    let max_gap_of_row0 = (1..10).take_while(|&g| sc.naval.table.row_index(g) == 0).last();
    if let Some(g) = max_gap_of_row0 {
        assert_eq!(naval_losses(&sc, g), (0, 0, 2), "attacker wins by {g}");
        assert_eq!(naval_losses(&sc, -g), (0, 2, 0), "defender wins by {g}");
    }
    let last = sc.naval.table.rows.len() - 1;
    let big = 50;
    let row = &sc.naval.table.rows[last];
    assert_eq!(naval_losses(&sc, big), (last, row.winner_pv, row.loser_pv));
    assert_eq!(naval_losses(&sc, -big), (last, row.loser_pv, row.winner_pv));
}

#[test]
fn w14_a_defending_ship_next_to_its_port_gets_1() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    ship(&mut st, 0, w.hex(3, 2), 3);
    ship(&mut st, 1, w.hex(4, 2), 3);
    assert_eq!(st.hexes[w.hex(5, 2) as usize].extra, Some(BuildingKind::Port));
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(3, 2), w.hex(4, 2));
    assert_eq!((c.a.port, c.d.port), (0, 1));
    assert_eq!(c.gap, -1);
}

/// W-14 "son port": a ship next to the attacker's port gets nothing.
#[test]
fn w14_no_bonus_next_to_another_players_port() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (from, to) = (w.hex(3, 2), w.hex(2, 2));
    assert_eq!(st.hexes[w.hex(1, 2) as usize].extra, Some(BuildingKind::Port), "P0's port");
    assert!(w.map.are_adjacent(to, w.hex(1, 2)));
    ship(&mut st, 0, from, 3);
    ship(&mut st, 1, to, 3);
    let mut e = w.engine(&[3, 3], Script::default());
    act(&mut e, &mut st, 0, Action::NavalAttack { from, to });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.a.port, c.d.port, c.gap), (0, 0, 0));
}

#[test]
fn w15_the_winning_ship_gains_10_gold() {
    let (w, mut st) = fleets(1, 1);
    let mut e = w.engine(&[6, 1], Script::default());
    e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!(st.players[0].gold, 110);
    assert_eq!(st.players[1].gold, 100);
}

#[test]
fn w16_ships_attack_coastal_buildings_unless_guarded() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (sea, port) = (w.hex(4, 2), w.hex(5, 2));
    ship(&mut st, 0, sea, 3);
    let coastal = Action::Coastal { from: sea, target: port };
    assert!(act_options(&w, &st, 0).contains(&coastal));
    // An enemy ship next to the port must be destroyed first.
    let guard = ship(&mut st, 1, w.hex(4, 1), 3);
    assert!(!act_options(&w, &st, 0).contains(&coastal));
    st.ships[guard].alive = false;
    // 1 ship + die 6 = 7 against port defence 2 + die 1 = 3: gap 4, -3 PV.
    let mut e = w.engine(&[6, 1], Script::default());
    let c = e.coastal_attack(&mut st, 0, sea, port);
    assert_eq!((c.a.strength, c.d.defence, c.gap, c.d_loss), (1, 2, 4, 3));
    assert_eq!(st.hexes[port as usize].extra, None, "2 PV port destroyed");
    assert_eq!(st.ships[0].pv, 3, "winner at gap 4 loses nothing");
}

#[test]
fn w16_the_holder_that_beats_off_a_coastal_attack_loots() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (sea, port) = (w.hex(4, 2), w.hex(5, 2));
    ship(&mut st, 0, sea, 1);
    // 1 ship + die 1 = 2 against port defence 2 + die 4 = 6: gap -4; the
    // ship loses 3 PV and sinks, the port loses nothing.
    let mut e = w.engine(&[1, 4], Script::default());
    act(&mut e, &mut st, 0, Action::Coastal { from: sea, target: port });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.gap, c.a_loss, c.d_loss, c.a_destroyed, c.d_destroyed), (-4, 3, 0, true, false));
    assert!(!st.ships[0].alive);
    assert_eq!((st.players[0].gold, st.players[1].gold), (100, 110), "W-01: every victory loots");
}

#[test]
fn w17_a_ship_carries_one_land_unit_and_the_army_splits() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (home, land) = (w.hex(1, 2), w.hex(5, 1));
    let a = army(&mut st, 0, home, 3);
    st.armies[a].xp = 1;
    let s = ship(&mut st, 0, w.hex(2, 2), 3);
    let mut e = w.engine(&[], Script::default());
    act(&mut e, &mut st, 0, Action::Transport { ship: s as u16, army: a as u16, to: land });
    let d = st.armies.len() - 1;
    assert_ne!(d, a, "one unit lands as a detachment");
    let (rest, det) = (st.armies[a], st.armies[d]);
    assert_eq!((rest.hex, rest.units, rest.moved), (home, 2, false));
    assert_eq!((det.hex, det.units, det.xp, det.engines, det.mp, det.moved), (land, 1, 1, 0, 0, true));
    assert_eq!((st.hexes[home as usize].army, st.hexes[land as usize].army), (Slot::of(a), Slot::of(d)));
    assert!(w.map.are_adjacent(st.ships[s].hex, land) && st.ships[s].moved);
    assert!(matches!(
        e.engine.log.last(),
        Some(Event::Transport { army, landed, units: 1, .. }) if *army == a as u16 && *landed == d as u16
    ));
    // The ship has sailed: the rest cannot board it again this season.
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::Transport { .. })));
}

#[test]
fn w17_transport_capacity_is_scenario_data_and_engines_stay_ashore() {
    // A ship that carries 3 units takes the whole army, which keeps its id.
    let w = world(STRAIT, |sc| sc.naval.transport_units = 3);
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(1, 2), 3);
    let s = ship(&mut st, 0, w.hex(2, 2), 3);
    let land = w.hex(5, 1);
    let mut e = w.engine(&[], Script::default());
    act(&mut e, &mut st, 0, Action::Transport { ship: s as u16, army: a as u16, to: land });
    assert_eq!(st.armies.len(), 1);
    assert_eq!((st.armies[a].hex, st.armies[a].units), (land, 3));
    assert_eq!(st.hexes[land as usize].army, Slot::of(a));
    assert_eq!(st.hexes[w.hex(1, 2) as usize].army, Slot::EMPTY);
    // An army of one unit with a siege engine cannot board: the engine may
    // not sail and the unit may not leave it.
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(1, 2), 1);
    st.armies[a].engines = 1;
    ship(&mut st, 0, w.hex(2, 2), 3);
    assert!(!act_options(&w, &st, 0).iter().any(|x| matches!(x, Action::Transport { .. })));
    // With three units, one sails and the engine stays with the other two.
    st.armies[a].units = 3;
    let mut e = w.engine(&[], Script::default());
    act(&mut e, &mut st, 0, Action::Transport { ship: 0, army: a as u16, to: w.hex(5, 1) });
    assert_eq!((st.armies[a].units, st.armies[a].engines), (2, 1));
    assert_eq!((st.armies[1].units, st.armies[1].engines), (1, 0));
}

/// W-17 (`naval.detachment_keeps_xp`): a detachment lands with its army's
/// experience and formation, or, read the other way, as a fresh army.
#[test]
fn w17_a_detachment_keeps_or_drops_experience_and_formation() {
    for keeps in [true, false] {
        let w = world(STRAIT, |sc| sc.naval.detachment_keeps_xp = keeps);
        let mut st = w.bare();
        let (home, land) = (w.hex(1, 2), w.hex(5, 1));
        let a = army(&mut st, 0, home, 3);
        st.armies[a].xp = 2;
        st.armies[a].formation = Some(FormationChoice::Light);
        let s = ship(&mut st, 0, w.hex(2, 2), 3);
        let mut e = w.engine(&[], Script::default());
        act(&mut e, &mut st, 0, Action::Transport { ship: s as u16, army: a as u16, to: land });
        let d = st.armies.len() - 1;
        let det = st.armies[d];
        let want = if keeps { (2, Some(FormationChoice::Light)) } else { (0, None) };
        assert_eq!((det.units, det.xp, det.formation), (1, want.0, want.1), "keeps {keeps}");
        assert_eq!(
            (st.armies[a].xp, st.armies[a].formation),
            (2, Some(FormationChoice::Light)),
            "the rest keeps its own"
        );
        assert!(matches!(e.engine.log.last(), Some(Event::Transport { fresh, .. }) if *fresh == !keeps));
    }
}

/// W-12 / W-15: a naval win is recorded as a success and counted once for
/// each side (the coverage tables read these tallies), and only the
/// attacking stack is spent: the attacker's ship on another hex and the
/// defending ship keep their movement. A tie is no success and counts for
/// no one.
#[test]
fn w12_a_naval_win_is_counted_and_spends_only_the_attacking_stack() {
    let (w, mut st) = fleets(1, 1);
    let elsewhere = ship(&mut st, 0, w.hex(2, 1), 3);
    // 1 ship + die 4 = 5 against 1 ship + die 3 = 4: gap 1, the defender
    // loses 2 PV and survives, the attacker 1.
    let mut e = w.engine(&[4, 3], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!((c.gap, c.success, c.a_loss, c.d_loss), (1, true, 1, 2));
    assert_eq!((st.players[0].tally.naval_won, st.players[0].tally.naval_lost), (1, 0));
    assert_eq!((st.players[1].tally.naval_won, st.players[1].tally.naval_lost), (0, 1));
    assert_eq!((st.ships[0].attacked, st.ships[0].mp), (true, 0));
    assert_eq!((st.ships[elsewhere].attacked, st.ships[elsewhere].mp), (false, 3));
    assert_eq!((st.ships[1].attacked, st.ships[1].mp, st.ships[1].pv), (false, 3, 1));
    // A loss: 1 + die 1 against 1 + die 2 (the defender has 1 PV left and
    // wins, so it loses 1 PV at gap -1 and sinks; the attacker loses 2).
    let mut e = w.engine(&[1, 2], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(2, 1), w.hex(3, 2));
    assert_eq!((c.gap, c.success), (-1, false));
    assert_eq!((st.players[0].tally.naval_won, st.players[0].tally.naval_lost), (1, 1));
    assert_eq!((st.players[1].tally.naval_won, st.players[1].tally.naval_lost), (1, 1));
    // A tie.
    let (w, mut st) = fleets(1, 1);
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
    assert_eq!((c.gap, c.success), (0, false));
    assert_eq!(st.players[0].tally.naval_won + st.players[0].tally.naval_lost, 0);
    assert_eq!(st.players[1].tally.naval_won + st.players[1].tally.naval_lost, 0);
}

/// W-16: a ship attacks the port, tower or bridge of a coastal hex, else
/// its main building if the scenario makes that kind a coastal target,
/// never a city (a city falls by siege only), and nothing else.
#[test]
fn w16_the_coastal_target_is_the_extra_building_else_a_main_one_the_scenario_names() {
    let w = world(STRAIT, |sc| {
        sc.buildings.castle.coastal_target = true;
        sc.buildings.city.coastal_target = true;
    });
    let mut st = w.bare();
    let e = w.engine(&[], Script::default());
    let (cap, land) = (w.hex(5, 2), w.hex(5, 1));
    assert_eq!(e.engine.coastal_target(&st, cap), Some((BuildingKind::Port, false)));
    st.hexes[cap as usize].extra = None;
    assert_eq!(e.engine.coastal_target(&st, cap), None, "a city is never a coastal target");
    st.hexes[land as usize].main = Some(BuildingKind::Castle);
    assert_eq!(e.engine.coastal_target(&st, land), Some((BuildingKind::Castle, true)));
    st.hexes[land as usize].main = Some(BuildingKind::Mine);
    assert_eq!(e.engine.coastal_target(&st, land), None, "a mine is no coastal target");
    st.hexes[land as usize].extra = Some(BuildingKind::Tower);
    assert_eq!(e.engine.coastal_target(&st, land), Some((BuildingKind::Tower, false)));
    // The shipped scenario: a castle is no coastal target.
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    st.hexes[land as usize].main = Some(BuildingKind::Castle);
    assert_eq!(w.engine(&[], Script::default()).engine.coastal_target(&st, land), None);
}

/// W-16: only a rival ship next to the building guards it; a rival ship
/// further off and the attacker's own ships do not.
#[test]
fn w16_only_a_rival_ship_next_to_the_building_guards_it() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (sea, port) = (w.hex(4, 2), w.hex(5, 2));
    ship(&mut st, 0, sea, 3);
    let coastal = Action::Coastal { from: sea, target: port };
    ship(&mut st, 1, w.hex(2, 2), 3);
    assert!(!w.map.are_adjacent(w.hex(2, 2), port));
    ship(&mut st, 0, w.hex(4, 1), 3);
    assert!(w.map.are_adjacent(w.hex(4, 1), port));
    assert!(act_options(&w, &st, 0).contains(&coastal));
    let e = w.engine(&[], Script::default());
    assert!(!e.engine.coastal_guarded(&st, 0, port));
    ship(&mut st, 1, w.hex(4, 3), 3);
    assert!(w.map.are_adjacent(w.hex(4, 3), port));
    assert!(e.engine.coastal_guarded(&st, 0, port));
}

/// W-16 / W-01: a coastal tie damages both sides (the building's PV is
/// logged), is no success and loots for no one; a win is a success and the
/// attacker loots.
#[test]
fn w16_a_coastal_tie_loots_nothing_and_a_win_loots_for_the_attacker() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (sea, port) = (w.hex(4, 2), w.hex(5, 2));
    ship(&mut st, 0, sea, 3);
    // 1 ship + die 3 = 4 against port defence 2 + die 2 = 4: a tie, both
    // lose 1 PV.
    let mut e = w.engine(&[3, 2], Script::default());
    act(&mut e, &mut st, 0, Action::Coastal { from: sea, target: port });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.gap, c.success, c.a_loss, c.d_loss, c.d_destroyed), (0, false, 1, 1, false));
    assert_eq!(st.hexes[port as usize].extra_pv, 1);
    assert!(e.engine.log.contains(&Event::BuildingPv { hex: port, kind: BuildingKind::Port, pv: 1 }));
    assert_eq!((st.players[0].gold, st.players[1].gold), (100, 100), "a tie loots nothing");
    // Next season, 1 ship + die 4 = 5 against 2 + die 2 = 4: gap 1, the
    // port loses 2 PV and falls; the attacker loots.
    e.engine.end_of_season(&mut st);
    let mut e = w.engine(&[4, 2], Script::default());
    act(&mut e, &mut st, 0, Action::Coastal { from: sea, target: port });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.gap, c.success, c.d_destroyed), (1, true, true));
    assert_eq!((st.players[0].gold, st.players[1].gold), (110, 100));
    assert!(
        !e.engine.log.iter().any(|x| matches!(x, Event::BuildingPv { .. })),
        "a destroyed building is not logged as damaged"
    );
}
