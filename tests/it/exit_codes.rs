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
    let o =
        bin().args(["tables", "--against-run"]).arg(&dir).args(["--set", "economy.pillage=3D6x10"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{err}");
    assert!(err.contains("--set with --against-run") && err.contains("--scenario"), "{err}");
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
        &["probe", "--strategy", "balancd", "--campaigns", "4"],
        &["value", "--strategy", "balancd", "--campaigns", "4"],
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
    let balance: [(&str, &[&str]); 2] = [
        ("sensitivity", crate::charts::QUICK_SENSITIVITY),
        ("solve", &["--range", "costs.capture=1..4", "--target", "win rate: balanced = 0.25", "--campaigns", "50"]),
    ];
    for (cmd, args) in balance {
        let out = dir.join(cmd);
        let o = bin().arg(cmd).args(args).arg("--quiet").arg("--out").arg(&out).output().unwrap();
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(said.contains(&format!("open {}", out.join("index.html").display())), "{cmd}: {said}");
        assert!(out.join("index.html").exists(), "{cmd}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every command, given input the library rejects, exits 2 naming what is
/// wrong; given an output folder that cannot be made (its parent is a
/// file), it exits 3 naming the path. Neither panics. The bad inputs are
/// ones the library finds (unknown keys and strategies, files that are not
/// what they claim), so the class travels from where the error is made to
/// the exit code.
#[test]
fn every_command_exits_2_on_bad_input_and_3_on_an_unwritable_output() {
    let dir = std::env::temp_dir().join(format!("empires-exit-every-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let not_a_run = dir.join("not-a-run");
    std::fs::create_dir_all(&not_a_run).unwrap();
    let bad_balance = dir.join("balance.toml");
    std::fs::write(&bad_balance, "alpha = 0.05\n[[metric]\nname = 1\n").unwrap();
    let bad_scenario = dir.join("bad.toml");
    std::fs::write(&bad_scenario, "[economy]\nnope = 1\n").unwrap();
    let shards: Vec<_> = (1..=2).map(|k| dir.join(format!("shard-{k}"))).collect();
    for (k, d) in shards.iter().enumerate() {
        let shard = format!("{k}/2");
        let o = bin().args(["run", "--campaigns", "4", "--quiet", "--shard", &shard, "--out"]).arg(d).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let (na, bb, bs, s1, s2) = (s(&not_a_run), s(&bad_balance), s(&bad_scenario), s(&shards[0]), s(&shards[1]));
    let quick = ["--campaigns", "4", "--quiet"];
    // (command, bad input, what its message names)
    let bad: Vec<(Vec<&str>, &str)> = vec![
        (vec!["play", "--players", "nobody"], "unknown strategy \"nobody\""),
        (vec!["run", "--campaigns", "4", "--set", "economy.nope=1"], "economy.nope"),
        (vec!["check", &bb], "balance.toml:2:"),
        (vec!["compare", "--vary", "costs.captur=3", "--campaigns", "4"], "costs.captur"),
        (vec!["sweep", "--values", "costs.captur=1,2", "--campaigns", "4"], "costs.captur"),
        (vec!["experiment", "mine-vs-pillage", "--loss-from", "nobody", "--campaigns", "4"], "--loss-from"),
        (vec!["experiment", "restrict", "--forbid", "dance", "--campaigns", "4"], "dance"),
        (vec!["experiment", "worth", "--candidates", "nobody", "--campaigns", "4"], "--candidates"),
        (vec!["merge", &na, "--out", "x"], "manifest.json"),
        (vec!["report", &na], "not a finished run directory"),
        (vec!["tables", "--against-run", &na], "no combats.parquet"),
        (vec!["validate", &bs], "bad.toml:2:1: unknown field `nope`"),
        (vec!["tune", "--keys", "mines", "--budget", "4"], "not a numeric strategy key"),
        (vec!["styles", "--starts", "balanced,nobody", "--budget", "4"], "unknown strategy \"nobody\""),
        (vec!["psro", "--members", "tuned,nobody", "--rounds", "1"], "unknown strategy \"nobody\""),
        (vec!["deviate", "--strategy", "nobody", "--campaigns", "4"], "unknown strategy \"nobody\""),
        (vec!["probe", "--strategy", "nobody", "--campaigns", "4"], "unknown strategy \"nobody\""),
        (vec!["value", "--strategy", "nobody", "--campaigns", "4"], "unknown strategy \"nobody\""),
        (vec!["ladder", "--strategies", "random,nobody", "--campaigns", "4"], "unknown strategy \"nobody\""),
        (vec!["metagame", "--strategies", "random,nobody", "--campaigns", "4"], "unknown strategy \"nobody\""),
        (vec!["sensitivity", "--metric", "win rate: balanced", "--inputs", "costs.captur=1..3"], "costs.captur"),
        (vec!["solve", "--range", "costs.captur=1..3", "--target", "win rate: balanced = 0.25"], "costs.captur"),
    ];
    let out = blocker.join("out");
    let o_ = s(&out);
    // (command, a run that would write to `out`)
    let unwritable: Vec<Vec<&str>> = vec![
        vec!["play", "--seed", "7", "--html", &o_],
        [&["run", "--out", &o_][..], &quick].concat(),
        vec!["check", "scenarios/balance.toml", "--quiet", "--out", &o_],
        [&["compare", "--vary", "economy.pillage=3D6x10", "--out", &o_][..], &quick].concat(),
        [&["sweep", "--values", "costs.capture=2,3", "--out", &o_][..], &quick].concat(),
        [&["experiment", "mine-vs-pillage", "--out", &o_][..], &quick].concat(),
        [&["experiment", "restrict", "--forbid", "mine", "--out", &o_][..], &quick].concat(),
        [&["experiment", "worth", "--candidates", "balanced", "--out", &o_][..], &quick].concat(),
        vec!["merge", &s1, &s2, "--out", &o_],
        vec!["report", &s1, "--out", &o_],
        vec!["tables", "--out", &o_],
        vec!["tune", "--budget", "4", "--quiet", "--out", &o_],
        vec!["styles", "--budget", "4", "--quiet", "--out", &o_],
        vec!["psro", "--rounds", "1", "--budget", "4", "--styles-budget", "0", "--quiet", "--out", &o_],
        [&["deviate", "--out", &o_][..], &quick].concat(),
        [&["probe", "--topics", "mine", "--out", &o_][..], &quick].concat(),
        vec!["value", "--campaigns", "4", "--held-out", "4", "--quiet", "--out", &o_],
        [&["ladder", "--strategies", "random,balanced", "--out", &o_][..], &quick].concat(),
        [&["metagame", "--strategies", "random,balanced", "--out", &o_][..], &quick].concat(),
        vec![
            "sensitivity",
            "--metric",
            "win rate: balanced",
            "--inputs",
            "costs.capture=1..3",
            "--quiet",
            "--out",
            &o_,
        ],
        vec![
            "solve",
            "--range",
            "costs.capture=1..4",
            "--target",
            "win rate: balanced = 0.25",
            "--quiet",
            "--out",
            &o_,
        ],
    ];
    let mut commands = std::collections::BTreeSet::new();
    for (args, names) in &bad {
        let o = bin().args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{args:?}: {err}");
        assert!(err.contains(names), "{args:?} names {names:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        commands.insert(args[..if args[0] == "experiment" { 2 } else { 1 }].join(" "));
    }
    for args in &unwritable {
        let o = bin().args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(exit::IO_OR_INTERNAL), "{args:?}: {err}");
        assert!(err.contains(&o_), "{args:?} names the path: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Every subcommand clap knows is covered.
    let all: std::collections::BTreeSet<String> = empires::cli::synopsis::commands().into_iter().collect();
    assert_eq!(commands, all);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The report layer classes its own errors, and the class reaches the exit
/// code unchanged: the same `report` exits 3 when the folder could be
/// claimed but its page cannot be written (a folder stands where
/// index.html goes), and 2 when the run's table is not a table.
#[test]
fn the_report_layer_classes_its_own_errors() {
    let dir = std::env::temp_dir().join(format!("empires-exit-layer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = dir.join("run");
    let o = bin().args(["run", "--campaigns", "4", "--quiet", "--out"]).arg(&run).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = dir.join("page");
    assert!(bin().arg("report").arg(&run).arg("--out").arg(&page).output().unwrap().status.success());
    std::fs::remove_file(page.join("index.html")).unwrap();
    std::fs::create_dir(page.join("index.html")).unwrap();
    let o = bin().arg("report").arg(&run).arg("--out").arg(&page).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(exit::IO_OR_INTERNAL), "{err}");
    assert!(err.contains(&format!("{}: cannot write", page.join("index.html").display())), "{err}");

    std::fs::write(run.join("players.parquet"), "not a parquet file").unwrap();
    let o = bin().arg("report").arg(&run).arg("--out").arg(dir.join("page2")).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(exit::BAD_INPUT), "{err}");
    assert!(err.contains(&run.join("players.parquet").display().to_string()), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
