//! `empires report`: the HTML page of a run and its charts.

use crate::play_cli::bin;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn report_writes_a_page_with_every_chart_as_svg_and_png() {
    let (run, out) = (tmp("run"), tmp("out"));
    let o = bin()
        .args(["run", "--campaigns", "200", "--seed", "4", "--rotate-seats", "--detail", "seasons", "--quiet", "--out"])
        .arg(&run)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = bin().arg("report").arg(&run).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    for stem in [
        "win-rate-strategy",
        "win-rate-seat",
        "empire-size",
        "gold-sources",
        "end-reasons",
        "siege-exact",
        "naval-exact",
    ] {
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        assert!(svg.contains("<svg") && svg.contains("</svg>"), "{stem}.svg");
        let png = std::fs::read(out.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png");
        assert!(html.contains(&format!("<img src=\"{stem}.svg\"")), "{stem} on the page");
        assert!(html.contains(&format!("href=\"{stem}.png\"")), "{stem} PNG linked");
    }
    // The siege chart's caption names what it draws, P(the city falls
    // first) (the cell values are checked in charts.rs).
    assert!(html.contains(empires::report::run_page::SIEGE_EXACT_CAPTION), "the siege chart's caption");
    assert!(!html.contains("the army is spent before the city falls"), "no caption of the complement");
    // Provenance: the seed, the number of campaigns and the scenario hash.
    assert!(html.contains(manifest["scenario_hash"].as_str().unwrap()));
    assert!(html.contains("200 campaigns, seed 4"));
    assert!(html.contains("95%"));
    // No file is left under a temporary name.
    for e in std::fs::read_dir(&out).unwrap() {
        let n = e.unwrap().file_name().to_string_lossy().to_string();
        assert!(!n.starts_with('.'), "temporary file left: {n}");
    }
    // Without seasons.parquet the page says how to get those charts.
    let (run2, out2) = (tmp("run2"), tmp("out2"));
    assert!(bin().args(["run", "--campaigns", "50", "--quiet", "--out"]).arg(&run2).status().unwrap().success());
    assert!(bin().arg("report").arg(&run2).arg("--out").arg(&out2).status().unwrap().success());
    assert!(std::fs::read_to_string(out2.join("index.html")).unwrap().contains("--detail seasons"));
    // Not a run: a clear error.
    let o = bin().args(["report", "/nonexistent"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("manifest.json"));
}

#[test]
fn play_map_draws_the_final_map_as_svg_or_png() {
    let dir = tmp("map");
    std::fs::create_dir_all(&dir).unwrap();
    let (svg, png) = (dir.join("m.svg"), dir.join("m.png"));
    for p in [&svg, &png] {
        let o = bin().args(["play", "--seed", "7", "--map"]).arg(p).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // The log is still printed.
        assert!(String::from_utf8_lossy(&o.stdout).contains("The campaign ends"));
    }
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.contains("<svg") && s.contains("<polygon"), "hexes drawn");
    // Every player is in the legend.
    for name in ["Red", "Blue", "Green", "Yellow"] {
        assert!(s.contains(name), "{name} in the legend");
    }
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    let o = bin().args(["play", "--map"]).arg(dir.join("m.jpg")).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(".svg or .png"));
}

/// The run's summary gives each strategy's and each seat's mean rank,
/// empire size and gold by source with its 95% interval, the campaign as
/// the unit: a campaign's value is the group's players' mean in it, and
/// the interval comes from those values (worked out here from
/// `players.parquet`). `summary.txt` and the page print them as mean ± half
/// the interval.
#[test]
fn the_summary_means_carry_campaign_level_intervals() {
    use empires::report::summary::{mean_cells, summarize};
    use empires::stats::mean_interval;
    use polars::prelude::*;
    let (run, out) = (tmp("means"), tmp("means-page"));
    let o = bin().args(["run", "--campaigns", "80", "--seed", "6", "--quiet", "--out"]).arg(&run).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let df = ParquetReader::new(std::fs::File::open(run.join("players.parquet")).unwrap()).finish().unwrap();
    let f = |c: &str| -> Vec<f64> {
        df.column(c).unwrap().cast(&DataType::Float64).unwrap().f64().unwrap().into_no_null_iter().collect()
    };
    let (campaign, seat) = (f("campaign"), f("seat"));
    let strategy: Vec<String> =
        df.column("strategy").unwrap().str().unwrap().iter().map(|s| s.unwrap().to_string()).collect();
    let s = summarize(&run.join("players.parquet")).unwrap();
    let text = std::fs::read_to_string(run.join("summary.txt")).unwrap();
    let groups = s.by_strategy.iter().map(|l| (l, true)).chain(s.by_seat.iter().map(|l| (l, false)));
    for (line, by_strategy) in groups {
        let member = |i: usize| if by_strategy { strategy[i] == line.key } else { seat[i].to_string() == line.key };
        let got = [&line.mean_rank, &line.mean_size, &line.gold_mines, &line.gold_pillage, &line.gold_loot];
        for (column, got) in ["rank", "empire_size", "gold_mines", "gold_pillage", "gold_loot"].iter().zip(got) {
            let v = f(column);
            // Each campaign's value: the group's players' mean in it.
            let mut per: std::collections::BTreeMap<u64, (f64, f64)> = Default::default();
            for i in (0..v.len()).filter(|&i| member(i)) {
                let e = per.entry(campaign[i] as u64).or_default();
                e.0 += v[i];
                e.1 += 1.0;
            }
            let want = mean_interval(per.values().map(|(s, n)| s / n), 0.95);
            assert_eq!(got.n, 80, "{} {column}", line.key);
            for (g, w) in [(got.mean, want.mean), (got.low, want.low), (got.high, want.high)] {
                assert!((g - w).abs() < 1e-9, "{} {column}: {got:?} against {want:?}", line.key);
            }
        }
        let row = text.lines().find(|l| l.trim_start().starts_with(&format!("{} ", line.key))).unwrap();
        for cell in mean_cells(line) {
            assert!(row.contains(&cell), "{cell} in {row}");
        }
    }
    assert!(text.contains("± the half-width of its 95% interval, the campaign as the unit"), "{text}");
    let o = bin().arg("report").arg(&run).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains(&format!("<td>{}</td>", mean_cells(&s.by_strategy[0])[0])), "the page's table too");
    let _ = std::fs::remove_dir_all(&run);
    let _ = std::fs::remove_dir_all(&out);
}
