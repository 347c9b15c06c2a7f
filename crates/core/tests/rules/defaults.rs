//! G defaults: each is a scenario value, and changing it changes play.

use crate::common::*;
use empires_core::map::Terrain;
use empires_core::rules::empire::{Size, sizes};
use empires_core::rules::state::{NOBODY, Slot};
use empires_core::rules::{Action, CombatKind, Decision, Event, Item, SpyKind, State, Step};
use empires_core::scenario::{
    BattleResult, BuildingKind, CityStats, DiceExpr, FormationChoice, GenerateSpec, ResultRow, Scenario, SiegeChoice,
};

#[test]
fn g11_no_battle_ep_is_scenario_data() {
    for (value, expect) in [(2, 2), (0, 0), (3, 3)] {
        let w = world(PLAINS, |sc| sc.ep.no_battle = value);
        let mut st = w.bare();
        let mut e = w.engine(&[], Script::default());
        e.earn_ep(&mut st);
        assert_eq!(st.players[0].ep, expect);
        assert_eq!(st.players[0].tally.ep_earned, expect as i64, "the tally the reports read");
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
        sc.ep.result_by_gap = empires_core::scenario::GapTable::new(vec![
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
    e.recruit(&mut st, 0, w.hex(1, 1), empires_core::rules::Item::Unit);
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
    let c = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
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
    assert_eq!(st.hexes[cap as usize].owner, empires_core::rules::Owner::of(0));
    assert_eq!(st.armies[st.hexes[cap as usize].army.get().unwrap()].units, 4);
    assert_eq!(st.players[0].gold, 100);
    assert_eq!(st.spies.iter().filter(|s| s.owner == 0).count(), 1);
    assert_eq!(st.hexes[cap as usize].extra, Some(empires_core::scenario::BuildingKind::Port), "coastal capital");
    assert_eq!(st.cities[st.hexes[cap as usize].city.get().unwrap()].level, 1);
}

#[test]
fn g02_domination_share_ends_the_campaign() {
    let w = world(PLAINS, |sc| sc.campaign.land_share_to_win = 0.2);
    let mut st = w.bare();
    let e = w.engine(&[], Script::default());
    assert_eq!(e.end_check(&st), None);
    // 15 land hexes: 0.2 x 15 = 3 hexes win.
    st.hexes[w.hex(2, 1) as usize].owner = empires_core::rules::Owner::of(0);
    st.hexes[w.hex(3, 1) as usize].owner = empires_core::rules::Owner::of(0);
    assert_eq!(e.end_check(&st), Some(empires_core::rules::EndReason::Domination));
}

#[test]
fn g03_ranking_breaks_ties_by_cities_then_castles_then_die() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    // Equal size 4: P0 has a castle hex (2 + 2), P1 has two plain hexes (2 + 1 + 1).
    let h = w.hex(2, 1);
    st.hexes[h as usize].owner = empires_core::rules::Owner::of(0);
    st.hexes[h as usize].main = Some(empires_core::scenario::BuildingKind::Castle);
    st.hexes[h as usize].main_pv = 3;
    st.hexes[w.hex(4, 3) as usize].owner = empires_core::rules::Owner::of(1);
    st.hexes[w.hex(5, 2) as usize].owner = empires_core::rules::Owner::of(1);
    let mut e = w.engine(&[], Script::default());
    let r = e.ranking(&st, true);
    assert_eq!((r[0].player, r[0].size.size, r[1].size.size), (0, 4, 4), "same cities, P0 has more castles");
    assert!(!r[0].tie);
    // Fully equal: the die decides and the tie is recorded.
    st.hexes[h as usize].main = None;
    st.hexes[w.hex(5, 2) as usize].owner = empires_core::rules::Owner::NOBODY;
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
    let city = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
    // 3 + 1 + 3 = 7 against 2 + 1 + 3 = 6: gap 1.
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.siege(&mut st, a, city);
    assert_eq!(c.gap, 1);
    assert_eq!(st.players[0].beaten, 1 << 1);
    st.hexes[w.hex(4, 3) as usize].owner = empires_core::rules::Owner::of(0);
    st.players[0].ep = 4;
    assert!(spend_options(&w, &st, 0).contains(&Action::Conquer(w.hex(5, 3))));
}

/// The step of the season (G-01) an event belongs to.
fn step(e: &Event) -> &'static str {
    match e {
        Event::SeasonStart { .. } => "season",
        Event::Order { .. } => "order",
        Event::TieBreak { .. } => "tie_break",
        Event::Payday { .. } => "payday",
        Event::Recruit { .. } => "recruit",
        Event::Move { .. } | Event::Transport { .. } => "move",
        Event::Combat(_) => "combat",
        Event::Loot { .. } => "loot",
        Event::Xp { .. } => "xp",
        Event::Formation { .. } => "formation",
        Event::Hit { .. } => "hit",
        Event::ShipRepaired { .. } => "repaired",
        Event::City { .. } => "city",
        Event::BuildingPv { .. } => "building",
        Event::CityTaken { .. } => "city_taken",
        Event::Ep { .. } => "ep",
        Event::Spend { .. } => "spend",
        Event::EpLost { .. } => "ep_lost",
        Event::BuildingDestroyed { .. } => "destroyed",
        Event::Eliminated { .. } => "eliminated",
        Event::End { .. } => "end",
        Event::Standing { .. } => "standing",
    }
}

/// PLAINS with a river mine at (2,1).
const MINE_MAP: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 rn p p p  ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

#[test]
fn g01_season_order_payday_recruit_act_ep_spend_end() {
    let w = world(MINE_MAP, |_| {});
    let mut st = w.bare();
    let (cap0, mine, x) = (w.hex(1, 1), w.hex(2, 1), w.hex(2, 2));
    assert_eq!(st.hexes[mine as usize].main, Some(BuildingKind::Mine));
    st.hexes[mine as usize].owner = empires_core::rules::Owner::of(0);
    let a = army(&mut st, 0, x, 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let city1 = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
    st.cities[city1].pv = 2;
    // Mine 2D6x10 = (3+4)x10; combat 3 + 5 against 3 + 3: gap 2, a minor victory.
    let script = Script::picks(&[
        Action::Recruit { hex: cap0, item: Item::Unit },
        Action::Attack { army: a as u16, target: d as u16 },
        Action::Capture(x),
    ]);
    let mut e = w.engine(&[3, 4, 5, 3], script);
    assert_eq!(e.play_season(&mut st), None);
    assert_eq!(e.dice.remaining(), 0);
    let steps: Vec<&str> = e.log.iter().map(step).collect();
    assert_eq!(
        steps,
        [
            "season", "order", "order", "payday", "recruit", "combat", "xp", "loot", "ep", "ep", "ep_lost", "spend",
            "ep_lost", "city"
        ]
    );
    let log = &e.log;
    assert_eq!(log[0], Event::SeasonStart { season: 1 });
    // P1 (size 2) before P0 (capital 2 + mine hex 1), once for the whole season.
    assert_eq!(log[1], Event::Order { pos: 0, player: 1, size: 2 });
    assert_eq!(log[2], Event::Order { pos: 1, player: 0, size: 3 });
    assert_eq!(log[3], Event::Payday { player: 0, hex: mine, faces: 7, gold: 70, sabotaged: false });
    // A new army (ids 0 and 1 are taken) at the capital.
    assert_eq!(log[4], Event::Recruit { player: 0, hex: cap0, item: Item::Unit, cost: 100, piece: 2, at: cap0 });
    let c = combats(log)[0];
    assert_eq!((c.attacker, c.gap, c.a_loss, c.d_loss), (0, 2, 1, 1));
    assert_eq!(log[8], Event::Ep { player: 0, battles: 1, sum: 3, earned: 3 });
    assert_eq!(log[9], Event::Ep { player: 1, battles: 1, sum: 1, earned: 1 });
    assert_eq!(log[10], Event::EpLost { player: 1, ep: 1 });
    assert_eq!(
        log[11],
        Event::Spend {
            player: 0,
            kind: empires_core::rules::event::SpendKind::Capture,
            hex: x,
            cost: 2,
            ep_left: 1,
            gold: 0
        }
    );
    assert_eq!(log[12], Event::EpLost { player: 0, ep: 1 });
    // Step 7: P1's capital recovers a PV, logged with all its values.
    assert!(matches!(log[13], Event::City { city, pv: 3, .. } if city as usize == city1));
    // Step 3 came before step 4: the pool was refilled to 3 before the bids.
    let offered = e.players.last_options(|d| matches!(d, Decision::Bid { attacking: true, .. }));
    assert_eq!(offered, (0..=3).map(Action::Bid).collect::<Vec<_>>());
    // Step 7: recovery and the per-season limits reset, then the next season.
    assert_eq!(st.season, 2);
    assert_eq!(st.cities[city1].pv, 3);
    assert_eq!((st.armies[a].attacked, st.armies[a].mp, st.armies[a].xp_gained), (false, 1, false));
    assert_eq!(st.hexes[cap0 as usize].recruited, 0);
    assert_eq!((st.players[0].initiative, st.players[1].initiative), (0, 0));
    assert_eq!((st.players[0].gold, st.players[0].ep), (100 + 70 - 100 + 10, 0));
    assert_eq!(st.hexes[x as usize].owner, empires_core::rules::Owner::of(0));
}

#[test]
fn g04_each_player_activates_all_its_pieces_in_turn() {
    // P0: army (1,2) -> (1,3), spy (2,2) -> (3,2). P1: army (5,2) -> (4,2), spy (4,3) -> (3,3).
    for p1_larger in [false, true] {
        let w = world(PLAINS, |_| {});
        let mut st = w.bare();
        st.hexes[w.hex(1, 2) as usize].owner = empires_core::rules::Owner::of(0);
        if p1_larger {
            st.hexes[w.hex(4, 1) as usize].owner = empires_core::rules::Owner::of(1);
            st.hexes[w.hex(5, 1) as usize].owner = empires_core::rules::Owner::of(1);
        }
        let a0 = army(&mut st, 0, w.hex(1, 2), 3) as u16;
        let s0 = spy(&mut st, 0, w.hex(2, 2)) as u16;
        let a1 = army(&mut st, 1, w.hex(5, 2), 3) as u16;
        let s1 = spy(&mut st, 1, w.hex(4, 3)) as u16;
        let p0 = [Action::MoveArmy { army: a0, to: w.hex(1, 3) }, Action::MoveSpy { spy: s0, to: w.hex(3, 2) }];
        let p1 = [Action::MoveArmy { army: a1, to: w.hex(4, 2) }, Action::MoveSpy { spy: s1, to: w.hex(3, 3) }];
        let (picks, order, movers) = if p1_larger {
            ([p0, p1].concat(), vec![0, 1], vec![0, 0, 1, 1])
        } else {
            ([p1, p0].concat(), vec![1, 0], vec![1, 1, 0, 0])
        };
        let mut e = w.engine(&[], Script::picks(&picks));
        e.set_order(&mut st);
        assert_eq!(st.order, order, "smallest empire first (E-04)");
        e.play_phase(&mut st, Step::Act);
        let moved: Vec<u8> = e
            .log
            .iter()
            .filter_map(|ev| if let Event::Move { player, .. } = ev { Some(*player) } else { None })
            .collect();
        assert_eq!(moved, movers);
        let asked: Vec<u8> = e.players.asked.iter().filter(|x| x.1 == Decision::Act).map(|x| x.0).collect();
        assert_eq!(asked, movers, "each player is asked until all its pieces are spent, then the next");
        assert!(e.players.picks.is_empty());
        assert_eq!((st.armies[a0 as usize].hex, st.spies[s1 as usize].hex), (w.hex(1, 3), w.hex(3, 3)));
    }
}

/// PLAINS with forest at (3,2) and mountain at (4,2).
const WOODS: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p f m p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

#[test]
fn g06_defender_terrain_bonus_is_scenario_data() {
    // P0 on plains (2,2) attacks P1 in the forest (3,2); dice 3 and 3.
    for (bonus, order, gap) in [(1, 1, -1), (2, 2, -2), (0, 0, 0)] {
        let w = world(WOODS, |sc| sc.army.defender_terrain.forest = bonus);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        let mut e = w.engine(&[3, 3], Script::default());
        let c = e.army_combat(&mut st, a, d);
        assert_eq!((c.a.order, c.d.order, c.gap), (0, order, gap), "forest bonus {bonus}");
    }
    // Mountain: default +1, changed to +3.
    for (bonus, order) in [(None, 1), (Some(3), 3)] {
        let w = world(WOODS, |sc| {
            if let Some(b) = bonus {
                sc.army.defender_terrain.mountain = b;
            }
        });
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(5, 2), 3);
        let d = army(&mut st, 1, w.hex(4, 2), 3);
        let mut e = w.engine(&[4, 2], Script::default());
        let c = e.army_combat(&mut st, a, d);
        assert_eq!((c.d.order, c.gap), (order, 2 - order));
    }
}

#[test]
fn g06_the_bonus_is_for_the_defender_only_and_assault_adds() {
    let w = world(WOODS, |sc| sc.army.formations.assault_strength = 2);
    let mut st = w.bare();
    // P1 attacks out of the forest: no terrain bonus for the attacker; the
    // plains defender gets none either.
    let a = army(&mut st, 1, w.hex(3, 2), 3);
    let d = army(&mut st, 0, w.hex(2, 2), 3);
    st.armies[d].formation = Some(FormationChoice::Assault);
    let mut e = w.engine(&[3, 3], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!((c.a.order, c.d.order, c.gap), (0, 2, -2), "Assault +2 (scenario), plains +0");
    // An Assault army defending in the forest: terrain +1 and Assault +2.
    let w = world(WOODS, |sc| sc.army.formations.assault_strength = 2);
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    st.armies[d].formation = Some(FormationChoice::Assault);
    let mut e = w.engine(&[3, 3], Script::default());
    assert_eq!(e.army_combat(&mut st, a, d).d.order, 3);
}

#[test]
fn g08_one_attack_per_army_and_the_loser_stays() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let (ha, hd) = (w.hex(2, 2), w.hex(3, 2));
    let a = army(&mut st, 0, ha, 3);
    let d = army(&mut st, 1, hd, 3);
    let b = army(&mut st, 0, w.hex(4, 2), 3);
    let mut e = w.engine(&[5, 3], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!((c.gap, st.armies[a].units, st.armies[d].units), (2, 2, 2));
    // Neither side moved: the loser does not retreat, the winner does not advance.
    assert_eq!((st.armies[a].hex, st.armies[d].hex), (ha, hd));
    assert_eq!((st.hexes[ha as usize].army, st.hexes[hd as usize].army), (Slot::of(a), Slot::of(d)));
    let opts = act_options(&w, &st, 0);
    assert!(
        !opts
            .iter()
            .any(|x| matches!(x, Action::Attack { army, .. } | Action::MoveArmy { army, .. } if *army == a as u16))
    );
    assert!(opts.contains(&Action::Attack { army: b as u16, target: d as u16 }), "another army still may");
    // Next season the army may attack again.
    e.end_of_season(&mut st);
    assert!(act_options(&w, &st, 0).contains(&Action::Attack { army: a as u16, target: d as u16 }));
}

#[test]
fn g08_an_army_at_0_units_is_destroyed_and_leaves_its_hex() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let (ha, hd) = (w.hex(2, 2), w.hex(3, 2));
    let a = army(&mut st, 0, ha, 3);
    let d = army(&mut st, 1, hd, 1);
    let b = army(&mut st, 0, w.hex(4, 2), 3);
    // 3 + 6 against 1 + 1: the defender's last unit dies.
    let mut e = w.engine(&[6, 1], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert!(c.d_destroyed);
    assert_eq!((st.armies[d].alive, st.armies[d].units, st.hexes[hd as usize].army), (false, 0, Slot::EMPTY));
    assert_eq!((st.armies[a].hex, st.hexes[ha as usize].army), (ha, Slot::of(a)), "the winner stays");
    assert!(act_options(&w, &st, 0).contains(&Action::MoveArmy { army: b as u16, to: hd }), "the hex is free");
    // The attacker can die too: 1 + 1 against 3 + 6.
    let mut st = w.bare();
    let a = army(&mut st, 0, ha, 1);
    let d = army(&mut st, 1, hd, 3);
    let mut e = w.engine(&[1, 6], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert!(c.a_destroyed && !c.d_destroyed);
    assert_eq!((st.armies[a].alive, st.hexes[ha as usize].army), (false, Slot::EMPTY));
    assert_eq!(st.armies[d].units, 3);
}

#[test]
fn g09_experience_is_capped_at_xp_max() {
    for (xp_max, expect) in [(3, 3), (4, 4)] {
        let w = world(PLAINS, |sc| sc.army.xp_max = xp_max);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        st.armies[a].xp = 3;
        st.armies[a].formation = Some(FormationChoice::Light);
        let mut e = w.engine(&[6, 1], Script::default());
        let c = e.army_combat(&mut st, a, d);
        assert_eq!(c.a.xp, 3);
        assert_eq!(st.armies[a].xp, expect, "xp_max {xp_max}");
        assert_eq!(e.log.iter().any(|ev| matches!(ev, Event::Xp { .. })), expect > 3);
    }
}

#[test]
fn g09_any_won_army_combat_counts_even_defending() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[1, 5], Script::default());
    let c = e.army_combat(&mut st, a, d);
    assert_eq!(c.gap, -4);
    assert_eq!((st.armies[a].xp, st.armies[d].xp), (0, 1));
    // A draw is no victory.
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let mut e = w.engine(&[4, 4], Script::default());
    assert_eq!(e.army_combat(&mut st, a, d).gap, 0);
    assert_eq!((st.armies[a].xp, st.armies[d].xp), (0, 0));
}

/// Coastal plains (2,1); inland plains (2,2), river (3,2), marsh (4,2).
const SITES: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p r w p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

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
        st.hexes[h as usize].owner = empires_core::rules::Owner::of(0);
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
    e.spend(&mut st, 0, Action::Build { hex: coast, kind: Port });
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
    st.hexes[t as usize].owner = empires_core::rules::Owner::of(0);
    st.hexes[river as usize].owner = empires_core::rules::Owner::of(0);
    st.players[0].ep = 2;
    let mut e = w.engine(&[3, 3], Script::default());
    e.spend(&mut st, 0, Action::Build { hex: t, kind: BuildingKind::Tower });
    e.spend(&mut st, 0, Action::Build { hex: river, kind: BuildingKind::Bridge });
    assert_eq!(st.hexes[t as usize].extra_pv, 4);
    assert_eq!(st.hexes[river as usize].extra_pv, 2, "bridge PV default");
    let g = army(&mut st, 0, t, 3);
    let a = army(&mut st, 1, w.hex(2, 1), 3);
    let c = e.army_combat(&mut st, a, g);
    assert_eq!((c.d.defence, c.gap), (3, -3));
    // The bridge's defence against a spy is its own (5).
    assert_eq!(e.spy_defence(&st, river, SpyKind::DamageExtra), (5, 0));
}

/// PLAINS with a neutral city at (3,2).
const NEUTRAL: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p pc p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

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
        assert_eq!((c.controller.id(), c.influence, st.hexes[h as usize].owner.id()), (NOBODY, 0, NOBODY));
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
        st.hexes[h as usize].owner = empires_core::rules::Owner::of(0);
        st.players[0].ep = 2;
        let mut e = w.engine(&[], Script::default());
        e.spend(&mut st, 0, Action::Build { hex: h, kind: BuildingKind::Castle });
        e.spend(&mut st, 0, Action::Build { hex: h, kind: BuildingKind::City });
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
    assert_eq!((c.controller.id(), c.influence, st.hexes[cap1 as usize].owner.id()), (0, 3, NOBODY));
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
fn g20_once_the_garrison_falls_the_siege_opens() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let cap1 = w.hex(5, 3);
    let city = st.hexes[cap1 as usize].city.id();
    let a = army(&mut st, 0, w.hex(4, 3), 3);
    st.armies[a].engines = 1;
    let b = army(&mut st, 0, w.hex(5, 2), 3);
    let g = army(&mut st, 1, cap1, 1);
    let siege = Action::Siege { army: a as u16, city };
    assert!(!act_options(&w, &st, 0).contains(&siege));
    // 3 + 6 against 1 + city defence 2 + 1: gap 5, the garrison's last unit dies.
    let mut e = w.engine(&[6, 1], Script::default());
    let c = e.army_combat(&mut st, b, g);
    assert_eq!((c.d.defence, c.gap, c.d_destroyed), (2, 5, true));
    let opts = act_options(&w, &st, 0);
    assert!(opts.contains(&siege));
    assert!(!opts.contains(&Action::Siege { army: b as u16, city }), "b already attacked (G-08)");
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
    e.earn_ep(&mut st);
    let eps: Vec<u8> =
        e.log.iter().filter_map(|ev| if let Event::Ep { player, .. } = ev { Some(*player) } else { None }).collect();
    assert_eq!(eps, vec![0, 1]);

    // A whole season: the city is in no order, recruits nothing, is asked nothing.
    let mut st = w.start();
    let before = st.cities[city];
    // Equal sizes: one tie-break die each (G-03).
    let mut e = w.engine(&[3, 5], Script::default());
    e.play_season(&mut st);
    assert_eq!(e.dice.remaining(), 0);
    let order: Vec<u8> =
        e.log.iter().filter_map(|ev| if let Event::Order { player, .. } = ev { Some(*player) } else { None }).collect();
    assert_eq!(order, vec![0, 1]);
    assert!(!e.log.iter().any(|ev| matches!(ev, Event::Recruit { hex, .. } if *hex == h)));
    assert!(e.players.asked.iter().all(|x| x.0 == 0 || x.0 == 1));
    assert_eq!(st.cities[city], before);
}

#[test]
fn g22_one_castle_city_or_mine_plus_one_port_tower_or_bridge() {
    let w = world(SITES, |_| {});
    let mut st = w.bare();
    let river = w.hex(3, 2);
    st.hexes[river as usize].owner = empires_core::rules::Owner::of(0);
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
fn g26_ships_recover_in_their_own_port() {
    // (ship_recover, ship_pv, expected PV after one season from 1)
    for (recover, max, pv) in [(1, 3, 2), (2, 3, 3), (3, 3, 3), (2, 5, 3)] {
        let w = world(STRAIT, |sc| {
            sc.naval.ship_recover = recover;
            sc.naval.ship_pv = max;
        });
        let mut st = w.bare();
        let home = ship(&mut st, 0, w.hex(2, 2), 1); // next to P0's port
        let open = ship(&mut st, 0, w.hex(3, 2), 1); // open sea
        let enemy = ship(&mut st, 0, w.hex(4, 2), 1); // next to P1's port
        let mut e = w.engine(&[], Script::default());
        e.end_of_season(&mut st);
        assert_eq!((st.ships[home].pv, st.ships[open].pv, st.ships[enemy].pv), (pv, 1, 1), "recover {recover}");
    }
    // At full PV a ship stays at full PV.
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let s = ship(&mut st, 0, w.hex(2, 2), 3);
    w.engine(&[], Script::default()).end_of_season(&mut st);
    assert_eq!(st.ships[s].pv, 3);
}

#[test]
fn g26_ships_move_movement_ship_hexes() {
    for mp in [3, 2, 5] {
        let w = world(STRAIT, |sc| sc.movement.ship = mp);
        let mut st = w.bare();
        let s = ship(&mut st, 0, w.hex(2, 2), 3);
        let mut e = w.engine(&[], Script::default());
        e.end_of_season(&mut st);
        assert_eq!(st.ships[s].mp, mp);
        let mut moves = 0;
        while let Some(&m) = act_options(&w, &st, 0).iter().find(|a| matches!(a, Action::MoveShip { .. })) {
            e.apply_act(&mut st, 0, m);
            moves += 1;
            assert!(moves <= 20);
        }
        assert_eq!(moves, mp);
        assert_eq!(w.map.terrain[st.ships[s].hex as usize], Terrain::Sea);
    }
}

#[test]
fn g26_the_owner_chooses_which_ship_takes_each_hit() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let (h0, h1) = (w.hex(2, 2), w.hex(3, 2));
    ship(&mut st, 0, h0, 3);
    ship(&mut st, 0, h0, 3);
    ship(&mut st, 1, h1, 3);
    // 2 + 2 against 1 + 4: gap -1, the attacker loses 2 PV, the defender 1.
    let mut e = w.engine(&[2, 4], Script::default());
    let c = e.naval_combat(&mut st, 0, h0, h1);
    assert_eq!((c.gap, c.a_loss, c.d_loss), (-1, 2, 1));
    let hits: Vec<_> = e.players.asked.iter().filter(|x| matches!(x.1, Decision::TakeHit { .. })).cloned().collect();
    let both = vec![Action::TakeHit { ship: 0 }, Action::TakeHit { ship: 1 }];
    assert_eq!(
        hits,
        vec![
            (0, Decision::TakeHit { hex: h0 }, both.clone()),
            (0, Decision::TakeHit { hex: h0 }, both),
            (1, Decision::TakeHit { hex: h1 }, vec![Action::TakeHit { ship: 2 }]),
        ]
    );
    // The script put both hits on its first ship.
    assert_eq!((st.ships[0].pv, st.ships[1].pv, st.ships[2].pv), (1, 3, 2));
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
    e.end_of_season(&mut st);
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
        e.end_of_season(&mut st);
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

/// P1 holds: castle (4,2), river mine (3,2), tower (4,1), and its capital
/// (5,3) with a port.
fn spy_targets(w: &World) -> State {
    let mut st = w.bare();
    let set = |st: &mut State, h: u16, main: Option<BuildingKind>, extra: Option<BuildingKind>| {
        let hs = &mut st.hexes[h as usize];
        hs.owner = empires_core::rules::Owner::of(1);
        hs.main = main;
        hs.main_pv = 1;
        hs.extra = extra;
        hs.extra_pv = 1;
    };
    set(&mut st, w.hex(4, 2), Some(BuildingKind::Castle), None);
    set(&mut st, w.hex(3, 2), Some(BuildingKind::Mine), None);
    set(&mut st, w.hex(4, 1), None, Some(BuildingKind::Tower));
    st
}

const SPY_MAP: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p r p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

#[test]
fn g28_spy_defence_by_target() {
    // (scenario tweak, city, castle, tower, port, mine)
    type Tweak = fn(&mut Scenario);
    let cases: [(Tweak, (i32, i32), i32, i32, i32, i32); 2] = [
        (|_| {}, (2, 1), 2, 2, 2, 0),
        (
            |sc| {
                sc.cities.capital.defence = 3;
                sc.buildings.castle.defence = 4;
                sc.buildings.tower.defence = 1;
                sc.buildings.port.defence = 5;
                sc.buildings.mine.defence = 1;
                sc.spy.city_adds_level = false;
            },
            (3, 0),
            4,
            1,
            5,
            1,
        ),
    ];
    for (tweak, city, castle, tower, port, mine) in cases {
        let w = world(SPY_MAP, tweak);
        let st = spy_targets(&w);
        let e = w.engine(&[], Script::default());
        let cap = w.hex(5, 3);
        assert_eq!(e.spy_defence(&st, cap, SpyKind::Destabilize), city);
        assert_eq!(e.spy_defence(&st, cap, SpyKind::Steal), city);
        assert_eq!(e.spy_defence(&st, cap, SpyKind::DamageExtra), (port, 0));
        assert_eq!(e.spy_defence(&st, w.hex(4, 2), SpyKind::DamageMain), (castle, 0));
        assert_eq!(e.spy_defence(&st, w.hex(4, 1), SpyKind::DamageExtra), (tower, 0));
        assert_eq!(e.spy_defence(&st, w.hex(3, 2), SpyKind::Sabotage), (mine, 0));
    }
    // In play: 3 + 1 against a mine's 0 + 3 is a win by 1.
    let w = world(SPY_MAP, |_| {});
    let mut st = spy_targets(&w);
    let s = spy(&mut st, 0, w.hex(2, 2));
    let mut e = w.engine(&[1, 3], Script::default());
    let c = e.spy_action(&mut st, s, w.hex(3, 2), SpyKind::Sabotage);
    assert_eq!((c.a.total(), c.d.total(), c.gap, c.success), (4, 3, 1, true));
    // Against the capital: 3 + 3 against 2 + 1 + 3 is a tie, which fails.
    let mut e = w.engine(&[3, 3], Script::default());
    let s2 = spy(&mut st, 0, w.hex(4, 3));
    let c = e.spy_action(&mut st, s2, w.hex(5, 3), SpyKind::Destabilize);
    assert_eq!((c.d.total(), c.gap, c.success, st.spies[s2].alive), (6, 0, false, true));
}

#[test]
fn g28_steal_takes_steal_gold_at_most_what_the_victim_has() {
    // (steal_gold, victim's gold, stolen)
    for (steal, has, taken) in [(20, 100, 20), (50, 100, 50), (50, 30, 30), (20, 0, 0)] {
        let w = world(SPY_MAP, |sc| sc.spy.steal_gold = steal);
        let mut st = spy_targets(&w);
        st.players[1].gold = has;
        let s = spy(&mut st, 0, w.hex(3, 1)); // next to the castle at (4,2)
        let mut e = w.engine(&[6, 1], Script::default());
        let c = e.spy_action(&mut st, s, w.hex(4, 2), SpyKind::Steal);
        assert!(c.success);
        assert_eq!(
            (c.d_loss, st.players[0].gold, st.players[1].gold),
            (taken as i32, 100 + taken, has - taken),
            "steal {steal} of {has}"
        );
        assert_eq!((st.players[0].tally.gold_loot, st.players[0].tally.spy_success), (taken, 1));
    }
}

#[test]
fn g28_a_sabotaged_mine_pays_nothing_at_the_next_payday_only() {
    let w = world(SPY_MAP, |_| {});
    let mut st = spy_targets(&w);
    let mine = w.hex(3, 2);
    let s = spy(&mut st, 0, w.hex(2, 2));
    assert!(act_options(&w, &st, 0).contains(&Action::SpyAct { spy: s as u16, target: mine, kind: SpyKind::Sabotage }));
    // Spy 3 + 6 against 0 + 1; then two paydays, the second one rolls 2D6 = 2 + 3.
    let mut e = w.engine(&[6, 1, 2, 3], Script::default());
    assert!(e.spy_action(&mut st, s, mine, SpyKind::Sabotage).success);
    assert!(st.hexes[mine as usize].sabotaged);
    assert_eq!(st.order, vec![0, 1]);
    e.payday(&mut st);
    assert_eq!(st.players[1].gold, 100);
    assert!(e.log.contains(&Event::Payday { player: 1, hex: mine, faces: 0, gold: 0, sabotaged: true }));
    assert!(!st.hexes[mine as usize].sabotaged);
    e.payday(&mut st);
    assert_eq!(st.players[1].gold, 150);
    assert!(e.log.contains(&Event::Payday { player: 1, hex: mine, faces: 5, gold: 50, sabotaged: false }));
    assert_eq!(e.dice.remaining(), 0);
}

#[test]
fn g29_everyone_is_at_war_unless_on_a_team() {
    let rows = ["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p2 ~", "~ p  p p p p  ~", " ~ p  p p p p3 ~", "~ ~  ~ ~ ~ ~  ~"];
    for teams in [false, true] {
        let w = world(&rows, |sc| {
            if teams {
                sc.players[0].team = Some(1);
                sc.players[2].team = Some(1);
            }
        });
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3) as u16;
        let foe = army(&mut st, 1, w.hex(2, 1), 3) as u16;
        let mate = army(&mut st, 2, w.hex(3, 2), 3) as u16;
        let opts = act_options(&w, &st, 0);
        assert!(opts.contains(&Action::Attack { army: a, target: foe }));
        assert_eq!(opts.contains(&Action::Attack { army: a, target: mate }), !teams, "teams {teams}");
    }
}

#[test]
fn g30_bids_formation_and_siege_outcome_are_asked_of_the_strategy() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    pools(&mut st, 3);
    let a1 = army(&mut st, 0, w.hex(2, 2), 3);
    st.armies[a1].xp = 1;
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    let a2 = army(&mut st, 0, w.hex(4, 3), 3);
    st.armies[a2].engines = 1;
    let city = st.hexes[w.hex(5, 3) as usize].city.id();
    st.cities[city as usize].pv = 1;
    let mut script = Script::bids(&[1, 0, 2]);
    script.formation = Some(FormationChoice::Siege);
    script.outcome = Some(SiegeChoice::Federate);
    // Army: 3 + 1 xp + 1 bid + 6 = 11 against 3 + 0 + 1 = 4.
    // Siege: 3 + 1 engine + 2 bid + 6 = 12 against 2 + 1 + 0 + 1 = 4: gap 8, the city falls.
    let mut e = w.engine(&[6, 1, 6, 1], script);
    let c1 = e.army_combat(&mut st, a1, d);
    let c2 = e.siege(&mut st, a2, city as usize);
    assert_eq!((c1.a.bid, c1.d.bid, c1.gap), (1, 0, 7));
    assert_eq!((c2.a.bid, c2.gap, c2.d_destroyed), (2, 8, true));
    let bids = |n: u8| (0..=n).map(Action::Bid).collect::<Vec<_>>();
    use FormationChoice::{Assault, Light};
    use SiegeChoice::{Conquer, Federate, Pillage};
    assert_eq!(
        e.players.asked,
        vec![
            (0, Decision::Bid { kind: CombatKind::Army, attacking: true }, bids(3)),
            (1, Decision::Bid { kind: CombatKind::Army, attacking: false }, bids(3)),
            (
                0,
                Decision::Formation { army: a1 as u16 },
                vec![Action::Formation(Light), Action::Formation(Assault), Action::Formation(FormationChoice::Siege)]
            ),
            (0, Decision::Bid { kind: CombatKind::Siege, attacking: true }, bids(2)),
            (
                0,
                Decision::SiegeOutcome { city },
                vec![Action::Outcome(Conquer), Action::Outcome(Federate), Action::Outcome(Pillage)]
            ),
        ]
    );
    // The picks were applied; the engine rolled every die itself.
    assert_eq!(st.armies[a1].formation, Some(FormationChoice::Siege));
    let c = st.cities[city as usize];
    assert_eq!((c.controller.id(), c.influence), (0, 3));
    assert_eq!((st.players[0].initiative, st.players[1].initiative), (0, 3));
    assert_eq!((e.dice.used(), e.dice.remaining()), (4, 0));
}

#[test]
fn g12_a_repelled_siege_is_a_battle_the_holder_won() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let (camp, cap, side) = (w.hex(4, 3), w.hex(5, 3), w.hex(5, 2));
    assert!(w.map.are_adjacent(camp, cap) && w.map.are_adjacent(side, cap));
    let a = army(&mut st, 0, camp, 3);
    st.armies[a].engines = 1;
    st.hexes[camp as usize].owner = empires_core::rules::Owner::of(0);
    st.hexes[side as usize].owner = empires_core::rules::Owner::of(0);
    let city = st.hexes[cap as usize].city.id();
    // 3 units + 1 engine + die 1 = 5 against defence 2 + level 1 + die 3 = 6.
    let mut e = w.engine(&[1, 3], Script::default());
    act(&mut e, &mut st, 0, Action::Siege { army: a as u16, city });
    let c = combats(&e.log)[0];
    assert_eq!((c.gap, c.d_result), (-1, Some(BattleResult::Minor)));
    assert_eq!(st.players[1].beaten, 1 << 0, "the holder beat the attacker (E-07)");
    assert_eq!(st.players[0].beaten, 0);
    // So the holder may conquer the attacker's hex next to its city; not the
    // one the attacker's army still stands on.
    st.players[1].ep = 3;
    e.spend_options(&st, 1);
    assert!(!e.options().contains(&Action::Conquer(camp)));
    buy(&mut e, &mut st, 1, Action::Conquer(side));
    assert_eq!(st.hexes[side as usize].owner, empires_core::rules::Owner::of(1));
    assert_eq!(st.players[1].ep, 0);
}

#[test]
fn g10_both_armies_destroyed_is_a_massacre_for_the_winner_by_gap() {
    // `ep.massacre_if_both_destroyed = false` keeps the older reading.
    for (both, want) in [(true, BattleResult::Massacre), (false, BattleResult::Minor)] {
        let w = world(PLAINS, |sc| sc.ep.massacre_if_both_destroyed = both);
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 1);
        let d = army(&mut st, 1, w.hex(3, 2), 1);
        // 1 + 4 = 5 against 1 + 3 = 4: gap 1, and each side loses 1 unit (W-03).
        let mut e = w.engine(&[4, 3], Script::default());
        act(&mut e, &mut st, 0, Action::Attack { army: a as u16, target: d as u16 });
        let c = combats(&e.log)[0];
        assert_eq!((c.gap, c.a_destroyed, c.d_destroyed), (1, true, true));
        assert_eq!((c.a_result, c.d_result), (Some(want), Some(BattleResult::Defeat)), "both = {both}");
        assert_eq!(st.players[0].battle_ep, w.sc.ep.results.get(want));
        assert!(!st.armies[a].alive && !st.armies[d].alive);
    }
}

#[test]
fn g03_castles_and_cities_count_in_size_by_their_own_key_not_by_fortified() {
    // P0 holds its capital (a city) and a castle hex; P1 its capital and two
    // plain hexes. Shipped reading: 2 + 2 against 2 + 1 + 1, equal cities, P0
    // has the castle, so P0 ranks first and P1 (smaller on the tie-break)
    // spends first. Size as hexes held: 2 against 3, P1 first, P0 spends first.
    for (counted, p0, p1, first) in [(true, 4, 4, 0u8), (false, 2, 3, 1u8)] {
        let w = world(PLAINS, |sc| {
            sc.buildings.castle.counts_in_size = counted;
            sc.buildings.city.counts_in_size = counted;
        });
        let mut st = w.bare();
        let h = w.hex(2, 1);
        st.hexes[h as usize].owner = empires_core::rules::Owner::of(0);
        st.hexes[h as usize].main = Some(BuildingKind::Castle);
        st.hexes[h as usize].main_pv = 3;
        st.hexes[w.hex(4, 3) as usize].owner = empires_core::rules::Owner::of(1);
        st.hexes[w.hex(5, 2) as usize].owner = empires_core::rules::Owner::of(1);
        let s = sizes(w.rules(), &st);
        assert_eq!((s[0].size, s[1].size), (p0, p1), "counts_in_size = {counted}");
        assert_eq!((s[0].hexes, s[0].cities, s[0].castles), (2, 1, 1));
        assert_eq!((s[1].hexes, s[1].cities, s[1].castles), (3, 1, 0));
        let mut e = w.engine(&[], Script::default());
        let r = e.ranking(&st, true);
        assert_eq!((r[0].player, r[0].tie), (first, false));
        e.set_order(&mut st);
        assert_eq!(st.order, vec![1 - first, first], "E-04: the smaller empire first");
        // The E-11 surcharge still follows `fortified`: conquer 3 + castle 1.
        assert_eq!(e.take_cost(&st, h, true), 4);
        assert_eq!(e.take_cost(&st, w.hex(5, 3), true), 4, "P1's capital city too");
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
    e.recruit_options(&st, 0);
    assert!(e.options().contains(&ship_at));
    e.recruit(&mut st, 0, cap, Item::Ship);
    let new = st.ships.len() - 1;
    assert_eq!((st.ships[new].owner, st.ships[new].hex, st.ships[new].pv), (0, free, 3));
    assert_eq!(
        e.log.last(),
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
    e.end_of_season(&mut st);
    e.recruit(&mut st, 0, cap, Item::Ship);
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
    e.recruit(&mut st, 0, cap, Item::Unit);
    e.recruit(&mut st, 0, cap, Item::Engine);
    e.recruit(&mut st, 0, cap, Item::Spy);
    assert_eq!((st.armies[a].units, st.armies[a].engines), (units + 1, 1));
    assert_eq!(st.spies.len(), spies + 1);
    assert_eq!(st.players[0].gold, 1000 - unit - engine - spy);
    assert_eq!(st.players[0].tally.gold_spent, unit + engine + spy);
    let pieces: Vec<_> = e
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
    st.hexes[x as usize].owner = empires_core::rules::Owner::of(0);
    st.hexes[x as usize].main = Some(BuildingKind::Castle);
    st.hexes[x as usize].main_pv = 3;
    e.recruit(&mut st, 0, x, Item::Unit);
    let n = st.armies.len() - 1;
    assert_eq!((st.armies[n].owner, st.armies[n].hex, st.armies[n].units), (0, x, 1));
    assert!(matches!(e.log.last(), Some(Event::Recruit { piece, at, .. }) if *piece as usize == n && *at == x));
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
        w.engine(&[], Script::default()).recruit(&mut st, 0, cap, Item::Engine);
    }
    assert_eq!(st.armies[a].engines, 2);
    assert!(!recruit_options(&w, &st, 0).contains(&engine), "at the cap");
}

/// G-03: the tie-breaks apply in the scenario's order. P0 (capital and two
/// castles) and P1 (capital, a second city and two plain hexes) are both of
/// size 6; P1 has more cities, P0 more castles, so castles first ranks P0
/// first and cities first ranks P1 first.
#[test]
fn g03_tie_breaks_apply_in_the_scenarios_order() {
    use empires_core::scenario::TieBreak;
    for (order, first) in [([TieBreak::Castles, TieBreak::Cities], 0u8), ([TieBreak::Cities, TieBreak::Castles], 1u8)] {
        let w = world(PLAINS, |sc| sc.campaign.tiebreak = order.to_vec());
        let mut st = w.bare();
        let own = |st: &mut State, h, p, b: Option<BuildingKind>| {
            st.hexes[h as usize].owner = empires_core::rules::Owner::of(p);
            st.hexes[h as usize].main = b;
            st.hexes[h as usize].main_pv = 3;
        };
        own(&mut st, w.hex(2, 1), 0, Some(BuildingKind::Castle));
        own(&mut st, w.hex(3, 1), 0, Some(BuildingKind::Castle));
        own(&mut st, w.hex(4, 3), 1, Some(BuildingKind::City));
        own(&mut st, w.hex(4, 2), 1, None);
        own(&mut st, w.hex(5, 2), 1, None);
        let s = sizes(w.rules(), &st);
        assert_eq!((s[0].size, s[0].cities, s[0].castles), (6, 1, 2));
        assert_eq!((s[1].size, s[1].cities, s[1].castles), (6, 2, 0));
        let r = w.engine(&[], Script::default()).ranking(&st, true);
        assert_eq!((r[0].player, r[0].tie), (first, false), "{order:?}");
    }
}

/// G-05: the play dice show every face of the die and nothing else, the
/// same seed gives the same rolls, and a recorded history replays exactly
/// through scripted dice (the log replay and the lookahead rely on it).
#[test]
fn g05_the_dice_show_every_face_and_a_recorded_history_replays() {
    use empires_core::rules::dice::{Dice, RecordingDice, RngDice, ScriptedDice};
    use rand_pcg::Pcg64Mcg;
    let mut rec = RecordingDice { inner: RngDice(Pcg64Mcg::new(0xE5)), faces: Vec::new() };
    let rolls: Vec<u8> = (0..600).map(|_| rec.roll(6)).collect();
    let mut seen = [0u32; 7];
    for &f in &rolls {
        seen[f as usize] += 1;
    }
    assert_eq!(seen[0], 0);
    assert!(seen[1..].iter().all(|&n| (60..=140).contains(&n)), "600 D6 rolls, each face about 100 times: {seen:?}");
    assert_eq!(rec.faces, rolls, "every face recorded, in order");
    let mut again = RngDice(Pcg64Mcg::new(0xE5));
    assert!(rolls.iter().all(|&f| again.roll(6) == f), "the same seed rolls the same");
    let mut replay = ScriptedDice::new(&rec.faces);
    assert_eq!(replay.used(), 0);
    let expr = DiceExpr::new(2, 6, 10);
    let (faces, value) = replay.roll_expr(&expr);
    assert_eq!((faces, value), ((rolls[0] + rolls[1]) as u32, (rolls[0] + rolls[1]) as i64 * 10));
    assert_eq!((replay.used(), replay.remaining()), (2, 598));
}

/// PLAINS with a third capital at (5,1).
const THREE: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p3 ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

/// G-02 / G-03: the die tie-break is a roll-off. Three players of equal
/// size (their capitals) roll 4, 4 and 2: the third is last, the first two
/// roll again, 1 against 3, so the second ranks first. Ranks count from 1
/// and every one of them is marked tied.
#[test]
fn g03_the_die_tie_break_rolls_off_among_those_still_equal() {
    let w = world(THREE, |_| {});
    let st = w.bare();
    let mut e = w.engine(&[4, 4, 2, 1, 3], Script::default());
    let r = e.ranking(&st, true);
    let got: Vec<(u8, u8, bool)> = r.iter().map(|s| (s.player, s.rank, s.tie)).collect();
    assert_eq!(got, [(1, 1, true), (0, 2, true), (2, 3, true)]);
    assert_eq!(e.dice.remaining(), 0);
    let rolls: Vec<(u8, i32)> = e
        .log
        .iter()
        .filter_map(|x| if let Event::TieBreak { player, die } = x { Some((*player, *die)) } else { None })
        .collect();
    assert_eq!(rolls, [(0, 4), (1, 4), (2, 2), (0, 1), (1, 3)]);
}

/// G-03: players still equal after `ROLL_OFF_ROUNDS` roll-offs keep seat
/// order, and no die is rolled beyond that bound.
#[test]
fn g03_the_roll_off_stops_after_its_rounds_and_seat_order_decides() {
    use empires_core::rules::empire::ROLL_OFF_ROUNDS;
    let w = world(PLAINS, |_| {});
    let st = w.bare();
    let faces = vec![3u8; 2 * ROLL_OFF_ROUNDS as usize];
    let mut e = w.engine(&faces, Script::default());
    let r = e.ranking(&st, true);
    assert_eq!((r[0].player, r[1].player), (0, 1));
    assert!(r[0].tie && r[1].tie);
    assert_eq!(e.dice.remaining(), 0, "every round rolled, and no more");
}

/// G-03: without the die among the tie-breaks, tied players keep seat
/// order and no die is rolled; players of different sizes are not tied.
#[test]
fn g03_no_die_without_the_die_tie_break_and_no_tie_between_sizes() {
    use empires_core::scenario::TieBreak;
    let w = world(PLAINS, |sc| sc.campaign.tiebreak = vec![TieBreak::Cities, TieBreak::Castles]);
    let mut st = w.bare();
    // No dice scripted: a roll would panic.
    let r = w.engine(&[], Script::default()).ranking(&st, true);
    assert_eq!((r[0].player, r[0].rank, r[0].tie, r[1].player, r[1].rank, r[1].tie), (0, 1, true, 1, 2, true));
    st.hexes[w.hex(4, 3) as usize].owner = empires_core::rules::Owner::of(1);
    let r = w.engine(&[], Script::default()).ranking(&st, true);
    assert_eq!((r[0].player, r[0].rank, r[0].tie, r[1].player, r[1].rank, r[1].tie), (1, 1, false, 0, 2, false));
}

/// E-12 / G-15: a building that `requires` another of its slot is offered
/// only where that one stands (here a tower only on a bridge).
#[test]
fn g15_a_building_that_requires_another_stands_only_on_it() {
    let w = world(SITES, |sc| sc.buildings.tower.requires = Some(BuildingKind::Bridge));
    let mut st = w.bare();
    let river = w.hex(3, 2);
    st.hexes[river as usize].owner = empires_core::rules::Owner::of(0);
    st.players[0].ep = 4;
    let tower = Action::Build { hex: river, kind: BuildingKind::Tower };
    assert!(!spend_options(&w, &st, 0).contains(&tower), "no bridge yet");
    let mut e = w.engine(&[], Script::default());
    buy(&mut e, &mut st, 0, Action::Build { hex: river, kind: BuildingKind::Bridge });
    assert!(spend_options(&w, &st, 0).contains(&tower), "on the bridge");
}

/// G-02: how a campaign ends. The last player standing ends it (with
/// `end_when_last_standing`), as does the loss of every hex; at the season
/// limit, `stall_seasons` quiet seasons in a row make it a stall.
#[test]
fn g02_the_campaign_ends_last_standing_all_eliminated_or_at_the_limit() {
    use empires_core::rules::EndReason::*;
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let e = w.engine(&[], Script::default());
    assert_eq!(e.end_check(&st), None, "both stand");
    let cap1 = w.hex(5, 3);
    st.hexes[cap1 as usize].owner = empires_core::rules::Owner::NOBODY;
    assert_eq!(e.end_check(&st), Some(LastStanding));
    let w2 = world(PLAINS, |sc| sc.campaign.end_when_last_standing = false);
    assert_eq!(w2.engine(&[], Script::default()).end_check(&st), None, "the game goes on alone");
    st.hexes[w.hex(1, 1) as usize].owner = empires_core::rules::Owner::NOBODY;
    assert_eq!(e.end_check(&st), Some(AllEliminated));
    // Two allies alone are the last standing together.
    let w3 = world(THREE, |sc| {
        sc.players[0].team = Some(1);
        sc.players[1].team = Some(1);
    });
    let mut st3 = w3.bare();
    let e3 = w3.engine(&[], Script::default());
    assert_eq!(e3.end_check(&st3), None, "their rival stands");
    st3.hexes[w3.hex(5, 1) as usize].owner = empires_core::rules::Owner::NOBODY;
    assert_eq!(e3.end_check(&st3), Some(LastStanding));
    let mut st = w.bare();
    // The season limit, stalled or not.
    let limit = w.sc.campaign.seasons;
    let stall = w.sc.campaign.stall_seasons;
    st.season = limit - 1;
    st.quiet_seasons = stall;
    assert_eq!(e.end_check(&st), None);
    st.season = limit;
    assert_eq!(e.end_check(&st), Some(Stalled));
    st.quiet_seasons = stall - 1;
    assert_eq!(e.end_check(&st), Some(SeasonLimit));
    let w4 = world(PLAINS, |sc| sc.campaign.stall_seasons = 0);
    st.quiet_seasons = 99;
    assert_eq!(w4.engine(&[], Script::default()).end_check(&st), Some(SeasonLimit), "stalls not flagged");
}

/// G-31: a log borrowed by the engine (`&mut` a log, as the runner lends
/// its event buffer) records exactly what an owned log records.
#[test]
fn g31_a_borrowed_log_records_what_an_owned_log_records() {
    let w = world(MINE_MAP, |_| {});
    let mut st = w.bare();
    st.hexes[w.hex(2, 1) as usize].owner = empires_core::rules::Owner::of(0);
    let mut owned = w.engine(&[3, 4], Script::default());
    owned.play_season(&mut st.clone());
    let mut events = Vec::new();
    let mut lent =
        Scripted::new(w.rules(), empires_core::rules::ScriptedDice::new(&[3, 4]), Script::default(), &mut events);
    lent.play_season(&mut st);
    assert!(events.len() > 5);
    assert_eq!(events, owned.log);
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

/// G-02: the campaign's winner is the player ranked first at its end.
#[test]
fn g02_the_winner_is_the_largest_empire_at_the_end() {
    let w = world(THREE, |_| {});
    let mut st = w.bare();
    st.hexes[w.hex(4, 1) as usize].owner = empires_core::rules::Owner::of(2);
    // P0 and P1 tie for second: P1 rolls higher.
    let mut e = w.engine(&[1, 2], Script::default());
    let out = e.finish(&mut st, empires_core::rules::EndReason::SeasonLimit);
    assert_eq!((out.winner(), out.standings[0].player, out.standings[0].size.size), (2, 2, 3));
    let order: Vec<u8> = out.standings.iter().map(|s| s.player).collect();
    assert_eq!(order, [2, 1, 0]);
    assert!(matches!(e.log.first(), Some(Event::End { .. })));
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
    e.end_of_season(&mut st);
    assert_eq!((st.cities[c0].stability, st.cities[c1].stability), (1, -1));
    e.end_of_season(&mut st);
    e.end_of_season(&mut st);
    assert_eq!((st.cities[c0].stability, st.cities[c1].stability), (0, 0));
}

/// G-26: a ship next to its own port recovers PV up to its maximum; a ship
/// already whole is not repaired (and no repair is logged).
#[test]
fn g26_a_whole_ship_in_port_is_not_repaired() {
    let w = world(STRAIT, |_| {});
    let mut st = w.bare();
    let whole = ship(&mut st, 0, w.hex(2, 2), w.sc.naval.ship_pv);
    let hurt = ship(&mut st, 0, w.hex(0, 2), 1);
    let mut e = w.engine(&[], Script::default());
    e.end_of_season(&mut st);
    let repaired: Vec<u16> = e
        .log
        .iter()
        .filter_map(|x| if let Event::ShipRepaired { ship, .. } = x { Some(*ship) } else { None })
        .collect();
    assert_eq!(repaired, [hurt as u16]);
    assert_eq!(st.ships[whole].pv, w.sc.naval.ship_pv);
    assert_eq!(st.ships[hurt].pv, (1 + w.sc.naval.ship_recover).min(w.sc.naval.ship_pv));
}

/// G-02 `campaign.stall_seasons`: a season that changes no banner and no
/// building is quiet; any such change (a banner, a main building, a second
/// building) starts the count again.
#[test]
fn g02_quiet_seasons_count_seasons_without_a_change_of_banner_or_building() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let mut e = w.engine(&[], Script::default());
    e.end_of_season(&mut st);
    assert_eq!(st.quiet_seasons, 0, "the first fingerprint");
    e.end_of_season(&mut st);
    e.end_of_season(&mut st);
    assert_eq!(st.quiet_seasons, 2);
    let h = w.hex(3, 2) as usize;
    let changes: [fn(&mut State, usize); 4] = [
        |st, h| st.hexes[h].owner = empires_core::rules::Owner::of(0),
        |st, h| st.hexes[h].owner = empires_core::rules::Owner::of(1),
        |st, h| {
            st.hexes[h].main = Some(BuildingKind::Castle);
            st.hexes[h].main_pv = 3;
        },
        |st, h| {
            st.hexes[h].extra = Some(BuildingKind::Port);
            st.hexes[h].extra_pv = 2;
        },
    ];
    for (i, change) in changes.iter().enumerate() {
        change(&mut st, h);
        e.end_of_season(&mut st);
        assert_eq!(st.quiet_seasons, 0, "change {i}");
        e.end_of_season(&mut st);
        assert_eq!(st.quiet_seasons, 1, "after change {i}");
    }
}

/// G-02: a player left without a hex at the end of a season is eliminated
/// once, with its armies, ships and spies (no one else's), and its cities
/// go neutral; a player with a hex stays.
#[test]
fn g02_a_player_without_hexes_is_eliminated_with_its_pieces() {
    let w = world(THREE, |_| {});
    let mut st = w.bare();
    let (cap1, cap2) = (w.hex(5, 3), w.hex(5, 1));
    let a1 = army(&mut st, 1, w.hex(3, 2), 2);
    let a2 = army(&mut st, 2, w.hex(2, 2), 2);
    let s1 = spy(&mut st, 1, w.hex(3, 3));
    let s2 = spy(&mut st, 2, w.hex(3, 1));
    let sh1 = ship(&mut st, 1, w.hex(6, 3), 3);
    let sh2 = ship(&mut st, 2, w.hex(6, 1), 3);
    st.hexes[cap1 as usize].owner = empires_core::rules::Owner::NOBODY;
    let c1 = st.hexes[cap1 as usize].city.get().unwrap();
    let mut e = w.engine(&[], Script::default());
    e.end_of_season(&mut st);
    assert!(st.players[1].eliminated && !st.players[0].eliminated && !st.players[2].eliminated);
    assert!(!st.armies[a1].alive && st.armies[a2].alive);
    assert!(!st.spies[s1].alive && st.spies[s2].alive);
    assert!(!st.ships[sh1].alive && st.ships[sh2].alive);
    assert!(st.cities[c1].controller.is_nobody());
    assert!(st.hexes[cap2 as usize].owner.is(2));
    e.end_of_season(&mut st);
    let n = e.log.iter().filter(|x| matches!(x, Event::Eliminated { .. })).count();
    assert_eq!(n, 1, "eliminated once");
}

/// G-24: the starting position follows `[start]`: the armies' units, the
/// ships (on a sea hex next to the capital), and a port on a coastal
/// capital only if `coastal_capital_port`.
#[test]
fn g24_the_start_places_armies_ships_and_ports_as_the_scenario_says() {
    let w = world(STRAIT, |sc| {
        sc.start.ships = 2;
        sc.start.army_units = 0;
        sc.start.coastal_capital_port = false;
    });
    let st = w.start();
    assert!(st.armies.is_empty(), "no units, no army");
    assert_eq!(st.ships.len(), 4);
    for s in &st.ships {
        assert_eq!(w.map.terrain[s.hex as usize], Terrain::Sea);
        let cap = if s.owner == 0 { w.hex(1, 2) } else { w.hex(5, 2) };
        assert!(w.map.are_adjacent(s.hex, cap));
    }
    assert_eq!(st.hexes[w.hex(1, 2) as usize].extra, None, "no port asked for");
    let w = world(STRAIT, |_| {});
    let st = w.start();
    assert!(st.ships.is_empty());
    assert_eq!(st.hexes[w.hex(1, 2) as usize].extra, Some(BuildingKind::Port));
    assert_eq!(st.armies.iter().map(|a| a.units).collect::<Vec<_>>(), [3, 3]);
    // An inland capital gets no port, a coastal one does.
    let rows = ["~ ~ ~ ~ ~ ~ ~", " ~ p p p p p ~", "~ p p1 p p p ~", " ~ p p p p2 p ~", "~ ~ ~ ~ ~ ~ ~"];
    let w = world(&rows, |_| {});
    let st = w.start();
    let (inland, coast) = (w.hex(2, 2), w.hex(4, 3));
    assert!(!w.map.coastal[inland as usize] && w.map.coastal[coast as usize]);
    assert_eq!((st.hexes[inland as usize].extra, st.hexes[coast as usize].extra), (None, Some(BuildingKind::Port)));
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

/// G-01 on the state machine: a player that says `Done` is not asked
/// again in that phase, and the season goes on with the next player of the
/// order, in recruiting, in the action phase and in spending alike.
#[test]
fn g01_after_a_players_done_the_season_goes_on_with_the_next_player() {
    let w = world(PLAINS, |_| {});
    for (step, d) in [(Step::Recruit, Decision::Recruit), (Step::Act, Decision::Act), (Step::Spend, Decision::Spend)] {
        let mut st = w.start();
        st.order = vec![0, 1];
        for p in st.players.iter_mut() {
            p.gold = 1000;
            p.ep = 2;
        }
        (st.step, st.turn) = (step, 0);
        let mut e = w.engine(&[], Script::default());
        assert_eq!(e.next_decision(&mut st), Some((0, d)));
        e.apply(&mut st, Action::Done);
        e.play_season(&mut st);
        let asked: Vec<u8> = e.players.asked.iter().filter(|x| x.1 == d).map(|x| x.0).collect();
        assert_eq!(asked.first(), Some(&1), "{step:?}: the next player first");
        assert!(!asked.contains(&0), "{step:?}: the player that said Done is not asked again: {asked:?}");
    }
}

/// G-30 and the state machine: an attack played through `next_decision`
/// and `apply` stops at each decision inside the combat, which the state
/// names (the attacker's bid, then the defender's, secret), and returns to
/// the attacker's turn when the combat is over. A copy of the state taken
/// at the defender's bid plays on to the same end.
#[test]
fn g30_the_state_names_each_decision_inside_a_combat() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let d = army(&mut st, 1, w.hex(3, 2), 3);
    pools(&mut st, 2);
    (st.step, st.turn) = (Step::Act, 0);
    st.order = vec![0, 1];
    let mut e = w.engine(&[5, 3], Script::default());
    assert_eq!(e.next_decision(&mut st), Some((0, Decision::Act)));
    e.apply(&mut st, Action::Attack { army: a as u16, target: d as u16 });
    assert_eq!(st.step, Step::Bid { attacking: true });
    assert_eq!(e.next_decision(&mut st), Some((0, Decision::Bid { kind: CombatKind::Army, attacking: true })));
    assert_eq!(e.options(), (0..=2).map(Action::Bid).collect::<Vec<_>>());
    e.apply(&mut st, Action::Bid(2));
    // The bid is held in secret: not spent yet, and not shown, not even
    // by `Debug` (the record below shows it was held).
    assert_eq!((st.step, st.players[0].initiative), (Step::Bid { attacking: false }, 2));
    assert!(format!("{st:?}").contains("attacker_bid: \"hidden\""), "{:?}", st.fight);
    assert_eq!(e.next_decision(&mut st), Some((1, Decision::Bid { kind: CombatKind::Army, attacking: false })));
    let at_defender = st.clone();
    e.apply(&mut st, Action::Bid(1));
    // 3 + 2 + 5 against 3 + 1 + 3: gap 3. Both bids spent; back to P0's turn.
    assert_eq!(st.step, Step::Act);
    assert_eq!((st.fight.rec.a.bid, st.fight.rec.d.bid, st.fight.rec.gap), (2, 1, 3));
    assert_eq!((st.players[0].initiative, st.players[1].initiative), (0, 1));
    let mut copy = at_defender;
    let mut e2 = w.engine(&[5, 3], Script::default());
    e2.apply(&mut copy, Action::Bid(1));
    assert_eq!(copy, st);
    assert_eq!(e2.log, e.log);
}

/// E-05 on the state machine: a player with EP and nothing it can buy is
/// done spending at once, and loses its EP.
#[test]
fn e05_a_player_with_nothing_to_buy_loses_its_ep() {
    let w = world(PLAINS, |sc| {
        sc.costs.pillage = 5;
        for b in [&mut sc.buildings.castle, &mut sc.buildings.city, &mut sc.buildings.mine] {
            b.cost = 3;
        }
        for b in [&mut sc.buildings.port, &mut sc.buildings.tower, &mut sc.buildings.bridge] {
            b.cost = 3;
        }
    });
    let mut st = w.bare();
    st.order = vec![0, 1];
    st.players[0].ep = 1;
    let mut e = w.engine(&[], Script::default());
    e.play_phase(&mut st, Step::Spend);
    assert!(e.players.asked.is_empty(), "nothing to buy, nothing asked");
    assert_eq!((st.players[0].ep, st.players[0].tally.ep_lost), (0, 1));
    assert!(e.log.contains(&Event::EpLost { player: 0, ep: 1 }));
}

/// G-07 on the state machine: a side with an empty pool is not asked to
/// bid; the other side still is.
#[test]
fn g07_a_side_with_an_empty_pool_is_not_asked_to_bid() {
    let w = world(PLAINS, |_| {});
    for (p0, p1, want) in [(0, 0, vec![]), (2, 0, vec![true]), (0, 2, vec![false]), (1, 1, vec![true, false])] {
        let mut st = w.bare();
        let a = army(&mut st, 0, w.hex(2, 2), 3);
        let d = army(&mut st, 1, w.hex(3, 2), 3);
        st.players[0].initiative = p0;
        st.players[1].initiative = p1;
        let mut e = w.engine(&[3, 3], Script::default());
        e.army_combat(&mut st, a, d);
        let asked: Vec<bool> = e
            .players
            .asked
            .iter()
            .filter_map(|x| match x.1 {
                Decision::Bid { attacking, .. } => Some(attacking),
                _ => None,
            })
            .collect();
        assert_eq!(asked, want, "pools {p0} and {p1}");
    }
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

/// G-30, OpenSpiel's `legal_actions`: at every decision `next_decision`
/// stops at, listing the legal actions again from the state alone gives
/// the same player, decision and actions, and runs nothing.
#[test]
fn g30_legal_actions_lists_again_what_next_decision_listed() {
    let w = world(STRAIT, |_| {});
    let mut st = w.start();
    let mut e = w.engine(&[6; 400], Script::default());
    let mut checked = 0;
    while st.season <= 2 && st.ended.is_none() {
        let Some((p, d)) = e.next_decision(&mut st) else { continue };
        let listed = e.options().to_vec();
        let before = st.clone();
        assert_eq!(e.legal_actions(&st), Some((p, d)));
        assert_eq!(e.options(), listed);
        assert_eq!(st, before);
        // The first action listed: moves and attacks before `Done`.
        let a = listed[0];
        e.apply(&mut st, a);
        checked += 1;
    }
    assert!(checked > 10, "{checked} decisions");
    assert_eq!(e.legal_actions(&st), None, "a season's start is no decision");
}
