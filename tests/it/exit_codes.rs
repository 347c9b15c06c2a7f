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
