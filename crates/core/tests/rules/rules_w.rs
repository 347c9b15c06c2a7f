//! Combat-layer rules (document 003): W-01 to W-25, each with scripted dice
//! and exact outcomes.

use crate::common::*;
use empires_core::rules::naval::naval_losses;
use empires_core::rules::state::{NOBODY, Slot};
use empires_core::rules::{Action, Decision, Event, ScoreParts, SpyKind, State};
use empires_core::scenario::{BattleResult, BuildingKind, FormationChoice, Scenario, SiegeChoice};

fn armies(units_a: i32, units_d: i32) -> (World, State, usize, usize) {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), units_a);
    let d = army(&mut st, 1, w.hex(3, 2), units_d);
    (w, st, a, d)
}

#[test]
fn w01_a_victory_gives_10_gold_of_loot() {
    let (w, mut st, a, d) = armies(3, 3);
    let mut e = w.engine(&[5, 3], Script::default());
    e.army_combat(&mut st, a, d);
    assert_eq!(st.players[0].gold, 110);
    assert_eq!(st.players[0].tally.gold_loot, 10);
    assert_eq!(st.players[1].gold, 100);
}

#[test]
fn w02_army_score_is_units_xp_bid_order_die() {
    let (w, mut st, a, d) = armies(3, 3);
    pools(&mut st, 3);
    st.armies[a].xp = 1;
    st.armies[a].formation = Some(FormationChoice::Assault);
    let mut e = w.engine(&[4, 3], Script::bids(&[2, 1]));
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.a, ScoreParts { units: 3, xp: 1, bid: 2, order: 1, die: 4, ..ScoreParts::default() });
    assert_eq!(c.d, ScoreParts { units: 3, bid: 1, die: 3, ..ScoreParts::default() });
    assert_eq!((c.a.total(), c.d.total(), c.gap), (11, 7, 4));
    // G-07: bids are spent from the pools.
    assert_eq!((st.players[0].initiative, st.players[1].initiative), (1, 2));
}

#[test]
fn w03_losses_by_gap() {
    // (die a, die d) -> (gap, attacker loss, defender loss)
    for (da, dd, gap, la, ld) in [(4, 4, 0, 1, 1), (6, 3, 3, 1, 1), (6, 2, 4, 0, 1), (1, 5, -4, 1, 0)] {
        let (w, mut st, a, d) = armies(3, 3);
        let mut e = w.engine(&[da, dd], Script::default());
        let c = e.army_combat(&mut st, a, d);
        assert_eq!((c.gap, c.a_loss, c.d_loss), (gap, la, ld));
        assert_eq!((st.armies[a].units, st.armies[d].units), (3 - la, 3 - ld));
    }
}

/// W-03 at a tie (gap 0): both sides take the tie row's loser column, even
/// when the scenario gives its winner column another value.
#[test]
fn w03_at_a_tie_both_take_the_losers_column() {
    let w = world(PLAINS, |sc| sc.army.losses.rows[0].winner_loss = 0);
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[3, 3], Script::default());
    act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
    let c = combats(&e.log)[0];
    assert_eq!((c.gap, c.a_loss, c.d_loss), (0, 1, 1));
    assert_eq!((st.armies[a].units, st.armies[d].units), (2, 2));
}

#[test]
fn w04_at_most_3_initiative_in_one_combat() {
    let (w, mut st, a, d) = armies(3, 3);
    pools(&mut st, 5);
    let mut e = w.engine(&[3, 3], Script::bids(&[3, 0]));
    e.army_combat(&mut st, a, d);
    let offered = e.players.last_options(|d| matches!(d, Decision::Bid { attacking: true, .. }));
    assert_eq!(offered, (0..=3).map(Action::Bid).collect::<Vec<_>>());
    assert_eq!(st.players[0].initiative, 2);
}

#[test]
fn w05_a_garrison_adds_its_building_defence() {
    let (w, mut st, a, d) = armies(3, 3);
    let h = st.armies[d].hex as usize;
    st.hexes[h].owner = empires_core::rules::Owner::of(1);
    st.hexes[h].main = Some(BuildingKind::Castle);
    st.hexes[h].main_pv = 3;
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.d.defence, 2);
    assert_eq!((c.a.total(), c.d.total()), (6, 8));
    // An enemy castle gives nothing: the garrison must be the owner's.
    st.hexes[h].owner = empires_core::rules::Owner::of(0);
    let mut e2 = w.engine(&[3, 3], Script::default());
    st.armies[a].attacked = false;
    let c2 = e2.army_combat(&mut st, a, d);
    assert_eq!(c2.d.defence, 0);
}

#[test]
fn w05_a_garrison_in_its_city_adds_the_city_defence() {
    let w = world(PLAINS, |sc| sc.cities.capital.defence = 3);
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(4, 3), 3);
    let d = army(&mut st, 1, w.hex(5, 3), 3);
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.d.defence, 3);
}

/// W-05: a city's defence goes to its holder's army only, and only while
/// `buildings.city.garrison` holds: an army in an ally's city or in a city
/// without garrison gets nothing.
#[test]
fn w05_no_city_defence_for_an_ally_or_without_garrison() {
    let rows = ["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p3 ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];
    for (garrison, ally, defence) in [(true, false, 3), (false, false, 0), (true, true, 0)] {
        let w = world(&rows, |sc| {
            sc.cities.capital.defence = 3;
            sc.buildings.city.garrison = garrison;
            sc.players[1].team = Some(1);
            sc.players[2].team = Some(1);
        });
        let mut st = w.bare();
        let holder = if ally { 2 } else { 1 };
        let a = army(&mut st, 0, w.hex(4, 3), 3);
        let d = army(&mut st, holder, w.hex(5, 3), 3);
        let mut e = w.engine(&[3, 3], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
        let c = combats(&e.log)[0];
        assert_eq!(c.d.defence, defence, "garrison {garrison}, ally {ally}");
    }
}

#[test]
fn w06_one_experience_per_season_for_victories() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let d = army(&mut st, 1, w.hex(3, 2), 5);
    let a1 = army(&mut st, 0, w.hex(2, 2), 1);
    let a2 = army(&mut st, 0, w.hex(4, 2), 1);
    let mut e = w.engine(&[1, 6, 1, 6, 1, 6], Script::default());
    e.army_combat(&mut st, a1, d);
    e.army_combat(&mut st, a2, d);
    assert_eq!(st.armies[d].xp, 1, "two victories, one experience");
    e.end_of_season(&mut st);
    let a3 = army(&mut st, 0, w.hex(2, 2), 1);
    e.army_combat(&mut st, a3, d);
    assert_eq!(st.armies[d].xp, 2);
}

#[test]
fn w07_formation_at_experience_2() {
    let (w, mut st, a, d) = armies(3, 3);
    st.armies[a].xp = 1;
    let mut script = Script::default();
    script.formation = Some(FormationChoice::Light);
    let mut e = w.engine(&[6, 1], script);
    e.army_combat(&mut st, a, d);
    assert_eq!(st.armies[a].xp, 2);
    assert_eq!(st.armies[a].formation, Some(FormationChoice::Light));
    let offered = e.players.last_options(|d| matches!(d, Decision::Formation { .. }));
    assert_eq!(offered.len(), 3, "Light, Assault or Siege");
    e.end_of_season(&mut st);
    assert_eq!(st.armies[a].mp, 2, "Light: +1 movement");
    // Assault: +1 strength in battle order.
    let (w2, mut st2, a2, d2) = armies(3, 3);
    st2.armies[a2].formation = Some(FormationChoice::Assault);
    let mut e2 = w2.engine(&[3, 3], Script::default());
    assert_eq!(e2.army_combat(&mut st2, a2, d2).a.order, 1);
}

#[test]
fn w07_the_siege_formation_takes_one_more_city_pv() {
    let mut lost = Vec::new();
    for formation in [None, Some(FormationChoice::Siege), Some(FormationChoice::Assault)] {
        let (w, mut st, a, city) = siege_setup(3, 1);
        st.armies[a].formation = formation;
        // 3 + 1 engine + die 4 = 8 against 2 + 1 + die 3 = 6: gap 2, -1 PV.
        let mut e = w.engine(&[4, 3], Script::default());
        act(&mut e, &mut st, 0, Action::Siege { army: a as u16, city: city as u16 });
        assert_eq!(combats(&e.log)[0].gap, 2, "{formation:?}");
        lost.push(4 - st.cities[city].pv);
    }
    assert_eq!(lost, vec![1, 2, 1], "Siege: +1 PV against a city; Assault: none");
}

/// P0's army next to P1's capital at (5,3); returns the capital's city index.
fn siege_setup(units: i32, engines: i32) -> (World, State, usize, usize) {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(4, 3), units);
    st.armies[a].engines = engines;
    let city = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
    (w, st, a, city)
}

#[test]
fn w08_a_siege_needs_adjacency_and_an_engine() {
    let (w, mut st, a, city) = siege_setup(3, 0);
    let siege = Action::Siege { army: a as u16, city: city as u16 };
    assert!(!act_options(&w, &st, 0).contains(&siege), "no engine");
    st.armies[a].engines = 1;
    assert!(act_options(&w, &st, 0).contains(&siege));
    // G-20: a garrison must be destroyed first.
    let g = army(&mut st, 1, w.hex(5, 3), 2);
    let opts = act_options(&w, &st, 0);
    assert!(!opts.contains(&siege));
    assert!(opts.contains(&Action::Attack { army: a as u16, target: g as u16 }));
    // Not adjacent: no siege.
    let (w2, mut st2, a2, city2) = siege_setup(3, 1);
    let far = w2.hex(3, 3);
    st2.hexes[st2.armies[a2].hex as usize].army = Slot::EMPTY;
    st2.armies[a2].hex = far;
    st2.hexes[far as usize].army = Slot::of(a2);
    assert!(!act_options(&w2, &st2, 0).contains(&Action::Siege { army: a2 as u16, city: city2 as u16 }));
}

#[test]
fn w09_siege_scores() {
    let (w, mut st, a, city) = siege_setup(4, 2);
    pools(&mut st, 3);
    st.armies[a].xp = 1;
    st.cities[city].level = 3; // counts as 2 (0 to +2)
    st.cities[city].stability = -3; // counts as -1 (-1 to +1)
    let mut e = w.engine(&[5, 4], Script::bids(&[2]));
    let c = e.siege(&mut st, a, city);
    assert_eq!(c.a, ScoreParts { units: 4, xp: 1, bid: 2, engines: 2, die: 5, ..ScoreParts::default() });
    assert_eq!(c.d, ScoreParts { defence: 2, level: 2, stability: -1, die: 4, ..ScoreParts::default() });
    assert_eq!(c.gap, 14 - 7);
}

#[test]
fn w10_siege_table_by_gap() {
    // Attacker 3 units + 1 engine + die; capital defence 2 + level 1 + die.
    // gap = 1 + die_a - die_d.
    for (da, dd, gap, city_pv, army_loss) in
        [(1, 3, -1, 0, 2), (2, 3, 0, 0, 1), (4, 3, 2, 1, 1), (6, 3, 4, 2, 1), (6, 2, 5, 3, 0)]
    {
        let (w, mut st, a, city) = siege_setup(3, 1);
        let pv0 = st.cities[city].pv;
        assert_eq!(pv0, 4, "a level-1 capital starts at 3 + 1 PV");
        let mut e = w.engine(&[da, dd], Script::default());
        let c = e.siege(&mut st, a, city);
        assert_eq!((c.gap, c.d_loss, c.a_loss), (gap, city_pv, army_loss), "dice {da} vs {dd}");
        assert_eq!(st.cities[city].pv, pv0 - city_pv);
        assert_eq!(st.armies[a].units, 3 - army_loss);
    }
}

/// W-10 "-2 unités" against a 1-unit army: the army is destroyed and the
/// record (so the log) says it lost 1 unit, the units it had.
#[test]
fn w10_a_repelled_one_unit_army_loses_the_one_unit_it_had() {
    let (w, mut st, a, city) = siege_setup(1, 1);
    // 1 unit + 1 engine + die 1 = 3 against 2 + 1 + die 4 = 7: gap -4.
    let mut e = w.engine(&[1, 4], Script::default());
    act(&mut e, &mut st, 0, Action::Siege { army: a as u16, city: city as u16 });
    let c = combats(&e.log)[0];
    assert_eq!((c.gap, c.a_loss, c.a_destroyed), (-4, 1, true));
    assert!(!st.armies[a].alive);
}

fn take_city(choice: SiegeChoice) -> (World, State, usize) {
    let (w, mut st, a, city) = siege_setup(3, 1);
    st.cities[city].pv = 1;
    let mut script = Script::default();
    script.outcome = Some(choice);
    let mut e = w.engine(&[6, 1], script);
    let c = e.siege(&mut st, a, city);
    assert!(c.d_destroyed, "the city falls");
    (w, st, city)
}

#[test]
fn w11_conquer_gives_full_control() {
    let (w, st, city) = take_city(SiegeChoice::Conquer);
    let c = &st.cities[city];
    assert_eq!((c.controller.id(), c.influence, c.stability, c.pv), (0, 6, -1, 1));
    assert_eq!(st.hexes[w.hex(5, 3) as usize].owner, empires_core::rules::Owner::of(0));
}

#[test]
fn w11_federate_gives_influence_3() {
    let (w, st, city) = take_city(SiegeChoice::Federate);
    let c = &st.cities[city];
    assert_eq!((c.controller.id(), c.influence, c.stability, c.pv), (0, 3, 0, 2));
    assert_eq!(
        st.hexes[w.hex(5, 3) as usize].owner,
        empires_core::rules::Owner::NOBODY,
        "federated cities carry no banner"
    );
    assert!(st.controls(0, w.hex(5, 3)), "but count for adjacency (G-19)");
}

#[test]
fn w11_pillage_leaves_the_city_neutral_and_pays() {
    let (w, st, city) = take_city(SiegeChoice::Pillage);
    let c = &st.cities[city];
    assert_eq!((c.controller.id(), c.influence, c.stability), (NOBODY, 0, -2));
    let h = &st.hexes[w.hex(5, 3) as usize];
    assert!(h.owner.is_nobody());
    assert_eq!(h.extra, None, "the capital's port is destroyed");
    // +10 loot for the assault won, +30 for "+3 resources".
    assert_eq!(st.players[0].gold, 100 + 10 + 30);
    assert_eq!((st.players[0].tally.gold_loot, st.players[0].tally.cities_taken), (10 + 30, 1));
}

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
    let c = combats(&e.log)[0];
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
    let c = combats(&e.log)[0];
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
    let c = combats(&e.log)[0];
    assert_eq!((c.gap, c.row, c.a_loss, c.d_loss, c.a_destroyed, c.d_destroyed), (0, 0, 1, 1, false, false));
    assert_eq!((st.ships[0].pv, st.ships[1].pv), (2, 2));
    assert_eq!(st.players[0].gold + st.players[1].gold, 200, "a tie loots nothing");
    // Gap 3 (row 3): the loser loses 3 PV, so its only ship sinks, and the
    // winner 1 PV. The logged record comes after the hits and says so.
    let (w, mut st) = fleets(1, 1);
    let mut e = w.engine(&[5, 2], Script::default());
    act(&mut e, &mut st, 0, Action::NavalAttack { from, to });
    let c = combats(&e.log)[0];
    assert_eq!((c.gap, c.row, c.a_loss, c.d_loss), (3, 2, 1, 3));
    assert_eq!((st.ships[0].pv, st.ships[1].pv, st.ships[1].alive), (2, 0, false));
    assert!(c.d_destroyed && !c.a_destroyed);
    let at = |f: fn(&Event) -> bool| e.log.iter().position(f).unwrap();
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
    assert_eq!(combats(&e.log)[0].gap, 0);
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
    let c = combats(&e.log)[0];
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
    let c = combats(&e.log)[0];
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
        e.log.last(),
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

/// P1 owns (4,2) with a castle; P0's spy stands at (3,2).
fn spy_setup() -> (World, State, usize, u16) {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let t = w.hex(4, 2);
    st.hexes[t as usize].owner = empires_core::rules::Owner::of(1);
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
        st.hexes[t as usize].owner = empires_core::rules::Owner::of(1);
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
    let c = e.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!((c.a.total(), c.d.total(), c.gap), (3 + 4, 2 + 2, 3));
    assert!(c.success);
    assert_eq!(st.hexes[t as usize].main_pv, 2);
}

#[test]
fn w21_a_spy_losing_by_1_survives_by_more_dies() {
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[1, 3], Script::default());
    let c = e.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(c.gap, -1);
    assert!(!c.success && st.spies[s].alive);
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[1, 4], Script::default());
    let c = e.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(c.gap, -2);
    assert!(!st.spies[s].alive);
    assert_eq!((st.players[0].tally.spy_lost, st.players[0].tally.spy_success), (1, 0));
    // A tie fails and the spy survives (G-28).
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[2, 3], Script::default());
    let c = e.spy_action(&mut st, s, t, SpyKind::DamageMain);
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
    e.spy_action(&mut st, s1, cap, SpyKind::Destabilize);
    let opts = act_options(&w, &st, 0);
    assert!(
        !opts.iter().any(|x| matches!(x, Action::SpyAct { spy, target, .. } if *spy == s2 as u16 && *target == cap))
    );
    e.end_of_season(&mut st);
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
    let at = |f: fn(&Event) -> bool| e.log.iter().position(f).unwrap();
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
    st.hexes[mine_hex as usize].owner = empires_core::rules::Owner::of(0);
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
    let c = combats(&e.log)[0];
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

// ------------------------------------------------------------------------
// Readings made scenario keys (docs/rules.md, "Readings as keys"): each
// key's two readings, played through the engine's option lists.

/// W-06 read literally (`army.xp_needs_destroyed`): a victory that leaves the
/// enemy army standing gives no experience; one that destroys it does.
#[test]
fn w06_experience_only_for_destroying_the_army_when_read_literally() {
    for literal in [false, true] {
        let w = world(PLAINS, |sc| sc.army.xp_needs_destroyed = literal);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        // 3 + 5 = 8 against 3 + 3 = 6: gap 2, the defender keeps 2 units.
        let mut e = w.engine(&[5, 3], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
        assert!(st.armies[d].alive);
        assert_eq!(st.armies[a].xp, if literal { 0 } else { 1 }, "literal {literal}");
        // Next season the same army destroys a 1-unit army: experience.
        e.end_of_season(&mut st);
        let d2 = army(&mut st, 1, w.hex(2, 1), 1);
        let mut e = w.engine(&[5, 1], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d2 as u16 });
        assert!(!st.armies[d2].alive);
        assert_eq!(st.armies[a].xp, if literal { 1 } else { 2 }, "literal {literal}");
    }
}

/// W-06 read literally, from the defender's side: a defender that wins
/// gains experience only when it destroys the whole attacking army; read
/// as shipped, any victory does. Also the per-player tally of army results
/// (a reported figure) counts one result per battle.
#[test]
fn w06_a_defender_gains_experience_by_the_same_reading() {
    for literal in [false, true] {
        let w = world(PLAINS, |sc| sc.army.xp_needs_destroyed = literal);
        // 3 + 1 = 4 against 3 + 5 = 8: the attacker loses, but keeps units.
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        let mut e = w.engine(&[1, 5], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
        assert!(st.armies[a].alive && st.armies[d].alive);
        assert_eq!(st.armies[d].xp, if literal { 0 } else { 1 }, "literal {literal}");
        assert_eq!(st.armies[a].xp, 0);
        assert_eq!(st.players[0].tally.army_results.iter().sum::<u32>(), 1);
        // 1 + 1 = 2 against 3 + 5 = 8: the 1-unit attacker is destroyed, so
        // the defender gains experience under both readings.
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 1);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        let mut e = w.engine(&[1, 5], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
        assert!(!st.armies[a].alive && st.armies[d].alive);
        assert_eq!(st.armies[d].xp, 1, "literal {literal}");
        // A second battle the same season: the attacker's tally holds two.
        let a2 = army(&mut st, 0, w.hex(2, 1), 3);
        let d2 = army(&mut st, 1, w.hex(3, 1), 3);
        let mut e = w.engine(&[5, 3], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a2 as u16, target: d2 as u16 });
        assert_eq!(st.players[0].tally.army_results.iter().sum::<u32>(), 2, "literal {literal}");
    }
}

/// W-07 Assault "+1 force" in a siege only with
/// `army.formations.assault_in_sieges`.
#[test]
fn w07_assault_counts_in_sieges_only_if_the_scenario_says_so() {
    for (on, order) in [(false, 0), (true, 1)] {
        let (mut w, mut st, a, city) = siege_setup(3, 1);
        w.sc.army.formations.assault_in_sieges = on;
        st.armies[a].formation = Some(FormationChoice::Assault);
        let mut e = w.engine(&[3, 3], Script::default());
        act(&mut e, &mut st, 0, Action::Siege { army: a as u16, city: city as u16 });
        let c = combats(&e.log)[0];
        assert_eq!(c.a.order, order);
        // 3 units + 1 engine + die 3 (+ order) against defence 2 + level 1 + die 3.
        assert_eq!(c.gap, 7 + order - 6);
    }
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
        assert!(matches!(e.log.last(), Some(Event::Transport { fresh, .. }) if *fresh == !keeps));
    }
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
        st.hexes[castle as usize].owner = empires_core::rules::Owner::of(1);
        st.hexes[castle as usize].main = Some(BuildingKind::Castle);
        st.hexes[castle as usize].main_pv = 3;
        let spy_acts = |st: &State| act_options(&w, st, 0).iter().any(|a| matches!(a, Action::SpyAct { .. }));
        assert!(!spy_acts(&st), "limits {limits}");
        let mut fresh = st.clone();
        fresh.spies[mine].moved = false;
        assert!(spy_acts(&fresh), "limits {limits}");
    }
}

/// G-10 for the defender: a defender that wins by destroying the attacking
/// army scores a massacre (also when both armies die, and with
/// `ep.massacre_if_both_destroyed = false` when only the attacker dies); a
/// defender that wins without destroying it gets its gap's result.
#[test]
fn g10_a_defender_that_destroys_the_attacker_scores_a_massacre() {
    // (attacker units, defender units, dice, both key, defender result)
    let cases = [
        (3, 3, [1, 4], true, BattleResult::Minor),     // gap -3, no one destroyed
        (1, 3, [1, 4], true, BattleResult::Massacre),  // gap -5 (major), attacker destroyed
        (1, 1, [1, 3], true, BattleResult::Massacre),  // gap -2, both destroyed
        (1, 3, [1, 4], false, BattleResult::Massacre), // only the attacker destroyed
    ];
    for (ua, ud, dice, both, want) in cases {
        let w = world(PLAINS, |sc| sc.ep.massacre_if_both_destroyed = both);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), ua);
        let d = army(&mut st, 1, w.hex(3, 2), ud);
        let mut e = w.engine(&dice, Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
        let c = combats(&e.log)[0];
        assert!(c.gap < 0);
        assert_eq!((c.a_result, c.d_result), (Some(BattleResult::Defeat), Some(want)), "{ua} vs {ud}, both {both}");
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
    assert_eq!(e.coastal_target(&st, cap), Some((BuildingKind::Port, false)));
    st.hexes[cap as usize].extra = None;
    assert_eq!(e.coastal_target(&st, cap), None, "a city is never a coastal target");
    st.hexes[land as usize].main = Some(BuildingKind::Castle);
    assert_eq!(e.coastal_target(&st, land), Some((BuildingKind::Castle, true)));
    st.hexes[land as usize].main = Some(BuildingKind::Mine);
    assert_eq!(e.coastal_target(&st, land), None, "a mine is no coastal target");
    st.hexes[land as usize].extra = Some(BuildingKind::Tower);
    assert_eq!(e.coastal_target(&st, land), Some((BuildingKind::Tower, false)));
    // The shipped scenario: a castle is no coastal target.
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    st.hexes[land as usize].main = Some(BuildingKind::Castle);
    assert_eq!(w.engine(&[], Script::default()).coastal_target(&st, land), None);
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
    assert!(!e.coastal_guarded(&st, 0, port));
    ship(&mut st, 1, w.hex(4, 3), 3);
    assert!(w.map.are_adjacent(w.hex(4, 3), port));
    assert!(e.coastal_guarded(&st, 0, port));
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
    let c = combats(&e.log)[0];
    assert_eq!((c.gap, c.success, c.a_loss, c.d_loss, c.d_destroyed), (0, false, 1, 1, false));
    assert_eq!(st.hexes[port as usize].extra_pv, 1);
    assert!(e.log.contains(&Event::BuildingPv { hex: port, kind: BuildingKind::Port, pv: 1 }));
    assert_eq!((st.players[0].gold, st.players[1].gold), (100, 100), "a tie loots nothing");
    // Next season, 1 ship + die 4 = 5 against 2 + die 2 = 4: gap 1, the
    // port loses 2 PV and falls; the attacker loots.
    e.end_of_season(&mut st);
    let mut e = w.engine(&[4, 2], Script::default());
    act(&mut e, &mut st, 0, Action::Coastal { from: sea, target: port });
    let c = combats(&e.log)[0];
    assert_eq!((c.gap, c.success, c.d_destroyed), (1, true, true));
    assert_eq!((st.players[0].gold, st.players[1].gold), (110, 100));
    assert!(
        !e.log.iter().any(|x| matches!(x, Event::BuildingPv { .. })),
        "a destroyed building is not logged as damaged"
    );
}

/// W-07 Siege formation: one more city PV lost on a row that damages the
/// city, and none on a row that does not.
#[test]
fn w07_siege_formation_adds_damage_only_where_the_row_does_damage() {
    use empires_core::rules::siege::siege_effect;
    let sc = Scenario::default();
    let extra = sc.army.formations.siege_damage;
    assert!(extra > 0);
    let mut seen = (false, false);
    for gap in -12..=12 {
        let (row, pv, loss) = siege_effect(&sc, gap, false);
        let (row_f, pv_f, loss_f) = siege_effect(&sc, gap, true);
        assert_eq!((row_f, loss_f), (row, loss));
        if pv > 0 {
            assert_eq!(pv_f, pv + extra, "gap {gap}");
            seen.0 = true;
        } else {
            assert_eq!(pv_f, pv, "gap {gap}: no damage, no extra");
            seen.1 = true;
        }
    }
    assert_eq!(seen, (true, true), "both kinds of row are in the table");
}

/// G-10 / G-12 for sieges (`ep.sieges_are_battles`): over every pair of
/// dice and army sizes 1 to 3, a siege won by gap gives the attacker its
/// gap's result and the holder a defeat; one lost gives the holder its
/// gap's result, a massacre if the assault destroyed the army (a lone unit
/// only with `ep.single_unit_massacre`); a tie is a draw for both. Every
/// assault is counted once.
#[test]
fn g10_siege_results_follow_the_gap_and_the_armys_fate() {
    let mut seen = std::collections::BTreeSet::new();
    for single in [true, false] {
        for units in 1..=3 {
            for (da, dd) in (1..=6u8).flat_map(|a| (1..=6u8).map(move |d| (a, d))) {
                let w = world(PLAINS, |sc| sc.ep.single_unit_massacre = single);
                let mut st = w.bare();
                let a = army(&mut st, 0, w.hex(4, 3), units);
                st.armies[a].engines = 1;
                let city = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
                let mut e = w.engine(&[da, dd], Script::default());
                let c = e.siege(&mut st, a, city);
                assert_eq!(st.players[0].tally.sieges, 1);
                let r = |g: i32, destroyed: bool| e.result_for_gap(g, destroyed);
                let want = match c.gap {
                    g if g > 0 => (r(g, false), BattleResult::Defeat),
                    g if g < 0 => (BattleResult::Defeat, r(-g, c.a_destroyed && (single || units > 1))),
                    _ => (r(0, false), r(0, false)),
                };
                let ctx = format!("units {units}, dice {da}/{dd}, gap {}, single {single}", c.gap);
                // W-01: the winner loots, a tie loots nothing.
                let loot = w.sc.siege.victory_loot as i64;
                let gold = (st.players[0].gold - 100, st.players[1].gold - 100);
                let want_gold = match c.gap.signum() {
                    1 => (loot, 0),
                    -1 => (0, loot),
                    _ => (0, 0),
                };
                if !c.d_destroyed {
                    assert_eq!(gold, want_gold, "{ctx}");
                }
                assert_eq!((c.a_result, c.d_result), (Some(want.0), Some(want.1)), "{ctx}");
                seen.insert((c.gap.signum(), c.a_destroyed, units > 1));
            }
        }
    }
    for case in [(1, false, true), (0, false, true), (-1, true, true), (-1, true, false), (-1, false, true)] {
        assert!(seen.contains(&case), "(gap sign, destroyed, several units) {case:?} never came up: {seen:?}");
    }
}

/// G-12 / E-07: a holder that repels a siege by `siege_win_gap` has beaten
/// the attacker this season (here P1 attacks P0's capital).
#[test]
fn g12_a_holder_that_repels_a_siege_has_beaten_the_attacker() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 1, w.hex(2, 1), 3);
    st.armies[a].engines = 1;
    let city = st.hexes[w.hex(1, 1) as usize].city.get().unwrap();
    let mut e = w.engine(&[1, 6], Script::default());
    let c = e.siege(&mut st, a, city);
    assert!(-c.gap >= w.sc.costs.siege_win_gap, "gap {}", c.gap);
    assert_eq!((st.players[0].beaten, st.players[1].beaten), (1 << 1, 0));
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
            .filter(|&k| e.spy_kind_applies(st, h, k))
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
    assert_eq!(e.spy_defence(&st, x, SpyKind::Steal), (w.sc.buildings.tower.defence, 0));
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
    let r = e.spy_action(&mut st, s, cap, SpyKind::Destabilize);
    assert!(r.success);
    assert_eq!(st.cities[c].stability, stab - 1);
    let s2 = spy(&mut st, 0, w.hex(4, 3));
    st.cities[c].hostile = false;
    let mut e = w.engine(&[6, 1], Script::default());
    let r = e.spy_action(&mut st, s2, cap, SpyKind::DamageMain);
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
    e.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(after_combat(&e.log), [Event::BuildingPv { hex: t, kind: BuildingKind::Castle, pv: 2 }]);
    // A tower at 2 PV: damaged to 1, then destroyed.
    let (w, mut st, s, t) = spy_setup();
    st.hexes[t as usize].extra = Some(BuildingKind::Tower);
    st.hexes[t as usize].extra_pv = 2;
    let mut e = w.engine(&[6, 1], Script::default());
    e.spy_action(&mut st, s, t, SpyKind::DamageExtra);
    assert_eq!(after_combat(&e.log), [Event::BuildingPv { hex: t, kind: BuildingKind::Tower, pv: 1 }]);
    let s2 = spy(&mut st, 0, w.hex(3, 2));
    let mut e = w.engine(&[6, 1], Script::default());
    e.spy_action(&mut st, s2, t, SpyKind::DamageExtra);
    assert_eq!(after_combat(&e.log), [Event::BuildingDestroyed { hex: t, kind: BuildingKind::Tower }]);
    // A city destabilized: its values.
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let s = spy(&mut st, 0, w.hex(4, 3));
    let cap = w.hex(5, 3);
    let c = st.hexes[cap as usize].city.get().unwrap();
    let mut e = w.engine(&[6, 1], Script::default());
    e.spy_action(&mut st, s, cap, SpyKind::Destabilize);
    let after = after_combat(&e.log);
    assert!(matches!(after[..], [Event::City { city, .. }] if city as usize == c), "{after:?}");
    // A failed action logs nothing after its line.
    let (w, mut st, s, t) = spy_setup();
    let mut e = w.engine(&[1, 6], Script::default());
    e.spy_action(&mut st, s, t, SpyKind::DamageMain);
    assert_eq!(after_combat(&e.log), []);
}
