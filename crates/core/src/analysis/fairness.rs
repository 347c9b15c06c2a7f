//! Fairness findings about each exact table, as numbers: who has the edge
//! at equal base, what one point of initiative bid is worth, rows that can
//! never be reached, rows that do the same thing, and whether the table
//! treats the two sides alike; and question 2's verdict on each table
//! (`verdict`), what a city costs to take (`city_costs`) and sea against
//! land (`sea_land`), each judged on the scenario's criterion. Structured
//! data only: the `empires` package's `report::fairness` words them.

use super::combat::{Cell, LossUnit, RowEffect, RowInfo, Table, effect};
use super::dice::{Distribution, difference};
use crate::rules::CombatKind;
use crate::scenario::{DiceExpr, Rate, Scenario};

/// One finding about one table, with its headline number when there is
/// one (a probability or a difference).
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub kind: CombatKind,
    pub found: Found,
    pub value: Option<f64>,
}

/// What a finding found.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// At equal base (the noise depends only on a − d, so any a == d cell
    /// speaks for all of them): P(the attacker wins), P(tie), P(it loses),
    /// and each side's expected loss in its own unit.
    EqualBase { win: f64, tie: f64, lose: f64, a_loss: f64, d_loss: f64, a_unit: LossUnit, d_unit: LossUnit },
    /// One point of bid (or any +1): P(win) at equal base and one point
    /// above, and the rise averaged over every cell with a neighbour one
    /// point up, in percentage points.
    BidValue { at: f64, above: f64, mean_points: f64 },
    /// A row (from 0) never hit anywhere on the grid with the die.
    UnreachableRow { row: usize, info: RowInfo, die: DiceExpr },
    /// Two rows (from 0) with the same effect.
    SameEffect { rows: [usize; 2], infos: [RowInfo; 2] },
    /// Swapping the two sides' bases swaps their chances and losses exactly.
    Symmetric,
    /// Swapping the sides changes a chance or an expected loss by up to
    /// `by`, first at this cell.
    Asymmetric { by: f64, attacker: i32, defender: i32 },
    /// The sides lose different things: each side's unit, and the row's
    /// effect at a gap of +g and −g, g from 0 to 4.
    ByDesign { a_unit: LossUnit, d_unit: LossUnit, effects: Vec<(i32, RowEffect, RowEffect)> },
}

impl Found {
    /// The finding's topic, a key of `tables.json`.
    pub fn topic(&self) -> &'static str {
        match self {
            Found::EqualBase { .. } => "equal_base",
            Found::BidValue { .. } => "bid_value",
            Found::UnreachableRow { .. } => "unreachable_row",
            Found::SameEffect { .. } => "same_effect",
            Found::Symmetric | Found::Asymmetric { .. } | Found::ByDesign { .. } => "symmetry",
        }
    }
}

fn p(n: u64, den: u64) -> f64 {
    n as f64 / den as f64
}

/// Every finding for one table.
pub fn findings(sc: &Scenario, t: &Table) -> Vec<Finding> {
    let mut out = Vec::new();
    let k = t.kind;
    let den = t.den;
    let mut push = |found, value| out.push(Finding { kind: k, found, value });

    if let Some(c) = t.cells.iter().find(|c| c.attacker == c.defender) {
        let (win, lose) = (p(c.win, den), p(c.lose, den));
        let (a_loss, d_loss) = (c.a_loss as f64 / den as f64, c.d_loss as f64 / den as f64);
        let (a_unit, d_unit) = (t.a_loss_unit, t.d_loss_unit);
        push(Found::EqualBase { win, tie: p(c.tie, den), lose, a_loss, d_loss, a_unit, d_unit }, Some(win - lose));
    }

    let step = t.cells.iter().find_map(|c| {
        (c.attacker == c.defender).then(|| t.cell(c.attacker + 1, c.defender).map(|up| (c, up))).flatten()
    });
    if let Some((c, up)) = step {
        let (at, above) = (p(c.win, den), p(up.win, den));
        let mut sum = 0.0;
        let mut n = 0;
        for c in &t.cells {
            if let Some(u) = t.cell(c.attacker + 1, c.defender) {
                sum += (u.win as f64 - c.win as f64) / den as f64;
                n += 1;
            }
        }
        push(Found::BidValue { at, above, mean_points: 100.0 * sum / n.max(1) as f64 }, Some(above - at));
    }

    for (i, r) in t.rows.iter().enumerate() {
        if t.cells.iter().all(|c| c.rows[i] == 0) {
            push(Found::UnreachableRow { row: i, info: r.clone(), die: sc.combat.die }, None);
        }
    }

    for i in 0..t.rows.len() {
        for j in i + 1..t.rows.len() {
            if t.rows[i].effect == t.rows[j].effect {
                let infos = [t.rows[i].clone(), t.rows[j].clone()];
                push(Found::SameEffect { rows: [i, j], infos }, None);
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
                None => push(Found::Symmetric, Some(0.0)),
                Some((by, c)) => push(Found::Asymmetric { by, attacker: c.attacker, defender: c.defender }, Some(by)),
            }
        }
        CombatKind::Siege | CombatKind::Spy | CombatKind::Coastal => {
            let effects = (0..=4)
                .map(|g| {
                    let (ra, _, _) = effect(sc, k, g);
                    let (rb, _, _) = effect(sc, k, -g);
                    (g, t.rows[ra].effect, t.rows[rb].effect)
                })
                .collect();
            push(Found::ByDesign { a_unit: t.a_loss_unit, d_unit: t.d_loss_unit, effects }, None);
        }
    }
    out
}

/// The `tables.exchange` rates that price the attacker's and the
/// defender's losses of a kind's table in the common unit.
pub fn rates(sc: &Scenario, kind: CombatKind) -> [Rate; 2] {
    let [army, city, ship, building, spy, action] = sc.tables.exchange.rates();
    match kind {
        CombatKind::Army => [army, army],
        CombatKind::Siege => [army, city],
        CombatKind::Naval => [ship, ship],
        CombatKind::Coastal => [ship, building],
        CombatKind::Spy => [spy, action],
        CombatKind::SpyDuel => [spy, spy],
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
    let [a, d] = rates(sc, kind);
    let (mut ahead, mut behind, mut a_sum, mut d_sum) = (0u64, 0u64, 0i64, 0i64);
    for &(x, n) in &noise.values {
        let (_, al, dl) = effect(sc, kind, x as i32);
        let (wa, wd) = (al as f64 * a.value, dl as f64 * d.value);
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
        a_worth: a_loss * a.value,
        d_worth: d_loss * d.value,
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
    pub a_loss_unit: LossUnit,
    pub d_loss_unit: LossUnit,
    /// The rates of the attacker's and the defender's losses.
    pub rates: [Rate; 2],
    /// The common unit's name (`tables.exchange.unit`).
    pub unit: String,
    /// The first cell where more base hurts its side.
    pub hurts: Option<Hurt>,
    /// The first pair of gaps where a bigger gap costs the winner more or
    /// the loser less (`monotone_rows`).
    pub rows_break: Option<RowsBreak>,
    /// Siege only: the city costs when the worst cell is over
    /// `tables.fair_units_per_pv` (`dearest`).
    pub costly: Option<Dearest>,
    /// Each part of the criterion, and all of them.
    pub edge_fair: bool,
    pub loss_fair: bool,
    pub fair: bool,
}

/// Where more base hurts the side that has it: one more point for the
/// attacker (`from` to `to` raises the attacker's base) lowers its chance
/// to win or raises its expected loss, or one more for the defender raises
/// the attacker's chance or the defender's expected loss.
#[derive(Clone, Debug, PartialEq)]
pub struct Hurt {
    pub what: HurtWhat,
    /// (attacker base, defender base) before and after the point.
    pub from: (i32, i32),
    pub to: (i32, i32),
}

/// What more base did at a `Hurt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HurtWhat {
    AttackerWinFalls,
    AttackerLossRises,
    AttackerWinRises,
    DefenderLossRises,
}

/// Where a bigger gap costs the winner more or the loser less: gap `big`
/// costs the side `big_cost`, gap `small` (one less) costs it
/// `small_cost`, in the side's own unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowsBreak {
    pub kind: CombatKind,
    /// The side that pays: the defender, or the attacker.
    pub defender: bool,
    /// The side pays as the winner (more), or as the loser (less).
    pub winner: bool,
    pub big: i32,
    pub big_cost: i64,
    pub small: i32,
    pub small_cost: i64,
}

/// The first place where a bigger gap costs the winner more or the loser
/// less, over every gap the table's grid reaches with the die (both
/// signs): as the gap grows the attacker's loss never rises and the
/// defender's never falls. Above 0 the attacker wins, below it the
/// defender does, which says who is the winner and who the loser.
pub fn monotone_rows(sc: &Scenario, t: &Table, noise: &Distribution) -> Option<RowsBreak> {
    let (Some(&a_lo), Some(&a_hi)) = (t.attackers.iter().min(), t.attackers.iter().max()) else { return None };
    let (Some(&d_lo), Some(&d_hi)) = (t.defenders.iter().min(), t.defenders.iter().max()) else { return None };
    let (Some(&(x_lo, _)), Some(&(x_hi, _))) = (noise.values.first(), noise.values.last()) else { return None };
    let (lo, hi) = (a_lo - d_hi + x_lo as i32, a_hi - d_lo + x_hi as i32);
    let kind = t.kind;
    (lo..hi).find_map(|g| {
        let (_, a0, d0) = effect(sc, kind, g);
        let (_, a1, d1) = effect(sc, kind, g + 1);
        let at = |defender, big, big_cost, small, small_cost, winner| RowsBreak {
            kind,
            defender,
            winner,
            big,
            big_cost,
            small,
            small_cost,
        };
        if d1 < d0 {
            // At g + 1 above 0 the defender loses; at or below 0 it wins (or
            // ties) by more at g.
            return Some(if g + 1 > 0 { at(true, g + 1, d1, g, d0, false) } else { at(true, g, d0, g + 1, d1, true) });
        }
        if a1 > a0 {
            return Some(if g >= 0 { at(false, g + 1, a1, g, a0, true) } else { at(false, g, a0, g + 1, a1, false) });
        }
        None
    })
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

/// The city costs as the siege verdict judges them: the worst cell, the
/// criterion's limit (`tables.fair_units_per_pv`), and, when no army of
/// the worst cell takes its city, how many cells never take theirs and the
/// dearest city that is taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Dearest {
    pub worst: CityCost,
    pub limit: f64,
    /// Cells whose city is never taken, of `cells`.
    pub never: usize,
    pub cells: usize,
    /// The dearest cell whose city is taken, when the worst is not.
    pub taken: Option<CityCost>,
}

/// `Dearest` over the cells of `city_costs`; `None` with no cell.
pub fn dearest(sc: &Scenario, costs: &[CityCost]) -> Option<Dearest> {
    let worst = worst_city(costs)?.clone();
    let limit = sc.tables.fair_units_per_pv;
    if worst.per_pv.is_finite() {
        return Some(Dearest { worst, limit, never: 0, cells: costs.len(), taken: None });
    }
    let never = costs.iter().filter(|c| !c.per_pv.is_finite()).count();
    let taken: Vec<CityCost> = costs.iter().filter(|c| c.per_pv.is_finite()).cloned().collect();
    Some(Dearest { worst, limit, never, cells: costs.len(), taken: worst_city(&taken).cloned() })
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
        let hurt = |what, x: &Cell| Some(Hurt { what, from: (c.attacker, c.defender), to: (x.attacker, x.defender) });
        if let Some(u) = t.cell(c.attacker + 1, c.defender) {
            if u.win < c.win {
                return hurt(HurtWhat::AttackerWinFalls, u);
            }
            if u.a_loss > c.a_loss {
                return hurt(HurtWhat::AttackerLossRises, u);
            }
        }
        if let Some(r) = t.cell(c.attacker, c.defender + 1) {
            if r.win > c.win {
                return hurt(HurtWhat::AttackerWinRises, r);
            }
            if r.d_loss > c.d_loss {
                return hurt(HurtWhat::DefenderLossRises, r);
            }
        }
        None
    });
    let rows_break = monotone_rows(sc, t, &noise);
    // Only a siege takes a city: its cost a PV is part of its verdict.
    let costly = (t.kind == CombatKind::Siege)
        .then(|| {
            let costs = city_costs(sc);
            worst_city(&costs).is_some_and(|w| w.over).then(|| dearest(sc, &costs)).flatten()
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
        rates: rates(sc, t.kind),
        unit: sc.tables.exchange.unit.clone(),
        hurts,
        rows_break,
        costly,
        edge_fair,
        loss_fair,
        fair,
    }
}
