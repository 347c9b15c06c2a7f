//! The map of viable styles (`empires styles`, docs/tuning.md): MAP-Elites
//! searched by CMA-ME's improvement emitters.

use crate::play_cli::bin;
use crate::strength::{DUEL, duel, pool, tmp};
use empires::scenario::{Source, load_str};
use empires::strength::styles::{self, Axis, Settings, Styles, search_master};
use empires::strength::tune::{Flow, Objective};

fn settings() -> Settings {
    Settings {
        starts: vec!["lazy".into(), "warlord".into(), "miner".into()],
        field: vec!["balanced".into()],
        keys: ["capture", "attack", "mine", "pillage", "siege"].map(String::from).to_vec(),
        axes: [Axis::Battles, Axis::Source],
        bins: 4,
        per_eval: 20,
        emitters: 2,
        population: 4,
        sigma: 0.3,
        generations: 8,
        objective: Objective::Share,
        seed: 3,
    }
}

/// The map is a function of the settings and the seed: the same on 1 and
/// 2 threads, and a map stopped after 3 generations resumes to it.
#[test]
fn a_style_map_is_the_same_for_any_thread_count_and_resumes_exactly() {
    let sc = duel();
    let p = Styles::new(&sc, settings()).unwrap();
    let whole = pool(2).install(|| styles::run(&p, None, |_| Flow::Continue)).unwrap();
    assert_eq!(whole.generations.len(), 8);
    assert_eq!(whole, pool(1).install(|| styles::run(&p, None, |_| Flow::Continue)).unwrap());
    let half = pool(2)
        .install(|| styles::run(&p, None, |r| if r.generations.len() == 3 { Flow::Stop } else { Flow::Continue }))
        .unwrap();
    assert_eq!(half.generations.len(), 3);
    let back: styles::Record = serde_json::from_str(&serde_json::to_string(&half).unwrap()).unwrap();
    let mut played = 0;
    let resumed = pool(2)
        .install(|| {
            styles::run(&p, Some(back), |_| {
                played += 1;
                Flow::Continue
            })
        })
        .unwrap();
    assert_eq!(played, 5, "three generations replayed, five played");
    assert_eq!(resumed, whole);
    // Another seed is another record, refused on resume.
    let q = Styles::new(&sc, Settings { seed: 4, ..settings() }).unwrap();
    assert!(styles::run(&q, Some(whole), |_| Flow::Continue).unwrap_err().message().contains("other settings"));
}

/// Every point the search measured was offered to the map: each cell holds
/// the best objective measured there, and an elite's measurement is its
/// player's, played again on its generation's campaigns.
#[test]
fn each_cell_holds_the_best_point_measured_in_it() {
    let sc = duel();
    let p = Styles::new(&sc, settings()).unwrap();
    let rec = pool(2).install(|| styles::run(&p, None, |_| Flow::Continue)).unwrap();
    let map = p.archive(&rec);
    assert!(map.cells.len() >= 2, "{} cells", map.cells.len());
    let all = rec.seeds.iter().chain(rec.generations.iter().flat_map(|g| &g.evals));
    let mut count = 0;
    for e in all {
        let cell = e.measure.cell(p.settings.axes, p.settings.bins);
        let elite = &map.cells[&cell];
        assert!(elite.eval.measure.objective() >= e.measure.objective());
        assert_eq!(e.measure.campaigns, 20);
        count += 1;
    }
    assert_eq!(count, 3 + 8 * 4);
    // Each generation counts what it added.
    let added: u32 = rec.generations.iter().map(|g| g.new).sum();
    assert_eq!(
        added as usize
            + rec
                .seeds
                .iter()
                .map(|e| e.measure.cell(p.settings.axes, 4))
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
        map.cells.len()
    );
    // One elite found by an emitter, measured again by hand on the
    // search's campaigns, and a start measured as itself there.
    let (_, found) = map.cells.iter().find(|(_, e)| e.generation >= 0).expect("an emitter filled or won a cell");
    let again = p.measure(&p.spec(found.eval.base, &found.eval.u), search_master(3), 20).unwrap();
    assert_eq!(again, found.eval.measure);
    assert_eq!(rec.seeds[1].measure, p.measure(&sc.strategy("warlord").unwrap(), search_master(3), 20).unwrap());
}

/// The held-out rows: best first, each cell's player measured on the
/// held-out campaigns, its trail the best's win rate less its own, paired.
#[test]
fn the_held_out_map_ranks_every_cell_and_measures_its_trail_paired() {
    let sc = duel();
    let p = Styles::new(&sc, settings()).unwrap();
    let rec = pool(2).install(|| styles::run(&p, None, |_| Flow::Continue)).unwrap();
    let map = p.archive(&rec);
    let rows = pool(2).install(|| styles::evaluate(&p, &map, 99, 60)).unwrap();
    assert_eq!(rows.len(), map.cells.len());
    assert!(rows.windows(2).all(|w| w[0].held.wins >= w[1].held.wins));
    assert_eq!(rows[0].trail.mean, 0.0);
    for r in &rows {
        assert_eq!(r.held, p.measure(&r.spec, 99, 60).unwrap());
        let want = (rows[0].held.wins as f64 - r.held.wins as f64) / 60.0;
        assert!((r.trail.mean - want).abs() < 1e-12, "{} against {want}", r.trail.mean);
        assert!(r.trail.low <= r.trail.mean && r.trail.mean <= r.trail.high);
    }
}

#[test]
fn bad_map_settings_are_refused_with_a_reason() {
    let sc = duel();
    for (s, msg) in [
        (Settings { axes: [Axis::Battles, Axis::Battles], ..settings() }, "must differ"),
        (Settings { per_eval: 21, ..settings() }, "multiple of the 2 seats"),
        (Settings { starts: vec!["random".into()], ..settings() }, "not a weighted strategy"),
        (Settings { field: vec![], ..settings() }, "from 1 to 1 opponents"),
        (Settings { bins: 1, ..settings() }, "bins must be"),
    ] {
        assert!(Styles::new(&sc, s).err().unwrap().message().contains(msg), "{msg}");
    }
}

/// The command writes the map: its text, a loadable strategy per cell, the
/// parquet table and the page; bad axes exit 2.
#[test]
fn the_styles_command_writes_its_map_and_each_cells_player() {
    let dir = tmp("styles");
    let out = dir.join("out");
    let o = bin()
        .args(["styles", "--scenario", "scenarios/duel.toml", "--starts", "balanced,warlord", "--against", "tuned"])
        .args(["--keys", "attack,mine,pillage", "--generations", "4", "--campaigns-per-eval", "20", "--emitters", "2"])
        .args(["--population", "4", "--eval-campaigns", "40", "--quiet", "--out"])
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(text.contains("cells of battles started a season × gold source"), "{text}");
    assert!(text.contains("held-out: each cell's player against tuned on 40 campaigns"), "{text}");
    for f in ["styles.txt", "styles.toml", "styles.parquet", "record.json", "index.html", "styles.svg"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let table = std::fs::read_to_string(out.join("styles.toml")).unwrap();
    let sc = load_str(&format!("{DUEL}\n{table}"), &Source::file("x.toml")).unwrap();
    let names: Vec<&str> = table.lines().filter_map(|l| l.strip_prefix("[strategies.")?.strip_suffix(']')).collect();
    assert!(!names.is_empty());
    for n in &names {
        assert!(sc.strategy(n).is_some(), "{n}");
        assert!(text.contains(n), "{n} in the table");
    }
    use polars::prelude::SerReader;
    let df =
        polars::prelude::ParquetReader::new(std::fs::File::open(out.join("styles.parquet")).unwrap()).finish().unwrap();
    assert_eq!(df.height(), names.len());
    for c in ["strategy", "battles_bin", "source_bin", "win_rate", "win_rate_low", "trail", "key_attack"] {
        assert!(df.column(c).is_ok(), "{c}");
    }
    let bad = bin().args(["styles", "--axes", "battles,gold", "--quiet"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a behaviour axis"));
    let _ = std::fs::remove_dir_all(&dir);
}
