//! What `empires deviate` writes: the one-key deviation table as text,
//! CSV and an HTML page with its chart.

use super::rate_ci;
use crate::error::Error;
use crate::report::charts::{Bar, Chart};
use crate::report::html::Page;
use crate::report::table::{pct, text_table};
use crate::strength::deviation::{Deviant, Deviation};
use std::fmt::Write;
use std::path::Path;

fn deviant_row(d: &Deviant, fair: f64) -> Vec<String> {
    vec![
        d.key.clone(),
        d.from.clone(),
        d.to.clone(),
        rate_ci(d.wins, d.campaigns),
        format!("{:+.1}", 100.0 * (d.rate - fair)),
        format!("{:.3}", d.p_holm),
        d.changed.to_string(),
        d.note.clone(),
        if d.beats() {
            "BEATS".into()
        } else if !d.tested() {
            "changed no game".into()
        } else {
            String::new()
        },
    ]
}

fn deviation_rows(dv: &Deviation) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "key".to_string(),
        "from".into(),
        "to".into(),
        "deviant's win rate".into(),
        "vs fair (points)".into(),
        "p (Holm)".into(),
        "games changed".into(),
        "deviant".into(),
        String::new(),
    ]];
    rows.extend(dv.deviants.iter().map(|d| deviant_row(d, dv.fair())));
    rows
}

pub fn deviation_text(dv: &Deviation, top: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", dv.competence.line());
    let _ = writeln!(
        out,
        "deviate: one player changes one key of {} (× or ÷ {}), against {} × {}; {} deviants × {} campaigns on master \
         seed {}, seats rotated; fair share {}",
        dv.strategy,
        dv.factor,
        dv.seats - 1,
        dv.strategy,
        dv.deviants.len(),
        dv.campaigns,
        dv.seed,
        pct(dv.fair())
    );
    let _ = writeln!(out, "  {} itself in that seat: {}", dv.strategy, rate_ci(dv.baseline.wins, dv.campaigns));
    let idle = dv.deviants.len() - dv.tested();
    let _ = writeln!(
        out,
        "  {idle} of {} deviants changed no game (not evidence either way; left out of the test); {} tested",
        dv.deviants.len(),
        dv.tested()
    );
    let _ = writeln!(
        out,
        "  power: a deviant winning {} points above the fair share would be found with 80% probability ({} \
         campaigns, {} tests, Holm, 5% family-wise error)",
        if dv.detectable.is_finite() { format!("{:.1}", 100.0 * dv.detectable) } else { "no".into() },
        dv.campaigns,
        dv.tested()
    );
    let beaten = dv.beaten_by();
    if let Some(best) = dv.deviants.first() {
        let _ = writeln!(
            out,
            "  largest deviation: {} {} → {}: {} ({:+.1} points, Holm p = {:.3})",
            best.key,
            best.from,
            best.to,
            rate_ci(best.wins, best.campaigns),
            100.0 * (best.rate - dv.fair()),
            best.p_holm
        );
    }
    if beaten.is_empty() {
        let _ = writeln!(out, "  verdict: no deviant wins clearly more than the fair share (Holm-adjusted p < 0.05)");
    } else {
        let _ = writeln!(
            out,
            "  verdict: {} deviant(s) win clearly more than the fair share: {} is not at a local optimum",
            beaten.len(),
            dv.strategy
        );
    }
    let rows = deviation_rows(dv);
    let shown: Vec<Vec<String>> = rows.into_iter().take(top + 1).collect();
    out.push('\n');
    out.push_str(&text_table(&shown));
    if dv.deviants.len() > top {
        let _ = writeln!(out, "  ... {} more rows in deviations.csv", dv.deviants.len() - top);
    }
    out
}

/// `deviations.csv`: every row.
pub fn deviation_csv(dv: &Deviation) -> String {
    let mut out = String::from("key,from,to,note,campaigns,wins,win_rate,low,high,p,p_holm,changed,beats\n");
    for d in &dv.deviants {
        let _ = writeln!(
            out,
            "{},\"{}\",\"{}\",{},{},{},{},{},{},{},{},{},{}",
            d.key,
            d.from,
            d.to,
            d.note,
            d.campaigns,
            d.wins,
            d.rate,
            d.low,
            d.high,
            d.p,
            d.p_holm,
            d.changed,
            d.beats()
        );
    }
    out
}

pub fn deviation_page(dv: &Deviation, text: &str, dir: &Path) -> Result<Vec<String>, Error> {
    let mut page = Page::new(&format!("empires deviate: {}", dv.strategy));
    let beaten = dv.beaten_by();
    let deviants = if beaten.is_empty() {
        format!(
            "No one-key deviant beats {} clearly: {} deviants tested, {} campaigns each (master seed {}); a gain of \
             {:.1} win-rate points would have been found with 80% power.",
            dv.strategy,
            dv.tested(),
            dv.campaigns,
            dv.seed,
            100.0 * dv.detectable
        )
    } else {
        let top: Vec<String> =
            beaten.iter().take(3).map(|d| format!("{} {} ({:.1}%)", d.key, d.to, 100.0 * d.rate)).collect();
        format!(
            "{} is not at a local optimum: {} one-key deviant(s) win clearly more than the fair {:.1}% against it \
             ({} campaigns each, master seed {}): {}.",
            dv.strategy,
            beaten.len(),
            100.0 * dv.fair(),
            dv.campaigns,
            dv.seed,
            top.join(", ")
        )
    };
    page.answer(&format!("{deviants} {}.", dv.competence.line()));
    page.pre(text.lines().skip(1).take(7).collect::<Vec<_>>().join("\n").as_str());
    let bars: Vec<Bar> = dv
        .deviants
        .iter()
        .take(24)
        .map(|d| Bar { label: format!("{} {}", d.key, d.to), value: d.rate, low: d.low, high: d.high })
        .collect();
    page.chart(
        dir,
        "deviants",
        // Horizontal: 24 labels such as "mine_slope ×4" cannot stand side by side.
        &Chart::HBars {
            title: format!("The strongest deviants (fair share {:.1}%)", 100.0 * dv.fair()),
            x_label: "win rate (%)".into(),
            bars,
        },
        &format!(
            "Win rate of the deviant against copies of the strategy, with 95% Wilson intervals; the fair share is {:.1}%.",
            100.0 * dv.fair()
        ),
    )?;
    page.table(&deviation_rows(dv));
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}
