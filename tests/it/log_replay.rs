//! The campaign log is self-sufficient: a reader that sees only the JSON
//! lines of `empires play --json` rebuilds the engine's position after
//! every season, for many campaigns of every shipped scenario. And the log's
//! JSON Schema, generated from its Rust types, is the committed one.

use empires::report::log::{self, Played, Record};
use empires::report::log_replay::{Position, Replay};
use empires::rules::Driver;
use empires::rules::setup::{initial_state, make_map};
use empires::rules::{RngDice, Rules};
use empires::scenario::{Scenario, Source, load_str};
use empires::seed;
use empires::strategy::Seats;

fn shipped(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    load_str(&text, &Source::file(&path)).unwrap_or_else(|e| panic!("{e}"))
}

/// Play campaigns season by season, render each log as JSON lines, parse
/// them back, replay them and compare the positions at every season's end.
/// Returns the number of seasons compared.
fn replay_campaigns(sc: &Scenario, master: u64, campaigns: u64) -> usize {
    let mut compared = 0;
    let names: Vec<String> = sc.players.iter().map(|p| p.strategy.clone()).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    for i in 0..campaigns {
        let cs = seed::campaign_seed(master, i);
        let map = make_map(sc, cs).unwrap();
        let rules = Rules::new(sc, &map);
        let mut st = initial_state(rules);
        let start = st.clone();
        let dice = RngDice(seed::rng(cs, seed::Stream::Dice));
        let mut e = Driver::new(rules, dice, Seats::named(sc, cs, &refs), Vec::new());
        let mut seasons = Vec::new();
        loop {
            let end = e.play_season(&mut st);
            seasons.push((e.engine.log.len(), Position::of(&st)));
            if let Some(r) = end {
                e.engine.finish(&mut st, r);
                break;
            }
        }
        let played = Played {
            sc,
            map: &map,
            start: &start,
            master_seed: master,
            campaign: i,
            campaign_seed: cs,
            strategies: &names,
        };
        let text = log::render(&played, &e.engine.log);
        let records: Vec<Record> = text
            .lines()
            .enumerate()
            .map(|(k, l)| serde_json::from_str(l).unwrap_or_else(|err| panic!("line {}: {err}: {l}", k + 1)))
            .collect();
        assert_eq!(records.len(), e.engine.log.len() + 1, "a header, then one line per event");
        let mut reader = Replay::default();
        reader.apply(&records[0]).unwrap();
        assert_eq!(reader.pos, Position::of(&start), "{}: campaign {i}: the header", sc.name);
        let mut next = 1;
        for (season, (len, want)) in seasons.iter().enumerate() {
            while next <= *len {
                reader.apply(&records[next]).unwrap_or_else(|err| panic!("campaign {i}: {err}"));
                next += 1;
            }
            assert_eq!(reader.pos, *want, "{}: campaign {i}, after season {}", sc.name, season + 1);
            compared += 1;
        }
        // The standings after the last season change nothing.
        for r in &records[next..] {
            reader.apply(r).unwrap();
        }
        assert_eq!(reader.pos, Position::of(&st));
    }
    compared
}

#[test]
fn the_log_alone_rebuilds_every_season_of_the_default_scenario() {
    let seasons = replay_campaigns(&Scenario::embedded_default(), 11, 60);
    assert!(seasons >= 60 * 10, "{seasons} seasons compared");
}

#[test]
fn the_log_alone_rebuilds_every_season_of_the_duel_and_the_archipelago() {
    for f in ["duel.toml", "archipelago.toml"] {
        let sc = shipped(f);
        let seasons = replay_campaigns(&sc, 12, 40);
        assert!(seasons >= 40 * 5, "{f}: {seasons} seasons compared");
    }
}

#[test]
fn the_log_alone_rebuilds_every_season_of_the_straits() {
    // scenarios/straits.toml plays naval combat, transport, sieges and spies
    // in the same campaigns.
    let seasons = replay_campaigns(&shipped("straits.toml"), 12, 40);
    assert!(seasons >= 40 * 10, "{seasons} seasons compared");
}

#[test]
fn the_log_covers_transport_detachments_sieges_and_ships() {
    // The archipelago sails and the default scenario besieges: the replays
    // above only prove something if those records occur in them.
    let mut kinds = std::collections::BTreeSet::new();
    for (sc, n) in [(Scenario::embedded_default(), 60), (shipped("archipelago.toml"), 40)] {
        for i in 0..n {
            let mut events = Vec::new();
            empires::sim::Campaign::numbered(&sc, 11, i).log(&mut events).play().unwrap();
            for e in &events {
                let r = log::record(e);
                let name = serde_json::to_value(&r).unwrap()["event"].as_str().unwrap().to_string();
                kinds.insert(match &r {
                    Record::Combat(c) => format!("combat:{}", c.kind),
                    Record::Transport { army, landed, .. } if army != landed => "transport:detachment".into(),
                    _ => name,
                });
            }
        }
    }
    for k in [
        "recruit",
        "combat:army",
        "combat:siege",
        "combat:spy",
        "combat:spy_vs_spy",
        "city",
        "city_taken",
        "building_pv",
        "building_destroyed",
        "ship_hit",
        "transport:detachment",
        "spend",
    ] {
        assert!(kinds.contains(k), "no {k} record in the replayed campaigns: {kinds:?}");
    }
}

#[test]
fn the_committed_json_schema_is_the_generated_one() {
    let path = format!("{}/docs/log.schema.json", env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == log::schema_json(),
        "docs/log.schema.json is out of date: run `empires play --log-schema > docs/log.schema.json`"
    );
}

#[test]
fn the_header_comes_first_and_describes_the_whole_map() {
    // Every line also parses strictly (unknown fields refused) into the
    // types the schema is generated from, in the replays above.
    let sc = Scenario::embedded_default();
    let fin = empires::sim::Campaign::numbered(&sc, 3, 0).log(Vec::new()).play().unwrap();
    let events = &fin.log;
    let start = initial_state(Rules::new(&sc, &fin.map));
    let names: Vec<String> = sc.players.iter().map(|p| p.strategy.clone()).collect();
    let played = Played {
        sc: &sc,
        map: &fin.map,
        start: &start,
        master_seed: 3,
        campaign: 0,
        campaign_seed: seed::campaign_seed(3, 0),
        strategies: &names,
    };
    let text = log::render(&played, events);
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "header");
    assert_eq!(first["hexes"].as_array().unwrap().len(), fin.map.len());
    assert_eq!(first["scenario_sha256"].as_str().unwrap().len(), 64);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["event"].is_string(), "{line}");
    }
}

#[test]
fn the_output_of_play_json_replays_to_the_final_position() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["play", "--seed", "7", "--campaign", "2", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut reader = Replay::default();
    let mut header = None;
    for line in text.lines() {
        let r: Record = serde_json::from_str(line).unwrap();
        if let Record::Header(h) = &r {
            header = Some(h.clone());
        }
        reader.apply(&r).unwrap();
    }
    // The same campaign played in the library, with the seats the header names.
    let h = header.expect("a header line");
    assert_eq!((h.master_seed, h.campaign, h.tool.as_str()), (7, 2, "empires"));
    let sc = Scenario::embedded_default();
    let cs = seed::campaign_seed(7, 2);
    assert_eq!(h.campaign_seed, cs);
    let map = make_map(&sc, cs).unwrap();
    let names: Vec<&str> = h.players.iter().map(|p| p.strategy.as_str()).collect();
    let st = empires::sim::Campaign::new(&sc, cs).on(&map).seats(&names).play().state;
    assert_eq!(reader.pos, Position::of(&st));
}
