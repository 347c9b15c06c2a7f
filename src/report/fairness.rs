//! Question 2's answer: a verdict per combat table on the scenario's
//! fairness criterion (`analysis::fairness::verdict`), built once here and
//! shown verbatim as the first line of `empires tables`, the first screen
//! of its page and the README; and the charts of what differs between the
//! tables (the dice decide who wins the same way in every table, so the
//! P(win) grids are one picture; what a result costs is not).

use crate::analysis::fairness::{CityCost, Parity, Verdict, city_costs, criterion, sea_land};
use crate::report::tables::Exact;
use crate::rules::CombatKind;
use crate::scenario::Scenario;

/// The verdict's opening words: the README quotes the line that starts so.
pub const LEAD: &str = "Question 2, are the combat tables fair?";

/// The one answer line of question 2: every table's verdict, then the
/// criterion it was judged by. Exact, so it carries no interval.
pub fn answer(sc: &Scenario, verdicts: &[Verdict]) -> String {
    let fair: Vec<&str> = verdicts.iter().filter(|v| v.fair).map(|v| v.kind.name()).collect();
    let mut parts = Vec::new();
    if !fair.is_empty() {
        parts.push(format!("{} fair", fair.join(", ")));
    }
    parts.extend(verdicts.iter().filter(|v| !v.fair).map(|v| format!("{} {}", v.kind.name(), v.words())));
    let parity: Vec<String> = sea_land(sc, verdicts).iter().map(Parity::words).collect();
    let sea = if parity.is_empty() { String::new() } else { format!(" Sea and land: {}.", parity.join("; ")) };
    format!(
        "{LEAD} Exactly, with the {} die of scenario {}: {}.{sea} Criterion: {}.",
        sc.combat.die,
        sc.name,
        parts.join("; "),
        criterion(sc)
    )
}

/// What a city of each PV costs to take, against what it is worth in EP
/// (`analysis::fairness::city_costs`); header first.
pub fn city_cost_rows(sc: &Scenario) -> Vec<Vec<String>> {
    let mut rows = vec![
        [
            "city PV",
            "army",
            "P(the city falls first)",
            "units spent",
            "units a PV",
            "city worth (EP, castle + city)",
            "units an EP",
            "verdict",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for c in city_costs(sc) {
        let CityCost { pv, units, units_spent, per_pv, falls, worth_ep, over } = c;
        rows.push(vec![
            pv.to_string(),
            format!("{units} units"),
            crate::text::pct(falls),
            format!("{units_spent:.3}"),
            format!("{per_pv:.3}"),
            worth_ep.to_string(),
            if worth_ep > 0 { format!("{:.3}", units_spent / worth_ep as f64) } else { "—".into() },
            if over {
                format!("more than {} a PV", sc.tables.fair_units_per_pv)
            } else {
                format!("within {} a PV", sc.tables.fair_units_per_pv)
            },
        ]);
    }
    rows
}

/// A fight at sea against the same fight on land at equal strength; header first.
pub fn sea_land_rows(sc: &Scenario, verdicts: &[Verdict]) -> Vec<Vec<String>> {
    let mut rows = vec![
        ["sea", "land", "P(win) − P(lose), sea − land", "attacker − defender loss, sea − land", "verdict"]
            .map(String::from)
            .to_vec(),
    ];
    for p in sea_land(sc, verdicts) {
        rows.push(vec![
            p.sea.name().to_string(),
            p.land.name().to_string(),
            format!("{:+.1} pts", 100.0 * p.chance_diff + 0.0),
            format!("{:+.3}", p.loss_diff + 0.0),
            if p.alike { "alike".into() } else { format!("differ by more than {}", sc.tables.fair_sea_land) },
        ]);
    }
    rows
}

/// The two criteria beyond the verdict table, as text: what a city costs
/// and sea against land.
pub fn more_text(sc: &Scenario, verdicts: &[Verdict]) -> String {
    format!(
        "\nwhat a city costs to take (siege chains fought to the end, army +{}, city base {}; exact):\n{}\nsea and \
         land at equal strength (exact):\n{}",
        sc.tables.siege_army_extra,
        sc.tables.siege_city_base,
        super::table::text_table(&city_cost_rows(sc)),
        super::table::text_table(&sea_land_rows(sc, verdicts))
    )
}

/// One row per table: its verdict and the numbers it rests on; header first.
pub fn rows(verdicts: &[Verdict]) -> Vec<Vec<String>> {
    let mut rows = vec![
        ["table", "P(win) − P(lose) at equal base", "attacker loss", "defender loss", "verdict"]
            .map(String::from)
            .to_vec(),
    ];
    for v in verdicts {
        rows.push(vec![
            v.kind.name().to_string(),
            format!("{:+.1} pts", 100.0 * v.chance_gap + 0.0),
            format!("{:.3} {}", v.a_loss, v.a_loss_unit),
            format!("{:.3} {}", v.d_loss, v.d_loss_unit),
            v.short().to_string(),
        ]);
    }
    rows
}

/// What each table's result costs at equal strength: the two sides'
/// expected losses side by side, one pair of bars per table.
pub fn loss_bars(verdicts: &[Verdict]) -> crate::report::charts::Chart {
    use crate::report::charts::{Bar, Chart};
    let bar = |label: String, x: f64| Bar { label, value: x, low: x, high: x };
    Chart::Bars {
        title: "Expected loss at equal strength (exact): attacker | defender".into(),
        y_label: "expected loss (each table's units)".into(),
        bars: verdicts
            .iter()
            .flat_map(|v| {
                [bar(format!("{} att.", v.kind.name()), v.a_loss), bar(format!("{} def.", v.kind.name()), v.d_loss)]
            })
            .collect(),
        reference: None,
    }
}

/// A table's grid as a heatmap: `value` of each cell at (attacker base,
/// defender base).
pub fn grid_heatmap(
    t: &crate::analysis::combat::Table,
    title: String,
    percent: bool,
    value: impl Fn(&crate::analysis::combat::Cell) -> f64,
) -> crate::report::charts::Chart {
    let rows = t
        .defenders
        .iter()
        .map(|&d| t.attackers.iter().map(|&a| t.cell(a, d).map_or(f64::NAN, &value)).collect())
        .collect();
    crate::report::charts::Chart::Heatmap {
        title,
        x_label: "attacker base".into(),
        y_label: "defender base".into(),
        xs: t.attackers.iter().map(|a| a.to_string()).collect(),
        ys: t.defenders.iter().map(|d| d.to_string()).collect(),
        rows,
        percent,
        intervals: Vec::new(),
        sides: Some(SIDES.map(String::from)),
    }
}

/// The legend of every heatmap of the tables page: each is drawn so that
/// high (red) is the attacker's advantage and low (blue) the defender's, so
/// one colour means one side's advantage from chart to chart.
pub const SIDES: [&str; 2] = ["defender ahead", "attacker ahead"];

/// The defender's expected loss minus the attacker's over a table's grid:
/// above 0 the defender pays more for the fight, the attacker's advantage,
/// so red means the attacker is ahead as on the P(win) grid (`SIDES`).
pub fn loss_gap_heatmap(e: &Exact, kind: CombatKind) -> Option<crate::report::charts::Chart> {
    let t = e.tables.iter().find(|t| t.kind == kind)?;
    let den = t.den as f64;
    let title =
        format!("{}: expected defender loss − attacker loss ({} − {})", kind.name(), t.d_loss_unit, t.a_loss_unit);
    Some(grid_heatmap(t, title, false, |c| (c.d_loss - c.a_loss) as f64 / den))
}

/// `tables --diff`: how each part of the criterion moves from `a` to `b`,
/// table by table, then the chains fought to the end. Every figure exact.
pub fn diff_text(a: &Scenario, ea: &Exact, b: &Scenario, eb: &Exact) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "A: {}", answer(a, &ea.verdicts));
    let _ = writeln!(out, "B: {}", answer(b, &eb.verdicts));
    let _ = writeln!(out, "\nhow B moves each part of the criterion (exact; \"=\" where nothing moved):");
    let mut rows = vec![["table", "part", "A", "B", "B − A"].map(String::from).to_vec()];
    let num = |x: f64| format!("{:.3}", x + 0.0);
    for va in &ea.verdicts {
        let Some(vb) = eb.verdicts.iter().find(|v| v.kind == va.kind) else { continue };
        let parts: [(&str, f64, f64); 4] = [
            ("P(win) − P(lose) at equal base", va.chance_gap, vb.chance_gap),
            ("attacker loss at equal base", va.a_loss, vb.a_loss),
            ("defender loss at equal base", va.d_loss, vb.d_loss),
            ("attacker − defender loss", va.loss_gap, vb.loss_gap),
        ];
        for (part, x, y) in parts {
            let moved = (y - x).abs() > 1e-12;
            rows.push(vec![
                va.kind.name().to_string(),
                part.to_string(),
                num(x),
                num(y),
                if moved { format!("{:+.3}", y - x) } else { "=".into() },
            ]);
        }
        let hurts = |v: &Verdict| v.hurts.clone().unwrap_or_else(|| "never".into());
        rows.push(vec![
            va.kind.name().to_string(),
            "more strength hurts".into(),
            hurts(va),
            hurts(vb),
            if va.hurts == vb.hurts { "=".into() } else { "changed".into() },
        ]);
        if va.kind == CombatKind::Siege {
            let worst = |sc: &Scenario| city_costs(sc).iter().map(|c| c.per_pv).fold(0.0, f64::max);
            let (x, y) = (worst(a), worst(b));
            rows.push(vec![
                va.kind.name().to_string(),
                "most units a city PV".into(),
                num(x),
                num(y),
                if (y - x).abs() > 1e-12 { format!("{:+.3}", y - x) } else { "=".into() },
            ]);
        }
        rows.push(vec![
            va.kind.name().to_string(),
            "verdict".into(),
            va.short().into(),
            vb.short().into(),
            if va.words() == vb.words() { "=".into() } else { "changed".into() },
        ]);
    }
    for (pa, pb) in sea_land(a, &ea.verdicts).iter().zip(sea_land(b, &eb.verdicts)) {
        let name = format!("{} − {}", pa.sea.name(), pa.land.name());
        for (part, x, y) in [
            ("sea − land: P(win) − P(lose)", pa.chance_diff, pb.chance_diff),
            ("sea − land: attacker − defender loss", pa.loss_diff, pb.loss_diff),
        ] {
            rows.push(vec![
                name.clone(),
                part.into(),
                num(x),
                num(y),
                if (y - x).abs() > 1e-12 { format!("{:+.3}", y - x) } else { "=".into() },
            ]);
        }
        rows.push(vec![
            name,
            "verdict".into(),
            if pa.alike { "alike" } else { "differ" }.into(),
            if pb.alike { "alike" } else { "differ" }.into(),
            if pa.alike == pb.alike { "=".into() } else { "changed".into() },
        ]);
    }
    out.push_str(&super::table::text_table(&rows));
    // The chains: a move in any cell, the largest first.
    let mut siege: Vec<(f64, String)> = ea
        .sieges
        .iter()
        .zip(&eb.sieges)
        .filter(|(x, y)| x.city_pv == y.city_pv && x.units == y.units)
        .map(|(x, y)| {
            let d = (y.units_spent - x.units_spent).abs();
            (
                d,
                format!(
                    "city PV {}, {} units: units spent {:.3} -> {:.3}, P(army spent first) {:.1}% -> {:.1}%",
                    x.city_pv,
                    x.units,
                    x.units_spent,
                    y.units_spent,
                    100.0 * x.army_spent_first,
                    100.0 * y.army_spent_first
                ),
            )
        })
        .filter(|(d, _)| *d > 1e-12)
        .collect();
    siege.sort_by(|x, y| y.0.total_cmp(&x.0));
    let _ = writeln!(
        out,
        "\nsieges to the end: {} of {} cells move{}",
        siege.len(),
        ea.sieges.len(),
        siege.first().map_or(String::new(), |(_, s)| format!("; the most: {s}"))
    );
    let naval = ea.naval.iter().zip(&eb.naval).filter(|(x, y)| (x.win - y.win).abs() > 1e-12).count();
    let _ = writeln!(out, "naval battles to destruction: {naval} of {} cells move P(win)", ea.naval.len());
    out
}

/// The readings table's title: what it plays, on which seeds.
pub fn readings_title(r: &crate::study::combat_readings::Readings) -> String {
    format!(
        "What the answer rests on: the combat readings, each flipped by one scenario key and played against the \
         shipped reading on the same seeds ({} campaigns a variant, master seed {}, seats {}; paired differences \
         with 95% intervals; \"moved\" by Holm over the {} rows, family-wise error 5%)",
        r.campaigns,
        r.seed,
        if r.rotate_seats { "rotated" } else { "fixed" },
        r.tests
    )
}

/// What flipping a reading does exactly, where a fixed bonus to the
/// attacker's base is all it changes: the equal-base cell against the one
/// the bonus shifts the attacker to. W-05: an army attacking out of its
/// capital adds the capital's defence; W-07: an Assault army assaults a
/// city at +`assault_strength`. Play rarely shows either cell, so the
/// exact figures say what the reading is worth where it applies.
fn reading_exact(sc: &Scenario, e: &Exact, rule: &str) -> Option<String> {
    let (kind, by, who, lost) = match rule {
        "W-05" if sc.buildings.city.garrison => (
            CombatKind::Army,
            sc.cities.capital.defence,
            format!("an army attacking out of its capital (defence {})", sc.cities.capital.defence),
            ["its units lost", "the defender's units lost"],
        ),
        "W-07" => (
            CombatKind::Siege,
            sc.army.formations.assault_strength,
            "an Assault army".to_string(),
            ["army units lost", "city PV lost"],
        ),
        _ => return None,
    };
    let t = e.tables.iter().find(|t| t.kind == kind)?;
    let c = t.cells.iter().find(|c| c.attacker == c.defender)?;
    let up = t.cell(c.attacker + by, c.defender)?;
    let den = t.den as f64;
    Some(format!(
        "exact, {who} at equal base: P(win) {:.1}% -> {:.1}%, {} {:.3} -> {:.3}, {} {:.3} -> {:.3}",
        100.0 * c.win as f64 / den,
        100.0 * up.win as f64 / den,
        lost[0],
        c.a_loss as f64 / den,
        up.a_loss as f64 / den,
        lost[1],
        c.d_loss as f64 / den,
        up.d_loss as f64 / den
    ))
}

/// One row per (reading, quantity it moves): the reading shipped, the key
/// that flips it, the quantity shipped and flipped with their intervals,
/// the paired change and whether it moved; header first.
pub fn readings_rows(r: &crate::study::combat_readings::Readings) -> Vec<Vec<String>> {
    use super::study::metrics::{fmt, fmt_diff};
    let mut rows = vec![
        [
            "rule",
            "reading shipped",
            "flipped by",
            "what flipping moves",
            "shipped",
            "flipped",
            "change (95%)",
            "verdict",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for rr in &r.rows {
        for (i, x) in rr.rows.iter().enumerate() {
            let m = &x.metric;
            let cell = |v: &crate::stats::Mean| format!("{} [{}, {}]", fmt(m, v.mean), fmt(m, v.low), fmt(m, v.high));
            let moved = crate::study::combat_readings::Readings::moved(x);
            rows.push(vec![
                if i == 0 { rr.reading.rule.to_string() } else { String::new() },
                if i == 0 { rr.reading.shipped.to_string() } else { String::new() },
                if i == 0 { rr.reading.flag() } else { String::new() },
                format!("{}{}", m.name(), if rr.reading.teams { " (two teams of two)" } else { "" }),
                cell(&x.a),
                cell(&x.b),
                format!("{} [{}, {}]", fmt_diff(m, x.diff.mean), fmt_diff(m, x.diff.low), fmt_diff(m, x.diff.high)),
                if moved {
                    if x.diff.mean > 0.0 { "moved: higher".into() } else { "moved: lower".into() }
                } else if x.reshuffled {
                    // Every campaign played the same games under both readings.
                    "no change: the same games".into()
                } else {
                    format!("not detectably (±{} detectable)", fmt_diff(m, x.detectable).trim_start_matches('+'))
                },
            ]);
        }
    }
    rows
}

/// What each reading's documents say, under the table, and what W-05 and
/// W-07 move exactly.
pub fn readings_notes(sc: &Scenario, e: &Exact, r: &crate::study::combat_readings::Readings) -> String {
    let mut out = String::new();
    for rr in &r.rows {
        if let Some(line) = reading_exact(sc, e, rr.reading.rule) {
            out.push_str(&format!("  {} flipped, {line}\n", rr.reading.rule));
        }
    }
    out.push_str(
        "  Each reading is argued in docs/rules.md (readings as keys); the documents' words that leave it open:\n",
    );
    for rr in &r.rows {
        out.push_str(&format!("  {}: {}\n", rr.reading.rule, rr.reading.text));
    }
    out
}

/// The readings table as JSON: each row with its figures.
pub fn readings_json(sc: &Scenario, e: &Exact, r: &crate::study::combat_readings::Readings) -> serde_json::Value {
    use serde_json::json;
    let mean = |m: &crate::stats::Mean| json!({"mean": m.mean, "low": m.low, "high": m.high, "n": m.n});
    json!({
        "campaigns": r.campaigns, "seed": r.seed, "rotate_seats": r.rotate_seats, "tests": r.tests,
        "readings": r.rows.iter().map(|rr| json!({
            "rule": rr.reading.rule, "text": rr.reading.text, "shipped": rr.reading.shipped,
            "key": rr.reading.key, "value": rr.reading.value, "teams": rr.reading.teams,
            "exact": reading_exact(sc, e, rr.reading.rule),
            "moves": rr.rows.iter().map(|x| json!({
                "metric": x.metric.name(), "shipped": mean(&x.a), "flipped": mean(&x.b), "change": mean(&x.diff),
                "p_holm": x.p_adj, "moved": crate::study::combat_readings::Readings::moved(x),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
