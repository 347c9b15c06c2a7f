//! Question 2's answer: a verdict per combat table on the scenario's
//! fairness criterion (`analysis::fairness::verdict`), built once here and
//! shown verbatim as the first line of `empires tables`, the first screen
//! of its page and the README; and the charts of what differs between the
//! tables (the dice decide who wins the same way in every table, so the
//! P(win) grids are one picture; what a result costs is not). The findings
//! and verdicts are worded in `words`.

pub mod words;

pub use words::{Words, criterion, rates_words, short, units};

use crate::analysis::fairness::{CityCost, Verdict, city_costs, dearest, sea_land, worst_city};
use crate::report::tables::Exact;
use crate::rules::CombatKind;
use crate::scenario::Scenario;

/// The verdict's opening words: the README quotes the line that starts so.
pub const LEAD: &str = "Question 2, are the combat tables fair?";

/// The one answer line of question 2: every table's verdict, then the
/// criterion it was judged by. Exact, so it carries no interval.
pub fn answer(sc: &Scenario, verdicts: &[Verdict]) -> String {
    let fair: Vec<&str> = verdicts.iter().filter(|v| v.fair).map(|v| v.kind.name()).collect();
    let mut sentences = Vec::new();
    if !fair.is_empty() {
        sentences.push(format!("{} fair", fair.join(", ")));
    }
    sentences.extend(
        verdicts.iter().filter(|v| !v.fair).map(|v| format!("the {} table is not fair: {}", v.kind.name(), v.words())),
    );
    // Each sentence after the first opens with a capital.
    let body: Vec<String> =
        sentences.iter().enumerate().map(|(i, s)| if i == 0 { s.clone() } else { capital(s) }).collect();
    let parity: Vec<String> = sea_land(sc, verdicts).iter().map(Words::words).collect();
    let sea = if parity.is_empty() { String::new() } else { format!(" Sea and land: {}.", parity.join("; ")) };
    format!(
        "{LEAD} Exactly, with the {} die of scenario {}: {}.{sea} Criterion: {}.",
        sc.combat.die,
        sc.name,
        body.join(". "),
        criterion(sc)
    )
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// A city cost cell as a grid shows it: units a PV for each city taken,
/// `never` where no roll takes the city, `endless` where the siege may
/// never end.
fn cost_cell(c: &CityCost) -> String {
    if !c.ends {
        "endless".into()
    } else if c.per_pv.is_finite() {
        format!("{:.3}", c.per_pv)
    } else {
        "never".into()
    }
}

/// What taking a city costs over the whole siege-chain grid: a row per
/// city PV, a column per army size, each cell the army units spent a PV
/// for each city taken (`analysis::fairness::city_costs`); header first.
pub fn city_cost_rows(sc: &Scenario) -> Vec<Vec<String>> {
    let t = &sc.tables;
    let units: Vec<i32> = (t.siege_army_units[0]..=t.siege_army_units[1]).collect();
    let mut rows =
        vec![std::iter::once("city PV".to_string()).chain(units.iter().map(|&u| words::units(u))).collect::<Vec<_>>()];
    let costs = city_costs(sc);
    for pv in t.siege_city_pv[0]..=t.siege_city_pv[1] {
        let row =
            units.iter().map(|&u| costs.iter().find(|c| c.pv == pv && c.units == u).map_or(String::new(), cost_cell));
        rows.push(std::iter::once(pv.to_string()).chain(row).collect());
    }
    rows
}

/// The city-cost grid's title: what a cell is, the chains' settings and a
/// city's worth in EP.
pub fn city_cost_title(sc: &Scenario) -> String {
    let t = &sc.tables;
    format!(
        "what a city costs to take (a row per city PV, a column per army size): army units spent a PV for each \
         city taken, expected units spent / (P(the city falls) × PV); siege chains fought to the end, army +{}, \
         city base {}; exact; never: no roll takes the city. A city is worth {} EP to build (a castle, then a city \
         on it). At most {} is fair (tables.fair_units_per_pv)",
        t.siege_army_extra,
        t.siege_city_base,
        sc.buildings.castle.cost + sc.buildings.city.cost,
        t.fair_units_per_pv
    )
}

/// The city-cost grid's caption on the page: its title as a sentence.
pub fn city_cost_caption(sc: &Scenario) -> String {
    format!("{}.", capital(&city_cost_title(sc)))
}

/// The worst cell of the city-cost grid in words, and whether it is within
/// the criterion.
pub fn city_cost_worst(sc: &Scenario) -> String {
    let costs = city_costs(sc);
    match (worst_city(&costs), dearest(sc, &costs)) {
        (Some(w), Some(d)) if w.over => format!("over the criterion: {}", d.words()),
        (Some(w), _) => format!("within the criterion: the worst cell: {}", w.words()),
        _ => "no siege chain to judge".into(),
    }
}

/// A fight at sea against the same fight on land at equal strength; header first.
pub fn sea_land_rows(sc: &Scenario, verdicts: &[Verdict]) -> Vec<Vec<String>> {
    let unit = &sc.tables.exchange.unit;
    let mut rows = vec![vec![
        "sea".to_string(),
        "land".into(),
        "P(ahead) − P(behind), sea − land".into(),
        format!("attacker − defender loss ({unit}), sea − land"),
        "verdict".into(),
    ]];
    for p in sea_land(sc, verdicts) {
        rows.push(vec![
            p.sea.name().to_string(),
            p.land.name().to_string(),
            format!("{:+.1} pts", 100.0 * p.edge_diff + 0.0),
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
        "\n{}:\n{}  {}\n\nsea and land at equal strength (exact, losses in {}):\n{}",
        city_cost_title(sc),
        super::table::text_table(&city_cost_rows(sc)),
        city_cost_worst(sc),
        sc.tables.exchange.unit,
        super::table::text_table(&sea_land_rows(sc, verdicts))
    )
}

/// One row per table: its verdict and the numbers it rests on; header first.
pub fn rows(verdicts: &[Verdict]) -> Vec<Vec<String>> {
    let unit = verdicts.first().map_or(String::new(), |v| v.unit.clone());
    let mut rows = vec![vec![
        "table".to_string(),
        "P(ahead) − P(behind) at equal base".into(),
        "attacker loss".into(),
        "defender loss".into(),
        format!("attacker − defender ({unit})"),
        "verdict".into(),
    ]];
    for v in verdicts {
        rows.push(vec![
            v.kind.name().to_string(),
            format!("{:+.1} pts", 100.0 * v.edge + 0.0),
            format!("{:.3} {}", v.equal.a_loss, words::unit(v.a_loss_unit)),
            format!("{:.3} {}", v.equal.d_loss, words::unit(v.d_loss_unit)),
            format!("{:+.3}", v.loss_gap + 0.0),
            short(v),
        ]);
    }
    rows
}

/// What each table's result costs at equal strength, in the common unit:
/// the two sides' expected losses side by side, one pair of bars per table.
pub fn loss_bars(verdicts: &[Verdict]) -> crate::report::charts::Chart {
    use crate::report::charts::{Bar, Chart};
    let bar = |label: String, x: f64| Bar { label, value: x, low: x, high: x };
    let unit = verdicts.first().map_or(String::new(), |v| v.unit.clone());
    Chart::Bars {
        title: "Expected loss at equal strength (exact): attacker | defender".into(),
        y_label: format!("expected loss ({unit}, tables.exchange)"),
        bars: verdicts
            .iter()
            .flat_map(|v| {
                [
                    bar(format!("{} att.", v.kind.name()), v.equal.a_worth),
                    bar(format!("{} def.", v.kind.name()), v.equal.d_worth),
                ]
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

/// The defender's expected loss minus the attacker's over a table's grid,
/// both in the common unit (`tables.exchange`): above 0 the defender pays
/// more for the fight, the attacker's advantage, so red means the attacker
/// is ahead as on the P(win) grid (`SIDES`).
pub fn loss_gap_heatmap(sc: &Scenario, e: &Exact, kind: CombatKind) -> Option<crate::report::charts::Chart> {
    let t = e.tables.iter().find(|t| t.kind == kind)?;
    let den = t.den as f64;
    let [a, d] = crate::analysis::fairness::rates(sc, kind);
    let title = format!(
        "{}: expected defender loss − attacker loss, in {} (tables.exchange)",
        kind.name(),
        sc.tables.exchange.unit
    );
    Some(grid_heatmap(t, title, false, |c| (c.d_loss as f64 * d.value - c.a_loss as f64 * a.value) / den))
}

/// `tables --diff`: how each part of the criterion moves from `a` to `b`,
/// table by table, then the chains fought to the end. Every figure exact.
pub fn diff_text(a: &Scenario, ea: &Exact, b: &Scenario, eb: &Exact) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "A: {}", answer(a, &ea.verdicts));
    let _ = writeln!(out, "B: {}", answer(b, &eb.verdicts));
    let (ua, ub) = (&a.tables.exchange.unit, &b.tables.exchange.unit);
    if ua != ub {
        let _ = writeln!(out, "\nA counts losses in {ua}, B in {ub}: their loss figures are in different units.");
    }
    let _ = writeln!(out, "\nhow B moves each part of the criterion (exact; \"=\" where nothing moved):");
    let mut rows = vec![["table", "part", "A", "B", "B − A"].map(String::from).to_vec()];
    let num = |x: f64| if x.is_finite() { format!("{:.3}", x + 0.0) } else { "none".into() };
    let moved = |x: f64, y: f64| {
        if x.is_finite() && y.is_finite() {
            if (y - x).abs() > 1e-12 { format!("{:+.3}", y - x) } else { "=".into() }
        } else if x == y {
            "=".into()
        } else {
            "changed".into()
        }
    };
    let text_moved = |x: &str, y: &str| if x == y { "=".to_string() } else { "changed".into() };
    for va in &ea.verdicts {
        let Some(vb) = eb.verdicts.iter().find(|v| v.kind == va.kind) else { continue };
        let name = va.kind.name().to_string();
        let parts: [(String, f64, f64); 4] = [
            ("edge: P(ahead) − P(behind) at equal base".into(), va.edge, vb.edge),
            (format!("attacker loss at equal base ({ua})"), va.equal.a_worth, vb.equal.a_worth),
            (format!("defender loss at equal base ({ua})"), va.equal.d_worth, vb.equal.d_worth),
            (format!("loss gap, attacker − defender ({ua})"), va.loss_gap, vb.loss_gap),
        ];
        for (part, x, y) in parts {
            rows.push(vec![name.clone(), part, num(x), num(y), moved(x, y)]);
        }
        let never = |x: Option<String>| x.unwrap_or_else(|| "never".into());
        for (part, x, y) in [
            (
                "more strength hurts",
                never(va.hurts.as_ref().map(Words::words)),
                never(vb.hurts.as_ref().map(Words::words)),
            ),
            (
                "a bigger gap costs the winner more or the loser less",
                never(va.rows_break.as_ref().map(Words::words)),
                never(vb.rows_break.as_ref().map(Words::words)),
            ),
        ] {
            let m = text_moved(&x, &y);
            rows.push(vec![name.clone(), part.into(), x, y, m]);
        }
        if va.kind == CombatKind::Siege {
            let (ca, cb) = (city_costs(a), city_costs(b));
            let cell = |c: Option<&CityCost>| match c {
                Some(c) => format!("{} ({} PV, {})", cost_cell(c), c.pv, units(c.units)),
                None => "none".into(),
            };
            let (wa, wb) = (worst_city(&ca), worst_city(&cb));
            let m = match (wa, wb) {
                (Some(x), Some(y)) if x.per_pv.is_finite() && y.per_pv.is_finite() => moved(x.per_pv, y.per_pv),
                _ => text_moved(&cell(wa), &cell(wb)),
            };
            rows.push(vec![name.clone(), "worst city cost, units a PV taken".into(), cell(wa), cell(wb), m]);
            let dearest =
                |c: &[CityCost]| c.iter().map(|c| c.per_pv).filter(|x| x.is_finite()).fold(f64::NAN, f64::max);
            let (x, y) = (dearest(&ca), dearest(&cb));
            rows.push(vec![name.clone(), "dearest city taken, units a PV".into(), num(x), num(y), moved(x, y)]);
        }
        rows.push(vec![
            name,
            "verdict".into(),
            short(va),
            short(vb),
            if va.words() == vb.words() { "=".into() } else { "changed".into() },
        ]);
    }
    for (pa, pb) in sea_land(a, &ea.verdicts).iter().zip(sea_land(b, &eb.verdicts)) {
        let name = format!("{} − {}", pa.sea.name(), pa.land.name());
        for (part, x, y) in [
            ("sea − land: edge".to_string(), pa.edge_diff, pb.edge_diff),
            (format!("sea − land: loss gap ({ua})"), pa.loss_diff, pb.loss_diff),
        ] {
            rows.push(vec![name.clone(), part, num(x), num(y), moved(x, y)]);
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
                    "city PV {}, {} units: units spent {:.3} -> {:.3}, P(the city falls) {:.1}% -> {:.1}%",
                    x.city_pv,
                    x.units,
                    x.units_spent,
                    y.units_spent,
                    100.0 * x.falls,
                    100.0 * y.falls
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

/// What the readings' players never (or almost never) did in the shipped
/// scenario's campaigns, so an in-play row that moved nothing is not read
/// as the rules' answer where nobody played the part (`None` when they
/// played every part).
pub fn in_play_silence(r: &crate::study::combat_readings::Readings) -> Option<String> {
    crate::study::exercised::line(&r.coverage, r.campaigns).map(|l| format!("In play (the readings below): {l}."))
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
    if let Some(l) = in_play_silence(r) {
        out.push_str(&format!("  {l}\n"));
    }
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
        "never_played": in_play_silence(r),
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
