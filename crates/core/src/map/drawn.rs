//! Maps drawn as text rows in the scenario (`map.rows`, G-23).
//!
//! Rows form an odd-r offset grid: row `r`, cell `c` is axial
//! `(c - (r - (r & 1)) / 2, r)`. Each cell is a terrain letter followed by
//! markers; `-` is a hole (no hex). Only shape and markers are read here; which
//! building may stand on which terrain is a scenario rule checked by
//! `scenario::check`.

use super::{HexId, Map, Placements, Terrain};
use crate::building::BuildingKind;

/// A problem in the rows: row index, character offset in that row, message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnError {
    pub row: usize,
    pub col: usize,
    pub message: String,
}

/// Where each hex of a drawn map was written: (row, char offset).
pub type CellOrigins = Vec<(usize, usize)>;

pub fn parse(rows: &[String]) -> Result<(Map, CellOrigins), Vec<DrawnError>> {
    let mut hexes = Vec::new();
    let mut origins = Vec::new();
    let mut errors = Vec::new();
    let mut capitals: Vec<(u32, HexId, usize, usize)> = Vec::new();
    let mut placements = Placements::default();
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0i32;
        let mut chars = row.char_indices().peekable();
        while let Some(&(start, ch)) = chars.peek() {
            if ch.is_whitespace() {
                chars.next();
                continue;
            }
            // A cell runs to the next whitespace.
            let col = row[..start].chars().count();
            let mut cell = String::new();
            while let Some(&(_, ch)) = chars.peek() {
                if ch.is_whitespace() {
                    break;
                }
                cell.push(ch);
                chars.next();
            }
            let ri = r as i32;
            let coord = (c - (ri - (ri & 1)) / 2, ri);
            c += 1;
            if cell == "-" {
                continue;
            }
            let mut it = cell.chars();
            let t = it.next().unwrap_or('-');
            let Some(terrain) = Terrain::from_letter(t) else {
                errors.push(DrawnError {
                    row: r,
                    col,
                    message: format!(
                        "unknown terrain letter {t:?} in cell {cell:?} (use p plains, f forest, r river, m mountain, w marsh, ~ sea, - no hex)"
                    ),
                });
                continue;
            };
            let id = hexes.len() as HexId;
            hexes.push((coord, terrain));
            origins.push((r, col));
            for (k, m) in it.enumerate() {
                let mcol = col + 1 + k;
                match m {
                    '1'..='9' => capitals.push((m.to_digit(10).unwrap_or(1), id, r, mcol)),
                    'c' => placements.neutral_cities.push(id),
                    'k' => placements.buildings.push((id, BuildingKind::Castle)),
                    'n' => placements.buildings.push((id, BuildingKind::Mine)),
                    'o' => placements.buildings.push((id, BuildingKind::Port)),
                    't' => placements.buildings.push((id, BuildingKind::Tower)),
                    'b' => placements.buildings.push((id, BuildingKind::Bridge)),
                    _ => errors.push(DrawnError {
                        row: r,
                        col: mcol,
                        message: format!(
                            "unknown marker {m:?} in cell {cell:?} (use 1-9 capital, c neutral city, k castle, n mine, o port, t tower, b bridge)"
                        ),
                    }),
                }
            }
        }
    }
    if hexes.len() >= super::NO_HEX as usize {
        errors.push(DrawnError { row: 0, col: 0, message: format!("map has {} hexes; at most 65534", hexes.len()) });
    }
    capitals.sort_by_key(|c| c.0);
    for w in capitals.windows(2) {
        if w[0].0 == w[1].0 {
            errors.push(DrawnError {
                row: w[1].2,
                col: w[1].3,
                message: format!("player {} has two capitals", w[1].0),
            });
        }
    }
    for (i, cap) in capitals.iter().enumerate() {
        if cap.0 as usize != i + 1 && !capitals.iter().any(|c| c.0 as usize == i + 1) {
            errors.push(DrawnError {
                row: cap.2,
                col: cap.3,
                message: format!("capitals must be numbered from 1 without gaps; player {} has none", i + 1),
            });
            break;
        }
    }
    placements.capitals = capitals.iter().map(|c| c.1).collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok((Map::from_hexes(hexes, placements), origins))
}

/// The offset (col, row) that `render` prints as (0, 0). The row is kept
/// even so the odd-r layout of the rendered rows stays valid.
pub fn origin(map: &Map) -> (i32, i32) {
    let offs = (0..map.len()).map(|h| map.offset_of(h as HexId));
    let (c, r) = offs.fold((i32::MAX, i32::MAX), |(a, b), o| (a.min(o.0), b.min(o.1)));
    if map.is_empty() { (0, 0) } else { (c, r - (r & 1)) }
}

/// The map as rows in the drawn format (for `play` output and docs).
pub fn render(map: &Map) -> Vec<String> {
    if map.is_empty() {
        return Vec::new();
    }
    let offs: Vec<(i32, i32)> = (0..map.len()).map(|h| map.offset_of(h as HexId)).collect();
    let (min_c, min_r) = origin(map);
    let max_c = offs.iter().map(|o| o.0).max().unwrap_or(0);
    let max_r = offs.iter().map(|o| o.1).max().unwrap_or(0);
    let mut out = Vec::new();
    for r in min_r..=max_r {
        let mut line = String::new();
        if r & 1 == 1 {
            line.push(' ');
        }
        for c in min_c..=max_c {
            let cell = offs.iter().position(|&o| o == (c, r));
            line.push(cell.map_or('-', |h| map.terrain[h].letter()));
            line.push(' ');
        }
        out.push(line.trim_end().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_offset_rows() {
        let rows = vec!["~ ~ ~".to_string(), " ~ p1 f".to_string(), "~ r2n ~".to_string()];
        let (m, origins) = parse(&rows).unwrap();
        assert_eq!(m.len(), 9);
        assert_eq!(m.placements.capitals.len(), 2);
        let p = m.placements.capitals[0];
        assert_eq!(m.terrain[p as usize], Terrain::Plains);
        assert_eq!(origins[p as usize], (1, 3));
        assert!(m.coastal[p as usize]);
        assert_eq!(m.placements.buildings, vec![(m.placements.capitals[1], BuildingKind::Mine)]);
        // (1,1) in offset is axial (1,1); (1,2) offset is axial (0,2): neighbours.
        assert!(m.are_adjacent(m.placements.capitals[0], m.placements.capitals[1]));
    }

    #[test]
    fn reports_bad_cells_with_position() {
        let rows = vec!["p x1".to_string(), "pz".to_string()];
        let e = parse(&rows).unwrap_err();
        assert_eq!(e[0].row, 0);
        assert_eq!(e[0].col, 2);
        assert_eq!((e[1].row, e[1].col), (1, 1));
    }
}
