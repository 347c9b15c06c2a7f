//! The `check` table: metric, value, interval, bound or baseline, p-value,
//! verdict; then what moved for each failure.

use super::Judged;
use std::fmt::Write;

fn num(x: f64) -> String {
    if x.is_finite() { format!("{x:.4}") } else { "—".into() }
}

pub fn text(file: &str, alpha: f64, judged: &[Judged]) -> String {
    let mut rows =
        vec![["metric", "value", "95% interval", "bound or baseline", "p", "verdict"].map(String::from).to_vec()];
    for j in judged {
        let m = &j.measured;
        let bound = match (j.spec.min, j.spec.max, j.spec.baseline) {
            (_, _, Some(b)) => format!("baseline {}", num(b)),
            (Some(lo), Some(hi), None) => format!("{lo} to {hi}"),
            (Some(lo), None, None) => format!("at least {lo}"),
            (None, Some(hi), None) => format!("at most {hi}"),
            _ => String::new(),
        };
        rows.push(vec![
            j.spec.name.clone(),
            num(m.value),
            if m.exact { "exact".into() } else { format!("{}–{} (n={})", num(m.low), num(m.high), m.campaigns) },
            bound,
            j.p.map_or("—".into(), |p| format!("{p:.2e}")),
            if j.pass { "pass".into() } else { "FAIL".into() },
        ]);
    }
    let mut out = format!("empires check {file} (alpha {alpha}, Holm-corrected across baseline metrics)\n");
    out.push_str(&crate::report::study::text_table(&rows));
    let failed: Vec<&Judged> = judged.iter().filter(|j| !j.pass).collect();
    if failed.is_empty() {
        let _ = writeln!(out, "all {} metrics pass", judged.len());
    } else {
        let _ = writeln!(out, "{} of {} metrics FAIL:", failed.len(), judged.len());
        for j in failed {
            let _ = writeln!(out, "  FAIL {}: {}", j.spec.name, j.why);
        }
    }
    out
}
