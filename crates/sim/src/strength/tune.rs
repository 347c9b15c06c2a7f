//! `empires tune`: CMA-ES over the numeric keys of a weighted strategy, to
//! maximise its win rate against an opponent field.
//!
//! - **Method.** Hansen's CMA-ES, from the `cmaes` crate, in the unit
//!   coordinates of `space` (every key scaled to its range). The fitness of
//!   a candidate is its mean `Objective` over `per_eval` campaigns of the
//!   scenario's game, its seats rotated, less `space::penalty` when it lies
//!   outside the ranges (it then plays at the nearest point inside). The
//!   command's objective is dense by default (rank points): against a
//!   field that wins everything every candidate wins about nothing, and a
//!   win rate gives the search no direction; the win rate stays the figure
//!   reported. From `warlord` against three `tuned` (120,000 campaigns, six
//!   seeds) rank points climbed to 5.8–23.9% held out, the size share to
//!   0.9–11.5% (a share near a quarter need not win), wins mostly not at
//!   all (docs/strength.md).
//! - **The result** is chosen, not assumed: the start, the mean that did
//!   best on the reference campaigns and the last mean play the field on a
//!   selection seed no search played (`select`), and the one that wins most
//!   there is kept, so a run never hands back a player below its start by
//!   that measure. The held-out evaluation then plays yet other seeds.
//! - **Common seeds.** Every candidate of generation `g` plays the same
//!   campaigns (master seed `generation_master(seed, g)`), so the ranking
//!   inside a generation is not lost in map and dice noise. Each generation
//!   has new seeds, so the search cannot fit one set of campaigns.
//! - **The field.** Fixed strategies, or `self`: the opponents are the
//!   current mean of the search, re-chosen before each generation, as in
//!   self-play.
//! - **Varied rules.** With `vary` (`KEY=LO..HI`, the numbers of
//!   `balance::param`: start gold, mine and pillage yields, recruit caps),
//!   every evaluation plays `variants` scenarios, each drawn uniformly
//!   from the ranges, its campaigns shared equally among them: a player
//!   tuned so has met economies where gold is plentiful, so its recruit
//!   and army keys are tested at all. The variants are drawn from the seed
//!   (`variant_seed`); the held-out evaluation draws its own from its
//!   master seed, so it reports the player on variants it never saw.
//! - **Progress** is measured apart from the search: after each generation
//!   the new mean plays the reference field (the fixed field, or the start
//!   for self-play) on one fixed set of campaigns (`reference_master`), so
//!   the trace of the mean's strength is paired from one generation to the
//!   next.
//! - **Determinism.** The result depends only on the scenario, the settings
//!   and the seed. The crate samples from a ChaCha stream seeded from
//!   `seed`; candidates run in parallel but each campaign's result depends
//!   only on its seeds, and wins are counted as integers.
//! - **Resuming.** The search is replayed, not restored: a fresh search with
//!   the same settings samples the same candidates, and the fitness values
//!   recorded for the finished generations are handed back instead of being
//!   played again. A candidate that is not in the record means the settings
//!   differ, and the resume is refused.
//!
//! No IO here: the caller is told about each generation and writes files.

use super::space::{Space, penalty};
use crate::error::{Error, Input};
use crate::scenario::param::Param;
use crate::scenario::{Scenario, StrategySpec};
use crate::seed::mix2;
use crate::sim::lineup::{Lineup, Wins};
use cmaes::{CMAESOptions, DVector, Mode};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Mutex, RwLock};

/// Who the tuned strategy plays against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Field {
    /// The current mean of the search (self-play).
    #[serde(rename = "self")]
    SelfPlay,
    /// These strategies, filling the other seats in turn.
    Fixed(Vec<String>),
}

impl Field {
    pub fn describe(&self) -> String {
        match self {
            Field::SelfPlay => "self".into(),
            Field::Fixed(v) => v.join(","),
        }
    }
}

/// What a candidate's fitness averages over its campaigns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// 1 for a win, 0 otherwise: what the held-out figures report, but
    /// flat where every candidate loses nearly every campaign. The
    /// default of a record written before objectives existed.
    #[default]
    Wins,
    /// The tuned player's share of the final empire sizes (`Finish::share`):
    /// every hex it holds at the end counts, won or lost.
    Share,
    /// Rank points, 1 for first place to 0 for last (`Finish::points`).
    Rank,
}

impl Objective {
    pub fn name(self) -> &'static str {
        match self {
            Objective::Wins => "wins",
            Objective::Share => "share",
            Objective::Rank => "rank",
        }
    }

    /// What the objective averages, in words.
    pub fn words(self) -> &'static str {
        match self {
            Objective::Wins => "the win rate",
            Objective::Share => "the mean share of the final empire sizes",
            Objective::Rank => "the mean rank points (1 first, 0 last)",
        }
    }

    /// Slot `slot`'s objective in one campaign.
    pub fn of(self, f: &crate::sim::lineup::Finish, slot: usize) -> f64 {
        match self {
            Objective::Wins => (f.winner == slot) as u8 as f64,
            Objective::Share => f.share[slot],
            Objective::Rank => f.points[slot],
        }
    }

    pub fn parse(s: &str) -> Result<Objective, Error> {
        match s {
            "wins" => Ok(Objective::Wins),
            "share" => Ok(Objective::Share),
            "rank" => Ok(Objective::Rank),
            _ => Err(Error::input(format!("{s:?} is not an objective (wins, share, rank)"))),
        }
    }
}

/// Everything that decides a tuning run (what `--resume` must find unchanged).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The strategy tuning starts from (and the tuned one `extends`).
    pub start: String,
    pub field: Field,
    pub keys: Vec<String>,
    /// Campaigns per candidate, a multiple of the seat count.
    pub per_eval: u64,
    pub generations: u32,
    pub population: usize,
    /// Initial step size, in unit coordinates (a share of each key's range).
    pub sigma: f64,
    pub seed: u64,
    /// Scenario numbers drawn per variant, `KEY=LO..HI` (empty: the
    /// scenario as it is).
    #[serde(default)]
    pub vary: Vec<String>,
    /// Variants an evaluation plays when `vary` is given.
    #[serde(default)]
    pub variants: u32,
    /// Gold handed to the tuned player at the start of the last quarter of
    /// each evaluation's campaigns (0: none). The competence check hands a
    /// player 500 gold and asks that it not do worse; campaigns without a
    /// gift never show a tuning the gold-rich games where its recruit,
    /// engine and siege keys decide, so a search fitted to them alone can
    /// trade that play away. The held-out evaluation plays no gift.
    #[serde(default)]
    pub gift_gold: i32,
    /// A resource handed to the tuned player at the start of every
    /// campaign the problem plays, search and held-out alike: the player
    /// is fitted to the game in which it holds it (`experiment worth`'s
    /// best response fitted with the gift). `None`: the scenario's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given: Option<crate::rules::setup::Gift>,
    /// What the search maximises (the held-out figures are win rates
    /// whatever it is).
    #[serde(default)]
    pub objective: Objective,
    /// Where the search starts, in unit coordinates of `keys`, when not at
    /// the start's own values (a random start of `climb`); the start's
    /// other keys are kept.
    #[serde(default)]
    pub start_at: Option<Vec<f64>>,
}

/// One candidate of a generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// Unit coordinates, as the search sampled them.
    pub u: Vec<f64>,
    pub wins: u64,
    /// The objective summed over its campaigns (the wins, for `Wins`).
    #[serde(default)]
    pub score: f64,
}

/// One finished generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    pub index: u32,
    /// Best first (ties: by coordinates), so `candidate` numbers are ranks.
    pub candidates: Vec<Candidate>,
    /// The search's mean after this generation, in unit coordinates.
    pub mean: Vec<f64>,
    pub sigma: f64,
    /// Wins of that mean against the reference field, in `per_eval`
    /// campaigns of the reference seeds.
    pub reference_wins: u64,
    /// Its objective summed over those campaigns.
    #[serde(default)]
    pub reference_score: f64,
}

/// A run so far: the record `--resume` continues.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub settings: Settings,
    /// Wins of the start against the reference field on the reference seeds.
    pub start_reference_wins: u64,
    /// Its objective summed over those campaigns.
    #[serde(default)]
    pub start_reference_score: f64,
    pub generations: Vec<Generation>,
    /// Why the search stopped before its last generation, if it did.
    pub stopped: Option<String>,
}

const TAG_CMA: u64 = 0x636d_6165_7300_0001;
const TAG_GENERATION: u64 = 0x636d_6165_7300_0002;
const TAG_REFERENCE: u64 = 0x636d_6165_7300_0003;
const TAG_HELD_OUT: u64 = 0x636d_6165_7300_0004;
const TAG_VARIANT: u64 = 0x636d_6165_7300_0005;
const TAG_SELECT: u64 = 0x636d_6165_7300_0006;

/// The seed variant `v` of a set drawn from `seed` is drawn with.
pub fn variant_seed(seed: u64, v: u32) -> u64 {
    mix2(mix2(seed, TAG_VARIANT), v as u64)
}

/// `k` scenarios, each `sc` with every parameter of `params` drawn
/// uniformly from its range with `variant_seed(seed, v)`; each is checked.
pub fn draw_variants(sc: &Scenario, params: &[Param], k: u32, seed: u64) -> Result<Vec<Scenario>, Error> {
    use rand::RngExt;
    if params.is_empty() {
        return Ok(vec![sc.clone()]);
    }
    (0..k)
        .map(|v| {
            let mut rng = crate::seed::rng(variant_seed(seed, v), crate::seed::Stream::Map);
            let mut s = sc.clone();
            for p in params {
                let x = p.value_at(rng.random::<f64>());
                p.set(&mut s, x);
            }
            let problems = crate::scenario::check::check(&s);
            match problems.first() {
                None => Ok(s),
                Some((path, message)) => {
                    let key: Vec<String> = path
                        .iter()
                        .map(|seg| match seg {
                            crate::scenario::check::PathSeg::Key(k) => k.clone(),
                            crate::scenario::check::PathSeg::Index(i) | crate::scenario::check::PathSeg::Char(i) => {
                                format!("[{i}]")
                            }
                        })
                        .collect();
                    Err(Error::input(format!(
                        "variant {v} ({}) breaks the scenario: {}: {message}",
                        describe_variant(params, &s),
                        key.join(".")
                    ))
                    .at_input(Input::Range))
                }
            }
        })
        .collect()
}

/// What one variant sets, `KEY=VALUE ...`, as `--set` takes it.
pub fn describe_variant(params: &[Param], sc: &Scenario) -> String {
    params.iter().map(|p| p.set_flag(sc)).collect::<Vec<_>>().join(" ")
}

/// Master seed of generation `g`'s campaigns.
pub fn generation_master(seed: u64, g: u32) -> u64 {
    mix2(mix2(seed, TAG_GENERATION), g as u64)
}

/// Master seed of the reference campaigns (the same every generation).
pub fn reference_master(seed: u64) -> u64 {
    mix2(seed, TAG_REFERENCE)
}

/// The default master seed of the held-out evaluation.
pub fn held_out_master(seed: u64) -> u64 {
    mix2(seed, TAG_HELD_OUT)
}

/// Master seed of the selection among a run's finalists: no search plays
/// it, and the held-out evaluation plays another.
pub fn select_master(seed: u64) -> u64 {
    mix2(seed, TAG_SELECT)
}

/// CMA-ES's default population for `dim` keys (Hansen: 4 + ⌊3 ln n⌋).
pub fn default_population(dim: usize) -> usize {
    4 + (3.0 * (dim as f64).ln()).floor() as usize
}

/// The campaigns a tuning of `generations` plays: each generation its
/// `population` candidates and its mean, and the start once, `per_eval`
/// campaigns each.
pub fn campaigns(generations: u64, population: usize, per_eval: u64) -> u64 {
    (generations * (population as u64 + 1) + 1) * per_eval
}

/// A tuning problem: the scenario, the start, the space and the field.
pub struct Problem<'a> {
    pub sc: &'a Scenario,
    pub settings: Settings,
    pub start: StrategySpec,
    pub space: Space,
    /// The specs of a fixed field (empty for self-play).
    pub field: Vec<StrategySpec>,
    /// `settings.vary`, parsed.
    pub params: Vec<Param>,
    /// The scenarios the search plays (the scenario itself without `vary`).
    pub variants: Vec<Scenario>,
}

/// Wins and the objective's sum over some campaigns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: Wins,
    /// The objective of slot 0 summed over the campaigns, in campaign
    /// order (the wins themselves for `Objective::Wins`).
    pub score: f64,
}

impl Tally {
    /// The objective's mean per campaign.
    pub fn mean(&self) -> f64 {
        if self.wins.campaigns == 0 { f64::NAN } else { self.score / self.wins.campaigns as f64 }
    }
}

impl<'a> Problem<'a> {
    /// Check the settings against the scenario.
    pub fn new(sc: &'a Scenario, settings: Settings) -> Result<Problem<'a>, Error> {
        let mut start = sc.named_strategy(&settings.start)?;
        if start.kind != crate::scenario::StrategyKind::Weighted {
            return Err(Error::input(format!(
                "{:?} is not a weighted strategy: only a weighted player's keys can be tuned",
                settings.start
            )));
        }
        let space = Space::of(&settings.keys)?;
        if let Some(u) = &settings.start_at {
            if u.len() != space.dim() || !u.iter().all(|x| (0.0..=1.0).contains(x)) {
                return Err(Error::input(format!(
                    "a start point needs {} coordinates between 0 and 1 (found {u:?})",
                    space.dim()
                )));
            }
            start = space.apply(&start, &space.values(u));
        }
        let seats = sc.players.len();
        if seats < 2 {
            return Err(Error::input("the scenario needs at least 2 seats to tune a player"));
        }
        let field = match &settings.field {
            Field::SelfPlay => Vec::new(),
            Field::Fixed(names) => {
                if names.is_empty() || names.len() > seats - 1 {
                    return Err(Error::input(format!(
                        "the scenario has {seats} seats: name from 1 to {} opponents (found {})",
                        seats - 1,
                        names.len()
                    )));
                }
                names.iter().map(|n| sc.named_strategy(n)).collect::<Result<_, _>>()?
            }
        };
        let params = crate::balance::param::parse_list(&settings.vary, sc)?;
        let k = if params.is_empty() { 1 } else { settings.variants };
        if k == 0 {
            return Err(Error::input("at least one variant"));
        }
        let block = seats as u64 * k as u64;
        if settings.per_eval == 0 || !settings.per_eval.is_multiple_of(block) {
            return Err(Error::input(format!(
                "campaigns per evaluation must be a positive multiple of the {seats} seats{} (found {})",
                if k > 1 { format!(" times the {k} variants") } else { String::new() },
                settings.per_eval
            )));
        }
        let variants = draw_variants(sc, &params, k, settings.seed)?;
        if settings.population < 2 {
            return Err(Error::input("the population must be at least 2"));
        }
        if !(settings.sigma.is_finite() && settings.sigma > 0.0 && settings.sigma <= 1.0) {
            return Err(Error::input(format!("sigma must be above 0 and at most 1 (found {})", settings.sigma)));
        }
        if settings.generations == 0 {
            return Err(Error::input("at least one generation"));
        }
        Ok(Problem { sc, settings, start, space, field, params, variants })
    }

    /// The spec at unit coordinates `u`.
    pub fn spec_at(&self, u: &[f64]) -> StrategySpec {
        self.space.apply(&self.start, &self.space.values(u))
    }

    /// The lineup of `me` against the opponents (`others` fill the other
    /// seats in turn).
    fn lineup(sc: &Scenario, me: &StrategySpec, others: &[StrategySpec]) -> Result<Lineup, Error> {
        let n = sc.players.len();
        let mut specs = vec![me.clone()];
        specs.extend((0..n - 1).map(|k| others[k % others.len()].clone()));
        Lineup::new(sc, &specs).map_err(Error::from)
    }

    /// Wins of `me` (slot 0) against `others` in `campaigns` campaigns of
    /// `master`, shared equally among the search's variants.
    pub fn wins_against(
        &self,
        me: &StrategySpec,
        others: &[StrategySpec],
        master: u64,
        campaigns: u64,
    ) -> Result<Wins, Error> {
        self.wins_with(&self.variants, me, others, master, campaigns, self.settings.gift_gold)
    }

    /// As `wins_against`, with the objective's sum: what the search sees.
    pub fn tally_against(
        &self,
        me: &StrategySpec,
        others: &[StrategySpec],
        master: u64,
        campaigns: u64,
    ) -> Result<Tally, Error> {
        self.played(&self.variants, me, others, master, campaigns, self.settings.gift_gold, self.settings.objective)
    }

    /// As `wins_on`, with the objective's sum.
    pub fn tally_on(
        &self,
        variants: &[Scenario],
        me: &StrategySpec,
        others: &[StrategySpec],
        master: u64,
        campaigns: u64,
    ) -> Result<Tally, Error> {
        self.played(variants, me, others, master, campaigns, 0, self.settings.objective)
    }

    /// As `wins_against`, on `variants`: variant `v` plays campaigns
    /// `0..campaigns / k` of `variant_seed(master, v)` (the scenario itself
    /// plays `0..campaigns` of `master`).
    pub fn wins_on(
        &self,
        variants: &[Scenario],
        me: &StrategySpec,
        others: &[StrategySpec],
        master: u64,
        campaigns: u64,
    ) -> Result<Wins, Error> {
        self.wins_with(variants, me, others, master, campaigns, 0)
    }

    /// As `wins_on`, with `gold` (when above 0) handed to `me` in the last
    /// quarter of each variant's campaigns, rounded down to whole rounds of
    /// the seats so the gifted player sits in every seat alike.
    fn wins_with(
        &self,
        variants: &[Scenario],
        me: &StrategySpec,
        others: &[StrategySpec],
        master: u64,
        campaigns: u64,
        gold: i32,
    ) -> Result<Wins, Error> {
        self.played(variants, me, others, master, campaigns, gold, Objective::Wins).map(|t| t.wins)
    }

    /// As `wins_with`, with `objective`'s sum.
    #[allow(clippy::too_many_arguments)]
    fn played(
        &self,
        variants: &[Scenario],
        me: &StrategySpec,
        others: &[StrategySpec],
        master: u64,
        campaigns: u64,
        gold: i32,
        objective: Objective,
    ) -> Result<Tally, Error> {
        let seats = self.sc.players.len() as u64;
        let one = variants.len() == 1;
        let each = if one { campaigns } else { campaigns / variants.len() as u64 };
        let gifted = if gold > 0 { each / 4 / seats * seats } else { 0 };
        let mut total = Tally { wins: Wins { campaigns: 0, by_slot: vec![0; self.sc.players.len()] }, score: 0.0 };
        // Wins alone play the lineup's `wins` (the pieces a resumed run
        // kept before objectives existed are found again); the others
        // read every slot's finish.
        let mut play = |lineup: &Lineup, m: u64, range: std::ops::Range<u64>| -> Result<(), Error> {
            total.wins.campaigns += range.end - range.start;
            match objective {
                Objective::Wins => {
                    let w = lineup.wins(m, range).map_err(Error::from)?;
                    for (t, x) in total.wins.by_slot.iter_mut().zip(&w.by_slot) {
                        *t += x;
                    }
                    total.score += w.by_slot[0] as f64;
                }
                Objective::Share | Objective::Rank => {
                    for f in lineup.finishes(m, range).map_err(Error::from)? {
                        total.wins.by_slot[f.winner] += 1;
                        total.score += objective.of(&f, 0);
                    }
                }
            }
            Ok(())
        };
        for (v, sc) in variants.iter().enumerate() {
            // The scenario alone plays `master` itself, as it always has.
            let m = if one { master } else { variant_seed(master, v as u32) };
            let mut lineup = Self::lineup(sc, me, others)?;
            if let Some(g) = self.settings.given {
                lineup = lineup.with_gift(0, g);
            }
            play(&lineup, m, 0..each - gifted)?;
            if gifted > 0 {
                let lineup = lineup.with_gift(0, crate::rules::setup::Gift::Gold(gold));
                play(&lineup, m, each - gifted..each)?;
            }
        }
        Ok(total)
    }

    /// What the search ranks a measurement by: the objective's sum (the
    /// wins for `Wins`, also in a record that kept no score).
    pub fn value(&self, wins: u64, score: f64) -> f64 {
        if self.settings.objective == Objective::Wins { wins as f64 } else { score }
    }

    /// The reference field: the fixed field, or the start for self-play.
    pub fn reference_field(&self) -> Vec<StrategySpec> {
        if self.field.is_empty() { vec![self.start.clone()] } else { self.field.clone() }
    }

    /// The point of the run that did best against the reference field on
    /// the reference campaigns: the start or one generation's mean, rounded.
    /// A best response uses it, so a short search can never hand back a
    /// player worse than the one it started from (by that measure).
    pub fn best_by_reference(&self, record: &Record) -> StrategySpec {
        self.spec_rounded(&self.best_reference_point(record).1)
    }

    /// The generation whose mean did best on the reference campaigns by
    /// the objective (`None`: the start did), and its coordinates.
    pub fn best_reference_point(&self, record: &Record) -> (Option<u32>, Vec<f64>) {
        let mut best = (self.value(record.start_reference_wins, record.start_reference_score), None);
        let mut u = self.space.coords(&self.start);
        for g in &record.generations {
            let v = self.value(g.reference_wins, g.reference_score);
            if v > best.0 {
                best = (v, Some(g.index));
                u = g.mean.clone();
            }
        }
        (best.1, u)
    }

    /// The spec at `u`, rounded as `strategy.toml` writes it.
    pub fn spec_rounded(&self, u: &[f64]) -> StrategySpec {
        self.space.apply(&self.start, &self.space.rounded(&self.space.values(u)))
    }

    /// The points a run hands to `select`: the mean that did best on the
    /// reference campaigns, and the last mean when it is another point.
    /// (The start is added by `select` itself.)
    pub fn finalists(&self, record: &Record) -> Vec<Finalist> {
        let mut out = Vec::new();
        if let (Some(g), u) = self.best_reference_point(record) {
            out.push(Finalist { label: format!("best mean (generation {g})"), u });
        }
        if let Some(last) = record.generations.last()
            && out.first().is_none_or(|f| bits(&f.u) != bits(&last.mean))
        {
            out.push(Finalist { label: format!("last mean (generation {})", last.index), u: last.mean.clone() });
        }
        out
    }

    /// The tuned strategy: the last mean, rounded as `strategy.toml` writes it.
    pub fn result(&self, record: &Record) -> (Vec<f64>, StrategySpec) {
        let u = record.generations.last().map_or_else(|| self.space.coords(&self.start), |g| g.mean.clone());
        let values = self.space.rounded(&self.space.values(&u));
        let spec = self.space.apply(&self.start, &values);
        (values, spec)
    }
}

/// What the caller says after each generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// State the objective reads while a generation's candidates play.
struct Fitness<'p, 'a> {
    problem: &'p Problem<'a>,
    /// This generation's campaigns, opponents, and recorded fitness when replaying.
    now: RwLock<Now>,
    seen: Mutex<Vec<Candidate>>,
    error: Mutex<Option<Error>>,
}

#[derive(Default)]
struct Now {
    master: u64,
    opponents: Vec<StrategySpec>,
    replay: Option<HashMap<Vec<u64>, (u64, f64)>>,
}

fn bits(u: &[f64]) -> Vec<u64> {
    u.iter().map(|x| x.to_bits()).collect()
}

impl Fitness<'_, '_> {
    fn eval(&self, x: &DVector<f64>) -> f64 {
        let u: Vec<f64> = x.iter().copied().collect();
        let now = self.now.read().unwrap_or_else(|e| e.into_inner());
        let played = match &now.replay {
            Some(rec) => match rec.get(&bits(&u)) {
                Some(&w) => Ok(w),
                None => Err(Error::input_naming([
                    "the record does not match these settings (a candidate differs): start again without ".into(),
                    Input::Resume.into(),
                    ", or give the settings of the record".into(),
                ])),
            },
            None => {
                let me = self.problem.spec_at(&u);
                self.problem
                    .tally_against(&me, &now.opponents, now.master, self.problem.settings.per_eval)
                    .map(|t| (t.wins.by_slot[0], t.score))
            }
        };
        match played {
            Ok((w, score)) => {
                let fitness = self.problem.value(w, score) / self.problem.settings.per_eval as f64 - penalty(&u);
                self.seen.lock().unwrap_or_else(|e| e.into_inner()).push(Candidate { u, wins: w, score });
                fitness
            }
            Err(e) => {
                *self.error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                f64::NAN
            }
        }
    }
}

/// Run (or continue) the search. `record` holds the generations already
/// done, if any (they are replayed, not played); each new generation is
/// appended to it and handed to `after`, which may stop the run. Returns
/// the record when the last generation is done, the search has converged
/// (`record.stopped`), or `after` said stop.
pub fn tune(
    p: &Problem<'_>,
    mut record: Option<Record>,
    mut after: impl FnMut(&Record) -> Flow,
) -> Result<Record, Error> {
    let s = &p.settings;
    if let Some(r) = &record
        && r.settings != *s
    {
        return Err(Error::input_naming([
            "the record was made with other settings; start again without ".into(),
            Input::Resume.into(),
        ]));
    }
    let done = record.as_ref().map_or(0, |r| r.generations.len());
    let mut rec = match record.take() {
        Some(r) => r,
        None => {
            let t = p.tally_against(&p.start, &p.reference_field(), reference_master(s.seed), s.per_eval)?;
            Record {
                settings: s.clone(),
                start_reference_wins: t.wins.by_slot[0],
                start_reference_score: t.score,
                generations: Vec::new(),
                stopped: None,
            }
        }
    };
    if rec.stopped.is_some() || done >= s.generations as usize {
        return Ok(rec);
    }
    let old: Vec<Generation> = std::mem::take(&mut rec.generations);

    let obj = Fitness { problem: p, now: RwLock::new(Now::default()), seen: Mutex::default(), error: Mutex::default() };
    let f = |x: &DVector<f64>| obj.eval(x);
    let mut cma = CMAESOptions::new(p.space.coords(&p.start), s.sigma)
        .mode(Mode::Maximize)
        .population_size(s.population)
        .seed(mix2(s.seed, TAG_CMA))
        .max_generations(s.generations as usize)
        // Self-play moves the target every generation, and win rates are
        // noisy: a "regression" of the median is not stagnation.
        .tol_stagnation(usize::MAX / 4)
        .build(f)
        .map_err(|e| Error::input(format!("cannot start CMA-ES: {e:?}")))?;

    for g in 0..s.generations {
        let mean_before: Vec<f64> = cma.mean().iter().copied().collect();
        {
            let mut now = obj.now.write().unwrap_or_else(|e| e.into_inner());
            now.master = generation_master(s.seed, g);
            now.opponents = if p.field.is_empty() { vec![p.spec_at(&mean_before)] } else { p.field.clone() };
            now.replay = old
                .get(g as usize)
                .map(|done| done.candidates.iter().map(|c| (bits(&c.u), (c.wins, c.score))).collect::<HashMap<_, _>>());
        }
        obj.seen.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let end = cma.next_parallel();
        if let Some(e) = obj.error.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(e);
        }
        let mut candidates = std::mem::take(&mut *obj.seen.lock().unwrap_or_else(|e| e.into_inner()));
        candidates.sort_by(|a, b| {
            p.value(b.wins, b.score).total_cmp(&p.value(a.wins, a.score)).then_with(|| {
                a.u.iter()
                    .zip(&b.u)
                    .map(|(x, y)| x.total_cmp(y))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
        });
        let mean: Vec<f64> = cma.mean().iter().copied().collect();
        let this = match old.get(g as usize) {
            Some(prev) => {
                if bits(&prev.mean) != bits(&mean) {
                    return Err(Error::input_naming([
                        "the record does not match these settings (the search took another path); start again without "
                            .into(),
                        Input::Resume.into(),
                    ]));
                }
                prev.clone()
            }
            None => {
                let t =
                    p.tally_against(&p.spec_at(&mean), &p.reference_field(), reference_master(s.seed), s.per_eval)?;
                Generation {
                    index: g,
                    candidates,
                    mean,
                    sigma: cma.sigma(),
                    reference_wins: t.wins.by_slot[0],
                    reference_score: t.score,
                }
            }
        };
        let replayed = (g as usize) < old.len();
        rec.generations.push(this);
        if let Some(t) = end
            && (g + 1) < s.generations
        {
            rec.stopped = Some(format!("converged after generation {g}: {:?}", t.reasons));
        }
        if !replayed && after(&rec) == Flow::Stop {
            break;
        }
        if rec.stopped.is_some() {
            break;
        }
    }
    Ok(rec)
}

/// A point a run puts forward for `select`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finalist {
    /// Where it comes from, in words ("best mean (generation 12)").
    pub label: String,
    pub u: Vec<f64>,
}

/// One entrant of a selection, as it played.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub label: String,
    pub spec: StrategySpec,
    /// Against the reference field on the selection campaigns.
    pub tally: Tally,
}

/// Play each entrant against `p`'s reference field on campaigns
/// `0..campaigns` of `master` (variants of its own with varied rules, as
/// `evaluate` draws them), and return the index of the one that won most
/// (ties: the larger objective, then the earlier entrant) with every
/// entrant's result. The caller puts the start first, so a selection
/// never prefers a point that did no better than it: the result of a run
/// is never below its start on these campaigns.
pub fn select(
    p: &Problem<'_>,
    entrants: Vec<(String, StrategySpec)>,
    master: u64,
    campaigns: u64,
) -> Result<(usize, Vec<Entrant>), Error> {
    let variants = draw_variants(p.sc, &p.params, p.variants.len() as u32, master)?;
    let campaigns = campaigns.div_ceil(variants.len() as u64) * variants.len() as u64;
    let field = p.reference_field();
    let mut out = Vec::with_capacity(entrants.len());
    for (label, spec) in entrants {
        let tally = p.tally_on(&variants, &spec, &field, master, campaigns)?;
        out.push(Entrant { label, spec, tally });
    }
    let mut best = 0;
    for (i, e) in out.iter().enumerate().skip(1) {
        let b = &out[best].tally;
        let better = e.tally.wins.by_slot[0] > b.wins.by_slot[0]
            || (e.tally.wins.by_slot[0] == b.wins.by_slot[0] && e.tally.score > b.score);
        if better {
            best = i;
        }
    }
    Ok((best, out))
}

/// One line of the held-out evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalRow {
    /// Who the other seats play, in words.
    pub against: String,
    pub tuned: Wins,
    /// The start in the same seat against the same opponents, on the same campaigns.
    pub start: Wins,
}

/// The rows `evaluate` plays (each twice: the tuned player and the start).
pub fn evaluation_rows(p: &Problem<'_>) -> u64 {
    match &p.settings.field {
        Field::Fixed(names) => {
            let mut seen: Vec<&String> = Vec::new();
            names.iter().for_each(|n| {
                if !seen.contains(&n) {
                    seen.push(n)
                }
            });
            (names.len() > 1) as u64 + seen.len() as u64 + !names.contains(&p.settings.start) as u64
        }
        Field::SelfPlay => 1,
    }
}

/// The tuned strategy against each opponent (every other seat plays it),
/// against the whole field when it is fixed, and against its start, on
/// campaigns of `master` that the search never saw.
///
/// With varied rules the evaluation plays variants of its own, drawn from
/// `master`: rules the search never saw, as well as campaigns.
pub fn evaluate(p: &Problem<'_>, tuned: &StrategySpec, master: u64, campaigns: u64) -> Result<Vec<EvalRow>, Error> {
    let n = p.sc.players.len();
    let variants = draw_variants(p.sc, &p.params, p.variants.len() as u32, master)?;
    let campaigns = campaigns.div_ceil(variants.len() as u64) * variants.len() as u64;
    let mut rows = Vec::new();
    let mut row = |against: String, others: Vec<StrategySpec>| -> Result<(), Error> {
        let t = p.wins_on(&variants, tuned, &others, master, campaigns)?;
        let s = p.wins_on(&variants, &p.start, &others, master, campaigns)?;
        rows.push(EvalRow { against, tuned: t, start: s });
        Ok(())
    };
    if let Field::Fixed(names) = &p.settings.field {
        if names.len() > 1 {
            row(format!("the field ({})", names.join(", ")), p.field.clone())?;
        }
        let mut seen: Vec<&String> = Vec::new();
        for (name, spec) in names.iter().zip(&p.field) {
            if !seen.contains(&name) {
                seen.push(name);
                row(format!("{} × {name}", n - 1), vec![spec.clone()])?;
            }
        }
        if !names.contains(&p.settings.start) {
            row(format!("{} × {} (the start)", n - 1, p.settings.start), vec![p.start.clone()])?;
        }
    } else {
        row(format!("{} × {} (the start)", n - 1, p.settings.start), vec![p.start.clone()])?;
    }
    Ok(rows)
}
