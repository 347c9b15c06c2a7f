//! The text and page of `empires experiment mine-vs-pillage`: the exact
//! gold of a mine against a pillage, restricted play on the same seeds,
//! one player restricted, the gap readings the answer rests on, and where
//! the baseline's gold came from.

use super::metrics::definitions;
use super::paired::{columns_note, diff_bars, paired_rows, reshuffled_note, verdicts_note};
use super::restrict::{restrict_rows, restrict_text, restricted_row};
use crate::error::Error;
use crate::report::charts::{Bar, Chart, Series};
use crate::report::html::Page;
use crate::report::table::text_table;
use crate::stats::Mean;
use crate::study::compare::Row;
use crate::study::exercised;
use crate::study::metrics::Metric;
use crate::study::mine_pillage::{self, Exact, Experiment, LOSS_CHANCES, Readings, break_even, mine_gold};
use std::fmt::Write;
use std::path::Path;

mod question;
pub use question::{LEAD, answer};

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
    if e.loss.is_some() {
        chances.extend(measured_chances(e));
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

/// The loss chances the exact part is read at: the measured rate and its
/// interval's ends, or 0 (the hex never lost) when nothing was measured.
fn measured_chances(e: &Experiment) -> Vec<(String, f64)> {
    use crate::report::number::pct_small as pct;
    match &e.loss {
        Some(l) => {
            let (lo, hi) = l.interval();
            vec![
                (format!("{} (measured, {})", pct(l.rate()), l.players), l.rate()),
                (format!("{} (its 95% low)", pct(lo)), lo),
                (format!("{} (its 95% high)", pct(hi)), hi),
            ]
        }
        None => vec![("0% (never lost; nothing measured)".into(), 0.0)],
    }
}

/// `--payback N`, solved: for each mine, the mean yield a payday at which
/// it first matches a pillage at its Nth payday, at each measured chance,
/// and over the whole interval, with a dice expression that gives it;
/// header first. `None` without `--payback`.
pub fn payback_rows(e: &Experiment) -> Option<Vec<Vec<String>>> {
    let n = e.payback?;
    let x = &e.exact;
    let mut rows = vec![
        [
            "mine (now)".to_string(),
            "loss a season".to_string(),
            format!("mean yield a payday that first matches a pillage at payday {n}"),
            "a yield that does it".to_string(),
        ]
        .to_vec(),
    ];
    let chances = measured_chances(e);
    for site in &x.sites {
        let name = format!("{} ({}, mean {:.0})", site.terrain, site.dice, site.mean_yield);
        for (label, q) in &chances {
            let range = mine_pillage::yield_for_payback(x.pillage, n, *q);
            rows.push(vec![name.clone(), label.clone(), range_words(range), dice_cell(site, range)]);
        }
        if chances.len() > 1 {
            let (words, dice) = whole_interval(e, site, n);
            rows.push(vec![name, "over the whole interval".into(), words, dice]);
        }
    }
    Some(rows)
}

/// `23.3 to under 35.0`, or `70.0 or more` for one payday.
fn range_words((lo, hi): (f64, f64)) -> String {
    if hi.is_finite() { format!("{lo:.1} to under {hi:.1}") } else { format!("{lo:.1} or more") }
}

/// The yields that pay back at payday `n` at every measured chance at
/// once (the ranges' overlap), in words, with a dice expression for them.
fn whole_interval(e: &Experiment, site: &mine_pillage::MineSite, n: u32) -> (String, String) {
    let both = measured_chances(e).iter().fold((f64::NEG_INFINITY, f64::INFINITY), |(lo, hi), (_, q)| {
        let (l, h) = mine_pillage::yield_for_payback(e.exact.pillage, n, *q);
        (lo.max(l), hi.min(h))
    });
    if both.0 < both.1 {
        (range_words(both), dice_cell(site, both))
    } else {
        ("none: the interval's ends disagree".into(), "—".into())
    }
}

/// `economy.mine.river = 2D6x5 (mean 35)`, or why there is none.
fn dice_cell(site: &mine_pillage::MineSite, (lo, hi): (f64, f64)) -> String {
    match mine_pillage::dice_for_yield(&site.dice, lo, hi) {
        Some(d) => format!("e.g. economy.mine.{} = {d}, mean {:.1}", site.terrain, d.mean()),
        None => format!("no multiplier of {} lands in it", site.dice),
    }
}

/// The answer's clause for `--payback N`: each mine's yield over the
/// whole interval of the loss rate, with a dice expression that gives it.
pub fn payback_clause(e: &Experiment) -> Option<String> {
    let n = e.payback?;
    let parts: Vec<String> = e
        .exact
        .sites
        .iter()
        .map(|s| {
            let (words, dice) = whole_interval(e, s, n);
            format!("a {} mine needs a mean yield of {words} a payday ({dice})", s.terrain)
        })
        .collect();
    let at = if e.loss.is_some() { "over the measured loss rate's 95% interval" } else { "if the hex is never lost" };
    Some(format!("To first match a pillage only at its payday {n} (exact, {at}): {}", parts.join("; ")))
}

/// The measured loss rate in words.
pub fn loss_line(e: &Experiment) -> Option<String> {
    let l = e.loss.as_ref()?;
    let (lo, hi) = l.interval();
    // One measurement for both parts where they play the same players on
    // the same seeds: say so, so the two figures are not read as two.
    let shared = e.readings.as_ref().and_then(|r| r.rows.first()).is_some_and(|row| row.observed.loss == *l);
    Some(format!(
        "measured: a hex a mine may stand on, held at a season's end, has another holder a season later in {} \
         [{}, {}] of seasons ({} lost of {} hex-seasons; {} campaigns, every seat {}, master seed {}{}; the interval \
         counts campaigns, not hex-seasons, as the independent draws: design effect {:.1})",
        crate::report::number::pct_small(l.rate()),
        crate::report::number::pct_small(lo),
        crate::report::number::pct_small(hi),
        l.lost,
        l.held,
        l.campaigns,
        l.players,
        e.seed,
        if shared { ", the same campaigns as part 4's shipped row" } else { "" },
        l.design_effect()
    ))
}

/// What the observed shares are: unlike the share metrics, pooled.
const POOLED: &str = "each strategy's gold from each source over all its gold in every campaign, pooled (not a mean of \
                      per-campaign shares), with its 95% interval, the campaign as the unit (a ratio estimator's \
                      cluster-robust standard error)";

/// Observed gold shares per strategy, each with its 95% interval, as rows.
pub fn share_rows(e: &Experiment) -> Vec<Vec<String>> {
    let mut rows =
        vec![["strategy", "campaigns", "from mines", "from pillage", "from loot"].map(String::from).to_vec()];
    for (s, per) in &e.baseline.gold_by_campaign {
        let mut row = vec![s.clone(), per.len().to_string()];
        row.extend((0..3).map(|k| share_cell(&e.baseline.gold_share(s, k))));
        rows.push(row);
    }
    rows
}

/// `80.0% [78.9%, 81.1%]`; `—` for a strategy that earned no gold.
fn share_cell(m: &Mean) -> String {
    if !m.mean.is_finite() {
        return "—".into();
    }
    use crate::report::number::pct;
    format!("{} {}", pct(m.mean), super::metrics::interval(&pct(m.low.max(0.0)), &pct(m.high.min(1.0))))
}

fn seats_word(rotate: bool) -> &'static str {
    if rotate { "seats rotated" } else { "seats fixed" }
}

pub fn experiment_text(e: &Experiment) -> String {
    let x = &e.exact;
    let mut out = String::new();
    // The players' competence line is not repeated here: the answer line
    // printed just above this text ends with it (`question::answer`).
    let _ = writeln!(out, "mine against pillage: both cost 1 EP (E-09, E-15)");
    out.push('\n');
    let _ = writeln!(out, "1. Exact: expected gold per EP (a pillage pays its mean {:.1} once)", x.pillage);
    if let Some(l) = loss_line(e) {
        let _ = writeln!(out, "  {l}");
    }
    out.push_str(&text_table(&break_even_rows(e)));
    if let Some(rows) = payback_rows(e) {
        let _ = writeln!(
            out,
            "\n  --payback {}: the yield that makes a mine first match a pillage at that payday (exact)",
            e.payback.unwrap_or(0)
        );
        out.push_str(&text_table(&rows));
    }
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
    out.push_str(&format!("  {}", columns_note(&shown, true)));
    out.push_str(&verdicts_note(&format!("  {}", e.verdicts)));
    if let Some(l) = exercised::line(&e.baseline.coverage, e.campaigns) {
        let _ = writeln!(out, "  {l}.");
    }
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
    if let Some(w) = &e.worth {
        let _ = writeln!(out, "\n5. What a resource is worth to the strongest player (experiment worth)");
        out.push_str(&crate::report::worth::text(w));
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
/// `tests`: the rows of the Holm family the row's test belongs to, whose
/// first step sets the level its power is stated at.
pub fn reading_verdict(r: &crate::study::mine_pillage::ReadingRow, tests: usize) -> String {
    let d = &r.mines_first.diff;
    if r.p_holm < 0.05 && d.mean < 0.0 {
        "a mine costs wins".into()
    } else if r.p_holm < 0.05 {
        "a mine gains wins".into()
    } else {
        let se = d.sd / (d.n.max(1) as f64).sqrt();
        format!(
            "no detectable cost (±{:.1} pts detectable at 80% power, Holm's level)",
            100.0 * crate::stats::detectable_at(se, 0.05 / tests.max(1) as f64)
        )
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
                use crate::report::number::pct_small as pct;
                format!("{} [{}, {}]", pct(o.loss.rate()), pct(lo), pct(hi))
            },
            format!("{} (of {})", seasons.join(", "), x.seasons),
            points(&row.no_mines.diff),
            points(&row.no_pillage.diff),
            points(&row.mines_first.diff),
            reading_verdict(row, r.rows.len()),
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
         no detectable cost gives the smallest cost these campaigns detect at 80% power at the level Holm's first step gives one row (5% over the rows). \"mine beats a \
         pillage\": the exact break-even at the measured loss rate [at its 95% ends].",
        p = r.players,
        n = r.rows.len()
    );
    for row in &r.rows {
        let _ = writeln!(out, "  {}: {}", row.reading.name, row.reading.flags());
    }
    for row in &r.rows {
        if let Some(l) = exercised::line(&row.observed.coverage, r.campaigns) {
            let _ = writeln!(out, "  {}: {l}.", row.reading.name);
        }
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
        let verdict = e
            .competence
            .iter()
            .find(|c| c.strategy == s.strategy)
            .map_or("not checked", |c| c.verdict_on(mine_pillage::TOPICS).words());
        rows.push(restricted_row(s.name.to_string(), (s.wins, s.base_wins, s.campaigns), &s.diff, verdict));
    }
    rows
}

pub fn experiment_page(e: &Experiment, dir: &Path) -> Result<Vec<String>, Error> {
    let x = &e.exact;
    let mut page = Page::new("empires experiment: mine against pillage");
    page.answer(&answer(e));
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
    if let Some(rows) = payback_rows(e) {
        page.p(&format!(
            "--payback {}: the mean yield a payday that makes a mine first match a pillage at that payday (exact).",
            e.payback.unwrap_or(0)
        ));
        page.table(&rows);
    }
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
    if let Some(l) = exercised::line(&e.baseline.coverage, e.campaigns) {
        page.p(&format!("{l}."));
    }
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
    let all: Vec<Row> = e.variants.iter().flat_map(|v| v.rows.iter().cloned()).collect();
    let columns = columns_note(&all, true);
    if !columns.is_empty() {
        page.p(&columns);
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

    if let Some(w) = &e.worth {
        page.h2("What a resource is worth to the strongest player");
        page.p(&crate::report::worth::answer_of(&e.exact, w));
        page.table(&crate::report::worth::rows(w));
    }

    page.h2("Observed: where the gold came from");
    page.p(POOLED);
    page.table(&share_rows(e));
    let gold = e.baseline.gold_total();
    if gold == 0.0 {
        // Charts of nothing would read as "no gold moved" at a glance
        // without saying why: say why, in their place.
        page.p(&format!(
            "No chart: in the baseline's {} campaigns no player earned gold from mines, pillage or loot. {}.",
            e.campaigns,
            exercised::line(&e.baseline.coverage, e.campaigns).unwrap_or_default()
        ));
        let mut files = page.files();
        page.finish(dir)?;
        files.push("index.html".into());
        return Ok(files);
    }
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
