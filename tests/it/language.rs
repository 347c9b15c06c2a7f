//! One command-line language: `--set` only overrides, `--vary` gives
//! `compare`'s B, `--values` a sweep's, `--range` an interval, `--players` wherever campaigns are
//! played, and the synopsis in docs/commands.md is the one clap parses.

use crate::play_cli::bin;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-lang-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn err(args: &[&str]) -> (Option<i32>, String) {
    let o = bin().args(args).output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).to_string())
}

#[test]
fn the_synopsis_is_the_one_clap_parses() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let open = "## Every command\n\n```\n";
    let start = readme.find(open).expect("a Commands section opening with a code block") + open.len();
    let len = readme[start..].find("```\n").unwrap();
    let want = empires::cli::synopsis::synopsis();
    if std::env::var_os("EMPIRES_WRITE_SYNOPSIS").is_some() {
        std::fs::write(path, format!("{}{want}{}", &readme[..start], &readme[start + len..])).unwrap();
        return;
    }
    assert!(
        readme[start..start + len] == want,
        "the synopsis in docs/commands.md is stale; rewrite it with EMPIRES_WRITE_SYNOPSIS=1 cargo test --release the_synopsis:\n{want}"
    );
    for flag in [
        "--vary",
        "--values",
        "--range",
        "--inputs",
        "--players",
        "--resume",
        "--threads",
        "--intensity",
        "--rank-population",
    ] {
        assert!(want.contains(flag), "{flag}");
    }
}

#[test]
fn compare_takes_a_from_scenario_and_b_from_vary_or_a_file() {
    let (code, e) = err(&["compare", "scenarios/duel.toml", "--vary", "costs.capture=3"]);
    assert_eq!(code, Some(2), "{e}");
    assert!(e.contains("is it A or B?") && e.contains("--scenario scenarios/duel.toml"), "{e}");
    let (code, e) = err(&["compare", "--set", "costs.capture=3"]);
    assert_eq!(code, Some(2), "{e}");
    assert!(e.contains("B is the same as A") && e.contains("--set changes both"), "{e}");
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/duel.toml");
    let out = tmp("cmp");
    let o = bin()
        .args(["compare", "--scenario", duel, "--set", "costs.pillage=2", "--vary", "costs.capture=3"])
        .args(["--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("duel with costs.capture=3"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn sweep_varies_a_range_of_whole_numbers_and_sets_every_cell() {
    let out = tmp("sweep");
    let o = bin()
        .args(["sweep", "--values", "costs.capture=1..3", "--set", "costs.pillage=2", "--campaigns", "10", "--quiet"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    for v in
        ["first cell (costs.capture=1)", "costs.capture=2 ", "costs.capture=3 ", "in every cell: --set costs.pillage=2"]
    {
        assert!(text.contains(v), "{v}: {text}");
    }
    let (code, e) = err(&["sweep", "--values", "costs.capture=1..99"]);
    assert_eq!(code, Some(2), "{e}");
    assert!(e.contains("at most 25 values"), "{e}");
    let (code, e) = err(&["sweep", "--set", "costs.capture=1,2"]);
    assert_eq!(code, Some(2), "--set is no axis: {e}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn run_and_play_seat_players() {
    let o = bin().args(["play", "--seed", "7", "--players", "miner"]).output().unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("balanced") && !text.contains("pillager"), "every seat plays miner: {text}");
    let out = tmp("run");
    let o =
        bin().args(["run", "--campaigns", "8", "--quiet", "--players", "random", "--out"]).arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("random") && !summary.contains("balanced"), "{summary}");
    let (code, e) = err(&["run", "--campaigns", "8", "--players", "rnadom"]);
    assert_eq!(code, Some(2), "{e}");
    assert!(e.contains("did you mean `random`?"), "{e}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn one_flag_one_meaning() {
    // α-rank's settings are not tables' --alpha or tune's --population.
    let (code, e) = err(&["metagame", "--strategies", "random,balanced", "--alpha", "10"]);
    assert_eq!(code, Some(2), "{e}");
    let (code, e) = err(&["metagame", "--strategies", "random,balanced", "--population", "10"]);
    assert_eq!(code, Some(2), "{e}");
    let (code, e) = err(&["sensitivity", "--metric", "mean empire size", "--keys", "costs.capture"]);
    assert_eq!(code, Some(2), "sensitivity varies with --inputs: {e}");
}

/// The worked examples of docs/commands.md are what the binary prints now.
#[test]
fn the_command_examples_are_current() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md")).unwrap();
    let marker = "Example, the end of `cargo run --release -- play --seed 7`:\n\n```\n";
    let start = readme.find(marker).expect("the play example") + marker.len();
    let block: Vec<&str> = readme[start..start + readme[start..].find("```\n").unwrap()].lines().collect();
    let o = bin().args(["play", "--seed", "7"]).output().unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[lines.len() - block.len()..],
        block[..],
        "the play --seed 7 standings of docs/commands.md are stale"
    );
    let want = readme
        .lines()
        .find(|l| l.trim_start().starts_with("precision: every strategy"))
        .expect("the precision example");
    let dir = tmp("precision");
    let o = bin().args(["run", "--precision", "0.01", "--quiet", "--out"]).arg(&dir).output().unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.lines().any(|l| l.trim() == want.trim()),
        "the --precision 0.01 line of docs/commands.md is stale:\n{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
