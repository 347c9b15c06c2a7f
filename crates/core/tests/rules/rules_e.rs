//! Campaign-layer rules (document 000): E-01 to E-16, each with scripted dice
//! and exact outcomes.

use crate::common::*;
use empires_core::map::Terrain;
use empires_core::rules::{Action, Event, Item, State};
use empires_core::scenario::{BattleResult, BuildingKind};

/// Two armies side by side on plains, away from the capitals:
/// P0's (units_a) at (2,2), P1's (units_d) at (3,2).
fn armies(units_a: i32, units_d: i32) -> (World, empires_core::rules::State, usize, usize) {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), units_a);
    let d = army(&mut st, 1, w.hex(3, 2), units_d);
    (w, st, a, d)
}

#[test]
fn e01_battle_results_give_their_ep() {
    // (attacker units, defender units, attacker die, defender die) -> results.
    let cases = [
        (3, 3, 5, 3, BattleResult::Minor, BattleResult::Defeat, 3, 1), // gap 2
        (3, 3, 4, 4, BattleResult::Draw, BattleResult::Draw, 2, 2),    // gap 0
        (3, 3, 6, 2, BattleResult::Major, BattleResult::Defeat, 4, 1), // gap 4
        (5, 3, 6, 2, BattleResult::Massacre, BattleResult::Defeat, 5, 1), // gap 6
    ];
    for (ua, ud, da, dd, ra, rd, epa, epd) in cases {
        let (w, mut st, a, d) = armies(ua, ud);
        let mut e = w.engine(&[da, dd], Script::bids(&[0, 0]));
        let c = e.army_combat(&mut st, a, d);
        assert_eq!((c.a_result, c.d_result), (Some(ra), Some(rd)), "dice {da} vs {dd}");
        e.engine.earn_ep(&mut st);
        assert_eq!((st.players[0].ep, st.players[1].ep), (epa, epd));
    }
}

#[test]
fn e01_destroying_the_enemy_army_is_a_massacre() {
    // Gap 1 would be a minor victory, but the defender's last unit dies.
    let (w, mut st, a, d) = armies(3, 1);
    let mut e = w.engine(&[3, 5], Script::bids(&[0, 0]));
    // 3 + 3 = 6 against 1 + 5 = 6: a tie; both lose a unit and the defender dies.
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.gap, 0);
    assert!(c.d_destroyed);
    // No one won, so no massacre: a draw for both, 2 EP each.
    assert_eq!((c.a_result, c.d_result), (Some(BattleResult::Draw), Some(BattleResult::Draw)));
    e.engine.earn_ep(&mut st);
    assert_eq!((st.players[0].ep, st.players[1].ep), (2, 2));
    assert_eq!(st.players[0].beaten, 0, "a draw beats no one (E-07)");
    let (w2, mut st2, a2, d2) = armies(3, 1);
    drop(w);
    let mut e2 = w2.engine(&[4, 5], Script::bids(&[0, 0]));
    // 3 + 4 = 7 against 1 + 5 = 6: gap 1, the defender's only unit dies.
    let c2 = e2.army_combat(&mut st2, a2, d2);
    assert_eq!(c2.gap, 1);
    assert!(c2.d_destroyed);
    assert_eq!(c2.a_result, Some(BattleResult::Massacre));
    assert_eq!(c2.d_result, Some(BattleResult::Defeat));
}

#[test]
fn e02_team_members_get_one_ep_less() {
    let rows = ["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p2 ~", "~ p  p p p p  ~", " ~ p  p p p p3 ~", "~ ~  ~ ~ ~ ~  ~"];
    let w = world(&rows, |sc| {
        sc.players[0].team = Some(1);
        sc.players[2].team = Some(1);
    });
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[5, 3], Script::bids(&[0, 0]));
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.a_result, Some(BattleResult::Minor));
    e.engine.earn_ep(&mut st);
    // Team minor victory: 3 - 1 = 2; the lone defender keeps its 1.
    assert_eq!(st.players[0].ep, 2);
    assert_eq!(st.players[1].ep, 1);
}

/// E-02 both ways (`ep.team_shares_battles`): P0 and P2 are a team, P0
/// wins a major victory (gap 4: 4 EP, less the malus 1), P2 fights nothing.
/// Shipped, P2 sits at peace and earns 2 (G-11), as much as P0's minor
/// victory would; read as "chaque membre de l'équipe gagnera", the battle is
/// the team's and P2 earns P0's 3 too. P1, in no team, earns its defeat's 1
/// either way.
#[test]
fn e02_a_teammate_at_peace_earns_peace_or_the_teams_battle() {
    let rows = ["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p2 ~", "~ p  p p p p  ~", " ~ p  p p p p3 ~", "~ ~  ~ ~ ~ ~  ~"];
    for (shares, p2) in [(false, 2), (true, 3)] {
        let w = world(&rows, |sc| {
            sc.players[0].team = Some(1);
            sc.players[2].team = Some(1);
            sc.ep.team_shares_battles = shares;
        });
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        // 3 + 6 = 9 against 3 + 2 = 5: gap 4, a major victory.
        let mut e = w.engine(&[6, 2], Script::bids(&[0, 0]));
        let c = e.army_combat(&mut st, a, d);
        assert_eq!((c.gap, c.a_result), (4, Some(BattleResult::Major)));
        e.engine.earn_ep(&mut st);
        assert_eq!([st.players[0].ep, st.players[1].ep, st.players[2].ep], [3, 1, p2], "shares {shares}");
    }
}

#[test]
fn e03_several_battles_average_rounded_down() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let weak = army(&mut st, 0, w.hex(2, 2), 1);
    let strong = army(&mut st, 0, w.hex(4, 2), 5);
    let target = army(&mut st, 1, w.hex(3, 2), 3);
    // Battle 1: 1 + 1 = 2 against 3 + 6 = 9: defeat (1 EP), the weak army dies.
    // Battle 2: 5 + 5 = 10 against 3 units + 1 xp + 2 = 6: gap 4, major (4 EP).
    let mut e = w.engine(&[1, 6, 5, 2], Script::bids(&[0, 0, 0, 0]));
    let c1 = e.army_combat(&mut st, weak, target);
    let c2 = e.army_combat(&mut st, strong, target);
    assert_eq!(c1.a_result, Some(BattleResult::Defeat));
    assert_eq!(c2.a_result, Some(BattleResult::Major));
    e.engine.earn_ep(&mut st);
    assert_eq!(st.players[0].ep, 2, "(1 + 4) / 2 = 2.5, rounded down");
}

#[test]
fn e04_smallest_empire_spends_first() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let x = w.hex(3, 2);
    st.set_owner(w.hex(2, 2), empires_core::rules::Owner::of(0));
    st.set_owner(w.hex(2, 1), empires_core::rules::Owner::of(0));
    st.set_owner(w.hex(4, 2), empires_core::rules::Owner::of(1));
    // A whole season without battles: 2 EP each (G-11). Both want the hex
    // between them; P1 (size 3) spends before P0 (size 4), in the order the
    // engine set at the start of the season.
    let mut e = w.engine(&[], Script::picks(&[Action::Capture(x), Action::Capture(x)]));
    e.play_season(&mut st);
    assert_eq!(st.order, vec![1, 0]);
    let spenders: Vec<u8> = e
        .engine
        .log
        .iter()
        .filter_map(|ev| if let Event::Spend { player, .. } = ev { Some(*player) } else { None })
        .collect();
    assert_eq!(spenders, vec![1]);
    assert_eq!(st.hexes[x as usize].owner(), empires_core::rules::Owner::of(1));
    assert_eq!(st.players[0].tally.ep_lost, 2);
}

#[test]
fn e05_unspent_ep_are_lost() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    st.players[0].ep = 3;
    let mut e = w.engine(&[], Script::picks(&[Action::Capture(w.hex(2, 1))]));
    e.play_phase(&mut st, empires_core::rules::Step::Spend);
    assert_eq!(st.players[0].ep, 0);
    assert_eq!(st.players[0].tally.ep_capture, 2);
    assert_eq!(st.players[0].tally.ep_lost, 1);
    assert!(e.engine.log.contains(&Event::EpLost { player: 0, ep: 1 }));
}

#[test]
fn e06_capture_costs_2_ep_next_to_your_land() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    st.players[0].ep = 2;
    let opts = spend_options(&w, &st, 0);
    let mut captures: Vec<_> =
        opts.iter().filter_map(|a| if let Action::Capture(h) = a { Some(*h) } else { None }).collect();
    captures.sort();
    let mut expect: Vec<_> = w.map.adjacent(w.hex(1, 1)).filter(|&h| w.map.terrain[h as usize].is_land()).collect();
    expect.sort();
    assert_eq!(captures, expect, "exactly the land hexes next to the capital");
    assert!(!captures.contains(&w.hex(3, 1)));
    let mut e = w.engine(&[], Script::default());
    e.engine.spend(&mut st, 0, Action::Capture(w.hex(2, 1)));
    assert_eq!(st.hexes[w.hex(2, 1) as usize].owner(), empires_core::rules::Owner::of(0));
    assert_eq!(st.players[0].ep, 0);
}

/// P0 at (1,1), P1 at (5,3), a neutral city at (3,2).
const NEUTRAL_CITY: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p pc p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

#[test]
fn e06_a_neutral_city_is_never_captured() {
    let w = world(NEUTRAL_CITY, |_| {});
    let mut st = w.bare();
    let (own, city, plain) = (w.hex(2, 2), w.hex(3, 2), w.hex(2, 3));
    assert!(st.hexes[city as usize].owner().is_nobody() && st.city_at(city).is_some());
    st.set_owner(own, empires_core::rules::Owner::of(0));
    st.players[0].ep = 10;
    let opts = spend_options(&w, &st, 0);
    assert!(opts.contains(&Action::Capture(plain)), "a plain hex next to P0's land");
    assert!(!opts.contains(&Action::Capture(city)), "the city next to it: only by siege");
}

#[test]
fn e07_conquer_needs_battle_won_this_season() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let target = w.hex(2, 1);
    st.set_owner(target, empires_core::rules::Owner::of(1));
    let a = army(&mut st, 0, w.hex(1, 1), 3);
    let d = army(&mut st, 1, target, 1);
    st.players[0].ep = 3;
    assert!(!spend_options(&w, &st, 0).contains(&Action::Conquer(target)), "no battle won yet");
    // 3 + 6 = 9 against 1 + 1 = 2: P0 wins and P1's army on the hex dies.
    let mut e = w.engine(&[6, 1], Script::bids(&[0, 0]));
    e.army_combat(&mut st, a, d);
    assert_eq!(st.players[0].beaten, 1 << 1);
    assert!(spend_options(&w, &st, 0).contains(&Action::Conquer(target)));
    e.engine.spend(&mut st, 0, Action::Conquer(target));
    assert_eq!(st.hexes[target as usize].owner(), empires_core::rules::Owner::of(0));
    assert_eq!(st.players[0].ep, 0, "conquest costs 3 EP");
}

/// E-07 "ce tour": a battle won last season opens no conquest this season
/// (`beaten` is cleared at the end of the season).
#[test]
fn e07_a_battle_won_last_season_allows_no_conquest() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let target = w.hex(2, 1);
    st.set_owner(target, empires_core::rules::Owner::of(1));
    let a = army(&mut st, 0, w.hex(1, 1), 3) as u16;
    let d = army(&mut st, 1, target, 1) as u16;
    let mut e = w.engine(&[6, 1], Script::bids(&[0, 0]));
    act(&mut e, &mut st, 0, Action::Attack { army: a, target: d });
    st.players[0].ep = 3;
    assert!(spend_options(&w, &st, 0).contains(&Action::Conquer(target)), "this season");
    e.engine.end_of_season(&mut st);
    st.players[0].ep = 3;
    assert!(!spend_options(&w, &st, 0).contains(&Action::Conquer(target)), "next season");
}

/// E-07: beating one rival opens conquest against that rival only.
#[test]
fn e07_conquest_only_against_the_rival_beaten() {
    let rows = ["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p2 ~", "~ p  p p p p  ~", " ~ p  p p p p3 ~", "~ ~  ~ ~ ~ ~  ~"];
    let w = world(&rows, |_| {});
    let mut st = w.bare();
    let (of1, of2) = (w.hex(2, 1), w.hex(2, 2));
    assert!(w.map.are_adjacent(of1, w.hex(1, 1)) && w.map.are_adjacent(of2, w.hex(1, 1)));
    st.set_owner(of1, empires_core::rules::Owner::of(1));
    st.set_owner(of2, empires_core::rules::Owner::of(2));
    let a = army(&mut st, 0, w.hex(1, 1), 3) as u16;
    let d = army(&mut st, 1, of1, 1) as u16;
    // 3 + 6 = 9 against 1 + 1 = 2: P0 beats P1, whose army on the hex dies.
    let mut e = w.engine(&[6, 1], Script::bids(&[0, 0]));
    act(&mut e, &mut st, 0, Action::Attack { army: a, target: d });
    st.players[0].ep = 10;
    let opts = spend_options(&w, &st, 0);
    assert!(opts.contains(&Action::Conquer(of1)), "P1 was beaten");
    assert!(!opts.contains(&Action::Conquer(of2)), "P2 was not");
}

#[test]
fn e08_build_costs_1_ep_on_your_hex() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let h = w.hex(2, 2);
    st.set_owner(h, empires_core::rules::Owner::of(0));
    st.players[0].ep = 1;
    let opts = spend_options(&w, &st, 0);
    assert!(opts.contains(&Action::Build { hex: h, kind: BuildingKind::Castle }));
    assert!(!opts.contains(&Action::Build { hex: w.hex(3, 2), kind: BuildingKind::Castle }), "not owned");
    let mut e = w.engine(&[], Script::default());
    e.engine.spend(&mut st, 0, Action::Build { hex: h, kind: BuildingKind::Castle });
    assert_eq!(st.hexes[h as usize].main, Some(BuildingKind::Castle));
    assert_eq!(st.players[0].ep, 0);
}

#[test]
fn e09_pillage_adds_2d6x10_gold() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    st.players[0].ep = 1;
    let mut e = w.engine(&[3, 4], Script::default());
    buy(&mut e, &mut st, 0, Action::Pillage);
    assert_eq!(st.players[0].gold, 100 + 70);
    assert_eq!(st.players[0].tally.gold_pillage, 70);
    assert_eq!(st.players[0].ep, 0);
}

const MOUNTAINS: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 m w r p  ~", "~ p  m p r p  ~", " ~ p  p p r p2 ~", "~ ~  ~ ~ ~ ~  ~"];

#[test]
fn e10_mountains_cost_one_ep_more() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let m = w.hex(2, 1);
    assert_eq!(w.map.terrain[m as usize], Terrain::Mountain);
    let e = w.engine(&[], Script::default());
    assert_eq!(e.engine.take_cost(&st, m, false), 3, "capture 2 + 1");
    assert_eq!(e.engine.take_cost(&st, m, true), 4, "conquer 3 + 1");
    st.players[0].ep = 2;
    assert!(!spend_options(&w, &st, 0).contains(&Action::Capture(m)));
    st.players[0].ep = 3;
    assert!(spend_options(&w, &st, 0).contains(&Action::Capture(m)));
}

#[test]
fn e11_castles_and_cities_cost_one_ep_more_to_conquer() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let (p, m) = (w.hex(3, 2), w.hex(2, 1));
    for h in [p, m] {
        st.set_owner(h, empires_core::rules::Owner::of(1));
        st.hexes[h as usize].main = Some(BuildingKind::Castle);
        st.hexes[h as usize].main_pv = 3;
    }
    let e = w.engine(&[], Script::default());
    assert_eq!(e.engine.take_cost(&st, p, true), 4, "conquer 3 + castle 1");
    assert_eq!(e.engine.take_cost(&st, m, true), 5, "conquer 3 + mountain 1 + castle 1 (E-10 and E-11 stack)");
    // P1's capital city counts too.
    assert_eq!(e.engine.take_cost(&st, w.hex(5, 3), true), 4);
    assert_eq!(e.engine.take_cost(&st, p, false), 2, "the castle surcharge is for conquest only");
}

#[test]
fn e12_a_building_may_be_replaced_by_paying_its_cost() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let r = w.hex(4, 2);
    st.set_owner(r, empires_core::rules::Owner::of(0));
    st.hexes[r as usize].main = Some(BuildingKind::Mine);
    st.hexes[r as usize].main_pv = 1;
    st.players[0].ep = 1;
    let opts = spend_options(&w, &st, 0);
    assert!(opts.contains(&Action::Build { hex: r, kind: BuildingKind::Castle }));
    assert!(!opts.contains(&Action::Build { hex: r, kind: BuildingKind::Mine }), "same building again");
    let mut e = w.engine(&[], Script::default());
    e.engine.spend(&mut st, 0, Action::Build { hex: r, kind: BuildingKind::Castle });
    assert_eq!(st.hexes[r as usize].main, Some(BuildingKind::Castle));
    assert_eq!(st.players[0].ep, 0);
}

#[test]
fn e13_no_castle_on_marsh() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let marsh = w.hex(3, 1);
    assert_eq!(w.map.terrain[marsh as usize], Terrain::Marsh);
    st.set_owner(marsh, empires_core::rules::Owner::of(0));
    st.players[0].ep = 1;
    let opts = spend_options(&w, &st, 0);
    assert!(!opts.contains(&Action::Build { hex: marsh, kind: BuildingKind::Castle }));
    assert!(opts.contains(&Action::Build { hex: marsh, kind: BuildingKind::Tower }));
}

#[test]
fn e14_city_needs_a_castle_and_counts_as_one() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let h = w.hex(3, 2);
    let m = w.hex(2, 2);
    for x in [h, m] {
        st.set_owner(x, empires_core::rules::Owner::of(0));
    }
    st.players[0].ep = 3;
    let opts = spend_options(&w, &st, 0);
    assert!(!opts.contains(&Action::Build { hex: h, kind: BuildingKind::City }), "no castle yet");
    // Castle, then city, in the same season.
    let mut e = w.engine(&[], Script::default());
    e.engine.spend(&mut st, 0, Action::Build { hex: h, kind: BuildingKind::Castle });
    assert!(spend_options(&w, &st, 0).contains(&Action::Build { hex: h, kind: BuildingKind::City }));
    e.engine.spend(&mut st, 0, Action::Build { hex: h, kind: BuildingKind::City });
    assert_eq!(st.hexes[h as usize].main, Some(BuildingKind::City));
    let sizes = empires_core::rules::empire::sizes(w.rules(), &st);
    // Capital (city) + new city + the mountain hex: 3 hexes, 2 castles.
    assert_eq!((sizes[0].hexes, sizes[0].cities, sizes[0].size), (3, 2, 5));
    // Never on mountain: a castle there cannot become a city.
    st.hexes[m as usize].main = Some(BuildingKind::Castle);
    st.hexes[m as usize].main_pv = 3;
    st.players[0].ep = 1;
    assert!(!spend_options(&w, &st, 0).contains(&Action::Build { hex: m, kind: BuildingKind::City }));
}

#[test]
fn e15_mines_on_river_or_mountain_pay_at_payday() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let (plains, river, mountain) = (w.hex(3, 2), w.hex(4, 2), w.hex(2, 2));
    for x in [plains, river, mountain] {
        st.set_owner(x, empires_core::rules::Owner::of(0));
    }
    st.players[0].ep = 3;
    let opts = spend_options(&w, &st, 0);
    assert!(!opts.contains(&Action::Build { hex: plains, kind: BuildingKind::Mine }));
    assert!(opts.contains(&Action::Build { hex: river, kind: BuildingKind::Mine }));
    assert!(opts.contains(&Action::Build { hex: mountain, kind: BuildingKind::Mine }));
    let mut e = w.engine(&[1, 2, 3, 2, 5], Script::default());
    e.engine.spend(&mut st, 0, Action::Build { hex: river, kind: BuildingKind::Mine });
    e.engine.spend(&mut st, 0, Action::Build { hex: mountain, kind: BuildingKind::Mine });
    st.order = vec![0, 1];
    e.engine.payday(&mut st);
    let pays: Vec<(u16, i64)> = e
        .engine
        .log
        .iter()
        .filter_map(|ev| if let Event::Payday { hex, gold, .. } = ev { Some((*hex, *gold)) } else { None })
        .collect();
    assert_eq!(pays.len(), 2);
    let gold: i64 = pays.iter().map(|p| p.1).sum();
    assert_eq!(gold, 60 + 70, "mountain 3D6x10 = (1+2+3)x10, river 2D6x10 = (2+5)x10");
    assert_eq!(st.players[0].gold, 100 + 130);
    assert_eq!(st.players[0].tally.gold_mines, 130, "the tally the reports read");
    assert_eq!(pays.iter().find(|p| p.0 == mountain).unwrap().1, 60);
    assert_eq!(pays.iter().find(|p| p.0 == river).unwrap().1, 70);
}

#[test]
fn e16_gold_buys_army_units() {
    let w = world(PLAINS, |_| {});
    let mut st = w.start();
    let cap = w.hex(1, 1);
    assert!(recruit_options(&w, &st, 0).contains(&Action::Recruit { hex: cap, item: Item::Unit }));
    let mut e = w.engine(&[], Script::default());
    e.engine.recruit(&mut st, 0, cap, Item::Unit);
    assert_eq!(st.armies[st.hexes[cap as usize].army.get().unwrap()].units, 4);
    assert_eq!(st.players[0].gold, 0);
    assert!(recruit_options(&w, &st, 0).is_empty(), "no gold left");
    // With gold again, the capital has already recruited its one item.
    st.players[0].gold = 1000;
    assert!(recruit_options(&w, &st, 0).is_empty(), "one item per hex per season");
    e.engine.end_of_season(&mut st);
    assert!(recruit_options(&w, &st, 0).contains(&Action::Recruit { hex: cap, item: Item::Unit }), "next season");
}

/// G-13 / E-16: ships are recruited only at a port.
#[test]
fn e16_ships_only_at_a_port() {
    let w = world(STRAIT, |_| {});
    let mut st = w.start();
    let cap = w.hex(1, 2);
    st.players[0].gold = 1000;
    assert_eq!(st.hexes[cap as usize].extra, Some(BuildingKind::Port));
    assert!(recruit_options(&w, &st, 0).contains(&Action::Recruit { hex: cap, item: Item::Ship }));
    st.hexes[cap as usize].extra = None;
    let opts = recruit_options(&w, &st, 0);
    assert!(opts.contains(&Action::Recruit { hex: cap, item: Item::Unit }), "the city still recruits");
    assert!(!opts.contains(&Action::Recruit { hex: cap, item: Item::Ship }), "no port, no ship");
}

#[test]
fn e10_capturing_a_mountain_in_play_costs_3_ep() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let m = w.hex(2, 2);
    assert_eq!(w.map.terrain[m as usize], Terrain::Mountain);
    st.players[0].ep = 3;
    let mut e = w.engine(&[], Script::default());
    buy(&mut e, &mut st, 0, Action::Capture(m));
    assert_eq!(st.hexes[m as usize].owner(), empires_core::rules::Owner::of(0));
    assert!(matches!(e.engine.log.last(), Some(Event::Spend { cost: 3, ep_left: 0, .. })));
}

#[test]
fn e11_conquering_a_castle_on_a_mountain_in_play_costs_5_ep() {
    let w = world(MOUNTAINS, |_| {});
    let mut st = w.bare();
    let m = w.hex(2, 1);
    assert_eq!(w.map.terrain[m as usize], Terrain::Mountain);
    st.set_owner(m, empires_core::rules::Owner::of(1));
    st.hexes[m as usize].main = Some(BuildingKind::Castle);
    st.hexes[m as usize].main_pv = 3;
    st.players[0].beaten = 1 << 1;
    st.players[0].ep = 4;
    assert!(!spend_options(&w, &st, 0).contains(&Action::Conquer(m)), "3 + mountain 1 + castle 1 = 5 > 4");
    st.players[0].ep = 5;
    let mut e = w.engine(&[], Script::default());
    buy(&mut e, &mut st, 0, Action::Conquer(m));
    assert_eq!(st.hexes[m as usize].owner(), empires_core::rules::Owner::of(0));
    assert_eq!(st.hexes[m as usize].main, Some(BuildingKind::Castle), "the castle changes hands");
    assert!(matches!(e.engine.log.last(), Some(Event::Spend { cost: 5, ep_left: 0, .. })));
}

// ------------------------------------------------------------------------
// Readings made scenario keys (docs/rules.md, "Readings as keys").

/// E-07 / W-11 (`costs.conquer_cities`): after beating P1, P0 may conquer
/// P1's capital with EP, or, with the key off, only P1's other hexes.
#[test]
fn e07_cities_change_hands_only_by_siege_when_the_scenario_says_so() {
    for conquer_cities in [true, false] {
        let w = world(PLAINS, |sc| sc.costs.conquer_cities = conquer_cities);
        let mut st = w.bare();
        let (camp, field, capital) = (w.hex(4, 3), w.hex(5, 2), w.hex(5, 3));
        st.set_owner(camp, empires_core::rules::Owner::of(0));
        st.set_owner(field, empires_core::rules::Owner::of(1));
        let a = army(&mut st, 0, camp, 3) as u16;
        let d = army(&mut st, 1, field, 1) as u16;
        let mut e = w.engine(&[6, 1], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a, target: d });
        st.players[0].ep = 10;
        let opts = spend_options(&w, &st, 0);
        assert!(opts.contains(&Action::Conquer(field)), "a plain hex of P1");
        assert_eq!(opts.contains(&Action::Conquer(capital)), conquer_cities, "P1's capital city");
    }
}

/// G-10 (`ep.single_unit_massacre`): destroying a 1-unit army at gap 1 is a
/// massacre, or, with the key off, the gap's minor victory.
#[test]
fn g10_destroying_a_single_unit_is_a_massacre_only_if_the_scenario_says_so() {
    for single in [true, false] {
        let w = world(PLAINS, |sc| sc.ep.single_unit_massacre = single);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3) as u16;
        let d = army(&mut st, 1, w.hex(3, 2), 1) as u16;
        // 3 + 4 = 7 against 1 + 5 = 6: gap 1, the defender's only unit dies.
        let mut e = w.engine(&[4, 5], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a, target: d });
        let c = combats(&e.engine.log)[0];
        assert!(c.d_destroyed);
        let want = if single { BattleResult::Massacre } else { BattleResult::Minor };
        assert_eq!(c.a_result, Some(want), "single {single}");
        e.engine.earn_ep(&mut st);
        assert_eq!(st.players[0].ep, if single { 5 } else { 3 });
    }
    // A 2-unit army destroyed (a loss table where the loser of gaps 1-3
    // loses 2) is a massacre with the key off too.
    let w = world(PLAINS, |sc| {
        sc.ep.single_unit_massacre = false;
        sc.army.losses.rows[1].loser_loss = 2;
    });
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3) as u16;
    let d = army(&mut st, 1, w.hex(3, 2), 2) as u16;
    // 3 + 4 = 7 against 2 + 4 = 6: gap 1, both of the defender's units die.
    let mut e = w.engine(&[4, 4], Script::default());
    act(&mut e, &mut st, 0, Action::Attack { army: a, target: d });
    let c = combats(&e.engine.log)[0];
    assert_eq!((c.gap, c.d_loss, c.d_destroyed, c.a_result), (1, 2, true, Some(BattleResult::Massacre)));
}

/// E-04 read literally (`campaign.reorder_before_spending`): P1, the smaller
/// empire at payday, takes P0's capital in the action phase; with the key
/// the engine orders the spending again and P0, now the smaller, spends
/// first; without it the payday order stands (G-03).
#[test]
fn e04_the_order_is_set_again_before_spending_when_the_scenario_says_so() {
    for reorder in [false, true] {
        let w = world(PLAINS, |sc| sc.campaign.reorder_before_spending = reorder);
        let mut st = w.bare();
        let capital = w.hex(1, 1);
        st.set_owner(w.hex(2, 1), empires_core::rules::Owner::of(0));
        let city = st.hexes[capital as usize].city.get().unwrap();
        st.cities[city].pv = 1;
        let a = army(&mut st, 1, w.hex(2, 2), 10);
        st.armies[a].engines = 2;
        // P0: capital (2) + 1 hex = 3; P1: capital (2). P1 goes first. The
        // assault (10 units + 2 engines + 6 against 2 + 1 + 1) takes the
        // city, which P1 conquers: P0 is left with 1, P1 has 4.
        let siege = Action::Siege { army: a as u16, city: city as u16 };
        let mut e = w.engine(&[6, 1], Script::picks(&[siege]));
        e.play_season(&mut st);
        assert!(st.hexes[capital as usize].owner().is(1), "the capital fell to P1");
        let orders: Vec<u8> = e
            .engine
            .log
            .iter()
            .filter_map(|ev| if let Event::Order { player, .. } = ev { Some(*player) } else { None })
            .collect();
        let spenders: Vec<u8> = e
            .engine
            .log
            .iter()
            .filter_map(|ev| if let Event::EpLost { player, .. } = ev { Some(*player) } else { None })
            .collect();
        if reorder {
            assert_eq!(orders, vec![1, 0, 0, 1], "the payday order, then the spending order");
            assert_eq!(spenders, vec![0, 1]);
        } else {
            assert_eq!(orders, vec![1, 0]);
            assert_eq!(spenders, vec![1, 0]);
        }
    }
}

/// E-01: each battle's result is counted for both sides (the tallies the
/// reports read): a win and a loss, then a draw for each.
#[test]
fn e01_each_battle_counts_a_win_a_loss_or_a_draw() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    // 3 + 5 against 3 + 3: gap 2, P0 wins.
    let mut e = w.engine(&[5, 3], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert!(c.success, "the attacker won");
    let t = |st: &State, p: usize| {
        let t = st.players[p].tally;
        (t.battles_won, t.battles_drawn, t.battles_lost)
    };
    assert_eq!((t(&st, 0), t(&st, 1)), ((1, 0, 0), (0, 0, 1)));
    // Next season, a tie: 2 units + 1 XP + 3 against 2 units + 4.
    e.engine.end_of_season(&mut st);
    let mut e = w.engine(&[3, 4], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!((c.gap, c.success), (0, false), "a tie is no success");
    assert_eq!((t(&st, 0), t(&st, 1)), ((1, 1, 0), (0, 1, 1)));
    // A third season, a loss: 2 units + 1 XP + 1 against 2 units + 6.
    e.engine.end_of_season(&mut st);
    let mut e = w.engine(&[1, 6], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert!(c.gap < 0 && !c.success);
    assert_eq!((t(&st, 0), t(&st, 1)), ((1, 1, 1), (1, 1, 1)));
}

/// E-09: pillage is offered only to a player with its EP cost.
#[test]
fn e09_pillage_is_offered_from_its_cost_on() {
    let w = world(PLAINS, |sc| sc.costs.pillage = 2);
    let mut st = w.bare();
    st.players[0].ep = 1;
    assert!(!spend_options(&w, &st, 0).contains(&Action::Pillage));
    st.players[0].ep = 2;
    assert!(spend_options(&w, &st, 0).contains(&Action::Pillage));
}

/// E-05..E-09: each purchase is counted by its kind (the tallies the
/// reports read) and logged with what it made of the hex; a player who
/// spends every EP loses none, and no "EP lost" line is written for it.
#[test]
fn e05_each_purchase_is_counted_by_kind_and_logged() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let (free, won, castle) = (w.hex(2, 2), w.hex(2, 1), w.hex(1, 2));
    for h in [castle] {
        st.set_owner(h, empires_core::rules::Owner::of(0));
    }
    st.set_owner(won, empires_core::rules::Owner::of(1));
    st.players[0].beaten = 1 << 1;
    // Capture 2 + conquer 3 + castle 1 + pillage 1.
    st.players[0].ep = 7;
    let mut e = w.engine(&[2, 3], Script::default());
    buy(&mut e, &mut st, 0, Action::Capture(free));
    buy(&mut e, &mut st, 0, Action::Conquer(won));
    buy(&mut e, &mut st, 0, Action::Build { hex: castle, kind: BuildingKind::Castle });
    buy(&mut e, &mut st, 0, Action::Pillage);
    let t = st.players[0].tally;
    assert_eq!((t.ep_capture, t.ep_conquer, t.ep_build, t.ep_pillage, t.gold_pillage), (2, 3, 1, 1, 50));
    assert!(e.engine.log.contains(&Event::BuildingPv { hex: castle, kind: BuildingKind::Castle, pv: 3 }));
    st.order = vec![0, 1];
    let mut e = w.engine(&[], Script::default());
    e.play_phase(&mut st, empires_core::rules::Step::Spend);
    assert_eq!(st.players[0].tally.ep_lost, 0);
    assert!(!e.engine.log.iter().any(|x| matches!(x, Event::EpLost { .. })), "nothing lost, nothing logged");
}

/// E-07 / E-08: conquering a city hex and building a city log the city as
/// it stands after the purchase.
#[test]
fn e07_a_conquered_or_built_city_is_logged() {
    let w = world(PLAINS, |sc| sc.costs.conquer_cities = true);
    let mut st = w.bare();
    let cap1 = w.hex(5, 3);
    let city1 = st.hexes[cap1 as usize].city.get().unwrap();
    st.set_owner(w.hex(4, 3), empires_core::rules::Owner::of(0));
    st.players[0].beaten = 1 << 1;
    st.players[0].ep = 10;
    let mut e = w.engine(&[], Script::default());
    buy(&mut e, &mut st, 0, Action::Conquer(cap1));
    assert!(
        matches!(e.engine.log.last(), Some(Event::City { city, controller: 0, banner: 0, .. }) if *city as usize == city1),
        "{:?}",
        e.engine.log.last()
    );
    let x = w.hex(2, 2);
    st.set_owner(x, empires_core::rules::Owner::of(0));
    st.hexes[x as usize].main = Some(BuildingKind::Castle);
    st.hexes[x as usize].main_pv = 3;
    buy(&mut e, &mut st, 0, Action::Build { hex: x, kind: BuildingKind::City });
    assert!(
        matches!(e.engine.log.last(), Some(Event::City { hex, controller: 0, .. }) if *hex == x),
        "{:?}",
        e.engine.log.last()
    );
}
