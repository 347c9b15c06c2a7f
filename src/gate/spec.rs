//! The balance file (`balance.toml`): which metrics to measure and how to
//! judge them. Read with the same rules as a scenario: unknown keys are
//! errors, and every problem is reported as `FILE:LINE:COL: message`.

use crate::error::Error;
use crate::scenario::load::line_col;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalanceFile {
    /// The chance that the file fails by chance: every Monte Carlo metric's
    /// test (one-sided at its bounds, or against its baseline) is one Holm
    /// family at this level.
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    #[serde(default)]
    pub metric: Vec<MetricSpec>,
}

fn default_alpha() -> f64 {
    0.01
}

fn default_campaigns() -> u64 {
    2000
}

fn default_seed() -> u64 {
    1
}

/// An exact value of `empires tables`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRef {
    /// `army`, `siege`, `naval`, `coastal`, `spy`, `spy_vs_spy`: a cell;
    /// `siege_chain` or `naval_chain`: a Markov table.
    pub kind: String,
    /// Cells: the two bases. Siege chains: the army's units and the
    /// city's PV. Naval chains: attacking and defending ships.
    pub attacker: i32,
    pub defender: i32,
    /// Cells: `win`, `tie`, `lose`, `attacker_loss`, `defender_loss` or
    /// `row N`. Siege chains: `assaults`, `units_spent`, `army_spent_first`.
    /// Naval chains: `win`, `both_sunk`, `survivors`, `exchanges`.
    pub value: String,
}

/// A solved value (`empires solve`): the root of `target` over `vary`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRef {
    /// `KEY=LO..HI`, as `solve --range` takes it.
    pub vary: String,
    /// `"METRIC = VALUE"` or `"METRIC = METRIC2"`, as `solve --target`.
    pub target: String,
    /// Bisection steps for a key that is not a whole number.
    #[serde(default = "default_steps")]
    pub steps: usize,
}

fn default_steps() -> usize {
    12
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricSpec {
    pub name: String,
    /// A scenario file, relative to the balance file; none: the embedded default.
    pub scenario: Option<String>,
    /// `--set` overrides of the scenario.
    #[serde(default)]
    pub set: Vec<String>,
    #[serde(default = "default_campaigns")]
    pub campaigns: u64,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// `true` rotates the seats, `false` keeps them fixed; without it the
    /// metric follows the commands' default (`sim::runner::seating`):
    /// rotated when the seats' strategies differ.
    pub rotate_seats: Option<bool>,

    // What to measure: exactly one of these four.
    /// A study metric by name: `win rate: STRATEGY`, `win rate: seat K`,
    /// `mean empire size`, `empire size: STRATEGY`, `gold from mines`, ...,
    /// `share of gold from mines` (docs/studies.md); or `max seat
    /// deviation` (`SEAT_DEVIATION`, docs/seats.md).
    pub quantity: Option<String>,
    /// The mean of a `players.parquet` column, over the players `group` selects.
    pub column: Option<String>,
    /// An exact value of `empires tables`.
    pub table: Option<TableRef>,
    /// The value of a key that meets a target (`empires solve`): the root,
    /// with its 95% interval.
    pub solve: Option<SolveRef>,
    /// With `quantity` or `column`: `strategy = "miner"` and/or `seat = "0"`.
    #[serde(default)]
    pub group: BTreeMap<String, String>,
    /// A paired difference: the metric in the scenario with these extra
    /// overrides, minus the metric without them, on the same seeds.
    pub variant: Option<Vec<String>>,
    /// With `equilibrium: STRATEGY` or `alpha-rank: STRATEGY`: the
    /// strategies of the meta-game (docs/metagame.md).
    pub strategies: Option<Vec<String>>,
    /// With `restriction value`: the restriction (action kinds) and the
    /// players (default: the strong field, `equilibrium`); the value is one
    /// restricted player's win rate minus an unrestricted one's in the same
    /// seat, against copies.
    #[serde(default)]
    pub forbid: Vec<crate::scenario::ActionKind>,
    #[serde(default)]
    pub force: Vec<crate::scenario::ActionKind>,
    pub players: Option<String>,

    // How to judge it: bounds, or a baseline.
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub baseline: Option<f64>,
    /// The baseline's own standard error (written by `--update`; the
    /// unpaired test's, when no per-campaign values are stored).
    pub baseline_se: Option<f64>,
    /// The change the baseline test allows: it fails when the data show a
    /// change larger than this (0: any change).
    #[serde(default)]
    pub tolerance: f64,
}

/// The seat-fairness quantity: the largest distance of a seat's win rate
/// from 1/seats, over all the metric's campaigns.
pub const SEAT_DEVIATION: &str = "max seat deviation";

/// Meta-game quantities: a strategy's mass in the symmetric equilibrium or
/// in α-rank, over the metric's `strategies`.
pub const EQUILIBRIUM: &str = "equilibrium: ";
pub const ALPHA_RANK: &str = "alpha-rank: ";

/// Restricted play: one restricted player's win rate minus an unrestricted
/// one's, against copies of the players (`forbid`, `force`, `players`).
pub const RESTRICTION_VALUE: &str = "restriction value";

/// Parse a balance file; errors are `FILE:LINE:COL: message`.
pub fn parse(text: &str, file: &str) -> Result<BalanceFile, Error> {
    let b: BalanceFile = toml::from_str(text).map_err(|e| {
        let (l, c) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        Error::input(format!("{file}:{l}:{c}: {}", e.message().trim().replace('\n', " ")))
    })?;
    let doc = toml_edit::Document::parse(text.to_string()).ok();
    // Position of `metric[i].key` (or of the entry) for semantic problems.
    let at = |i: usize, key: &str| -> String {
        let span = doc.as_ref().and_then(|d| {
            let m = d.get("metric")?.get(i)?;
            m.get(key).and_then(|v| v.span()).or_else(|| m.span())
        });
        let (l, c) = span.map_or((1, 1), |s| line_col(text, s.start));
        format!("{file}:{l}:{c}")
    };
    let mut problems = Vec::new();
    if !(b.alpha > 0.0 && b.alpha < 1.0) {
        problems.push(format!("{file}:1:1: alpha must be between 0 and 1 (found {})", b.alpha));
    }
    for (i, m) in b.metric.iter().enumerate() {
        let whats = [m.quantity.is_some(), m.column.is_some(), m.table.is_some(), m.solve.is_some()]
            .iter()
            .filter(|x| **x)
            .count();
        if whats != 1 {
            problems.push(format!(
                "{}: metric {:?}: give exactly one of quantity, column, table and solve (found {whats})",
                at(i, "name"),
                m.name
            ));
        }
        if m.min.is_none() && m.max.is_none() && m.baseline.is_none() {
            problems.push(format!(
                "{}: metric {:?}: give bounds (min, max) or a baseline (run `empires check --update` to record one)",
                at(i, "name"),
                m.name
            ));
        }
        if let (Some(lo), Some(hi)) = (m.min, m.max)
            && lo > hi
        {
            problems.push(format!("{}: metric {:?}: min {lo} is above max {hi}", at(i, "min"), m.name));
        }
        if m.table.is_some() && (m.variant.is_some() || !m.group.is_empty()) {
            problems.push(format!("{}: metric {:?}: a table value takes no variant or group", at(i, "table"), m.name));
        }
        if m.solve.is_some() && (m.variant.is_some() || !m.group.is_empty()) {
            problems.push(format!("{}: metric {:?}: a solved value takes no variant or group", at(i, "solve"), m.name));
        }
        if let Some(sv) = &m.solve
            && !sv.vary.contains('=')
        {
            problems.push(format!(
                "{}: metric {:?}: solve.vary needs the range to search, KEY=LO..HI (found {:?})",
                at(i, "solve"),
                m.name,
                sv.vary
            ));
        }
        if m.campaigns < 2 && m.table.is_none() {
            problems.push(format!("{}: metric {:?}: campaigns must be at least 2", at(i, "campaigns"), m.name));
        }
        if m.tolerance < 0.0 {
            problems.push(format!("{}: metric {:?}: tolerance must not be negative", at(i, "tolerance"), m.name));
        }
        for k in m.group.keys() {
            if k != "strategy" && k != "seat" {
                problems.push(format!(
                    "{}: metric {:?}: group by \"strategy\" or \"seat\" (found {k:?})",
                    at(i, "group"),
                    m.name
                ));
            }
        }
        let q = m.quantity.as_deref().unwrap_or("");
        let meta = q.starts_with(EQUILIBRIUM) || q.starts_with(ALPHA_RANK);
        if meta {
            let s = q.strip_prefix(EQUILIBRIUM).or(q.strip_prefix(ALPHA_RANK)).unwrap_or("");
            if !m.strategies.as_ref().is_some_and(|l| l.iter().any(|x| x == s)) {
                problems.push(format!(
                    "{}: metric {:?}: {q:?} needs `strategies = [...]` listing {s:?}",
                    at(i, "quantity"),
                    m.name
                ));
            }
        } else if m.strategies.is_some() {
            problems.push(format!(
                "{}: metric {:?}: `strategies` goes with an `equilibrium: S` or `alpha-rank: S` quantity",
                at(i, "strategies"),
                m.name
            ));
        }
        if q != RESTRICTION_VALUE && (!m.forbid.is_empty() || !m.force.is_empty() || m.players.is_some()) {
            problems.push(format!(
                "{}: metric {:?}: `forbid`, `force` and `players` go with the {RESTRICTION_VALUE:?} quantity",
                at(i, "name"),
                m.name
            ));
        }
        if (meta || q == RESTRICTION_VALUE) && (m.variant.is_some() || !m.group.is_empty()) {
            problems.push(format!("{}: metric {:?}: {q:?} takes no variant or group", at(i, "quantity"), m.name));
        }
        if m.quantity.as_deref() == Some(SEAT_DEVIATION) && (m.variant.is_some() || !m.group.is_empty()) {
            problems.push(format!(
                "{}: metric {:?}: {SEAT_DEVIATION:?} is over every seat: it takes no variant or group",
                at(i, "quantity"),
                m.name
            ));
        }
        if let Some(c) = &m.column
            && !crate::report::dataset::numeric_columns().contains(&c.as_str())
        {
            problems.push(format!(
                "{}: metric {:?}: {c:?} is not a numeric column of players.parquet (known: {})",
                at(i, "column"),
                m.name,
                crate::report::dataset::numeric_columns().join(", ")
            ));
        }
        if b.metric[..i].iter().any(|o| o.name == m.name) {
            problems.push(format!("{}: metric name {:?} is used twice", at(i, "name"), m.name));
        }
    }
    if problems.is_empty() { Ok(b) } else { Err(Error::input(problems.join("\n"))) }
}
