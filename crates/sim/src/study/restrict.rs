//! `experiment restrict`: what is an option worth to a player who plays
//! well? Restricted play (Jaffe et al. 2012) on common seeds, answered three
//! ways:
//!
//! - **Naive, at each strength level.** One player of a strategy with the
//!   restriction, every other seat the same strategy without it, seats
//!   rotated; its result is paired campaign by campaign with the
//!   unrestricted strategy in the same seat. Played for each level of
//!   `levels` (by default random, balanced, tuned and lookahead over
//!   tuned), so a designer sees whether the answer holds as play gets
//!   stronger.
//! - **Best response on both sides.** The restricted player is tuned under
//!   its restriction (`strength::tune`, against the unrestricted field),
//!   and so is the unrestricted player (the same budget, the same field).
//!   The value of the option is the difference between the two tuned
//!   players' win rates against that field, paired on held-out campaigns.
//!   Each tuned player is the point of its search (the start or a
//!   generation's mean) that did best against the field on the search's
//!   fixed reference campaigns, so a short search never returns a player
//!   worse than its start.
//!   Each side plays as well as tuning can make it, so the figure is the
//!   option's worth, not a measure of one set of weights' habits.

use crate::error::{Error, Input};
use crate::scenario::ActionKind;
use crate::scenario::{Scenario, StrategySpec};
use crate::sim::lineup::Lineup;
use crate::stats::{Mean, mean_interval};
use crate::strength::best_response::{Budget, tune_from, tuning_planned};
use crate::strength::tune::{Field, held_out_master};

/// A restriction: kinds forbidden and kinds forced first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restriction {
    pub forbid: Vec<ActionKind>,
    pub force: Vec<ActionKind>,
}

/// Names as a list: `mine, pillage`.
fn names(kinds: &[ActionKind], sep: &str) -> String {
    kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(sep)
}

impl Restriction {
    /// `done` cannot be forbidden, and a restriction restricts something.
    pub fn new(forbid: Vec<ActionKind>, force: Vec<ActionKind>) -> Result<Restriction, Error> {
        if forbid.contains(&ActionKind::Done) {
            return Err(Error::input("\"done\" cannot be forbidden: a player must be able to stop"));
        }
        if forbid.is_empty() && force.is_empty() {
            return Err(Error::input_naming([
                "give ".into(),
                Input::Forbid.into(),
                ", ".into(),
                Input::Force.into(),
                " or both".into(),
            ]));
        }
        Ok(Restriction { forbid, force })
    }

    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        if !self.forbid.is_empty() {
            parts.push(format!("no {}", names(&self.forbid, ", no ")));
        }
        if !self.force.is_empty() {
            parts.push(format!("{} first", names(&self.force, " and ")));
        }
        parts.join("; ")
    }

    /// The kinds the restriction is about, forbidden or forced: the
    /// competence check of an answer about it rests on their probes
    /// (forcing mines first is an answer about mines).
    pub fn kinds(&self) -> Vec<ActionKind> {
        self.forbid.iter().chain(&self.force).copied().collect()
    }

    /// `spec` with the restriction added.
    pub fn apply(&self, spec: &StrategySpec) -> StrategySpec {
        let mut s = spec.clone();
        for k in &self.forbid {
            if !s.forbid.contains(k) {
                s.forbid.push(*k);
            }
        }
        for k in &self.force {
            if !s.force.contains(k) {
                s.force.push(*k);
            }
        }
        s
    }
}

/// One player of `me` against copies of `field`, paired with a player of
/// `field` in the same seat on the same campaigns.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub label: String,
    pub campaigns: u64,
    pub wins: u64,
    pub base_wins: u64,
    /// `me`'s result minus the field's own in that seat, per campaign.
    pub diff: Mean,
}

/// Whether `me`, in slot 0 with `field` in every other seat (rotated), won
/// each of the campaigns `0..campaigns` of `master`.
pub fn first_slot_wins(
    sc: &Scenario,
    me: &StrategySpec,
    field: &StrategySpec,
    master: u64,
    campaigns: u64,
) -> Result<Vec<bool>, Error> {
    let mut lineup = vec![field.clone(); sc.players.len()];
    lineup[0] = me.clone();
    let won = Lineup::new(sc, &lineup)
        .map_err(crate::rules::setup::SetupError::into_error)?
        .winners(master, 0..campaigns)
        .map_err(crate::rules::setup::SetupError::into_error)?;
    Ok(won.into_iter().map(|w| w == 0).collect())
}

/// The value of `won` against `base`, campaign by campaign.
pub fn value_of(label: &str, won: &[bool], base: &[bool]) -> Value {
    let count = |xs: &[bool]| xs.iter().filter(|&&w| w).count() as u64;
    Value {
        label: label.to_string(),
        campaigns: won.len() as u64,
        wins: count(won),
        base_wins: count(base),
        diff: mean_interval(won.iter().zip(base).map(|(&w, &b)| w as u8 as f64 - b as u8 as f64), 0.95),
    }
}

/// Play `me` in one seat and `field` in the others, and `field` in every
/// seat, on campaigns `0..campaigns` of `master`.
pub fn paired(
    sc: &Scenario,
    label: &str,
    me: &StrategySpec,
    field: &StrategySpec,
    master: u64,
    campaigns: u64,
) -> Result<Value, Error> {
    let base = first_slot_wins(sc, field, field, master, campaigns)?;
    let won = first_slot_wins(sc, me, field, master, campaigns)?;
    Ok(value_of(label, &won, &base))
}

/// Searches behind each best-response figure: the pair of tunings (under
/// the restriction and without it) is repeated with this many search
/// seeds, so the figure carries the search's own variance.
pub const SEARCHES: u32 = 3;

/// The search seed of search `i` (search 0 is the master seed itself).
pub fn search_seed(seed: u64, i: u32) -> u64 {
    if i == 0 { seed } else { crate::seed::mix2(seed, 0x5345_4152_4348 + i as u64) }
}

/// The best-response answer.
#[derive(Clone, Debug)]
pub struct Best {
    /// The restricted player tuned under the restriction, and the
    /// unrestricted one tuned the same way, each against the field.
    pub restricted: StrategySpec,
    pub unrestricted: StrategySpec,
    /// Restricted tuned player minus unrestricted tuned player, paired on
    /// held-out campaigns against the field: the mean over the searches,
    /// its interval from the total variance (the held-out campaigns'
    /// evaluation variance plus the between-search variance over the
    /// number of searches). The players above are those of the first search.
    pub value: Mean,
    /// Each search's own figure (restricted minus unrestricted).
    pub searches: Vec<f64>,
    /// The standard deviation between searches beyond evaluation noise
    /// (τ; NaN with one search), and the evaluation's standard error of
    /// the mean.
    pub search_sd: f64,
    pub eval_se: f64,
    pub restricted_wins: u64,
    pub unrestricted_wins: u64,
    pub campaigns: u64,
    pub held_out: u64,
    pub tuning_campaigns: u64,
    /// The competence check of the unrestricted tuned player (the first
    /// search's) against the field, on the probes the restriction's kinds
    /// rest on, on the held-out seed: were the restriction's value to come
    /// from a best response that misuses what the restriction forbids, its
    /// "no ..." probe would fail. `None` when the budget gives the probes
    /// no campaigns or no probe touches the kinds.
    pub competence: Option<crate::strength::probe::Competence>,
}

/// A finished study.
#[derive(Clone, Debug)]
pub struct Study {
    pub restriction: Restriction,
    /// The strategy the players play (the field of the best response).
    pub players: String,
    pub seed: u64,
    pub campaigns: u64,
    /// The naive value at each strength level, in `levels` order.
    pub levels: Vec<Value>,
    /// Each level's competence check on the probes the restriction's kinds
    /// rest on (`probe::for_kinds` of `Restriction::kinds`), in `levels` order; empty when no
    /// probe touches them.
    pub competence: Vec<crate::strength::probe::Competence>,
    pub best: Option<Best>,
}

impl Study {
    /// The naive value at the players' own level, if it was measured.
    pub fn naive(&self) -> Option<&Value> {
        self.levels.iter().find(|v| v.label == self.players)
    }

    /// Whether the naive and best-response intervals fail to overlap.
    pub fn disagree(&self) -> Option<bool> {
        let (n, b) = (self.naive()?, self.best.as_ref()?);
        Some(n.diff.high < b.value.low || b.value.high < n.diff.low)
    }
}

/// Tune `start` (a spec) over every key against copies of `field`.
fn best_response(
    sc: &Scenario,
    start: &StrategySpec,
    field: &str,
    seed: u64,
    budget: &Budget,
) -> Result<(StrategySpec, u64), Error> {
    tune_from(sc, start, Field::Fixed(vec![field.to_string()]), seed, budget)
}

/// The mean of several searches' paired differences on the same held-out
/// campaigns, with its total variance.
pub struct Total {
    pub value: Mean,
    pub searches: Vec<f64>,
    pub search_sd: f64,
    pub eval_se: f64,
}

/// `y[i][c]`: search `i`'s restricted-minus-unrestricted result in held-out
/// campaign `c` (every search on the same campaigns). The estimate is the
/// mean over searches and campaigns. Its evaluation variance comes from the
/// campaigns (the per-campaign mean over searches, so the searches'
/// shared campaigns are accounted for); the between-search variance is
/// the variance of the searches' figures less what evaluation noise alone
/// puts into it, `τ² = max(0, s² − Σ_i S²_c(y_ic − ȳ_·c) / (n (R − 1)))`,
/// and enters over `R`. The 95% interval is normal on the sum.
pub fn total_variance(y: &[Vec<f64>]) -> Total {
    let r = y.len();
    let n = y.first().map_or(0, Vec::len);
    let per_campaign: Vec<f64> = (0..n).map(|c| y.iter().map(|s| s[c]).sum::<f64>() / r as f64).collect();
    let eval = mean_interval(per_campaign.iter().copied(), 0.95);
    let eval_se = eval.sd / (n as f64).sqrt();
    let searches: Vec<f64> = y.iter().map(|s| s.iter().sum::<f64>() / n as f64).collect();
    let search_sd = if r < 2 {
        f64::NAN
    } else {
        let m = searches.iter().sum::<f64>() / r as f64;
        let s2 = searches.iter().map(|d| (d - m).powi(2)).sum::<f64>() / (r - 1) as f64;
        let within: f64 = y
            .iter()
            .map(|s| {
                let dev: Vec<f64> = s.iter().zip(&per_campaign).map(|(a, b)| a - b).collect();
                let md = dev.iter().sum::<f64>() / n as f64;
                dev.iter().map(|d| (d - md).powi(2)).sum::<f64>() / (n as f64 - 1.0)
            })
            .sum::<f64>()
            / (n as f64 * (r - 1) as f64);
        (s2 - within).max(0.0).sqrt()
    };
    let between = if search_sd.is_nan() { 0.0 } else { search_sd * search_sd / r as f64 };
    let se = (eval_se * eval_se + between).sqrt();
    let z = crate::stats::z(0.95);
    let value = Mean {
        n: n as u64,
        mean: eval.mean,
        sd: se * (n as f64).sqrt(),
        low: eval.mean - z * se,
        high: eval.mean + z * se,
    };
    Total { value, searches, search_sd, eval_se }
}

/// The campaigns `run` plays with `levels` strength levels (at most, with
/// a best response, whose searches may converge sooner).
pub fn planned(sc: &Scenario, r: &Restriction, levels: usize, campaigns: u64, budget: Option<&Budget>) -> u64 {
    let probes = crate::strength::probe::for_kinds(&Default::default(), &r.kinds());
    let checks =
        if probes.is_empty() { 0 } else { levels as u64 * crate::strength::probe::planned(&probes, campaigns) };
    let naive = levels as u64 * 2 * campaigns + checks;
    naive
        + budget.map_or(0, |b| {
            let check = if probes.is_empty() { 0 } else { crate::strength::probe::planned(&probes, b.probe_campaigns) };
            SEARCHES as u64 * 2 * (tuning_planned(sc, b) + campaigns) + check
        })
}

/// Run the study: the naive value at each level, and with `budget` the
/// best-response value with `players` as the field.
pub fn run(
    sc: &Scenario,
    r: &Restriction,
    players: &str,
    levels: &[String],
    seed: u64,
    campaigns: u64,
    budget: Option<&Budget>,
) -> Result<Study, Error> {
    let field = sc.named_strategy(players)?;
    let mut values = Vec::new();
    let mut competence = Vec::new();
    let settings = crate::strength::probe::Settings::default();
    let probes = crate::strength::probe::for_kinds(&settings, &r.kinds());
    for level in levels {
        let spec = sc.named_strategy(level).map_err(|e| e.at_input(Input::Levels))?;
        values.push(paired(sc, level, &r.apply(&spec), &spec, seed, campaigns)?);
        if !probes.is_empty() {
            competence.push(crate::strength::probe::check(sc, level, probes.clone(), settings, seed, campaigns)?);
        }
    }
    let best = match budget {
        None => None,
        Some(b) => {
            if field.kind != crate::scenario::StrategyKind::Weighted {
                return Err(Error::input(format!("tunes the players' keys: {players:?} must be a weighted strategy"))
                    .at_input(Input::BestResponse));
            }
            // Both against the field, on campaigns no search played.
            let held = held_out_master(seed);
            let mut players_of_first = None;
            let (mut wins, mut base_wins, mut tuning) = (0, 0, 0);
            let mut diffs: Vec<Vec<f64>> = Vec::new();
            for i in 0..SEARCHES {
                let at = search_seed(seed, i);
                let (restricted, c1) = best_response(sc, &r.apply(&field), players, at, b)?;
                let (unrestricted, c2) = best_response(sc, &field, players, at, b)?;
                let won_r = first_slot_wins(sc, &restricted, &field, held, campaigns)?;
                let won_u = first_slot_wins(sc, &unrestricted, &field, held, campaigns)?;
                let v = value_of("best response", &won_r, &won_u);
                wins += v.wins;
                base_wins += v.base_wins;
                tuning += c1 + c2;
                diffs.push(won_r.iter().zip(&won_u).map(|(&w, &u)| w as u8 as f64 - u as u8 as f64).collect());
                players_of_first.get_or_insert((restricted, unrestricted));
            }
            let (restricted, unrestricted) =
                players_of_first.ok_or_else(|| Error::internal("restrict: the first search gave no players"))?;
            let t = total_variance(&diffs);
            let competence = if probes.is_empty() || b.probe_campaigns == 0 {
                None
            } else {
                Some(crate::strength::probe::check_against(
                    sc,
                    "best response",
                    &unrestricted,
                    (players, &field),
                    probes.clone(),
                    settings,
                    held,
                    b.probe_campaigns,
                )?)
            };
            Some(Best {
                restricted,
                unrestricted,
                value: t.value,
                searches: t.searches,
                search_sd: t.search_sd,
                eval_se: t.eval_se,
                restricted_wins: wins,
                unrestricted_wins: base_wins,
                campaigns: campaigns * SEARCHES as u64,
                held_out: held,
                tuning_campaigns: tuning,
                competence,
            })
        }
    };
    Ok(Study {
        restriction: r.clone(),
        players: players.to_string(),
        seed,
        campaigns,
        levels: values,
        competence,
        best,
    })
}
