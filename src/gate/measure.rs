//! Measuring one metric of a balance file: Monte Carlo metrics as a mean
//! with its standard error over campaigns (common random numbers for a
//! paired difference), exact metrics straight from `analysis`.

use super::spec::{ALPHA_RANK, EQUILIBRIUM, MetricSpec, RESTRICTION_VALUE, SEAT_DEVIATION, SolveRef, TableRef};
use crate::error::Error;
use crate::report::dataset::numeric;
use crate::rules::CombatKind;
use crate::scenario::Scenario;
use crate::sim::record::{Coverage, PlayerRecord};
use crate::sim::runner::{Flow, RunConfig, SeatFlag, run, seating};
use crate::stats::{mean_interval, wilson};
use crate::study::metrics::Metric;

/// A measured value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub value: f64,
    /// Standard error; 0 for an exact value.
    pub se: f64,
    /// 95% interval (the value itself for an exact one).
    pub low: f64,
    pub high: f64,
    pub exact: bool,
    /// Campaigns played (0 for an exact value).
    pub campaigns: u64,
}

/// A measured value with what its tests need beyond it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub measured: Measured,
    /// Each campaign's value, campaign `i` of the metric's seed at `i`, for
    /// a mean over campaigns (what a paired baseline test pairs); empty for
    /// the others.
    pub values: Vec<f64>,
    /// The value is the worst of this many one-sided tests (the seats of
    /// `max seat deviation`): its bound test is Bonferroni-corrected over
    /// them. 1 for every other metric.
    pub worst_of: u32,
    /// The scenario file played (`gate::measure_sample` names it).
    pub played: Option<super::Played>,
    /// What the campaigns' players did (a variant's campaigns with the
    /// scenario's), for the line naming what they never did: a metric
    /// about a rule nobody played passes whatever the rule says. `None`
    /// for a value read off no campaigns of its own.
    pub coverage: Option<Coverage>,
}

impl From<Measured> for Sample {
    fn from(measured: Measured) -> Sample {
        Sample { measured, values: Vec::new(), worst_of: 1, played: None, coverage: None }
    }
}

/// One value per campaign of `sc` for the metric (`quantity` or `column`),
/// and what the campaigns' players did.
fn per_campaign(sc: &Scenario, m: &MetricSpec, rotate_seats: bool) -> Result<(Vec<f64>, Coverage), Error> {
    let quantity: Option<Metric> = match &m.quantity {
        Some(q) => Some(crate::balance::metric_named(sc, q).map_err(|e| e.at("quantity"))?),
        None => None,
    };
    let keep = |r: &PlayerRecord| {
        m.group.get("strategy").is_none_or(|s| &r.strategy == s)
            && m.group.get("seat").is_none_or(|s| r.seat.to_string() == *s)
    };
    let combats = quantity.as_ref().is_some_and(Metric::needs_combats);
    let detail = crate::sim::Detail { combats, ..Default::default() };
    let cfg = RunConfig { master: m.seed, range: 0..m.campaigns, rotate_seats, chunk: 2048, detail };
    let n = sc.players.len().max(1);
    let key = || format!("gate per campaign and coverage {rotate_seats} {m:?} {sc:?}");
    crate::sim::watch::memo(m.campaigns, key, || {
        let mut out = Vec::with_capacity(m.campaigns as usize);
        let mut cov = Coverage::default();
        run::<crate::rules::setup::SetupError>(
            sc,
            &cfg,
            |chunk| {
                cov.merge(&chunk.coverage);
                for (rows, fought) in crate::study::metrics::campaigns(&chunk, n) {
                    let v = match (&quantity, &m.column) {
                        (Some(q), _) => q.value_of(rows, fought),
                        (None, Some(col)) => {
                            let xs: Vec<f64> =
                                rows.iter().filter(|r| keep(r)).filter_map(|r| numeric(r, col)).collect();
                            if xs.is_empty() { f64::NAN } else { xs.iter().sum::<f64>() / xs.len() as f64 }
                        }
                        _ => f64::NAN,
                    };
                    out.push(v);
                }
                Ok(Flow::Continue)
            },
            |_| {},
        )
        .map(|_| (out, cov))
    })
    .map_err(Error::from)
}

/// Measure a Monte Carlo metric of `sc` (and of `variant` for a difference).
/// Both are seated alike (`rotate_seats`, or the default of
/// `sim::runner::seating` over both), so the pairs stay paired.
pub fn monte_carlo(sc: &Scenario, variant: Option<&Scenario>, m: &MetricSpec) -> Result<Sample, Error> {
    let both: Vec<&Scenario> = std::iter::once(sc).chain(variant).collect();
    let rotate = seating(&both, SeatFlag::from_key(m.rotate_seats)).rotate();
    if m.quantity.as_deref() == Some(SEAT_DEVIATION) {
        if variant.is_some() {
            return Err(Error::input(format!("{SEAT_DEVIATION:?} takes no variant")));
        }
        let (wins, cov) = seat_wins(sc, m, rotate)?;
        return Ok(Sample {
            worst_of: wins.len().max(1) as u32,
            coverage: Some(cov),
            ..Sample::from(seat_deviation(&wins))
        });
    }
    if let Some(q) = m.quantity.as_deref() {
        if let Some(s) = q.strip_prefix(EQUILIBRIUM) {
            return meta_mass(sc, m, s, true).map(Sample::from);
        }
        if let Some(s) = q.strip_prefix(ALPHA_RANK) {
            return meta_mass(sc, m, s, false).map(Sample::from);
        }
        if q == RESTRICTION_VALUE {
            return restriction_value(sc, m).map(Sample::from);
        }
    }
    let (a, mut cov) = per_campaign(sc, m, rotate)?;
    let values: Vec<f64> = match variant {
        Some(v) => {
            let (b, vcov) = per_campaign(v, m, rotate)?;
            cov.merge(&vcov);
            a.iter().zip(&b).map(|(x, y)| y - x).collect()
        }
        None => a,
    };
    let mean = mean_interval(values.iter().copied(), 0.95);
    if mean.n == 0 {
        return Err(Error::input("no campaign gave a value (is the group empty?)"));
    }
    let se = mean.sd / (mean.n as f64).sqrt();
    let is_rate = m.quantity.as_deref().is_some_and(|q| q.starts_with("win rate"));
    let (low, high) = if is_rate && variant.is_none() {
        wilson(mean.mean * mean.n as f64, mean.n as f64, 0.95)
    } else {
        (mean.low, mean.high)
    };
    let measured = Measured { value: mean.mean, se, low, high, exact: false, campaigns: mean.n };
    Ok(Sample { measured, values, worst_of: 1, played: None, coverage: Some(cov) })
}

/// Wins per seat over the metric's campaigns (one winner per campaign),
/// and what the campaigns' players did.
fn seat_wins(sc: &Scenario, m: &MetricSpec, rotate_seats: bool) -> Result<(Vec<u64>, Coverage), Error> {
    let cfg =
        RunConfig { master: m.seed, range: 0..m.campaigns, rotate_seats, chunk: 2048, detail: Default::default() };
    let key = || format!("gate seat wins and coverage {rotate_seats} {m:?} {sc:?}");
    crate::sim::watch::memo(m.campaigns, key, || {
        let mut wins = vec![0u64; sc.players.len()];
        let mut cov = Coverage::default();
        run::<crate::rules::setup::SetupError>(
            sc,
            &cfg,
            |chunk| {
                cov.merge(&chunk.coverage);
                for r in chunk.players.iter().filter(|r| r.winner) {
                    wins[r.seat as usize] += 1;
                }
                Ok(Flow::Continue)
            },
            |_| {},
        )
        .map(|_| (wins, cov))
    })
    .map_err(Error::from)
}

/// `max seat deviation` from the wins of each seat: the largest
/// |win rate − 1/seats| over the seats. Its interval runs from the largest
/// distance of a seat's Wilson 95% interval to 1/seats (0 when it holds
/// 1/seats) to the largest distance of an interval's far end. Its standard
/// error is that of the most deviant seat's rate: the gate tests a bound
/// `max = D` one-sided at D with it, Bonferroni-corrected over the seats
/// (`Sample::worst_of`), since the value is the worst of them.
pub fn seat_deviation(wins: &[u64]) -> Measured {
    let campaigns: u64 = wins.iter().sum();
    let n = campaigns as f64;
    let fair = 1.0 / wins.len().max(1) as f64;
    let (mut value, mut se, mut low, mut high) = (0.0f64, 0.0, 0.0f64, 0.0f64);
    for &w in wins {
        let p = if n > 0.0 { w as f64 / n } else { 0.0 };
        let (lo, hi) = wilson(w as f64, n, 0.95);
        let d = (p - fair).abs();
        if d >= value {
            value = d;
            se = if n > 0.0 { (p * (1.0 - p) / n).sqrt() } else { 0.0 };
        }
        let near = if lo > fair {
            lo - fair
        } else if hi < fair {
            fair - hi
        } else {
            0.0
        };
        low = low.max(near);
        high = high.max((lo - fair).abs().max((hi - fair).abs()));
    }
    Measured { value, se, low, high, exact: false, campaigns }
}

/// An exact value of the tables.
pub fn exact(sc: &Scenario, t: &TableRef) -> Result<Measured, Error> {
    let v = match t.kind.as_str() {
        "siege_chain" => {
            // The attacker is the army (its units), the defender the city
            // (its PV).
            let s = crate::analysis::markov::sieges(&Scenario {
                tables: crate::scenario::TablesSpec {
                    siege_city_pv: [t.defender, t.defender],
                    siege_army_units: [t.attacker, t.attacker],
                    ..sc.tables.clone()
                },
                ..sc.clone()
            });
            let c = s.first().ok_or_else(|| Error::input("empty siege chain"))?;
            match t.value.as_str() {
                "assaults" => c.assaults,
                "units_spent" => c.units_spent,
                "army_spent_first" => c.army_spent_first,
                v => {
                    return Err(Error::input(format!(
                        "siege_chain value {v:?}: assaults, units_spent or army_spent_first"
                    )));
                }
            }
        }
        "naval_chain" => {
            let mut sc2 = sc.clone();
            let (lo, hi) = (t.attacker.min(t.defender), t.attacker.max(t.defender));
            sc2.tables.naval_ships = [lo, hi];
            let n = crate::analysis::markov::naval(&sc2);
            let c = n
                .iter()
                .find(|c| c.ships == t.attacker && c.enemy == t.defender)
                .ok_or_else(|| Error::input("no such fleet"))?;
            match t.value.as_str() {
                "win" => c.win,
                "both_sunk" => c.both_sunk,
                "survivors" => c.survivors,
                "exchanges" => c.exchanges,
                v => {
                    return Err(Error::input(format!(
                        "naval_chain value {v:?}: win, both_sunk, survivors or exchanges"
                    )));
                }
            }
        }
        k => {
            let kind = CombatKind::ALL.iter().copied().find(|c| c.name() == k).ok_or_else(|| {
                Error::input(format!(
                    "table kind {k:?}: one of army, siege, naval, coastal, spy, spy_vs_spy, siege_chain, naval_chain"
                ))
            })?;
            let tb = crate::analysis::combat::table(sc, kind, vec![t.attacker], vec![t.defender]);
            let c = &tb.cells[0];
            let d = tb.den as f64;
            match t.value.as_str() {
                "win" => c.win as f64 / d,
                "tie" => c.tie as f64 / d,
                "lose" => c.lose as f64 / d,
                "attacker_loss" => c.a_loss as f64 / d,
                "defender_loss" => c.d_loss as f64 / d,
                v => match v.strip_prefix("row ").and_then(|n| n.trim().parse::<usize>().ok()) {
                    Some(r) if r >= 1 && r <= c.rows.len() => c.rows[r - 1] as f64 / d,
                    _ => {
                        return Err(Error::input(format!(
                            "table value {v:?}: win, tie, lose, attacker_loss, defender_loss or row 1 to {}",
                            c.rows.len()
                        )));
                    }
                },
            }
        }
    };
    Ok(Measured { value: v, se: 0.0, low: v, high: v, exact: true, campaigns: 0 })
}

/// A strategy's equilibrium or α-rank mass in the meta-game of the metric's
/// `strategies`, with its bootstrap interval (`campaigns` per composition).
fn meta_mass(sc: &Scenario, m: &MetricSpec, strategy: &str, equilibrium: bool) -> Result<Measured, Error> {
    let names = m.strategies.clone().unwrap_or_default();
    let i = names
        .iter()
        .position(|n| n == strategy)
        .ok_or_else(|| Error::input(format!("{strategy:?} is not in `strategies`")))?;
    let mg = crate::strength::metagame::metagame(sc, &names, m.seed, m.campaigns, 200, 100.0, 50)?;
    let (value, (low, high)) =
        if equilibrium { (mg.equilibrium[i], mg.equilibrium_ci[i]) } else { (mg.alpha_rank[i], mg.alpha_rank_ci[i]) };
    Ok(Measured {
        value,
        // The bootstrap interval's half-width over 1.96, for a baseline's z test.
        se: (high - low) / 3.92,
        low,
        high,
        exact: false,
        campaigns: m.campaigns * mg.game.compositions().len() as u64,
    })
}

/// One restricted player's win rate minus an unrestricted one's in the same
/// seat, against copies of `players` (docs/studies.md).
fn restriction_value(sc: &Scenario, m: &MetricSpec) -> Result<Measured, Error> {
    use crate::study::restrict::{Restriction, paired};
    let r = Restriction::new(m.forbid.clone(), m.force.clone())?;
    let players = m.players.clone().unwrap_or_else(|| crate::strategy::STRONG.into());
    let spec = sc.named_strategy(&players)?;
    let v = paired(sc, &players, &r.apply(&spec), &spec, m.seed, m.campaigns)?;
    Ok(Measured {
        value: v.diff.mean,
        se: v.diff.sd / (v.diff.n as f64).sqrt(),
        low: v.diff.low,
        high: v.diff.high,
        exact: false,
        campaigns: v.campaigns,
    })
}

/// A solved value: where the target's gap crosses 0 over the key
/// (`solve::crossing`, whether or not a whole value meets the target
/// there), on the metric's seeds and campaigns, with its 95% interval and
/// a standard error read off that interval. A gap that does not change sign
/// in the range ("no root found") is an error, which fails the check.
pub fn solved(sc: &Scenario, m: &MetricSpec, sv: &SolveRef) -> Result<Measured, Error> {
    use crate::balance::{param::Param, solve};
    let param = Param::parse(&sv.vary, sc).map_err(|e| e.at("solve.vary"))?;
    let goal = solve::Goal::parse(&sv.target, sc)?;
    let rotate = seating(&[sc], SeatFlag::from_key(m.rotate_seats)).rotate();
    let settings = solve::Settings {
        campaigns: m.campaigns,
        master: m.seed,
        rotate,
        max_steps: sv.steps.max(1),
        seating: solve::PointPlayers::AsSeated,
    };
    let f = solve::crossing(sc, &param, &goal, settings)?;
    let se = f.root_se();
    Ok(Measured {
        value: f.root,
        se: if se.is_finite() { se } else { f64::MAX },
        low: f.interval.0,
        high: f.interval.1,
        exact: false,
        campaigns: m.campaigns,
    })
}
