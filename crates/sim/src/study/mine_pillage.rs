//! `experiment mine-vs-pillage`: is a mine worth more than a pillage, and
//! from which season on? Both cost 1 EP (E-09, E-15).
//!
//! - **Exact.** A mine on terrain `t` yields its dice expression's mean at
//!   every payday while it stands; a pillage yields its mean once. A mine
//!   built in season `s` of `S` (spending, G-01 step 6) is paid at the
//!   paydays of seasons `s+1..=S`: `T = S - s` paydays. With a chance `q`
//!   each season of losing the hex before payday, its expected gold is
//!   `y · Σ_{k=1..T} (1-q)^k`. The break-even is the fewest paydays `T*`
//!   for which that reaches the pillage's mean.
//! - **Simulated.** Restricted play (Jaffe et al. 2012) on the same seeds:
//!   every strategy of the scenario with mines forbidden, pillage
//!   forbidden, or mines forced first, against the unrestricted baseline.
//! - **One player restricted.** When every seat plays one strategy
//!   (`--players tuned`), restricting everyone changes no win rate: the
//!   seats stay equal. So the experiment also seats one restricted player
//!   against unrestricted copies (seats rotated) and pairs its wins, campaign
//!   by campaign, with the unrestricted strategy's in the same seat: the
//!   value of the option to one player, against opponents who keep it.
//! - **Observed.** Where the baseline's gold came from, per strategy and
//!   over the seasons.
//! - **Measured loss.** The exact part's chance `q` of losing the hex, read
//!   off play instead of assumed: how often a hex a mine may stand on
//!   (`buildings.mine.terrain`), held by a player at the end of a season,
//!   has another holder at the end of the next (`measure_loss`). It is
//!   measured on the hexes a mine *could* stand on, since strong players
//!   build almost no mines on the default rules.
//! - **What it rests on.** The answer again under each alternative reading
//!   of the gap rules G-03 (size counts castles and cities), G-11 (peace
//!   pays 2 EP) and G-13 (one recruit a hex), alone and together, each
//!   made of scenario keys (`readings`, `run_readings`): one player of a
//!   strategy denied mines, denied pillage or made to build mines first,
//!   against copies, on the same seeds in every row.
//! - **Whose answer.** Every figure from play is what these players do
//!   with gold, so each strategy of the seats gets the competence check's
//!   probes on gold, mines and pillage (`strength::probe`, `TOPICS`): a
//!   strategy that fails one gives an answer bounded by the players.

use super::compare::{Row, paired};
use super::metrics::{Measured, Metric, measure, standard};
use crate::error::Error;
use crate::scenario::{ActionKind, Scenario};
use crate::stats::Mean;
use crate::strength::probe::{self, Competence};

/// What the experiment's answer is about: a probe on one of these that a
/// strategy fails marks that strategy's figures "bounded by the players".
pub const TOPICS: &[&str] = &["gold", "mine", "pillage"];

/// The strategies of the seats, each once, in seat order.
pub fn seat_strategies(sc: &Scenario) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in &sc.players {
        if !out.contains(&p.strategy) {
            out.push(p.strategy.clone());
        }
    }
    out
}

/// The competence check on `TOPICS` of each strategy of the seats.
pub fn competence(sc: &Scenario, seed: u64, campaigns: u64) -> Result<Vec<Competence>, Error> {
    let settings = probe::Settings::default();
    seat_strategies(sc)
        .iter()
        .map(|name| probe::check(sc, name, probe::on_topics(&settings, Some(TOPICS)), settings, seed, campaigns))
        .collect()
}

/// The campaigns `competence` plays.
pub fn competence_planned(sc: &Scenario, campaigns: u64) -> u64 {
    if sc.players.len() < 2 {
        return 0;
    }
    let probes = probe::on_topics(&probe::Settings::default(), Some(TOPICS));
    seat_strategies(sc).len() as u64 * probe::planned(&probes, campaigns)
}

/// Chances of losing the hex in a season that the exact part tabulates.
pub const LOSS_CHANCES: [f64; 5] = [0.0, 0.05, 0.1, 0.2, 0.3];

/// Expected gold of a mine yielding `y` a payday over `paydays`, with a
/// chance `q` a season of losing the hex first.
pub fn mine_gold(y: f64, paydays: u32, q: f64) -> f64 {
    (1..=paydays).map(|k| y * (1.0 - q).powi(k as i32)).sum()
}

/// Fewest paydays for which the mine's expected gold reaches `pillage`.
pub fn break_even(y: f64, pillage: f64, q: f64, max: u32) -> Option<u32> {
    (0..=max).find(|&t| mine_gold(y, t, q) >= pillage - 1e-9)
}

/// The mean yields a payday at which a mine first matches `pillage` at
/// its `paydays`th payday (`break_even` = `paydays`), with a chance `q` a
/// season of losing the hex: `[low, high)`, `high` infinite for one payday.
/// A mine's expected gold is linear in its yield, so the bounds are the
/// pillage over the sums of `(1-q)^k` to `paydays` and to `paydays - 1`.
pub fn yield_for_payback(pillage: f64, paydays: u32, q: f64) -> (f64, f64) {
    let upto = |t: u32| mine_gold(1.0, t, q);
    let high = if paydays <= 1 { f64::INFINITY } else { pillage / upto(paydays - 1) };
    (pillage / upto(paydays), high)
}

/// A dice expression like `now` whose mean lies in `[low, high)`: the same
/// dice and modifier with another multiplier, the one nearest the middle
/// of the range; `None` when no multiplier lands in it.
pub fn dice_for_yield(now: &crate::scenario::DiceExpr, low: f64, high: f64) -> Option<crate::scenario::DiceExpr> {
    let dice = now.count as f64 * (now.sides as f64 + 1.0) / 2.0;
    let mean = |k: f64| dice * k + now.plus as f64;
    let target = if high.is_finite() { (low + high) / 2.0 } else { low };
    let k0 = ((target - now.plus as f64) / dice).round().max(1.0);
    // The nearest multiplier to the target first, then its neighbours.
    [k0, k0 - 1.0, k0 + 1.0, k0 - 2.0, k0 + 2.0]
        .into_iter()
        .filter(|&k| k >= 1.0 && mean(k) >= low - 1e-9 && mean(k) < high - 1e-9)
        .min_by(|a, b| (mean(*a) - target).abs().total_cmp(&(mean(*b) - target).abs()))
        .map(|k| crate::scenario::DiceExpr { mult: k as _, ..*now })
}

/// A mine built in each season `1..=seasons` against a pillage, in
/// expected gold per EP: `Greater` where the mine pays more, `Equal` where
/// the two pay the same (a tie is a tie: one payday of 70 against a
/// 70-gold pillage), `Less` where the pillage pays more. Built in season
/// `s`, a mine sees `seasons - s` paydays.
pub fn against_pillage(y: f64, pillage: f64, q: f64, seasons: u32) -> Vec<std::cmp::Ordering> {
    use std::cmp::Ordering;
    (1..=seasons)
        .map(|s| {
            let d = mine_gold(y, seasons - s, q) - pillage;
            if d.abs() <= 1e-9 {
                Ordering::Equal
            } else if d > 0.0 {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        })
        .collect()
}

/// The seasons of `against_pillage` that give `want`, as "1 to 10", "11",
/// or `None` when none does (they run in one block: a mine's worth falls
/// with the season it is built in).
pub fn seasons_where(classes: &[std::cmp::Ordering], want: std::cmp::Ordering) -> Option<String> {
    let hit: Vec<usize> = (0..classes.len()).filter(|&i| classes[i] == want).map(|i| i + 1).collect();
    match (hit.first(), hit.last()) {
        (Some(a), Some(b)) if a == b => Some(a.to_string()),
        (Some(a), Some(b)) => Some(format!("{a} to {b}")),
        _ => None,
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct MineSite {
    pub terrain: String,
    pub mean_yield: f64,
    /// Its yield's dice (`economy.mine.TERRAIN`).
    pub dice: crate::scenario::DiceExpr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Exact {
    pub pillage: f64,
    pub seasons: u32,
    pub sites: Vec<MineSite>,
}

impl Exact {
    pub fn of(sc: &Scenario) -> Exact {
        let sites = sc
            .buildings
            .mine
            .terrain
            .iter()
            .filter_map(|t| {
                sc.economy.mine.get(t).map(|d| MineSite {
                    terrain: t.name().to_string(),
                    mean_yield: d.mean(),
                    dice: d,
                })
            })
            .collect();
        Exact { pillage: sc.economy.pillage.mean(), seasons: sc.campaign.seasons, sites }
    }
}

/// How often a mine-able hex changes hands in a season of play.
#[derive(Clone, Debug, PartialEq)]
pub struct Loss {
    /// The strategy every seat played.
    pub players: String,
    pub campaigns: u64,
    /// Hex-seasons: a mine-able hex held at the end of a season that is
    /// followed by another season.
    pub held: u64,
    /// Of those, the ones with another holder (or none) a season later.
    pub lost: u64,
    /// The rate's standard error with the campaign as the unit
    /// (`stats::ratio_interval`, the ratio estimator's cluster-robust one).
    pub se: f64,
}

impl Loss {
    /// From each campaign's (held, lost).
    pub fn of(players: &str, per_campaign: impl IntoIterator<Item = (u64, u64)>) -> Loss {
        let per: Vec<(u64, u64)> = per_campaign.into_iter().collect();
        let ratio = crate::stats::ratio_interval(per.iter().map(|&(h, x)| (x as f64, h as f64)), 0.95);
        Loss {
            players: players.to_string(),
            campaigns: per.len() as u64,
            held: per.iter().map(|c| c.0).sum(),
            lost: per.iter().map(|c| c.1).sum(),
            se: ratio.sd / (ratio.n.max(1) as f64).sqrt(),
        }
    }

    pub fn rate(&self) -> f64 {
        if self.held == 0 { f64::NAN } else { self.lost as f64 / self.held as f64 }
    }

    /// The design effect of the rate: its campaign-level (cluster) variance
    /// over the variance it would have were every hex-season independent,
    /// between 1 and the hex-seasons a campaign (the most it can be, every
    /// hex-season of a campaign moving together).
    ///
    /// Why: one campaign's hex-seasons are not independent (a war takes
    /// several hexes, a quiet campaign loses none), so a binomial interval
    /// over hex-seasons is too narrow. With no hex lost (or every one) the
    /// spread is not seen at all, so the most conservative effect is
    /// taken: the campaigns themselves are the sample.
    pub fn design_effect(&self) -> f64 {
        let m = (self.held as f64 / self.campaigns.max(1) as f64).max(1.0);
        if self.campaigns < 2 || self.lost == 0 || self.lost == self.held {
            return m;
        }
        let r = self.rate();
        let binomial = r * (1.0 - r) / self.held as f64;
        (self.se * self.se / binomial).clamp(1.0, m)
    }

    /// The rate's 95% interval: Wilson's over the effective number of
    /// hex-seasons (held over `design_effect`), so it counts campaigns, not
    /// hex-seasons, as the independent draws.
    pub fn interval(&self) -> (f64, f64) {
        let n = self.held as f64 / self.design_effect();
        crate::stats::wilson(self.rate().max(0.0) * n, n, 0.95)
    }
}

/// Play `campaigns` with every seat playing `players` and count, season by
/// season, the mine-able hexes held and lost.
pub fn measure_loss(sc: &Scenario, players: &str, master: u64, campaigns: u64) -> Result<Loss, Error> {
    Ok(observe(sc, players, master, campaigns)?.loss)
}

/// What `players` in every seat do with mines: the loss rate of a mine-able
/// hex, the mines they build and the share of their gold mines bring.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    pub loss: Loss,
    /// Mines built by a player in a campaign (the mean over the seats of
    /// each campaign, then over campaigns).
    pub mines: Mean,
    /// Of the gold the players earned in a campaign (mines, pillage, loot),
    /// the share from mines; campaigns without gold are left out.
    pub mine_share: Mean,
    /// What the players did, to say what they never did (`exercised`).
    pub coverage: crate::sim::record::Coverage,
}

/// Play `campaigns` with every seat playing `players` and observe mines.
pub fn observe(sc: &Scenario, players: &str, master: u64, campaigns: u64) -> Result<Observed, Error> {
    use rayon::prelude::*;
    let sc = sc.with_players(players)?;
    // Per campaign: (held, lost, mines built a player, share of gold from
    // mines, what the players did).
    type Seen = (u64, u64, f64, f64, crate::sim::record::Coverage);
    let one = |i: u64| -> Result<Seen, Error> {
        crate::sim::watch::check()?;
        let cs = crate::seed::campaign_seed(master, i);
        let map = crate::rules::setup::make_map(&sc, cs)?;
        let mineable: Vec<usize> =
            (0..map.terrain.len()).filter(|&h| sc.buildings.mine.terrain.contains(map.terrain[h])).collect();
        let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
        let mut before: Option<Vec<u8>> = None;
        let (mut held, mut lost) = (0u64, 0u64);
        let d = crate::sim::Campaign::new(&sc, cs).on(&map).watch(|_, s| {
            let now: Vec<u8> = mineable.iter().map(|&h| s.hexes[h].owner().id()).collect();
            if let Some(b) = &before {
                for (x, y) in b.iter().zip(&now) {
                    if *x != crate::rules::NOBODY {
                        held += 1;
                        lost += (x != y) as u64;
                    }
                }
            }
            before = Some(now);
            std::ops::ControlFlow::Continue(())
        });
        let n = names.len().max(1) as f64;
        let built: u64 = d.taken.iter().map(|t| t[ActionKind::Mine.index()] as u64).sum();
        let (mines, all) = d.state.players.iter().fold((0i64, 0i64), |(m, a), p| {
            (m + p.tally.gold_mines, a + p.tally.gold_mines + p.tally.gold_pillage + p.tally.gold_loot)
        });
        let share = if all > 0 { mines as f64 / all as f64 } else { f64::NAN };
        let mut cov = crate::sim::record::Coverage::default();
        cov.add_campaign(&d.state, &names, &d.taken);
        crate::sim::watch::played(1);
        Ok((held, lost, built as f64 / n, share, cov))
    };
    let play = |r: std::ops::Range<u64>| r.into_par_iter().map(one).collect::<Result<Vec<_>, Error>>();
    let counts: Vec<Seen> = if crate::sim::watch::keeping() {
        let name = format!("{sc:?}");
        let mut all = Vec::with_capacity(campaigns as usize);
        for r in crate::sim::watch::pieces(0..campaigns, crate::sim::lineup::PIECE) {
            // "with coverage": pieces kept before it held four fields.
            let key = || format!("observe mines with coverage master {master} {r:?} {name}");
            all.extend(crate::sim::watch::memo(r.end - r.start, key, || play(r.clone()))?);
        }
        all
    } else {
        play(0..campaigns)?
    };
    Ok(Observed {
        loss: Loss::of(players, counts.iter().map(|c| (c.0, c.1))),
        mines: crate::stats::mean_interval(counts.iter().map(|c| c.2), 0.95),
        mine_share: crate::stats::mean_interval(counts.iter().map(|c| c.3), 0.95),
        coverage: counts.iter().fold(crate::sim::record::Coverage::default(), |mut all, c| {
            all.merge(&c.4);
            all
        }),
    })
}

/// A reading of the gap rules a mine's worth rests on: the shipped one, or
/// an alternative made of scenario keys (docs/rules.md marks each G rule
/// that decides a headline answer).
#[derive(Clone, Debug)]
pub struct Reading {
    pub name: &'static str,
    /// The keys it changes, as `--set KEY=VALUE` would write them.
    pub sets: Vec<(&'static str, &'static str)>,
    /// The same changes made to a scenario, one a group of keys.
    changes: Vec<fn(&mut Scenario)>,
}

/// One alternative: its name, its keys, and how it changes a scenario.
type Alternative = (&'static str, &'static [(&'static str, &'static str)], fn(&mut Scenario));

const ALTERNATIVES: [Alternative; 3] = [
    (
        "G-03: size = hexes held",
        &[("buildings.castle.counts_in_size", "false"), ("buildings.city.counts_in_size", "false")],
        |s| {
            s.buildings.castle.counts_in_size = false;
            s.buildings.city.counts_in_size = false;
        },
    ),
    ("G-11: peace pays 1 EP", &[("ep.no_battle", "1")], |s| s.ep.no_battle = 1),
    ("G-13: 3 recruits a hex", &[("recruit.per_hex", "3")], |s| s.recruit.per_hex = 3),
];

/// The shipped reading, each alternative alone, then all of them together.
pub fn readings() -> Vec<Reading> {
    let mut out = vec![Reading { name: "shipped", sets: Vec::new(), changes: Vec::new() }];
    for (name, sets, change) in ALTERNATIVES {
        out.push(Reading { name, sets: sets.to_vec(), changes: vec![change] });
    }
    out.push(Reading {
        name: "all three",
        sets: ALTERNATIVES.iter().flat_map(|a| a.1.iter().copied()).collect(),
        changes: ALTERNATIVES.iter().map(|a| a.2).collect(),
    });
    out
}

impl Reading {
    /// `sc` under this reading: each of its keys set, nothing else changed.
    pub fn apply(&self, sc: &Scenario) -> Scenario {
        let mut s = sc.clone();
        for change in &self.changes {
            change(&mut s);
        }
        s
    }

    /// `KEY=VALUE KEY=VALUE`, or `(the scenario as given)`.
    pub fn flags(&self) -> String {
        if self.sets.is_empty() {
            "(the scenario as given)".into()
        } else {
            self.sets.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
        }
    }
}

/// The answer under one reading: `players` in every seat.
#[derive(Clone, Debug)]
pub struct ReadingRow {
    pub reading: Reading,
    pub observed: Observed,
    /// One player denied mines, against copies that keep them (paired with
    /// the unrestricted player in the same seat).
    pub no_mines: super::restrict::Value,
    /// One player denied pillage.
    pub no_pillage: super::restrict::Value,
    /// One player made to build a mine first whenever it can.
    pub mines_first: super::restrict::Value,
    /// Holm-adjusted p-value of `mines_first` against 0 over the table's
    /// rows: whether building a mine whenever it can costs (or gains) a
    /// player wins under this reading.
    pub p_holm: f64,
}

/// The readings table: the answer under the shipped reading and each
/// alternative (`players` in every seat, `campaigns` a row, the same seeds
/// in every row).
#[derive(Clone, Debug)]
pub struct Readings {
    pub players: String,
    pub campaigns: u64,
    pub seed: u64,
    pub rows: Vec<ReadingRow>,
}

/// Two-sided p-value of a paired mean against 0 (normal approximation, as
/// the intervals are; `stats::p_two_sided`); 1 with fewer than 2 campaigns.
fn p_value(m: &Mean) -> f64 {
    if m.n < 2 {
        return 1.0;
    }
    crate::stats::p_two_sided(m.mean, m.sd / (m.n as f64).sqrt())
}

/// Play the readings table.
pub fn run_readings(sc: &Scenario, players: &str, seed: u64, campaigns: u64) -> Result<Readings, Error> {
    use super::restrict::{first_slot_wins, value_of};
    let mut rows = Vec::new();
    for reading in readings() {
        let s = reading.apply(&sc.with_players(players)?);
        let spec = s.named_strategy(players)?;
        let play = |me: &crate::scenario::StrategySpec| first_slot_wins(&s, me, &spec, seed, campaigns);
        let r = restrictions();
        let base = play(&spec)?;
        let nm = play(&r[0].apply(&spec))?;
        let np = play(&r[1].apply(&spec))?;
        let mf = play(&r[2].apply(&spec))?;
        let observed = observe(&s, players, seed, campaigns)?;
        rows.push(ReadingRow {
            reading,
            observed,
            no_mines: value_of("no mines", &nm, &base),
            no_pillage: value_of("no pillage", &np, &base),
            mines_first: value_of("mines first", &mf, &base),
            p_holm: 1.0,
        });
    }
    let p: Vec<f64> = rows.iter().map(|r| p_value(&r.mines_first.diff)).collect();
    for (r, q) in rows.iter_mut().zip(crate::stats::holm(&p)) {
        r.p_holm = q;
    }
    Ok(Readings { players: players.to_string(), campaigns, seed, rows })
}

/// One restricted variant against the baseline.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: &'static str,
    /// The restriction, as the `--set` flags that make it.
    pub flags: Vec<String>,
    pub rows: Vec<Row>,
}

/// One restricted player against unrestricted copies of its strategy.
#[derive(Clone, Debug)]
pub struct Solo {
    pub name: &'static str,
    pub strategy: String,
    pub campaigns: u64,
    /// Wins of the restricted player.
    pub wins: u64,
    /// Wins of the unrestricted strategy in the same seat, same campaigns.
    pub base_wins: u64,
    /// Restricted minus unrestricted, campaign by campaign.
    pub diff: Mean,
}

#[derive(Clone, Debug)]
pub struct Experiment {
    pub exact: Exact,
    pub campaigns: u64,
    pub seed: u64,
    /// Whether the strategies rotated through the seats.
    pub rotate_seats: bool,
    pub baseline: Measured,
    pub metrics: Vec<Metric>,
    pub variants: Vec<Variant>,
    /// Filled when every seat plays the same strategy.
    pub solo: Vec<Solo>,
    /// The measured chance of losing a mine-able hex in a season.
    pub loss: Option<Loss>,
    /// The verdicts of the variants' rows are one Holm family over every
    /// metric of every variant (`compare::adjust`); this says so.
    pub verdicts: String,
    /// With `--best-response`: each restriction's value under best response
    /// on both sides (`restrict::run` with the players' strategy as field).
    pub best: Vec<super::restrict::Study>,
    /// The answer under each reading of the gap rules it rests on.
    pub readings: Option<Readings>,
    /// Each seat strategy's competence on `TOPICS`: whose answer this is.
    pub competence: Vec<Competence>,
    /// `--payback N`: solve the exact part for the yield that makes a mine
    /// first match a pillage at its Nth payday.
    pub payback: Option<u32>,
    /// What gold and an EP are worth to the strongest player (`worth`), so
    /// the answer reads its gold in win points.
    pub worth: Option<super::worth::Study>,
}

/// The experiment's restrictions, as `restrict` sees them.
pub fn restrictions() -> Vec<super::restrict::Restriction> {
    RESTRICTIONS
        .iter()
        .map(|(_, list, kind)| {
            let k = vec![*kind];
            if *list == "forbid" {
                super::restrict::Restriction { forbid: k, force: Vec::new() }
            } else {
                super::restrict::Restriction { forbid: Vec::new(), force: k }
            }
        })
        .collect()
}

const RESTRICTIONS: [(&str, &str, ActionKind); 3] = [
    ("no mines", "forbid", ActionKind::Mine),
    ("no pillage", "forbid", ActionKind::Pillage),
    ("mines first", "force", ActionKind::Mine),
];

/// One restricted player of `name` against copies, for each restriction;
/// the copies' own player in that seat is played once for all three.
fn solo(sc: &Scenario, name: &str, seed: u64, campaigns: u64) -> Result<Vec<Solo>, Error> {
    use super::restrict::{first_slot_wins, value_of};
    let spec = sc.strategy(name).unwrap_or_default();
    let base = first_slot_wins(sc, &spec, &spec, seed, campaigns)?;
    let mut out = Vec::new();
    for ((label, _, _), r) in RESTRICTIONS.iter().zip(restrictions()) {
        let won = first_slot_wins(sc, &r.apply(&spec), &spec, seed, campaigns)?;
        let v = value_of(label, &won, &base);
        out.push(Solo {
            name: label,
            strategy: name.to_string(),
            campaigns,
            wins: v.wins,
            base_wins: v.base_wins,
            diff: v.diff,
        });
    }
    Ok(out)
}

/// The baseline with `forbid` or `force` set on every strategy its players use.
fn restricted(sc: &Scenario, list: &str, kind: ActionKind) -> (Scenario, Vec<String>) {
    let mut v = sc.clone();
    let mut flags = Vec::new();
    let mut names: Vec<String> = sc.players.iter().map(|p| p.strategy.clone()).collect();
    names.sort();
    names.dedup();
    for n in names {
        if let Some(spec) = v.strategies.get_mut(&n) {
            let l = if list == "forbid" { &mut spec.forbid } else { &mut spec.force };
            if !l.contains(&kind) {
                l.push(kind);
            }
            let names: Vec<&str> = l.iter().map(|k| k.name()).collect();
            flags.push(format!("strategies.{n}.{list}={names:?}"));
        }
    }
    (v, flags)
}

/// The campaigns `run` plays: the baseline and each restricted variant,
/// and, when one strategy holds every seat, the restricted player alone
/// against copies (its own player once, then each restriction).
pub fn planned(sc: &Scenario, campaigns: u64) -> u64 {
    let one = sc.players.first().is_some_and(|p| sc.players.iter().all(|q| q.strategy == p.strategy));
    let solo = if one && sc.players.len() > 1 { 1 + RESTRICTIONS.len() as u64 } else { 0 };
    (1 + RESTRICTIONS.len() as u64 + solo) * campaigns + competence_planned(sc, campaigns)
}

/// The campaigns `run_readings` plays: under each reading, the unrestricted
/// player, each restriction and the observation of mines.
pub fn readings_planned(campaigns: u64) -> u64 {
    readings().len() as u64 * (1 + RESTRICTIONS.len() as u64 + 1) * campaigns
}

/// Play the experiment; `rotate_seats` comes from `sim::runner::seating`
/// (the restricted variants keep the baseline's strategies in their seats,
/// so one decision holds for all).
pub fn run(sc: &Scenario, seed: u64, campaigns: u64, rotate_seats: bool) -> Result<Experiment, Error> {
    let metrics = standard(&[sc]);
    let baseline = measure(sc, seed, campaigns, rotate_seats, &metrics, true)?;
    let mut variants = Vec::new();
    for (name, list, kind) in RESTRICTIONS {
        let (v, flags) = restricted(sc, list, kind);
        let m = measure(&v, seed, campaigns, rotate_seats, &metrics, false)?;
        variants.push(Variant { name, flags, rows: paired(&metrics, &baseline, &m) });
    }
    let how = crate::stats::Correction::Holm;
    let tests = super::compare::adjust(variants.iter_mut().flat_map(|v| v.rows.iter_mut()), how);
    let verdicts =
        how.line(super::compare::ALPHA, tests, "tests (every metric of every variant; the page lists them all)");
    let one = sc.players.first().map(|p| p.strategy.clone()).filter(|s| sc.players.iter().all(|p| &p.strategy == s));
    let solo = match one {
        Some(name) if sc.players.len() > 1 => solo(sc, &name, seed, campaigns)?,
        _ => Vec::new(),
    };
    let competence = if sc.players.len() > 1 { competence(sc, seed, campaigns)? } else { Vec::new() };
    Ok(Experiment {
        exact: Exact::of(sc),
        campaigns,
        seed,
        rotate_seats,
        baseline,
        metrics,
        variants,
        solo,
        loss: None,
        verdicts,
        best: Vec::new(),
        readings: None,
        competence,
        payback: None,
        worth: None,
    })
}
