//! A grid of variants over one or two scenario keys, each played on the
//! same seeds, with every metric's mean and 95% interval per cell, and
//! every cell's paired difference from the first cell. The differences'
//! verdicts are one family over every (cell, metric) pair, corrected with
//! Benjamini–Hochberg: a sweep explores, so it controls the share of false
//! verdicts among its verdicts (at `compare::ALPHA`), and when nothing
//! differs at all that is the chance of any false verdict.

use super::compare::{ALPHA, Row, adjust, paired};
use super::metrics::{Metric, measure, with_combat};
use crate::error::{Error, Input};
use crate::rules::setup::SetupError;
use crate::scenario::Scenario;
use crate::sim::runner::{SeatFlag, SeatRotation, seating};
use crate::stats::{Correction, Mean, mean_interval, wilson};

/// One key and the values it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub key: String,
    pub values: Vec<String>,
}

/// Most values an integer range `KEY=LO..HI` may expand to.
pub const MAX_RANGE_VALUES: i64 = 25;

/// `KEY=V1,V2,...`, split at the commas that are not inside
/// brackets or quotes, so array values (`["mine","pillage"]`) stay whole;
/// or `KEY=LO..HI` with whole numbers, every value from LO to HI.
pub fn parse_axis(s: &str) -> Result<Axis, Error> {
    let at = |e: Error| e.at_input_value(Input::Values, s);
    let (k, v) = s.split_once('=').ok_or_else(|| at(Error::input("expected KEY=V1,V2,... or KEY=LO..HI")))?;
    if let Some((lo, hi)) = v.split_once("..")
        && let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i64>(), hi.trim().parse::<i64>())
    {
        if hi <= lo || hi - lo + 1 > MAX_RANGE_VALUES {
            return Err(at(Error::input(format!(
                "a range of whole numbers LO..HI with LO < HI and at most {MAX_RANGE_VALUES} values; \
                 list other values as KEY=V1,V2,..."
            ))));
        }
        return Ok(Axis { key: k.trim().to_string(), values: (lo..=hi).map(|x| x.to_string()).collect() });
    }
    let mut values = Vec::new();
    let (mut depth, mut quoted, mut cur) = (0i32, false, String::new());
    for c in v.chars() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                values.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    values.push(cur.trim().to_string());
    if k.trim().is_empty() || values.iter().any(String::is_empty) {
        return Err(at(Error::input("expected KEY=V1,V2,... with no empty value")));
    }
    Ok(Axis { key: k.trim().to_string(), values })
}

/// One cell of the grid.
#[derive(Clone, Debug)]
pub struct Cell {
    /// The value of each axis in this cell.
    pub at: Vec<String>,
    /// Each metric's mean and interval (Wilson for win rates).
    pub values: Vec<Mean>,
    /// Paired against the first cell, campaign by campaign (empty for the
    /// first cell itself); verdicts adjusted over the whole sweep.
    pub against: Vec<Row>,
    /// What this cell's players did, so the answer names what they never
    /// did (`exercised`).
    pub coverage: crate::sim::record::Coverage,
}

#[derive(Clone, Debug)]
pub struct Sweep {
    pub axes: Vec<Axis>,
    pub metrics: Vec<Metric>,
    /// The metrics shown in the text and the charts (indices into
    /// `metrics`); the page's table has them all.
    pub chosen: Vec<usize>,
    pub campaigns: u64,
    pub seed: u64,
    /// One seating for every cell, so the cells stay paired.
    pub seating: SeatRotation,
    pub cells: Vec<Cell>,
    /// How the differences' verdicts are corrected.
    pub correction: Correction,
}

/// Every combination of the axes' values, first axis slowest.
pub fn grid(axes: &[Axis]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for a in axes {
        out =
            out.into_iter().flat_map(|p| a.values.iter().map(move |v| [p.clone(), vec![v.clone()]].concat())).collect();
    }
    out
}

/// The campaigns `run` plays: `campaigns` in every cell of the grid (a
/// best response's tuning in each cell is the caller's).
pub fn planned(axes: &[Axis], campaigns: u64) -> u64 {
    grid(axes).len() as u64 * campaigns
}

/// Play every cell; `variant` turns a cell's values into its scenario (the
/// CLI loads the file with the cell's overrides, so they get the file's
/// checks). Every cell is seated alike: rotated by default when the seats'
/// strategies differ in any cell (`sim::runner::seating`).
pub fn run<E: From<SetupError>>(
    axes: &[Axis],
    seed: u64,
    campaigns: u64,
    seats: SeatFlag,
    mut variant: impl FnMut(&[(String, String)]) -> Result<Scenario, E>,
) -> Result<Sweep, E> {
    let cells_at = grid(axes);
    let scenarios: Vec<Scenario> = cells_at
        .iter()
        .map(|at| variant(&axes.iter().map(|a| a.key.clone()).zip(at.iter().cloned()).collect::<Vec<_>>()))
        .collect::<Result<_, _>>()?;
    let metrics = with_combat(&scenarios.iter().collect::<Vec<_>>());
    let seated = seating(&scenarios.iter().collect::<Vec<_>>(), seats);
    let rotate_seats = seated.rotate();
    let mut cells = Vec::new();
    let mut first = None;
    for (at, sc) in cells_at.into_iter().zip(&scenarios) {
        let m = measure(sc, seed, campaigns, rotate_seats, &metrics, false)?;
        let against = match &first {
            None => Vec::new(),
            Some(f) => paired(&metrics, f, &m),
        };
        let values = metrics
            .iter()
            .enumerate()
            .map(|(j, metric)| {
                let col = m.values.iter().map(|v| v[j]);
                let mut mean = mean_interval(col, 0.95);
                if matches!(metric, Metric::WinStrategy(_) | Metric::WinSeat(_)) && mean.n > 0 {
                    // A win rate over player-campaigns: the Wilson interval.
                    let (lo, hi) = wilson(mean.mean * mean.n as f64, mean.n as f64, 0.95);
                    mean.low = lo;
                    mean.high = hi;
                }
                mean
            })
            .collect();
        cells.push(Cell { at, values, against, coverage: m.coverage.clone() });
        if first.is_none() {
            first = Some(m);
        }
    }
    let correction = Correction::BenjaminiHochberg;
    adjust(cells.iter_mut().flat_map(|c| c.against.iter_mut()), correction);
    let chosen = (0..metrics.len()).filter(|&j| matches!(metrics[j], Metric::WinStrategy(_))).collect();
    Ok(Sweep { axes: axes.to_vec(), metrics, chosen, campaigns, seed, seating: seated, cells, correction })
}

impl Sweep {
    /// The tests of the family: every metric of every cell but the first.
    pub fn tests(&self) -> usize {
        self.cells.iter().map(|c| c.against.len()).sum()
    }

    /// `verdicts: Benjamini–Hochberg-adjusted, false discovery rate 5% over N tests ...`.
    pub fn verdicts_line(&self) -> String {
        self.correction.line(
            ALPHA,
            self.tests(),
            &format!(
                "tests ({} cells × every metric, each against the first cell)",
                self.cells.len().saturating_sub(1)
            ),
        )
    }

    /// Show these metrics (by name, as `Metric::name` spells them) instead
    /// of the win rates; an unknown name is an error listing the known ones.
    pub fn choose(&mut self, names: &[String]) -> Result<(), Error> {
        if names.is_empty() {
            return Ok(());
        }
        let mut chosen = Vec::new();
        for n in names {
            match self.metrics.iter().position(|m| &m.name() == n) {
                Some(j) => chosen.push(j),
                None => {
                    let known: Vec<String> = self.metrics.iter().map(|m| format!("{:?}", m.name())).collect();
                    return Err(Error::input(format!("unknown metric (known: {})", known.join(", ")))
                        .at_input_value(Input::Metric, format_args!("{n:?}")));
                }
            }
        }
        self.chosen = chosen;
        Ok(())
    }
}
