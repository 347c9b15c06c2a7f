//! Fairness findings about each exact table, in plain words with their
//! numbers: who has the edge at equal base, what one point of initiative bid
//! is worth, rows that can never be reached, rows that do the same thing,
//! and whether the table treats the two sides alike.

use super::combat::{Cell, Table};
use crate::rules::CombatKind;
use crate::scenario::Scenario;

#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub kind: CombatKind,
    /// `equal_base`, `bid_value`, `unreachable_row`, `same_effect`, `symmetry`.
    pub topic: &'static str,
    pub text: String,
    /// The headline number, when there is one (a probability or a difference).
    pub value: Option<f64>,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn p(n: u64, den: u64) -> f64 {
    n as f64 / den as f64
}

/// Every finding for one table.
pub fn findings(sc: &Scenario, t: &Table) -> Vec<Finding> {
    let mut out = Vec::new();
    let k = t.kind;
    let den = t.den;
    let mut push = |topic, text: String, value| out.push(Finding { kind: k, topic, text, value });

    // Equal base: the noise depends only on a - d, so any a == d cell speaks
    // for all of them.
    if let Some(c) = t.cells.iter().find(|c| c.attacker == c.defender) {
        let (w, l) = (p(c.win, den), p(c.lose, den));
        let (ea, ed) = (c.a_loss as f64 / den as f64, c.d_loss as f64 / den as f64);
        let verdict = if c.win > c.lose {
            "the attacker has the edge"
        } else if c.win < c.lose {
            "the defender has the edge"
        } else {
            "neither side is more likely to win"
        };
        push(
            "equal_base",
            format!(
                "at equal base {verdict}: the attacker wins {}, ties {}, loses {}; on average it loses {ea:.3} {} and the defender {ed:.3} {}",
                pct(w),
                pct(p(c.tie, den)),
                pct(l),
                t.a_loss_unit,
                t.d_loss_unit
            ),
            Some(w - l),
        );
    }

    // One point of bid: P(win) at equal base and one point above.
    let step = t.cells.iter().find_map(|c| {
        (c.attacker == c.defender).then(|| t.cell(c.attacker + 1, c.defender).map(|up| (c, up))).flatten()
    });
    if let Some((c, up)) = step {
        let (w0, w1) = (p(c.win, den), p(up.win, den));
        // Averaged over every cell that has a neighbour one point up.
        let mut sum = 0.0;
        let mut n = 0;
        for c in &t.cells {
            if let Some(u) = t.cell(c.attacker + 1, c.defender) {
                sum += (u.win as f64 - c.win as f64) / den as f64;
                n += 1;
            }
        }
        let what =
            if k == CombatKind::SpyDuel { "one more point of bid" } else { "one point of initiative bid (or any +1)" };
        push(
            "bid_value",
            format!(
                "{what} is worth {:+.1} points of P(win) at equal base ({} to {}), {:+.1} on average over the grid",
                100.0 * (w1 - w0),
                pct(w0),
                pct(w1),
                100.0 * sum / n.max(1) as f64
            ),
            Some(w1 - w0),
        );
    }

    // Rows never hit anywhere on the grid.
    for (i, r) in t.rows.iter().enumerate() {
        if t.cells.iter().all(|c| c.rows[i] == 0) {
            push(
                "unreachable_row",
                format!(
                    "row {} (gap {}: {}) is never reached on this grid with the {} die",
                    i + 1,
                    r.gaps,
                    r.effect,
                    sc.combat.die
                ),
                None,
            );
        }
    }

    // Rows that do the same thing.
    for i in 0..t.rows.len() {
        for j in i + 1..t.rows.len() {
            if t.rows[i].key == t.rows[j].key {
                push(
                    "same_effect",
                    format!(
                        "rows {} (gap {}) and {} (gap {}) have the same effect: {}",
                        i + 1,
                        t.rows[i].gaps,
                        j + 1,
                        t.rows[j].gaps,
                        t.rows[i].effect
                    ),
                    None,
                );
            }
        }
    }

    // Symmetry: the attacker at (x, y) against the defender at (y, x).
    match k {
        CombatKind::Army | CombatKind::Naval | CombatKind::SpyDuel => {
            let mut worst: Option<(f64, &Cell)> = None;
            for c in &t.cells {
                if let Some(m) = t.cell(c.defender, c.attacker) {
                    let dw = (c.win as f64 - m.lose as f64).abs() / den as f64;
                    let dl = (c.a_loss as f64 - m.d_loss as f64).abs() / den as f64;
                    let d = dw.max(dl);
                    if d > 1e-12 && worst.is_none_or(|(x, _)| d > x) {
                        worst = Some((d, c));
                    }
                }
            }
            match worst {
                None => push(
                    "symmetry",
                    "symmetric: swapping the two sides' bases swaps their chances and losses exactly".into(),
                    Some(0.0),
                ),
                Some((d, c)) => push(
                    "symmetry",
                    format!(
                        "not symmetric: swapping the sides changes a chance or an expected loss by up to {d:.3} (at attacker {}, defender {})",
                        c.attacker, c.defender
                    ),
                    Some(d),
                ),
            }
        }
        CombatKind::Siege | CombatKind::Spy | CombatKind::Coastal => {
            // The sides lose different things; show what a gap of +g and -g do.
            let mut lines = Vec::new();
            for g in 0..=4 {
                let (ra, _, _) = super::combat::effect(sc, k, g);
                let (rb, _, _) = super::combat::effect(sc, k, -g);
                if g == 0 {
                    lines.push(format!("gap 0: {}", t.rows[ra].effect));
                } else {
                    lines.push(format!("+{g}: {} / -{g}: {}", t.rows[ra].effect, t.rows[rb].effect));
                }
            }
            push(
                "symmetry",
                format!(
                    "not symmetric by design: the attacker risks {} and the defender {}; {}",
                    t.a_loss_unit,
                    t.d_loss_unit,
                    lines.join("; ")
                ),
                None,
            );
        }
    }
    out
}
