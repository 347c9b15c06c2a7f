//! A scenario number a study varies: a numeric key of the rules, or the
//! count or multiplier of a dice key, with the interval it is varied over.
//!
//! Every study of `balance` works on the unit cube: a point `u` in
//! `[0, 1]^k` gives each parameter the value `lo + u (hi - lo)`, rounded
//! for whole-number parameters. Effects are then measured per whole
//! interval, so they compare across keys whatever their units.
//!
//! It lives beside the scenario because it reads and writes nothing but
//! scenario keys (`ranges`); the studies that vary it (sim's `balance`,
//! and tuning over varied rules) all sit above it.

use crate::error::Error;
use crate::scenario::ranges::{self, DiceKey, RuleKey};
use crate::scenario::{DiceExpr, Scenario};

/// Which part of a dice expression a parameter moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DicePart {
    /// The number of dice: `2D6x10` → `3D6x10`.
    Count,
    /// The multiplier: `2D6x10` → `2D6x13`.
    Mult,
}

#[derive(Clone, Copy, Debug)]
pub enum Target {
    Rule(&'static RuleKey),
    Dice(&'static DiceKey, DicePart),
}

/// One varied number.
#[derive(Clone, Debug)]
pub struct Param {
    /// As the user names it: `costs.capture`, `economy.mine.river.mult`.
    pub name: String,
    pub target: Target,
    pub lo: f64,
    pub hi: f64,
    pub integer: bool,
    /// The value in the scenario the study starts from.
    pub base: f64,
}

/// The widest a dice count or multiplier may go (the loader's limits).
const DICE_COUNT_MAX: f64 = u8::MAX as f64;
const DICE_MULT_MAX: f64 = 1_000_000.0;

impl Param {
    /// `KEY` (varied by ±50% of its value, within its declared range) or
    /// `KEY=LO..HI`. A dice key is named with `.count` or `.mult`; bare, it
    /// varies its multiplier when that is above 1, else its count.
    pub fn parse(spec: &str, sc: &Scenario) -> Result<Param, Error> {
        let (name, range) = match spec.split_once('=') {
            Some((k, r)) => (k.trim(), Some(parse_range(r).map_err(|e| e.at(spec))?)),
            None => (spec.trim(), None),
        };
        let mut p = Param::named(name, sc)?;
        if let Some((lo, hi)) = range {
            let (dlo, dhi) = p.declared();
            if lo < dlo || hi > dhi {
                return Err(Error::input(format!(
                    "{spec}: {name} may only range over {}..{}",
                    show(dlo, p.integer),
                    show(dhi, p.integer)
                )));
            }
            if p.integer && (lo.fract() != 0.0 || hi.fract() != 0.0) {
                return Err(Error::input(format!("{spec}: {name} is a whole number")));
            }
            (p.lo, p.hi) = (lo, hi);
        }
        Ok(p)
    }

    /// The parameter `name` with its default interval around `sc`'s value.
    fn named(name: &str, sc: &Scenario) -> Result<Param, Error> {
        let target = if let Some(k) = ranges::rule_key(name) {
            Target::Rule(k)
        } else {
            let (key, part) = match name.rsplit_once('.') {
                Some((k, "count")) => (k, Some(DicePart::Count)),
                Some((k, "mult")) => (k, Some(DicePart::Mult)),
                _ => (name, None),
            };
            let d = ranges::dice_key(key).ok_or_else(|| unknown(name))?;
            let dice = (d.get)(sc)
                .ok_or_else(|| Error::input(format!("{key} has no dice in this scenario, so it cannot vary")))?;
            let part = part.unwrap_or(if dice.mult > 1 { DicePart::Mult } else { DicePart::Count });
            Target::Dice(d, part)
        };
        let mut p = Param { name: name.to_string(), target, lo: 0.0, hi: 0.0, integer: true, base: 0.0 };
        p.integer = match target {
            Target::Rule(k) => k.integer,
            Target::Dice(..) => true,
        };
        if let Target::Dice(d, part) = target {
            p.name = format!("{}.{}", d.key, if part == DicePart::Count { "count" } else { "mult" });
        }
        p.base = p.get(sc);
        (p.lo, p.hi) = p.default_interval();
        Ok(p)
    }

    /// The range the scenario checker allows.
    pub fn declared(&self) -> (f64, f64) {
        match self.target {
            Target::Rule(k) => (k.lo, k.hi),
            Target::Dice(_, DicePart::Count) => (1.0, DICE_COUNT_MAX),
            Target::Dice(_, DicePart::Mult) => (1.0, DICE_MULT_MAX),
        }
    }

    /// ±50% of the base value, within the declared range; a whole-number
    /// parameter spans at least one step each way the range allows (a
    /// value of 1 varies over 0..2 when 0 is allowed, 1..2 otherwise).
    fn default_interval(&self) -> (f64, f64) {
        let (dlo, dhi) = self.declared();
        let v = self.base;
        let (mut lo, mut hi) = (v - v.abs() / 2.0, v + v.abs() / 2.0);
        if self.integer {
            lo = lo.floor().min(v - 1.0);
            hi = hi.ceil().max(v + 1.0);
        } else if v == 0.0 {
            // A share or weight at 0: vary it up to a tenth of its range.
            hi = if dhi.is_finite() { dhi / 10.0 } else { 1.0 };
        }
        (lo.max(dlo), hi.min(dhi))
    }

    /// The parameter's value in `sc`.
    pub fn get(&self, sc: &Scenario) -> f64 {
        match self.target {
            Target::Rule(k) => (k.get)(sc),
            Target::Dice(d, part) => {
                let dice = (d.get)(sc).unwrap_or(DiceExpr::D6);
                match part {
                    DicePart::Count => dice.count as f64,
                    DicePart::Mult => dice.mult as f64,
                }
            }
        }
    }

    /// Set the parameter (rounded to a whole number where it is one).
    pub fn set(&self, sc: &mut Scenario, v: f64) {
        let v = if self.integer { v.round() } else { v };
        match self.target {
            Target::Rule(k) => (k.set)(sc, v),
            Target::Dice(d, part) => {
                let mut dice = (d.get)(sc).unwrap_or(DiceExpr::D6);
                match part {
                    DicePart::Count => dice.count = v.clamp(1.0, DICE_COUNT_MAX) as u8,
                    DicePart::Mult => dice.mult = v.clamp(1.0, DICE_MULT_MAX) as u32,
                }
                (d.set)(sc, dice)
            }
        }
    }

    /// The value at unit coordinate `u` (rounded for a whole number).
    pub fn value_at(&self, u: f64) -> f64 {
        let v = self.lo + u.clamp(0.0, 1.0) * (self.hi - self.lo);
        if self.integer { v.round() } else { v }
    }

    /// The unit coordinate of value `v`.
    pub fn unit_of(&self, v: f64) -> f64 {
        if self.hi > self.lo { (v - self.lo) / (self.hi - self.lo) } else { 0.0 }
    }

    /// The scenario key this parameter writes (a dice parameter writes the
    /// whole dice string).
    pub fn key(&self) -> &'static str {
        match self.target {
            Target::Rule(k) => k.key,
            Target::Dice(d, _) => d.key,
        }
    }

    /// `KEY=VALUE` as `--set` takes it, for the parameter's value in `sc`.
    pub fn set_flag(&self, sc: &Scenario) -> String {
        format!("{}={}", self.key(), self.toml_value(sc))
    }

    /// The value the key holds in `sc`, as TOML writes it.
    pub fn toml_value(&self, sc: &Scenario) -> String {
        match self.target {
            Target::Dice(d, _) => format!("{}", (d.get)(sc).unwrap_or(DiceExpr::D6)),
            Target::Rule(_) => show(self.get(sc), self.integer),
        }
    }

    /// A value of this parameter as text (`13`, `0.25`).
    pub fn show(&self, v: f64) -> String {
        show(v, self.integer)
    }
}

fn show(v: f64, integer: bool) -> String {
    if !v.is_finite() {
        "open".into()
    } else if integer {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn unknown(name: &str) -> Error {
    Error::input(format!(
        "{name} is not a numeric key of the rules (see docs/scenario.md; a dice key such as economy.mine.river takes .count or .mult)"
    ))
}

/// `LO..HI`.
fn parse_range(r: &str) -> Result<(f64, f64), Error> {
    let (lo, hi) = r.split_once("..").ok_or_else(|| Error::input("expected LO..HI"))?;
    let num = |s: &str| s.trim().parse::<f64>().map_err(|_| Error::input(format!("{:?} is not a number", s.trim())));
    let (lo, hi) = (num(lo)?, num(hi)?);
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(Error::input("LO must be below HI"));
    }
    Ok((lo, hi))
}

/// Every numeric key of the rules and every dice key the scenario gives
/// dice, with their default intervals: `--keys all`. Keys whose interval
/// is a single value (nothing to vary) are left out.
pub fn all(sc: &Scenario) -> Vec<Param> {
    let rules = ranges::RULE_KEYS.iter().map(|k| k.key.to_string());
    let dice = ranges::DICE_KEYS.iter().filter(|d| (d.get)(sc).is_some()).map(|d| d.key.to_string());
    let mut all: Vec<Param> = rules.chain(dice).filter_map(|k| Param::named(&k, sc).ok()).collect();
    // Keep every design point valid: a key that must stay at most another
    // stays at most that one's lowest value.
    for (a, b) in ranges::AT_MOST {
        let bound = all.iter().find(|p| p.name == *b).map(|p| p.lo);
        if let (Some(bound), Some(p)) = (bound, all.iter_mut().find(|p| p.name == *a)) {
            p.hi = p.hi.min(bound).max(p.lo);
        }
    }
    all.retain(|p| p.hi > p.lo);
    all
}

/// The parameters a `--keys` list names (`all`, or `K1,K2=LO..HI,...`).
pub fn parse_list(specs: &[String], sc: &Scenario) -> Result<Vec<Param>, Error> {
    if specs.iter().any(|s| s == "all") {
        return Ok(all(sc));
    }
    let params = specs.iter().map(|s| Param::parse(s, sc)).collect::<Result<Vec<_>, _>>()?;
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.key() == p.key()) {
            return Err(Error::input(format!("{} is named twice", p.key())));
        }
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_varies_by_half_its_value_within_its_range() {
        let sc = Scenario::default();
        let p = Param::parse("costs.capture", &sc).unwrap();
        assert_eq!((p.lo, p.hi, p.base, p.integer), (1.0, 3.0, 2.0, true));
        // costs.pillage is at least 1: 1 varies over 1..2.
        let p = Param::parse("costs.pillage", &sc).unwrap();
        assert_eq!((p.lo, p.hi), (1.0, 2.0));
        // A zero key varies one step up.
        let p = Param::parse("costs.terrain_surcharge.plains", &sc).unwrap();
        assert_eq!((p.lo, p.hi), (0.0, 1.0));
        let p = Param::parse("recruit.unit=50..150", &sc).unwrap();
        assert_eq!((p.lo, p.hi), (50.0, 150.0));
    }

    #[test]
    fn a_dice_key_varies_its_multiplier_or_its_count() {
        let sc = Scenario::default();
        let p = Param::parse("economy.mine.river", &sc).unwrap();
        assert_eq!((p.name.as_str(), p.lo, p.hi), ("economy.mine.river.mult", 5.0, 15.0));
        let mut s = sc.clone();
        p.set(&mut s, 13.0);
        assert_eq!(p.set_flag(&s), "economy.mine.river=2D6x13");
        let p = Param::parse("economy.pillage.count=1..4", &sc).unwrap();
        p.set(&mut s, 3.0);
        assert_eq!(p.set_flag(&s), "economy.pillage=3D6x10");
        // combat.die is 1D6: its count varies.
        assert_eq!(Param::parse("combat.die", &sc).unwrap().name, "combat.die.count");
    }

    #[test]
    fn bad_names_and_ranges_are_refused_with_a_reason() {
        let sc = Scenario::default();
        assert!(Param::parse("costs.captur", &sc).unwrap_err().message().contains("not a numeric key"));
        assert!(Param::parse("economy.mine.plains", &sc).unwrap_err().message().contains("no dice"));
        assert!(Param::parse("initiative.pool=0..99", &sc).unwrap_err().message().contains("0..60"));
        assert!(Param::parse("costs.capture=1.5..3", &sc).unwrap_err().message().contains("whole number"));
        assert!(Param::parse("costs.capture=3..1", &sc).unwrap_err().message().contains("below"));
        assert!(parse_list(&["costs.capture".into(), "costs.capture=1..2".into()], &sc).is_err());
    }

    #[test]
    fn all_gives_every_rule_key_and_dice_key_with_something_to_vary() {
        let sc = Scenario::default();
        let all = all(&sc);
        assert!(all.len() > 100, "{}", all.len());
        assert!(all.iter().all(|p| p.lo <= p.base && p.base <= p.hi && p.lo < p.hi), "{all:?}");
        assert!(all.iter().any(|p| p.name == "economy.mine.mountain.mult"));
        assert!(!all.iter().any(|p| p.name.starts_with("economy.mine.plains")));
        // siege.engines_needed stays at most engine_cap's lowest value.
        let at = |n: &str| all.iter().find(|p| p.name == n).unwrap();
        assert_eq!((at("siege.engines_needed").lo, at("siege.engines_needed").hi), (0.0, 1.0));
        assert_eq!(at("siege.engine_cap").lo, 1.0);
    }
}
