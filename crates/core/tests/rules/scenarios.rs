//! The shipped scenarios load, and the embedded default matches its file.

use empires_core::scenario::{Scenario, Source, load_str};

#[test]
fn shipped_scenarios_are_valid() {
    for f in ["default.toml", "duel.toml", "archipelago.toml", "straits.toml"] {
        let path = format!("{}/../../scenarios/{f}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let sc = load_str(&text, &Source::file(&path)).unwrap_or_else(|e| panic!("{e}"));
        assert!(sc.players.len() >= 2);
    }
}

#[test]
fn default_toml_spells_out_the_g_defaults() {
    // scenarios/default.toml lists every rule value; it must equal the code's
    // defaults so the file designers read is the truth.
    let sc = Scenario::embedded_default();
    let d = Scenario::default();
    assert_eq!(sc.ep, d.ep);
    assert_eq!(sc.costs, d.costs);
    assert_eq!(sc.buildings, d.buildings);
    assert_eq!(sc.economy, d.economy);
    assert_eq!(sc.recruit, d.recruit);
    assert_eq!(sc.initiative, d.initiative);
    assert_eq!(sc.combat, d.combat);
    assert_eq!(sc.army, d.army);
    assert_eq!(sc.siege, d.siege);
    assert_eq!(sc.naval, d.naval);
    assert_eq!(sc.spy, d.spy);
    assert_eq!(sc.cities, d.cities);
    assert_eq!(sc.movement, d.movement);
    assert_eq!(sc.start, d.start);
    assert_eq!(sc.tables, d.tables);
    assert_eq!(sc.campaign, d.campaign);
    assert_eq!(sc.map.generator(), d.map.generator());
    assert_eq!(sc.strategies, d.strategies, "default.toml changes no archetype");
    assert_eq!(sc.players.len(), 4);
}

#[test]
fn archipelago_is_sea_heavy_with_coastal_capitals() {
    let path = format!("{}/../../scenarios/archipelago.toml", env!("CARGO_MANIFEST_DIR"));
    let sc = load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(&path)).unwrap();
    let map = empires_core::rules::setup::make_map(&sc, 0).unwrap();
    let sea = map.terrain.iter().filter(|t| !t.is_land()).count();
    assert!(sea > map.land_count as usize, "more sea than land");
    assert!(map.placements.capitals.iter().all(|&c| map.coastal[c as usize]));
    assert!((3..=4).contains(&sc.players.len()));
}

#[test]
fn a_partial_table_keeps_the_other_defaults() {
    let text = "[buildings.castle]\ncost = 2\n\n[cities.capital]\ndefence = 3\n\n[siege.outcomes.pillage]\ngold = 50\n";
    let sc = load_str(text, &Source::file("partial.toml")).unwrap();
    let d = Scenario::default();
    assert_eq!(sc.buildings.castle.cost, 2);
    assert_eq!(sc.buildings.castle.terrain, d.buildings.castle.terrain);
    assert_eq!(sc.buildings.castle.defence, d.buildings.castle.defence);
    assert_eq!((sc.cities.capital.defence, sc.cities.capital.level), (3, 1));
    assert_eq!(sc.siege.outcomes.pillage.gold, 50);
    assert_eq!(sc.siege.outcomes.pillage.influence, 0);
    assert_eq!(sc.siege.outcomes.pillage.stability_change, -2);
}

#[test]
fn a_table_of_rows_replaces_the_default_whole() {
    let text = "[[army.losses]]\nfrom = 0\nwinner_loss = 0\nloser_loss = 2\n";
    let sc = load_str(text, &Source::file("rows.toml")).unwrap();
    assert_eq!(sc.army.losses.rows.len(), 1);
    assert_eq!(sc.army.losses.lookup(9).loser_loss, 2);
}
