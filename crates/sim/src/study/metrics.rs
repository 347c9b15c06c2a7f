//! The balance metrics of a study, one value per campaign, and the runs
//! that produce them.
//!
//! Every study (compare, sweep, the mine-vs-pillage experiment) plays its
//! variants on the same master seed, so campaign `i` of every variant has
//! the same seeds, map and dice stream: common random numbers. Differences
//! are then taken campaign by campaign, which removes most of the noise the
//! variants share.

use crate::rules::CombatKind;
use crate::rules::setup::SetupError;
use crate::scenario::Scenario;
use crate::sim::record::{CombatRow, Coverage, PlayerRecord};
use crate::sim::runner::{Chunk, Flow, RunConfig, run};
use crate::sim::watch;
use crate::sim::{Detail, record::SeasonRecord};
use crate::stats::{Mean, ratio_interval};
use std::collections::BTreeMap;

/// What each metric measures, per campaign.
#[derive(Clone, Debug, PartialEq)]
pub enum Metric {
    /// Share of this strategy's players who won the campaign.
    WinStrategy(String),
    /// 1 when this seat won.
    WinSeat(u32),
    /// Mean empire size over all players.
    MeanSize,
    /// Mean empire size of this strategy's players.
    SizeStrategy(String),
    /// Mean gold per player from mines, pillage or loot.
    Gold(&'static str),
    /// Gold from mines over gold from mines, pillage and loot (all players).
    MineShare,
    /// Gold from pillage over the same total.
    PillageShare,
    /// Combats of one kind in the campaign, as played (question 3: a table
    /// change is seen in play).
    Combat(CombatKind, CombatStat),
    /// Cities conquered, federated or pillaged by a siege, all players.
    CitiesTaken,
    /// Experience gained by armies in the campaign, all players (W-06).
    XpGained,
    /// Mean EP a player earned over the campaign (E-01..E-03, G-11).
    EpEarned,
    /// 1 when the campaign ended tied at the top, so the tie-break die
    /// picked its winner: a campaign in which the rules decided nothing.
    TiedAtTop,
}

/// What a combat metric counts over one kind's combats in a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CombatStat {
    /// How many were fought (for a siege: assaults).
    Count,
    /// The share the attacker won (its total above the defender's).
    AttackerWins,
    /// What the attackers lost, summed (units, ship PV or spies).
    AttackerLoss,
    /// What the defenders lost, summed (units, city PV, ship or building PV).
    DefenderLoss,
}

impl CombatStat {
    pub const ALL: [CombatStat; 4] =
        [CombatStat::Count, CombatStat::AttackerWins, CombatStat::AttackerLoss, CombatStat::DefenderLoss];
}

impl Metric {
    pub fn name(&self) -> String {
        match self {
            Metric::WinStrategy(s) => format!("win rate: {s}"),
            Metric::WinSeat(k) => format!("win rate: seat {k}"),
            Metric::MeanSize => "mean empire size".into(),
            Metric::SizeStrategy(s) => format!("empire size: {s}"),
            Metric::Gold(g) => format!("gold from {g}"),
            Metric::MineShare => "share of gold from mines".into(),
            Metric::PillageShare => "share of gold from pillage".into(),
            Metric::Combat(k, stat) => {
                let what = match (k, stat) {
                    (CombatKind::Siege, CombatStat::Count) => "assaults",
                    (_, CombatStat::Count) => "combats",
                    (_, CombatStat::AttackerWins) => "attacker win rate",
                    (_, CombatStat::AttackerLoss) => "attacker losses",
                    (_, CombatStat::DefenderLoss) => "defender losses",
                };
                format!("{}: {what}", k.name())
            }
            Metric::CitiesTaken => "siege: cities taken".into(),
            Metric::XpGained => "experience gained".into(),
            Metric::EpEarned => "EP earned a player".into(),
            Metric::TiedAtTop => "tied at the top".into(),
        }
    }

    /// Decimals a value needs in a table: combats and cities come a few
    /// a campaign or fewer (0.393 sieges a campaign), so a change of 1 in
    /// 100 campaigns must still show.
    pub fn decimals(&self) -> usize {
        if matches!(self, Metric::Combat(..) | Metric::CitiesTaken) { 3 } else { 2 }
    }

    /// Whether the metric reads a campaign's combats, which a run keeps
    /// only when asked (`Detail::combats`).
    pub fn needs_combats(&self) -> bool {
        matches!(self, Metric::Combat(..))
    }

    /// What a share means, said on every page that shows one: each
    /// campaign's share of its gold, averaged over the campaigns (a
    /// campaign without gold left out). It differs from the pooled share,
    /// all campaigns' gold from the source over all their gold, which
    /// weighs rich campaigns more. `None` for a metric whose name says it.
    pub fn definition(&self) -> Option<String> {
        let source = match self {
            Metric::MineShare => "mines",
            Metric::PillageShare => "pillage",
            // One line for every combat metric: a page says it once.
            Metric::Combat(..) | Metric::CitiesTaken => {
                return Some(
                    "combat metrics (KIND: ...): per campaign as played, all players together: the combats of the \
                     kind (a siege's are its assaults), the share the attacker won (its total above the defender's; \
                     a campaign without one is left out), and what attackers and defenders lost, summed (units; \
                     ship PV; a siege's army units and city PV; a spy's spies lost and actions that worked)"
                        .into(),
                );
            }
            _ => return None,
        };
        Some(format!(
            "{}: the mean over campaigns of each campaign's share of its gold (gold from {source} ÷ gold from mines, \
             pillage and loot, every player together; a campaign without gold is left out), not the pooled share of \
             all campaigns' gold",
            self.name()
        ))
    }

    /// Win rates and shares are proportions.
    pub fn is_rate(&self) -> bool {
        matches!(
            self,
            Metric::WinStrategy(_)
                | Metric::WinSeat(_)
                | Metric::MineShare
                | Metric::PillageShare
                | Metric::Combat(_, CombatStat::AttackerWins)
                | Metric::TiedAtTop
        )
    }

    /// The metric in one campaign, from its rows and, for a combat metric,
    /// its combats (all of them: a run with `Detail::combats`).
    pub fn value_of(&self, rows: &[PlayerRecord], combats: &[CombatRow]) -> f64 {
        self.value(rows, combats)
    }

    fn value(&self, rows: &[PlayerRecord], combats: &[CombatRow]) -> f64 {
        let mean = |it: &mut dyn Iterator<Item = f64>| {
            let (mut n, mut s) = (0.0, 0.0);
            for x in it {
                n += 1.0;
                s += x;
            }
            if n > 0.0 { s / n } else { f64::NAN }
        };
        match self {
            Metric::WinStrategy(s) => {
                mean(&mut rows.iter().filter(|r| &r.strategy == s).map(|r| r.winner as u8 as f64))
            }
            Metric::WinSeat(k) => mean(&mut rows.iter().filter(|r| r.seat == *k).map(|r| r.winner as u8 as f64)),
            Metric::MeanSize => mean(&mut rows.iter().map(|r| r.empire_size as f64)),
            Metric::SizeStrategy(s) => {
                mean(&mut rows.iter().filter(|r| &r.strategy == s).map(|r| r.empire_size as f64))
            }
            Metric::Gold(g) => mean(&mut rows.iter().map(|r| gold(r, g) as f64)),
            Metric::MineShare | Metric::PillageShare => {
                let m: i64 = if matches!(self, Metric::MineShare) {
                    rows.iter().map(|r| r.tally.gold_mines).sum()
                } else {
                    rows.iter().map(|r| r.tally.gold_pillage).sum()
                };
                let all: i64 = rows.iter().map(|r| r.tally.gold_mines + r.tally.gold_pillage + r.tally.gold_loot).sum();
                if all > 0 { m as f64 / all as f64 } else { f64::NAN }
            }
            Metric::CitiesTaken => rows.iter().map(|r| r.tally.cities_taken as f64).sum(),
            Metric::XpGained => rows.iter().map(|r| r.tally.xp_gained as f64).sum(),
            Metric::EpEarned => mean(&mut rows.iter().map(|r| r.tally.ep_earned as f64)),
            Metric::TiedAtTop => rows.iter().any(|r| r.winner && r.tie) as u8 as f64,
            Metric::Combat(k, stat) => combat_value(*k, *stat, combats.iter().map(|c| Fought::of(&c.rec))),
        }
    }

    /// The metric in one campaign from its rows and the few fields of its
    /// combats a combat metric reads: what a finished run's
    /// `combats.parquet` gives back (`compare RUN_A RUN_B`).
    pub fn value_fought(&self, rows: &[PlayerRecord], fought: &[Fought]) -> f64 {
        match self {
            Metric::Combat(k, stat) => combat_value(*k, *stat, fought.iter().copied()),
            _ => self.value(rows, &[]),
        }
    }
}

/// What a combat metric reads of one combat: its kind, the attacker's gap
/// and each side's loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fought {
    pub kind: CombatKind,
    pub gap: i32,
    pub a_loss: i32,
    pub d_loss: i32,
}

impl Fought {
    pub fn of(c: &crate::rules::CombatRecord) -> Fought {
        Fought { kind: c.kind, gap: c.gap, a_loss: c.a_loss, d_loss: c.d_loss }
    }
}

/// A combat metric of kind `k` over one campaign's combats: one place, so
/// a played campaign and a run read back from its files count alike.
fn combat_value(k: CombatKind, stat: CombatStat, combats: impl Iterator<Item = Fought>) -> f64 {
    let of_kind = combats.filter(|c| c.kind == k);
    match stat {
        CombatStat::Count => of_kind.count() as f64,
        // A campaign without such a combat has no rate: left out.
        CombatStat::AttackerWins => {
            let (mut n, mut won) = (0.0, 0.0);
            for c in of_kind {
                n += 1.0;
                won += (c.gap > 0) as u8 as f64;
            }
            if n > 0.0 { won / n } else { f64::NAN }
        }
        CombatStat::AttackerLoss => of_kind.map(|c| c.a_loss as f64).sum(),
        CombatStat::DefenderLoss => of_kind.map(|c| c.d_loss as f64).sum(),
    }
}

/// Each campaign of a chunk: its player rows and its combats (none unless
/// the run kept them). Both lists are in campaign order.
pub fn campaigns(chunk: &Chunk, players: usize) -> Vec<(&[PlayerRecord], &[CombatRow])> {
    let mut out = Vec::new();
    let mut at = 0;
    for rows in chunk.players.chunks(players.max(1)) {
        let id = rows.first().map_or(0, |r| r.campaign);
        let start = at;
        while at < chunk.combats.len() && chunk.combats[at].campaign == id {
            at += 1;
        }
        out.push((rows, &chunk.combats[start..at]));
    }
    out
}

fn gold(r: &PlayerRecord, source: &str) -> i64 {
    match source {
        "mines" => r.tally.gold_mines,
        "pillage" => r.tally.gold_pillage,
        _ => r.tally.gold_loot,
    }
}

/// The standard metric list for scenarios: every strategy's win rate and
/// empire size, every seat's win rate, mean size, gold by source and the
/// mine share. Strategies are taken from all the scenarios given, so two
/// variants are measured on the same list.
pub fn standard(scenarios: &[&Scenario]) -> Vec<Metric> {
    let mut strategies: Vec<String> = Vec::new();
    let mut seats = 0;
    for sc in scenarios {
        seats = seats.max(sc.players.len());
        for p in &sc.players {
            if !strategies.contains(&p.strategy) {
                strategies.push(p.strategy.clone());
            }
        }
    }
    strategies.sort();
    let mut m: Vec<Metric> = strategies.iter().map(|s| Metric::WinStrategy(s.clone())).collect();
    m.extend((0..seats as u32).map(Metric::WinSeat));
    m.push(Metric::MeanSize);
    m.extend(strategies.iter().map(|s| Metric::SizeStrategy(s.clone())));
    m.extend(["mines", "pillage", "loot"].map(Metric::Gold));
    m.push(Metric::MineShare);
    m.push(Metric::PillageShare);
    m
}

/// The combat metrics, per kind, then the cities taken: what compare,
/// sweep and the gate add so that a table change is seen in play.
pub fn combat() -> Vec<Metric> {
    let mut m: Vec<Metric> =
        CombatKind::ALL.iter().flat_map(|&k| CombatStat::ALL.map(|s| Metric::Combat(k, s))).collect();
    m.push(Metric::CitiesTaken);
    m
}

/// `standard` and `combat`: every metric compare and sweep measure.
pub fn with_combat(scenarios: &[&Scenario]) -> Vec<Metric> {
    let mut m = standard(scenarios);
    m.extend(combat());
    m
}

/// The metrics of one variant: `values[i][j]` is metric `j` in campaign `i`.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    pub values: Vec<Vec<f64>>,
    pub coverage: Coverage,
    /// Mean cumulative gold by source per (strategy, season), when asked.
    pub seasons: BTreeMap<(String, u32), SeasonGold>,
    /// Per strategy, each campaign it played in (in campaign order): its
    /// players' gold from mines, pillage and loot, summed. The campaign is
    /// the unit of a pooled share's interval (`gold_share`).
    pub gold_by_campaign: BTreeMap<String, Vec<[f64; 3]>>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeasonGold {
    pub rows: u64,
    pub mines: f64,
    pub pillage: f64,
    pub loot: f64,
}

/// Campaigns per kept piece of a measurement (`watch::memo`): the runner's chunk.
const PIECE: u64 = 2048;

/// Play campaigns `0..campaigns` of `sc` with master seed `master` and
/// measure `metrics` in each. With `seasons`, also keep the gold by source
/// per strategy and season.
///
/// When the thread's watch keeps cells, the campaigns are measured in
/// pieces of `PIECE`, each kept as it finishes, so an interrupted study
/// resumes from its last piece.
pub fn measure(
    sc: &Scenario,
    master: u64,
    campaigns: u64,
    rotate_seats: bool,
    metrics: &[Metric],
    seasons: bool,
) -> Result<Measured, SetupError> {
    let part = |range| sums(sc, master, range, rotate_seats, metrics, seasons);
    let mut out = if watch::keeping() {
        // The scenario's whole text names the variant: every strategy, every rule.
        let name = format!("{sc:?}");
        let mut out = Measured::default();
        for r in watch::pieces(0..campaigns, PIECE) {
            // "gold by campaign": pieces kept before it summed the gold.
            let key = || {
                format!(
                    "measure gold by campaign master {master} {r:?} rotate {rotate_seats} seasons {seasons} \
                     {metrics:?} {name}"
                )
            };
            out.add(watch::memo(r.end - r.start, key, || part(r.clone()))?);
        }
        out
    } else {
        part(0..campaigns)?
    };
    for g in out.seasons.values_mut() {
        let n = g.rows.max(1) as f64;
        g.mines /= n;
        g.pillage /= n;
        g.loot /= n;
    }
    Ok(out)
}

impl Measured {
    /// `metrics` in each campaign of finished rows (`campaigns[i]`: the
    /// rows of campaign `i`, as a run wrote them), for a comparison of
    /// runs that plays nothing.
    pub fn of_rows(metrics: &[Metric], campaigns: &[(&[PlayerRecord], &[Fought])]) -> Measured {
        let values = campaigns
            .iter()
            .map(|(rows, fought)| metrics.iter().map(|m| m.value_fought(rows, fought)).collect())
            .collect();
        Measured { values, ..Measured::default() }
    }

    /// The campaigns of `other` after these; seasons' gold stays summed.
    fn add(&mut self, other: Measured) {
        self.values.extend(other.values);
        self.coverage.merge(&other.coverage);
        for (k, g) in other.seasons {
            let e = self.seasons.entry(k).or_default();
            e.rows += g.rows;
            e.mines += g.mines;
            e.pillage += g.pillage;
            e.loot += g.loot;
        }
        for (k, g) in other.gold_by_campaign {
            self.gold_by_campaign.entry(k).or_default().extend(g);
        }
    }

    /// The share of `strategy`'s gold from source `k` (0 mines, 1 pillage,
    /// 2 loot), pooled over every campaign (all its gold from the source
    /// over all its gold), with its 95% interval, the campaign as the unit
    /// (`stats::ratio_interval`); NaN without gold.
    pub fn gold_share(&self, strategy: &str, k: usize) -> Mean {
        let per = self.gold_by_campaign.get(strategy).map_or(&[][..], Vec::as_slice);
        ratio_interval(per.iter().map(|g| (g[k], g.iter().sum())), 0.95)
    }

    /// All gold from mines, pillage and loot, every strategy and campaign.
    pub fn gold_total(&self) -> f64 {
        self.gold_by_campaign.values().flatten().flatten().sum()
    }
}

/// `measure` over `range`, with the seasons' gold summed (not yet averaged).
fn sums(
    sc: &Scenario,
    master: u64,
    range: std::ops::Range<u64>,
    rotate_seats: bool,
    metrics: &[Metric],
    seasons: bool,
) -> Result<Measured, SetupError> {
    let combats = metrics.iter().any(Metric::needs_combats);
    let cfg = RunConfig {
        master,
        range,
        rotate_seats,
        chunk: PIECE,
        detail: Detail { seasons, combats, ..Detail::default() },
    };
    let mut out = Measured::default();
    let players = sc.players.len().max(1);
    run::<SetupError>(
        sc,
        &cfg,
        |chunk| {
            for (rows, fought) in campaigns(&chunk, players) {
                out.values.push(metrics.iter().map(|m| m.value(rows, fought)).collect());
                add_gold(&mut out.gold_by_campaign, rows);
            }
            out.coverage.merge(&chunk.coverage);
            for s in &chunk.seasons {
                add_season(&mut out.seasons, s);
            }
            Ok(Flow::Continue)
        },
        |_| {},
    )?;
    Ok(out)
}

/// One campaign's gold by source, summed over each strategy's players.
fn add_gold(m: &mut BTreeMap<String, Vec<[f64; 3]>>, rows: &[PlayerRecord]) {
    let mut here: BTreeMap<&str, [f64; 3]> = BTreeMap::new();
    for r in rows {
        let g = here.entry(&r.strategy).or_default();
        g[0] += r.tally.gold_mines as f64;
        g[1] += r.tally.gold_pillage as f64;
        g[2] += r.tally.gold_loot as f64;
    }
    for (s, g) in here {
        m.entry(s.to_string()).or_default().push(g);
    }
}

fn add_season(m: &mut BTreeMap<(String, u32), SeasonGold>, s: &SeasonRecord) {
    let g = m.entry((s.strategy.clone(), s.season)).or_default();
    g.rows += 1;
    g.mines += s.gold_mines as f64;
    g.pillage += s.gold_pillage as f64;
    g.loot += s.gold_loot as f64;
}
