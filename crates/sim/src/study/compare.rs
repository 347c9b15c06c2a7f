//! Two variants on the same seeds: the paired difference of every metric.
//!
//! Each row's test is two-sided at the normal approximation; the verdict
//! words "higher" and "lower" are given only where the test still rejects
//! after the output's multiplicity correction (Holm's step-down over every
//! metric of the comparison, family-wise error `ALPHA`), so an A/A
//! comparison prints a false verdict in at most `ALPHA` of runs.

use super::metrics::{Measured, Metric, measure, with_combat};
use crate::error::{Error, Input};
use crate::rules::setup::SetupError;
use crate::scenario::Scenario;
use crate::scenario::StrategySpec;
use crate::sim::record::Coverage;
use crate::stats::{Correction, Mean, detectable_at, mean_interval, p_two_sided};
use crate::strength::best_response::{Budget, check_planned, retuned, tuning_planned, tuning_seed};
use crate::strength::probe::Competence;

/// The error rate every study's verdicts hold (family-wise for Holm, the
/// false discovery rate for Benjamini–Hochberg).
pub const ALPHA: f64 = 0.05;

/// One metric in both variants.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub metric: Metric,
    /// A's mean over all its campaigns with the metric (a rate of a combat
    /// needs one; a share needs gold), with its 95% interval.
    pub a: Mean,
    pub b: Mean,
    /// B minus A, campaign by campaign, over the campaigns with the metric
    /// in both (`diff.n` of them): it can differ from `b.mean - a.mean`.
    pub diff: Mean,
    /// The campaigns each side played.
    pub campaigns: u64,
    /// The smallest difference this many campaigns detects with 80% power
    /// at the level the correction demands of one test (α/m, Holm's first
    /// step; the 5% level until `adjust` is called).
    pub detectable: f64,
    /// Every paired difference is the same (B played A's games: the change
    /// touched nothing these players do), so the paired test detects
    /// nothing smaller than 0 and `detectable` is the unpaired figure: what
    /// a change that reshuffled every campaign would need.
    pub reshuffled: bool,
    /// The two-sided p-value of "no difference", unadjusted.
    pub p: f64,
    /// The p-value adjusted for the output's family (`adjust`).
    pub p_adj: f64,
}

impl Row {
    /// The unadjusted 95% interval of the difference contains 0.
    pub fn undetected(&self) -> bool {
        self.diff.low <= 0.0 && self.diff.high >= 0.0
    }

    /// The adjusted test rejects "no difference" at `ALPHA`: only then is
    /// the row "higher" or "lower".
    pub fn rejected(&self) -> bool {
        self.p_adj <= ALPHA
    }
}

/// Adjust the rows of one output as one family with `how`; each row's
/// detectable difference becomes the one at the level of one test of the
/// family (α/m, which Holm's first step and Benjamini–Hochberg's strictest
/// step demand). Returns the family's size.
pub fn adjust<'a>(rows: impl IntoIterator<Item = &'a mut Row>, how: Correction) -> usize {
    let mut rows: Vec<&mut Row> = rows.into_iter().collect();
    let p: Vec<f64> = rows.iter().map(|r| r.p).collect();
    let m = p.len();
    for (r, q) in rows.iter_mut().zip(how.adjust(&p)) {
        r.p_adj = q;
        (r.detectable, r.reshuffled) = detectable(&r.diff, &r.a, &r.b, ALPHA / m as f64);
    }
    m
}

/// The smallest difference found with 80% power at `level`, from the
/// paired differences; when they are all the same (their spread is 0, so
/// the paired figure would be ±0), from A's and B's spreads as if
/// unpaired, flagged so.
fn detectable(diff: &Mean, a: &Mean, b: &Mean, level: f64) -> (f64, bool) {
    if diff.sd > 0.0 || diff.n < 2 {
        return (detectable_at(diff.sd / (diff.n as f64).sqrt(), level), false);
    }
    let unpaired = (a.sd.powi(2) / a.n.max(1) as f64 + b.sd.powi(2) / b.n.max(1) as f64).sqrt();
    (detectable_at(unpaired, level), true)
}

/// Paired rows of two measured variants (campaign `i` against campaign `i`).
pub fn paired(metrics: &[Metric], a: &Measured, b: &Measured) -> Vec<Row> {
    let campaigns = a.values.len().max(b.values.len()) as u64;
    let mut rows = Vec::new();
    for (j, m) in metrics.iter().enumerate() {
        let col = |x: &Measured| x.values.iter().map(|v| v[j]).collect::<Vec<f64>>();
        let (va, vb) = (col(a), col(b));
        let diffs: Vec<f64> = va.iter().zip(&vb).map(|(x, y)| y - x).collect();
        let diff = mean_interval(diffs, 0.95);
        if diff.n == 0 {
            continue;
        }
        let se = diff.sd / (diff.n as f64).sqrt();
        let p = p_two_sided(diff.mean, se);
        let (a, b) = (mean_interval(va, 0.95), mean_interval(vb, 0.95));
        let (detectable, reshuffled) = detectable(&diff, &a, &b, ALPHA);
        rows.push(Row { metric: m.clone(), a, b, diff, campaigns, detectable, reshuffled, p, p_adj: p });
    }
    rows
}

/// A finished comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub a_name: String,
    pub b_name: String,
    pub campaigns: u64,
    pub seed: u64,
    pub rotate_seats: bool,
    pub rows: Vec<Row>,
    /// How the rows' verdicts are corrected (Holm over every row).
    pub correction: Correction,
    /// What A's and B's players did, each over the campaigns it counts:
    /// the rule parts they never exercised are where the comparison is
    /// silent (`never_played`).
    pub played: [Played; 2],
}

/// What one side's players did (the mechanics coverage) over `campaigns`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Played {
    pub coverage: Coverage,
    pub campaigns: u64,
}

impl Comparison {
    /// `verdicts: Holm-adjusted, family-wise error 5% over 17 metrics`.
    pub fn verdicts_line(&self) -> String {
        self.correction.line(ALPHA, self.rows.len(), "metrics")
    }

    /// The rule parts A's and B's players never (or almost never)
    /// exercised, each side in turn, where what the comparison says in
    /// play is silent (`exercised::sides`); `None` when both sides
    /// exercised every part.
    pub fn never_played(&self) -> Option<String> {
        let [a, b] = &self.played;
        let (la, lb) = (format!("A ({})", self.a_name), format!("B ({})", self.b_name));
        super::exercised::sides(&[(&la, &a.coverage, a.campaigns), (&lb, &b.coverage, b.campaigns)])
    }
}

/// What `compare --best-response` played: in each variant, every seat
/// plays `start` re-tuned in self-play under that variant's rules.
#[derive(Clone, Debug)]
pub struct BestResponse {
    /// The strategy the searches started from.
    pub start: String,
    pub a: StrategySpec,
    pub b: StrategySpec,
    /// Campaigns each search played, and its master seed (never the
    /// comparison's: the players are measured on campaigns they were not
    /// tuned on).
    pub tuning_campaigns: (u64, u64),
    pub tuning_seed: u64,
    pub budget: Budget,
    /// Each re-tuned player's competence check under its variant's rules
    /// (`None` when the budget gives the probes no campaigns).
    pub competence: [Option<Competence>; 2],
}

/// The campaigns `compare` plays (`campaigns` of each variant), with the
/// most `best_response` plays before it when `budget` is given.
pub fn planned(a: &Scenario, b: &Scenario, campaigns: u64, budget: Option<&Budget>) -> u64 {
    2 * campaigns + budget.map_or(0, |t| tuning_planned(a, t) + tuning_planned(b, t) + 2 * check_planned(t))
}

/// Re-tune `start` in self-play under each variant's rules (warm-started
/// from it, the same budget and search seed for both), and seat the result
/// in every seat of its variant: the scenarios to compare, and what was
/// tuned.
pub fn best_response(
    a: &Scenario,
    b: &Scenario,
    start: &str,
    seed: u64,
    budget: &Budget,
) -> Result<(Scenario, Scenario, BestResponse), Error> {
    let ra = retuned(a, start, seed, budget)?;
    let rb = retuned(b, start, seed, budget)?;
    let br = BestResponse {
        start: start.to_string(),
        a: ra.spec,
        b: rb.spec,
        tuning_campaigns: (ra.played, rb.played),
        tuning_seed: tuning_seed(seed),
        budget: budget.clone(),
        competence: [ra.competence, rb.competence],
    };
    Ok((ra.scenario, rb.scenario, br))
}

impl BestResponse {
    /// The keys whose tuned values differ most between the variants, as a
    /// share of each key's range: (key, A's value, B's value), largest
    /// first.
    pub fn moved(&self, top: usize) -> Vec<(&'static str, f64, f64)> {
        let mut d: Vec<(&'static str, f64, f64, f64)> = crate::scenario::knobs::KNOBS
            .iter()
            .map(|k| {
                let (va, vb) = ((k.get)(&self.a), (k.get)(&self.b));
                let span = if k.hi.is_finite() && k.hi > k.lo { k.hi - k.lo } else { 1.0 };
                (k.key, va, vb, (vb - va).abs() / span)
            })
            .filter(|x| x.3 > 0.0)
            .collect();
        d.sort_by(|x, y| y.3.total_cmp(&x.3).then(x.0.cmp(y.0)));
        d.into_iter().take(top).map(|(k, a, b, _)| (k, a, b)).collect()
    }
}

/// Whether A and B can be compared seat for seat: a paired difference of
/// per-seat and per-strategy metrics means something only when both have
/// the same seats played by the same strategies (the rules may differ).
/// The message names the difference: the seat counts, or each seat whose
/// strategy differs.
pub fn comparable(a: (&str, &Scenario), b: (&str, &Scenario)) -> Result<(), Error> {
    let (pa, pb) = (&a.1.players, &b.1.players);
    if pa.len() != pb.len() {
        return Err(Error::input(format!(
            "{} has {} seats and {} has {}: a paired comparison needs the same seats (compare a scenario with a variant of itself)",
            a.0,
            pa.len(),
            b.0,
            pb.len()
        )));
    }
    let differ: Vec<String> = pa
        .iter()
        .zip(pb)
        .enumerate()
        .filter(|(_, (x, y))| x.strategy != y.strategy)
        .map(|(i, (x, y))| format!("seat {i} plays {} in {} and {} in {}", x.strategy, a.0, y.strategy, b.0))
        .collect();
    if !differ.is_empty() {
        return Err(Error::input_naming([
            format!(
                "the players differ ({}): a paired comparison measures a rule change with the same players; use ",
                differ.join("; ")
            )
            .into(),
            Input::Players.into(),
            " STRATEGY to seat one strategy in both".into(),
        ]));
    }
    Ok(())
}

/// Play `campaigns` of each variant on master seed `seed` and compare.
pub fn compare(
    a: (&str, &Scenario),
    b: (&str, &Scenario),
    seed: u64,
    campaigns: u64,
    rotate_seats: bool,
) -> Result<Comparison, SetupError> {
    let metrics = with_combat(&[a.1, b.1]);
    let ma = measure(a.1, seed, campaigns, rotate_seats, &metrics, false)?;
    let mb = measure(b.1, seed, campaigns, rotate_seats, &metrics, false)?;
    Ok(of_measured((a.0, &ma), (b.0, &mb), &metrics, seed, rotate_seats))
}

/// The comparison of two variants already measured on the same campaigns
/// of master seed `seed` (`compare` plays them; `compare RUN_A RUN_B`
/// reads two finished runs).
pub fn of_measured(
    a: (&str, &Measured),
    b: (&str, &Measured),
    metrics: &[Metric],
    seed: u64,
    rotate_seats: bool,
) -> Comparison {
    let mut rows = paired(metrics, a.1, b.1);
    adjust(&mut rows, Correction::Holm);
    let played = |m: &Measured| Played { coverage: m.coverage.clone(), campaigns: m.values.len() as u64 };
    Comparison {
        a_name: a.0.to_string(),
        b_name: b.0.to_string(),
        campaigns: a.1.values.len() as u64,
        seed,
        rotate_seats,
        rows,
        correction: Correction::Holm,
        played: [played(a.1), played(b.1)],
    }
}
