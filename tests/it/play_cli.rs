//! `empires play` on the binary: complete, and the same for the same seed.

use std::process::Command;

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_empires"))
}

fn play(args: &[&str]) -> String {
    let out = bin().arg("play").args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn play_prints_a_complete_campaign_the_same_way_twice() {
    let a = play(&["--seed", "7"]);
    let b = play(&["--seed", "7"]);
    assert_eq!(a, b);
    assert!(a.contains("=== Season 1 ==="));
    assert!(a.contains("=== The campaign ends after season"));
    assert!(a.contains("  1. "), "standings are printed");
    assert!(a.contains("payday:") || a.contains("spend:"));
    assert_ne!(a, play(&["--seed", "8"]));
}

#[test]
fn play_json_is_one_object_per_line() {
    let s = play(&["--seed", "7", "--json"]);
    let mut kinds = std::collections::BTreeSet::new();
    for line in s.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        kinds.insert(v["event"].as_str().unwrap().to_string());
    }
    for k in ["header", "season", "order", "ep", "spend", "end", "standing"] {
        assert!(kinds.contains(k), "no {k} event");
    }
    assert_eq!(s, play(&["--seed", "7", "--json"]));
}

#[test]
fn play_runs_every_shipped_scenario() {
    for f in ["duel.toml", "archipelago.toml", "straits.toml"] {
        let path = format!("{}/scenarios/{f}", env!("CARGO_MANIFEST_DIR"));
        let s = play(&["--scenario", &path, "--seed", "3"]);
        assert!(s.contains("=== The campaign ends"));
    }
}

#[test]
fn validate_accepts_the_shipped_scenarios() {
    for f in ["default.toml", "duel.toml", "archipelago.toml", "straits.toml"] {
        let path = format!("{}/scenarios/{f}", env!("CARGO_MANIFEST_DIR"));
        let out = bin().args(["validate", &path]).output().unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok: "));
    }
}

/// A file with no `[[players]]` is valid (every key is optional) and plays
/// the code's default four `balanced` players, which are not the built-in
/// default.toml's: `validate` says so under its `ok` line, as
/// docs/scenario.md shows. A file that seats players seats at least two.
#[test]
fn validate_names_the_default_players_of_a_file_without_players() {
    let d = std::env::temp_dir().join(format!("empires-validate-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("short.toml"), "[campaign]\nseasons = 8\n").unwrap();
    let out = bin().current_dir(&d).args(["validate", "short.toml"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let want = "ok: short.toml (unnamed): 4 players [balanced, balanced, balanced, balanced], generated map of 48 land \
                hexes (one per campaign), 8 seasons\nnote: short.toml names no [[players]], so it plays the code's \
                default players P1, P2, P3, P4 (four `balanced` unless --set changes them; not the players of the \
                built-in default.toml); name 2 to 9 [[players]] to seat your own\n";
    assert_eq!(stdout, want);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenario.md")).unwrap();
    assert!(doc.contains(want), "docs/scenario.md shows what validate prints");
    // Players named: no note. One player: refused.
    std::fs::write(d.join("two.toml"), "[[players]]\nname = \"A\"\n[[players]]\nname = \"B\"\n").unwrap();
    let out = bin().current_dir(&d).args(["validate", "two.toml"]).output().unwrap();
    assert!(out.status.success() && !String::from_utf8_lossy(&out.stdout).contains("note:"));
    std::fs::write(d.join("one.toml"), "[[players]]\nname = \"A\"\n").unwrap();
    let out = bin().current_dir(&d).args(["validate", "one.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "one.toml:1:1: players: a campaign needs at least 2 players (found 1)\n"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    // `empires tables --format json | head -c 16`: the reader goes away
    // after 16 bytes of 600 kB, far more than a pipe buffers.
    use std::io::Read;
    use std::process::Stdio;
    for args in [vec!["tables", "--format", "json"]] {
        let mut child = bin().args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut first = [0u8; 16];
        child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}");
    }
}

/// Standard output of the command line goes through `say!`/`sayln!`, which
/// end quietly on a closed pipe: a bare `println!` panics there, and only
/// when the reader leaves early, which no other test can time.
#[test]
fn the_command_line_prints_only_through_say() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli");
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let bare = |m: &str| code.match_indices(m).any(|(k, _)| k == 0 || !code[..k].ends_with(['e', '_']));
            assert!(!bare("println!(") && !bare("print!("), "{}:{}: {line}", path.display(), i + 1);
        }
    }
}

#[test]
fn play_seats_players_as_run_does() {
    // The default scenario's strategies differ, so seats rotate by default:
    // in campaign 1, seat 0 (Red) plays player 2's strategy (miner).
    let header = |args: &[&str]| play(args).lines().nth(1).unwrap().to_string();
    assert_eq!(
        header(&["--seed", "3", "--campaign", "1"]),
        "players: Red (miner), Blue (pillager), Green (warlord), Yellow (balanced)"
    );
    assert_eq!(
        header(&["--seed", "3", "--campaign", "1"]),
        header(&["--seed", "3", "--campaign", "1", "--rotate-seats"])
    );
    assert_eq!(
        header(&["--seed", "3", "--campaign", "1", "--fixed-seats"]),
        "players: Red (balanced), Blue (miner), Green (pillager), Yellow (warlord)"
    );
    // Four identical players: nothing to rotate.
    let same: Vec<String> = (1..=4).map(|k| format!("players[{k}].strategy=balanced")).collect();
    let mut args = vec!["--seed", "3", "--campaign", "1"];
    for s in &same {
        args.extend(["--set", s.as_str()]);
    }
    assert_eq!(header(&args), "players: Red (balanced), Blue (balanced), Green (balanced), Yellow (balanced)");
}
