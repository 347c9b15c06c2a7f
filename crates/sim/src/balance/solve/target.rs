//! What a solve aims at: the target grammar (`SIDE = VALUE` or `SIDE =
//! SIDE2`, a side being a study metric or the value of a restriction) and
//! each target's gap per campaign. Kept apart from the root finders, which
//! see a gap only as numbers, so a new kind of side touches this file alone.

use crate::error::{Error, Input};
use crate::scenario::ActionKind;
use crate::scenario::Scenario;
use crate::study::metrics::Metric;
use crate::study::metrics::measure;
use crate::study::restrict::{Restriction, first_slot_wins};

/// One side of a target: a study metric, or the value of a restriction
/// to a field of players (`value of forbid mine against tuned`): one
/// restricted player's win rate minus an unrestricted one's in the same
/// seat, against copies of the field, paired campaign by campaign
/// (`study::restrict`).
#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    Metric(Metric),
    Restriction { restriction: Restriction, players: String },
}

/// The prefix of a restriction side.
pub const VALUE_OF: &str = "value of ";

impl Side {
    /// A metric by name, or `value of [forbid K1,K2] [force K3] [against S]`
    /// (the field defaults to the strong field, `equilibrium`).
    pub fn parse(s: &str, sc: &Scenario) -> Result<Side, Error> {
        let s = s.trim();
        let Some(rest) = s.strip_prefix(VALUE_OF) else { return crate::balance::metric_named(sc, s).map(Side::Metric) };
        let (mut forbid, mut force, mut players) = (Vec::new(), Vec::new(), crate::strategy::STRONG.to_string());
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut i = 0;
        while i < words.len() {
            if !["forbid", "force", "against"].contains(&words[i]) {
                return Err(Error::input(format!("{s:?}: expected forbid, force or against, found {:?}", words[i])));
            }
            let arg = words.get(i + 1).ok_or_else(|| Error::input(format!("{s:?}: {} needs a value", words[i])))?;
            let kinds = || -> Result<Vec<ActionKind>, Error> {
                arg.split(',').map(|k| k.parse().map_err(Error::input)).collect()
            };
            match words[i] {
                "forbid" => forbid.extend(kinds()?),
                "force" => force.extend(kinds()?),
                _ => players = arg.to_string(),
            }
            i += 2;
        }
        sc.named_strategy(&players).map_err(|e| e.at(format_args!("{s:?}")))?;
        Ok(Side::Restriction { restriction: Restriction::new(forbid, force)?, players })
    }

    pub fn name(&self) -> String {
        match self {
            Side::Metric(m) => m.name(),
            Side::Restriction { restriction, players } => {
                let mut t = String::from("value of");
                if !restriction.forbid.is_empty() {
                    let k: Vec<&str> = restriction.forbid.iter().map(|k| k.name()).collect();
                    t += &format!(" forbid {}", k.join(","));
                }
                if !restriction.force.is_empty() {
                    let k: Vec<&str> = restriction.force.iter().map(|k| k.name()).collect();
                    t += &format!(" force {}", k.join(","));
                }
                t + &format!(" against {players}")
            }
        }
    }
}

/// What the target compares the left side with.
#[derive(Clone, Debug, PartialEq)]
pub enum Rhs {
    Value(f64),
    Side(Side),
}

/// `SIDE = VALUE` or `SIDE = SIDE2`, a side being a metric or a
/// restriction's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    pub lhs: Side,
    pub rhs: Rhs,
}

impl Goal {
    pub fn parse(s: &str, sc: &Scenario) -> Result<Goal, Error> {
        let at = |e: Error| e.at_input_value(Input::Target, format_args!("{s:?}"));
        let (l, r) =
            s.split_once('=').ok_or_else(|| at(Error::input("expected \"METRIC = VALUE\" or \"METRIC = METRIC2\"")))?;
        let lhs = Side::parse(l, sc).map_err(at)?;
        let rhs = match r.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Rhs::Value(v),
            _ => Rhs::Side(Side::parse(r, sc).map_err(at)?),
        };
        Ok(Goal { lhs, rhs })
    }

    pub fn text(&self) -> String {
        match &self.rhs {
            Rhs::Value(v) => format!("{} = {v}", self.lhs.name()),
            Rhs::Side(m) => format!("{} = {}", self.lhs.name(), m.name()),
        }
    }
}

/// A goal's left side and gap, per campaign.
pub type SideAndGap = (Vec<f64>, Vec<f64>);

/// Each goal's (left side, gap) per campaign: one run of `sc` measures
/// every metric the goals name, and each restriction plays its own paired
/// lineups on the same campaigns.
pub fn gaps_of(
    goals: &[Goal],
    sc: &Scenario,
    master: u64,
    campaigns: u64,
    rotate: bool,
) -> Result<Vec<SideAndGap>, Error> {
    let mut metrics: Vec<Metric> = Vec::new();
    for g in goals {
        for side in std::iter::once(&g.lhs).chain(match &g.rhs {
            Rhs::Side(x) => Some(x),
            Rhs::Value(_) => None,
        }) {
            if let Side::Metric(m) = side
                && !metrics.contains(m)
            {
                metrics.push(m.clone());
            }
        }
    }
    let values = if metrics.is_empty() {
        Vec::new()
    } else {
        measure(sc, master, campaigns, rotate, &metrics, false)
            .map_err(crate::rules::setup::SetupError::into_error)?
            .values
    };
    let per_campaign = |side: &Side| -> Result<Vec<f64>, Error> {
        match side {
            Side::Metric(m) => {
                let j = metrics.iter().position(|x| x == m).unwrap_or(0);
                Ok(values.iter().map(|v| v[j]).collect())
            }
            Side::Restriction { restriction, players } => {
                let spec = sc.named_strategy(players)?;
                let base = first_slot_wins(sc, &spec, &spec, master, campaigns)?;
                let won = first_slot_wins(sc, &restriction.apply(&spec), &spec, master, campaigns)?;
                Ok(won.iter().zip(&base).map(|(&w, &b)| w as u8 as f64 - b as u8 as f64).collect())
            }
        }
    };
    goals
        .iter()
        .map(|g| {
            let lhs = per_campaign(&g.lhs)?;
            let gaps = match &g.rhs {
                Rhs::Value(x) => lhs.iter().map(|v| v - x).collect(),
                Rhs::Side(r) => {
                    let r = per_campaign(r)?;
                    lhs.iter().zip(&r).map(|(a, b)| a - b).collect()
                }
            };
            Ok((lhs, gaps))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_a_metric_or_a_restriction_value() {
        let sc = Scenario::default();
        let g = Goal::parse("value of forbid mine,pillage force castle = value of forbid mine against balanced", &sc)
            .unwrap();
        assert_eq!(
            g.text(),
            "value of forbid mine,pillage force castle against equilibrium = value of forbid mine against balanced"
        );
        let g = Goal::parse("share of gold from mines = 0.5", &sc).unwrap();
        assert_eq!(g.rhs, Rhs::Value(0.5));
        for (bad, why) in [
            ("value of forbid dance = 0", "unknown action kind"),
            ("value of forbid = 0", "needs a value"),
            ("value of forbid mine against nobody = 0", "unknown strategy"),
            ("value of forbid done = 0", "cannot be forbidden"),
            ("value of mine = 0", "expected forbid, force or against"),
            ("value of against tuned = 0", "give <forbid>, <force> or both"),
        ] {
            let e = Goal::parse(bad, &sc).unwrap_err();
            assert!(e.message().contains(why), "{bad}: {e}");
        }
    }
}
