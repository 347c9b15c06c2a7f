//! Map generation in the Mighty Empires way of laying tiles (G-23).
//!
//! 1. Mountains come first, as a cluster.
//! 2. Every later tile touches at least two tiles already placed (one for the
//!    second tile), which grows a compact, island-like landmass.
//! 3. Rivers run from a mountain (or an existing river) downhill, away from the
//!    mountains, and end at marsh, sea or the map edge.
//! 4. Remaining land is marsh, forest or plains by the scenario's shares.
//! 5. A ring of sea surrounds the land.
//! 6. Capitals are spread out at least `min_capital_distance` apart (G-24),
//!    then dealt to the seats in a random order (seat fairness, docs/seats.md).
//!
//! Pure and deterministic: the same spec and seed give the same map.

use super::{DIRECTIONS, HexId, Map, Placements, Terrain, axial_distance};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// The generator's parameters, the scenario's `[map.generate]` table
/// (defined here, where they are read, so the map needs nothing from the
/// scenario; `scenario` re-exports it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenerateSpec {
    /// Fixed map seed. Absent: every campaign draws its own map from its seed.
    pub seed: Option<u64>,
    pub land: u32,
    pub mountains: u32,
    /// Share of land hexes that are river.
    pub river_share: f64,
    pub marsh_share: f64,
    pub forest_share: f64,
    /// Width of the sea ring around the land.
    pub sea_ring: u32,
    pub neutral_cities: u32,
}

impl Default for GenerateSpec {
    fn default() -> Self {
        GenerateSpec {
            seed: None,
            land: 48,
            mountains: 6,
            river_share: 0.20,
            marsh_share: 0.10,
            forest_share: 0.20,
            sea_ring: 1,
            neutral_cities: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateError(pub String);

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Terrains a capital may stand on: those where a city may be built.
pub type CapitalTerrain = super::TerrainSet;

/// Generate a map for `players` capitals. Retries a few layouts when the
/// capitals do not fit, then reports that the spec cannot hold them.
///
/// `map.placements.capitals[seat]` is the capital of `seat`. The capital
/// hexes are chosen by farthest-point spread (step 6) and then dealt to the
/// seats in a random order drawn from the generator's own stream, so no seat
/// is systematically the random first pick or the squeezed last one.
pub fn generate(
    spec: &GenerateSpec,
    players: usize,
    min_capital_distance: u32,
    capital_terrain: CapitalTerrain,
    seed: u64,
) -> Result<Map, GenerateError> {
    generate_with_pick_order(spec, players, min_capital_distance, capital_terrain, seed).map(|(m, _)| m)
}

/// As `generate`, and also the capital hexes in the order the farthest-point
/// spread chose them (the first one at random, each later one the hex
/// farthest from those before). The map's seats hold the same hexes,
/// permuted.
pub fn generate_with_pick_order(
    spec: &GenerateSpec,
    players: usize,
    min_capital_distance: u32,
    capital_terrain: CapitalTerrain,
    seed: u64,
) -> Result<(Map, Vec<HexId>), GenerateError> {
    let mut rng = Pcg64Mcg::new(crate::seed::mix2(seed, 0x6d61_7067_656e) as u128 | 1);
    for _attempt in 0..16 {
        if let Some(mut m) = try_generate(spec, players, min_capital_distance, capital_terrain, &mut rng) {
            // Drawn only once a layout succeeded, so the terrain, the capital
            // hexes and the neutral cities are those of the seat-ordered
            // generator for every seed; only their seats change.
            let picked = m.placements.capitals.clone();
            shuffle(&mut m.placements.capitals, &mut rng);
            return Ok((m, picked));
        }
    }
    Err(GenerateError(format!(
        "cannot place {players} capitals at least {min_capital_distance} hexes apart on {} land hexes",
        spec.land
    )))
}

/// Fisher-Yates: every order equally likely.
fn shuffle<T>(xs: &mut [T], rng: &mut Pcg64Mcg) {
    for i in (1..xs.len()).rev() {
        let j = rng.random_range(0..=i);
        xs.swap(i, j);
    }
}

/// A dense table over axial coordinates, `blank` where nothing was written.
/// It covers a square around the origin and doubles when a write falls
/// outside, so a sprawling island costs a few copies, never a wrong answer.
struct Grid<T: Copy> {
    q0: i32,
    r0: i32,
    side: i32,
    cells: Vec<T>,
    blank: T,
}

impl<T: Copy> Grid<T> {
    fn new(radius: i32, blank: T) -> Self {
        let side = 2 * radius.max(1) + 1;
        Grid { q0: -radius.max(1), r0: -radius.max(1), side, cells: vec![blank; (side * side) as usize], blank }
    }

    fn index(&self, (q, r): (i32, i32)) -> Option<usize> {
        let (x, y) = (q as i64 - self.q0 as i64, r as i64 - self.r0 as i64);
        let side = self.side as i64;
        (x >= 0 && y >= 0 && x < side && y < side).then(|| (y * side + x) as usize)
    }

    fn get(&self, c: (i32, i32)) -> T {
        self.index(c).map_or(self.blank, |i| self.cells[i])
    }

    fn set(&mut self, c: (i32, i32), v: T) {
        while self.index(c).is_none() {
            self.grow();
        }
        if let Some(i) = self.index(c) {
            self.cells[i] = v;
        }
    }

    /// Double the side, keeping the old square in the middle.
    fn grow(&mut self) {
        let (side, pad) = (self.side * 2 + 1, self.side / 2 + 1);
        let mut cells = vec![self.blank; (side * side) as usize];
        for y in 0..self.side {
            for x in 0..self.side {
                cells[((y + pad) * side + x + pad) as usize] = self.cells[(y * self.side + x) as usize];
            }
        }
        *self = Grid { q0: self.q0 - pad, r0: self.r0 - pad, side, cells, blank: self.blank };
    }
}

fn neighbors(c: (i32, i32)) -> impl Iterator<Item = (i32, i32)> {
    DIRECTIONS.iter().map(move |(dq, dr)| (c.0 + dq, c.1 + dr))
}

fn try_generate(
    spec: &GenerateSpec,
    players: usize,
    min_dist: u32,
    capital_terrain: CapitalTerrain,
    rng: &mut Pcg64Mcg,
) -> Option<Map> {
    let land_target = spec.land.max(1) as usize;
    let mut order: Vec<(i32, i32)> = Vec::with_capacity(land_target);
    // Dense tables over the coordinates: a tile lookup is an index, not a
    // hash. They start around the expected island and grow if it sprawls.
    let start = (land_target as f64).sqrt() as i32 + spec.sea_ring as i32 + 2;
    let mut placed: Grid<bool> = Grid::new(start, false);
    let mut terrain: Grid<Option<Terrain>> = Grid::new(start, None);

    // 1-2: lay tiles. Candidates are empty cells touching placed tiles; from the
    // third tile on, only those touching at least two. `touching` counts the
    // placed neighbours of every empty cell next to the land, kept sorted by
    // coordinates so the candidate order, and so the map, is deterministic.
    // (A sorted vector of a few dozen cells: a BTreeMap cost a fifth of a
    // campaign's map in iteration alone.)
    let mut touching: Vec<((i32, i32), u8)> = Vec::with_capacity(64);
    let mut cands: Vec<(i32, i32)> = Vec::with_capacity(64);
    let place = |c: (i32, i32), placed: &mut Grid<bool>, touching: &mut Vec<((i32, i32), u8)>| {
        placed.set(c, true);
        if let Ok(i) = touching.binary_search_by_key(&c, |t| t.0) {
            touching.remove(i);
        }
        for n in neighbors(c) {
            if !placed.get(n) {
                match touching.binary_search_by_key(&n, |t| t.0) {
                    Ok(i) => touching[i].1 += 1,
                    Err(i) => touching.insert(i, (n, 1)),
                }
            }
        }
    };
    order.push((0, 0));
    place((0, 0), &mut placed, &mut touching);
    while order.len() < land_target {
        let need = if order.len() < 2 { 1 } else { 2 };
        cands.clear();
        cands.extend(touching.iter().filter(|&&(_, k)| k >= need).map(|&(c, _)| c));
        if cands.is_empty() {
            return None;
        }
        let pick = cands[rng.random_range(0..cands.len())];
        place(pick, &mut placed, &mut touching);
        order.push(pick);
    }
    let mountains = (spec.mountains as usize).min(land_target);
    for &c in order.iter().take(mountains) {
        terrain.set(c, Some(Terrain::Mountain));
    }

    // 3: rivers. Walk from a hex next to a mountain (or a river) to the
    // neighbour farthest from the mountains, until it reaches marsh or the coast.
    let river_target = (spec.river_share * land_target as f64).round() as usize;
    let mountain_cells: Vec<(i32, i32)> = order.iter().take(mountains).copied().collect();
    let dist_to_mountain = |c: (i32, i32)| mountain_cells.iter().map(|&m| axial_distance(c, m)).min().unwrap_or(0);
    let is_edge = |c: (i32, i32), placed: &Grid<bool>| neighbors(c).any(|n| !placed.get(n));
    let mut rivers = 0usize;
    let mut guard = 0;
    while rivers < river_target && guard < 64 {
        guard += 1;
        let sources: Vec<(i32, i32)> = order
            .iter()
            .copied()
            .filter(|&c| {
                terrain.get(c).is_none()
                    && neighbors(c).any(|n| matches!(terrain.get(n), Some(Terrain::Mountain | Terrain::River)))
            })
            .collect();
        if sources.is_empty() {
            break;
        }
        let mut cur = sources[rng.random_range(0..sources.len())];
        loop {
            terrain.set(cur, Some(Terrain::River));
            rivers += 1;
            if rivers >= river_target || is_edge(cur, &placed) {
                break;
            }
            let d = dist_to_mountain(cur);
            let mut next: Vec<(i32, i32)> = neighbors(cur)
                .filter(|&n| placed.get(n) && terrain.get(n).is_none() && dist_to_mountain(n) >= d)
                .collect();
            if next.is_empty() {
                break;
            }
            next.sort_unstable();
            cur = next[rng.random_range(0..next.len())];
        }
    }
    // A river that stops inland ends in marsh, which the rule allows.
    let marsh_target = (spec.marsh_share * land_target as f64).round() as usize;
    let forest_target = (spec.forest_share * land_target as f64).round() as usize;
    let mut rest: Vec<(i32, i32)> = order.iter().copied().filter(|&c| terrain.get(c).is_none()).collect();
    // Shuffle deterministically.
    shuffle(&mut rest, rng);
    let mut it = rest.into_iter();
    for c in it.by_ref().take(marsh_target) {
        terrain.set(c, Some(Terrain::Marsh));
    }
    for c in it.by_ref().take(forest_target) {
        terrain.set(c, Some(Terrain::Forest));
    }
    for c in it {
        terrain.set(c, Some(Terrain::Plains));
    }

    // 5: sea ring.
    let mut sea: Vec<(i32, i32)> = Vec::new();
    // From here `placed` marks every cell already in the map (land or an
    // earlier ring), so a ring never walks back inward.
    let mut frontier: Vec<(i32, i32)> = order.clone();
    for _ in 0..spec.sea_ring.max(1) {
        let mut ring: Vec<(i32, i32)> = Vec::new();
        for &c in &frontier {
            for n in neighbors(c) {
                if !placed.get(n) {
                    placed.set(n, true);
                    ring.push(n);
                }
            }
        }
        ring.sort_unstable();
        sea.extend_from_slice(&ring);
        frontier = ring;
    }

    let mut hexes: Vec<((i32, i32), Terrain)> = // Every land cell has its terrain by now (step 4 gave the rest one).
        order.iter().map(|&c| (c, terrain.get(c).unwrap_or(Terrain::Plains))).collect();
    hexes.sort_unstable_by_key(|h| (h.0.1, h.0.0));
    let mut sea_hexes: Vec<((i32, i32), Terrain)> = sea.into_iter().map(|c| (c, Terrain::Sea)).collect();
    sea_hexes.sort_unstable_by_key(|h| (h.0.1, h.0.0));
    hexes.extend(sea_hexes);
    let mut map = Map::from_hexes(hexes, Placements::default());

    // 6: capitals, farthest-point spread; then neutral cities away from them.
    let eligible: Vec<HexId> =
        (0..map.len() as HexId).filter(|&h| capital_terrain.contains(map.terrain[h as usize])).collect();
    if eligible.len() < players {
        return None;
    }
    let mut caps: Vec<HexId> = vec![eligible[rng.random_range(0..eligible.len())]];
    while caps.len() < players {
        let best = eligible
            .iter()
            .copied()
            .filter(|h| !caps.contains(h))
            .map(|h| (caps.iter().map(|&c| map.distance(c, h)).min().unwrap_or(0), h))
            .max_by_key(|&(d, h)| (d, std::cmp::Reverse(h)))?;
        if best.0 < min_dist {
            return None;
        }
        caps.push(best.1);
    }
    let mut neutral = Vec::new();
    for _ in 0..spec.neutral_cities {
        let best = eligible
            .iter()
            .copied()
            .filter(|h| !caps.contains(h) && !neutral.contains(h))
            .map(|h| (caps.iter().chain(&neutral).map(|&c| map.distance(c, h)).min().unwrap_or(0), h))
            .max_by_key(|&(d, h)| (d, std::cmp::Reverse(h)))?;
        if best.0 < 2 {
            return None;
        }
        neutral.push(best.1);
    }
    map.placements.capitals = caps;
    map.placements.neutral_cities = neutral;
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::TerrainSet;

    fn city_terrain() -> TerrainSet {
        TerrainSet::of(&[Terrain::Plains, Terrain::Forest, Terrain::River])
    }

    #[test]
    fn default_spec_makes_48_land_hexes_with_a_sea_ring() {
        let spec = GenerateSpec::default();
        for seed in 0..50 {
            let m = generate(&spec, 4, 3, city_terrain(), seed).unwrap();
            assert_eq!(m.land_count, 48);
            let mountains = m.terrain.iter().filter(|&&t| t == Terrain::Mountain).count();
            assert_eq!(mountains, 6);
            // Every land hex has all six neighbours: the sea ring closes the map.
            for h in 0..m.len() {
                if m.terrain[h].is_land() {
                    assert!(m.neighbors[h].iter().all(|&n| n != crate::map::NO_HEX));
                }
            }
            let caps = &m.placements.capitals;
            assert_eq!(caps.len(), 4);
            for i in 0..caps.len() {
                for j in i + 1..caps.len() {
                    assert!(m.distance(caps[i], caps[j]) >= 3);
                }
            }
        }
    }

    #[test]
    fn a_grid_grows_to_hold_far_cells_and_keeps_the_near_ones() {
        let mut g: Grid<u8> = Grid::new(1, 0);
        g.set((0, 0), 1);
        g.set((1, -1), 2);
        g.set((40, -75), 3);
        g.set((-300, 9), 4);
        assert_eq!([g.get((0, 0)), g.get((1, -1)), g.get((40, -75)), g.get((-300, 9))], [1, 2, 3, 4]);
        assert_eq!(g.get((2, 2)), 0);
        assert_eq!(g.get((i32::MAX, i32::MIN)), 0);
    }

    #[test]
    fn same_seed_same_map() {
        let spec = GenerateSpec::default();
        assert_eq!(
            generate(&spec, 4, 3, city_terrain(), 9).unwrap(),
            generate(&spec, 4, 3, city_terrain(), 9).unwrap()
        );
        assert_ne!(
            generate(&spec, 4, 3, city_terrain(), 9).unwrap(),
            generate(&spec, 4, 3, city_terrain(), 10).unwrap()
        );
    }
}
