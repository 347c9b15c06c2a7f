//! `empires tables` output: the exact tables as text grids, one long CSV,
//! or JSON (schema in docs/tables.md), with the fairness findings and the
//! siege and naval chains.

use super::fairness::Words;
use super::fairness::words;
use crate::analysis::combat::{Cell, Table};
use crate::analysis::fairness::Finding;
use crate::analysis::markov::{NavalEnd, SiegeEnd};
use crate::error::Error;
use crate::scenario::Scenario;
use num_rational::Ratio;
use serde_json::{Value, json};
use std::fmt::Write;

/// Everything `tables` computes for one scenario.
pub struct Exact {
    pub tables: Vec<Table>,
    pub findings: Vec<Finding>,
    /// Each table's verdict on question 2's criterion, in table order.
    pub verdicts: Vec<crate::analysis::fairness::Verdict>,
    pub sieges: Vec<SiegeEnd>,
    pub naval: Vec<NavalEnd>,
    /// What the answer rests on, measured in play (`tables --readings-campaigns`;
    /// `None` when not played).
    pub readings: Option<crate::study::combat_readings::Readings>,
}

/// `n / den` reduced, as text: `5/12`, `0`, `1`.
pub fn rational(n: i64, den: u64) -> String {
    let r = Ratio::new(n as i128, den as i128);
    if *r.denom() == 1 { format!("{}", r.numer()) } else { format!("{}/{}", r.numer(), r.denom()) }
}

fn f(n: i64, den: u64) -> f64 {
    n as f64 / den as f64
}

/// Defender losses per attacker loss; `None` when the attacker loses nothing.
pub fn exchange(c: &Cell) -> Option<f64> {
    (c.a_loss > 0).then(|| c.d_loss as f64 / c.a_loss as f64)
}

fn grid(out: &mut String, t: &Table, title: &str, value: impl Fn(&Cell) -> String) {
    let _ = writeln!(out, "  {title} (rows: attacker base; columns: defender base)");
    let _ = write!(out, "  {:>6}", "");
    for d in &t.defenders {
        let _ = write!(out, " {d:>6}");
    }
    let _ = writeln!(out);
    for (i, a) in t.attackers.iter().enumerate() {
        let _ = write!(out, "  {a:>6}");
        for j in 0..t.defenders.len() {
            let _ = write!(out, " {:>6}", value(&t.cells[i * t.defenders.len() + j]));
        }
        let _ = writeln!(out);
    }
}

/// The text report.
pub fn text(sc: &Scenario, e: &Exact) -> String {
    let mut out = String::new();
    // The answer first, as the page's first screen has it.
    let _ = writeln!(out, "{}\n", super::fairness::answer(sc, &e.verdicts));
    if let Some(l) = e.readings.as_ref().and_then(super::fairness::in_play_silence) {
        // On the first screen: the exact answer needs no players, the
        // in-play rows below do.
        let _ = writeln!(out, "{l}\n");
    }
    out.push_str(&super::table::text_table(&super::fairness::rows(&e.verdicts)));
    out.push_str(&super::fairness::more_text(sc, &e.verdicts));
    if let Some(r) = &e.readings {
        let _ = writeln!(out, "\n{}", super::fairness::readings_title(r));
        out.push_str(&super::table::text_table(&super::fairness::readings_rows(r)));
        out.push_str(&super::fairness::readings_notes(sc, e, r));
    }
    let _ = writeln!(
        out,
        "\nexact combat tables for scenario {} (die {}; every cell enumerates all {} face pairs)",
        sc.name,
        sc.combat.die,
        e.tables.first().map_or(0, |t| t.den)
    );
    for t in &e.tables {
        let _ = writeln!(out, "\n== {} ==", t.kind.name());
        let _ = writeln!(out, "  rows:");
        for (i, r) in t.rows.iter().enumerate() {
            let _ = writeln!(out, "    {}. gap {}: {}", i + 1, words::gaps(r), words::effect(r.effect));
        }
        grid(&mut out, t, "P(attacker wins), %", |c| format!("{:.1}", 100.0 * f(c.win as i64, t.den)));
        grid(&mut out, t, &format!("expected attacker loss ({})", words::unit(t.a_loss_unit)), |c| {
            format!("{:.2}", f(c.a_loss, t.den))
        });
        grid(&mut out, t, &format!("expected defender loss ({})", words::unit(t.d_loss_unit)), |c| {
            format!("{:.2}", f(c.d_loss, t.den))
        });
        let _ = writeln!(out, "  findings:");
        for fd in e.findings.iter().filter(|x| x.kind == t.kind) {
            let _ = writeln!(out, "    - {}", fd.words());
        }
    }
    let _ = writeln!(
        out,
        "\n== sieges to the end (army extra +{}, city base {}) ==",
        sc.tables.siege_army_extra, sc.tables.siege_city_base
    );
    let _ = writeln!(
        out,
        "  {:>7} {:>6} {:>9} {:>12} {:>18} {:>15}",
        "city PV", "units", "assaults", "units spent", "P(army spent first)", "P(city falls)"
    );
    for s in &e.sieges {
        let _ = writeln!(
            out,
            "  {:>7} {:>6} {:>9.3} {:>12.3} {:>17.1}% {:>14.1}%",
            s.city_pv,
            s.units,
            s.assaults,
            s.units_spent,
            100.0 * s.army_spent_first,
            100.0 * s.falls
        );
    }
    let _ = writeln!(out, "\n== naval battles to destruction ({} PV a ship, no bids, no port) ==", sc.naval.ship_pv);
    let _ = writeln!(
        out,
        "  {:>5} {:>5} {:>8} {:>10} {:>10} {:>10}",
        "ships", "enemy", "P(win)", "both sunk", "survivors", "exchanges"
    );
    for n in &e.naval {
        let _ = writeln!(
            out,
            "  {:>5} {:>5} {:>7.1}% {:>9.1}% {:>10.3} {:>10.3}",
            n.ships,
            n.enemy,
            100.0 * n.win,
            100.0 * n.both_sunk,
            n.survivors,
            n.exchanges
        );
    }
    out
}

/// One long CSV: a row per (kind, attacker, defender), the row
/// probabilities in `p_row_1`... (empty where a kind has fewer rows).
pub fn csv(e: &Exact) -> String {
    let width = e.tables.iter().map(|t| t.rows.len()).max().unwrap_or(0);
    let mut out =
        String::from("kind,attacker,defender,p_win,p_tie,p_lose,e_attacker_loss,e_defender_loss,exchange_ratio");
    for i in 1..=width {
        let _ = write!(out, ",p_row_{i}");
    }
    out.push('\n');
    for t in &e.tables {
        for c in &t.cells {
            let _ = write!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                t.kind.name(),
                c.attacker,
                c.defender,
                f(c.win as i64, t.den),
                f(c.tie as i64, t.den),
                f(c.lose as i64, t.den),
                f(c.a_loss, t.den),
                f(c.d_loss, t.den),
                exchange(c).map_or(String::new(), |x| x.to_string())
            );
            for i in 0..width {
                match c.rows.get(i) {
                    Some(&n) => {
                        let _ = write!(out, ",{}", f(n as i64, t.den));
                    }
                    None => out.push(','),
                }
            }
            out.push('\n');
        }
    }
    out
}

fn prob(n: i64, den: u64) -> Value {
    json!({"p": f(n, den), "exact": rational(n, den)})
}

/// The JSON document (docs/tables.md).
pub fn json(sc: &Scenario, e: &Exact) -> Value {
    let tables: Vec<Value> = e
        .tables
        .iter()
        .map(|t| {
            json!({
                "kind": t.kind.name(),
                "face_pairs": t.den,
                "attacker_loss_unit": words::unit(t.a_loss_unit),
                "defender_loss_unit": words::unit(t.d_loss_unit),
                "attacker_bases": t.attackers,
                "defender_bases": t.defenders,
                "rows": t.rows.iter().enumerate().map(|(i, r)| json!({"row": i + 1, "gaps": words::gaps(r), "effect": words::effect(r.effect)})).collect::<Vec<_>>(),
                "cells": t.cells.iter().map(|c| json!({
                    "attacker": c.attacker,
                    "defender": c.defender,
                    "win": prob(c.win as i64, t.den),
                    "tie": prob(c.tie as i64, t.den),
                    "lose": prob(c.lose as i64, t.den),
                    "rows": c.rows.iter().map(|&n| prob(n as i64, t.den)).collect::<Vec<_>>(),
                    "attacker_loss": prob(c.a_loss, t.den),
                    "defender_loss": prob(c.d_loss, t.den),
                    "exchange_ratio": exchange(c),
                })).collect::<Vec<_>>(),
                "findings": e.findings.iter().filter(|x| x.kind == t.kind).map(|x| json!({"topic": x.found.topic(), "text": x.words(), "value": x.value})).collect::<Vec<_>>(),
                "verdict": e.verdicts.iter().find(|v| v.kind == t.kind).map(|v| json!({
                    "fair": v.fair, "words": if v.fair { "fair".to_string() } else { v.words() },
                    "edge": v.edge, "ahead": v.equal.ahead, "behind": v.equal.behind,
                    "attacker_loss": v.equal.a_loss, "defender_loss": v.equal.d_loss,
                    "attacker_worth": v.equal.a_worth, "defender_worth": v.equal.d_worth, "loss_gap": v.loss_gap,
                    "edge_fair": v.edge_fair, "loss_fair": v.loss_fair, "more_strength_hurts": v.hurts.as_ref().map(Words::words),
                    "bigger_gap": v.rows_break.as_ref().map(Words::words), "costly": v.costly.as_ref().map(Words::words),
                })),
            })
        })
        .collect();
    let finite = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
    json!({
        "scenario": sc.name,
        "die": sc.combat.die.to_string(),
        "answer": super::fairness::answer(sc, &e.verdicts),
        "criterion": {
            "text": super::fairness::criterion(sc),
            "fair_chance": sc.tables.fair_chance,
            "fair_loss": sc.tables.fair_loss,
            "fair_units_per_pv": sc.tables.fair_units_per_pv,
            "fair_sea_land": sc.tables.fair_sea_land,
            "exchange": &sc.tables.exchange,
        },
        "city_costs": {
            "worst": super::fairness::city_cost_worst(sc),
            "cells": crate::analysis::fairness::city_costs(sc).iter().map(|c| json!({
                "city_pv": c.pv, "units": c.units, "units_spent": finite(c.units_spent), "city_falls": c.falls,
                "units_per_pv": finite(c.per_pv), "ends": c.ends, "worth_ep": c.worth_ep, "over": c.over,
            })).collect::<Vec<_>>(),
        },
        "sea_land": crate::analysis::fairness::sea_land(sc, &e.verdicts).iter().map(|p| json!({
            "sea": p.sea.name(), "land": p.land.name(), "edge_diff": p.edge_diff,
            "loss_diff": p.loss_diff, "alike": p.alike, "words": p.words(),
        })).collect::<Vec<_>>(),
        "tables": tables,
        "readings": e.readings.as_ref().map(|r| super::fairness::readings_json(sc, e, r)),
        "sieges": {
            "army_extra": sc.tables.siege_army_extra,
            "city_base": sc.tables.siege_city_base,
            "cells": e.sieges.iter().map(|s| json!({
                "city_pv": s.city_pv, "units": s.units, "assaults": finite(s.assaults),
                "units_spent": finite(s.units_spent), "army_spent_first": s.army_spent_first,
                "city_falls": s.falls, "ends": s.ends,
            })).collect::<Vec<_>>(),
        },
        "naval": {
            "ship_pv": sc.naval.ship_pv,
            "cells": e.naval.iter().map(|n| json!({
                "ships": n.ships, "enemy": n.enemy, "win": n.win, "both_sunk": n.both_sunk,
                "survivors": n.survivors, "exchanges": finite(n.exchanges), "ends": n.ends,
            })).collect::<Vec<_>>(),
        },
    })
}

/// Compute everything `tables` shows.
pub fn exact(sc: &Scenario) -> Exact {
    let tables = crate::analysis::combat::all_tables(sc);
    let findings = tables.iter().flat_map(|t| crate::analysis::fairness::findings(sc, t)).collect();
    let verdicts = tables.iter().map(|t| crate::analysis::fairness::verdict(sc, t)).collect();
    Exact {
        tables,
        findings,
        verdicts,
        sieges: crate::analysis::markov::sieges(sc),
        naval: crate::analysis::markov::naval(sc),
        readings: None,
    }
}

/// The cross-check of a run's combats, as text.
pub fn against_text(run: &str, sc: &Scenario, checks: &[crate::crosscheck::TableCheck], alpha: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "played combats of {run} against the exact tables of scenario {} (chi-square per table; cells listed at p < {alpha})",
        sc.name
    );
    let _ = writeln!(
        out,
        "  {:<11} {:>9} {:>6} {:>10} {:>5} {:>10}  verdict",
        "kind", "combats", "cells", "chi2", "df", "p"
    );
    for t in checks {
        let verdict = if t.df == 0 {
            "too few combats to test"
        } else if t.p < alpha {
            "DISAGREES"
        } else {
            "agrees"
        };
        let _ = writeln!(
            out,
            "  {:<11} {:>9} {:>6} {:>10.2} {:>5} {:>10.3e}  {verdict}",
            t.kind.name(),
            t.combats,
            t.cells_tested,
            t.chi2,
            t.df,
            t.p
        );
    }
    // A kind the run never fought is not checked, and says so: its absence
    // is no agreement.
    let unplayed: Vec<&str> = crate::rules::CombatKind::ALL
        .iter()
        .filter(|k| !checks.iter().any(|t| t.kind == **k))
        .map(|k| k.name())
        .collect();
    if !unplayed.is_empty() {
        let _ = writeln!(out, "  not played in this run, so not checked: {}", unplayed.join(", "));
    }
    for t in checks {
        for c in &t.disagree {
            let _ = writeln!(
                out,
                "  {} attacker {} defender {}: {} combats, chi2 {:.1} on {} df, p = {:.2e}",
                t.kind.name(),
                c.attacker,
                c.defender,
                c.combats,
                c.chi2,
                c.df,
                c.p
            );
            for (i, (o, e)) in c.observed.iter().zip(&c.expected).enumerate() {
                let _ = writeln!(out, "      row {}: observed {o}, expected {e:.1}", i + 1);
            }
        }
    }
    out
}

/// The HTML page of `tables --out`: a P(attacker wins) heatmap per kind with
/// its findings, and the siege and naval chains.
pub fn page(sc: &Scenario, e: &Exact, dir: &std::path::Path) -> Result<Vec<String>, Error> {
    let mut page = super::html::Page::new(&format!("empires tables: {} (die {})", sc.name, sc.combat.die));
    page.answer(&super::fairness::answer(sc, &e.verdicts));
    if let Some(l) = e.readings.as_ref().and_then(super::fairness::in_play_silence) {
        page.p(&l);
    }
    page.table(&super::fairness::rows(&e.verdicts));
    page.h2("What a city costs to take, against what it is worth");
    page.p(&super::fairness::city_cost_caption(sc));
    page.table(&super::fairness::city_cost_rows(sc));
    page.p(&super::fairness::city_cost_worst(sc));
    page.h2("Sea and land at equal strength");
    page.p(&format!(
        "A fight at sea against the same fight on land: naval against army, coastal against siege, each the \
         difference sea minus land at equal base, losses in {}. Alike within tables.fair_sea_land = {}.",
        sc.tables.exchange.unit, sc.tables.fair_sea_land
    ));
    page.table(&super::fairness::sea_land_rows(sc, &e.verdicts));
    if let Some(r) = &e.readings {
        page.h2("What the answer rests on: the combat readings");
        page.p(&super::fairness::readings_title(r));
        page.table(&super::fairness::readings_rows(r));
        page.pre(&super::fairness::readings_notes(sc, e, r));
    }
    page.chart(
        dir,
        "equal-losses",
        &super::fairness::loss_bars(&e.verdicts),
        "What a fight costs each side at equal strength, exactly: where the tables differ.",
    )?;
    page.p(&format!(
        "Exact outcome distributions: every cell enumerates all {} pairs of die faces. A side's base is its score \
         before the die. tables.json and tables.csv in this directory hold every number; tables.txt is the text report.",
        e.tables.first().map_or(0, |t| t.den)
    ));
    // Who wins depends only on the gap and the die, the same in every
    // table: one grid says it for all. The tables differ in what a result
    // costs, charted per table below.
    if let Some(t) = e.tables.first() {
        page.h2("Who wins: the same in every table");
        page.chart(
            dir,
            "win",
            &super::fairness::grid_heatmap(t, "P(attacker wins), % (every table)".into(), true, |c| {
                f(c.win as i64, t.den)
            }),
            "Exact chance the attacker's total beats the defender's: the dice alone decide it, so every table shares it.",
        )?;
    }
    for t in &e.tables {
        page.h2(t.kind.name());
        if let Some(chart) = super::fairness::loss_gap_heatmap(sc, e, t.kind) {
            page.chart(
                dir,
                &format!("loss-{}", t.kind.name()),
                &chart,
                "Exact: above 0 (red) the defender loses more than the attacker on average at these bases, the \
                 attacker's advantage; below 0 (blue) the defender's. Red is the attacker's advantage on every \
                 chart of this page.",
            )?;
        }
        let mut rows = vec![vec!["row".to_string(), "gaps".into(), "effect".into()]];
        rows.extend(
            t.rows.iter().enumerate().map(|(i, r)| vec![(i + 1).to_string(), words::gaps(r), words::effect(r.effect)]),
        );
        page.table(&rows);
        for fd in e.findings.iter().filter(|x| x.kind == t.kind) {
            page.p(&fd.words());
        }
    }
    page.h2("Sieges and naval battles fought to the end");
    let (siege, naval) = super::run_page::exact_heatmaps(sc);
    page.chart(
        dir,
        "siege-exact",
        &siege,
        &format!(
            "{} Red is the attacker's advantage, as on every chart of this page; tables.txt lists P(army spent \
             first) beside it.",
            super::run_page::SIEGE_EXACT_CAPTION
        ),
    )?;
    page.chart(
        dir,
        "naval-exact",
        &naval,
        "Exact (Markov chain): the chance the attacker sinks the whole enemy fleet.",
    )?;
    let mut files = page.files();
    page.finish(dir)?;
    files.push("index.html".into());
    Ok(files)
}
