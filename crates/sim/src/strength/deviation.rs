//! `empires deviate`: is a strategy near a local optimum? One player
//! changes one key of it by a large factor and plays against copies of the
//! strategy in every other seat, seats rotated. A strategy at a local
//! optimum of its own game leaves no such deviant winning clearly more than
//! the fair share (1 / seats).
//!
//! - **Deviations.** A number `v` becomes `v × factor` and `v ÷ factor`
//!   (a key at 0 becomes `hi ÷ factor`, and `lo ÷ factor` when its range
//!   goes below 0), clamped into its range (`scenario::knobs`). Where the
//!   clamp takes it back to `v` (the key sits at its bound), the deviant
//!   goes beyond the range instead, marked so: a key at its bound is
//!   exactly where the search that tuned it may have been stopped. A
//!   choice key (`formation`, `siege_outcome`) takes each of its other
//!   values.
//! - **Additive deviants.** A purchase's utility is only compared with the
//!   other purchases', so a key far below its competitors stays below them
//!   ×4 and changes nothing. Each purchase key is also set just above the
//!   strongest other purchase ("top purchase").
//! - **Pairs.** Keys that only act together (`PAIRS`: an engine is bought
//!   for armies of `engine_min_units`, and used only when
//!   `siege_aggression` lets the army assault) deviate together, every
//!   combination of their deviations.
//! - **Changed games.** A deviant whose games all end as the strategy's
//!   own (same fingerprint, `lineup::PlayedCampaign`) changed no play: it is no
//!   evidence either way. Each row counts the campaigns it changed, and
//!   rows that changed none are left out of the test.
//! - **Common seeds.** Every deviant plays the same campaigns, so the rows
//!   are paired.
//! - **"Clearly more".** Each deviant's wins get a one-sided binomial test
//!   against the fair share, and the p-values are adjusted for the number
//!   of deviants tested (Holm), so trying 80 deviants does not by itself
//!   find a "winner". The Wilson 95% interval is shown beside it.
//! - **Power.** The report states the gain over the fair share a single
//!   deviant would need to be found with 80% probability, exactly from
//!   the binomial at the first step of Holm's procedure.
//! - **Competence.** "Near a local optimum" is a claim about strong play,
//!   so the check also runs the competence check's whole family on the
//!   same seeds (`probe`): a strategy no deviant beats may still waste a
//!   gift or overuse an action no key of its own can fix.

use crate::error::{Error, Input};
use crate::scenario::knobs::{CHOICES, KNOBS, Knob, choice_of, choice_values, set_choice};
use crate::scenario::{Scenario, StrategySpec};
use crate::sim::lineup::{Lineup, PlayedCampaign};
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
    /// Campaigns whose game differs from the strategy's own on the same
    /// seed (0: the deviant changed no play and is left out of the test).
    pub changed: u64,
    /// What kind of deviant: `""` (× or ÷ the factor, or another choice),
    /// `"beyond range"`, `"top purchase"` or `"pair"`.
    pub note: String,
}

impl Deviant {
    /// Wins clearly more than the fair share (Holm-adjusted p below 0.05).
    pub fn beats(&self) -> bool {
        self.tested() && self.p_holm < 0.05
    }

    /// Changed at least one game, so it is part of the test.
    pub fn tested(&self) -> bool {
        self.changed > 0
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
    /// The win rate above the fair share that one deviant would need to
    /// be found with 80% probability (Holm's first step over the tested
    /// deviants, 5% family-wise error).
    pub detectable: f64,
    /// The strategy's competence check, on the same seeds.
    pub competence: super::probe::Competence,
}

impl Deviation {
    pub fn fair(&self) -> f64 {
        1.0 / self.seats as f64
    }
    /// The deviants that beat the strategy clearly.
    pub fn beaten_by(&self) -> Vec<&Deviant> {
        self.deviants.iter().filter(|d| d.beats()).collect()
    }
    /// The deviants that changed at least one game.
    pub fn tested(&self) -> usize {
        self.deviants.iter().filter(|d| d.tested()).count()
    }
}

/// Keys that act only together, deviated as pairs.
pub const PAIRS: &[(&str, &str)] = &[("engine_min_units", "siege_aggression")];

/// The purchase keys that compete for the same EP (`Spend` options).
pub const PURCHASES: &[&str] = &["capture", "conquer", "castle", "city", "mine", "port", "tower", "bridge", "pillage"];

fn fmt_value(v: f64) -> String {
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The values a number key deviates to, each with whether it lies beyond
/// the key's range (where the clamp would have taken it back to `v`).
pub fn deviations_of(k: &Knob, v: f64, factor: f64) -> Vec<(f64, bool)> {
    let raw = if v == 0.0 {
        let mut r = vec![k.hi / factor];
        if k.lo < 0.0 {
            r.push(k.lo / factor);
        }
        r
    } else {
        vec![v * factor, v / factor]
    };
    let mut out: Vec<(f64, bool)> = Vec::new();
    for x in raw {
        let mut y = k.clamp(x);
        let mut beyond = false;
        if y == v {
            // At its bound: go past it (rounded as the key is stored).
            y = if k.integer { x.round() } else { x };
            beyond = true;
        }
        if y != v && y.is_finite() && !out.iter().any(|&(o, _)| o == y) {
            out.push((y, beyond));
        }
    }
    out
}

/// A purchase key set just above the strongest other purchase of `spec`
/// (10% above it, or 0.5 when that is 0); `None` when the key already
/// tops them.
pub fn top_purchase(spec: &StrategySpec, key: &str) -> Option<f64> {
    let value = |k: &str| crate::scenario::knobs::knob(k).map(|kn| (kn.get)(spec));
    let v = value(key)?;
    let best = PURCHASES.iter().filter(|&&o| o != key).filter_map(|o| value(o)).fold(f64::NEG_INFINITY, f64::max);
    let target = if best > 0.0 { best * 1.1 } else { 0.5 };
    (target > v).then_some((target * 1000.0).round() / 1000.0)
}

/// One deviant to play: (key, from, to, note, the deviant spec).
pub type Candidate = (String, String, String, String, StrategySpec);

/// Every deviant of `spec`: one key × or ÷ `factor` (beyond the range
/// where it sits at a bound), each other value of a choice key, each
/// purchase set to top the others, and the pairs of `PAIRS`. With `keys`,
/// only deviants whose keys are all listed.
pub fn deviants(spec: &StrategySpec, factor: f64, keys: Option<&[String]>) -> Vec<Candidate> {
    let wanted = |k: &str| keys.is_none_or(|ks| ks.iter().any(|x| x == k));
    let mut out = Vec::new();
    for k in KNOBS.iter().filter(|k| wanted(k.key)) {
        let v = (k.get)(spec);
        for (x, beyond) in deviations_of(k, v, factor) {
            let mut d = spec.clone();
            (k.set)(&mut d, x);
            let note = if beyond { "beyond range" } else { "" };
            out.push((k.key.to_string(), fmt_value(v), fmt_value(x), note.to_string(), d));
        }
    }
    for &key in PURCHASES.iter().filter(|k| wanted(k)) {
        let (Some(k), Some(x)) = (crate::scenario::knobs::knob(key), top_purchase(spec, key)) else { continue };
        let v = (k.get)(spec);
        let mut d = spec.clone();
        (k.set)(&mut d, x);
        out.push((key.to_string(), fmt_value(v), fmt_value(x), "top purchase".to_string(), d));
    }
    for &(a, b) in PAIRS.iter().filter(|(a, b)| wanted(a) && wanted(b)) {
        let (Some(ka), Some(kb)) = (crate::scenario::knobs::knob(a), crate::scenario::knobs::knob(b)) else { continue };
        let (va, vb) = ((ka.get)(spec), (kb.get)(spec));
        for (xa, _) in deviations_of(ka, va, factor) {
            for (xb, _) in deviations_of(kb, vb, factor) {
                let mut d = spec.clone();
                (ka.set)(&mut d, xa);
                (kb.set)(&mut d, xb);
                out.push((
                    format!("{a} + {b}"),
                    format!("{}, {}", fmt_value(va), fmt_value(vb)),
                    format!("{}, {}", fmt_value(xa), fmt_value(xb)),
                    "pair".to_string(),
                    d,
                ));
            }
        }
    }
    for &key in CHOICES.iter().filter(|k| wanted(k)) {
        let now = choice_of(spec, key);
        for &other in choice_values(key).iter().filter(|&&o| o != now) {
            let mut d = spec.clone();
            set_choice(&mut d, key, other);
            out.push((key.to_string(), now.to_string(), other.to_string(), String::new(), d));
        }
    }
    out
}

/// The campaigns `check` plays: the strategy against itself, then every
/// deviant, `campaigns` each (a progress bar's length; 0 for an unknown
/// strategy, which `check` refuses).
pub fn planned(sc: &Scenario, name: &str, factor: f64, keys: Option<&[String]>, campaigns: u64) -> u64 {
    let probes = super::probe::planned(&super::probe::family(&super::probe::Settings::default()), campaigns);
    sc.strategy(name).map_or(0, |spec| (deviants(&spec, factor, keys).len() as u64 + 1) * campaigns + probes)
}

/// Play every deviant of strategy `name` against copies of it.
pub fn check(
    sc: &Scenario,
    name: &str,
    factor: f64,
    keys: Option<&[String]>,
    master: u64,
    campaigns: u64,
) -> Result<Deviation, Error> {
    if factor <= 1.0 || !factor.is_finite() {
        return Err(Error::input(format!("the factor must be above 1 (found {factor})")));
    }
    let spec = sc.named_strategy(name)?;
    let seats = sc.players.len();
    if seats < 2 {
        return Err(Error::input("the scenario needs at least 2 seats"));
    }
    let fair = 1.0 / seats as f64;
    let list = deviants(&spec, factor, keys);
    if list.is_empty() {
        return Err(Error::input_naming(["no deviant to try: check ".into(), Input::Keys.into()]));
    }
    let play = |d: &StrategySpec| -> Result<Vec<PlayedCampaign>, Error> {
        let mut specs = vec![d.clone()];
        specs.extend(std::iter::repeat_n(spec.clone(), seats - 1));
        let l = Lineup::new(sc, &specs).map_err(Error::from)?;
        l.games(master, 0..campaigns).map_err(Error::from)
    };
    let base = play(&spec)?;
    let row = |key: String, from: String, to: String, note: String, games: &[PlayedCampaign]| {
        let wins = games.iter().filter(|g| g.winner == 0).count() as u64;
        let changed = games.iter().zip(&base).filter(|(g, b)| g.print != b.print).count() as u64;
        let (low, high) = wilson(wins as f64, campaigns as f64, 0.95);
        let p = upper_tail(wins, campaigns, fair);
        let rate = wins as f64 / campaigns as f64;
        Deviant { key, from, to, wins, campaigns, rate, low, high, p, p_holm: p, changed, note }
    };
    let baseline = row("(none)".into(), String::new(), String::new(), String::new(), &base);
    let played: Vec<Vec<PlayedCampaign>> = list.par_iter().map(|(.., d)| play(d)).collect::<Result<_, _>>()?;
    let mut rows: Vec<Deviant> =
        list.into_iter().zip(&played).map(|((key, from, to, note, _), g)| row(key, from, to, note, g)).collect();
    holm(&mut rows);
    rows.sort_by(|a, b| b.wins.cmp(&a.wins).then_with(|| a.key.cmp(&b.key)).then_with(|| a.to.cmp(&b.to)));
    let tested = rows.iter().filter(|d| d.tested()).count();
    let detectable = detectable_gain(campaigns, fair, tested.max(1), 0.05, 0.8);
    let settings = super::probe::Settings::default();
    let competence = super::probe::check(sc, name, super::probe::family(&settings), settings, master, campaigns)?;
    Ok(Deviation {
        strategy: name.to_string(),
        factor,
        seats,
        seed: master,
        campaigns,
        baseline,
        deviants: rows,
        detectable,
        competence,
    })
}

/// The smallest win rate above `p0` that a one-sided binomial test over `n`
/// campaigns at level `alpha / m` (Holm's first step among `m` tests)
/// rejects with probability `power`, as a gain over `p0`; exact binomial
/// tails, found by bisection. `NaN` when no rate up to 1 reaches it.
pub fn detectable_gain(n: u64, p0: f64, m: usize, alpha: f64, power: f64) -> f64 {
    let level = alpha / m as f64;
    // The fewest wins the test calls significant (the tail falls with wins).
    let (mut lo, mut hi) = (0u64, n + 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if upper_tail(mid, n, p0) <= level { hi = mid } else { lo = mid + 1 }
    }
    let critical = lo;
    if critical > n {
        return f64::NAN;
    }
    let reach = |p: f64| upper_tail(critical, n, p);
    if reach(1.0) < power {
        return f64::NAN;
    }
    let (mut a, mut b) = (p0, 1.0);
    for _ in 0..60 {
        let mid = (a + b) / 2.0;
        if reach(mid) >= power { b = mid } else { a = mid }
    }
    b - p0
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

/// Holm's step-down adjustment of the p-values of the rows that changed
/// a game; the others are not tested (adjusted p-value 1).
fn holm(rows: &mut [Deviant]) {
    let mut order: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].tested()).collect();
    let m = order.len();
    order.sort_by(|&a, &b| rows[a].p.total_cmp(&rows[b].p));
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let adj = ((m - rank) as f64 * rows[i].p).min(1.0);
        running = running.max(adj);
        rows[i].p_holm = running;
    }
    for r in rows.iter_mut().filter(|r| !r.tested()) {
        r.p_holm = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::knobs::knob;

    #[test]
    fn a_key_deviates_by_the_factor_within_its_range() {
        let mine = knob("mine").unwrap();
        assert_eq!(deviations_of(mine, 2.8, 4.0), vec![(10.0, false), (0.7, false)]);
        assert_eq!(deviations_of(mine, 0.0, 4.0), vec![(2.5, false)]);
        let aggr = knob("aggression").unwrap();
        assert_eq!(deviations_of(aggr, 0.0, 4.0), vec![(2.5, false), (-2.5, false)]);
        assert_eq!(deviations_of(aggr, -1.0, 4.0), vec![(-4.0, false), (-0.25, false)]);
        let garrison = knob("garrison").unwrap();
        assert_eq!(deviations_of(garrison, 3.0, 4.0), vec![(10.0, false), (1.0, false)]);
        // At its bound, the deviant goes past it, rounded as the key is stored.
        let share = knob("bid_attack").unwrap();
        assert_eq!(deviations_of(share, 1.0, 4.0), vec![(4.0, true), (0.25, false)]);
        assert_eq!(deviations_of(mine, 10.0, 4.0), vec![(40.0, true), (2.5, false)]);
        assert_eq!(deviations_of(garrison, 10.0, 3.0), vec![(30.0, true), (3.0, false)]);
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
            changed: 1,
            note: String::new(),
        };
        let mut rows = vec![mk(0.04), mk(0.01), mk(0.03)];
        holm(&mut rows);
        // Sorted: 0.01 × 3 = 0.03, 0.03 × 2 = 0.06, 0.04 × 1 = 0.04 → kept monotone at 0.06.
        let adj: Vec<f64> = rows.iter().map(|r| (r.p_holm * 1e6).round() / 1e6).collect();
        assert_eq!(adj, vec![0.06, 0.03, 0.06]);
        // A row that changed no game is not in the family: the two others
        // are adjusted for two tests, and it gets 1.
        let mut rows = vec![mk(0.04), Deviant { changed: 0, ..mk(0.001) }, mk(0.03)];
        holm(&mut rows);
        let adj: Vec<f64> = rows.iter().map(|r| (r.p_holm * 1e6).round() / 1e6).collect();
        assert_eq!(adj, vec![0.06, 1.0, 0.06]);
        assert!(!rows[1].beats(), "a deviant that changed no game is no evidence");
    }

    /// The power figure: at 1,000 campaigns against a fair share of ½ and
    /// one test, the 5% one-sided test needs 527 wins (P(X ≥ 527) = 0.0468
    /// under ½, P(X ≥ 526) = 0.0534); 80% of campaigns with at least 527
    /// wins needs a rate of about 0.540.
    #[test]
    fn the_detectable_gain_is_exact_at_holms_first_step() {
        let g = detectable_gain(1000, 0.5, 1, 0.05, 0.8);
        assert!((upper_tail(527, 1000, 0.5 + g) - 0.8).abs() < 1e-6, "{g}");
        assert!(upper_tail(527, 1000, 0.5) <= 0.05 && upper_tail(526, 1000, 0.5) > 0.05);
        assert!((g - 0.0398).abs() < 0.001, "{g}");
        // More tests, a stricter level, a larger gain; more campaigns, smaller.
        assert!(detectable_gain(1000, 0.5, 80, 0.05, 0.8) > g);
        assert!(detectable_gain(4000, 0.5, 1, 0.05, 0.8) < g);
    }

    #[test]
    fn a_purchase_tops_the_others_only_when_below_them() {
        let spec = StrategySpec::default();
        // balanced: conquer 5.0 is the strongest purchase.
        assert_eq!(top_purchase(&spec, "mine"), Some(5.5));
        assert_eq!(top_purchase(&spec, "conquer"), None);
        let names: Vec<(String, String)> =
            deviants(&spec, 4.0, Some(&["engine_min_units".into(), "siege_aggression".into()]))
                .into_iter()
                .filter(|c| c.3 == "pair")
                .map(|c| (c.1, c.2))
                .collect();
        // 3 → 10 (12 clamped) or 1 (0.75 rounded), −1 → −4 or −0.25: four pairs.
        assert_eq!(names.len(), 4, "{names:?}");
        assert!(names.contains(&("3, -1".to_string(), "10, -4".to_string())), "{names:?}");
    }

    #[test]
    fn the_binomial_tail_is_exact() {
        // P(X ≥ 2) for Binomial(2, 0.5) = 0.25.
        assert!((upper_tail(2, 2, 0.5) - 0.25).abs() < 1e-12);
        assert_eq!(upper_tail(0, 10, 0.25), 1.0);
    }
}
