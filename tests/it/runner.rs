//! The Monte Carlo runner: determinism across threads and shards, and the
//! shape of `players.parquet`.

use crate::play_cli::bin;
use empires::report::dataset::{PLAYER_COLUMNS, SEASON_COLUMNS};
use empires::scenario::Scenario;
use empires::sim::Detail;
use empires::sim::record::{Coverage, PlayerRecord};
use empires::sim::runner::{Flow, RunConfig, run, shard_range};
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
    run_bin_n(out, 300, extra)
}

fn run_bin_n(out: &Path, n: u64, extra: &[&str]) {
    let o = out.display().to_string();
    let n = n.to_string();
    let st =
        bin().args(["run", "--campaigns", &n, "--seed", "5", "--quiet", "--out", &o]).args(extra).output().unwrap();
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
    let cfg = RunConfig { master: 9, range, rotate_seats: true, chunk: 16, detail: Detail::default() };
    let mut all = Vec::new();
    run::<empires::rules::setup::SetupError>(
        sc,
        &cfg,
        |c| {
            all.extend(c.players);
            Ok(Flow::Continue)
        },
        |_| {},
    )
    .unwrap();
    all
}

/// The coverage of `n` campaigns of `sc`.
fn coverage(sc: &Scenario, n: u64) -> Coverage {
    let cfg = RunConfig { master: 1, range: 0..n, rotate_seats: true, chunk: 2048, detail: Detail::default() };
    let mut cov = Coverage::default();
    run::<empires::rules::setup::SetupError>(
        sc,
        &cfg,
        |c| {
            cov.merge(&c.coverage);
            Ok(Flow::Continue)
        },
        |_| {},
    )
    .unwrap();
    cov
}

fn shipped(name: &str) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    empires::scenario::load_str(&std::fs::read_to_string(&path).unwrap(), &empires::scenario::Source::file(&path))
        .unwrap()
}

#[test]
fn the_whole_game_gets_played_in_default() {
    use empires::scenario::ActionKind as K;
    let cov = coverage(&Scenario::embedded_default(), 10_000);
    for kind in [
        K::Capture,
        K::Conquer,
        K::Castle,
        K::City,
        K::Mine,
        K::Port,
        K::Tower,
        K::Bridge,
        K::Pillage,
        K::Attack,
        K::Siege,
        K::OutcomeConquer,
        K::OutcomeFederate,
        K::OutcomePillage,
        K::SpyAction,
        K::SpyDuel,
        K::Formation,
    ] {
        assert!(cov.total(kind) > 0, "{kind} never happened in 10,000 default campaigns");
    }
    for result in ["draw", "minor", "major", "massacre"] {
        assert!(cov.total_result(result) > 0, "no army battle ended in a {result}");
    }
    assert_eq!(cov.by_strategy.values().map(|m| m.players).sum::<u64>(), 40_000);
}

#[test]
fn the_whole_game_gets_played_in_archipelago() {
    use empires::scenario::ActionKind as K;
    let cov = coverage(&shipped("archipelago.toml"), 2_000);
    for kind in [K::NavalAttack, K::CoastalAttack, K::Transport, K::MoveShip, K::RecruitShip, K::Port] {
        assert!(cov.total(kind) > 0, "{kind} never happened in 2,000 archipelago campaigns");
    }
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn detail_writes_seasons_and_combats_consistent_with_players() {
    let (plain, detailed) = (out_dir("plain"), out_dir("detail"));
    run_bin(&plain, &[]);
    run_bin(&detailed, &["--detail", "seasons,combats", "--csv"]);
    let p = read(&detailed.join("players.parquet"));
    assert!(p.equals_missing(&read(&plain.join("players.parquet"))), "--detail changed the games");
    let seasons = read(&detailed.join("seasons.parquet"));
    let names: Vec<String> = seasons.get_column_names().iter().map(|c| c.to_string()).collect();
    assert_eq!(names, SEASON_COLUMNS);
    // One row per campaign, player and season played.
    assert_eq!(seasons.height() as i64, sum_i64(&p, "seasons"));
    // The last season's row is the final state of players.parquet.
    let last = seasons
        .clone()
        .lazy()
        .filter(col("season").eq(col("season").max().over([col("campaign")]).unwrap()))
        .sort(["campaign", "seat"], Default::default())
        .collect()
        .unwrap();
    for c in ["hexes", "empire_size", "gold", "gold_mines", "gold_pillage", "units", "mines"] {
        assert_eq!(sum_i64(&last, c), sum_i64(&p, c), "{c}");
    }
    let combats = read(&detailed.join("combats.parquet"));
    let names: Vec<String> = combats.get_column_names().iter().map(|c| c.to_string()).collect();
    assert_eq!(names, empires::report::dataset::combat_columns());
    // Every attack taken is one combat row of its kind.
    let m = manifest(&detailed);
    let taken = |kind: &str| -> i64 {
        m["coverage"]["by_strategy"].as_object().unwrap().values().map(|s| s["actions"][kind].as_i64().unwrap()).sum()
    };
    let rows_of =
        |kind: &str| combats.column("kind").unwrap().str().unwrap().iter().filter(|k| *k == Some(kind)).count() as i64;
    assert_eq!(rows_of("army"), taken("attack"));
    assert_eq!(rows_of("siege"), taken("siege"));
    assert_eq!(rows_of("spy"), taken("spy_action"));
    assert_eq!(rows_of("spy_vs_spy"), taken("spy_duel"));
    assert!(rows_of("army") > 0 && rows_of("spy") > 0);
    // Totals are the sums of their parts, and the gap is their difference.
    let d = combats
        .clone()
        .lazy()
        .select([
            (col("a_total") - col("d_total")).neq(col("gap")).cast(DataType::Int64).sum().alias("gap_err"),
            (col("a_units")
                + col("a_xp")
                + col("a_bid")
                + col("a_order")
                + col("a_defence")
                + col("a_engines")
                + col("a_level")
                + col("a_stability")
                + col("a_strength")
                + col("a_port")
                + col("a_die"))
            .neq(col("a_total"))
            .cast(DataType::Int64)
            .sum()
            .alias("a_err"),
        ])
        .collect()
        .unwrap();
    assert_eq!(sum_i64(&d, "gap_err"), 0);
    assert_eq!(sum_i64(&d, "a_err"), 0);
    for f in ["seasons.csv", "combats.csv", "players.csv"] {
        assert!(detailed.join(f).exists(), "{f}");
    }
    let files = m["files"].as_array().unwrap();
    assert!(files.iter().any(|f| f == "combats.parquet") && files.iter().any(|f| f == "seasons.parquet"));
}

#[test]
fn precision_stops_when_every_interval_is_narrow_enough() {
    let (prec, fixed) = (out_dir("prec"), out_dir("prec-fixed"));
    let o = prec.display().to_string();
    let st = bin()
        .args(["run", "--precision", "0.03", "--max-campaigns", "5000", "--seed", "5", "--quiet", "--out", &o])
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let text = String::from_utf8_lossy(&st.stdout).to_string();
    let m = manifest(&prec);
    let n = m["campaign_end"].as_u64().unwrap();
    assert!(n > 0 && n < 5000 && n % 500 == 0, "{n}");
    assert!(text.contains(&format!("at most 0.03")) && text.contains(&format!("after {n} campaigns")), "{text}");
    // The same campaigns as a fixed run of that size.
    run_bin_n(&fixed, n, &[]);
    assert!(read(&prec.join("players.parquet")).equals_missing(&read(&fixed.join("players.parquet"))));
    // The widest Wilson half-width is within the target at n and was not at n - 500.
    let widest = |df: &DataFrame| -> f64 {
        let g = df
            .clone()
            .lazy()
            .group_by([col("strategy")])
            .agg([col("winner").cast(DataType::Float64).sum().alias("w"), len().cast(DataType::Float64).alias("n")])
            .collect()
            .unwrap();
        let (w, k) = (g.column("w").unwrap().f64().unwrap(), g.column("n").unwrap().f64().unwrap());
        (0..g.height())
            .map(|i| {
                let (lo, hi) = empires::stats::wilson(w.get(i).unwrap(), k.get(i).unwrap(), 0.95);
                (hi - lo) / 2.0
            })
            .fold(0.0, f64::max)
    };
    let all = read(&prec.join("players.parquet"));
    assert!(widest(&all) <= 0.03);
    let before = all.lazy().filter(col("campaign").lt(lit(n - 500))).collect().unwrap();
    assert!(widest(&before) > 0.03);
}

#[test]
fn precision_not_reached_says_so() {
    let d = out_dir("prec-cap");
    let o = d.display().to_string();
    let st =
        bin().args(["run", "--precision", "0.001", "--max-campaigns", "700", "--quiet", "--out", &o]).output().unwrap();
    assert!(st.status.success());
    let text = String::from_utf8_lossy(&st.stdout);
    assert!(text.contains("precision 0.001 NOT reached within --max-campaigns 700"), "{text}");
    assert_eq!(manifest(&d)["campaign_end"], 700);
}

#[test]
fn precision_flags_are_checked() {
    for args in [
        vec!["run", "--precision", "0"],
        vec!["run", "--precision", "0.7"],
        vec!["run", "--precision", "0.01", "--shard", "0/2"],
        vec!["run", "--max-campaigns", "10"],
        vec!["run", "--precision", "0.01", "--max-campaigns", "0"],
        vec!["run", "--detail", "moves"],
    ] {
        let o = bin().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked") && !err.is_empty(), "{args:?}: {err}");
    }
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
        obs: empires::rules::Observation<'_>,
        d: empires::rules::Decision,
        options: &[empires::rules::Action],
    ) -> usize {
        let i = self.inner.choose(r, obs, d, options);
        self.seen.push((d, options.to_vec(), i));
        i
    }
}

#[test]
fn restricted_play_is_obeyed_in_every_campaign() {
    use empires::scenario::ActionKind;
    let mut sc = Scenario::embedded_default();
    let used: Vec<String> = sc.players.iter().map(|p| p.strategy.clone()).collect();
    for name in used {
        let g = sc.strategies.get_mut(&name).unwrap();
        g.force = vec![ActionKind::Mine];
        g.forbid = vec![ActionKind::Pillage, ActionKind::Tower];
    }
    let mut mines = 0;
    for i in 0..40 {
        let cs = empires::seed::campaign_seed(3, i);
        let map = empires::rules::setup::make_map(&sc, cs).unwrap();
        let rules = empires::rules::Rules::new(&sc, &map);
        let mut st = empires::rules::setup::initial_state(rules);
        let watch = Watch { inner: empires::strategy::Seats::for_campaign(&sc, cs), seen: Vec::new() };
        let dice = empires::rules::RngDice(empires::seed::rng(cs, empires::seed::Stream::Dice));
        let mut e = empires::rules::Driver::new(rules, dice, watch, empires::rules::NoLog);
        e.play_campaign(&mut st);
        for (_, options, pick) in &e.players.seen {
            let picked = options[*pick].kind();
            assert!(
                picked != ActionKind::Pillage && picked != ActionKind::Tower,
                "campaign {i}: forbidden {picked} taken"
            );
            if options.iter().any(|o| o.kind() == ActionKind::Mine) {
                assert_eq!(picked, ActionKind::Mine, "campaign {i}: a mine was legal but {picked} was taken");
                mines += 1;
            }
        }
    }
    assert!(mines > 0, "the forced option came up");
}

/// The game does not change by accident: the bytes of `players.parquet` for
/// 2,000 default campaigns (master seed 5) are pinned. A commit that changes
/// a rule, a default or a player on purpose updates this hash and says so;
/// a refactoring or a speed-up must leave it alone.
#[test]
fn the_dataset_of_2000_default_campaigns_is_pinned() {
    use sha2::{Digest, Sha256};
    let d = out_dir("pinned");
    run_bin_n(&d, 2000, &[]);
    let bytes = std::fs::read(d.join("players.parquet")).unwrap();
    let hash: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hash, "945cdf8d307c1976e951d32909855b89047183474cbfe004ff9747cc834d8913");
}
