//! What the charts say, read from the SVG files the pages embed: axes in
//! the tables' units, categories for dice values, one fixed scale with a
//! legend where values are compared, labels that do not overlap, rows in
//! the tables' order, and a terrain legend on maps. (How the pages look in
//! a browser, overflow included, is `tests/browser/run.sh`.)

use crate::play_cli::bin;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-charts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// One `<text>` of an SVG: where it is anchored, its size and its words.
#[derive(Debug)]
struct Text {
    x: f64,
    y: f64,
    size: f64,
    s: String,
}

fn attr(tag: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    tag.find(&key).and_then(|i| tag[i + key.len()..].split('"').next()).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
}

/// Every text of the SVG file, in drawing order.
fn texts(svg: &Path) -> Vec<Text> {
    let s = std::fs::read_to_string(svg).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
    let mut out = Vec::new();
    let mut rest = s.as_str();
    while let Some(i) = rest.find("<text ") {
        rest = &rest[i..];
        let Some(end) = rest.find('>') else { break };
        let tag = &rest[..end];
        let body = &rest[end + 1..];
        let Some(close) = body.find("</text>") else { break };
        out.push(Text {
            x: attr(tag, "x"),
            y: attr(tag, "y"),
            size: attr(tag, "font-size"),
            s: body[..close].trim().replace("&apos;", "'"),
        });
        rest = &body[close..];
    }
    out
}

fn run(args: &[&str], out: &Path) {
    let o = bin().args(args).arg("--quiet").arg("--out").arg(out).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

/// The y-axis ticks: texts left of the plot (anchored at its left edge).
fn y_ticks(t: &[Text]) -> Vec<&Text> {
    let left = t.iter().filter(|x| x.s.ends_with('%')).map(|x| x.x).fold(f64::NAN, f64::min);
    t.iter().filter(|x| x.x == left && !x.s.is_empty()).collect()
}

/// A one-key sweep over dice values: one category per value, in the
/// order given, along the x axis (not a 0.0–2.0 number line), and y
/// ticks in percent as the tables write win rates, never "-0".
#[test]
fn a_sweep_over_dice_values_reads_as_categories_in_percent() {
    let d = tmp("dice");
    run(&["sweep", "--values", "economy.pillage=2D6x10,3D6x10,4D6x10", "--campaigns", "20"], &d);
    let t = texts(&d.join("sweep-line.svg"));
    let cats: Vec<&Text> = t.iter().filter(|x| x.s.ends_with("D6x10")).collect();
    assert_eq!(cats.iter().map(|x| x.s.as_str()).collect::<Vec<_>>(), ["2D6x10", "3D6x10", "4D6x10"], "{t:?}");
    assert!(cats.windows(2).all(|w| w[0].x < w[1].x && w[0].y == w[1].y), "{cats:?}");
    assert!(!t.iter().any(|x| x.s.parse::<f64>().is_ok_and(|v| v.fract() != 0.0)), "a number line: {t:?}");
    let ticks = y_ticks(&t);
    assert!(ticks.len() >= 3 && ticks.iter().all(|x| x.s.ends_with('%')), "{ticks:?}");
    assert!(!t.iter().any(|x| x.s.starts_with("-0")), "{t:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A two-key sweep: every heatmap of proportions shares one scale, 0% to
/// 100%, with a colour legend that says so; each cell prints its 95%
/// interval under its mean; the rows run top-down in the order given.
#[test]
fn a_two_key_sweep_shares_a_fixed_scale_with_a_legend_and_intervals() {
    let d = tmp("heat");
    run(
        &["sweep", "--values", "costs.capture=2,3", "--values", "economy.pillage=2D6x10,3D6x10", "--campaigns", "20"],
        &d,
    );
    let mut legends = Vec::new();
    for k in 0..4 {
        let t = texts(&d.join(format!("sweep-heatmap-{k}.svg")));
        let at = |s: &str| t.iter().find(|x| x.s == s).map(|x| (x.x, x.y)).unwrap_or_else(|| panic!("{s}: {t:?}"));
        legends.push((at("0%"), at("100%")));
        let (two, three) = (at("2D6x10"), at("3D6x10"));
        assert!(two.1 < three.1, "the first row is on top: {two:?} {three:?}");
        let intervals = t.iter().filter(|x| x.s.contains('–')).count();
        assert_eq!(intervals, 4, "one interval per cell: {t:?}");
    }
    assert!(legends.windows(2).all(|w| w[0] == w[1]), "one scale: {legends:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Deviate's bars are horizontal, one label per row: no two labels of the
/// bar axis overlap (the vertical bars' 24 labels did).
#[test]
fn deviate_labels_do_not_overlap() {
    let d = tmp("deviate");
    run(&["deviate", "--campaigns", "20"], &d);
    let t = texts(&d.join("deviants.svg"));
    // The bar labels: "key value", right-aligned at one x.
    let x = t.iter().find(|x| x.s.contains(' ') && x.s.split(' ').nth(1).is_some_and(|v| v.parse::<f64>().is_ok()));
    let x = x.unwrap_or_else(|| panic!("no bar label: {t:?}")).x;
    let mut labels: Vec<&Text> = t.iter().filter(|l| l.x == x && !l.s.is_empty()).collect();
    labels.sort_by(|a, b| a.y.total_cmp(&b.y));
    assert!(labels.len() >= 10, "{labels:?}");
    for w in labels.windows(2) {
        assert!(w[1].y - w[0].y >= w[0].size, "{:?} overlaps {:?}", w[0], w[1]);
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The head-to-head heatmap lists its rows top-down and its columns left
/// to right in the order of the table printed beside it.
#[test]
fn head_to_head_rows_follow_the_table() {
    let d = tmp("ladder");
    run(&["ladder", "--strategies", "random,balanced,miner", "--campaigns", "20", "--bootstrap", "100"], &d);
    let text = std::fs::read_to_string(d.join("ladder.txt")).unwrap();
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("row's share"))
        .skip(2)
        .take(3)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(table.len(), 3, "{text}");
    let t = texts(&d.join("pairs.svg"));
    let names = ["random", "balanced", "miner"];
    let mut rows: Vec<&Text> = t.iter().filter(|x| names.contains(&x.s.as_str())).collect();
    let left = rows.iter().map(|x| x.x).fold(f64::INFINITY, f64::min);
    let (mut ys, mut xs): (Vec<&Text>, Vec<&Text>) = rows.drain(..).partition(|x| x.x == left);
    ys.sort_by(|a, b| a.y.total_cmp(&b.y));
    xs.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert_eq!(ys.iter().map(|x| x.s.as_str()).collect::<Vec<_>>(), table, "rows");
    assert_eq!(xs.iter().map(|x| x.s.as_str()).collect::<Vec<_>>(), table, "columns");
    let _ = std::fs::remove_dir_all(&d);
}

/// `play --map` draws a legend naming every terrain.
#[test]
fn the_map_names_its_terrains() {
    let d = tmp("map");
    std::fs::create_dir_all(&d).unwrap();
    let map = d.join("map.svg");
    let o = bin().args(["play", "--seed", "7", "--map"]).arg(&map).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = texts(&map);
    for terrain in empires::map::Terrain::ALL {
        assert!(t.iter().any(|x| x.s == terrain.name()), "{}: {t:?}", terrain.name());
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A sensitivity run of a second: one key, two trajectories.
pub const QUICK_SENSITIVITY: &[&str] =
    &["--metric", "win rate: balanced", "--inputs", "costs.capture=1..3", "--trajectories", "2", "--campaigns", "10"];

/// The sensitivity page renders its emphasis, never the escaped markup.
#[test]
fn the_sensitivity_page_shows_no_markup() {
    let d = tmp("sensitivity");
    run(&[&["sensitivity"][..], QUICK_SENSITIVITY].concat(), &d);
    let html = std::fs::read_to_string(d.join("index.html")).unwrap();
    assert!(!html.contains("&lt;em&gt;") && !html.contains("&lt;/em&gt;"), "escaped markup on the page");
    assert!(html.contains("noise"), "the page speaks of noise");
    let _ = std::fs::remove_dir_all(&d);
}

/// Without `--best-response`, the restrict page's caption does not say
/// both sides were tuned.
#[test]
fn the_restrict_caption_says_what_was_played() {
    let d = tmp("restrict");
    run(&["experiment", "restrict", "--forbid", "mine", "--campaigns", "20"], &d);
    let html = std::fs::read_to_string(d.join("index.html")).unwrap();
    assert!(!html.contains("then with both sides tuned"), "claims a tuning it did not play");
    assert!(html.contains("--best-response adds both sides tuned"), "says how to get it");
    let _ = std::fs::remove_dir_all(&d);
}

/// The tables page draws every heatmap the same way round: high (red) is
/// the attacker's advantage, and each legend strip says so. The siege chain
/// shows P(the city falls first), not P(the army is spent first), and the
/// loss grids the defender's loss minus the attacker's.
#[test]
fn every_tables_heatmap_is_red_for_the_attacker_with_a_legend_saying_so() {
    let d = tmp("tables");
    let o = bin().args(["tables", "--out"]).arg(&d).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let kinds = ["army", "siege", "naval", "coastal", "spy", "spy_vs_spy"];
    let mut stems: Vec<String> = kinds.iter().map(|k| format!("loss-{k}")).collect();
    stems.extend(["win", "siege-exact", "naval-exact"].map(String::from));
    for stem in &stems {
        let t = texts(&d.join(format!("{stem}.svg")));
        let y = |s: &str| t.iter().filter(|x| x.s == s).map(|x| x.y).next().unwrap_or_else(|| panic!("{stem}: {s}"));
        // "attacker / ahead" tops the strip, "defender / ahead" ends it.
        assert!(y("attacker") < y("defender"), "{stem}: {t:?}");
    }
    // City PV 1 against 1 unit (+1 extra, city base 3): the city falls at
    // once on 10 of 36 face pairs (w10_siege_chain_by_hand), drawn as 28%.
    let siege = texts(&d.join("siege-exact.svg"));
    assert!(siege.iter().any(|x| x.s.contains("P(the city falls first)")), "{siege:?}");
    // Cell values are the numbers in a smaller font than the axes' labels;
    // PV 1 is the top row and 1 unit the left column: the top-left cell.
    let numbers = siege.iter().filter(|x| x.s.parse::<u32>().is_ok());
    let small = numbers.clone().map(|x| x.size).fold(f64::INFINITY, f64::min);
    let cells: Vec<&Text> = numbers.filter(|x| x.size == small).collect();
    let top_left = cells.iter().min_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x))).unwrap();
    assert_eq!(top_left.s, "28", "{cells:?}");
    assert!(!siege.iter().any(|x| x.s == "-0"), "a sure loss is 0, not -0: {siege:?}");
    // At equal base a siege costs the army 50/36 units and the city 22/36
    // PV: defender minus attacker is -0.78, below 0, the defender's side.
    let loss = texts(&d.join("loss-siege.svg"));
    assert!(loss.iter().any(|x| x.s == "-0.78"), "{loss:?}");
    assert!(loss.iter().any(|x| x.s.contains("expected defender loss − attacker loss")), "{loss:?}");
    let _ = std::fs::remove_dir_all(&d);
}
