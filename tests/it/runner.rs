//! The Monte Carlo runner: determinism across threads and shards, and the
//! shape of `players.parquet`.

use crate::play_cli::bin;
use empires::report::dataset::PLAYER_COLUMNS;
use empires::scenario::Scenario;
use empires::sim::record::PlayerRecord;
use empires::sim::runner::{RunConfig, run, shard_range};
use polars::prelude::*;
use std::path::{Path, PathBuf};

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn read(p: &Path) -> DataFrame {
    ParquetReader::new(std::fs::File::open(p).unwrap()).finish().unwrap()
}

fn run_bin(out: &Path, extra: &[&str]) {
    let o = out.display().to_string();
    let st =
        bin().args(["run", "--campaigns", "300", "--seed", "5", "--quiet", "--out", &o]).args(extra).output().unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
}

#[test]
fn same_data_for_1_and_2_threads() {
    let (a, b) = (out_dir("t1"), out_dir("t2"));
    run_bin(&a, &["--threads", "1"]);
    run_bin(&b, &["--threads", "2"]);
    let (da, db) = (read(&a.join("players.parquet")), read(&b.join("players.parquet")));
    assert_eq!(da.height(), 300 * 4);
    assert!(da.equals_missing(&db), "thread count changed the data");
}

fn rows(sc: &Scenario, range: std::ops::Range<u64>) -> Vec<PlayerRecord> {
    let cfg = RunConfig { master: 9, range, rotate_seats: true, chunk: 16 };
    let mut all = Vec::new();
    run::<empires::rules::setup::SetupError>(sc, &cfg, |r| Ok(all.extend_from_slice(r)), |_| {}).unwrap();
    all
}

#[test]
fn shards_merged_equal_one_unsharded_run() {
    let sc = Scenario::embedded_default();
    let whole = rows(&sc, 0..100);
    let mut merged = Vec::new();
    for i in 0..3 {
        merged.extend(rows(&sc, shard_range(100, i, 3)));
    }
    assert_eq!(whole.len(), 400);
    assert_eq!(merged, whole);
}

#[test]
fn rotated_seats_give_every_strategy_every_seat() {
    let mut sc = Scenario::embedded_default();
    sc.players[0].strategy = "random".into();
    let all = rows(&sc, 0..8);
    for seat in 0..4u32 {
        let random_here = all.iter().filter(|r| r.seat == seat && r.strategy == "random").count();
        assert_eq!(random_here, 2, "seat {seat}");
    }
}

#[test]
fn players_parquet_has_the_listed_columns_and_one_winner_per_campaign() {
    let d = out_dir("shape");
    run_bin(&d, &["--csv"]);
    let df = read(&d.join("players.parquet"));
    let names: Vec<String> = df.get_column_names().iter().map(|s| s.to_string()).collect();
    assert_eq!(names, PLAYER_COLUMNS.to_vec());
    assert_eq!(df.column("campaign").unwrap().dtype(), &DataType::UInt64);
    assert_eq!(df.column("winner").unwrap().dtype(), &DataType::Boolean);
    assert_eq!(df.column("strategy").unwrap().dtype(), &DataType::String);
    assert_eq!(df.column("gold").unwrap().dtype(), &DataType::Int64);
    let winners = df
        .lazy()
        .group_by([col("campaign")])
        .agg([col("winner").cast(DataType::UInt32).sum().alias("w")])
        .collect()
        .unwrap();
    let w = winners.column("w").unwrap().cast(&DataType::UInt32).unwrap();
    assert_eq!(winners.height(), 300);
    let w = w.u32().unwrap();
    assert!((0..w.len()).all(|i| w.get(i) == Some(1)), "exactly one winner per campaign");
    for f in ["players.csv", "summary.txt", "manifest.json"] {
        assert!(d.join(f).exists(), "{f}");
    }
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["master_seed"], 5);
    assert_eq!(m["campaign_end"], 300);
    assert_eq!(m["scenario_hash"].as_str().unwrap().len(), 64);
    // No temporary files are left behind.
    assert!(std::fs::read_dir(&d).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp")));
}

#[test]
fn bad_run_flags_exit_2() {
    for args in
        [vec!["run", "--shard", "3/3"], vec!["run", "--shard", "x"], vec!["run", "--threads", "0", "--campaigns", "1"]]
    {
        let o = bin().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
}

fn sum_i64(df: &DataFrame, name: &str) -> i64 {
    df.column(name).unwrap().cast(&DataType::Int64).unwrap().i64().unwrap().sum().unwrap_or(0)
}

#[test]
fn set_forbid_pillage_makes_ep_pillage_zero() {
    let (base, forbid) = (out_dir("base"), out_dir("forbid"));
    run_bin(&base, &[]);
    let sets: Vec<String> = ["balanced", "miner", "pillager", "warlord"]
        .iter()
        .flat_map(|s| ["--set".to_string(), format!("strategies.{s}.forbid=[\"pillage\"]")])
        .collect();
    run_bin(&forbid, &sets.iter().map(String::as_str).collect::<Vec<_>>());
    let b = read(&base.join("players.parquet"));
    let f = read(&forbid.join("players.parquet"));
    assert!(sum_i64(&b, "ep_pillage") > 0, "players pillage when allowed");
    assert_eq!(sum_i64(&f, "ep_pillage"), 0);
    assert_eq!(sum_i64(&f, "gold_pillage"), 0);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(forbid.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["overrides"][0], "strategies.balanced.forbid=[\"pillage\"]");
    assert_eq!(m["overrides"].as_array().unwrap().len(), 4);
    assert_ne!(
        m["scenario_hash"],
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(base.join("manifest.json")).unwrap())
            .unwrap()["scenario_hash"]
    );
}

#[test]
fn set_changes_a_value_and_bad_keys_are_clear_errors() {
    let sc = empires::scenario::load_with_overrides(
        empires::scenario::DEFAULT_TOML,
        &empires::scenario::Source::embedded("default.toml"),
        &[("economy.mine.river".into(), "3D6x10".into()), ("costs.capture".into(), "4".into())],
    )
    .unwrap();
    assert_eq!(sc.economy.mine.river, Some(empires::scenario::DiceExpr::new(3, 6, 10)));
    assert_eq!(sc.costs.capture, 4);
    assert_eq!(
        sc.economy.mine.mountain,
        Some(empires::scenario::DiceExpr::new(3, 6, 10)),
        "other keys keep their values"
    );
    for (flag, msg) in [
        ("economy.mine.rivr=3D6x10", "--set economy.mine.rivr=3D6x10: unknown field `rivr`"),
        ("costs.capture=-1", "--set costs.capture=-1: costs.capture: must not be negative"),
        ("economy.pillage=2D6y", "--set economy.pillage=2D6y: invalid dice expression"),
        ("costs", "--set costs: expected KEY=VALUE"),
    ] {
        let o = bin()
            .args(["run", "--campaigns", "1", "--quiet", "--out", &out_dir("bad").display().to_string(), "--set", flag])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with(msg), "{flag}: {err}");
    }
}

/// Records every decision's options and pick.
struct Watch {
    inner: empires::strategy::Seats,
    seen: Vec<(empires::rules::Decision, Vec<empires::rules::Action>, usize)>,
}

impl empires::rules::Players for Watch {
    fn choose(
        &mut self,
        r: empires::rules::Rules<'_>,
        st: &empires::rules::State,
        p: empires::rules::PlayerId,
        d: empires::rules::Decision,
        options: &[empires::rules::Action],
    ) -> usize {
        let i = self.inner.choose(r, st, p, d, options);
        self.seen.push((d, options.to_vec(), i));
        i
    }
}

#[test]
fn restricted_play_is_obeyed_in_every_campaign() {
    use empires::rules::action::kind_name;
    let mut sc = Scenario::embedded_default();
    let used: Vec<String> = sc.players.iter().map(|p| p.strategy.clone()).collect();
    for name in used {
        let g = sc.strategies.get_mut(&name).unwrap();
        g.force = vec!["mine".into()];
        g.forbid = vec!["pillage".into(), "tower".into()];
    }
    let mut mines = 0;
    for i in 0..40 {
        let cs = empires::sim::seed::campaign_seed(3, i);
        let map = empires::rules::setup::make_map(&sc, cs).unwrap();
        let rules = empires::rules::Rules::new(&sc, &map);
        let mut st = empires::rules::setup::initial_state(rules);
        let watch = Watch { inner: empires::strategy::Seats::for_campaign(&sc, cs), seen: Vec::new() };
        let dice = empires::rules::RngDice(empires::sim::seed::rng(cs, empires::sim::seed::Stream::Dice));
        let mut e = empires::rules::Engine::new(rules, dice, watch, empires::rules::NoLog);
        e.play_campaign(&mut st);
        for (_, options, pick) in &e.players.seen {
            let picked = kind_name(&options[*pick]);
            assert!(picked != "pillage" && picked != "tower", "campaign {i}: forbidden {picked} taken");
            if options.iter().any(|o| kind_name(o) == "mine") {
                assert_eq!(picked, "mine", "campaign {i}: a mine was legal but {picked} was taken");
                mines += 1;
            }
        }
    }
    assert!(mines > 0, "the forced option came up");
}
