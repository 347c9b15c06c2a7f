//! The map of viable styles (`empires styles`): which ways of playing can
//! win, and by how much each trails the best.
//!
//! - **Method.** MAP-Elites (Mouret and Clune 2015) over the weighted
//!   players' keys: the map is a grid over two behaviour axes a designer
//!   reads (battles started a season, where the gold comes from, gold
//!   spent, castles, sieges, ships), and each cell keeps the strongest
//!   player found whose play lands in it. The search is CMA-ME's
//!   improvement emitters (Fontaine, Tjanaka, Togelius, Nikolaidis and
//!   Hoover, "Covariance Matrix Adaptation for the Rapid Illumination of
//!   Behavior Space", 2020; the same team mapped Hearthstone's decks so
//!   in 2019): each emitter is a CMA-ES whose candidates are ranked by
//!   what they add to the map (a new cell first, by its objective; then an
//!   improved cell, by the gain; then the rest, by how far they fall short
//!   of their cell's elite), and an emitter that adds nothing is restarted
//!   at an elite drawn from the map.
//! - **The starts** seed the map (every weighted strategy of the scenario by
//!   default), and each point keeps its start's other keys (formation,
//!   siege outcome, the keys not tuned), so a map searched from `warlord`
//!   and from `tuned` holds players of both.
//! - **Common seeds.** Every point the search measures, the starts
//!   included, plays the same campaigns (`search_master`): a cell's elite
//!   is replaced only by a point that did better on the very campaigns it
//!   played. With new campaigns each generation (as `tune` draws them) a
//!   lucky draw displaced `tuned` from its cell on the default island by a
//!   player that won 18% held out against its 25%. The price is a map
//!   fitted to those campaigns, which the held-out evaluation measures.
//! - **Noise.** A cell's elite is the best of many noisy measurements, so
//!   its search figure is biased up. `evaluate` plays every elite again on
//!   a held-out seed: its win rate against the field with its interval, its
//!   behaviour there, and how far it trails the best elite, paired on the
//!   same campaigns.
//! - **Determinism and resuming** as in `tune`: the result depends on the
//!   scenario, the settings and the seed only; a resumed run replays the
//!   recorded generations (the emitters draw the same candidates and are
//!   handed the recorded measurements) and plays on.
//!
//! No IO here: `cli/styles.rs` writes the files, `report/styles.rs` the page.

use super::space::{Space, penalty};
use super::tune::{Flow, Objective};
use crate::error::{Error, Input};
use crate::scenario::{Scenario, StrategyKind, StrategySpec};
use crate::seed::mix2;
use crate::sim::lineup::{Behaviour, Lineup};
use crate::stats::{Mean, mean_interval};
use cmaes::{CMAESOptions, DVector, Mode};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, RwLock};

const TAG_SEARCH: u64 = 0x7374_796c_6500_0001;
const TAG_CMA: u64 = 0x7374_796c_6500_0003;
const TAG_RESTART: u64 = 0x7374_796c_6500_0004;
const TAG_HELD_OUT: u64 = 0x7374_796c_6500_0005;

/// A behaviour axis of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    /// Army battles the player started, a season.
    Battles,
    /// Where its earned gold came from: (mines − pillage and loot) over
    /// their sum, −1 all raids to +1 all mines; a cell of its own when it
    /// earned neither.
    Source,
    /// Gold spent, a season.
    Spent,
    /// Gold from mines, a season.
    Mines,
    /// Gold from pillage and loot, a season.
    Raids,
    /// Castles held at the end.
    Castles,
    /// Sieges it laid, a campaign.
    Sieges,
    /// Naval combats it fought, a campaign.
    Ships,
}

impl Axis {
    pub const ALL: [Axis; 8] =
        [Axis::Battles, Axis::Source, Axis::Spent, Axis::Mines, Axis::Raids, Axis::Castles, Axis::Sieges, Axis::Ships];

    pub fn name(self) -> &'static str {
        match self {
            Axis::Battles => "battles",
            Axis::Source => "source",
            Axis::Spent => "spent",
            Axis::Mines => "mines",
            Axis::Raids => "raids",
            Axis::Castles => "castles",
            Axis::Sieges => "sieges",
            Axis::Ships => "ships",
        }
    }

    pub fn parse(s: &str) -> Result<Axis, Error> {
        Axis::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            let known: Vec<&str> = Axis::ALL.iter().map(|a| a.name()).collect();
            Error::input(format!("{s:?} is not a behaviour axis (known: {})", known.join(", ")))
        })
    }

    /// What it measures, as a chart's axis says it.
    pub fn words(self) -> &'static str {
        match self {
            Axis::Battles => "battles started a season",
            Axis::Source => "gold source (−1 all pillage and loot, +1 all mines)",
            Axis::Spent => "gold spent a season",
            Axis::Mines => "gold from mines a season",
            Axis::Raids => "gold from pillage and loot a season",
            Axis::Castles => "castles held at the end",
            Axis::Sieges => "sieges laid a campaign",
            Axis::Ships => "naval combats a campaign",
        }
    }

    /// What it measures in a few words, for a chart's axis.
    pub fn short(self) -> &'static str {
        match self {
            Axis::Source => "gold source: −1 raids, +1 mines",
            a => a.words(),
        }
    }

    /// The range the bins divide; a value beyond falls in an end bin.
    pub fn range(self) -> (f64, f64) {
        match self {
            // Every season at the top: the aggressive archetypes start
            // about 0.3 a season on the default island, so a wider range
            // would put every player in the first two bins.
            Axis::Battles => (0.0, 1.0),
            Axis::Source => (-1.0, 1.0),
            Axis::Spent => (0.0, 200.0),
            Axis::Mines | Axis::Raids => (0.0, 100.0),
            Axis::Castles => (0.0, 8.0),
            Axis::Sieges | Axis::Ships => (0.0, 4.0),
        }
    }

    /// The axis's value for behaviour summed over `campaigns` campaigns;
    /// NaN for `Source` when no gold was earned from mines or raids.
    pub fn value(self, b: &Behaviour, campaigns: u64) -> f64 {
        let seasons = b.seasons.max(1) as f64;
        let per = campaigns.max(1) as f64;
        match self {
            Axis::Battles => b.battles as f64 / seasons,
            Axis::Source => {
                let (m, r) = (b.gold_mines as f64, b.gold_raids as f64);
                if m + r <= 0.0 { f64::NAN } else { (m - r) / (m + r) }
            }
            Axis::Spent => b.gold_spent as f64 / seasons,
            Axis::Mines => b.gold_mines as f64 / seasons,
            Axis::Raids => b.gold_raids as f64 / seasons,
            Axis::Castles => b.castles as f64 / per,
            Axis::Sieges => b.sieges as f64 / per,
            Axis::Ships => b.naval as f64 / per,
        }
    }

    /// Cells along the axis: `bins`, and one more for `Source`'s "none".
    pub fn cells(self, bins: usize) -> usize {
        bins + (self == Axis::Source) as usize
    }

    /// The cell a value falls in (`Source`'s NaN: the last, "none").
    pub fn bin(self, v: f64, bins: usize) -> usize {
        if v.is_nan() {
            return if self == Axis::Source { bins } else { 0 };
        }
        let (lo, hi) = self.range();
        (((v - lo) / (hi - lo) * bins as f64).floor().max(0.0) as usize).min(bins - 1)
    }

    /// A cell's label: its range, or "none".
    pub fn label(self, i: usize, bins: usize) -> String {
        if i >= bins {
            return "none".into();
        }
        let (lo, hi) = self.range();
        let w = (hi - lo) / bins as f64;
        let (a, b) = (lo + w * i as f64, lo + w * (i + 1) as f64);
        // A true minus sign, so "−1…−0.75" does not read as dashes.
        let num = |x: f64| {
            let s = format!("{x:.2}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s == "-0" { "0".to_string() } else { s.replace('-', "−") }
        };
        if i + 1 == bins { format!("≥{}", num(a)) } else { format!("{}…{}", num(a), num(b)) }
    }
}

/// Everything that decides a map (what `--resume` must find unchanged).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The strategies that seed the map; every point keeps its start's
    /// other keys.
    pub starts: Vec<String>,
    /// The opponents, filling the other seats in turn.
    pub field: Vec<String>,
    pub keys: Vec<String>,
    pub axes: [Axis; 2],
    pub bins: usize,
    /// Campaigns per candidate, a multiple of the seat count.
    pub per_eval: u64,
    pub emitters: usize,
    pub population: usize,
    pub sigma: f64,
    /// Emitter generations in all (the emitters take turns).
    pub generations: u32,
    pub objective: Objective,
    pub seed: u64,
}

/// What a player did and won over some campaigns against the field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    pub campaigns: u64,
    pub wins: u64,
    /// The objective summed over the campaigns, in campaign order.
    pub score: f64,
    /// Its behaviour summed over the campaigns.
    pub did: Behaviour,
}

impl Measure {
    pub fn objective(&self) -> f64 {
        self.score / self.campaigns.max(1) as f64
    }

    pub fn rate(&self) -> f64 {
        self.wins as f64 / self.campaigns.max(1) as f64
    }

    pub fn value(&self, a: Axis) -> f64 {
        a.value(&self.did, self.campaigns)
    }

    pub fn cell(&self, axes: [Axis; 2], bins: usize) -> Cell {
        (axes[0].bin(self.value(axes[0]), bins), axes[1].bin(self.value(axes[1]), bins))
    }
}

/// A cell of the map: its bin on each axis.
pub type Cell = (usize, usize);

/// One measured point: the start it keeps the other keys of, its unit
/// coordinates, and what it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Eval {
    pub base: usize,
    pub u: Vec<f64>,
    pub measure: Measure,
}

/// A cell's elite: the point, and the generation that found it (−1: a start).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elite {
    pub eval: Eval,
    pub generation: i64,
}

/// One emitter generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    pub emitter: usize,
    /// Every candidate, in the order the map was offered them.
    pub evals: Vec<Eval>,
    /// Cells it filled for the first time, and cells whose elite it beat.
    pub new: u32,
    pub improved: u32,
    /// Whether its emitter was restarted after it (it added nothing, or its
    /// CMA-ES ended).
    pub restarted: bool,
}

/// A map so far: what `--resume` continues.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub settings: Settings,
    /// Each start's measurement (generation −1).
    pub seeds: Vec<Eval>,
    pub generations: Vec<Generation>,
}

/// The map: every filled cell's elite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Archive {
    pub cells: BTreeMap<Cell, Elite>,
}

/// What offering a point did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    New,
    Improved,
    No,
}

impl Archive {
    /// Keep `e` in `cell` if the cell is empty or `e` beats its elite on
    /// the objective (a tie keeps the elite).
    pub fn offer(&mut self, cell: Cell, e: Elite) -> Added {
        match self.cells.get(&cell) {
            None => {
                self.cells.insert(cell, e);
                Added::New
            }
            Some(old) if e.eval.measure.objective() > old.eval.measure.objective() => {
                self.cells.insert(cell, e);
                Added::Improved
            }
            Some(_) => Added::No,
        }
    }

    /// Each cell's elite objective.
    fn snapshot(&self) -> HashMap<Cell, f64> {
        self.cells.iter().map(|(c, e)| (*c, e.eval.measure.objective())).collect()
    }
}

/// A map's problem: the scenario, the settings, the starts and the field.
pub struct Styles<'a> {
    pub sc: &'a Scenario,
    pub settings: Settings,
    pub space: Space,
    pub starts: Vec<StrategySpec>,
    pub field: Vec<StrategySpec>,
}

/// Every weighted strategy `sc` knows, by name: a map's default starts.
pub fn weighted_strategies(sc: &Scenario) -> Vec<String> {
    let mut names: Vec<String> = sc
        .strategies
        .keys()
        .filter(|n| sc.named_strategy(n).is_ok_and(|s| s.kind == StrategyKind::Weighted))
        .cloned()
        .collect();
    names.sort();
    names
}

/// Every numeric key but those some start keeps (`tune_keep`).
pub fn keys_of(starts: &[StrategySpec]) -> Vec<String> {
    crate::scenario::knobs::KNOBS
        .iter()
        .filter(|k| !starts.iter().any(|s| s.tune_keep.iter().any(|t| t == k.key)))
        .map(|k| k.key.to_string())
        .collect()
}

/// A map's default axes, bins per axis and emitters: `empires styles`'
/// defaults and the ones PSRO's oracle maps with.
pub const AXES: [Axis; 2] = [Axis::Battles, Axis::Source];
/// `AXES` as `--axes` writes them (a test holds the two together).
pub const AXES_FLAG: &str = "battles,source";
pub const BINS: usize = 8;
pub const EMITTERS: usize = 5;

/// Master seed of the campaigns every point of the search plays.
pub fn search_master(seed: u64) -> u64 {
    mix2(seed, TAG_SEARCH)
}

/// The default master seed of the held-out evaluation.
pub fn held_out_master(seed: u64) -> u64 {
    mix2(seed, TAG_HELD_OUT)
}

impl<'a> Styles<'a> {
    pub fn new(sc: &'a Scenario, settings: Settings) -> Result<Styles<'a>, Error> {
        if settings.starts.is_empty() {
            return Err(Error::input("a map needs at least one start"));
        }
        let starts: Vec<StrategySpec> =
            settings.starts.iter().map(|n| sc.named_strategy(n)).collect::<Result<_, _>>()?;
        for (n, s) in settings.starts.iter().zip(&starts) {
            if s.kind != StrategyKind::Weighted {
                return Err(Error::input(format!(
                    "{n:?} is not a weighted strategy: only weighted players are mapped"
                )));
            }
        }
        let space = Space::of(&settings.keys)?;
        let seats = sc.players.len();
        if seats < 2 {
            return Err(Error::input("the scenario needs at least 2 seats to map styles"));
        }
        if settings.field.is_empty() || settings.field.len() > seats - 1 {
            return Err(Error::input(format!(
                "the scenario has {seats} seats: name from 1 to {} opponents (found {})",
                seats - 1,
                settings.field.len()
            )));
        }
        let field = settings.field.iter().map(|n| sc.named_strategy(n)).collect::<Result<_, _>>()?;
        if settings.axes[0] == settings.axes[1] {
            return Err(Error::input("the map's two axes must differ"));
        }
        if !(2..=32).contains(&settings.bins) {
            return Err(Error::input(format!("bins must be from 2 to 32 (found {})", settings.bins)));
        }
        if settings.per_eval == 0 || !settings.per_eval.is_multiple_of(seats as u64) {
            return Err(Error::input(format!(
                "campaigns per evaluation must be a positive multiple of the {seats} seats (found {})",
                settings.per_eval
            )));
        }
        if settings.emitters == 0 || settings.population < 2 || settings.generations == 0 {
            return Err(Error::input("at least one emitter, a population of 2 and one generation"));
        }
        if !(settings.sigma.is_finite() && settings.sigma > 0.0 && settings.sigma <= 1.0) {
            return Err(Error::input(format!("sigma must be above 0 and at most 1 (found {})", settings.sigma)));
        }
        Ok(Styles { sc, settings, space, starts, field })
    }

    /// The player at `u` over start `base`.
    pub fn spec(&self, base: usize, u: &[f64]) -> StrategySpec {
        self.space.apply(&self.starts[base], &self.space.values(u))
    }

    /// As `spec`, rounded as a strategy table writes it.
    pub fn spec_rounded(&self, base: usize, u: &[f64]) -> StrategySpec {
        self.space.apply(&self.starts[base], &self.space.rounded(&self.space.values(u)))
    }

    fn lineup(&self, me: &StrategySpec) -> Result<Lineup, Error> {
        let n = self.sc.players.len();
        let mut specs = vec![me.clone()];
        specs.extend((0..n - 1).map(|k| self.field[k % self.field.len()].clone()));
        Lineup::new(self.sc, &specs).map_err(Error::from)
    }

    /// `me` (slot 0) against the field on campaigns `0..campaigns` of
    /// `master`, and whether it won each.
    pub fn measure_each(&self, me: &StrategySpec, master: u64, campaigns: u64) -> Result<(Measure, Vec<bool>), Error> {
        let fin = self.lineup(me)?.finishes(master, 0..campaigns).map_err(Error::from)?;
        let mut m = Measure { campaigns, ..Measure::default() };
        let mut won = Vec::with_capacity(fin.len());
        for f in &fin {
            m.wins += (f.winner == 0) as u64;
            m.score += self.settings.objective.of(f, 0);
            m.did += f.did[0];
            won.push(f.winner == 0);
        }
        Ok((m, won))
    }

    pub fn measure(&self, me: &StrategySpec, master: u64, campaigns: u64) -> Result<Measure, Error> {
        self.measure_each(me, master, campaigns).map(|(m, _)| m)
    }

    fn cell(&self, m: &Measure) -> Cell {
        m.cell(self.settings.axes, self.settings.bins)
    }

    /// The map a record holds.
    pub fn archive(&self, rec: &Record) -> Archive {
        let mut a = Archive::default();
        for e in &rec.seeds {
            a.offer(self.cell(&e.measure), Elite { eval: e.clone(), generation: -1 });
        }
        for (t, g) in rec.generations.iter().enumerate() {
            for e in &g.evals {
                a.offer(self.cell(&e.measure), Elite { eval: e.clone(), generation: t as i64 });
            }
        }
        a
    }
}

/// The campaigns a map plays in its search: each start once, then each
/// generation's candidates.
pub fn campaigns(s: &Settings) -> u64 {
    (s.starts.len() as u64 + s.generations as u64 * s.population as u64) * s.per_eval
}

/// The generations `budget` campaigns pay for (at least one).
pub fn generations_for(budget: u64, starts: usize, population: usize, per_eval: u64) -> u32 {
    (budget.saturating_sub(starts as u64 * per_eval) / (population as u64 * per_eval.max(1))).max(1) as u32
}

/// CMA-ME's improvement ranking of a candidate of objective `q` (in
/// [0, 1]) whose cell's elite has `elite` (`None`: an empty cell), as one
/// number CMA-ES can sort: a new cell (3 + q) above every improvement
/// (1 + the gain, at most 2) above every shortfall (q − elite, at most 0).
pub fn improvement(elite: Option<f64>, q: f64) -> f64 {
    match elite {
        None => 3.0 + q,
        Some(e) if q > e => 1.0 + (q - e),
        Some(e) => q - e,
    }
}

struct Now {
    master: u64,
    base: usize,
    snapshot: HashMap<Cell, f64>,
    replay: Option<HashMap<Vec<u64>, Measure>>,
}

struct Fitness<'p, 'a> {
    p: &'p Styles<'a>,
    now: RwLock<Now>,
    seen: Mutex<Vec<(f64, Eval)>>,
    error: Mutex<Option<Error>>,
}

fn bits(u: &[f64]) -> Vec<u64> {
    u.iter().map(|x| x.to_bits()).collect()
}

impl Fitness<'_, '_> {
    /// CMA-ME's improvement ranking as one number: a new cell above every
    /// improvement, an improvement above every shortfall.
    fn eval(&self, x: &DVector<f64>) -> f64 {
        let u: Vec<f64> = x.iter().copied().collect();
        let now = self.now.read().unwrap_or_else(|e| e.into_inner());
        let m = match &now.replay {
            Some(rec) => rec.get(&bits(&u)).cloned().ok_or_else(|| {
                Error::input_naming([
                    "the record does not match these settings (a candidate differs): start again without ".into(),
                    Input::Resume.into(),
                ])
            }),
            None => self.p.measure(&self.p.spec(now.base, &u), now.master, self.p.settings.per_eval),
        };
        match m {
            Ok(m) => {
                let f = improvement(now.snapshot.get(&self.p.cell(&m)).copied(), m.objective()) - penalty(&u);
                self.seen.lock().unwrap_or_else(|e| e.into_inner()).push((f, Eval { base: now.base, u, measure: m }));
                f
            }
            Err(e) => {
                *self.error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                f64::NAN
            }
        }
    }
}

/// Build (or continue) the map. `previous` holds the generations already
/// done (replayed, not played); each new one is appended and handed to
/// `after`, which may stop the run.
pub fn run(p: &Styles<'_>, previous: Option<Record>, mut after: impl FnMut(&Record) -> Flow) -> Result<Record, Error> {
    let s = &p.settings;
    if let Some(r) = &previous
        && r.settings != *s
    {
        return Err(Error::input_naming([
            "the record was made with other settings; start again without ".into(),
            Input::Resume.into(),
        ]));
    }
    let mut rec = match previous {
        Some(r) if r.seeds.len() == p.starts.len() => r,
        _ => {
            let master = search_master(s.seed);
            let mut seeds = Vec::new();
            for (i, st) in p.starts.iter().enumerate() {
                let measure = p.measure(st, master, s.per_eval)?;
                seeds.push(Eval { base: i, u: p.space.coords(st), measure });
            }
            Record { settings: s.clone(), seeds, generations: Vec::new() }
        }
    };
    let old = std::mem::take(&mut rec.generations);
    let mut archive = p.archive(&rec);
    let fit = Fitness {
        p,
        now: RwLock::new(Now { master: 0, base: 0, snapshot: HashMap::new(), replay: None }),
        seen: Mutex::default(),
        error: Mutex::default(),
    };
    let f = |x: &DVector<f64>| fit.eval(x);
    let build = |mean: Vec<f64>, salt: u64| {
        CMAESOptions::new(mean, s.sigma)
            .mode(Mode::Maximize)
            .population_size(s.population)
            .seed(mix2(mix2(s.seed, TAG_CMA), salt))
            // The map moves under the emitter, so its fitness is not
            // stationary: a stalled median is no reason to stop.
            .tol_stagnation(usize::MAX / 4)
            .build(f)
            .map_err(|e| Error::input(format!("cannot start CMA-ES: {e:?}")))
    };
    let mut emitters = Vec::with_capacity(s.emitters);
    for e in 0..s.emitters {
        let base = e % p.starts.len();
        emitters.push((base, build(rec.seeds[base].u.clone(), e as u64)?));
    }
    for t in 0..s.generations {
        let e = t as usize % s.emitters;
        {
            let mut now = fit.now.write().unwrap_or_else(|e| e.into_inner());
            now.master = search_master(s.seed);
            now.base = emitters[e].0;
            now.snapshot = archive.snapshot();
            now.replay = old
                .get(t as usize)
                .map(|g| g.evals.iter().map(|x| (bits(&x.u), x.measure.clone())).collect::<HashMap<_, _>>());
        }
        fit.seen.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let ended = emitters[e].1.next_parallel().is_some();
        if let Some(err) = fit.error.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(err);
        }
        let mut seen = std::mem::take(&mut *fit.seen.lock().unwrap_or_else(|e| e.into_inner()));
        // Best first, ties by coordinates: the map is offered them in an
        // order that does not depend on which thread finished first.
        seen.sort_by(|a, b| {
            b.0.total_cmp(&a.0).then_with(|| {
                a.1.u
                    .iter()
                    .zip(&b.1.u)
                    .map(|(x, y)| x.total_cmp(y))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
        });
        let (mut new, mut improved) = (0, 0);
        let evals: Vec<Eval> = seen.into_iter().map(|(_, x)| x).collect();
        for x in &evals {
            match archive.offer(p.cell(&x.measure), Elite { eval: x.clone(), generation: t as i64 }) {
                Added::New => new += 1,
                Added::Improved => improved += 1,
                Added::No => {}
            }
        }
        let restarted = ended || new + improved == 0;
        if restarted {
            // A new CMA-ES at an elite drawn from the map, its step size
            // as at the start (CMA-ME's restart on no improvement).
            let mut rng = crate::seed::rng(mix2(mix2(s.seed, TAG_RESTART), t as u64), crate::seed::Stream::Map);
            let k = rand::RngExt::random_range(&mut rng, 0..archive.cells.len());
            let elite = archive.cells.values().nth(k).expect("the map holds its seeds");
            let (base, u) = (elite.eval.base, elite.eval.u.clone());
            emitters[e] = (base, build(u, 1_000_000 + t as u64)?);
        }
        let g = Generation { emitter: e, evals, new, improved, restarted };
        let replayed = (t as usize) < old.len();
        if replayed && old[t as usize] != g {
            return Err(Error::input_naming([
                "the record does not match these settings (the search took another path); start again without ".into(),
                Input::Resume.into(),
            ]));
        }
        rec.generations.push(g);
        if !replayed && after(&rec) == Flow::Stop {
            break;
        }
    }
    Ok(rec)
}

/// One cell of the finished map, measured again on held-out campaigns.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub cell: Cell,
    pub elite: Elite,
    /// The elite's spec, rounded as `styles.toml` writes it (what was played).
    pub spec: StrategySpec,
    /// Against the field on the held-out campaigns.
    pub held: Measure,
    /// The best row's win rate less this one's, paired campaign by
    /// campaign (0 for the best).
    pub trail: Mean,
}

/// Every elite of `archive` against the field on campaigns `0..campaigns`
/// of `master`: rows best first (by held-out wins, then the cell).
pub fn evaluate(p: &Styles<'_>, archive: &Archive, master: u64, campaigns: u64) -> Result<Vec<Row>, Error> {
    let mut played = Vec::with_capacity(archive.cells.len());
    for (cell, elite) in &archive.cells {
        let spec = p.spec_rounded(elite.eval.base, &elite.eval.u);
        let (held, won) = p.measure_each(&spec, master, campaigns)?;
        played.push((*cell, elite.clone(), spec, held, won));
    }
    played.sort_by(|a, b| b.3.wins.cmp(&a.3.wins).then(a.0.cmp(&b.0)));
    let best: Vec<bool> = played.first().map(|x| x.4.clone()).unwrap_or_default();
    Ok(played
        .into_iter()
        .map(|(cell, elite, spec, held, won)| {
            let trail = mean_interval(best.iter().zip(&won).map(|(&b, &w)| b as u8 as f64 - w as u8 as f64), 0.95);
            Row { cell, elite, spec, held, trail }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map's default axes and `--axes`' default are one fact.
    #[test]
    fn the_default_axes_flag_names_the_default_axes() {
        let named: Vec<Axis> = AXES_FLAG.split(',').map(|a| Axis::parse(a).unwrap()).collect();
        assert_eq!(named, AXES);
    }

    #[test]
    fn a_value_falls_in_its_bin_and_beyond_the_range_in_an_end_bin() {
        assert_eq!(Axis::Battles.bin(0.0, 8), 0);
        assert_eq!(Axis::Battles.bin(0.13, 8), 1);
        assert_eq!(Axis::Battles.bin(0.99, 8), 7);
        assert_eq!(Axis::Battles.bin(9.0, 8), 7);
        assert_eq!(Axis::Source.bin(-1.0, 8), 0);
        assert_eq!(Axis::Source.bin(1.0, 8), 7);
        assert_eq!(Axis::Source.bin(f64::NAN, 8), 8);
        assert_eq!(Axis::Source.cells(8), 9);
        assert_eq!(Axis::Battles.cells(8), 8);
        assert_eq!(Axis::Source.label(8, 8), "none");
        assert_eq!(Axis::Source.label(0, 8), "−1…−0.75");
        assert_eq!(Axis::Source.label(4, 8), "0…0.25");
        assert_eq!(Axis::Battles.label(7, 8), "≥0.88");
        assert_eq!(Axis::Battles.label(2, 8), "0.25…0.38");
    }

    #[test]
    fn the_axes_read_a_behaviour_summed_over_campaigns() {
        let b = Behaviour {
            seasons: 24,
            battles: 12,
            sieges: 3,
            naval: 1,
            castles: 4,
            gold_spent: 480,
            gold_mines: 300,
            gold_raids: 100,
        };
        assert_eq!(Axis::Battles.value(&b, 2), 0.5);
        assert_eq!(Axis::Source.value(&b, 2), 0.5);
        assert_eq!(Axis::Spent.value(&b, 2), 20.0);
        assert_eq!(Axis::Mines.value(&b, 2), 12.5);
        assert_eq!(Axis::Raids.value(&b, 2), 100.0 / 24.0);
        assert_eq!(Axis::Castles.value(&b, 2), 2.0);
        assert_eq!(Axis::Sieges.value(&b, 2), 1.5);
        assert_eq!(Axis::Ships.value(&b, 2), 0.5);
        assert!(Axis::Source.value(&Behaviour::default(), 2).is_nan());
        for a in Axis::ALL {
            assert_eq!(Axis::parse(a.name()).unwrap(), a);
        }
        assert!(Axis::parse("gold").unwrap_err().message().contains("known: battles"));
    }

    #[test]
    fn a_new_cell_ranks_above_an_improvement_above_a_shortfall() {
        let new_poor = improvement(None, 0.0);
        let best_gain = improvement(Some(0.0), 1.0);
        let small_gain = improvement(Some(0.5), 0.51);
        let tie = improvement(Some(0.5), 0.5);
        let short = improvement(Some(0.9), 0.2);
        assert!(new_poor > best_gain && best_gain > small_gain && small_gain > tie && tie > short);
        assert!(improvement(None, 0.6) > improvement(None, 0.4));
        assert!((small_gain - 1.01).abs() < 1e-12);
        assert_eq!(tie, 0.0);
    }

    #[test]
    fn a_cell_keeps_the_best_and_a_tie_keeps_the_elite() {
        let e = |score: f64| Elite {
            eval: Eval {
                base: 0,
                u: vec![score],
                measure: Measure { campaigns: 10, wins: 0, score, did: Behaviour::default() },
            },
            generation: 0,
        };
        let mut a = Archive::default();
        assert_eq!(a.offer((1, 2), e(3.0)), Added::New);
        assert_eq!(a.offer((1, 2), e(2.0)), Added::No);
        assert_eq!(a.offer((1, 2), e(3.0)), Added::No);
        assert_eq!(a.offer((1, 2), e(4.0)), Added::Improved);
        assert_eq!(a.offer((0, 2), e(1.0)), Added::New);
        assert_eq!(a.cells.len(), 2);
        assert_eq!(a.cells[&(1, 2)].eval.u, vec![4.0]);
    }
}
