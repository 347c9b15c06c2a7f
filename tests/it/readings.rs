//! What the headline answers rest on, and a scenario where every mechanic
//! is played:
//!
//! - `experiment mine-vs-pillage` shows its answer under the shipped
//!   reading of the gap rules G-03, G-11 and G-13 and under each
//!   alternative (issue 21.8); each reading is scenario keys and nothing
//!   else.
//! - `scenarios/straits.toml` plays naval combat, transport, sieges and
//!   spies, with fair seats (issue 22).

use crate::play_cli::bin;
use empires::scenario::{ActionKind, DEFAULT_TOML, Scenario, Source, load_str, load_with_overrides};
use empires::sim::Detail;
use empires::sim::record::Coverage;
use empires::sim::runner::{Flow, RunConfig, run};
use empires::stats::holm;
use empires::study::mine_pillage::{readings, run_readings};

/// Every leaf of a scenario as `dotted.path = value`.
fn leaves(sc: &Scenario) -> std::collections::BTreeMap<String, String> {
    fn walk(prefix: &str, v: &toml::Value, out: &mut std::collections::BTreeMap<String, String>) {
        match v {
            toml::Value::Table(t) => {
                for (k, x) in t {
                    walk(&if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, x, out)
                }
            }
            x => {
                out.insert(prefix.to_string(), x.to_string());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk("", &toml::Value::try_from(sc).unwrap(), &mut out);
    out
}

#[test]
fn each_reading_changes_exactly_its_named_keys() {
    let sc = Scenario::embedded_default();
    let base = leaves(&sc);
    let all = readings();
    assert_eq!(
        all.iter().map(|r| r.name).collect::<Vec<_>>(),
        ["shipped", "G-03: size = hexes held", "G-11: peace pays 1 EP", "G-13: 3 recruits a hex", "all three"]
    );
    for r in &all {
        let applied = r.apply(&sc);
        // The keys the table names are the keys `--set` would change...
        let sets: Vec<(String, String)> = r.sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let via_set = load_with_overrides(DEFAULT_TOML, &Source::embedded("default.toml"), &sets).unwrap();
        assert_eq!(applied, via_set, "{}", r.name);
        // ...and nothing else differs from the shipped scenario.
        let now = leaves(&applied);
        let changed: Vec<&String> = now.iter().filter(|(k, v)| base.get(*k) != Some(v)).map(|(k, _)| k).collect();
        let mut named: Vec<&str> = r.sets.iter().map(|(k, _)| *k).collect();
        named.sort();
        assert_eq!(changed, named, "{}", r.name);
    }
    // The shipped reading is the scenario as given; "all three" is every
    // alternative's keys.
    assert!(all[0].sets.is_empty());
    let every: Vec<_> = all[1..4].iter().flat_map(|r| r.sets.clone()).collect();
    assert_eq!(all[4].sets, every);
}

#[test]
fn holm_adjusts_step_down() {
    // Sorted 0.01, 0.03, 0.04: 3 × 0.01, 2 × 0.03, then max(0.06, 1 × 0.04).
    let q = holm(&[0.01, 0.04, 0.03]);
    let want = [0.03, 0.06, 0.06];
    for (a, b) in q.iter().zip(want) {
        assert!((a - b).abs() < 1e-12, "{q:?}");
    }
    // 2 × 0.2 = 0.4 carries over to the larger p; 2 × 0.8 is capped at 1.
    assert_eq!(holm(&[0.3, 0.2]), vec![0.4, 0.4]);
    assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
}

#[test]
fn readings_table_plays_each_reading_on_the_same_seeds() {
    let sc = Scenario::embedded_default();
    let r = run_readings(&sc, "balanced", 3, 40).unwrap();
    assert_eq!((r.players.as_str(), r.campaigns, r.seed, r.rows.len()), ("balanced", 40, 3, 5));
    for row in &r.rows {
        assert_eq!(row.observed.loss.campaigns, 40);
        assert_eq!(row.no_mines.campaigns, 40);
        assert_eq!(row.mines_first.diff.n, 40);
        // Every player's unrestricted baseline is the same campaigns in
        // the three restricted columns.
        assert_eq!(row.no_mines.base_wins, row.mines_first.base_wins);
        assert!((0.0..=1.0).contains(&row.p_holm), "{}", row.p_holm);
        assert!(row.observed.mines.mean >= 0.0 && row.observed.mines.low <= row.observed.mines.high);
    }
    // Readings change play: 3 recruits a hex changes at least one figure.
    let (a, b) = (&r.rows[0], &r.rows[3]);
    assert!(
        a.observed.loss != b.observed.loss || a.no_mines.base_wins != b.no_mines.base_wins,
        "G-13 at 3 recruits played the same campaigns as the shipped reading"
    );
    // The same table on the same seed is the same table.
    let again = run_readings(&sc, "balanced", 3, 40).unwrap();
    for (x, y) in r.rows.iter().zip(&again.rows) {
        assert_eq!(
            (x.no_mines.wins, x.mines_first.wins, x.observed.loss.lost),
            (y.no_mines.wins, y.mines_first.wins, y.observed.loss.lost)
        );
    }
}

#[test]
fn mine_vs_pillage_prints_a_row_for_each_reading() {
    let o = bin()
        .args([
            "experiment",
            "mine-vs-pillage",
            "--campaigns",
            "20",
            "--loss-campaigns",
            "0",
            "--readings-campaigns",
            "30",
            "--out",
        ])
        .arg(std::env::temp_dir().join(format!("empires-readings-{}", std::process::id())))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("4. What the answer rests on"), "{text}");
    assert!(text.contains("every seat equilibrium (30 campaigns a row and a column, master seed 1"), "{text}");
    let table: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("4. What")).collect();
    for name in ["shipped", "G-03: size = hexes held", "G-11: peace pays 1 EP", "G-13: 3 recruits a hex", "all three"] {
        let row =
            table.iter().find(|l| l.trim_start().starts_with(name)).unwrap_or_else(|| panic!("no row {name}: {text}"));
        assert!(row.contains('[') && row.contains("(of 12)"), "{row}");
    }
    for keys in [
        "G-03: size = hexes held: buildings.castle.counts_in_size=false buildings.city.counts_in_size=false",
        "G-11: peace pays 1 EP: ep.no_battle=1",
        "G-13: 3 recruits a hex: recruit.per_hex=3",
        "all three: buildings.castle.counts_in_size=false buildings.city.counts_in_size=false ep.no_battle=1 \
         recruit.per_hex=3",
    ] {
        assert!(text.contains(keys), "{keys}: {text}");
    }
    assert!(text.contains("Holm's correction over the 5 rows"), "{text}");
    // 0 leaves the table out; 1 cannot give an interval.
    let o = bin()
        .args([
            "experiment",
            "mine-vs-pillage",
            "--campaigns",
            "4",
            "--loss-campaigns",
            "0",
            "--readings-campaigns",
            "0",
        ])
        .arg("--out")
        .arg(std::env::temp_dir().join(format!("empires-readings0-{}", std::process::id())))
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("4. What the answer rests on"));
    let o = bin().args(["experiment", "mine-vs-pillage", "--readings-campaigns", "1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

// ---------------------------------------------------------------- straits

fn straits() -> Scenario {
    let path = format!("{}/scenarios/straits.toml", env!("CARGO_MANIFEST_DIR"));
    load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(&path)).unwrap()
}

/// Campaigns `0..n` of `sc` on master seed 1: the coverage and each seat's wins.
fn play(sc: &Scenario, n: u64) -> (Coverage, Vec<u64>) {
    let cfg = RunConfig { master: 1, range: 0..n, rotate_seats: true, chunk: 64, detail: Detail::default() };
    let mut cov = Coverage::default();
    let mut wins = vec![0u64; sc.players.len()];
    run::<empires::rules::setup::SetupError>(
        sc,
        &cfg,
        |c| {
            cov.merge(&c.coverage);
            for p in c.players.iter().filter(|p| p.winner) {
                wins[p.seat as usize] += 1;
            }
            Ok(Flow::Continue)
        },
        |_| {},
    )
    .unwrap();
    (cov, wins)
}

#[test]
fn straits_plays_naval_combat_transport_sieges_and_spies_with_fair_seats() {
    let sc = straits();
    assert_eq!(sc.players.len(), 4);
    let n = 400;
    let (cov, wins) = play(&sc, n);
    for kind in [
        ActionKind::NavalAttack,
        ActionKind::Transport,
        ActionKind::Siege,
        ActionKind::SpyAction,
        ActionKind::SpyDuel,
        ActionKind::CoastalAttack,
    ] {
        // Each at least once every ten campaigns.
        assert!(cov.total(kind) >= n / 10, "{kind}: {} in {n} straits campaigns", cov.total(kind));
    }
    assert_eq!(wins.iter().sum::<u64>(), n, "one winner a campaign");
    // Seat check: the chi-square test of equal seats (as `empires run`
    // prints it) finds no seat effect at 1%, and every seat's Wilson
    // interval holds 1/4.
    let t = empires::stats::equal_shares(&wins).unwrap();
    assert!(t.p > 0.01, "seat effect: wins {wins:?}, p = {}", t.p);
    for (s, &w) in wins.iter().enumerate() {
        let (lo, hi) = empires::stats::wilson(w as f64, n as f64, 0.99);
        assert!(lo <= 0.25 && 0.25 <= hi, "seat {s}: {w} of {n} wins");
    }
}

#[test]
fn straits_is_symmetric_left_to_right_and_top_to_bottom() {
    // Every seat has the same position: the map is its own mirror image
    // both ways, capital 1 mirroring 2 (left-right) and 3 (top-bottom).
    let sc = straits();
    let map = empires::rules::setup::make_map(&sc, 0).unwrap();
    let rows = sc.map.rows.clone().unwrap();
    let grid: Vec<Vec<&str>> = rows.iter().map(|r| r.split_whitespace().collect()).collect();
    let h = grid.len();
    for (r, row) in grid.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            // Odd rows sit half a hex right: their mirror is one cell less.
            let Some(m) = (if r % 2 == 0 { row.len().checked_sub(1 + c) } else { row.len().checked_sub(2 + c) }) else {
                assert_eq!(*cell, "-", "row {r} cell {c} has no mirror, so it must be a hole");
                continue;
            };
            let t = |x: &str| x.chars().next().unwrap();
            assert_eq!(t(cell), t(row[m]), "row {r}: cell {c} against {m}");
            assert_eq!(t(cell), t(grid[h - 1 - r][c]), "cell {c}: row {r} against {}", h - 1 - r);
        }
    }
    assert_eq!(map.placements.capitals.len(), 4);
    assert!(map.placements.capitals.iter().all(|&c| map.coastal[c as usize]));
}

/// The combat answers' readings (`study::combat_readings`): each is flipped
/// by the one key it names, as `--set KEY=VALUE` would set it, and nothing
/// else changes; E-02's is measured with two teams of two, set on the seats
/// only.
#[test]
fn each_combat_reading_changes_exactly_its_named_key() {
    use empires::study::combat_readings::{readings, with_teams};
    let sc = Scenario::embedded_default();
    let base = leaves(&sc);
    let all = readings();
    assert_eq!(
        all.iter().map(|r| r.flag()).collect::<Vec<_>>(),
        [
            "army.garrison_attacks=true",
            "army.formations.assault_in_sieges=true",
            "army.xp_needs_destroyed=true",
            "ep.team_shares_battles=true",
            "spy.duel_loots=true",
            "buildings.mine.pv=2"
        ]
    );
    for r in &all {
        let applied = r.apply(&sc);
        let sets = [(r.key.to_string(), r.value.to_string())];
        let via_set = load_with_overrides(DEFAULT_TOML, &Source::embedded("default.toml"), &sets).unwrap();
        assert_eq!(applied, via_set, "{}", r.rule);
        let now = leaves(&applied);
        let changed: Vec<&String> = now.iter().filter(|(k, v)| base.get(*k) != Some(v)).map(|(k, _)| k).collect();
        assert_eq!(changed, [r.key], "{}", r.rule);
    }
    let teams = with_teams(&sc);
    assert_eq!(teams.players.iter().map(|p| p.team).collect::<Vec<_>>(), [Some(1), Some(2), Some(1), Some(2)]);
    assert_eq!((teams.team_of(0), teams.team_of(1)), (Some(1), Some(2)));
}

/// `tables` ends its answer with what it rests on: a row per reading, each
/// with the reading shipped, the key that flips it and what flipping it
/// moves in play (shipped and flipped with 95% intervals, the paired change,
/// Holm's verdict), the campaigns and the seed; W-05 and W-07 also
/// exactly: an army attacking out of its capital attacks at +2 (the
/// capital's defence), so at equal base P(win) goes from 15/36 to 26/36; an
/// Assault army assaults at +1, so from 15/36 to 21/36. W-06 flipped (experience only for destroying an army) gains less
/// experience beyond chance. The page and the JSON carry the same rows.
#[test]
fn tables_shows_what_the_combat_answer_rests_on() {
    let dir = std::env::temp_dir().join(format!("empires-rests-{}", std::process::id()));
    let o = bin().args(["tables", "--readings-campaigns", "200", "--seed", "3", "--out"]).arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let title = "What the answer rests on: the combat readings, each flipped by one scenario key and played against \
                 the shipped reading on the same seeds (200 campaigns a variant, master seed 3, seats rotated; paired \
                 differences with 95% intervals; \"moved\" by Holm over the 10 rows, family-wise error 5%)";
    assert!(text.contains(title), "{text}");
    for (rule, shipped, flag) in [
        ("W-05", "a place's defence counts only for the army attacked there", "army.garrison_attacks=true"),
        ("W-07", "Assault adds nothing to a siege assault", "army.formations.assault_in_sieges=true"),
        ("W-06", "any army victory gives experience", "army.xp_needs_destroyed=true"),
        ("E-02", "a teammate at peace earns the peace EP", "ep.team_shares_battles=true"),
        ("W-01, W-25", "a spy duel won loots nothing", "spy.duel_loots=true"),
        ("G-15, G-28", "a mine has 1 PV, so one spy hit destroys it", "buildings.mine.pv=2"),
    ] {
        let row = text.lines().find(|l| l.trim_start().starts_with(rule) && l.contains(flag)).unwrap_or_else(|| {
            panic!("{rule}: {text}");
        });
        assert!(row.contains(shipped), "{row}");
    }
    // The in-play rows answer for their players only: what those never did
    // stands on the first screen, under the exact answer.
    let silent = text.lines().nth(2).unwrap_or_default();
    assert!(
        silent.starts_with("In play (the readings below): Never played: in its 200 campaigns its players")
            && silent.ends_with("what it says in play is silent on those."),
        "{text}"
    );
    let xp = text.lines().find(|l| l.contains("army.xp_needs_destroyed=true")).unwrap();
    assert!(xp.contains("experience gained") && xp.trim_end().ends_with("moved: lower"), "{xp}");
    assert!(text.contains("W-07 flipped, exact, an Assault army at equal base: P(win) 41.7% -> 58.3%"), "{text}");
    let garrison = "W-05 flipped, exact, an army attacking out of its capital (defence 2) at equal base: P(win) 41.7% \
                    -> 72.2%, its units lost 0.917 -> 0.722, the defender's units lost 0.917 -> 1.000";
    assert!(text.contains(garrison), "{text}");
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        page.contains("What the answer rests on: the combat readings") && page.contains("ep.team_shares_battles=true")
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tables.json")).unwrap()).unwrap();
    let r = &json["readings"];
    assert_eq!((r["campaigns"].as_u64(), r["seed"].as_u64()), (Some(200), Some(3)));
    assert_eq!(r["never_played"].as_str(), Some(silent));
    assert!(page.contains(&empires::report::html::esc(silent)));
    assert_eq!(r["readings"].as_array().unwrap().len(), 6);
    assert_eq!(r["readings"][2]["moves"][0]["moved"], serde_json::Value::Bool(true));
    // 0 campaigns leaves the table out.
    let o = bin().args(["tables", "--readings-campaigns", "0", "--out"]).arg(&dir).arg("--overwrite").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("What the answer rests on"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// straits.toml carries its own `tuned` (fitted on this map) and restates
/// the archetype `search` over it. The restatement must not drift: every
/// search setting is the archetype's, every weight the map's `tuned`'s; and
/// the map's `tuned` is not the archetype's (it changes the keys the fit
/// moved, the engine and siege ones among them).
#[test]
fn straits_search_is_the_archetype_search_over_the_maps_own_tuned() {
    let sc = straits();
    let table = |s: empires::scenario::StrategySpec| match toml::Value::try_from(s).unwrap() {
        toml::Value::Table(t) => t,
        v => panic!("a strategy is a table, not {v}"),
    };
    let search = table(sc.strategy("search").unwrap());
    let tuned = table(sc.strategy("tuned").unwrap());
    let archetype_search = table(empires::scenario::archetypes()["search"].clone());
    let archetype_tuned = table(empires::scenario::archetypes()["tuned"].clone());
    let settings =
        ["extends", "kind", "base", "budget", "top_k", "horizon", "temperature", "explore", "value", "look_at"];
    for (key, value) in &search {
        let want = if settings.contains(&key.as_str()) { &archetype_search } else { &tuned };
        assert_eq!(Some(value), want.get(key), "straits' search.{key}");
    }
    for key in ["unit", "engine", "engine_min_units", "siege_aggression"] {
        assert_ne!(tuned[key], archetype_tuned[key], "straits' tuned.{key} is the archetype's");
    }
    for key in ["unit_alone", "gold_glut"] {
        assert_eq!(tuned[key], archetype_tuned[key], "straits' tuned keeps {key} (tune_keep)");
    }
}
