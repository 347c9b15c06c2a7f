//! Fairness findings about each exact table, in plain words with their
//! numbers: who has the edge at equal base, what one point of initiative bid
//! is worth, rows that can never be reached, rows that do the same thing,
//! and whether the table treats the two sides alike.

use super::combat::{Cell, Table};
use crate::rules::CombatKind;
use crate::scenario::Scenario;
use crate::text::pct;

#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub kind: CombatKind,
    /// `equal_base`, `bid_value`, `unreachable_row`, `same_effect`, `symmetry`.
    pub topic: &'static str,
    pub text: String,
    /// The headline number, when there is one (a probability or a difference).
    pub value: Option<f64>,
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

/// Question 2's criterion for one table, judged exactly: at equal base the
/// attacker wins as often as it loses (within `tables.fair_chance`) and both
/// sides lose as much on average (within `tables.fair_loss`, in the table's
/// own units), and more base never hurts the side that has it: one more
/// point for the attacker never lowers its chance to win nor raises its
/// expected loss, and one more for the defender never raises the
/// attacker's chance nor the defender's expected loss.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub kind: CombatKind,
    /// P(attacker wins) − P(attacker loses) at equal base.
    pub chance_gap: f64,
    /// Expected attacker loss − expected defender loss at equal base.
    pub loss_gap: f64,
    /// The attacker's and the defender's expected losses at equal base.
    pub a_loss: f64,
    pub d_loss: f64,
    pub a_loss_unit: &'static str,
    pub d_loss_unit: &'static str,
    /// The first cell where more base hurts its side, in words.
    pub hurts: Option<String>,
    /// Siege only: the first city PV that costs more army units a PV than
    /// `tables.fair_units_per_pv`, in words (`city_costs`).
    pub costly: Option<String>,
    /// Each part of the criterion, and all of them.
    pub chance_fair: bool,
    pub loss_fair: bool,
    pub fair: bool,
}

impl Verdict {
    /// "fair by ..." or what it favours and by how much, with its numbers.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        let side = |x: f64| if x > 0.0 { "the attacker" } else { "the defender" };
        if !self.chance_fair {
            parts.push(format!(
                "favours {} by {:.1} points of P(win) at equal strength",
                side(self.chance_gap),
                100.0 * self.chance_gap.abs()
            ));
        }
        if !self.loss_fair {
            // The attacker losing more favours the defender.
            parts.push(format!(
                "favours {} by {:.2} at equal strength (the attacker loses {:.2} {}, the defender {:.2} {})",
                side(-self.loss_gap),
                self.loss_gap.abs(),
                self.a_loss,
                self.a_loss_unit,
                self.d_loss,
                self.d_loss_unit
            ));
        }
        if let Some(h) = &self.hurts {
            parts.push(format!("more strength hurts ({h})"));
        }
        if let Some(c) = &self.costly {
            parts.push(format!("a city costs too many units ({c})"));
        }
        if parts.is_empty() { "fair by the criterion".into() } else { parts.join("; ") }
    }

    /// The verdict in a word or two, for a table's column.
    pub fn short(&self) -> &'static str {
        let side = |x: f64| if x > 0.0 { "favours the attacker" } else { "favours the defender" };
        if self.fair {
            "fair"
        } else if !self.chance_fair {
            side(self.chance_gap)
        } else if !self.loss_fair {
            side(-self.loss_gap)
        } else if self.hurts.is_some() {
            "more strength hurts"
        } else {
            "a city costs too many units"
        }
    }
}

/// What taking a city of one PV costs, from the siege chains: the
/// chains' largest army (`tables.siege_army_units`' high end) assaults
/// until the city falls or the army is spent (`markov::sieges`).
#[derive(Clone, Debug, PartialEq)]
pub struct CityCost {
    pub pv: i32,
    /// The army's units at the start.
    pub units: i32,
    /// Expected army units spent, and that per city PV.
    pub units_spent: f64,
    pub per_pv: f64,
    /// P(the city falls before the army is spent).
    pub falls: f64,
    /// What a city is worth in EP: a castle and a city built on it
    /// (E-14), the EP way to own one.
    pub worth_ep: i32,
    /// More than `tables.fair_units_per_pv` units a PV.
    pub over: bool,
}

/// The cost of a city of each PV of the siege chains' grid. A chain that
/// may never end (a table row that costs nobody anything at every gap the
/// army reaches) has no finite cost and is left out.
pub fn city_costs(sc: &Scenario) -> Vec<CityCost> {
    let units = sc.tables.siege_army_units[1];
    let worth_ep = sc.buildings.castle.cost + sc.buildings.city.cost;
    super::markov::sieges(sc)
        .into_iter()
        .filter(|c| c.units == units && c.ends)
        .map(|c| {
            let per_pv = c.units_spent / c.city_pv as f64;
            CityCost {
                pv: c.city_pv,
                units,
                units_spent: c.units_spent,
                per_pv,
                falls: (1.0 - c.army_spent_first).max(0.0),
                worth_ep,
                over: per_pv > sc.tables.fair_units_per_pv + 1e-12,
            }
        })
        .collect()
}

/// A fight at sea against the same fight on land at equal base: naval
/// against army (fleet against fleet, army against army) and coastal
/// against siege (a building from the sea, a city by land).
#[derive(Clone, Debug, PartialEq)]
pub struct Parity {
    pub sea: CombatKind,
    pub land: CombatKind,
    /// Sea minus land: P(win) − P(lose), and the attacker's expected loss
    /// minus the defender's (each in its own table's units).
    pub chance_diff: f64,
    pub loss_diff: f64,
    /// Both within `tables.fair_sea_land`.
    pub alike: bool,
}

impl Parity {
    /// "naval as army" or whom the sea favours over the land, and by how much.
    pub fn words(&self) -> String {
        let (sea, land) = (self.sea.name(), self.land.name());
        if self.alike {
            return format!("{sea} as {land}");
        }
        let mut parts = Vec::new();
        if self.chance_diff.abs() > 1e-12 {
            parts.push(format!(
                "{:.1} points of P(win) − P(lose) {}",
                100.0 * self.chance_diff.abs(),
                if self.chance_diff > 0.0 { "more" } else { "less" }
            ));
        }
        // A smaller attacker-minus-defender loss at sea favours the attacker there.
        parts.push(format!(
            "an attacker's loss minus the defender's {:.2} {}",
            self.loss_diff.abs(),
            if self.loss_diff < 0.0 { "lower" } else { "higher" }
        ));
        let whom = if self.loss_diff < 0.0 || (self.loss_diff == 0.0 && self.chance_diff > 0.0) {
            "the attacker"
        } else {
            "the defender"
        };
        format!("{sea} favours {whom} over {land} at equal strength ({} at sea)", parts.join(", "))
    }
}

/// Sea against land (`Parity`) from the tables' verdicts; a pair with a
/// table missing is left out.
pub fn sea_land(sc: &Scenario, verdicts: &[Verdict]) -> Vec<Parity> {
    let of = |k: CombatKind| verdicts.iter().find(|v| v.kind == k);
    [(CombatKind::Naval, CombatKind::Army), (CombatKind::Coastal, CombatKind::Siege)]
        .into_iter()
        .filter_map(|(sea, land)| {
            let (s, l) = (of(sea)?, of(land)?);
            let (chance_diff, loss_diff) = (s.chance_gap - l.chance_gap, s.loss_gap - l.loss_gap);
            let tol = sc.tables.fair_sea_land + 1e-12;
            Some(Parity {
                sea,
                land,
                chance_diff,
                loss_diff,
                alike: chance_diff.abs() <= tol && loss_diff.abs() <= tol,
            })
        })
        .collect()
}

/// The criterion in words, with the scenario's tolerances.
pub fn criterion(sc: &Scenario) -> String {
    let t = &sc.tables;
    let chance = if t.fair_chance == 0.0 {
        "exactly as often".to_string()
    } else {
        format!("as often within {:.1} points", 100.0 * t.fair_chance)
    };
    format!(
        "fair means that at equal strength the attacker wins {chance} as it loses and both sides lose as much on \
         average within {} (in the table's own units), that more strength never lowers a side's chance nor \
         raises its losses, and that a siege by the chains' largest army ({} units) spends on average at most {} \
         (army units per city PV); sea and land alike means that naval and army, and coastal and siege, differ by at \
         most {} at equal strength (tables.fair_chance, tables.fair_loss, tables.fair_units_per_pv, \
         tables.fair_sea_land)",
        t.fair_loss, t.siege_army_units[1], t.fair_units_per_pv, t.fair_sea_land
    )
}

/// The verdict of one table on the criterion, from its exact cells.
pub fn verdict(sc: &Scenario, t: &Table) -> Verdict {
    let den = t.den as f64;
    let (mut chance_gap, mut a_loss, mut d_loss) = (0.0, 0.0, 0.0);
    // The noise depends only on a - d, so any a == d cell speaks for all.
    if let Some(c) = t.cells.iter().find(|c| c.attacker == c.defender) {
        chance_gap = (c.win as f64 - c.lose as f64) / den;
        (a_loss, d_loss) = (c.a_loss as f64 / den, c.d_loss as f64 / den);
    }
    let loss_gap = a_loss - d_loss;
    let tol = 1e-12;
    let chance_fair = chance_gap.abs() <= sc.tables.fair_chance + tol;
    let loss_fair = loss_gap.abs() <= sc.tables.fair_loss + tol;
    let hurts = t.cells.iter().find_map(|c| {
        let up = t.cell(c.attacker + 1, c.defender);
        let right = t.cell(c.attacker, c.defender + 1);
        let at = |x: &Cell| format!("attacker {}, defender {}", x.attacker, x.defender);
        if let Some(u) = up {
            if u.win < c.win {
                return Some(format!("the attacker's P(win) falls from {} to {}", at(c), at(u)));
            }
            if u.a_loss > c.a_loss {
                return Some(format!("the attacker's expected loss rises from {} to {}", at(c), at(u)));
            }
        }
        if let Some(r) = right {
            if r.win > c.win {
                return Some(format!("the attacker's P(win) rises from {} to {}", at(c), at(r)));
            }
            if r.d_loss > c.d_loss {
                return Some(format!("the defender's expected loss rises from {} to {}", at(c), at(r)));
            }
        }
        None
    });
    // Only a siege takes a city: its cost a PV is part of its verdict.
    let costly = (t.kind == CombatKind::Siege)
        .then(|| {
            city_costs(sc).into_iter().find(|c| c.over).map(|c| {
                format!(
                    "a {}-PV city costs an army of {} units {:.2} units, {:.2} a PV, more than {}",
                    c.pv, c.units, c.units_spent, c.per_pv, sc.tables.fair_units_per_pv
                )
            })
        })
        .flatten();
    let fair = chance_fair && loss_fair && hurts.is_none() && costly.is_none();
    Verdict {
        kind: t.kind,
        chance_gap,
        loss_gap,
        a_loss,
        d_loss,
        a_loss_unit: t.a_loss_unit,
        d_loss_unit: t.d_loss_unit,
        hurts,
        costly,
        chance_fair,
        loss_fair,
        fair,
    }
}
