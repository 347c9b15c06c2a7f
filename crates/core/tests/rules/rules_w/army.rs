//! Army combat (document 003): loot (W-01), the army score and losses
//! (W-02, W-03), the initiative cap (W-04), garrisons (W-05), experience
//! (W-06) and formations (W-07), with scripted dice and exact outcomes.

use super::siege::siege_setup;
use crate::common::*;
use empires_core::rules::{Action, Decision, ScoreParts, State};
use empires_core::scenario::{BattleResult, BuildingKind, FormationChoice, Scenario};

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
    let c = combats(&e.engine.log)[0];
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
    st.set_owner(h as u16, empires_core::rules::Owner::of(1));
    st.hexes[h].main = Some(BuildingKind::Castle);
    st.hexes[h].main_pv = 3;
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.d.defence, 2);
    assert_eq!((c.a.total(), c.d.total()), (6, 8));
    // An enemy castle gives nothing: the garrison must be the owner's.
    st.set_owner(h as u16, empires_core::rules::Owner::of(0));
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
        let c = combats(&e.engine.log)[0];
        assert_eq!(c.d.defence, defence, "garrison {garrison}, ally {ally}");
    }
}

/// W-05 names no side (`army.garrison_attacks`): an army attacking out of
/// its own castle adds the castle's defence only when the scenario says
/// so, while a defender's castle counts under both readings.
#[test]
fn w05_a_garrison_counts_in_attacks_only_if_the_scenario_says_so() {
    use empires_core::rules::Owner;
    // (key, defender in a castle too) -> (attacker defence, gap, units left
    // attacker/defender, attacker's result)
    let cases = [
        // 3 + die 5 = 8 against 3 + 3 = 6: gap 2, each side -1.
        (false, false, 0, 2, (2, 2), BattleResult::Minor),
        // 3 + castle 2 + 5 = 10 against 6: gap 4, the attacker loses none.
        (true, false, 2, 4, (3, 2), BattleResult::Major),
        // 8 against 3 + castle 2 + 3 = 8: a draw, each side -1.
        (false, true, 0, 0, (2, 2), BattleResult::Draw),
        // 10 against 8: gap 2.
        (true, true, 2, 2, (2, 2), BattleResult::Minor),
    ];
    for (on, walled, defence, gap, units, result) in cases {
        let w = world(PLAINS, |sc| sc.army.garrison_attacks = on);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        let castles = if walled { vec![(a, 0), (d, 1)] } else { vec![(a, 0)] };
        for (piece, owner) in castles {
            let h = st.armies[piece].hex;
            st.set_owner(h, Owner::of(owner));
            st.hexes[h as usize].main = Some(BuildingKind::Castle);
            st.hexes[h as usize].main_pv = 3;
        }
        let mut e = w.engine(&[5, 3], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
        let c = combats(&e.engine.log)[0];
        let case = format!("garrison_attacks {on}, defender walled {walled}");
        assert_eq!((c.a.defence, c.d.defence), (defence, if walled { 2 } else { 0 }), "{case}");
        assert_eq!(c.gap, gap, "{case}");
        assert_eq!((st.armies[a].units, st.armies[d].units), units, "{case}");
        assert_eq!(c.a_result, Some(result), "{case}");
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
    e.engine.end_of_season(&mut st);
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
    e.engine.end_of_season(&mut st);
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
        assert_eq!(combats(&e.engine.log)[0].gap, 2, "{formation:?}");
        lost.push(4 - st.cities[city].pv);
    }
    assert_eq!(lost, vec![1, 2, 1], "Siege: +1 PV against a city; Assault: none");
}

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
        e.engine.end_of_season(&mut st);
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
        let c = combats(&e.engine.log)[0];
        assert_eq!(c.a.order, order);
        // 3 units + 1 engine + die 3 (+ order) against defence 2 + level 1 + die 3.
        assert_eq!(c.gap, 7 + order - 6);
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
        let c = combats(&e.engine.log)[0];
        assert!(c.gap < 0);
        assert_eq!((c.a_result, c.d_result), (Some(BattleResult::Defeat), Some(want)), "{ua} vs {ud}, both {both}");
    }
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
