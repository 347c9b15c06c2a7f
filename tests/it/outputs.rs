//! Where commands write (`src/cli/out.rs`): a folder holds one result, a
//! default folder is named by what was asked, and no command writes over
//! another result without `--overwrite`.

use super::play_cli::bin;
use empires::cli::exit;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh working directory, so default folders (`reports/...`) land in it.
fn workdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin().current_dir(dir).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The folders directly under `dir`, sorted.
fn folders(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_run_with_other_flags_lands_in_another_default_folder_and_leaves_the_first_as_it_was() {
    let w = workdir("run-default");
    let first = run_in(&w, &["run", "--campaigns", "20", "--quiet"]);
    assert_eq!(first.status.code(), Some(exit::SUCCESS), "{}", stderr(&first));
    let runs = w.join("reports/runs");
    let [one] = &folders(&runs)[..] else { panic!("one run folder: {:?}", folders(&runs)) };
    assert!(one.starts_with("default-s1-"), "{one}");
    let data = std::fs::read(runs.join(one).join("players.parquet")).unwrap();
    let request = std::fs::read_to_string(runs.join(one).join("request.txt")).unwrap();
    assert!(request.starts_with("empires run --campaigns 20 --quiet\nkey "), "{request}");

    // The case: fewer campaigns and an override used to replace the baseline.
    let other = run_in(&w, &["run", "--campaigns", "10", "--quiet", "--set", "economy.pillage=3D6x10"]);
    assert_eq!(other.status.code(), Some(exit::SUCCESS), "{}", stderr(&other));
    let both = folders(&runs);
    assert_eq!(both.len(), 2, "{both:?}");
    assert_eq!(std::fs::read(runs.join(one).join("players.parquet")).unwrap(), data);

    // The same request again goes to the same folder (redoing it is safe),
    // whatever the result-neutral flags (threads).
    let again = run_in(&w, &["run", "--campaigns", "20", "--quiet", "--threads", "1"]);
    assert_eq!(again.status.code(), Some(exit::SUCCESS), "{}", stderr(&again));
    assert_eq!(folders(&runs), both);
    assert_eq!(std::fs::read(runs.join(one).join("players.parquet")).unwrap(), data);
    std::fs::remove_dir_all(&w).unwrap();
}

#[test]
fn an_out_folder_holding_another_result_is_refused_unless_overwrite() {
    let w = workdir("run-out");
    let out = w.join("mine");
    let out_s = out.to_str().unwrap();
    let o = run_in(&w, &["run", "--campaigns", "10", "--quiet", "--out", out_s]);
    assert_eq!(o.status.code(), Some(exit::SUCCESS), "{}", stderr(&o));
    let data = std::fs::read(out.join("players.parquet")).unwrap();

    let o = run_in(&w, &["run", "--campaigns", "12", "--quiet", "--out", out_s]);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT));
    let err = stderr(&o);
    assert!(err.contains(out_s) && err.contains("holds another result (made by: empires run --campaigns 10"), "{err}");
    assert!(err.contains("--overwrite"), "{err}");
    assert_eq!(std::fs::read(out.join("players.parquet")).unwrap(), data, "a refused run wrote nothing");

    let o = run_in(&w, &["run", "--campaigns", "12", "--quiet", "--out", out_s, "--overwrite"]);
    assert_eq!(o.status.code(), Some(exit::SUCCESS), "{}", stderr(&o));
    assert_ne!(std::fs::read(out.join("players.parquet")).unwrap(), data);
    assert!(std::fs::read_to_string(out.join("request.txt")).unwrap().contains("--campaigns 12"));

    // A folder with files but no record of a request is not taken either.
    let foreign = w.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let o = run_in(&w, &["run", "--campaigns", "10", "--quiet", "--out", foreign.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT));
    assert!(stderr(&o).contains("is not empty and records no request"), "{}", stderr(&o));
    assert_eq!(folders(&foreign), ["notes.txt"]);
    std::fs::remove_dir_all(&w).unwrap();
}

#[test]
fn zero_and_negative_campaign_counts_are_refused_before_anything_is_written() {
    let w = workdir("counts");
    for cmd in [
        &["run"][..],
        &["compare", "--vary", "costs.capture=3"],
        &["ladder", "--strategies", "balanced,miner"],
        &["metagame", "--strategies", "balanced,miner"],
        &["deviate"],
        &["sensitivity", "--metric", "win rate: seat 0"],
    ] {
        for bad in ["0", "-5"] {
            let o = run_in(&w, &[cmd, &["--campaigns", bad]].concat());
            assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{cmd:?} {bad}: {}", stderr(&o));
            let err = stderr(&o);
            assert!(err.contains("give a whole number, at least 1"), "{cmd:?} {bad}: {err}");
            assert!(!err.contains("unexpected argument"), "{cmd:?} {bad}: {err}");
        }
    }
    let o = run_in(&w, &["tune", "--campaigns-per-eval", "-5"]);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{}", stderr(&o));
    // --precision decides the count itself: giving both is refused, not one ignored.
    let o = run_in(&w, &["run", "--precision", "0.05", "--campaigns", "100"]);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    assert!(folders(&w).is_empty(), "nothing written: {:?}", folders(&w));
    std::fs::remove_dir_all(&w).unwrap();
}

#[test]
fn studies_write_a_folder_per_request() {
    let w = workdir("studies");
    for capture in ["3", "4"] {
        let set = format!("costs.capture={capture}");
        let o = run_in(&w, &["compare", "--vary", &set, "--campaigns", "20"]);
        assert_eq!(o.status.code(), Some(exit::SUCCESS), "{}", stderr(&o));
    }
    let pages = folders(&w.join("reports/compare"));
    assert_eq!(pages.len(), 2, "{pages:?}");
    for p in &pages {
        assert!(p.starts_with("default-"), "{p}");
        assert!(w.join("reports/compare").join(p).join("index.html").is_file());
    }
    std::fs::remove_dir_all(&w).unwrap();
}

#[test]
fn a_report_is_written_beside_its_run_whatever_the_working_directory() {
    let w = workdir("report");
    let run = w.join("run");
    let o = run_in(&w, &["run", "--campaigns", "10", "--quiet", "--out", run.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(exit::SUCCESS), "{}", stderr(&o));
    let elsewhere = w.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let o = run_in(&elsewhere, &["report", run.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(exit::SUCCESS), "{}", stderr(&o));
    assert!(run.join("report/index.html").is_file());
    assert!(folders(&elsewhere).is_empty(), "{:?}", folders(&elsewhere));
    // A folder that is no run is bad input, named.
    let o = run_in(&w, &["report", elsewhere.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT));
    assert!(stderr(&o).contains("not a finished run directory"), "{}", stderr(&o));
    std::fs::remove_dir_all(&w).unwrap();
}

#[test]
fn a_copied_scenario_names_its_results_from_its_file_not_the_name_inside() {
    let w = workdir("copied");
    // A copy of the shipped default keeps `name = "default"` inside.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/default.toml")).unwrap();
    assert!(text.contains("name = \"default\""));
    std::fs::write(w.join("cheap_mines.toml"), text).unwrap();
    let o = run_in(&w, &["run", "--scenario", "cheap_mines.toml", "--campaigns", "10", "--quiet"]);
    assert_eq!(o.status.code(), Some(exit::SUCCESS), "{}", stderr(&o));
    let [one] = &folders(&w.join("reports/runs"))[..] else { panic!("{:?}", folders(&w.join("reports/runs"))) };
    assert!(one.starts_with("cheap_mines-s1-"), "{one}");
    let _ = std::fs::remove_dir_all(&w);
}
