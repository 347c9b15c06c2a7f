//! Every page opens with its answer, computed from its data (the browser
//! test, `tests/browser/run.sh`, checks each page kind for one; these
//! check what a few of them say).

use crate::play_cli::bin;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-pages-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn answer(dir: &Path) -> String {
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let start = html.find("<p class=\"answer\">").expect("the page opens with its answer") + 18;
    let end = html[start..].find("</p>").unwrap();
    assert!(html[..start].matches("<h2>").count() == 0, "the answer comes before any section");
    html[start..start + end].to_string()
}

#[test]
fn a_comparison_of_a_scenario_with_itself_answers_that_nothing_moved() {
    let d = format!("{}/scenarios/default.toml", env!("CARGO_MANIFEST_DIR"));
    let out = tmp("same");
    let o = bin().args(["compare", &d, &d, "--campaigns", "60", "--quiet", "--out"]).arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a = answer(&out);
    // The same games: the answer says so, rather than that nothing was
    // detectable.
    assert!(
        a.starts_with(
            "Question 3, did the change shift the balance? No: default plays exactly the games of default (60 \
             campaigns each, master seed 1)"
        ),
        "{a}"
    );
    let out = tmp("moved");
    let o = bin()
        .args(["compare", "--vary", "economy.pillage=6D6x10", "--campaigns", "400", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let a = answer(&out);
    assert!(a.contains("moves") && a.contains("metrics detectably") && a.contains("pts"), "{a}");
}

#[test]
fn the_mine_page_answers_from_which_season_a_pillage_pays_more() {
    let out = tmp("mine");
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--campaigns", "20", "--loss-campaigns", "0"])
        .args(["--readings-campaigns", "0", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a = answer(&out);
    // Default scenario: 12 seasons, 2D6x10 river (70) and 3D6x10 mountain
    // (105) against a 2D6x10 pillage (70): one payday matches it.
    // A tie is a tie: one payday of 70 in season 11 matches the pillage.
    assert!(
        a.starts_with(
            "Question 1, is a mine worth more than a pillage (both 1 EP), and from which season on? In expected gold \
             (exact, 12 seasons, if the hex is never lost; a pillage pays its mean 70 once): a river mine (70 a \
             payday) beats it when built in seasons 1 to 10, ties in season 11, pays less in season 12: a pillage is \
             worth at least as much from season 11 on; a mountain mine (105 a payday) beats it when built in seasons \
             1 to 11, pays less in season 12: a pillage is worth at least as much from season 12 on. In win points: "
        ),
        "{a}"
    );
    assert!(a.contains(" Players: balanced (weighted) "), "the competence verdict stands beside the answer: {a}");
    assert!(a.contains(" In play (20 campaigns, master seed 1, Holm 5% family-wise): no mines "), "{a}");
    // The terminal's first line is the page's answer, word for word.
    let first = String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or_default().to_string();
    assert_eq!(first, a);
}

/// With one strategy in every seat, restricting every seat alike leaves the
/// game symmetric, so the answer in play is the one-player restrictions:
/// each with its paired interval, a verdict word only beyond chance, and
/// mines first said once (it is also the readings' shipped row).
#[test]
fn q1_with_one_strategy_seated_answers_from_one_player_restricted() {
    let out = tmp("mine-solo");
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--players", "tuned", "--campaigns", "40", "--loss-campaigns", "0"])
        .args(["--readings-campaigns", "40", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a = answer(&out);
    let lead = "In play, one tuned so restricted against unrestricted copies, paired with the unrestricted tuned in \
                the same seat (40 campaigns, master seed 1, seats rotated, Holm 5% family-wise): no mines: ";
    assert!(a.contains(lead), "{a}");
    assert!(a.contains("; no pillage: ") && a.contains("; mines first: "), "{a}");
    assert!(!a.contains("moves no win rate"), "the all-restricted variants are not the answer: {a}");
    assert_eq!(a.matches("mines first").count(), 1, "mines first is said once: {a}");
    let first = String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or_default().to_string();
    assert_eq!(first, a);
}

#[test]
fn the_report_of_an_interrupted_run_says_its_data_are_partial() {
    let run = tmp("partial");
    let o = bin().args(["run", "--campaigns", "40", "--quiet", "--out"]).arg(&run).output().unwrap();
    assert!(o.status.success());
    // Mark the finished run as interrupted, as an interrupted run's manifest is.
    let m = run.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap().replace("\"interrupted\": false", "\"interrupted\": true");
    std::fs::write(&m, text).unwrap();
    let out = tmp("partial-page");
    let o = bin().arg("report").arg(&run).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("partial data"));
    assert!(answer(&out).starts_with("PARTIAL DATA: the run was interrupted"), "{}", answer(&out));
}

/// The README quotes each question's answer line as the commands print
/// it: it opens with the same words the one function that builds the line
/// uses (question 2's whole line is checked in tables.rs).
#[test]
fn the_readme_quotes_each_questions_answer_line() {
    let readme = include_str!("../../README.md");
    for lead in [
        empires::report::study::mine_pillage::LEAD,
        empires::report::fairness::LEAD,
        empires::report::study::shift::LEAD,
    ] {
        let quoted = readme.lines().find(|l| l.starts_with(lead));
        assert!(quoted.is_some(), "README.md quotes no line opening with {lead:?}");
    }
}

/// The compare page's table of every metric (eight columns, each side's
/// mean with its interval) sits in a box that scrolls rather than pushing
/// the page wide, set small with cells that wrap, so it fits the page with
/// its last column, the verdict, in view: the page records how many tables
/// scroll in their box (`data-scrolled`), which `tests/browser/run.sh`
/// requires to be 0 on the compare page as Chromium lays it out.
#[test]
fn the_compare_page_sets_its_table_of_every_metric_to_fit() {
    let out = tmp("fit");
    let o = bin()
        .args(["compare", "--vary", "costs.capture=3", "--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let tables = html.matches("<table>").count();
    assert!(tables >= 1 && html.matches("<div class=\"wide\"><table>").count() == tables, "every table in its box");
    let head = html.split("<thead><tr>").nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(head.ends_with("<th>verdict</th>"), "the verdict is the last column: {head}");
    for rule in [
        ".wide { overflow-x: auto; max-width: 100%; }",
        "table { border-collapse: collapse; margin: 1em 0; font-size: 0.8em; }",
        "th, td { border: 1px solid #ccc; padding: 0.2em 0.4em; text-align: right; }",
    ] {
        assert!(html.contains(rule), "{rule}");
    }
    assert!(!html.contains("nowrap"), "cells wrap");
    assert!(html.contains("document.body.setAttribute(\"data-scrolled\""), "the page records tables that scroll");
}
