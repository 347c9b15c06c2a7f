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

    /// The cell of `(q, r)`, if the square covers it. The offsets are
    /// taken modulo 2^32, so one unsigned comparison per axis rejects both
    /// sides: the origin is never above 0 (the square surrounds it), so a
    /// cell left of or above the square wraps to 2^31 or more, past any
    /// side.
    #[inline]
    fn index(&self, (q, r): (i32, i32)) -> Option<usize> {
        let (x, y) = (q.wrapping_sub(self.q0) as u32, r.wrapping_sub(self.r0) as u32);
        let side = self.side as u32;
        (x < side && y < side).then(|| y as usize * side as usize + x as usize)
    }

    #[inline]
    fn get(&self, c: (i32, i32)) -> T {
        self.index(c).map_or(self.blank, |i| self.cells[i])
    }

    #[inline]
    fn set(&mut self, c: (i32, i32), v: T) {
        match self.index(c) {
            Some(i) => self.cells[i] = v,
            None => self.set_outside(c, v),
        }
    }

    /// `set` of a cell the square does not cover yet: rare, so kept out
    /// of line.
    #[cold]
    #[inline(never)]
    fn set_outside(&mut self, c: (i32, i32), v: T) {
        while self.index(c).is_none() {
            self.grow();
        }
        if let Some(i) = self.index(c) {
            self.cells[i] = v;
        }
    }

    /// The coordinates of cell `i`.
    fn coord(&self, i: usize) -> (i32, i32) {
        let side = self.side as usize;
        (self.q0 + (i % side) as i32, self.r0 + (i / side) as i32)
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
    // Dense tables over the coordinates: a tile lookup is an index, not a
    // hash. They start around the expected island and grow if it sprawls.
    let start = (land_target as f64).sqrt() as i32 + spec.sea_ring as i32 + 2;
    let mut placed: Grid<bool> = Grid::new(start, false);
    let order = lay_tiles(land_target, start, &mut placed, rng)?;
    let mut terrain: Grid<Option<Terrain>> = Grid::new(start, None);
    let mountains = (spec.mountains as usize).min(land_target);
    let rivers = Rivers::new(&order[..mountains], start, &mut terrain);
    rivers.run(spec, land_target, &order, &placed, &mut terrain, rng);
    fill_the_rest(spec, land_target, &order, &mut terrain, rng);
    let sea = sea_ring(&order, spec.sea_ring, &mut placed);
    for &c in &sea {
        terrain.set(c, Some(Terrain::Sea));
    }
    // The land hexes, then the sea, each by row and then column: the
    // table's own order, so listing them needs no sort.
    let mut hexes: Vec<((i32, i32), Terrain)> = Vec::with_capacity(order.len() + sea.len());
    for sea in [false, true] {
        for (i, t) in terrain.cells.iter().enumerate() {
            if let Some(t) = *t
                && (t == Terrain::Sea) == sea
            {
                hexes.push((terrain.coord(i), t));
            }
        }
    }
    let mut map = Map::from_hexes(hexes, Placements::default());
    let (caps, neutral) = spread_cities(&map, spec, players, min_dist, capital_terrain, rng)?;
    map.placements.capitals = caps;
    map.placements.neutral_cities = neutral;
    Some(map)
}

/// Steps 1-2: lay `land_target` tiles, the first at the origin. Candidates
/// are empty cells touching placed tiles; from the third tile on, only
/// those touching at least two. The candidates are taken in coordinate
/// order, so the map is deterministic. `None` when no cell qualifies.
fn lay_tiles(land_target: usize, start: i32, placed: &mut Grid<bool>, rng: &mut Pcg64Mcg) -> Option<Vec<(i32, i32)>> {
    let mut order: Vec<(i32, i32)> = Vec::with_capacity(land_target);
    let mut frontier = Frontier::new(start);
    order.push((0, 0));
    frontier.place((0, 0), placed);
    while order.len() < land_target {
        let set = if order.len() < 2 { 0 } else { 1 };
        if frontier.counts[set] == 0 {
            return None;
        }
        let pick = frontier.nth(set, rng.random_range(0..frontier.counts[set]));
        frontier.place(pick, placed);
        order.push(pick);
    }
    Some(order)
}

/// The empty cells next to the land while tiles are laid, as two sets of
/// bits over the square of `touching`, a bit per cell in coordinate order
/// (`q`, then `r`: the candidates' order). A cell joins or leaves a set by
/// one bit, and the candidate drawn is found by counting bits a word at a
/// time. Scanning the cells for their counts at every tile, a search per
/// neighbour per tile, a BTreeMap and sorted lists before that each cost
/// most of a campaign's map.
struct Frontier {
    /// Bit `set` of each cell touching more than `set` placed tiles: set
    /// 0 holds the candidates of the second tile, set 1 those of the third
    /// tile on.
    sets: [Vec<u64>; 2],
    /// How many cells each set holds.
    counts: [usize; 2],
    /// How many placed tiles each cell touches.
    touching: Grid<u8>,
}

impl Frontier {
    fn new(start: i32) -> Frontier {
        let touching = Grid::new(start, 0);
        let words = ((touching.side * touching.side) as usize).div_ceil(64);
        Frontier { sets: [vec![0; words], vec![0; words]], counts: [0, 0], touching }
    }

    /// The bit of cell `c`, which the square covers.
    #[inline]
    fn bit(&self, (q, r): (i32, i32)) -> usize {
        let g = &self.touching;
        (q - g.q0) as usize * g.side as usize + (r - g.r0) as usize
    }

    #[inline]
    fn join(&mut self, set: usize, c: (i32, i32)) {
        let b = self.bit(c);
        let w = &mut self.sets[set][b / 64];
        if *w & (1 << (b % 64)) == 0 {
            *w |= 1 << (b % 64);
            self.counts[set] += 1;
        }
    }

    #[inline]
    fn leave(&mut self, set: usize, c: (i32, i32)) {
        let b = self.bit(c);
        let w = &mut self.sets[set][b / 64];
        if *w & (1 << (b % 64)) != 0 {
            *w &= !(1 << (b % 64));
            self.counts[set] -= 1;
        }
    }

    /// The `i`th cell of `set` in coordinate order (`i` below its count).
    fn nth(&self, set: usize, mut i: usize) -> (i32, i32) {
        let g = &self.touching;
        for (k, &w) in self.sets[set].iter().enumerate() {
            let n = w.count_ones() as usize;
            if i < n {
                let mut w = w;
                for _ in 0..i {
                    w &= w - 1;
                }
                let b = k * 64 + w.trailing_zeros() as usize;
                let side = g.side as usize;
                return (g.q0 + (b / side) as i32, g.r0 + (b % side) as i32);
            }
            i -= n;
        }
        unreachable!("a frontier set holds fewer cells than its count")
    }

    fn place(&mut self, c: (i32, i32), placed: &mut Grid<bool>) {
        placed.set(c, true);
        // A cell is in the sets its count reaches (the origin in none).
        let k = self.touching.get(c) as usize;
        for set in 0..k.min(2) {
            self.leave(set, c);
        }
        for n in neighbors(c) {
            if !placed.get(n) {
                let k = self.touching.get(n);
                let side = self.touching.side;
                self.touching.set(n, k + 1);
                if self.touching.side != side {
                    // The square grew: every bit moved (rare).
                    self.mark_afresh(placed);
                } else if k < 2 {
                    self.join(k as usize, n);
                }
            }
        }
    }

    /// Both sets worked out from the counts, after the square grew.
    #[cold]
    fn mark_afresh(&mut self, placed: &Grid<bool>) {
        let words = ((self.touching.side * self.touching.side) as usize).div_ceil(64);
        self.sets = [vec![0; words], vec![0; words]];
        self.counts = [0, 0];
        for i in 0..self.touching.cells.len() {
            let (c, k) = (self.touching.coord(i), self.touching.cells[i]);
            if !placed.get(c) {
                for set in 0..(k as usize).min(2) {
                    self.join(set, c);
                }
            }
        }
    }
}

/// Step 3: rivers. Each walks from a hex next to a mountain (or a river) to
/// a neighbour no nearer the mountains, until it reaches the coast.
struct Rivers<'a> {
    /// The mountain tiles: the first tiles laid.
    mountains: &'a [(i32, i32)],
    /// Cells next to a mountain or a river: where a river may start. Kept
    /// as rivers are laid, where listing the sources rescanned every
    /// land tile's neighbours per river.
    by_water: Grid<bool>,
}

impl<'a> Rivers<'a> {
    /// The first tiles laid are the mountains (step 1).
    fn new(mountains: &'a [(i32, i32)], start: i32, terrain: &mut Grid<Option<Terrain>>) -> Rivers<'a> {
        let mut rivers = Rivers { mountains, by_water: Grid::new(start, false) };
        for &c in mountains {
            rivers.mark(c, Terrain::Mountain, terrain);
        }
        rivers
    }

    fn mark(&mut self, c: (i32, i32), t: Terrain, terrain: &mut Grid<Option<Terrain>>) {
        terrain.set(c, Some(t));
        for n in neighbors(c) {
            self.by_water.set(n, true);
        }
    }

    fn dist_to_mountain(&self, c: (i32, i32)) -> u32 {
        self.mountains.iter().map(|&m| axial_distance(c, m)).min().unwrap_or(0)
    }

    fn run(
        mut self,
        spec: &GenerateSpec,
        land_target: usize,
        order: &[(i32, i32)],
        placed: &Grid<bool>,
        terrain: &mut Grid<Option<Terrain>>,
        rng: &mut Pcg64Mcg,
    ) {
        let river_target = (spec.river_share * land_target as f64).round() as usize;
        let is_edge = |c: (i32, i32)| neighbors(c).any(|n| !placed.get(n));
        let mut rivers = 0usize;
        let mut guard = 0;
        let mut sources: Vec<(i32, i32)> = Vec::with_capacity(order.len());
        while rivers < river_target && guard < 64 {
            guard += 1;
            sources.clear();
            sources.extend(order.iter().copied().filter(|&c| terrain.get(c).is_none() && self.by_water.get(c)));
            if sources.is_empty() {
                break;
            }
            let mut cur = sources[rng.random_range(0..sources.len())];
            loop {
                self.mark(cur, Terrain::River, terrain);
                rivers += 1;
                if rivers >= river_target || is_edge(cur) {
                    break;
                }
                let d = self.dist_to_mountain(cur);
                let mut next = [(0, 0); 6];
                let mut k = 0;
                for n in neighbors(cur) {
                    if placed.get(n) && terrain.get(n).is_none() && self.dist_to_mountain(n) >= d {
                        next[k] = n;
                        k += 1;
                    }
                }
                if k == 0 {
                    break;
                }
                next[..k].sort_unstable();
                cur = next[rng.random_range(0..k)];
            }
        }
    }
}

/// Step 4: the land left is marsh, forest or plains by the scenario's
/// shares, dealt in a shuffled order. A river that stops inland ends in
/// marsh or wherever this puts it, which the rule allows.
fn fill_the_rest(
    spec: &GenerateSpec,
    land_target: usize,
    order: &[(i32, i32)],
    terrain: &mut Grid<Option<Terrain>>,
    rng: &mut Pcg64Mcg,
) {
    let marsh_target = (spec.marsh_share * land_target as f64).round() as usize;
    let forest_target = (spec.forest_share * land_target as f64).round() as usize;
    let mut rest: Vec<(i32, i32)> = order.iter().copied().filter(|&c| terrain.get(c).is_none()).collect();
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
}

/// Step 5: `width` rings of sea around the land, ring by ring, in no
/// particular order. `placed` marks every cell already in the map (land
/// or an earlier ring), so a ring never walks back inward.
fn sea_ring(order: &[(i32, i32)], width: u32, placed: &mut Grid<bool>) -> Vec<(i32, i32)> {
    let mut sea: Vec<(i32, i32)> = Vec::new();
    // The ring walked outward from: the land, then `sea[from..to]`.
    let (mut from, mut to) = (0, 0);
    for ring in 0..width.max(1) {
        let start = sea.len();
        let inner = if ring == 0 { order.len() } else { to - from };
        for k in 0..inner {
            let c = if ring == 0 { order[k] } else { sea[from + k] };
            for n in neighbors(c) {
                if !placed.get(n) {
                    placed.set(n, true);
                    sea.push(n);
                }
            }
        }
        (from, to) = (start, sea.len());
    }
    sea
}

/// Step 6: capitals by farthest-point spread (the first at random, each
/// later one the eligible hex farthest from those before, ties to the
/// lowest id), then neutral cities the same way, away from every city.
/// `None` when the capitals do not fit `min_dist` apart or the neutral
/// cities 2 apart.
fn spread_cities(
    map: &Map,
    spec: &GenerateSpec,
    players: usize,
    min_dist: u32,
    capital_terrain: CapitalTerrain,
    rng: &mut Pcg64Mcg,
) -> Option<(Vec<HexId>, Vec<HexId>)> {
    let eligible: Vec<HexId> =
        (0..map.len() as HexId).filter(|&h| capital_terrain.contains(map.terrain[h as usize])).collect();
    if eligible.len() < players {
        return None;
    }
    // The distance from each eligible hex to the nearest city chosen so
    // far, brought down as each is chosen (the minimum over all of them,
    // as rescanning them for every hex gave).
    let mut nearest: Vec<u32> = vec![u32::MAX; eligible.len()];
    let mut taken: Vec<bool> = vec![false; eligible.len()];
    let choose = |k: usize, nearest: &mut Vec<u32>, taken: &mut Vec<bool>| {
        taken[k] = true;
        let c = eligible[k];
        for (d, &h) in nearest.iter_mut().zip(&eligible) {
            *d = (*d).min(map.distance(c, h));
        }
        c
    };
    let farthest = |nearest: &[u32], taken: &[bool]| {
        (0..eligible.len()).filter(|&k| !taken[k]).max_by_key(|&k| (nearest[k], std::cmp::Reverse(eligible[k])))
    };
    let first = rng.random_range(0..eligible.len());
    let mut caps: Vec<HexId> = vec![choose(first, &mut nearest, &mut taken)];
    while caps.len() < players {
        let k = farthest(&nearest, &taken)?;
        if nearest[k] < min_dist {
            return None;
        }
        caps.push(choose(k, &mut nearest, &mut taken));
    }
    let mut neutral = Vec::new();
    for _ in 0..spec.neutral_cities {
        let k = farthest(&nearest, &taken)?;
        if nearest[k] < 2 {
            return None;
        }
        neutral.push(choose(k, &mut nearest, &mut taken));
    }
    Some((caps, neutral))
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

    /// G-23 laid by the plain definition: scan every empty cell next to
    /// the land, in coordinate order, for those touching enough tiles.
    fn lay_tiles_by_definition(land_target: usize, rng: &mut Pcg64Mcg) -> Option<Vec<(i32, i32)>> {
        let mut order = vec![(0, 0)];
        while order.len() < land_target {
            let need = if order.len() < 2 { 1 } else { 2 };
            let mut cands: Vec<(i32, i32)> = order
                .iter()
                .flat_map(|&c| neighbors(c))
                .filter(|n| !order.contains(n))
                .filter(|&n| neighbors(n).filter(|m| order.contains(m)).count() >= need)
                .collect();
            cands.sort_unstable();
            cands.dedup();
            if cands.is_empty() {
                return None;
            }
            order.push(cands[rng.random_range(0..cands.len())]);
        }
        Some(order)
    }

    #[test]
    fn g23_tiles_are_laid_as_the_plain_definition_lays_them() {
        for seed in 0..200u128 {
            for land in [1, 2, 3, 48, 120] {
                let (mut a, mut b) = (Pcg64Mcg::new(seed | 1), Pcg64Mcg::new(seed | 1));
                let mut placed = Grid::new(2, false);
                let fast = lay_tiles(land, 2, &mut placed, &mut a);
                assert_eq!(fast, lay_tiles_by_definition(land, &mut b), "seed {seed}, {land} tiles");
                // Every tile laid is marked placed, and nothing else.
                let order = fast.unwrap();
                assert_eq!(placed.cells.iter().filter(|&&p| p).count(), order.len());
                assert!(order.iter().all(|&c| placed.get(c)));
            }
        }
    }

    /// Step 6 by the plain definition: each city the hex farthest from
    /// every city chosen before, rescanned for each.
    #[test]
    fn g24_cities_spread_as_the_plain_definition_spreads_them() {
        let spec = GenerateSpec { neutral_cities: 3, land: 70, ..GenerateSpec::default() };
        for seed in 0..100 {
            let Ok(m) = generate(&spec, 4, 3, city_terrain(), seed) else { continue };
            let eligible: Vec<HexId> =
                (0..m.len() as HexId).filter(|&h| city_terrain().contains(m.terrain[h as usize])).collect();
            let mut sorted_caps = m.placements.capitals.clone();
            sorted_caps.sort_unstable();
            // The map's capitals are those of the spread, dealt to the seats.
            let (_, picked) = generate_with_pick_order(&spec, 4, 3, city_terrain(), seed).unwrap();
            let mut cities = vec![picked[0]];
            for _ in 1..4 + 3 {
                let best = eligible
                    .iter()
                    .copied()
                    .filter(|h| !cities.contains(h))
                    .max_by_key(|&h| (cities.iter().map(|&c| m.distance(c, h)).min().unwrap(), std::cmp::Reverse(h)))
                    .unwrap();
                cities.push(best);
            }
            assert_eq!(&cities[..4], &picked[..], "seed {seed}");
            assert_eq!(&cities[4..], &m.placements.neutral_cities[..], "seed {seed}");
            let mut want = picked.clone();
            want.sort_unstable();
            assert_eq!(sorted_caps, want);
        }
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
