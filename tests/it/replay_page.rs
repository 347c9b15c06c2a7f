//! The replay page's seasons: kept one by one, they are the game
//! `sim::play_campaign` plays.

use empires::report::replay_page;
use empires::rules::Event;
use empires::scenario::{DEFAULT_TOML, Scenario, Source, load_str};
use empires::sim;

fn scenario(file: &str) -> Scenario {
    if file == "default.toml" {
        return load_str(DEFAULT_TOML, &Source::embedded("default.toml")).unwrap();
    }
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(path)).unwrap()
}

#[test]
fn seasons_kept_one_by_one_are_the_game_play_campaign_plays() {
    for file in ["default.toml", "duel.toml", "archipelago.toml"] {
        let sc = scenario(file);
        for (master, index) in [(1, 0), (7, 0), (7, 3), (42, 11), (1234, 5)] {
            let mut ev = Vec::new();
            let r = replay_page::play(&sc, master, index, false, &mut ev).unwrap();
            let mut ev2: Vec<Event> = Vec::new();
            let f = sim::play_campaign(&sc, master, index, &mut ev2).unwrap();
            assert_eq!(r.map, f.map, "{file} {master}/{index}");
            assert_eq!(r.final_state(), &f.state, "{file} {master}/{index}");
            assert_eq!(r.outcome, f.outcome, "{file} {master}/{index}");
            assert_eq!(ev, ev2, "{file} {master}/{index}");
            // The start, then one state per season, each after its season.
            assert_eq!(r.states.len() as u32, f.outcome.seasons + 1);
            let rules = empires::rules::Rules::new(&sc, &r.map);
            assert_eq!(r.states[0], empires::rules::setup::initial_state(rules));
            for (k, st) in r.states.iter().enumerate().skip(1) {
                let next = if k as u32 == f.outcome.seasons { k as u32 } else { k as u32 + 1 };
                assert_eq!(st.season, next, "state {k} is the one after season {k}");
            }
            let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
            assert_eq!(r.strategies, names);
        }
    }
}

#[test]
fn rotated_seats_replay_the_rotated_campaign() {
    let sc = scenario("default.toml");
    for index in 0..6u64 {
        let mut ev = Vec::new();
        let r = replay_page::play(&sc, 7, index, true, &mut ev).unwrap();
        let names = sim::runner::seat_strategies(&sc, index, true);
        let cs = sim::seed::campaign_seed(7, index);
        let map = empires::rules::setup::make_map(&sc, cs).unwrap();
        let mut ev2: Vec<Event> = Vec::new();
        let (state, outcome) = sim::play_on_map_as(&sc, &map, cs, &names, &mut ev2).unwrap();
        assert_eq!((r.final_state(), &r.outcome, &ev), (&state, &outcome, &ev2), "campaign {index}");
        assert_eq!(r.strategies, names);
    }
}
