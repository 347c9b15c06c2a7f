//! Sieges (document 003): adjacency and engines (W-08), the siege score
//! (W-09), the siege table (W-10) and what taking a city gives (W-11),
//! with scripted dice and exact outcomes.

use crate::common::*;
use empires_core::rules::state::{NOBODY, Slot};
use empires_core::rules::{Action, ScoreParts, State};
use empires_core::scenario::{BattleResult, SiegeChoice};

/// P0's army next to P1's capital at (5,3); returns the capital's city index.
pub(super) fn siege_setup(units: i32, engines: i32) -> (World, State, usize, usize) {
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
    let c = combats(&e.engine.log)[0];
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
    assert_eq!(st.hexes[w.hex(5, 3) as usize].owner(), empires_core::rules::Owner::of(0));
}

#[test]
fn w11_federate_gives_influence_3() {
    let (w, st, city) = take_city(SiegeChoice::Federate);
    let c = &st.cities[city];
    assert_eq!((c.controller.id(), c.influence, c.stability, c.pv), (0, 3, 0, 2));
    assert_eq!(
        st.hexes[w.hex(5, 3) as usize].owner(),
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
    assert!(h.owner().is_nobody());
    assert_eq!(h.extra, None, "the capital's port is destroyed");
    // +10 loot for the assault won, +30 for "+3 resources".
    assert_eq!(st.players[0].gold, 100 + 10 + 30);
    assert_eq!((st.players[0].tally.gold_loot, st.players[0].tally.cities_taken), (10 + 30, 1));
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
                let r = |g: i32, destroyed: bool| e.engine.result_for_gap(g, destroyed);
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
