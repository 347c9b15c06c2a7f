//! G defaults of the season: its order (G-01, G-04), the end and the
//! ranking (G-02, G-03), the start (G-24), war and teams (G-29), what
//! the engine asks (G-30) and the log (G-31).

use super::*;
use empires_core::map::Terrain;
use empires_core::rules::empire::sizes;
use empires_core::rules::{Action, CombatKind, Decision, Event, Game, Illegal, Item, Node, State, Step};
use empires_core::scenario::{BuildingKind, FormationChoice, SiegeChoice};

#[test]
fn g24_starting_position() {
    let w = world(STRAIT, |sc| sc.start.army_units = 4);
    let st = w.start();
    let cap = w.hex(1, 2);
    assert_eq!(st.hexes[cap as usize].owner(), empires_core::rules::Owner::of(0));
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
    assert_eq!(e.engine.end_check(&st), None);
    // 15 land hexes: 0.2 x 15 = 3 hexes win.
    st.set_owner(w.hex(2, 1), empires_core::rules::Owner::of(0));
    st.set_owner(w.hex(3, 1), empires_core::rules::Owner::of(0));
    assert_eq!(e.engine.end_check(&st), Some(empires_core::rules::EndReason::Domination));
}

#[test]
fn g03_ranking_breaks_ties_by_cities_then_castles_then_die() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    // Equal size 4: P0 has a castle hex (2 + 2), P1 has two plain hexes (2 + 1 + 1).
    let h = w.hex(2, 1);
    st.set_owner(h, empires_core::rules::Owner::of(0));
    st.hexes[h as usize].main = Some(empires_core::scenario::BuildingKind::Castle);
    st.hexes[h as usize].main_pv = 3;
    st.set_owner(w.hex(4, 3), empires_core::rules::Owner::of(1));
    st.set_owner(w.hex(5, 2), empires_core::rules::Owner::of(1));
    let mut e = w.engine(&[], Script::default());
    let r = e.engine.ranking(&st, true);
    assert_eq!((r[0].player, r[0].size.size, r[1].size.size), (0, 4, 4), "same cities, P0 has more castles");
    assert!(!r[0].tie);
    // Fully equal: the die decides and the tie is recorded.
    st.hexes[h as usize].main = None;
    st.set_owner(w.hex(5, 2), empires_core::rules::Owner::NOBODY);
    let mut e = w.engine(&[2, 5], Script::default());
    let r = e.engine.ranking(&st, true);
    assert_eq!(r[0].player, 1);
    assert!(r[0].tie && r[1].tie);
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

#[test]
fn g01_season_order_payday_recruit_act_ep_spend_end() {
    let w = world(MINE_MAP, |_| {});
    let mut st = w.bare();
    let (cap0, mine, x) = (w.hex(1, 1), w.hex(2, 1), w.hex(2, 2));
    assert_eq!(st.hexes[mine as usize].main, Some(BuildingKind::Mine));
    st.set_owner(mine, empires_core::rules::Owner::of(0));
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
    assert_eq!(e.engine.dice.remaining(), 0);
    let steps: Vec<&str> = e.engine.log.iter().map(step).collect();
    assert_eq!(
        steps,
        [
            "season", "order", "order", "payday", "recruit", "combat", "xp", "loot", "ep", "ep", "ep_lost", "spend",
            "ep_lost", "city"
        ]
    );
    let log = &e.engine.log;
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
    assert_eq!(st.hexes[x as usize].owner(), empires_core::rules::Owner::of(0));
}

#[test]
fn g04_each_player_activates_all_its_pieces_in_turn() {
    // P0: army (1,2) -> (1,3), spy (2,2) -> (3,2). P1: army (5,2) -> (4,2), spy (4,3) -> (3,3).
    for p1_larger in [false, true] {
        let w = world(PLAINS, |_| {});
        let mut st = w.bare();
        st.set_owner(w.hex(1, 2), empires_core::rules::Owner::of(0));
        if p1_larger {
            st.set_owner(w.hex(4, 1), empires_core::rules::Owner::of(1));
            st.set_owner(w.hex(5, 1), empires_core::rules::Owner::of(1));
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
        e.engine.set_order(&mut st);
        assert_eq!(st.order, order, "smallest empire first (E-04)");
        e.play_phase(&mut st, Step::Act);
        let moved: Vec<u8> = e
            .engine
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
    assert_eq!((e.engine.dice.used(), e.engine.dice.remaining()), (4, 0));
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
        st.set_owner(h, empires_core::rules::Owner::of(0));
        st.hexes[h as usize].main = Some(BuildingKind::Castle);
        st.hexes[h as usize].main_pv = 3;
        st.set_owner(w.hex(4, 3), empires_core::rules::Owner::of(1));
        st.set_owner(w.hex(5, 2), empires_core::rules::Owner::of(1));
        let s = sizes(w.rules(), &st);
        assert_eq!((s[0].size, s[1].size), (p0, p1), "counts_in_size = {counted}");
        assert_eq!((s[0].hexes, s[0].cities, s[0].castles), (2, 1, 1));
        assert_eq!((s[1].hexes, s[1].cities, s[1].castles), (3, 1, 0));
        let mut e = w.engine(&[], Script::default());
        let r = e.engine.ranking(&st, true);
        assert_eq!((r[0].player, r[0].tie), (first, false));
        e.engine.set_order(&mut st);
        assert_eq!(st.order, vec![1 - first, first], "E-04: the smaller empire first");
        // The E-11 surcharge still follows `fortified`: conquer 3 + castle 1.
        assert_eq!(e.engine.take_cost(&st, h, true), 4);
        assert_eq!(e.engine.take_cost(&st, w.hex(5, 3), true), 4, "P1's capital city too");
    }
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
            st.set_owner(h, empires_core::rules::Owner::of(p));
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
        let r = w.engine(&[], Script::default()).engine.ranking(&st, true);
        assert_eq!((r[0].player, r[0].tie), (first, false), "{order:?}");
    }
}

/// G-02 / G-03: the die tie-break is a roll-off. Three players of equal
/// size (their capitals) roll 4, 4 and 2: the third is last, the first two
/// roll again, 1 against 3, so the second ranks first. Ranks count from 1
/// and every one of them is marked tied.
#[test]
fn g03_the_die_tie_break_rolls_off_among_those_still_equal() {
    let w = world(THREE, |_| {});
    let st = w.bare();
    let mut e = w.engine(&[4, 4, 2, 1, 3], Script::default());
    let r = e.engine.ranking(&st, true);
    let got: Vec<(u8, u8, bool)> = r.iter().map(|s| (s.player, s.rank, s.tie)).collect();
    assert_eq!(got, [(1, 1, true), (0, 2, true), (2, 3, true)]);
    assert_eq!(e.engine.dice.remaining(), 0);
    let rolls: Vec<(u8, i32)> = e
        .engine
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
    let r = e.engine.ranking(&st, true);
    assert_eq!((r[0].player, r[1].player), (0, 1));
    assert!(r[0].tie && r[1].tie);
    assert_eq!(e.engine.dice.remaining(), 0, "every round rolled, and no more");
}

/// G-03: without the die among the tie-breaks, tied players keep seat
/// order and no die is rolled; players of different sizes are not tied.
#[test]
fn g03_no_die_without_the_die_tie_break_and_no_tie_between_sizes() {
    use empires_core::scenario::TieBreak;
    let w = world(PLAINS, |sc| sc.campaign.tiebreak = vec![TieBreak::Cities, TieBreak::Castles]);
    let mut st = w.bare();
    // No dice scripted: a roll would panic.
    let r = w.engine(&[], Script::default()).engine.ranking(&st, true);
    assert_eq!((r[0].player, r[0].rank, r[0].tie, r[1].player, r[1].rank, r[1].tie), (0, 1, true, 1, 2, true));
    st.set_owner(w.hex(4, 3), empires_core::rules::Owner::of(1));
    let r = w.engine(&[], Script::default()).engine.ranking(&st, true);
    assert_eq!((r[0].player, r[0].rank, r[0].tie, r[1].player, r[1].rank, r[1].tie), (1, 1, false, 0, 2, false));
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
    assert_eq!(e.engine.end_check(&st), None, "both stand");
    let cap1 = w.hex(5, 3);
    st.set_owner(cap1, empires_core::rules::Owner::NOBODY);
    assert_eq!(e.engine.end_check(&st), Some(LastStanding));
    let w2 = world(PLAINS, |sc| sc.campaign.end_when_last_standing = false);
    assert_eq!(w2.engine(&[], Script::default()).engine.end_check(&st), None, "the game goes on alone");
    st.set_owner(w.hex(1, 1), empires_core::rules::Owner::NOBODY);
    assert_eq!(e.engine.end_check(&st), Some(AllEliminated));
    // Two allies alone are the last standing together.
    let w3 = world(THREE, |sc| {
        sc.players[0].team = Some(1);
        sc.players[1].team = Some(1);
    });
    let mut st3 = w3.bare();
    let e3 = w3.engine(&[], Script::default());
    assert_eq!(e3.engine.end_check(&st3), None, "their rival stands");
    st3.set_owner(w3.hex(5, 1), empires_core::rules::Owner::NOBODY);
    assert_eq!(e3.engine.end_check(&st3), Some(LastStanding));
    let mut st = w.bare();
    // The season limit, stalled or not.
    let limit = w.sc.campaign.seasons;
    let stall = w.sc.campaign.stall_seasons;
    st.season = limit - 1;
    st.quiet_seasons = stall;
    assert_eq!(e.engine.end_check(&st), None);
    st.season = limit;
    assert_eq!(e.engine.end_check(&st), Some(Stalled));
    st.quiet_seasons = stall - 1;
    assert_eq!(e.engine.end_check(&st), Some(SeasonLimit));
    let w4 = world(PLAINS, |sc| sc.campaign.stall_seasons = 0);
    st.quiet_seasons = 99;
    assert_eq!(w4.engine(&[], Script::default()).engine.end_check(&st), Some(SeasonLimit), "stalls not flagged");
}

/// G-31: a log borrowed by the engine (`&mut` a log, as the runner lends
/// its event buffer) records exactly what an owned log records.
#[test]
fn g31_a_borrowed_log_records_what_an_owned_log_records() {
    let w = world(MINE_MAP, |_| {});
    let mut st = w.bare();
    st.set_owner(w.hex(2, 1), empires_core::rules::Owner::of(0));
    let mut owned = w.engine(&[3, 4], Script::default());
    owned.play_season(&mut st.clone());
    let mut events = Vec::new();
    let mut lent = empires_core::rules::Driver::new(
        w.rules(),
        empires_core::rules::ScriptedDice::new(&[3, 4]),
        Script::default(),
        &mut events,
    );
    lent.play_season(&mut st);
    assert!(events.len() > 5);
    assert_eq!(events, owned.engine.log);
}

/// G-02: the campaign's winner is the player ranked first at its end.
#[test]
fn g02_the_winner_is_the_largest_empire_at_the_end() {
    let w = world(THREE, |_| {});
    let mut st = w.bare();
    st.set_owner(w.hex(4, 1), empires_core::rules::Owner::of(2));
    // P0 and P1 tie for second: P1 rolls higher.
    let mut e = w.engine(&[1, 2], Script::default());
    let out = e.engine.finish(&mut st, empires_core::rules::EndReason::SeasonLimit);
    assert_eq!((out.winner(), out.standings[0].player, out.standings[0].size.size), (2, 2, 3));
    let order: Vec<u8> = out.standings.iter().map(|s| s.player).collect();
    assert_eq!(order, [2, 1, 0]);
    assert!(matches!(e.engine.log.first(), Some(Event::End { .. })));
}

/// G-02 `campaign.stall_seasons`: a season that changes no banner and no
/// building is quiet; any such change (a banner, a main building, a second
/// building) starts the count again.
#[test]
fn g02_quiet_seasons_count_seasons_without_a_change_of_banner_or_building() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let mut e = w.engine(&[], Script::default());
    e.engine.end_of_season(&mut st);
    assert_eq!(st.quiet_seasons, 0, "the first fingerprint");
    e.engine.end_of_season(&mut st);
    e.engine.end_of_season(&mut st);
    assert_eq!(st.quiet_seasons, 2);
    let h = w.hex(3, 2) as usize;
    let changes: [fn(&mut State, usize); 4] = [
        |st, h| st.set_owner(h as u16, empires_core::rules::Owner::of(0)),
        |st, h| st.set_owner(h as u16, empires_core::rules::Owner::of(1)),
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
        e.engine.end_of_season(&mut st);
        assert_eq!(st.quiet_seasons, 0, "change {i}");
        e.engine.end_of_season(&mut st);
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
    st.set_owner(cap1, empires_core::rules::Owner::NOBODY);
    let c1 = st.hexes[cap1 as usize].city.get().unwrap();
    let mut e = w.engine(&[], Script::default());
    e.engine.end_of_season(&mut st);
    assert!(st.players[1].eliminated && !st.players[0].eliminated && !st.players[2].eliminated);
    assert!(!st.armies[a1].alive && st.armies[a2].alive);
    assert!(!st.spies[s1].alive && st.spies[s2].alive);
    assert!(!st.ships[sh1].alive && st.ships[sh2].alive);
    assert!(st.cities[c1].controller.is_nobody());
    assert!(st.hexes[cap2 as usize].owner().is(2));
    e.engine.end_of_season(&mut st);
    let n = e.engine.log.iter().filter(|x| matches!(x, Event::Eliminated { .. })).count();
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
        assert_eq!(e.engine.next_decision(&mut st), Some((0, d)));
        e.engine.apply(&mut st, Action::Done);
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
/// at the defender's bid plays on to the same end when its engine is
/// handed the attacker's bid, which the state does not hold (G-07).
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
    assert_eq!(e.engine.next_decision(&mut st), Some((0, Decision::Act)));
    e.engine.apply(&mut st, Action::Attack { army: a as u16, target: d as u16 });
    assert_eq!(st.step, Step::Bid { attacking: true });
    assert_eq!(e.engine.next_decision(&mut st), Some((0, Decision::Bid { kind: CombatKind::Army, attacking: true })));
    assert_eq!(e.engine.options(), (0..=2).map(Action::Bid).collect::<Vec<_>>());
    let at_attacker = st.clone();
    e.engine.apply(&mut st, Action::Bid(2));
    // The bid is held in secret: not spent yet, and not in the state at
    // all, which equals the state a bid of 0 leaves (the record below
    // shows the engine kept it).
    assert_eq!((st.step, st.players[0].initiative), (Step::Bid { attacking: false }, 2));
    let mut zero = at_attacker;
    w.engine(&[], Script::default()).engine.apply(&mut zero, Action::Bid(0));
    assert_eq!(zero, st, "the state holds no attacker's bid");
    assert_eq!(e.engine.next_decision(&mut st), Some((1, Decision::Bid { kind: CombatKind::Army, attacking: false })));
    let at_defender = st.clone();
    e.engine.apply(&mut st, Action::Bid(1));
    // 3 + 2 + 5 against 3 + 1 + 3: gap 3. Both bids spent; back to P0's turn.
    assert_eq!(st.step, Step::Act);
    assert_eq!((st.fight.rec.a.bid, st.fight.rec.d.bid, st.fight.rec.gap), (2, 1, 3));
    assert_eq!((st.players[0].initiative, st.players[1].initiative), (0, 1));
    let mut copy = at_defender;
    let mut e2 = w.engine(&[5, 3], Script::default());
    e2.engine.assume_attacker_bid(2);
    e2.engine.apply(&mut copy, Action::Bid(1));
    assert_eq!(copy, st);
    assert_eq!(e2.engine.log, e.engine.log);
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
    assert!(e.engine.log.contains(&Event::EpLost { player: 0, ep: 1 }));
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
        let Some((p, d)) = e.engine.next_decision(&mut st) else { continue };
        let listed = e.engine.options().to_vec();
        let before = st.clone();
        assert_eq!(e.engine.legal_actions(&st), Some((p, d)));
        assert_eq!(e.engine.options(), listed);
        assert_eq!(st, before);
        // The first action listed: moves and attacks before `Done`.
        let a = listed[0];
        e.engine.apply(&mut st, a);
        checked += 1;
    }
    assert!(checked > 10, "{checked} decisions");
    assert_eq!(e.engine.legal_actions(&st), None, "a season's start is no decision");
}

/// G-04 and the checked door: in player 1's turn of the action phase, a
/// move of player 0's army to a hex it is not next to is not among the
/// options, nor a move of that army to a hex it is next to, and
/// `Game::apply` refuses both in every build, the game left as it was.
/// (`Engine::apply`, the driver's door, asserts membership in debug
/// builds only.)
#[test]
fn g04_an_action_the_options_do_not_list_is_not_played() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a0 = army(&mut st, 0, w.hex(1, 2), 3) as u16;
    army(&mut st, 1, w.hex(5, 2), 3);
    st.order = vec![0, 1];
    (st.step, st.turn) = (Step::Act, 1);
    let mut g = Game::new(w.rules(), st);
    let at = Node::Decision { player: 1, decision: Decision::Act };
    assert_eq!(g.node(), at);
    let before = g.state().clone();
    for bad in [Action::MoveArmy { army: a0, to: w.hex(4, 2) }, Action::MoveArmy { army: a0, to: w.hex(2, 2) }] {
        assert!(!g.legal_actions().contains(&bad), "{bad:?} is listed");
        assert_eq!(g.apply(bad), Err(Illegal::NotLegal { action: bad, player: 1, decision: Decision::Act }));
        assert_eq!(g.state(), &before, "{bad:?} was played");
        assert_eq!(g.node(), at);
        assert!(g.history().is_empty());
    }
}

/// G-30 and the checked door: a recruit on another player's capital and a
/// castle on another player's hex, in player 1's turn, are not among its
/// options, and `Game::apply` refuses them in every build, the game left
/// as it was.
#[test]
fn g30_a_recruit_or_purchase_the_options_do_not_list_is_not_played() {
    let w = world(PLAINS, |_| {});
    let mut st = w.start();
    st.order = vec![0, 1];
    for p in st.players.iter_mut() {
        (p.gold, p.ep) = (1000, 3);
    }
    let cap0 = w.hex(1, 1);
    let mine = w.hex(2, 2);
    st.set_owner(mine, empires_core::rules::Owner::of(0));
    for (step, decision, bad) in [
        (Step::Recruit, Decision::Recruit, Action::Recruit { hex: cap0, item: Item::Unit }),
        (Step::Spend, Decision::Spend, Action::Build { hex: mine, kind: BuildingKind::Castle }),
    ] {
        let mut st = st.clone();
        (st.step, st.turn) = (step, 1);
        let mut g = Game::new(w.rules(), st);
        assert_eq!(g.node(), Node::Decision { player: 1, decision });
        assert!(!g.legal_actions().contains(&bad), "{bad:?} is listed");
        let before = g.state().clone();
        assert_eq!(g.apply(bad), Err(Illegal::NotLegal { action: bad, player: 1, decision }));
        assert_eq!(g.state(), &before, "{bad:?} was played");
        assert!(g.history().is_empty());
    }
}
