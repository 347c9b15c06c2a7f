//! `empires deviate`: is a strategy near a local optimum? One player
//! changes one key of it by a large factor and plays against copies of the
//! strategy in every other seat, seats rotated. A strategy at a local
//! optimum of its own game leaves no such deviant winning clearly more than
//! the fair share (1 / seats).
//!
//! - **Deviations.** A number `v` becomes `v × factor` and `v ÷ factor`
//!   (a key at 0 becomes `hi ÷ factor`, and `lo ÷ factor` when its range
//!   goes below 0), clamped into its range (`scenario::knobs`); a deviation
//!   the clamp takes back to `v` is dropped. A choice key
//!   (`formation`, `siege_outcome`) takes each of its other values.
//! - **Common seeds.** Every deviant plays the same campaigns, so the rows
//!   are paired.
//! - **"Clearly more".** Each deviant's wins get a one-sided binomial test
//!   against the fair share, and the p-values are adjusted for the number
//!   of deviants tried (Holm), so trying 80 deviants does not by itself
//!   find a "winner". The Wilson 95% interval is shown beside it.

use crate::scenario::knobs::{CHOICES, KNOBS, Knob, choice_of, choice_values, set_choice};
use crate::scenario::{Scenario, StrategySpec};
use crate::sim::lineup::Lineup;
use crate::stats::wilson;
use rayon::prelude::*;
use statrs::distribution::{Binomial, DiscreteCDF};

/// One deviant: the key, its new value, and how it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Deviant {
    pub key: String,
    pub from: String,
    pub to: String,
    pub wins: u64,
    pub campaigns: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
    /// One-sided binomial p-value against the fair share, before and after
    /// Holm's adjustment.
    pub p: f64,
    pub p_holm: f64,
}

impl Deviant {
    /// Wins clearly more than the fair share (Holm-adjusted p below 0.05).
    pub fn beats(&self) -> bool {
        self.p_holm < 0.05
    }
}

/// The whole check.
#[derive(Clone, Debug, PartialEq)]
pub struct Deviation {
    pub strategy: String,
    pub factor: f64,
    pub seats: usize,
    pub seed: u64,
    pub campaigns: u64,
    /// The strategy itself in the deviant's seat, on the same campaigns.
    pub baseline: Deviant,
    /// Best first.
    pub deviants: Vec<Deviant>,
}

impl Deviation {
    pub fn fair(&self) -> f64 {
        1.0 / self.seats as f64
    }
    /// The deviants that beat the strategy clearly.
    pub fn beaten_by(&self) -> Vec<&Deviant> {
        self.deviants.iter().filter(|d| d.beats()).collect()
    }
}

fn fmt_value(v: f64) -> String {
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The values a number key deviates to.
pub fn deviations_of(k: &Knob, v: f64, factor: f64) -> Vec<f64> {
    let raw = if v == 0.0 {
        let mut r = vec![k.hi / factor];
        if k.lo < 0.0 {
            r.push(k.lo / factor);
        }
        r
    } else {
        vec![v * factor, v / factor]
    };
    let mut out: Vec<f64> = Vec::new();
    for x in raw {
        let x = k.clamp(x);
        if x != v && !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// Every one-key deviant of `spec`, as (key, from, to, the deviant spec).
pub fn deviants(
    spec: &StrategySpec,
    factor: f64,
    keys: Option<&[String]>,
) -> Vec<(String, String, String, StrategySpec)> {
    let wanted = |k: &str| keys.is_none_or(|ks| ks.iter().any(|x| x == k));
    let mut out = Vec::new();
    for k in KNOBS.iter().filter(|k| wanted(k.key)) {
        let v = (k.get)(spec);
        for x in deviations_of(k, v, factor) {
            let mut d = spec.clone();
            (k.set)(&mut d, x);
            out.push((k.key.to_string(), fmt_value(v), fmt_value(x), d));
        }
    }
    for &key in CHOICES.iter().filter(|k| wanted(k)) {
        let now = choice_of(spec, key);
        for &other in choice_values(key).iter().filter(|&&o| o != now) {
            let mut d = spec.clone();
            set_choice(&mut d, key, other);
            out.push((key.to_string(), now.to_string(), other.to_string(), d));
        }
    }
    out
}

/// Play every deviant of strategy `name` against copies of it.
pub fn check(
    sc: &Scenario,
    name: &str,
    factor: f64,
    keys: Option<&[String]>,
    master: u64,
    campaigns: u64,
) -> Result<Deviation, String> {
    if factor <= 1.0 || !factor.is_finite() {
        return Err(format!("the factor must be above 1 (found {factor})"));
    }
    let spec = sc.strategy(name).ok_or_else(|| format!("unknown strategy {name:?}"))?;
    let seats = sc.players.len();
    if seats < 2 {
        return Err("the scenario needs at least 2 seats".into());
    }
    let fair = 1.0 / seats as f64;
    let list = deviants(&spec, factor, keys);
    if list.is_empty() {
        return Err("no deviant to try: check --keys".into());
    }
    let play = |d: &StrategySpec| -> Result<u64, String> {
        let mut specs = vec![d.clone()];
        specs.extend(std::iter::repeat_n(spec.clone(), seats - 1));
        let l = Lineup::new(sc, &specs).map_err(|e| e.to_string())?;
        Ok(l.wins(master, 0..campaigns).map_err(|e| e.to_string())?.by_slot[0])
    };
    let row = |key: String, from: String, to: String, wins: u64| {
        let (low, high) = wilson(wins as f64, campaigns as f64, 0.95);
        let p = upper_tail(wins, campaigns, fair);
        Deviant { key, from, to, wins, campaigns, rate: wins as f64 / campaigns as f64, low, high, p, p_holm: p }
    };
    let base_wins = play(&spec)?;
    let baseline = row("(none)".into(), String::new(), String::new(), base_wins);
    let won: Vec<u64> = list.par_iter().map(|(_, _, _, d)| play(d)).collect::<Result<_, _>>()?;
    let mut rows: Vec<Deviant> =
        list.into_iter().zip(won).map(|((key, from, to, _), w)| row(key, from, to, w)).collect();
    holm(&mut rows);
    rows.sort_by(|a, b| b.wins.cmp(&a.wins).then_with(|| a.key.cmp(&b.key)).then_with(|| a.to.cmp(&b.to)));
    Ok(Deviation { strategy: name.to_string(), factor, seats, seed: master, campaigns, baseline, deviants: rows })
}

/// P(X ≥ wins) for X ~ Binomial(n, p).
fn upper_tail(wins: u64, n: u64, p: f64) -> f64 {
    if wins == 0 {
        return 1.0;
    }
    match Binomial::new(p, n) {
        Ok(b) => (1.0 - b.cdf(wins - 1)).max(0.0),
        Err(_) => f64::NAN,
    }
}

/// Holm's step-down adjustment of the rows' p-values.
fn holm(rows: &mut [Deviant]) {
    let m = rows.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| rows[a].p.total_cmp(&rows[b].p));
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let adj = ((m - rank) as f64 * rows[i].p).min(1.0);
        running = running.max(adj);
        rows[i].p_holm = running;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::knobs::knob;

    #[test]
    fn a_key_deviates_by_the_factor_within_its_range() {
        let mine = knob("mine").unwrap();
        assert_eq!(deviations_of(mine, 2.8, 4.0), vec![10.0, 0.7]);
        assert_eq!(deviations_of(mine, 0.0, 4.0), vec![2.5]);
        let aggr = knob("aggression").unwrap();
        assert_eq!(deviations_of(aggr, 0.0, 4.0), vec![2.5, -2.5]);
        assert_eq!(deviations_of(aggr, -1.0, 4.0), vec![-4.0, -0.25]);
        let garrison = knob("garrison").unwrap();
        assert_eq!(deviations_of(garrison, 3.0, 4.0), vec![10.0, 1.0]);
        let share = knob("bid_attack").unwrap();
        assert_eq!(deviations_of(share, 1.0, 4.0), vec![0.25]);
    }

    #[test]
    fn holm_adjusts_step_down() {
        let mk = |p: f64| Deviant {
            key: String::new(),
            from: String::new(),
            to: String::new(),
            wins: 0,
            campaigns: 1,
            rate: 0.0,
            low: 0.0,
            high: 0.0,
            p,
            p_holm: p,
        };
        let mut rows = vec![mk(0.04), mk(0.01), mk(0.03)];
        holm(&mut rows);
        // Sorted: 0.01 × 3 = 0.03, 0.03 × 2 = 0.06, 0.04 × 1 = 0.04 → kept monotone at 0.06.
        let adj: Vec<f64> = rows.iter().map(|r| (r.p_holm * 1e6).round() / 1e6).collect();
        assert_eq!(adj, vec![0.06, 0.03, 0.06]);
    }

    #[test]
    fn the_binomial_tail_is_exact() {
        // P(X ≥ 2) for Binomial(2, 0.5) = 0.25.
        assert!((upper_tail(2, 2, 0.5) - 0.25).abs() < 1e-12);
        assert_eq!(upper_tail(0, 10, 0.25), 1.0);
    }
}
