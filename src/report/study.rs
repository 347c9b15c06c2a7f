//! Text and HTML pages of the studies: compare, sweep, and the
//! mine-against-pillage experiment.

use super::charts::{Bar, Chart, Series};
use super::html::Page;
use crate::error::Error;
use crate::stats::Mean;
use crate::study::compare::{BestResponse, Comparison, Row};
use crate::study::metrics::Metric;
use crate::study::mine_pillage::{self, Exact, Experiment, LOSS_CHANCES, Readings, break_even, mine_gold};
use crate::study::sweep::Sweep;
use std::fmt::Write;
use std::path::Path;

pub fn fmt(m: &Metric, x: f64) -> String {
    if !x.is_finite() {
        "—".into()
    } else if m.is_rate() {
        format!("{:.1}%", 100.0 * x)
    } else {
        format!("{x:.*}", m.decimals())
    }
}

pub fn fmt_diff(m: &Metric, x: f64) -> String {
    if m.is_rate() { format!("{:+.1} pts", 100.0 * x) } else { format!("{x:+.*}", m.decimals()) }
}

/// The verdict of one paired row: "higher" or "lower" only when the
/// adjusted test rejects (the output's correction, at `compare::ALPHA`).
pub fn verdict(r: &Row) -> String {
    if r.rejected() {
        if r.diff.mean > 0.0 { "higher".into() } else { "lower".into() }
    } else if r.undetected() {
        format!("no detectable difference at {} campaigns", r.diff.n)
    } else {
        "not significant after adjustment".into()
    }
}

/// A p-value in a table cell: four decimals, scientific when small.
pub fn p_cell(p: f64) -> String {
    if !p.is_finite() {
        "—".into()
    } else if p == 0.0 {
        "< 1e-300".into()
    } else if p < 1e-3 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// The table of paired rows, as rows of strings.
pub fn paired_rows(rows: &[Row], a: &str, b: &str) -> Vec<Vec<String>> {
    let mut out = vec![vec![
        "metric".to_string(),
        a.to_string(),
        b.to_string(),
        format!("{b} − {a}"),
        "95% interval".into(),
        "adjusted p".into(),
        "detectable at 80% power".into(),
        "verdict".into(),
    ]];
    for r in rows {
        out.push(vec![
            r.metric.name(),
            fmt(&r.metric, r.a.mean),
            fmt(&r.metric, r.b.mean),
            fmt_diff(&r.metric, r.diff.mean),
            format!("{} to {}", fmt_diff(&r.metric, r.diff.low), fmt_diff(&r.metric, r.diff.high)),
            p_cell(r.p_adj),
            detectable_cell(r),
            verdict(r),
        ]);
    }
    out
}

/// `±4.5 pts`; `±4.5 pts if reshuffled` when every paired difference is
/// the same (the paired figure would be ±0); `—` when no campaign's value
/// varies in either variant (nothing can be detected).
fn detectable_cell(r: &Row) -> String {
    if !(r.detectable > 0.0) {
        return "— (no campaign varies)".into();
    }
    let d = format!("±{}", fmt_diff(&r.metric, r.detectable).trim_start_matches('+'));
    if r.reshuffled { format!("{d} if reshuffled") } else { d }
}

/// The definition of each share among `metrics` ("share of gold from
/// mines: the mean over campaigns of ..."), one line each, for every page
/// that shows one; empty when none is shown.
pub fn definitions<'a>(metrics: impl IntoIterator<Item = &'a Metric>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for d in metrics.into_iter().filter_map(Metric::definition) {
        if !seen.contains(&d) {
            seen.push(d);
        }
    }
    seen.iter().map(|d| format!("{d}\n")).collect()
}

/// What "if reshuffled" means, when a row of `rows` says it.
pub fn reshuffled_note(rows: &[Row]) -> String {
    if rows.iter().any(|r| r.reshuffled) {
        "\"if reshuffled\": every campaign gave B the same value as A (the change touched nothing these players do), \
         so the paired test cannot detect anything; the figure is what a change that reshuffled every campaign would \
         need, from A's and B's spreads\n"
            .into()
    } else {
        String::new()
    }
}

/// What the verdict columns mean, under a table of paired rows.
fn verdicts_note(line: &str) -> String {
    format!(
        "{line}; each interval is the unadjusted 95% one, \"adjusted p\" is the p-value after the adjustment, and \
         \"higher\"/\"lower\" appear only where it is at most {:.0}%{}\n",
        100.0 * crate::study::compare::ALPHA,
        if line.contains("Holm") {
            "; \"detectable\" is the smallest true difference found with 80% power at the level of Holm's first step"
        } else if line.contains("Benjamini") {
            "; \"detectable\" is the smallest true difference found with 80% power at the level of \
             Benjamini–Hochberg's strictest step (5% over the number of tests)"
        } else {
            ""
        }
    )
}

/// `23.2% [21.5, 25.2]`: wins of `n` campaigns with the Wilson 95% interval.
fn win_rate(wins: u64, n: u64) -> String {
    let (lo, hi) = crate::stats::wilson(wins as f64, n as f64, 0.95);
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * wins as f64 / n as f64, 100.0 * lo, 100.0 * hi)
}

/// A square table of shares (row against column) as aligned text: whole
/// percents, `-` where there is no value (the diagonal).
pub fn share_matrix(names: &[String], grid: &[Vec<f64>]) -> String {
    let mut rows = vec![std::iter::once(String::new()).chain(names.iter().cloned()).collect::<Vec<_>>()];
    for (n, r) in names.iter().zip(grid) {
        rows.push(
            std::iter::once(n.clone())
                .chain(r.iter().map(|v| if v.is_finite() { format!("{:.0}%", 100.0 * v) } else { "-".into() }))
                .collect(),
        );
    }
    text_table(&rows)
}

/// Rows as aligned text.
pub fn text_table(rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..rows.first().map_or(0, |r| r.len()))
        .map(|j| rows.iter().map(|r| r.get(j).map_or(0, |c| c.chars().count())).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let _ = write!(out, " ");
        for (j, c) in r.iter().enumerate() {
            let pad = widths[j] - c.chars().count();
            if j == 0 {
                let _ = write!(out, " {c}{}", " ".repeat(pad));
            } else {
                let _ = write!(out, "  {}{c}", " ".repeat(pad));
            }
        }
        out.push('\n');
    }
    out
}

fn diff_bars(rows: &[Row], pick: impl Fn(&Metric) -> bool) -> Vec<Bar> {
    rows.iter()
        .filter(|r| pick(&r.metric))
        .map(|r| Bar {
            label: r.metric.name().replace("win rate: ", ""),
            value: r.diff.mean,
            low: r.diff.low,
            high: r.diff.high,
        })
        .collect()
}

/// What `compare --best-response` tuned, before the comparison's table.
pub fn best_response_text(br: &BestResponse) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "best response: every seat plays {} re-tuned in self-play under its variant's rules (every numeric key, \
         {} generations, {} campaigns a candidate, step 0.1 of each range; {} and {} campaigns of search on master \
         seed {}, never the comparison's); {}",
        br.start,
        br.budget.generations,
        br.budget.per_eval,
        br.tuning_campaigns.0,
        br.tuning_campaigns.1,
        br.tuning_seed,
        br.budget.family.words()
    );
    for (variant, c) in ["A", "B"].iter().zip(&br.competence) {
        match c {
            Some(c) => {
                let _ = writeln!(out, "  {variant}: {}", c.line());
            }
            None => {
                let _ = writeln!(out, "  {variant}: players not checked (--probe-campaigns 0)");
            }
        }
    }
    let moved = br.moved(6);
    if moved.is_empty() {
        let _ = writeln!(out, "  the two searches found the same player");
    } else {
        let keys: Vec<String> = moved.iter().map(|(k, a, b)| format!("{k} {a:.3} (A) / {b:.3} (B)")).collect();
        let _ = writeln!(out, "  keys that differ most between the variants' players: {}", keys.join(", "));
    }
    out
}

pub fn compare_text(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "compare: A = {}, B = {}; {} campaigns each on master seed {} (the same seeds: paired differences){}\n",
        c.a_name,
        c.b_name,
        c.campaigns,
        c.seed,
        if c.rotate_seats { ", seats rotated" } else { "" }
    );
    out.push_str(&text_table(&paired_rows(&c.rows, "A", "B")));
    out.push_str(&verdicts_note(&c.verdicts_line()));
    out.push_str(&reshuffled_note(&c.rows));
    out.push_str(&definitions(c.rows.iter().map(|r| &r.metric)));
    out
}

/// `best`: what `--best-response` tuned (`best_response_text`), shown
/// under the opening paragraph so the page says which players it rests on.
pub fn compare_page(c: &Comparison, dir: &Path, best: Option<&str>) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires compare: {} against {}", c.b_name, c.a_name));
    page.answer(&super::verdict::compare_answer(c));
    page.p(&format!(
        "A = {}, B = {}. Both played {} campaigns on master seed {}: campaign i of A and of B share their seeds, map and \
         dice stream, so each difference is taken campaign by campaign (95% normal interval). Where the interval holds 0, \
         the page says there is no detectable difference at this number of campaigns. {}",
        c.a_name,
        c.b_name,
        c.campaigns,
        c.seed,
        verdicts_note(&c.verdicts_line())
    ));
    if let Some(b) = best {
        page.pre(b);
    }
    page.h2("Win rates: B − A");
    page.chart(
        dir,
        "win-rate-diff",
        &Chart::Bars {
            title: "Win rate difference, B − A (95% interval)".into(),
            y_label: "difference (pts)".into(),
            bars: diff_bars(&c.rows, |m| matches!(m, Metric::WinStrategy(_) | Metric::WinSeat(_))),
            reference: Some(0.0),
        },
        "Paired difference of each strategy's and seat's win rate.",
    )?;
    page.h2("Every metric");
    page.table(&paired_rows(&c.rows, &c.a_name, &c.b_name));
    for note in [reshuffled_note(&c.rows), definitions(c.rows.iter().map(|r| &r.metric))] {
        if !note.is_empty() {
            page.p(&note);
        }
    }
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}

fn mean_cell(m: &Metric, v: &Mean) -> String {
    format!("{} ({} to {})", fmt(m, v.mean), fmt(m, v.low), fmt(m, v.high))
}

pub fn sweep_rows(s: &Sweep) -> Vec<Vec<String>> {
    let mut head: Vec<String> = s.axes.iter().map(|a| a.key.clone()).collect();
    head.extend(s.metrics.iter().map(|m| m.name()));
    let mut rows = vec![head];
    for c in &s.cells {
        let mut r = c.at.clone();
        r.extend(s.metrics.iter().zip(&c.values).map(|(m, v)| mean_cell(m, v)));
        rows.push(r);
    }
    rows
}

pub fn sweep_text(s: &Sweep) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "sweep over {}: {} campaigns per cell on master seed {} (the same seeds in every cell); mean (95% interval)\n",
        s.axes.iter().map(|a| a.key.as_str()).collect::<Vec<_>>().join(" × "),
        s.campaigns,
        s.seed
    );
    // The chosen metrics only, to keep the text narrow; the page has every metric.
    let keep = &s.chosen;
    let mut rows = Vec::new();
    for (i, r) in sweep_rows(s).into_iter().enumerate() {
        let _ = i;
        let mut row: Vec<String> = r[..s.axes.len()].to_vec();
        row.extend(keep.iter().map(|&j| r[s.axes.len() + j].clone()));
        rows.push(row);
    }
    out.push_str(&text_table(&rows));
    if s.cells.len() > 1 {
        let _ = writeln!(out, "\nagainst the first cell ({}), paired campaign by campaign:", cell_name(s, 0));
        out.push_str(&text_table(&against_rows(s, keep)));
        out.push_str(&verdicts_note(&s.verdicts_line()));
    }
    out.push_str(&definitions(keep.iter().map(|&j| &s.metrics[j])));
    out
}

/// `costs.capture=2, costs.pillage=1`: a cell by its values.
pub fn cell_name(s: &Sweep, i: usize) -> String {
    s.axes.iter().zip(&s.cells[i].at).map(|(a, v)| format!("{}={v}", a.key)).collect::<Vec<_>>().join(", ")
}

/// Every cell but the first against the first, for the metrics `keep`
/// (indices into `s.metrics`): header first.
pub fn against_rows(s: &Sweep, keep: &[usize]) -> Vec<Vec<String>> {
    let mut out = vec![
        ["cell", "metric", "difference", "95% interval", "adjusted p", "detectable at 80% power", "verdict"]
            .map(String::from)
            .to_vec(),
    ];
    for (i, c) in s.cells.iter().enumerate().skip(1) {
        for r in c.against.iter().filter(|r| keep.iter().any(|&j| s.metrics[j] == r.metric)) {
            out.push(vec![
                cell_name(s, i),
                r.metric.name(),
                fmt_diff(&r.metric, r.diff.mean),
                format!("{} to {}", fmt_diff(&r.metric, r.diff.low), fmt_diff(&r.metric, r.diff.high)),
                p_cell(r.p_adj),
                detectable_cell(r),
                verdict(r),
            ]);
        }
    }
    out
}

/// `best`: what `--best-response` tuned, as for `compare_page`.
pub fn sweep_page(s: &Sweep, dir: &Path, best: Option<&str>) -> Result<Vec<String>, Error> {
    let keys: Vec<&str> = s.axes.iter().map(|a| a.key.as_str()).collect();
    let mut page = Page::new(&format!("empires sweep: {}", keys.join(" × ")));
    page.answer(&super::verdict::sweep_answer(s));
    page.p(&format!(
        "Each cell played {} campaigns on master seed {}: the same seeds in every cell. Means with 95% intervals \
         (Wilson for win rates).",
        s.campaigns, s.seed
    ));
    if let Some(b) = best {
        page.pre(b);
    }
    let wins = &s.chosen;
    let rates = wins.iter().all(|&j| s.metrics[j].is_rate());
    if s.axes.len() == 1 {
        // A line with its interval band per strategy; x is the value's
        // position unless every value is a number.
        let a = &s.axes[0];
        let numbers = a.values.iter().map(|v| v.parse::<f64>()).collect::<Result<Vec<_>, _>>().ok();
        let xs: Vec<f64> = numbers.clone().unwrap_or_else(|| (0..a.values.len()).map(|i| i as f64).collect());
        let series = wins
            .iter()
            .map(|&j| Series {
                name: s.metrics[j].name(),
                points: s.cells.iter().zip(&xs).map(|(c, &x)| (x, c.values[j].mean)).collect(),
                band: Some(s.cells.iter().zip(&xs).map(|(c, &x)| (x, c.values[j].low, c.values[j].high)).collect()),
            })
            .collect();
        page.h2("The chosen metrics by value");
        page.chart(
            dir,
            "sweep-line",
            &if numbers.is_some() {
                Chart::Lines {
                    title: format!("Against {} (95% band)", a.key),
                    x_label: a.key.clone(),
                    y_label: if rates { "rate (%)".into() } else { "value".into() },
                    series,
                }
            } else {
                Chart::Categories {
                    title: format!("At each value of {} (95% intervals)", a.key),
                    x_label: a.key.clone(),
                    y_label: if rates { "rate (%)".into() } else { "value".into() },
                    categories: a.values.clone(),
                    series,
                }
            },
            &format!("Values: {}", a.values.join(", ")),
        )?;
    } else {
        page.h2("The chosen metrics over the grid");
        for (n, &j) in wins.iter().enumerate() {
            let (a, b) = (&s.axes[0], &s.axes[1]);
            // One grid, row by row of the second key: each cell's value, and
            // its 95% interval printed under it, as the table gives it.
            let rate = s.metrics[j].is_rate();
            let grid = |f: &dyn Fn(Option<&crate::study::sweep::Cell>) -> (f64, String)| -> Vec<Vec<(f64, String)>> {
                b.values
                    .iter()
                    .map(|vb| {
                        a.values.iter().map(|va| f(s.cells.iter().find(|c| &c.at[0] == va && &c.at[1] == vb))).collect()
                    })
                    .collect()
            };
            let cells = grid(&|c| match c {
                None => (f64::NAN, String::new()),
                Some(c) => {
                    let m = &c.values[j];
                    let ci = if rate {
                        format!("{:.0}–{:.0}", 100.0 * m.low + 0.0, 100.0 * m.high + 0.0)
                    } else {
                        format!("{:.2}–{:.2}", m.low + 0.0, m.high + 0.0)
                    };
                    (m.mean, ci)
                }
            });
            let rows = cells.iter().map(|r| r.iter().map(|c| c.0).collect()).collect();
            let intervals = cells.iter().map(|r| r.iter().map(|c| c.1.clone()).collect()).collect();
            page.chart(
                dir,
                &format!("sweep-heatmap-{n}"),
                &Chart::Heatmap {
                    title: if s.metrics[j].is_rate() {
                        format!("{}, %", s.metrics[j].name())
                    } else {
                        s.metrics[j].name()
                    },
                    x_label: a.key.clone(),
                    y_label: b.key.clone(),
                    xs: a.values.clone(),
                    ys: b.values.clone(),
                    rows,
                    percent: s.metrics[j].is_rate(),
                    intervals,
                    sides: None,
                },
                &format!("{} for each pair of values, with its 95% interval under it.", s.metrics[j].name()),
            )?;
        }
    }
    page.h2("Every metric");
    page.table(&sweep_rows(s));
    let defined = definitions(&s.metrics);
    if !defined.is_empty() {
        page.p(&defined);
    }
    if s.cells.len() > 1 {
        page.h2("Every metric against the first cell");
        page.p(&verdicts_note(&s.verdicts_line()));
        page.table(&against_rows(s, &(0..s.metrics.len()).collect::<Vec<_>>()));
    }
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}

/// The exact part as rows: expected gold per EP by paydays left.
pub fn exact_rows(e: &Experiment) -> Vec<Vec<String>> {
    let x = &e.exact;
    let mut head = vec!["paydays left".to_string(), "pillage".to_string()];
    for site in &x.sites {
        for q in LOSS_CHANCES {
            head.push(format!("{} mine, loss {:.0}%", site.terrain, 100.0 * q));
        }
    }
    let mut rows = vec![head];
    for t in 0..=x.seasons {
        let mut r = vec![t.to_string(), format!("{:.1}", x.pillage)];
        for site in &x.sites {
            for q in LOSS_CHANCES {
                // + 0.0: a zero that came out negative prints as 0.0.
                r.push(format!("{:.1}", mine_gold(site.mean_yield, t, q) + 0.0));
            }
        }
        rows.push(r);
    }
    rows
}

/// The break-even as rows: paydays needed, and the last season to build.
pub fn break_even_rows(e: &Experiment) -> Vec<Vec<String>> {
    let x = &e.exact;
    let mut rows = vec![
        ["mine", "loss a season", "paydays to match a pillage", "a mine beats a pillage when built in season"]
            .map(String::from)
            .to_vec(),
    ];
    // The assumed chances, then the measured one and its interval's ends.
    let mut chances: Vec<(String, f64)> = LOSS_CHANCES.iter().map(|&q| (format!("{:.0}%", 100.0 * q), q)).collect();
    if let Some(l) = &e.loss {
        let (lo, hi) = l.interval();
        use super::verdict::pct;
        chances.push((format!("{} (measured, {})", pct(l.rate()), l.players), l.rate()));
        chances.push((format!("{} (its 95% low)", pct(lo)), lo));
        chances.push((format!("{} (its 95% high)", pct(hi)), hi));
    }
    for site in &x.sites {
        for (label, q) in &chances {
            let t = break_even(site.mean_yield, x.pillage, *q, 1000);
            rows.push(vec![
                format!("{} ({:.0} a payday)", site.terrain, site.mean_yield),
                label.clone(),
                t.map_or("never".into(), |t| t.to_string()),
                beats_cell(x, site.mean_yield, *q),
            ]);
        }
    }
    rows
}

/// The measured loss rate in words.
pub fn loss_line(e: &Experiment) -> Option<String> {
    let l = e.loss.as_ref()?;
    let (lo, hi) = l.interval();
    Some(format!(
        "measured: a hex a mine may stand on, held at a season's end, has another holder a season later in {} \
         [{}, {}] of seasons ({} lost of {} hex-seasons; {} campaigns, every seat {})",
        super::verdict::pct(l.rate()),
        super::verdict::pct(lo),
        super::verdict::pct(hi),
        l.lost,
        l.held,
        l.campaigns,
        l.players
    ))
}

/// Observed gold shares per strategy, as rows.
/// What the observed shares are: unlike the share metrics, pooled.
const POOLED: &str = "each strategy's gold from each source over all its gold in every campaign, pooled (not a mean of \
                      per-campaign shares)";

pub fn share_rows(e: &Experiment) -> Vec<Vec<String>> {
    let mut rows = vec![["strategy", "from mines", "from pillage", "from loot"].map(String::from).to_vec()];
    for (s, g) in &e.baseline.gold_by_strategy {
        let all = (g[0] + g[1] + g[2]).max(1.0);
        rows.push(vec![
            s.clone(),
            format!("{:.1}%", 100.0 * g[0] / all),
            format!("{:.1}%", 100.0 * g[1] / all),
            format!("{:.1}%", 100.0 * g[2] / all),
        ]);
    }
    rows
}

fn seats_word(rotate: bool) -> &'static str {
    if rotate { "seats rotated" } else { "seats fixed" }
}

pub fn experiment_text(e: &Experiment) -> String {
    let x = &e.exact;
    let mut out = String::new();
    // The players' competence line is not repeated here: the answer line
    // printed just above this text ends with it (`verdict::mine_answer`).
    let _ = writeln!(out, "mine against pillage: both cost 1 EP (E-09, E-15)");
    out.push('\n');
    let _ = writeln!(out, "1. Exact: expected gold per EP (a pillage pays its mean {:.1} once)", x.pillage);
    if let Some(l) = loss_line(e) {
        let _ = writeln!(out, "  {l}");
    }
    out.push_str(&text_table(&break_even_rows(e)));
    let _ = writeln!(
        out,
        "\n2. Simulated: restricted play on {} campaigns (master seed {}, {}), paired against the baseline",
        e.campaigns,
        e.seed,
        seats_word(e.rotate_seats)
    );
    let mut shown = Vec::new();
    for v in &e.variants {
        let _ = writeln!(out, "  {} ({}):", v.name, v.flags.join(" "));
        let rows: Vec<Row> = v
            .rows
            .iter()
            .filter(|r| matches!(r.metric, Metric::WinStrategy(_) | Metric::MeanSize | Metric::Gold(_)))
            .cloned()
            .collect();
        out.push_str(&text_table(&paired_rows(&rows, "baseline", v.name)));
        shown.extend(rows);
    }
    out.push_str(&verdicts_note(&format!("  {}", e.verdicts)));
    out.push_str(&reshuffled_note(&shown));
    if !e.solo.is_empty() {
        let _ = writeln!(out, "\n{}", solo_title(e));
        out.push_str(&text_table(&solo_rows(e)));
    }
    for b in &e.best {
        let _ = writeln!(out, "\n{}", restrict_text(b).trim_end());
    }
    let _ = writeln!(out, "\n3. Observed: where the baseline's gold came from ({POOLED})");
    out.push_str(&text_table(&share_rows(e)));
    if let Some(r) = &e.readings {
        let _ = writeln!(out);
        out.push_str(&readings_text(x, r));
    }
    out
}

/// The last season in which a mine on `site` still pays more than a
/// pillage (strictly: a tie does not beat), with a loss chance `q` a
/// season (`None`: never).
fn last_season(x: &Exact, y: f64, q: f64) -> Option<u32> {
    let classes = mine_pillage::against_pillage(y, x.pillage, q, x.seasons);
    classes.iter().rposition(|c| c.is_gt()).map(|i| i as u32 + 1)
}

/// "1 to 10, ties in 11 (of 12)": the seasons a mine built then beats a
/// pillage, and those where it ties.
fn beats_cell(x: &Exact, y: f64, q: f64) -> String {
    use std::cmp::Ordering::{Equal, Greater};
    let classes = mine_pillage::against_pillage(y, x.pillage, q, x.seasons);
    let beats = mine_pillage::seasons_where(&classes, Greater).unwrap_or_else(|| "never".into());
    let ties = mine_pillage::seasons_where(&classes, Equal).map_or(String::new(), |t| format!(", ties in {t}"));
    format!("{beats}{ties} (of {})", x.seasons)
}

/// `±1.2` points, or a percent, of a paired mean with its interval.
pub fn points(m: &Mean) -> String {
    format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * m.mean, 100.0 * m.low, 100.0 * m.high)
}

/// The verdict of the readings table's test: does building a mine first
/// cost the player wins?
pub fn reading_verdict(r: &crate::study::mine_pillage::ReadingRow) -> String {
    let d = &r.mines_first.diff;
    if r.p_holm < 0.05 && d.mean < 0.0 {
        "a mine costs wins".into()
    } else if r.p_holm < 0.05 {
        "a mine gains wins".into()
    } else {
        format!("no detectable cost (±{:.1} pts detectable)", 100.0 * crate::stats::min_detectable(d.sd, d.n))
    }
}

/// The readings table: one row per reading of the gap rules; header first.
pub fn readings_rows(x: &Exact, r: &Readings) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "reading".to_string(),
        "mines built a player".into(),
        "gold from mines".into(),
        "mine-able hex lost a season".into(),
        "mine beats a pillage if built in season".into(),
        "denied mines, pts".into(),
        "denied pillage, pts".into(),
        "mines first, pts".into(),
        "verdict on mines first (Holm)".into(),
    ]];
    for row in &r.rows {
        let o = &row.observed;
        let (lo, hi) = o.loss.interval();
        let seasons: Vec<String> = x
            .sites
            .iter()
            .map(|site| {
                let at = |q: f64| last_season(x, site.mean_yield, q).map_or("never".to_string(), |s| format!("1-{s}"));
                let (mid, a, b) = (at(o.loss.rate()), at(lo), at(hi));
                if a == b { format!("{} {mid}", site.terrain) } else { format!("{} {mid} [{b}, {a}]", site.terrain) }
            })
            .collect();
        rows.push(vec![
            row.reading.name.to_string(),
            format!("{:.2} [{:.2}, {:.2}]", o.mines.mean, o.mines.low, o.mines.high),
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                100.0 * o.mine_share.mean,
                100.0 * o.mine_share.low,
                100.0 * o.mine_share.high
            ),
            {
                use super::verdict::pct;
                format!("{} [{}, {}]", pct(o.loss.rate()), pct(lo), pct(hi))
            },
            format!("{} (of {})", seasons.join(", "), x.seasons),
            points(&row.no_mines.diff),
            points(&row.no_pillage.diff),
            points(&row.mines_first.diff),
            reading_verdict(row),
        ]);
    }
    rows
}

/// What the readings table says, in words, with its keys: its title, the
/// table, then its notes (the page shows the table as HTML between them).
pub fn readings_text(x: &Exact, r: &Readings) -> String {
    let mut out = readings_title(r);
    out.push('\n');
    out.push_str(&text_table(&readings_rows(x, r)));
    out.push_str(&readings_notes(r));
    out
}

/// The readings table's title line.
fn readings_title(r: &Readings) -> String {
    format!(
        "4. What the answer rests on: the gap readings G-03, G-11 and G-13, every seat {} ({} campaigns a row and a \
         column, master seed {}, the same seeds in every row; 95% intervals)",
        r.players, r.campaigns, r.seed
    )
}

/// What the readings table's columns mean, and each reading's keys.
fn readings_notes(r: &Readings) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  denied mines / denied pillage / mines first: one {p} so restricted (never a mine, never a pillage, a mine \
         first whenever it can) against {p} copies, minus the unrestricted {p} in the same seat, campaign by \
         campaign (win rate points; seats always rotated here, whatever --fixed-seats says, since the restricted \
         player must sit in every seat). Below 0 the option (or the forced mine) costs wins. The \
         verdict tests mines first against 0 with Holm's correction over the {n} rows (family-wise error 5%); \
         no detectable cost gives the smallest cost these campaigns detect at 80% power. \"mine beats a \
         pillage\": the exact break-even at the measured loss rate [at its 95% ends].",
        p = r.players,
        n = r.rows.len()
    );
    for row in &r.rows {
        let _ = writeln!(out, "  {}: {}", row.reading.name, row.reading.flags());
    }
    out
}

fn solo_title(e: &Experiment) -> String {
    let s = &e.solo[0];
    format!(
        "One {} restricted against unrestricted {} in every other seat ({} campaigns, master seed {}, seats rotated); \
         the difference is paired campaign by campaign with the unrestricted {} in the same seat",
        s.strategy, s.strategy, s.campaigns, e.seed, s.strategy
    )
}

/// The one-player restrictions: header first.
pub fn solo_rows(e: &Experiment) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "restriction".to_string(),
        "restricted player wins".into(),
        "unrestricted, same seat".into(),
        "difference".into(),
        "95% interval".into(),
        "players".into(),
    ]];
    for s in &e.solo {
        let rate = |w: u64| win_rate(w, s.campaigns);
        let verdict = e
            .competence
            .iter()
            .find(|c| c.strategy == s.strategy)
            .map_or("not checked", |c| c.verdict_on(mine_pillage::TOPICS).words());
        rows.push(vec![
            s.name.to_string(),
            rate(s.wins),
            rate(s.base_wins),
            format!("{:+.1} points", 100.0 * s.diff.mean),
            format!("[{:+.1}, {:+.1}]", 100.0 * s.diff.low, 100.0 * s.diff.high),
            verdict.to_string(),
        ]);
    }
    rows
}

pub fn experiment_page(e: &Experiment, dir: &Path) -> Result<Vec<String>, Error> {
    let x = &e.exact;
    let mut page = Page::new("empires experiment: mine against pillage");
    page.answer(&super::verdict::mine_answer(e));
    page.p("Both cost 1 empire point. Which wins campaigns, and from which season on?");
    page.h2("Exact: expected gold per EP");
    page.p(&format!(
        "A pillage pays its mean ({:.1} gold) once. A mine pays its terrain's mean at every payday while the hex is \
         held: built in season s of {}, it sees {} − s paydays. With a chance q a season of losing the hex first, \
         its expected gold is y·Σ(1−q)^k.",
        x.pillage, x.seasons, x.seasons
    ));
    let mut series = Vec::new();
    for site in &x.sites {
        for q in [0.0, 0.2] {
            series.push(Series {
                name: format!("{} mine, loss {:.0}%", site.terrain, 100.0 * q),
                points: (0..=x.seasons).map(|t| (t as f64, mine_gold(site.mean_yield, t, q))).collect(),
                band: None,
            });
        }
    }
    series.push(Series {
        name: "pillage".into(),
        points: (0..=x.seasons).map(|t| (t as f64, x.pillage)).collect(),
        band: None,
    });
    page.chart(
        dir,
        "exact-gold",
        &Chart::Lines {
            title: "Expected gold per EP by paydays left".into(),
            x_label: "paydays left after building".into(),
            y_label: "gold".into(),
            series,
        },
        "Where a mine's line crosses the pillage line is its break-even.",
    )?;
    if let Some(l) = loss_line(e) {
        page.p(&l);
    }
    page.table(&break_even_rows(e));
    page.table(&exact_rows(e));

    page.h2("Simulated: restricted play on the same seeds");
    page.p(&format!(
        "{} campaigns per variant, master seed {}, {}. Each variant restricts every strategy of the \
         scenario the same way; differences are paired campaign by campaign against the baseline, with 95% intervals. {}",
        e.campaigns,
        e.seed,
        seats_word(e.rotate_seats),
        verdicts_note(&e.verdicts)
    ));
    for (i, v) in e.variants.iter().enumerate() {
        page.chart(
            dir,
            &format!("variant-{i}"),
            &Chart::Bars {
                title: format!("{}: win rate difference against the baseline", v.name),
                y_label: "difference (pts)".into(),
                bars: diff_bars(&v.rows, |m| matches!(m, Metric::WinStrategy(_))),
                reference: Some(0.0),
            },
            &format!("{} ({})", v.name, v.flags.join(" ")),
        )?;
        page.table(&paired_rows(&v.rows, "baseline", v.name));
    }
    let defined = definitions(e.variants.iter().flat_map(|v| v.rows.iter().map(|r| &r.metric)));
    if !defined.is_empty() {
        page.p(&defined);
    }

    if !e.solo.is_empty() {
        page.h2("One player restricted");
        page.p(&solo_title(e));
        page.chart(
            dir,
            "solo",
            &Chart::Bars {
                title: "The restricted player's win rate minus the unrestricted one's".into(),
                y_label: "difference (pts)".into(),
                bars: e
                    .solo
                    .iter()
                    .map(|s| Bar { label: s.name.to_string(), value: s.diff.mean, low: s.diff.low, high: s.diff.high })
                    .collect(),
                reference: Some(0.0),
            },
            "Paired campaign by campaign, with 95% intervals. Below 0: the restriction costs the player wins.",
        )?;
        page.table(&solo_rows(e));
    }

    if !e.best.is_empty() {
        page.h2("Under best response on both sides");
        for b in &e.best {
            page.pre(&restrict_text(b));
            page.table(&restrict_rows(b));
        }
    }

    if let Some(r) = &e.readings {
        page.h2("What the answer rests on: the gap readings");
        page.p(&readings_title(r));
        page.table(&readings_rows(x, r));
        page.pre(&readings_notes(r));
    }

    page.h2("Observed: where the gold came from");
    page.p(POOLED);
    page.table(&share_rows(e));
    let mut strategies: Vec<&String> = e.baseline.seasons.keys().map(|k| &k.0).collect();
    strategies.dedup();
    let mut series = Vec::new();
    for (k, src) in ["mines", "pillage", "loot"].iter().enumerate() {
        let mut per: std::collections::BTreeMap<u32, (f64, f64)> = std::collections::BTreeMap::new();
        for ((_, season), g) in &e.baseline.seasons {
            let v = [g.mines, g.pillage, g.loot][k];
            let e = per.entry(*season).or_default();
            e.0 += v * g.rows as f64;
            e.1 += g.rows as f64;
        }
        series.push(Series {
            name: format!("gold from {src}"),
            points: per.iter().map(|(s, (sum, n))| (*s as f64, sum / n.max(1.0))).collect(),
            band: None,
        });
    }
    page.chart(
        dir,
        "observed-gold",
        &Chart::Lines {
            title: "Gold earned so far by source (baseline, mean per player)".into(),
            x_label: "season".into(),
            y_label: "gold".into(),
            series,
        },
        "Cumulative gold by source over the seasons, all strategies.",
    )?;
    // Per strategy: the share of its gold so far that came from mines.
    let series = strategies
        .iter()
        .map(|st| Series {
            name: (*st).clone(),
            points: e
                .baseline
                .seasons
                .iter()
                .filter(|((s2, _), _)| s2 == *st)
                .map(|((_, season), g)| {
                    let all = g.mines + g.pillage + g.loot;
                    (*season as f64, if all > 0.0 { g.mines / all } else { 0.0 })
                })
                .collect(),
            band: None,
        })
        .collect();
    page.chart(
        dir,
        "observed-mine-share",
        &Chart::Lines {
            title: "Share of gold from mines so far, by strategy (baseline)".into(),
            x_label: "season".into(),
            y_label: "share (%)".into(),
            series,
        },
        "Gold from mines over gold from mines, pillage and loot, summed from the start, per strategy.",
    )?;
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}

/// The rows of a restricted-play study: one per strength level, then the
/// best response; header first.
pub fn restrict_rows(s: &crate::study::restrict::Study) -> Vec<Vec<String>> {
    let rate = win_rate;
    let mut rows = vec![vec![
        "players".to_string(),
        "restricted player wins".into(),
        "unrestricted player wins".into(),
        "restricted − unrestricted".into(),
        "95% interval".into(),
        "competence".into(),
    ]];
    for v in &s.levels {
        let verdict =
            s.competence.iter().find(|c| c.strategy == v.label).map_or("not checked", |c| c.verdict().words());
        rows.push(vec![
            format!("{} (fixed weights)", v.label),
            rate(v.wins, v.campaigns),
            rate(v.base_wins, v.campaigns),
            format!("{:+.1} points", 100.0 * v.diff.mean),
            format!("[{:+.1}, {:+.1}]", 100.0 * v.diff.low, 100.0 * v.diff.high),
            verdict.to_string(),
        ]);
    }
    if let Some(b) = &s.best {
        rows.push(vec![
            format!("best response against {}", s.players),
            rate(b.restricted_wins, b.campaigns),
            rate(b.unrestricted_wins, b.campaigns),
            format!("{:+.1} points", 100.0 * b.value.mean),
            format!("[{:+.1}, {:+.1}]", 100.0 * b.value.low, 100.0 * b.value.high),
            b.competence.as_ref().map_or("not checked", |c| c.verdict().words()).to_string(),
        ]);
    }
    rows
}

/// When the searches' spread cannot carry the search's variance: every
/// search returned the same figure (most likely the same player: the
/// budget did not move them apart), or they differ by no more than the
/// evaluation's noise (τ estimated 0). The interval then holds the
/// evaluation's variance only, and says nothing of another search's.
pub fn search_spread_warning(searches: &[f64], tau: f64) -> Option<String> {
    if searches.len() < 2 {
        return None;
    }
    if searches.iter().all(|&x| x == searches[0]) {
        Some(format!(
            "all {} searches returned the same figure ({:+.1}), most likely the same player: their spread measures \
             none of the search's variance, so the interval holds the evaluation's alone; more generations or other \
             search seeds would show whether another search finds another player",
            searches.len(),
            100.0 * searches[0]
        ))
    } else if tau == 0.0 {
        Some(format!(
            "the {} searches differ by no more than the evaluation's noise (τ estimated 0): the interval holds the \
             evaluation's variance alone",
            searches.len()
        ))
    } else {
        None
    }
}

pub fn restrict_text(s: &crate::study::restrict::Study) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "restricted play: {}; {} campaigns a row on master seed {}; one restricted player against unrestricted copies \
         in the other seats, seats rotated, paired campaign by campaign with an unrestricted player in the same seat",
        s.restriction.label(),
        s.campaigns,
        s.seed
    );
    if !s.competence.is_empty() {
        let _ = writeln!(out, "{}", super::probe::verdicts(&s.competence));
    }
    out.push_str(&text_table(&restrict_rows(s)));
    if let Some(b) = &s.best {
        let _ = writeln!(
            out,
            "\nbest response: a player tuned under the restriction and one tuned without it, each over every key \
             against {}, then both against {} on held-out campaigns (master seed {}); the pair of searches is \
             repeated with {} search seeds ({} tuning campaigns in all)",
            s.players,
            s.players,
            b.held_out,
            b.searches.len(),
            b.tuning_campaigns
        );
        let _ = writeln!(
            out,
            "  each search's figure: {}; the interval {} the search's own variance: total variance = \
             evaluation variance (± {:.1} points) + between-search variance (τ = {} points) / {} searches",
            b.searches.iter().map(|d| format!("{:+.1}", 100.0 * d)).collect::<Vec<_>>().join(", "),
            if search_spread_warning(&b.searches, b.search_sd).is_some() { "would carry" } else { "carries" },
            100.0 * b.eval_se,
            if b.search_sd.is_nan() {
                "not measured with one search".to_string()
            } else {
                format!("{:.1}", 100.0 * b.search_sd)
            },
            b.searches.len()
        );
        if let Some(w) = search_spread_warning(&b.searches, b.search_sd) {
            let _ = writeln!(out, "  WARNING: {w}");
        }
        let _ = writeln!(
            out,
            "  {}",
            b.competence.as_ref().map_or_else(
                || "players: the best response's competence was not checked (--probe-campaigns 0, or no probe on the kinds it restricts)".to_string(),
                |c| c.line()
            )
        );
        let _ = writeln!(
            out,
            "  the restriction costs a player who plays well {:+.1} points of win rate [{:+.1}, {:+.1}] (for a \
             forbidden action: what the option is worth; below 0, the restricted search found the stronger player, \
             which bounds the search's precision)",
            -100.0 * b.value.mean,
            -100.0 * b.value.high,
            -100.0 * b.value.low
        );
        match s.disagree() {
            Some(true) => {
                let _ = writeln!(
                    out,
                    "  the naive answer ({} with fixed weights) and the best response disagree: their intervals do \
                     not overlap",
                    s.players
                );
            }
            Some(false) => {
                let _ = writeln!(
                    out,
                    "  the naive answer ({} with fixed weights) agrees with the best response",
                    s.players
                );
            }
            None => {}
        }
    }
    out
}

/// The restrict page's answer: what the restriction costs at each level.
pub fn restrict_answer(s: &crate::study::restrict::Study) -> String {
    let pts = |m: &Mean| format!("{:+.1} pts ({:+.1} to {:+.1})", 100.0 * m.mean, 100.0 * m.low, 100.0 * m.high);
    let mut parts: Vec<String> = s.levels.iter().map(|v| format!("{} {}", v.label, pts(&v.diff))).collect();
    if let Some(b) = &s.best {
        let verdict = b.competence.as_ref().map_or("competence not checked", |c| c.verdict().words());
        parts.push(format!("best response (both sides tuned) {} [{verdict}]", pts(&b.value)));
    }
    let costly = s.levels.iter().filter(|v| v.diff.high < 0.0).count();
    let players =
        if s.competence.is_empty() { String::new() } else { format!(" {}.", super::probe::verdicts(&s.competence)) };
    format!(
        "A player with {} wins, against unrestricted players: {} ({} campaigns a level, master seed {}). Below 0 the \
         option is worth having; it is clearly worth having at {costly} of {} levels.{players}",
        s.restriction.label(),
        parts.join("; "),
        s.campaigns,
        s.seed,
        s.levels.len()
    )
}

pub fn restrict_page(s: &crate::study::restrict::Study, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires experiment restrict: {}", s.restriction.label()));
    page.answer(&restrict_answer(s));
    page.pre(text);
    let mut bars: Vec<Bar> = s
        .levels
        .iter()
        .map(|v| Bar { label: v.label.clone(), value: v.diff.mean, low: v.diff.low, high: v.diff.high })
        .collect();
    if let Some(b) = &s.best {
        bars.push(Bar { label: "best response".into(), value: b.value.mean, low: b.value.low, high: b.value.high });
    }
    page.chart(
        dir,
        "robustness",
        &Chart::Bars {
            title: format!("{}: restricted minus unrestricted win rate", s.restriction.label()),
            y_label: "difference (pts)".into(),
            bars,
            reference: Some(0.0),
        },
        if s.best.is_some() {
            "At each strength level with fixed weights, then with both sides tuned; 95% intervals. Below 0: the option is \
             worth having."
        } else {
            "At each strength level with fixed weights (--best-response adds both sides tuned); 95% intervals. Below 0: \
             the option is worth having."
        },
    )?;
    page.table(&restrict_rows(s));
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}
