//! The `check` table: metric, value, interval, bound or baseline, the test,
//! its Holm-adjusted p-value, the smallest change it detects, verdict; then
//! the warnings and what moved for each failure.

use super::{Judged, Test};
use std::fmt::Write;

fn num(x: f64) -> String {
    if x.is_finite() { format!("{x:.4}") } else { "—".into() }
}

fn p_cell(p: Option<f64>) -> String {
    p.map_or("—".into(), crate::report::number::p_value)
}

/// Whether `--update` settles a failure: it failed only against its
/// baseline, which `--update` replaces with the value measured now (a
/// bound still fails after it).
pub fn settled_by_update(j: &Judged) -> bool {
    let within = |x: f64| j.spec.min.is_none_or(|lo| x >= lo - 1e-9) && j.spec.max.is_none_or(|hi| x <= hi + 1e-9);
    !j.pass && j.spec.baseline.is_some() && (!j.measured.exact || within(j.measured.value))
}

/// The verdict table. With `updating` (`check --update`), a metric that
/// moved from its baseline is not a failure: its baseline is rewritten.
pub fn text(file: &str, alpha: f64, judged: &[Judged], updating: bool) -> String {
    let mut rows = vec![
        [
            "metric",
            "scenario",
            "value",
            "95% interval",
            "bound or baseline",
            "test",
            "Holm p",
            "detects (80% power)",
            "verdict",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for j in judged {
        let m = &j.measured;
        let bound = match (j.spec.min, j.spec.max, j.spec.baseline) {
            (_, _, Some(b)) if j.spec.tolerance > 0.0 => format!("baseline {} ± {}", num(b), j.spec.tolerance),
            (_, _, Some(b)) => format!("baseline {}", num(b)),
            (Some(lo), Some(hi), None) => format!("{lo} to {hi}"),
            (Some(lo), None, None) => format!("at least {lo}"),
            (None, Some(hi), None) => format!("at most {hi}"),
            _ => String::new(),
        };
        let test = match &j.test {
            Test::Exact => "exact".to_string(),
            Test::Bound => "one-sided".into(),
            Test::Paired { campaigns } => format!("paired, {campaigns}"),
            Test::Unpaired { .. } => "unpaired".into(),
        };
        let detects = match (&j.test, j.detectable, j.detectable_reshuffled) {
            (Test::Exact, _, _) => "any change".to_string(),
            (Test::Bound, Some(d), _) => format!("{} past", num(d)),
            (_, Some(_), Some(r)) => format!("±{} if reshuffled", num(r)),
            (_, Some(d), None) => format!("±{}", num(d)),
            _ => "—".into(),
        };
        let verdict = if updating && settled_by_update(j) {
            "moved; rewritten"
        } else if !j.pass {
            "FAIL"
        } else if j.warning.is_some() {
            "pass, unconfirmed"
        } else {
            "pass"
        };
        rows.push(vec![
            j.spec.name.clone(),
            j.played.as_ref().map_or("—".into(), |p| p.short()),
            num(m.value),
            if m.exact { "exact".into() } else { format!("{}–{} (n={})", num(m.low), num(m.high), m.campaigns) },
            bound,
            test,
            p_cell(j.p_adj),
            detects,
            verdict.into(),
        ]);
    }
    let tests = judged.iter().filter(|j| !j.measured.exact).count();
    let mut out = format!(
        "empires check {file}: the file fails by chance at most {alpha} of the time (Holm over its {tests} Monte Carlo \
         tests; bounds one-sided, baselines paired on common seeds where their campaigns are stored)\n"
    );
    out.push_str(&crate::report::table::text_table(&rows));
    let _ = writeln!(
        out,
        "detects: the smallest breach past a bound, or change from a baseline (beyond its tolerance), found with 80% \
         power at level {alpha}/{tests} (Holm rejects at least there){}",
        if judged.iter().any(|j| j.detectable_reshuffled.is_some()) {
            "; \"if reshuffled\": every paired difference is 0 (the game did not change), so the figure is the \
             unpaired one, for a change that reshuffles every campaign"
        } else {
            ""
        }
    );
    // Each file once, in the order the metrics name them: which file, why
    // that one, and its whole hash (`sha256sum FILE` shows the same).
    let mut files: Vec<&super::Played> = Vec::new();
    for p in judged.iter().filter_map(|j| j.played.as_ref()) {
        if !files.contains(&p) {
            files.push(p);
        }
    }
    for p in files {
        let _ = writeln!(out, "scenario {}: {} ({}), sha256 {}", p.short(), p.file, p.why(), p.sha256);
    }
    for j in judged {
        if let (Some(old), Some(p)) = (&j.baseline_sha256, &j.played) {
            let _ = writeln!(
                out,
                "  baseline of {}: measured on another version of {} (sha256 {}), so its change includes the edit",
                j.spec.name,
                p.file,
                &old[..8.min(old.len())]
            );
        }
    }
    let shares = [crate::study::metrics::Metric::MineShare, crate::study::metrics::Metric::PillageShare];
    out.push_str(&crate::report::study::metrics::definitions(
        shares.iter().filter(|m| judged.iter().any(|j| j.spec.quantity.as_deref() == Some(m.name().as_str()))),
    ));
    // A metric read off campaigns answers for what their players did: one
    // about a rule nobody played passes whatever the rule says.
    for j in judged {
        // A variant's campaigns are played twice, once under each scenario.
        let campaigns = j.measured.campaigns * if j.spec.variant.is_some() { 2 } else { 1 };
        if let Some(line) = j.coverage.as_ref().and_then(|c| crate::study::exercised::line(c, campaigns)) {
            let _ = writeln!(out, "  {}: {line}", j.spec.name);
        }
    }
    for j in judged {
        if let Test::Unpaired { why } = &j.test {
            let _ = writeln!(out, "  unpaired {}: {why}", j.spec.name);
        }
    }
    for j in judged {
        if let Some(w) = &j.warning {
            let _ = writeln!(out, "WARN {}: {w}", j.spec.name);
        }
    }
    let (moved, failed): (Vec<&Judged>, Vec<&Judged>) =
        judged.iter().filter(|j| !j.pass).partition(|j| updating && settled_by_update(j));
    if !moved.is_empty() {
        let _ = writeln!(
            out,
            "{} of {} metrics moved from their old baseline; --update rewrites it with the value measured now:",
            moved.len(),
            judged.len()
        );
        for j in moved {
            let _ = writeln!(out, "  moved {}: {}", j.spec.name, j.why);
        }
    }
    if failed.is_empty() && updating {
        let _ = writeln!(out, "no metric fails its bounds");
    } else if failed.is_empty() {
        let _ = writeln!(out, "all {} metrics pass", judged.len());
    } else {
        let _ = writeln!(out, "{} of {} metrics FAIL:", failed.len(), judged.len());
        for j in failed {
            let _ = writeln!(out, "  FAIL {}: {}", j.spec.name, j.why);
        }
    }
    out
}
