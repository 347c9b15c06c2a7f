//! Turning results into what designers read: the season-by-season text log,
//! JSON lines, and (later) datasets and charts. Formatting lives here only.

pub mod json;
pub mod text;

use crate::map::{HexId, Map, NO_HEX};
use crate::rules::{NOBODY, PlayerId};
use crate::scenario::Scenario;

/// Names for players and hexes in logs.
pub struct Names<'a> {
    pub sc: &'a Scenario,
    pub map: &'a Map,
}

impl Names<'_> {
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
        format!("({c},{r})")
    }

    pub fn hex_terrain(&self, h: HexId) -> String {
        if h == NO_HEX {
            return "-".into();
        }
        format!("{} {}", self.hex(h), self.map.terrain[h as usize].name())
    }
}
