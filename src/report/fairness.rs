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
            format!("{:.1}%", 100.0 * falls),
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
        super::study::text_table(&city_cost_rows(sc)),
        super::study::text_table(&sea_land_rows(sc, verdicts))
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
    out.push_str(&super::study::text_table(&rows));
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
