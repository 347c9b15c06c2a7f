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
        let mut index = rustc_hash::FxHashMap::with_capacity_and_hasher(hexes.len(), Default::default());
        for (i, (c, _)) in hexes.iter().enumerate() {
            index.insert(*c, i as HexId);
        }
        let coords: Vec<(i32, i32)> = hexes.iter().map(|h| h.0).collect();
        let terrain: Vec<Terrain> = hexes.iter().map(|h| h.1).collect();
        let neighbors: Vec<[HexId; 6]> = coords
            .iter()
            .map(|&(q, r)| {
                let mut n = [NO_HEX; 6];
                for (k, (dq, dr)) in DIRECTIONS.iter().enumerate() {
                    if let Some(&id) = index.get(&(q + dq, r + dr)) {
                        n[k] = id;
                    }
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
