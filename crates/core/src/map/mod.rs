//! The hex map: axial coordinates, terrain, and adjacency computed once.
//!
//! Hexes live in flat vectors indexed by `HexId`; the neighbour table is built
//! when the map is made and never changes during a campaign, so the engine
//! reads adjacency without any coordinate arithmetic or allocation.

pub mod drawn;
pub mod generate;
pub mod terrain;

pub use terrain::{Terrain, TerrainSet};

use crate::building::BuildingKind;

pub type HexId = u16;
pub const NO_HEX: HexId = u16::MAX;

/// Axial directions, in a fixed order so neighbour lists are deterministic.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// What a map places before play starts: capitals (index = player), neutral
/// cities and any pre-built buildings of a drawn map.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placements {
    pub capitals: Vec<HexId>,
    pub neutral_cities: Vec<HexId>,
    pub buildings: Vec<(HexId, BuildingKind)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// Axial (q, r) of each hex.
    pub coords: Vec<(i32, i32)>,
    pub terrain: Vec<Terrain>,
    /// Up to six neighbours, `NO_HEX` where the map ends.
    pub neighbors: Vec<[HexId; 6]>,
    /// Land hex next to sea (G-22).
    pub coastal: Vec<bool>,
    pub land_count: u32,
    pub placements: Placements,
}

impl Map {
    /// Build a map from hexes given as axial coordinates and terrain.
    pub fn from_hexes(hexes: Vec<((i32, i32), Terrain)>, placements: Placements) -> Map {
        let coords: Vec<(i32, i32)> = hexes.iter().map(|h| h.0).collect();
        let terrain: Vec<Terrain> = hexes.iter().map(|h| h.1).collect();
        // A dense index over the map's bounding box, one cell wider on
        // every side so a neighbour of any hex falls inside it: a lookup
        // is arithmetic, where a hash map cost a tenth of a campaign's map.
        let (q0, q1) = coords.iter().fold((i32::MAX, i32::MIN), |(a, b), c| (a.min(c.0), b.max(c.0)));
        let (r0, r1) = coords.iter().fold((i32::MAX, i32::MIN), |(a, b), c| (a.min(c.1), b.max(c.1)));
        let (w, h) = ((q1 as i64 - q0 as i64 + 3).max(0) as usize, (r1 as i64 - r0 as i64 + 3).max(0) as usize);
        let at = |(q, r): (i32, i32)| (r as i64 - r0 as i64 + 1) as usize * w + (q as i64 - q0 as i64 + 1) as usize;
        let mut index = vec![NO_HEX; w * h];
        for (i, &c) in coords.iter().enumerate() {
            index[at(c)] = i as HexId;
        }
        let neighbors: Vec<[HexId; 6]> = coords
            .iter()
            .map(|&(q, r)| {
                let mut n = [NO_HEX; 6];
                for (k, (dq, dr)) in DIRECTIONS.iter().enumerate() {
                    n[k] = index[at((q + dq, r + dr))];
                }
                n
            })
            .collect();
        let coastal = (0..coords.len())
            .map(|i| {
                terrain[i].is_land() && neighbors[i].iter().any(|&n| n != NO_HEX && terrain[n as usize] == Terrain::Sea)
            })
            .collect();
        let land_count = terrain.iter().filter(|t| t.is_land()).count() as u32;
        Map { coords, terrain, neighbors, coastal, land_count, placements }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.terrain.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }

    /// The existing neighbours of a hex.
    #[inline]
    pub fn adjacent(&self, h: HexId) -> impl Iterator<Item = HexId> + '_ {
        self.neighbors[h as usize].iter().copied().filter(|&n| n != NO_HEX)
    }

    #[inline]
    pub fn are_adjacent(&self, a: HexId, b: HexId) -> bool {
        self.neighbors[a as usize].contains(&b)
    }

    /// Hex distance.
    pub fn distance(&self, a: HexId, b: HexId) -> u32 {
        axial_distance(self.coords[a as usize], self.coords[b as usize])
    }

    pub fn find(&self, q: i32, r: i32) -> Option<HexId> {
        self.coords.iter().position(|&c| c == (q, r)).map(|i| i as HexId)
    }

    /// Odd-r offset (column, row) of a hex, as drawn maps are written.
    pub fn offset_of(&self, h: HexId) -> (i32, i32) {
        let (q, r) = self.coords[h as usize];
        (q + (r - (r & 1)) / 2, r)
    }
}

pub fn axial_distance(a: (i32, i32), b: (i32, i32)) -> u32 {
    let dq = a.0 - b.0;
    let dr = a.1 - b.1;
    ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dense index links exactly the hexes one step apart, in
    /// `DIRECTIONS` order, on ragged shapes far from the origin and with
    /// holes, as a search over every pair finds them.
    #[test]
    fn from_hexes_links_exactly_the_hexes_one_step_apart() {
        let shapes: [Vec<(i32, i32)>; 3] = [
            vec![(0, 0)],
            (-3..4).flat_map(|q| (-3..4).map(move |r| (q, r))).filter(|&(q, r)| (q * 7 + r * 3) % 5 != 0).collect(),
            vec![(1000, -2000), (1001, -2000), (999, -1999), (1000, -1998), (-40, 17)],
        ];
        for shape in shapes {
            let hexes: Vec<((i32, i32), Terrain)> = shape.iter().map(|&c| (c, Terrain::Plains)).collect();
            let map = Map::from_hexes(hexes, Placements::default());
            for (i, &(q, r)) in shape.iter().enumerate() {
                let want: [HexId; 6] = std::array::from_fn(|k| {
                    let (dq, dr) = DIRECTIONS[k];
                    shape.iter().position(|&c| c == (q + dq, r + dr)).map_or(NO_HEX, |j| j as HexId)
                });
                assert_eq!(map.neighbors[i], want, "hex {i} at ({q}, {r})");
            }
        }
        let empty = Map::from_hexes(Vec::new(), Placements::default());
        assert!(empty.is_empty() && empty.neighbors.is_empty());
    }
}
