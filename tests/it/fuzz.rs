//! Fuzzing of scenario input with proptest over generated TOML: mutated
//! scenario text and random `--set` flags. Loading must never panic, and a
//! scenario that loads must play a campaign without panicking (the engine
//! trusts `check`). The number of inputs each `cargo test` tries is
//! `cases()` per property (1,500, or `EMPIRES_FUZZ_CASES`); docs/commands.md
//! (Hardening) records a longer run.

use empires::scenario::{Source, load_str, load_with_overrides};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("EMPIRES_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1500)
}

/// Values that stress the loader: wrong types, extremes, malformed dice
/// and tables, unicode.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        (-5i64..400).prop_map(|v| v.to_string()),
        Just("-2147483649".to_string()),
        Just("9223372036854775807".to_string()),
        Just("1e308".to_string()),
        Just("nan".to_string()),
        Just("-inf".to_string()),
        Just("0.0".to_string()),
        Just("true".to_string()),
        Just("\"\"".to_string()),
        Just("\"é🎲\"".to_string()),
        Just("\"0D6\"".to_string()),
        Just("\"255D255x4294967295\"".to_string()),
        Just("\"3D6x10+5\"".to_string()),
        Just("\"D\"".to_string()),
        Just("[]".to_string()),
        Just("[1, 2]".to_string()),
        Just("[\"plains\", \"sea\"]".to_string()),
        Just("[\"mine\", \"done\"]".to_string()),
        Just("{}".to_string()),
        Just("{ from = 3 }".to_string()),
        Just("[[1]]".to_string()),
        "[a-z_ ]{0,12}".prop_map(|s| format!("\"{s}\"")),
    ]
}

fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Play one campaign of a scenario that loaded: it must not panic.
fn plays(sc: &empires::scenario::Scenario, seed: u64) {
    if let Ok(f) = empires::sim::Campaign::numbered(sc, seed, 0).play() {
        assert!(f.outcome.seasons >= 1);
    }
}

/// Lines of the shipped scenarios that assign a value (`key = value`).
fn assignments(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            !t.starts_with('#') && !t.starts_with('[') && t.contains(" = ")
        })
        .map(|(i, _)| i)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Replace the values of a few assignments, delete lines, or splice in
    /// junk; load; play what loads.
    #[test]
    fn fuzz_scenario_text(
        file in 0usize..4,
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, value(), "[ -~]{0,8}"), 1..6),
        seed in any::<u64>(),
    ) {
        let name = ["default.toml", "duel.toml", "archipelago.toml", "straits.toml"][file];
        let text = shipped(name);
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let targets = assignments(&text);
        for (at, op, v, junk) in edits {
            let i = targets[at.index(targets.len())];
            if i >= lines.len() { continue; }
            match op {
                0 | 1 => {
                    let key = lines[i].split(" = ").next().unwrap_or("x").to_string();
                    lines[i] = format!("{key} = {v}");
                }
                2 => { lines.remove(i); }
                _ => {
                    let l = &mut lines[i];
                    let cut = l.char_indices().map(|(k, _)| k).nth(junk.len() % (l.chars().count().max(1))).unwrap_or(0);
                    l.insert_str(cut, &junk);
                }
            }
        }
        let mutated = lines.join("\n");
        match load_str(&mutated, &Source::file(name)) {
            Ok(sc) => plays(&sc, seed),
            Err(e) => {
                // Every problem is located.
                let msg = e.to_string();
                prop_assert!(msg.starts_with(name) && msg.split(':').nth(1).is_some_and(|l| l.parse::<usize>().is_ok()), "{msg}");
            }
        }
    }

    /// Random `--set` flags over real and made-up keys.
    #[test]
    fn fuzz_set_flags(
        sets in prop::collection::vec((0usize..24, value()), 1..4),
        seed in any::<u64>(),
    ) {
        const KEYS: [&str; 24] = [
            "costs.capture", "costs.pillage", "economy.mine.river", "economy.pillage", "combat.die",
            "army.bid_cap", "army.losses", "siege.table", "naval.ship_pv", "spy.base",
            "recruit.unit", "start.gold", "campaign.seasons", "map.generate.land", "map.rows",
            "players[1].strategy", "players[9].name", "players", "strategies.miner.forbid",
            "strategies.lookahead.rollouts", "strategies.new.extends", "tables.attacker_base",
            "buildings.mine.terrain", "nonsense.key",
        ];
        let overrides: Vec<(String, String)> = sets.iter().map(|(k, v)| (KEYS[*k].to_string(), v.clone())).collect();
        match load_with_overrides(empires::scenario::DEFAULT_TOML, &Source::embedded("default.toml"), &overrides) {
            Ok(sc) => plays(&sc, seed),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
