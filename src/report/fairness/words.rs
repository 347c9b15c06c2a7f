//! Question 2's findings in words: the core's fairness analysis
//! (`analysis::fairness`) states each finding and verdict as numbers, and
//! this module words them, once, for the text, the page and the JSON.

use crate::analysis::combat::{LossUnit, RowEffect, RowInfo};
use crate::analysis::fairness::{CityCost, Dearest, Finding, Found, Hurt, HurtWhat, Parity, RowsBreak, Verdict};
use crate::report::number::{pct, pct_small};
use crate::rules::CombatKind;
use crate::scenario::Scenario;

/// A fairness finding or verdict in the tool's words.
pub trait Words {
    fn words(&self) -> String;
}

impl Words for Finding {
    fn words(&self) -> String {
        match &self.found {
            Found::EqualBase { win, tie, lose, a_loss, d_loss, a_unit, d_unit } => {
                let (a_unit, d_unit) = (unit(*a_unit), unit(*d_unit));
                let verdict = if win > lose {
                    "the attacker has the edge"
                } else if win < lose {
                    "the defender has the edge"
                } else {
                    "neither side is more likely to win"
                };
                format!(
                    "at equal base {verdict}: the attacker wins {}, ties {}, loses {}; on average it loses {a_loss:.3} \
                     {a_unit} and the defender {d_loss:.3} {d_unit}",
                    pct(*win),
                    pct(*tie),
                    pct(*lose)
                )
            }
            Found::BidValue { at, above, mean_points } => {
                let what = if self.kind == CombatKind::SpyDuel {
                    "one more point of bid"
                } else {
                    "one point of initiative bid (or any +1)"
                };
                format!(
                    "{what} is worth {:+.1} points of P(win) at equal base ({} to {}), {mean_points:+.1} on average \
                     over the grid",
                    100.0 * (above - at),
                    pct(*at),
                    pct(*above)
                )
            }
            Found::UnreachableRow { row, info, die } => format!(
                "row {} (gap {}: {}) is never reached on this grid with the {die} die",
                row + 1,
                gaps(info),
                effect(info.effect)
            ),
            Found::SameEffect { rows, infos } => format!(
                "rows {} (gap {}) and {} (gap {}) have the same effect: {}",
                rows[0] + 1,
                gaps(&infos[0]),
                rows[1] + 1,
                gaps(&infos[1]),
                effect(infos[0].effect)
            ),
            Found::Symmetric => {
                "symmetric: swapping the two sides' bases swaps their chances and losses exactly".into()
            }
            Found::Asymmetric { by, attacker, defender } => format!(
                "not symmetric: swapping the sides changes a chance or an expected loss by up to {by:.3} (at \
                 attacker {attacker}, defender {defender})"
            ),
            Found::ByDesign { a_unit, d_unit, effects } => {
                let lines: Vec<String> = effects
                    .iter()
                    .map(|&(g, up, down)| {
                        let (up, down) = (effect(up), effect(down));
                        if g == 0 { format!("gap 0: {up}") } else { format!("+{g}: {up} / -{g}: {down}") }
                    })
                    .collect();
                format!(
                    "not symmetric by design: the attacker risks {} and the defender {}; {}",
                    unit(*a_unit),
                    unit(*d_unit),
                    lines.join("; ")
                )
            }
        }
    }
}

/// Each side of a kind's table in words: who it is, and what it loses,
/// one and many ("1 unit", "4 PV").
fn sides(kind: CombatKind) -> [(&'static str, &'static str, &'static str); 2] {
    match kind {
        CombatKind::Army => [("the attacker", "unit", "units"), ("the defender", "unit", "units")],
        CombatKind::Siege => [("the army", "unit", "units"), ("the city", "PV", "PV")],
        CombatKind::Naval => [("the attacker", "ship PV", "ship PV"), ("the defender", "ship PV", "ship PV")],
        CombatKind::Coastal => [("the fleet", "ship PV", "ship PV"), ("the building", "PV", "PV")],
        CombatKind::Spy => [("the spy", "spy", "spies"), ("the target", "action that works", "actions that work")],
        CombatKind::SpyDuel => [("the attacker", "spy", "spies"), ("the defender", "spy", "spies")],
    }
}

impl Words for RowsBreak {
    fn words(&self) -> String {
        let (who, one, many) = sides(self.kind)[usize::from(self.defender)];
        let what = if self.winner { "winner more" } else { "loser less" };
        format!(
            "a bigger gap costs the {what}: gap {} costs {who} {} {}, gap {} costs it {}",
            self.big,
            self.big_cost,
            if self.big_cost == 1 { one } else { many },
            self.small,
            self.small_cost
        )
    }
}

impl Words for Hurt {
    fn words(&self) -> String {
        let what = match self.what {
            HurtWhat::AttackerWinFalls => "the attacker's P(win) falls",
            HurtWhat::AttackerLossRises => "the attacker's expected loss rises",
            HurtWhat::AttackerWinRises => "the attacker's P(win) rises",
            HurtWhat::DefenderLossRises => "the defender's expected loss rises",
        };
        let at = |(a, d): (i32, i32)| format!("attacker {a}, defender {d}");
        format!("{what} from {} to {}", at(self.from), at(self.to))
    }
}

impl Words for Verdict {
    /// "fair by the criterion" or each part that fails, with its numbers.
    fn words(&self) -> String {
        let [a, d] = &self.rates;
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
            let side = |who: &str, x: f64, u: LossUnit, worth: f64, rate: f64| {
                let unit = unit(u);
                let priced = if unit == self.unit && rate == 1.0 {
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
                side("the attacker", self.equal.a_loss, self.a_loss_unit, self.equal.a_worth, a.value),
                side("the defender", self.equal.d_loss, self.d_loss_unit, self.equal.d_worth, d.value)
            ));
        }
        if let Some(h) = &self.hurts {
            parts.push(format!("more strength hurts ({})", h.words()));
        }
        if let Some(r) = &self.rows_break {
            parts.push(r.words());
        }
        if let Some(c) = &self.costly {
            parts.push(format!("a city costs too many units ({})", c.words()));
        }
        if parts.is_empty() { "fair by the criterion".into() } else { parts.join("; ") }
    }
}

/// A verdict in a few words, for a table's column: "fair", or each part
/// that fails.
pub fn short(v: &Verdict) -> String {
    let side = |x: f64| if x > 0.0 { "favours the attacker" } else { "favours the defender" };
    let parts = [
        (!v.edge_fair).then(|| side(v.edge)),
        (!v.loss_fair).then(|| side(-v.loss_gap)),
        v.hurts.as_ref().map(|_| "more strength hurts"),
        v.rows_break.as_ref().map(|_| "a bigger gap pays less"),
        v.costly.as_ref().map(|_| "a city costs too many units"),
    ];
    let mut said: Vec<&str> = Vec::new();
    for p in parts.into_iter().flatten() {
        if !said.contains(&p) {
            said.push(p);
        }
    }
    if said.is_empty() { "fair".into() } else { said.join(", ") }
}

/// `n` army units in words: "1 unit", "8 units".
pub fn units(n: i32) -> String {
    format!("{n} unit{}", if n == 1 { "" } else { "s" })
}

impl Words for CityCost {
    fn words(&self) -> String {
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
                pct_small(self.falls),
                self.units_spent
            )
        }
    }
}

impl Words for Dearest {
    /// The city-cost part of the siege verdict: the worst cell and, when no
    /// army of it takes its city, the dearest city that is taken and how
    /// many cells are never taken.
    fn words(&self) -> String {
        if self.worst.per_pv.is_finite() {
            return format!("the worst cell: {}, more than {}", self.worst.words(), self.limit);
        }
        let taken = self.taken.as_ref().map_or(String::new(), |c| format!("; the dearest city taken: {}", c.words()));
        format!(
            "the worst cell: {}; no city is taken at {} of the {} cells{taken}",
            self.worst.words(),
            self.never,
            self.cells
        )
    }
}

impl Words for Parity {
    /// "naval as army" or whom the sea favours over the land, and by how much.
    fn words(&self) -> String {
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

/// The gaps a table's row covers: `3`, `1 to 2`, `5 and above`.
pub fn gaps(r: &RowInfo) -> String {
    crate::scenario::table::describe(r.from, r.to)
}

/// What a table's row does.
pub fn effect(e: RowEffect) -> String {
    let yes = |b: bool, y: &str, n: &str| if b { y } else { n }.to_string();
    match e {
        RowEffect::Army { winner_loss, loser_loss } => format!("winner -{winner_loss}, loser -{loser_loss} units"),
        RowEffect::Siege { city_pv, army_loss } => format!("city -{city_pv} PV, army -{army_loss} units"),
        RowEffect::Naval { winner_pv, loser_pv } => format!("winner -{winner_pv} PV, loser -{loser_pv} PV"),
        RowEffect::Spy { success, spy_lost } => format!(
            "{}, {}",
            yes(success, "the action works", "the action fails"),
            yes(spy_lost, "the spy is lost", "the spy survives")
        ),
        RowEffect::Duel { loser_lost, winner_spent } => format!(
            "{}, {}",
            yes(loser_lost, "the loser loses its spy", "nobody is lost"),
            yes(winner_spent, "the winner is spent", "the winner may act again")
        ),
    }
}

/// What a side's expected loss counts.
pub fn unit(u: LossUnit) -> &'static str {
    match u {
        LossUnit::Units => "units",
        LossUnit::ArmyUnits => "army units",
        LossUnit::CityPv => "city PV",
        LossUnit::ShipPv => "ship PV",
        LossUnit::BuildingPv => "building PV",
        LossUnit::SpiesLost => "spies lost",
        LossUnit::ActionsThatWork => "actions that work",
    }
}
