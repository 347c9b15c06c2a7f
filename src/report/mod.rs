//! Turning results into what designers read: the season-by-season text log,
//! JSON lines, the run's polars dataset and summary, and (later) charts.
//! Formatting and file output live here only.

pub mod balance;
pub mod charts;
pub mod coverage;
pub mod dataset;
pub mod fairness;
pub mod files;
pub mod html;
pub mod log;
pub mod log_replay;
pub mod manifest;
pub mod map_draw;
pub mod merge;
pub mod metagame;
pub mod number;
pub mod probe;
pub mod psro;
pub mod replay_page;
pub mod run_page;
pub mod seating;
pub mod strength;
pub mod study;
pub mod styles;
pub mod summary;
pub mod table;
pub mod tables;
pub mod text;
pub mod worth;

use crate::map::{HexId, Map, NO_HEX};
use crate::rules::{NOBODY, PlayerId};
use crate::scenario::Scenario;

/// Names for players and hexes in logs. Hexes are shown as `(col,row)` of
/// the map as `map::drawn::render` prints it, so a designer can find them.
pub struct Names<'a> {
    pub sc: &'a Scenario,
    pub map: &'a Map,
    origin: (i32, i32),
}

impl<'a> Names<'a> {
    pub fn new(sc: &'a Scenario, map: &'a Map) -> Self {
        Names { sc, map, origin: crate::map::drawn::origin(map) }
    }

    pub fn player(&self, p: PlayerId) -> &str {
        if p == NOBODY {
            return "neutral";
        }
        self.sc.players.get(p as usize).map_or("?", |pl| pl.name.as_str())
    }

    /// `(col,row)` in the drawn-map grid.
    pub fn hex(&self, h: HexId) -> String {
        if h == NO_HEX {
            return "-".into();
        }
        let (c, r) = self.map.offset_of(h);
        format!("({},{})", c - self.origin.0, r - self.origin.1)
    }

    pub fn hex_terrain(&self, h: HexId) -> String {
        if h == NO_HEX {
            return "-".into();
        }
        format!("{} {}", self.hex(h), self.map.terrain[h as usize].name())
    }
}
