//! G defaults: each is a scenario value, and changing it changes play.

use crate::common::*;
use empires::rules::{Action, Event};
use empires::scenario::{BattleResult, DiceExpr, ResultRow};

#[test]
fn g11_no_battle_ep_is_scenario_data() {
    for (value, expect) in [(2, 2), (0, 0), (3, 3)] {
        let w = world(PLAINS, |sc| sc.ep.no_battle = value);
        let mut st = w.bare();
        let mut e = w.engine(&[], Script::default());
        e.earn_ep(&mut st);
        assert_eq!(st.players[0].ep, expect);
        assert!(e.log.contains(&Event::Ep { player: 0, battles: 0, sum: 0, earned: expect }));
    }
}

#[test]
fn g25_naval_strength_read_as_2n_minus_1() {
    // Three ships against one: n reading 3 vs 1, 2n-1 reading 5 vs 1.
    for (per_ship, offset, a, d) in [(1, 0, 3, 1), (2, -1, 5, 1)] {
        let w = world(STRAIT, |sc| {
            sc.naval.strength_per_ship = per_ship;
            sc.naval.strength_offset = offset;
        });
        let mut st = w.bare();
        for _ in 0..3 {
            ship(&mut st, 0, w.hex(2, 2), 3);
        }
        ship(&mut st, 1, w.hex(3, 2), 3);
        let mut e = w.engine(&[1, 6], Script::default());
        let c = e.naval_combat(&mut st, 0, w.hex(2, 2), w.hex(3, 2));
        assert_eq!((c.a.strength, c.d.strength), (a, d));
        assert_eq!(c.gap, a + 1 - (d + 6));
    }
}

#[test]
fn g10_result_thresholds_are_a_table() {
    // Make every gap of 2 or more a major victory.
    let w = world(PLAINS, |sc| {
        let row = |from, to, result| ResultRow { from, to, result };
        sc.ep.result_by_gap = empires::scenario::GapTable::new(vec![
            row(Some(0), Some(0), BattleResult::Draw),
            row(Some(1), Some(1), BattleResult::Minor),
            row(Some(2), None, BattleResult::Major),
        ]);
    });
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[5, 3], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!((c.gap, c.a_result), (2, Some(BattleResult::Major)));
}

#[test]
fn g07_initiative_pool_and_caps_are_scenario_data() {
    let w = world(PLAINS, |sc| {
        sc.initiative.pool = 6;
        sc.army.bid_cap = 5;
    });
    let mut st = w.bare();
    for p in st.players.iter_mut() {
        p.initiative = w.sc.initiative.pool;
    }
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[3, 3], Script::bids(&[5, 0]));
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.a.bid, 5);
    assert_eq!(st.players[0].initiative, 1);
}

#[test]
fn g13_recruit_costs_are_scenario_data() {
    let w = world(PLAINS, |sc| sc.recruit.unit = 40);
    let mut st = w.start();
    let mut e = w.engine(&[], Script::default());
    e.recruit(&mut st, 0, w.hex(1, 1), empires::rules::Item::Unit);
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
fn g05_the_combat_die_is_scenario_data() {
    let w = world(PLAINS, |sc| sc.combat.die = DiceExpr::new(1, 10, 1));
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[10, 1], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.gap, 9);
}

#[test]
fn g17_g18_cities_recover_in_peace() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let c = st.hexes[w.hex(5, 3) as usize].city as usize;
    st.cities[c].pv = 1;
    st.cities[c].stability = -2;
    let mut e = w.engine(&[], Script::default());
    e.end_of_season(&mut st);
    assert_eq!((st.cities[c].pv, st.cities[c].stability), (2, -1));
    // A besieged city does not recover.
    st.cities[c].besieged = true;
    e.end_of_season(&mut st);
    assert_eq!((st.cities[c].pv, st.cities[c].stability), (2, -1));
}

#[test]
fn g24_starting_position() {
    let w = world(STRAIT, |sc| sc.start.army_units = 4);
    let st = w.start();
    let cap = w.hex(1, 2);
    assert_eq!(st.hexes[cap as usize].owner, 0);
    assert_eq!(st.armies[st.hexes[cap as usize].army as usize].units, 4);
    assert_eq!(st.players[0].gold, 100);
    assert_eq!(st.spies.iter().filter(|s| s.owner == 0).count(), 1);
    assert_eq!(st.hexes[cap as usize].extra, Some(empires::scenario::BuildingKind::Port), "coastal capital");
    assert_eq!(st.cities[st.hexes[cap as usize].city as usize].level, 1);
}

#[test]
fn g02_domination_share_ends_the_campaign() {
    let w = world(PLAINS, |sc| sc.campaign.land_share_to_win = 0.2);
    let mut st = w.bare();
    let e = w.engine(&[], Script::default());
    assert_eq!(e.end_check(&st), None);
    // 15 land hexes: 0.2 x 15 = 3 hexes win.
    st.hexes[w.hex(2, 1) as usize].owner = 0;
    st.hexes[w.hex(3, 1) as usize].owner = 0;
    assert_eq!(e.end_check(&st), Some(empires::rules::EndReason::Domination));
}

#[test]
fn g03_ranking_breaks_ties_by_cities_then_castles_then_die() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    // Equal size 4: P0 has a castle hex (2 + 2), P1 has two plain hexes (2 + 1 + 1).
    let h = w.hex(2, 1);
    st.hexes[h as usize].owner = 0;
    st.hexes[h as usize].main = Some(empires::scenario::BuildingKind::Castle);
    st.hexes[h as usize].main_pv = 3;
    st.hexes[w.hex(4, 3) as usize].owner = 1;
    st.hexes[w.hex(5, 2) as usize].owner = 1;
    let mut e = w.engine(&[], Script::default());
    let r = e.ranking(&st, true);
    assert_eq!((r[0].player, r[0].size.size, r[1].size.size), (0, 4, 4), "same cities, P0 has more castles");
    assert!(!r[0].tie);
    // Fully equal: the die decides and the tie is recorded.
    st.hexes[h as usize].main = None;
    st.hexes[w.hex(5, 2) as usize].owner = 255;
    let mut e = w.engine(&[2, 5], Script::default());
    let r = e.ranking(&st, true);
    assert_eq!(r[0].player, 1);
    assert!(r[0].tie && r[1].tie);
}

#[test]
fn g12_a_siege_with_gap_1_wins_the_battle_for_conquest() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(4, 3), 3);
    st.armies[a].engines = 1;
    let city = st.hexes[w.hex(5, 3) as usize].city as usize;
    // 3 + 1 + 3 = 7 against 2 + 1 + 3 = 6: gap 1.
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.siege(&mut st, a, city);
    assert_eq!(c.gap, 1);
    assert_eq!(st.players[0].beaten, 1 << 1);
    st.hexes[w.hex(4, 3) as usize].owner = 0;
    st.players[0].ep = 4;
    assert!(spend_options(&w, &st, 0).contains(&Action::Conquer(w.hex(5, 3))));
}
