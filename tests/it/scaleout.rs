//! Shards from the environment (Slurm job arrays, Kubernetes Indexed Jobs),
//! `--resume`, and interrupted runs (SIGINT, SIGKILL).

use crate::play_cli::bin;
use polars::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-scale-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn manifest(d: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(d.join("manifest.json")).unwrap()).unwrap()
}

fn read(p: &Path) -> DataFrame {
    ParquetReader::new(std::fs::File::open(p).unwrap()).finish().unwrap()
}

fn run(out: &Path, campaigns: u64, envs: &[(&str, &str)], extra: &[&str]) -> std::process::Output {
    let mut c = bin();
    c.args(["run", "--campaigns", &campaigns.to_string(), "--seed", "6", "--quiet", "--out"]).arg(out).args(extra);
    for k in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "JOB_COMPLETION_INDEX"] {
        c.env_remove(k);
    }
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn shards_come_from_slurm_and_kubernetes() {
    let d = dir("slurm");
    let o = run(
        &d,
        300,
        &[("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_COUNT", "3"), ("SLURM_ARRAY_TASK_MIN", "1")],
        &[],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = manifest(&d);
    // Task 2 of an array 1..=3 is shard 1 of 3: campaigns 100..200.
    assert_eq!((m["shard"]["index"].as_u64(), m["shard"]["count"].as_u64()), (Some(1), Some(3)));
    assert_eq!((m["campaign_start"].as_u64(), m["campaign_end"].as_u64()), (Some(100), Some(200)));
    let d = dir("k8s");
    let o = run(&d, 300, &[("JOB_COMPLETION_INDEX", "0")], &["--shards", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(manifest(&d)["campaign_end"].as_u64(), Some(100));
    for (envs, extra, want) in [
        (vec![], vec!["--shards", "3"], "JOB_COMPLETION_INDEX"),
        (vec![("JOB_COMPLETION_INDEX", "3")], vec!["--shards", "3"], "need 0 <= index < K"),
        (vec![("SLURM_ARRAY_TASK_ID", "x"), ("SLURM_ARRAY_TASK_COUNT", "2")], vec![], "is not a whole number"),
        (vec![], vec!["--shard", "0/2", "--shards", "2"], "not both"),
    ] {
        let o = run(&dir("bad"), 10, &envs, &extra);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{envs:?} {extra:?}: {err}");
        assert!(err.contains(want), "{err}");
    }
}

#[test]
fn resume_skips_a_complete_shard_and_redoes_a_damaged_one() {
    let d = dir("resume");
    assert!(run(&d, 400, &[], &["--shard", "1/2", "--detail", "seasons"]).status.success());
    let before = read(&d.join("players.parquet"));
    let o = run(&d, 400, &[], &["--shard", "1/2", "--detail", "seasons", "--resume"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("already complete"), "{}", String::from_utf8_lossy(&o.stdout));
    // A damaged file: the hash no longer matches, so the shard is redone.
    let p = d.join("seasons.parquet");
    let mut bytes = std::fs::read(&p).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&p, bytes).unwrap();
    let o = run(&d, 400, &[], &["--shard", "1/2", "--detail", "seasons", "--resume"]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("already complete"));
    assert!(o.status.success());
    assert!(read(&d.join("players.parquet")).equals_missing(&before));
    assert!(read(&d.join("seasons.parquet")).height() > 0);
    // Another seed is another run: not skipped.
    let o = bin()
        .args([
            "run",
            "--campaigns",
            "400",
            "--seed",
            "7",
            "--shard",
            "1/2",
            "--quiet",
            "--resume",
            "--detail",
            "seasons",
            "--out",
        ])
        .arg(&d)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&o.stdout).contains("already complete"));
}

fn signal(pid: u32, sig: &str) {
    assert!(Command::new("kill").args([sig, &pid.to_string()]).status().unwrap().success());
}

#[test]
fn sigint_writes_the_completed_campaigns_and_exits_non_zero() {
    let (d, full) = (dir("int"), dir("int-full"));
    let n = 20_000u64;
    let detail = ["--detail", "seasons", "--csv"];
    let child = bin()
        .args(["run", "--campaigns", &n.to_string(), "--seed", "6", "--quiet", "--out"])
        .arg(&d)
        .args(detail)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(900));
    signal(child.id(), "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    let m = manifest(&d);
    assert_eq!(m["interrupted"], true);
    let done = m["campaign_end"].as_u64().unwrap();
    assert!(done > 0 && done < n, "{done}");
    let part = read(&d.join("players.parquet"));
    assert_eq!(part.height() as u64, done * 4);
    // The interruption is said first, above a summary of what was played.
    let first = format!("INTERRUPTED by SIGINT after {done} of {n} campaigns");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with(&first), "{stdout}");
    assert!(stdout.contains(&format!("run the same command with --resume to play the other {}", n - done)));
    assert!(std::fs::read_to_string(d.join("summary.txt")).unwrap().starts_with(&first));
    // The campaigns written are exactly the first ones of an uninterrupted run.
    assert!(run(&full, n, &[], &detail).status.success());
    let whole = read(&full.join("players.parquet"));
    assert!(whole.slice(0, part.height()).equals_missing(&part));
    // --resume keeps them and plays only the rest, to the uninterrupted
    // run's files.
    let o = run(&d, n, &[], &[&detail[..], &["--resume"]].concat());
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout.contains(&format!("resuming after the {done} campaigns already written; playing campaigns {done}..{n}")),
        "{stdout}"
    );
    assert!(!stdout.contains("INTERRUPTED"), "{stdout}");
    // Its speed counts the campaigns this process played, not the ones it
    // kept: the manifest's rate times its wall time is the rest alone.
    let m = manifest(&d);
    assert_eq!(m["resumed_campaigns"].as_u64(), Some(done));
    let wall = m["wall_seconds"].as_f64().unwrap();
    assert_eq!(m["campaigns_per_second"].as_f64(), Some((n - done) as f64 / wall));
    let speed = format!(
        "throughput: {:.0} campaigns/s ({} campaigns played in {} wall; {done} resumed from the interrupted run, \
         not counted)",
        (n - done) as f64 / wall,
        n - done,
        empires::report::number::seconds(wall)
    );
    assert!(stdout.contains(&speed), "{speed}: {stdout}");
    for f in ["players.parquet", "seasons.parquet"] {
        assert!(read(&d.join(f)).equals_missing(&read(&full.join(f))), "{f}");
    }
    for f in ["players.csv", "seasons.csv"] {
        assert!(std::fs::read(d.join(f)).unwrap() == std::fs::read(full.join(f)).unwrap(), "{f}");
    }
    let (a, b) = (manifest(&d), manifest(&full));
    for k in ["campaign_start", "campaign_end", "interrupted", "coverage"] {
        assert_eq!(a[k], b[k], "{k}");
    }
    for f in ["players.parquet", "seasons.parquet", "players.csv", "seasons.csv"] {
        assert_eq!(a["file_hashes"][f], b["file_hashes"][f], "{f}");
    }
    assert!(!d.join(".resume-rest").exists());
    // Finished: --resume again skips it.
    let o = run(&d, n, &[], &[&detail[..], &["--resume"]].concat());
    assert!(String::from_utf8_lossy(&o.stdout).contains("already complete"));
}

#[test]
fn after_sigkill_nothing_looks_complete_and_resume_finishes() {
    let (d, full) = (dir("kill"), dir("kill-full"));
    let n = 20_000u64;
    let child = bin()
        .args(["run", "--campaigns", &n.to_string(), "--seed", "6", "--quiet", "--out"])
        .arg(&d)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    signal(child.id(), "-KILL");
    let _ = child.wait_with_output();
    // Only hidden temporary files: no file under a final name.
    for name in ["players.parquet", "summary.txt", "manifest.json"] {
        assert!(!d.join(name).exists(), "{name} looks complete after SIGKILL");
    }
    let o = run(&d, n, &[], &["--resume"]);
    assert!(o.status.success());
    assert!(run(&full, n, &[], &[]).status.success());
    assert!(read(&d.join("players.parquet")).equals_missing(&read(&full.join("players.parquet"))));
}

#[test]
fn check_invariants_changes_nothing_and_passes() {
    let (plain, checked) = (dir("inv-plain"), dir("inv-checked"));
    let rnd = ["--set", "players[2].strategy=random", "--rotate-seats"];
    assert!(run(&plain, 300, &[], &rnd).status.success());
    let o = run(&checked, 300, &[], &[&rnd[..], &["--check-invariants"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(read(&plain.join("players.parquet")).equals_missing(&read(&checked.join("players.parquet"))));
}

#[test]
fn g02_a_campaign_where_nothing_changes_is_flagged_stalled() {
    use empires::rules::EndReason;
    use empires::scenario::{Source, load_with_overrides};
    let path = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    // Players who never buy, build, recruit or move: no banner or building
    // ever changes after the start.
    let idle = r#"["recruit_unit","recruit_ship","recruit_spy","recruit_engine","move_army","attack","siege","move_ship","naval_attack","coastal_attack","transport","move_spy","spy_action","spy_duel","capture","conquer","castle","city","mine","port","tower","bridge","pillage"]"#;
    let sets = vec![("strategies.balanced.forbid".to_string(), idle.to_string())];
    let sc = load_with_overrides(&text, &Source::file(&path), &sets).unwrap();
    let f = empires::sim::Campaign::numbered(&sc, 1, 0).play().unwrap();
    assert_eq!(f.outcome.reason, EndReason::Stalled);
    assert_eq!(f.outcome.reason.name(), "stalled");
    assert_eq!(f.outcome.seasons, 12, "flagging does not end the campaign early");
    // With the flag off the same campaign ends at the season limit.
    let mut off = sc.clone();
    off.campaign.stall_seasons = 0;
    assert_eq!(empires::sim::Campaign::numbered(&off, 1, 0).play().unwrap().outcome.reason, EndReason::SeasonLimit);
    // An ordinary campaign is not stalled.
    let normal = empires::scenario::Scenario::embedded_default();
    assert_ne!(empires::sim::Campaign::numbered(&normal, 1, 0).play().unwrap().outcome.reason, EndReason::Stalled);
}

#[test]
fn play_replays_any_campaign_of_a_rotated_run() {
    let d = dir("replay");
    assert!(run(&d, 8, &[], &["--rotate-seats"]).status.success());
    let rows = read(&d.join("players.parquet")).lazy().filter(col("campaign").eq(lit(5u64))).collect().unwrap();
    let o = bin().args(["play", "--rotate-seats", "--seed", "6", "--campaign", "5", "--json"]).output().unwrap();
    assert!(o.status.success());
    let standings: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"] == "standing")
        .collect();
    assert_eq!(standings.len(), 4);
    let names = rows.column("player").unwrap().str().unwrap().clone();
    let seats = rows.column("seat").unwrap().cast(&DataType::UInt64).unwrap().u64().unwrap().clone();
    let sizes = rows.column("empire_size").unwrap().u32().unwrap().clone();
    let strategies = rows.column("strategy").unwrap().str().unwrap().clone();
    for i in 0..rows.height() {
        // The log names players by seat.
        let s = standings.iter().find(|v| v["player"].as_u64() == seats.get(i)).unwrap();
        assert_eq!(s["size"].as_u64(), sizes.get(i).map(u64::from), "{}", names.get(i).unwrap());
    }
    // The header names the strategy each seat played in that campaign.
    let text = String::from_utf8_lossy(
        &bin().args(["play", "--rotate-seats", "--seed", "6", "--campaign", "5"]).output().unwrap().stdout,
    )
    .to_string();
    assert!(text.contains(&format!("{} ({})", names.get(0).unwrap(), strategies.get(0).unwrap())), "{text}");
}
