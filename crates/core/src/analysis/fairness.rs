//! Fairness findings about each exact table, in plain words with their
//! numbers: who has the edge at equal base, what one point of initiative bid
//! is worth, rows that can never be reached, rows that do the same thing,
//! and whether the table treats the two sides alike; and question 2's
//! verdict on each table (`verdict`), what a city costs to take
//! (`city_costs`) and sea against land (`sea_land`), each judged on the
//! scenario's criterion (`criterion`).

use super::combat::{Cell, Table, effect};
use super::dice::{Distribution, difference};
use crate::rules::CombatKind;
use crate::scenario::{Rate, Scenario};
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

/// One side of a table: who it is, what it loses (one and many, for
/// words), and the `tables.exchange` rate that prices its losses in the
/// common unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Side {
    pub who: &'static str,
    pub one: &'static str,
    pub many: &'static str,
    pub rate: Rate,
}

impl Side {
    /// `n` of what this side loses, in words: "1 unit", "4 PV".
    fn count(&self, n: i64) -> String {
        format!("{n} {}", if n == 1 { self.one } else { self.many })
    }
}

/// The attacker's and the defender's side of a kind's table.
pub fn sides(sc: &Scenario, kind: CombatKind) -> [Side; 2] {
    let [army, city, ship, building, spy, action] = sc.tables.exchange.rates();
    let s = |who, one, many, rate| Side { who, one, many, rate };
    match kind {
        CombatKind::Army => [s("the attacker", "unit", "units", army), s("the defender", "unit", "units", army)],
        CombatKind::Siege => [s("the army", "unit", "units", army), s("the city", "PV", "PV", city)],
        CombatKind::Naval => {
            [s("the attacker", "ship PV", "ship PV", ship), s("the defender", "ship PV", "ship PV", ship)]
        }
        CombatKind::Coastal => [s("the fleet", "ship PV", "ship PV", ship), s("the building", "PV", "PV", building)],
        CombatKind::Spy => {
            [s("the spy", "spy", "spies", spy), s("the target", "action that works", "actions that work", action)]
        }
        CombatKind::SpyDuel => [s("the attacker", "spy", "spies", spy), s("the defender", "spy", "spies", spy)],
    }
}

/// One fight at equal base, exactly: the gap is then the die difference
/// alone, so every face pair is enumerated without a grid cell (and a grid
/// with no equal bases is judged all the same).
#[derive(Clone, Debug, PartialEq)]
pub struct EqualBase {
    /// P(the defender loses more than the attacker, both in the common
    /// unit): the attacker comes out ahead; and the reverse.
    pub ahead: f64,
    pub behind: f64,
    /// Expected losses in each side's own units (`Table::a_loss_unit`).
    pub a_loss: f64,
    pub d_loss: f64,
    /// The same in the common unit (`tables.exchange`).
    pub a_worth: f64,
    pub d_worth: f64,
}

fn equal_base(sc: &Scenario, kind: CombatKind, noise: &Distribution) -> EqualBase {
    let [a, d] = sides(sc, kind);
    let (mut ahead, mut behind, mut a_sum, mut d_sum) = (0u64, 0u64, 0i64, 0i64);
    for &(x, n) in &noise.values {
        let (_, al, dl) = effect(sc, kind, x as i32);
        let (wa, wd) = (al as f64 * a.rate.value, dl as f64 * d.rate.value);
        // Two losses worth the same may differ in the last bit once priced.
        let tol = 1e-9 * wa.abs().max(wd.abs()).max(1.0);
        if wd > wa + tol {
            ahead += n;
        } else if wa > wd + tol {
            behind += n;
        }
        a_sum += al * n as i64;
        d_sum += dl * n as i64;
    }
    let den = noise.total as f64;
    let (a_loss, d_loss) = (a_sum as f64 / den, d_sum as f64 / den);
    EqualBase {
        ahead: ahead as f64 / den,
        behind: behind as f64 / den,
        a_loss,
        d_loss,
        a_worth: a_loss * a.rate.value,
        d_worth: d_loss * d.rate.value,
    }
}

/// Question 2's criterion for one table, judged exactly, with both sides'
/// losses in `tables.exchange`'s common unit: at equal base the attacker
/// comes out ahead (loses less than the defender) as often as behind
/// (within `tables.fair_chance`) and both sides lose as much on average
/// (within `tables.fair_loss`); more base never hurts the side that has it
/// (one more point for the attacker never lowers its chance to win nor
/// raises its expected loss, and one more for the defender never raises
/// the attacker's chance nor the defender's expected loss); a bigger gap
/// never costs the winner more nor the loser less (the rows, over every gap
/// the grid reaches); and, for a siege, a city costs at most
/// `tables.fair_units_per_pv` army units a PV at every cell of the chains.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub kind: CombatKind,
    pub equal: EqualBase,
    /// P(the attacker comes out ahead) − P(it comes out behind), at equal base.
    pub edge: f64,
    /// Expected attacker loss − expected defender loss at equal base, in
    /// the common unit.
    pub loss_gap: f64,
    pub a_loss_unit: &'static str,
    pub d_loss_unit: &'static str,
    /// The sides, with their rates.
    pub sides: [Side; 2],
    /// The common unit's name (`tables.exchange.unit`).
    pub unit: String,
    /// The first cell where more base hurts its side, in words.
    pub hurts: Option<String>,
    /// The first pair of gaps where a bigger gap costs the winner more or
    /// the loser less, in words (`monotone_rows`).
    pub rows_break: Option<String>,
    /// Siege only: the worst cell of the city costs when it is over
    /// `tables.fair_units_per_pv`, in words (`city_costs`).
    pub costly: Option<String>,
    /// Each part of the criterion, and all of them.
    pub edge_fair: bool,
    pub loss_fair: bool,
    pub fair: bool,
}

impl Verdict {
    /// "fair by ..." or each part that fails, with its numbers.
    pub fn words(&self) -> String {
        let [a, d] = &self.sides;
        let mut parts = Vec::new();
        if !self.edge_fair {
            let (fav, other, p_fav, p_other) = if self.edge > 0.0 {
                ("the attacker", "the defender", self.equal.ahead, self.equal.behind)
            } else {
                ("the defender", "the attacker", self.equal.behind, self.equal.ahead)
            };
            parts.push(format!(
                "{fav} comes out ahead more often at equal strength: it loses less than {other} on {} of face \
                 pairs, {other} on {} ({:.1} points)",
                pct(p_fav),
                pct(p_other),
                100.0 * self.edge.abs()
            ));
        }
        if !self.loss_fair {
            // The attacker losing more favours the defender.
            let fav = if self.loss_gap > 0.0 { "the defender" } else { "the attacker" };
            let side = |who: &str, x: f64, unit: &str, worth: f64, s: &Side| {
                let priced = if unit == self.unit && s.rate.value == 1.0 {
                    String::new()
                } else {
                    format!(" = {worth:.2} {}", self.unit)
                };
                format!("{who} {x:.2} {unit}{priced}")
            };
            parts.push(format!(
                "{fav} loses {:.2} {} less on average at equal strength ({}, {})",
                self.loss_gap.abs(),
                self.unit,
                side("the attacker", self.equal.a_loss, self.a_loss_unit, self.equal.a_worth, a),
                side("the defender", self.equal.d_loss, self.d_loss_unit, self.equal.d_worth, d)
            ));
        }
        if let Some(h) = &self.hurts {
            parts.push(format!("more strength hurts ({h})"));
        }
        if let Some(r) = &self.rows_break {
            parts.push(r.clone());
        }
        if let Some(c) = &self.costly {
            parts.push(format!("a city costs too many units ({c})"));
        }
        if parts.is_empty() { "fair by the criterion".into() } else { parts.join("; ") }
    }

    /// The verdict in a few words, for a table's column: "fair", or each
    /// part that fails.
    pub fn short(&self) -> String {
        let side = |x: f64| if x > 0.0 { "favours the attacker" } else { "favours the defender" };
        let parts = [
            (!self.edge_fair).then(|| side(self.edge)),
            (!self.loss_fair).then(|| side(-self.loss_gap)),
            self.hurts.as_ref().map(|_| "more strength hurts"),
            self.rows_break.as_ref().map(|_| "a bigger gap pays less"),
            self.costly.as_ref().map(|_| "a city costs too many units"),
        ];
        let mut said: Vec<&str> = Vec::new();
        for p in parts.into_iter().flatten() {
            if !said.contains(&p) {
                said.push(p);
            }
        }
        if said.is_empty() { "fair".into() } else { said.join(", ") }
    }
}

/// The first place where a bigger gap costs the winner more or the loser
/// less, in words, over every gap the table's grid reaches with the die
/// (both signs): as the gap grows the attacker's loss never rises and the
/// defender's never falls. Above 0 the attacker wins, below it the
/// defender does, so the words name the winner and the loser.
pub fn monotone_rows(sc: &Scenario, t: &Table, noise: &Distribution) -> Option<String> {
    let (Some(&a_lo), Some(&a_hi)) = (t.attackers.iter().min(), t.attackers.iter().max()) else { return None };
    let (Some(&d_lo), Some(&d_hi)) = (t.defenders.iter().min(), t.defenders.iter().max()) else { return None };
    let (Some(&(x_lo, _)), Some(&(x_hi, _))) = (noise.values.first(), noise.values.last()) else { return None };
    let (lo, hi) = (a_lo - d_hi + x_lo as i32, a_hi - d_lo + x_hi as i32);
    let [a, d] = sides(sc, t.kind);
    (lo..hi).find_map(|g| {
        let (_, a0, d0) = effect(sc, t.kind, g);
        let (_, a1, d1) = effect(sc, t.kind, g + 1);
        let at = |s: &Side, big: i32, x: i64, small: i32, y: i64, what: &str| {
            format!("a bigger gap costs the {what}: gap {big} costs {} {}, gap {small} costs it {y}", s.who, s.count(x))
        };
        if d1 < d0 {
            // At g + 1 above 0 the defender loses; at or below 0 it wins (or
            // ties) by more at g.
            return Some(if g + 1 > 0 {
                at(&d, g + 1, d1, g, d0, "loser less")
            } else {
                at(&d, g, d0, g + 1, d1, "winner more")
            });
        }
        if a1 > a0 {
            return Some(if g >= 0 {
                at(&a, g + 1, a1, g, a0, "winner more")
            } else {
                at(&a, g, a0, g + 1, a1, "loser less")
            });
        }
        None
    })
}

/// `n` army units in words: "1 unit", "8 units".
pub fn units(n: i32) -> String {
    format!("{n} unit{}", if n == 1 { "" } else { "s" })
}

/// What taking a city costs at one cell of the siege chains: an army of
/// `units` (+`tables.siege_army_extra`) assaults a city of `pv` PV (base
/// `tables.siege_city_base`) until the city falls or the army is spent
/// (`markov::sieges`).
#[derive(Clone, Debug, PartialEq)]
pub struct CityCost {
    pub pv: i32,
    /// The army's units at the start.
    pub units: i32,
    /// Expected army units spent, the city taken or not.
    pub units_spent: f64,
    /// P(the city falls), exactly 0 when no roll takes it.
    pub falls: f64,
    /// Units spent for each city taken, per PV: `units_spent / (falls ×
    /// pv)`. Infinite when the city never falls or the siege may never end.
    pub per_pv: f64,
    /// False when some state can loop forever (`SiegeEnd::ends`).
    pub ends: bool,
    /// What a city is worth in EP: a castle and a city built on it
    /// (E-14), the EP way to own one.
    pub worth_ep: i32,
    /// More than `tables.fair_units_per_pv` units a PV.
    pub over: bool,
}

/// A small chance with the digits it needs (`0.69%`), as the report
/// layer's `number::pct_small` prints it; the words are built here, in
/// core, until presentation leaves it.
fn small_pct(x: f64) -> String {
    let p = 100.0 * x;
    let digits = if p == 0.0 || p >= 1.0 { 1 } else { (1.0 - p.log10().floor()) as usize };
    format!("{p:.digits$}%")
}

impl CityCost {
    /// This cell in words.
    pub fn words(&self) -> String {
        let army = format!("an army of {}", units(self.units));
        if !self.ends {
            format!("a siege of a {}-PV city by {army} may never end", self.pv)
        } else if self.falls == 0.0 {
            format!("{army} never takes a {}-PV city", self.pv)
        } else {
            format!(
                "a {}-PV city costs {army} {:.2} units a PV for each city taken, as it falls {} of the time for \
                 {:.2} units spent on average",
                self.pv,
                self.per_pv,
                small_pct(self.falls),
                self.units_spent
            )
        }
    }
}

/// What taking a city costs at every cell of the siege chains' grid
/// (`tables.siege_city_pv` × `tables.siege_army_units`), PV-major as
/// `markov::sieges` lists them.
pub fn city_costs(sc: &Scenario) -> Vec<CityCost> {
    let worth_ep = sc.buildings.castle.cost + sc.buildings.city.cost;
    super::markov::sieges(sc)
        .into_iter()
        .map(|c| {
            let taken = c.ends && c.falls > 0.0;
            let per_pv = if taken { c.units_spent / (c.falls * c.city_pv as f64) } else { f64::INFINITY };
            CityCost {
                pv: c.city_pv,
                units: c.units,
                units_spent: c.units_spent,
                falls: c.falls,
                per_pv,
                ends: c.ends,
                worth_ep,
                over: per_pv > sc.tables.fair_units_per_pv + 1e-12,
            }
        })
        .collect()
}

/// The dearest cell: the most units a PV for each city taken (a city never
/// taken, or a siege that may never end, first), the first in grid order
/// on a tie.
pub fn worst_city(costs: &[CityCost]) -> Option<&CityCost> {
    costs.iter().fold(None, |w: Option<&CityCost>, c| match w {
        Some(w) if w.per_pv >= c.per_pv => Some(w),
        _ => Some(c),
    })
}

/// The city-cost part of the siege verdict in words: the worst cell and,
/// when no army of it takes its city, the dearest city that is taken and
/// how many cells are never taken.
pub fn city_cost_words(sc: &Scenario, costs: &[CityCost]) -> Option<String> {
    let worst = worst_city(costs)?;
    let tol = sc.tables.fair_units_per_pv;
    if worst.per_pv.is_finite() {
        return Some(format!("the worst cell: {}, more than {tol}", worst.words()));
    }
    let never = costs.iter().filter(|c| !c.per_pv.is_finite()).count();
    let taken: Vec<CityCost> = costs.iter().filter(|c| c.per_pv.is_finite()).cloned().collect();
    let dearest = worst_city(&taken).map_or(String::new(), |c| format!("; the dearest city taken: {}", c.words()));
    Some(format!(
        "the worst cell: {}; no city is taken at {never} of the {} cells{dearest}",
        worst.words(),
        costs.len()
    ))
}

/// A fight at sea against the same fight on land at equal base: naval
/// against army (fleet against fleet, army against army) and coastal
/// against siege (a building from the sea, a city by land), in the common
/// unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Parity {
    pub sea: CombatKind,
    pub land: CombatKind,
    /// Sea minus land: the attacker's edge (`Verdict::edge`) and its
    /// expected loss minus the defender's (`Verdict::loss_gap`).
    pub edge_diff: f64,
    pub loss_diff: f64,
    /// The common unit's name.
    pub unit: String,
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
        if self.edge_diff.abs() > 1e-12 {
            parts.push(format!(
                "the attacker's chance to come out ahead minus behind {:.1} points {}",
                100.0 * self.edge_diff.abs(),
                if self.edge_diff > 0.0 { "higher" } else { "lower" }
            ));
        }
        if self.loss_diff.abs() > 1e-12 {
            parts.push(format!(
                "an attacker's loss minus the defender's {:.2} {} {}",
                self.loss_diff.abs(),
                self.unit,
                if self.loss_diff < 0.0 { "lower" } else { "higher" }
            ));
        }
        // A higher edge and a lower loss gap at sea both favour the attacker
        // there; when they point apart, the sea favours neither.
        let (up, down) =
            (self.edge_diff > 1e-12 || self.loss_diff < -1e-12, self.edge_diff < -1e-12 || self.loss_diff > 1e-12);
        let what = match (up, down) {
            (true, false) => format!("{sea} favours the attacker over {land}"),
            (false, true) => format!("{sea} favours the defender over {land}"),
            _ => format!("{sea} differs from {land}"),
        };
        format!("{what} at equal strength ({} at sea)", parts.join(", "))
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
            let (edge_diff, loss_diff) = (s.edge - l.edge, s.loss_gap - l.loss_gap);
            let tol = sc.tables.fair_sea_land + 1e-12;
            Some(Parity {
                sea,
                land,
                edge_diff,
                loss_diff,
                unit: sc.tables.exchange.unit.clone(),
                alike: edge_diff.abs() <= tol && loss_diff.abs() <= tol,
            })
        })
        .collect()
}

/// The exchange rates in words: "an army unit 1, a city PV 1, ...".
pub fn rates_words(sc: &Scenario) -> String {
    let r: Vec<String> = sc.tables.exchange.rates().iter().map(|r| format!("{} {}", r.what, r.value)).collect();
    r.join(", ")
}

/// The criterion in words, with the scenario's tolerances and rates.
pub fn criterion(sc: &Scenario) -> String {
    let t = &sc.tables;
    let chance = if t.fair_chance == 0.0 {
        "exactly as often".to_string()
    } else {
        format!("as often within {:.1} points", 100.0 * t.fair_chance)
    };
    let units = |x: f64| format!("{x} army unit{}", if x == 1.0 { "" } else { "s" });
    format!(
        "fair means that, at equal strength and with both sides' losses in {unit} ({rates}: tables.exchange), the \
         attacker loses less than the defender {chance} as more (tables.fair_chance) and as much on average within \
         {loss} (tables.fair_loss); that more strength never lowers a side's chance nor raises its losses; that a \
         bigger gap never costs the winner more nor the loser less (each table's rows, over the gaps its grid \
         reaches); and that a siege spends at most {per_pv} a PV for each city it takes, at every army of {u0} to \
         {u1} units (+{extra}) against every city of {p0} to {p1} PV (base {base}) of the siege chains \
         (tables.fair_units_per_pv); sea and land alike means that naval and army, and coastal and siege, differ in \
         both by at most {sea} at equal strength (tables.fair_sea_land)",
        unit = t.exchange.unit,
        rates = rates_words(sc),
        loss = t.fair_loss,
        per_pv = units(t.fair_units_per_pv),
        u0 = t.siege_army_units[0],
        u1 = t.siege_army_units[1],
        extra = t.siege_army_extra,
        p0 = t.siege_city_pv[0],
        p1 = t.siege_city_pv[1],
        base = t.siege_city_base,
        sea = t.fair_sea_land
    )
}

/// The verdict of one table on the criterion, from its exact cells.
pub fn verdict(sc: &Scenario, t: &Table) -> Verdict {
    let noise = difference(&sc.combat.die);
    let equal = equal_base(sc, t.kind, &noise);
    let edge = equal.ahead - equal.behind;
    let loss_gap = equal.a_worth - equal.d_worth;
    let tol = 1e-12;
    let edge_fair = edge.abs() <= sc.tables.fair_chance + tol;
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
    let rows_break = monotone_rows(sc, t, &noise);
    // Only a siege takes a city: its cost a PV is part of its verdict.
    let costly = (t.kind == CombatKind::Siege)
        .then(|| {
            let costs = city_costs(sc);
            worst_city(&costs).is_some_and(|w| w.over).then(|| city_cost_words(sc, &costs)).flatten()
        })
        .flatten();
    let fair = edge_fair && loss_fair && hurts.is_none() && rows_break.is_none() && costly.is_none();
    Verdict {
        kind: t.kind,
        equal,
        edge,
        loss_gap,
        a_loss_unit: t.a_loss_unit,
        d_loss_unit: t.d_loss_unit,
        sides: sides(sc, t.kind),
        unit: sc.tables.exchange.unit.clone(),
        hurts,
        rows_break,
        costly,
        edge_fair,
        loss_fair,
        fair,
    }
}
