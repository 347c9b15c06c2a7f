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
    let st = bin().args(["run", "--campaigns", "300", "--seed", "5", "--quiet", "--out", &o]).args(extra).output().unwrap();
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
    let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["master_seed"], 5);
    assert_eq!(m["campaign_end"], 300);
    assert_eq!(m["scenario_hash"].as_str().unwrap().len(), 64);
    // No temporary files are left behind.
    assert!(std::fs::read_dir(&d).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp")));
}

#[test]
fn bad_run_flags_exit_2() {
    for args in [vec!["run", "--shard", "3/3"], vec!["run", "--shard", "x"], vec!["run", "--threads", "0", "--campaigns", "1"]] {
        let o = bin().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
}
