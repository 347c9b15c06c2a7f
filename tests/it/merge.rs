//! `empires merge`: shards of one run merge into exactly the unsharded run,
//! and anything else is refused with a clear error.

use crate::play_cli::bin;
use polars::prelude::*;
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-merge-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run(out: &Path, extra: &[&str]) {
    run_seed(out, 8, extra)
}

fn run_seed(out: &Path, seed: u64, extra: &[&str]) {
    let o = out.display().to_string();
    let seed = seed.to_string();
    let st = bin()
        .args(["run", "--campaigns", "240", "--seed", &seed, "--quiet", "--rotate-seats", "--out", &o])
        .args(extra)
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
}

fn read(p: &Path) -> DataFrame {
    ParquetReader::new(std::fs::File::open(p).unwrap()).finish().unwrap()
}

fn manifest(d: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(d.join("manifest.json")).unwrap()).unwrap()
}

fn merge(args: &[&str]) -> std::process::Output {
    bin().arg("merge").args(args).output().unwrap()
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let root = dir("ok");
    let detail = ["--detail", "seasons,combats"];
    run(&root.join("whole"), &detail);
    for i in 0..3 {
        let shard = format!("{i}/3");
        run(&root.join(format!("shard-{i}")), &[&detail[..], &["--shard", &shard]].concat());
    }
    let out = root.join("merged");
    let pattern = format!("{}/shard-*", root.display());
    let o = merge(&[&pattern, "--out", &out.display().to_string()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for t in ["players", "seasons", "combats"] {
        let (a, b) = (read(&root.join("whole").join(format!("{t}.parquet"))), read(&out.join(format!("{t}.parquet"))));
        assert!(a.height() > 0, "{t}");
        assert!(a.equals_missing(&b), "{t}.parquet differs after the merge");
    }
    let (w, m) = (manifest(&root.join("whole")), manifest(&out));
    for k in ["scenario_hash", "master_seed", "campaign_start", "campaign_end", "total_campaigns", "coverage"] {
        assert_eq!(w[k], m[k], "{k}");
    }
    // The summary tables read the same (throughput and notes aside).
    let table = |d: &Path| -> String {
        let t = std::fs::read_to_string(d.join("summary.txt")).unwrap();
        t.lines()
            .filter(|l| !l.starts_with("throughput") && !l.starts_with("merged") && !l.contains("campaigns 0.."))
            .take(14)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(table(&root.join("whole")), table(&out));
}

#[test]
fn merge_refuses_what_is_not_one_run() {
    let root = dir("bad");
    run(&root.join("a0"), &["--shard", "0/2"]);
    run(&root.join("a1"), &["--shard", "1/2"]);
    run_seed(&root.join("b1"), 9, &["--shard", "1/2"]);
    run(&root.join("c1"), &["--shard", "1/2", "--set", "costs.capture=3"]);
    run(&root.join("d"), &["--shard", "0/3"]);
    let p = |n: &str| root.join(n).display().to_string();
    let out = p("out");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![p("a0"), p("b1")], "was run with seed 9, but"),
        (vec![p("a0"), p("c1")], "scenarios (or --set overrides) cannot be merged"),
        (vec![p("a0"), p("a0")], "overlap"),
        (vec![p("a1")], "campaigns 0..120 are missing"),
        (vec![p("a0")], "campaigns 120..240 are missing (after"),
        (vec![p("a0"), p("d"), p("a1")], "overlap"),
        (vec![p("nowhere")], "manifest.json"),
        (vec![format!("{}/zz*", root.display())], "no directory matches"),
    ];
    for (args, want) in cases {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        a.extend(["--out", &out]);
        let o = merge(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
    assert!(!root.join("out").join("players.parquet").exists(), "a refused merge writes nothing");
}
