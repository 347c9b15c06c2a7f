//! Bad scenarios are refused on the binary with `FILE:LINE:COL: message` and
//! exit code 2, never a panic.

use crate::play_cli::bin;
use std::path::PathBuf;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("empires-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Run `validate` and `play --scenario` on the text; both must fail with
/// exit code 2 and the located message.
fn refused(name: &str, text: &str, line: usize, col: usize, message: &str) {
    let p = write(name, text);
    let shown = p.display().to_string();
    for args in [vec!["validate", shown.as_str()], vec!["play", "--scenario", shown.as_str()]] {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let want = format!("{shown}:{line}:{col}: ");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with(&want), "{args:?}: expected {want:?}, got {first:?}");
        assert!(first.contains(message), "{args:?}: {first:?} lacks {message:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

const TWO_PLAYERS: &str = "[[players]]\nname = \"a\"\n[[players]]\nname = \"b\"\n";

#[test]
fn toml_syntax_error() {
    refused("syntax.toml", "name = \"x\"\nseasons = [\n", 2, 12, "unclosed array");
}

#[test]
fn unknown_key() {
    refused("unknown.toml", "[army]\nbid_kap = 3\n", 2, 1, "unknown field `bid_kap`");
}

#[test]
fn wrong_type() {
    refused("type.toml", "[army]\nbid_cap = \"three\"\n", 2, 11, "invalid type: string \"three\"");
}

#[test]
fn mine_on_plains_in_a_drawn_map() {
    let text = format!("[map]\nrows = [\n  \"~ ~ ~ ~\",\n  \" ~ p1 pn p2 ~\",\n  \"~ ~ ~ ~\",\n]\n{TWO_PLAYERS}");
    refused("mine.toml", &text, 4, 10, "a mine cannot stand on plains");
}

#[test]
fn capital_on_sea() {
    let text = format!("[map]\nrows = [\n  \"~ ~ ~ ~\",\n  \" ~ p1 p ~2 ~\",\n  \"~ ~ ~ ~\",\n]\n{TWO_PLAYERS}");
    refused("capsea.toml", &text, 4, 12, "player 2's capital stands on sea");
}

#[test]
fn combat_table_leaves_a_gap_uncovered() {
    let text = "[[army.losses]]\nfrom = 0\nto = 0\nwinner_loss = 1\nloser_loss = 1\n\n[[army.losses]]\nfrom = 2\nwinner_loss = 0\nloser_loss = 1\n";
    refused("hole.toml", text, 1, 1, "army.losses: no row covers gap 1");
}

#[test]
fn combat_table_rows_overlap() {
    let text = "[[army.losses]]\nfrom = 0\nto = 3\nwinner_loss = 1\nloser_loss = 1\n\n[[army.losses]]\nfrom = 3\nwinner_loss = 0\nloser_loss = 1\n";
    refused("overlap.toml", text, 7, 1, "army.losses[2]: row overlaps row 1 (gap 3)");
}

#[test]
fn siege_table_must_cover_negative_gaps() {
    let text = "[[siege.table]]\nfrom = 0\ncity_pv = 0\narmy_loss = 1\n";
    refused("siege.toml", text, 1, 1, "siege.table: no row covers gaps below 0");
}

#[test]
fn negative_cost() {
    refused("negative.toml", "[costs]\ncapture = -2\n", 2, 11, "costs.capture: must not be negative");
}

#[test]
fn dice_string_that_does_not_parse() {
    refused("dice.toml", "[economy]\npillage = \"2D6y10\"\n", 2, 11, "invalid dice expression \"2D6y10\"");
}

#[test]
fn mine_yield_dice_that_do_not_parse() {
    refused("yield.toml", "[economy.mine]\nriver = \"2x6\"\n", 2, 9, "invalid dice expression \"2x6\"");
}

#[test]
fn fewer_than_two_players() {
    refused("oneplayer.toml", "[[players]]\nname = \"alone\"\n", 1, 1, "at least 2 players (found 1)");
}

#[test]
fn unknown_strategy() {
    let text = "[[players]]\nname = \"a\"\n\n[[players]]\nname = \"b\"\nstrategy = \"genius\"\n";
    refused("strategy.toml", text, 6, 12, "unknown strategy \"genius\"");
}

#[test]
fn every_problem_is_listed() {
    let p = write("many.toml", "[costs]\ncapture = -2\nconquer = -1\n[[players]]\nname = \"alone\"\n");
    let out = bin().args(["validate", &p.display().to_string()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.lines().count(), 3, "{err}");
}

#[test]
fn missing_file_and_bad_flags_exit_2() {
    let out = bin().args(["validate", "/nonexistent/x.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the scenario"));
    let out = bin().args(["play", "--seed", "many"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_strategy_share_out_of_its_range() {
    refused(
        "share.toml",
        &format!("{TWO_PLAYERS}[strategies.balanced]\nengine_extra = 2.0\n"),
        6,
        16,
        "must be from 0 to 1 (found 2)",
    );
}

/// G-30: restricted play names action kinds (`ActionKind`); an unknown one
/// is refused where it is written, and so is forbidding `done`.
#[test]
fn g30_an_unknown_action_kind_is_located() {
    let text = format!("{TWO_PLAYERS}[strategies.balanced]\nforbid = [\"mine\", \"dance\"]\n");
    refused("kind.toml", &text, 6, 10, "unknown action kind \"dance\"");
    let text = format!("{TWO_PLAYERS}[strategies.balanced]\nforbid = [\"done\"]\n");
    refused("done.toml", &text, 6, 11, "\"done\" cannot be forbidden");
}

/// A misspelled key or strategy name is answered with the nearest known
/// one, in a file, a `--set` flag and `--players`.
#[test]
fn a_misspelled_key_or_strategy_gets_a_did_you_mean() {
    refused(
        "misspelled_key.toml",
        "[economy]\npillag = \"2D6x10\"\n",
        2,
        1,
        "unknown field `pillag` (did you mean `pillage`?), expected `mine` or `pillage`",
    );
    let o = bin().args(["run", "--campaigns", "2", "--set", "strategies.tuned.minee=1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown field `minee` (did you mean `mine`?), expected one of `kind`"), "{err}");
    let o = bin().args(["run", "--campaigns", "2", "--set", "players[1].strategy=tunned"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown strategy \"tunned\" (did you mean `tuned`?)"));
    let o = bin().args(["compare", "--vary", "costs.capture=3", "--players", "tunned"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--players: unknown strategy \"tunned\" (did you mean `tuned`?)")
    );
    // Nothing near: no guess.
    let o = bin().args(["run", "--campaigns", "2", "--set", "players[1].strategy=zzz"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&o.stderr).contains("did you mean"));
}

/// One row of a table the file leaves out (archipelago gives no naval
/// table) changes that row of the default table; an array with no default
/// says how to give it.
#[test]
fn a_row_of_a_table_the_file_leaves_out_is_a_row_of_the_default() {
    let archipelago = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/archipelago.toml");
    let o = bin().args(["tables", "--scenario", archipelago, "--set", "naval.table[1].loser_pv=3"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let naval = &text[text.find("== naval ==").unwrap()..];
    assert!(naval.contains("1. gap 0: winner -1 PV, loser -3 PV"), "{naval}");
    assert!(naval.contains("2. gap 1: winner -1 PV, loser -2 PV"), "the other rows are the default's: {naval}");
    // The designer's command: B is the default table with row 1 changed.
    let out = std::env::temp_dir().join(format!("empires-bad-input-{}-row", std::process::id()));
    let o = bin()
        .args(["compare", "--scenario", archipelago, "--vary", "naval.table[1].loser_pv=3", "--campaigns", "10"])
        .args(["--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&out);
    let o = bin().args(["validate", archipelago, "--set", "nothing[1].x=3"]).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("nothing is not given in the file and has no default rows") && e.contains("nothing=[...]"),
        "{e}"
    );
}
