//! The exit codes of `src/cli/exit.rs`: the README's table is the same,
//! `--help` prints them, and each class of failure returns its code.

use super::play_cli::bin;
use empires::cli::exit::{self, CODES};

#[test]
fn the_readme_table_is_the_one_in_the_code() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme.split("### Exit codes").nth(1).expect("the README has an Exit codes section");
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| code")).collect();
    let want: Vec<String> = CODES.iter().map(|(c, m)| format!("| {c} | {m} |")).collect();
    assert_eq!(rows[..want.len()], want[..]);
}

#[test]
fn help_lists_every_exit_code() {
    let o = bin().arg("--help").output().unwrap();
    assert_eq!(o.status.code(), Some(exit::SUCCESS));
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("Exit codes:"), "{help}");
    for (code, meaning) in CODES {
        assert!(help.contains(&format!("{code:>3}  {meaning}")), "code {code} missing from:\n{help}");
    }
}

#[test]
fn an_output_that_cannot_be_written_is_exit_3_and_bad_input_is_exit_2() {
    let dir = std::env::temp_dir().join(format!("empires-exit-codes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A regular file where the output directory's parent should be.
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let o = bin().args(["run", "--campaigns", "4", "--quiet", "--out"]).arg(blocker.join("run")).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(exit::IO_OR_INTERNAL), "{err}");
    assert!(err.contains("cannot create the output directory"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let o = bin().args(["run", "--campaigns", "4", "--set", "economy.nope=1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT));
    let o = bin().args(["run", "--no-such-flag"]).output().unwrap();
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT));
    // Checked once, at parse time, for every command that takes it.
    for cmd in ["run", "tune", "ladder", "compare"] {
        let o = bin().args([cmd, "--threads", "0"]).output().unwrap();
        assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{cmd}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("at least 1"), "{cmd}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_codes_are_distinct() {
    let mut codes: Vec<i32> = CODES.iter().map(|(c, _)| *c).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, [0, 1, 2, 3, 130]);
}

/// `play --map` to a folder that does not exist is an IO error that names
/// the path it could not write.
#[test]
fn a_map_that_cannot_be_written_names_its_path() {
    let path = std::env::temp_dir().join(format!("empires-no-such-dir-{}", std::process::id())).join("map.svg");
    let o = bin().args(["play", "--seed", "7", "--map"]).arg(&path).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(exit::IO_OR_INTERNAL), "{err}");
    assert!(err.contains(&format!("--map {}: cannot write the map", path.display())), "{err}");
}

/// Every page-writing command, pointed at a path that cannot be a folder,
/// is an IO error (exit 3) naming the path, whatever the command.
#[test]
fn every_page_that_cannot_be_written_is_exit_3_and_names_its_path() {
    let dir = std::env::temp_dir().join(format!("empires-exit-pages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let run = dir.join("run");
    let o =
        bin().args(["run", "--campaigns", "4", "--quiet", "--detail", "combats", "--out"]).arg(&run).output().unwrap();
    assert!(o.status.success());
    let target = blocker.join("page");
    let t = target.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["play", "--seed", "7", "--html", t],
        vec!["report", run.to_str().unwrap(), "--out", t],
        vec!["tables", "--out", t],
        vec![
            "ladder",
            "--strategies",
            "random,balanced",
            "--campaigns",
            "4",
            "--bootstrap",
            "100",
            "--quiet",
            "--out",
            t,
        ],
        vec!["compare", "--vary", "economy.pillage=3D6x10", "--campaigns", "4", "--quiet", "--out", t],
    ];
    for args in cases {
        let o = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(exit::IO_OR_INTERNAL), "{args:?}: {err}");
        assert!(err.contains(t), "{args:?} names the path: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A flag that would be ignored is refused, saying why.
#[test]
fn tables_against_a_run_refuses_a_set_it_would_ignore() {
    let dir = std::env::temp_dir().join(format!("empires-against-set-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o =
        bin().args(["run", "--campaigns", "4", "--quiet", "--detail", "combats", "--out"]).arg(&dir).output().unwrap();
    assert!(o.status.success());
    let o = bin().args(["tables", "--against"]).arg(&dir).args(["--set", "economy.pillage=3D6x10"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{err}");
    assert!(err.contains("--set with --against") && err.contains("--scenario"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A value of the wrong type names the form to give, not Rust's type.
#[test]
fn a_wrong_type_in_set_names_the_form_to_give() {
    let o = bin().args(["run", "--campaigns", "4", "--set", "costs.capture=abc"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{err}");
    assert!(err.contains("--set costs.capture=abc") && err.contains("expected a whole number"), "{err}");
    assert!(!err.contains("i32"), "{err}");
}

/// A misspelled strategy gets a did-you-mean on every command that takes
/// strategy names.
#[test]
fn a_misspelled_strategy_gets_a_did_you_mean_everywhere() {
    for args in [
        &["ladder", "--strategies", "random,balancd", "--campaigns", "4"][..],
        &["metagame", "--strategies", "random,balancd", "--campaigns", "4"],
        &["deviate", "--strategy", "balancd", "--campaigns", "4"],
        &["compare", "--vary", "economy.pillage=3D6x10", "--players", "balancd", "--campaigns", "4"],
        &["experiment", "restrict", "--forbid", "mine", "--levels", "random,balancd", "--campaigns", "4"],
    ] {
        let o = bin().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{args:?}: {err}");
        assert!(err.contains("did you mean `balanced`?"), "{args:?}: {err}");
    }
}

/// Commands that write pages say where, on standard error when standard
/// output carries the answer.
#[test]
fn page_writing_commands_say_where_they_wrote() {
    let dir = std::env::temp_dir().join(format!("empires-say-where-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let replay = dir.join("replay");
    let o = bin().args(["play", "--seed", "7", "--html"]).arg(&replay).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains(&replay.join("index.html").display().to_string()));
    let tables = dir.join("tables");
    let o = bin().args(["tables", "--format", "json", "--out"]).arg(&tables).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains(&tables.display().to_string()));
    serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("standard output stays JSON");
    std::fs::remove_dir_all(&dir).unwrap();
}
