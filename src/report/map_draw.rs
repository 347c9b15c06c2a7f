//! Maps of a campaign's state: the final map of `play --map` as SVG or PNG,
//! and the frames of the replay page (`replay_page`). Hexes are coloured by
//! terrain, each player's hexes get a border in the player's colour, and
//! buildings, armies (with their units), ships and spies are marked.

use super::charts::register_fonts;
use super::files::{Pending, write_file};
use crate::error::Error;
use crate::map::{Map, Terrain};
use crate::rules::state::State;
use crate::scenario::BuildingKind;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

const HEX: f64 = 26.0;
const MARGIN: f64 = 30.0;
const LEGEND: u32 = 96;

/// A terrain's fill, on the maps and in their legends.
pub fn terrain_color(t: Terrain) -> RGBColor {
    match t {
        Terrain::Plains => RGBColor(205, 226, 160),
        Terrain::Forest => RGBColor(92, 150, 74),
        Terrain::River => RGBColor(150, 205, 200),
        Terrain::Mountain => RGBColor(168, 150, 130),
        Terrain::Marsh => RGBColor(150, 160, 100),
        Terrain::Sea => RGBColor(80, 130, 185),
    }
}

/// A player's colour.
pub fn player_color(p: usize) -> RGBColor {
    const C: [RGBColor; 9] = [
        RGBColor(214, 39, 40),
        RGBColor(31, 119, 180),
        RGBColor(44, 160, 44),
        RGBColor(230, 180, 0),
        RGBColor(148, 103, 189),
        RGBColor(255, 127, 14),
        RGBColor(23, 190, 207),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
    ];
    C[p % C.len()]
}

/// Pixel centre of a hex (pointy-top axial layout).
fn centre(q: i32, r: i32) -> (f64, f64) {
    (HEX * 3f64.sqrt() * (q as f64 + r as f64 / 2.0), HEX * 1.5 * r as f64)
}

fn corners(c: (f64, f64), size: f64) -> Vec<(i32, i32)> {
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
            ((c.0 + size * a.cos()).round() as i32, (c.1 + size * a.sin()).round() as i32)
        })
        .collect()
}

fn building_mark(k: BuildingKind) -> &'static str {
    match k {
        BuildingKind::Castle => "C",
        BuildingKind::City => "★",
        BuildingKind::Mine => "M",
        BuildingKind::Port => "⚓",
        BuildingKind::Tower => "T",
        BuildingKind::Bridge => "B",
    }
}

/// Which parts of a map to draw. `play --map` draws one picture with
/// everything; the replay page draws the ground once and the pieces of
/// every season over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Terrain fills and hex outlines, on a white background.
    pub terrain: bool,
    /// Each hex's `(col,row)`, as logs name it (over the pieces).
    pub coords: bool,
    /// Owners' borders, buildings, armies, ships and spies.
    pub pieces: bool,
    /// Players and marks below the map.
    pub legend: bool,
}

impl Layers {
    /// `play --map`: the whole picture.
    pub const MAP: Layers = Layers { terrain: true, coords: false, pieces: true, legend: true };
    /// What never changes in a campaign, under the pieces: the terrain.
    pub const GROUND: Layers = Layers { terrain: true, coords: false, pieces: false, legend: false };
    /// What never changes, over the pieces: the hexes' coordinates, on a
    /// transparent background.
    pub const COORDS: Layers = Layers { terrain: false, coords: true, pieces: false, legend: false };
    /// What changes from season to season, on a transparent background.
    pub const PIECES: Layers = Layers { terrain: false, coords: false, pieces: true, legend: false };
}

/// The marks, as the legend explains them.
pub const MARKS: &str = "C castle  ★ city  M mine  ⚓ port  T tower  B bridge  ● army (units)  ▲ ship  ◆ spy";

/// Image size for a map, with or without the legend below it.
fn size(map: &Map, legend: bool) -> (u32, u32, f64, f64) {
    let pts: Vec<(f64, f64)> = map.coords.iter().map(|&(q, r)| centre(q, r)).collect();
    let (x0, x1) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let w = (x1 - x0 + 2.0 * (HEX + MARGIN)).ceil() as u32;
    let h = (y1 - y0 + 2.0 * (HEX + MARGIN)).ceil() as u32 + if legend { LEGEND } else { 0 };
    (w.max(420), h, MARGIN + HEX - x0, MARGIN + HEX - y0)
}

/// Width and height of the picture `svg` draws with these layers.
pub fn image_size(map: &Map, layers: Layers) -> (u32, u32) {
    let (w, h, _, _) = size(map, layers.legend);
    (w, h)
}

type R = Result<(), Error>;

/// Text centred on its position.
fn font<C: Color>(px: u32, c: &C) -> TextStyle<'static> {
    ("sans-serif", px).into_font().color(c).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Center,
        plotters::style::text_anchor::VPos::Center,
    ))
}

/// A map is drawn into its file (or a string), so a failure is a failed write.
fn e<T: std::fmt::Debug>(x: T) -> Error {
    Error::io(format!("{x:?}"))
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    map: &Map,
    st: &State,
    names: &[String],
    layers: Layers,
) -> R {
    let (_, h, dx, dy) = size(map, layers.legend);
    if layers.terrain {
        root.fill(&WHITE).map_err(e)?;
    }
    let at = |i: usize| {
        let (q, r) = map.coords[i];
        let c = centre(q, r);
        (c.0 + dx, c.1 + dy)
    };
    if layers.terrain {
        for i in 0..map.coords.len() {
            let c = at(i);
            root.draw(&Polygon::new(corners(c, HEX), terrain_color(map.terrain[i]).filled())).map_err(e)?;
            let mut outline = corners(c, HEX);
            outline.push(outline[0]);
            root.draw(&PathElement::new(outline, WHITE.mix(0.6).stroke_width(1))).map_err(e)?;
        }
    }
    if layers.pieces {
        draw_pieces(root, map, st, &at)?;
    }
    if layers.coords {
        // On top of the pieces, on a light patch, so borders never hide them.
        let o = crate::map::drawn::origin(map);
        let patch = WHITE.mix(0.65).filled();
        for i in 0..map.coords.len() {
            let c = at(i);
            let (col, row) = map.offset_of(i as crate::map::HexId);
            let label = format!("{},{}", col - o.0, row - o.1);
            let (x, y) = (c.0 as i32, (c.1 + 19.0) as i32);
            let half = 5 * label.chars().count() as i32 / 2 + 2;
            root.draw(&Rectangle::new([(x - half, y - 5), (x + half, y + 5)], patch)).map_err(e)?;
            root.draw(&Text::new(label, (x, y), font(10, &RGBColor(60, 60, 60)))).map_err(e)?;
        }
    }
    if layers.legend {
        // Players, then the marks.
        let y = h as i32 - LEGEND as i32 + 18;
        let mut x = 12;
        for (p, n) in names.iter().enumerate() {
            root.draw(&Rectangle::new([(x, y - 7), (x + 14, y + 7)], player_color(p).filled())).map_err(e)?;
            root.draw(&Text::new(n.clone(), (x + 20, y - 7), ("sans-serif", 14).into_font())).map_err(e)?;
            x += 30 + 9 * n.chars().count() as i32;
        }
        root.draw(&Text::new(MARKS, (12, y + 18), ("sans-serif", 13).into_font())).map_err(e)?;
        // The terrains, as the hexes are filled.
        let (mut x, y) = (12, y + 44);
        for t in Terrain::ALL {
            root.draw(&Rectangle::new([(x, y - 7), (x + 14, y + 7)], terrain_color(t).filled())).map_err(e)?;
            root.draw(&Text::new(t.name(), (x + 20, y - 7), ("sans-serif", 13).into_font())).map_err(e)?;
            x += 32 + 8 * t.name().chars().count() as i32;
        }
    }
    root.present().map_err(e)?;
    Ok(())
}

/// Owners' borders, buildings, armies, ships and spies.
fn draw_pieces<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    map: &Map,
    st: &State,
    at: &dyn Fn(usize) -> (f64, f64),
) -> R {
    for i in 0..map.coords.len() {
        if let Some(owner) = st.hexes[i].owner().get() {
            let mut inner = corners(at(i), HEX - 4.0);
            inner.push(inner[0]);
            root.draw(&PathElement::new(inner, player_color(owner as usize).stroke_width(4))).map_err(e)?;
        }
    }
    for i in 0..map.coords.len() {
        let c = at(i);
        let hs = &st.hexes[i];
        if let Some(b) = hs.main {
            root.draw(&Text::new(building_mark(b), ((c.0 - 8.0) as i32, (c.1 - 9.0) as i32), font(14, &BLACK)))
                .map_err(e)?;
        }
        if let Some(b) = hs.extra {
            root.draw(&Text::new(building_mark(b), ((c.0 + 9.0) as i32, (c.1 - 9.0) as i32), font(13, &BLACK)))
                .map_err(e)?;
        }
        if let Some(ai) = hs.army.get() {
            let a = &st.armies[ai];
            let p = (c.0 as i32, (c.1 + 7.0) as i32);
            root.draw(&Circle::new(p, 9, player_color(a.owner as usize).filled())).map_err(e)?;
            root.draw(&Circle::new(p, 9, BLACK.stroke_width(1))).map_err(e)?;
            root.draw(&Text::new(a.units.to_string(), p, font(11, &WHITE))).map_err(e)?;
        }
    }
    for s in st.ships.iter().filter(|s| s.alive) {
        let c = at(s.hex as usize);
        let tri =
            vec![(c.0 as i32 - 8, c.1 as i32 + 6), (c.0 as i32 + 8, c.1 as i32 + 6), (c.0 as i32, c.1 as i32 - 8)];
        root.draw(&Polygon::new(tri, player_color(s.owner as usize).filled())).map_err(e)?;
    }
    // Spies: small diamonds left of the army, stacked upwards on a shared hex.
    let mut on_hex = vec![0i32; map.coords.len()];
    for s in st.spies.iter().filter(|s| s.alive) {
        let c = at(s.hex as usize);
        let k = on_hex[s.hex as usize];
        on_hex[s.hex as usize] += 1;
        let (x, y) = ((c.0 - 15.0) as i32, (c.1 + 7.0) as i32 - 11 * k);
        let d = vec![(x, y - 6), (x + 5, y), (x, y + 6), (x - 5, y)];
        root.draw(&Polygon::new(d.clone(), player_color(s.owner as usize).filled())).map_err(e)?;
        let mut outline = d;
        outline.push(outline[0]);
        root.draw(&PathElement::new(outline, BLACK.stroke_width(1))).map_err(e)?;
    }
    Ok(())
}

/// The picture of `st` with these layers, as an SVG document in a string.
pub fn svg(map: &Map, st: &State, names: &[String], layers: Layers) -> Result<String, Error> {
    register_fonts();
    let (w, h, _, _) = size(map, layers.legend);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        draw(&root, map, st, names, layers)?;
    }
    Ok(svg)
}

/// Draw the map of `st` to `path`: SVG or PNG by its extension.
pub fn write(map: &Map, st: &State, names: &[String], path: &Path) -> R {
    register_fonts();
    let (w, h, _, _) = size(map, Layers::MAP.legend);
    match path.extension().and_then(|x| x.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("svg") => {
            let svg = svg(map, st, names, Layers::MAP)?;
            write_file(path, svg.as_bytes())
        }
        Some("png") => {
            let name = path.file_stem().map_or("map".into(), |s| s.to_string_lossy().to_string());
            let tmp = path.with_file_name(format!(".{name}.{}.tmp.png", std::process::id()));
            {
                let root = BitMapBackend::new(&tmp, (w, h)).into_drawing_area();
                draw(&root, map, st, names, Layers::MAP)?;
            }
            let (p, f) =
                Pending::adopt(&tmp, path).map_err(|x| Error::io(format!("{}: cannot write: {x}", path.display())))?;
            p.commit(f).map_err(|x| Error::io(format!("{}: cannot write: {x}", path.display())))
        }
        _ => Err(Error::input(format!("{}: the map is drawn as .svg or .png", path.display()))),
    }
}
