//! Charts with plotters: each chart is plain data (`Chart`), drawn twice,
//! as SVG for the page and as a PNG copy. Text is drawn with the bundled
//! DejaVu Sans through ab_glyph, so no system font library is needed.
//! Both files are written under a temporary name and renamed.

use super::files::{Pending, write_file};
use crate::error::Error;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// DejaVu Sans (Bitstream Vera license, `fonts/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");

/// Register the bundled font once for every family name plotters asks for.
pub fn register_fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for family in ["sans-serif", "serif", "monospace"] {
            for style in [FontStyle::Normal, FontStyle::Bold, FontStyle::Italic, FontStyle::Oblique] {
                let _ = plotters::style::register_font(family, style, FONT);
            }
        }
    });
}

pub const SIZE: (u32, u32) = (800, 450);

/// One bar with its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// One labelled point with its 95% intervals (x low, x high, y low, y
/// high); an empty label draws no text.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterPoint {
    pub label: String,
    pub x: f64,
    pub y: f64,
    pub x_ci: (f64, f64),
    pub y_ci: (f64, f64),
}

/// One line, with an optional band (low, high) at the same x values.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub band: Option<Vec<(f64, f64, f64)>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    /// Bars with interval whiskers; an optional horizontal reference line.
    Bars { title: String, y_label: String, bars: Vec<Bar>, reference: Option<f64> },
    /// Lines over x, each with an optional band.
    Lines { title: String, x_label: String, y_label: String, series: Vec<Series> },
    /// Values of each series at categories (dice, names: not numbers, so no
    /// line joins them and the axis names each): x of a point is the index
    /// of its category; the band gives each point's interval.
    Categories { title: String, x_label: String, y_label: String, categories: Vec<String>, series: Vec<Series> },
    /// Horizontal bars with interval whiskers, first bar on top: for long
    /// labels such as scenario keys.
    HBars { title: String, x_label: String, bars: Vec<Bar> },
    /// Labelled points with interval whiskers on both axes (μ* against σ).
    Scatter { title: String, x_label: String, y_label: String, points: Vec<ScatterPoint> },
    /// A grid of values; `rows[i][j]` is at (`xs[j]`, `ys[i]`), labelled with `fmt`.
    Heatmap {
        title: String,
        x_label: String,
        y_label: String,
        xs: Vec<String>,
        ys: Vec<String>,
        rows: Vec<Vec<f64>>,
        percent: bool,
        /// Under each cell's value, its interval as text (empty: none).
        intervals: Vec<Vec<String>>,
        /// What the two ends of the colour scale mean, low then high (for
        /// example whose advantage), written on the legend strip; `None`
        /// where the values speak for themselves.
        sides: Option<[String; 2]>,
    },
}

/// A series' colour: gold sources keep colours of their own (greys and
/// browns, never a strategy's palette colour), so a colour means the same
/// thing from chart to chart of a page; any other series takes the palette
/// in turn.
fn series_color(i: usize, name: &str) -> RGBColor {
    match name {
        "gold from mines" => RGBColor(120, 85, 40),
        "gold from pillage" => RGBColor(60, 60, 60),
        "gold from loot" => RGBColor(170, 150, 110),
        _ => color(i),
    }
}

fn color(i: usize) -> RGBColor {
    const C: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    C[i % C.len()]
}

/// Blue (low) to red (high).
fn heat(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let lerp = |a: f64, b: f64| (a + (b - a) * t) as u8;
    RGBColor(lerp(49.0, 215.0), lerp(130.0, 48.0), lerp(189.0, 39.0))
}

type R = Result<(), Error>;

/// A y-axis tick as the tables write the same quantity: a label ending in
/// "(%)" holds proportions shown as percent, one ending in "(pts)"
/// differences of proportions shown as points; never "-0".
fn tick(y: f64, label: &str) -> String {
    let (v, unit) = if label.ends_with("(%)") {
        (100.0 * y, "%")
    } else if label.ends_with("(pts)") {
        (100.0 * y, "")
    } else {
        (y, "")
    };
    let digits = if v.abs() >= 10.0 || v == v.round() { 0 } else { 1 };
    // Adding 0.0 turns -0.0 into 0.0; a value that rounds to zero prints "0".
    let s = format!("{:.*}", digits, v + 0.0);
    let s = if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') { "0".to_string() } else { s };
    format!("{s}{unit}")
}

/// A chart is drawn into its file, so a failure is a failed write.
fn e<T: std::fmt::Debug>(x: T) -> Error {
    Error::io(format!("{x:?}"))
}

/// The series' legend, in the upper left, as every line chart draws it.
fn legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<
        'a,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
) -> R {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 14))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(e)
}

fn draw<DB: DrawingBackend>(c: &Chart, root: &DrawingArea<DB, Shift>) -> R {
    root.fill(&WHITE).map_err(e)?;
    match c {
        Chart::Bars { title, y_label, bars, reference } => {
            // Differences can be negative: the axis spans both signs.
            let top = bars.iter().map(|b| b.high.max(b.value)).filter(|v| v.is_finite()).fold(0.0, f64::max);
            let bottom = bars.iter().map(|b| b.low.min(b.value)).filter(|v| v.is_finite()).fold(0.0, f64::min);
            let top = top.max(reference.unwrap_or(0.0));
            let span = if top - bottom > 0.0 { top - bottom } else { 1.0 };
            let (bottom, top) = (if bottom < 0.0 { bottom - 0.1 * span } else { 0.0 }, top + 0.12 * span);
            let n = bars.len().max(1);
            let mut chart = ChartBuilder::on(root)
                .caption(title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(0.0..n as f64, bottom..top)
                .map_err(e)?;
            let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n * 2 + 1)
                .x_label_formatter(&|x| {
                    let i = x.floor() as usize;
                    if (x - i as f64 - 0.5).abs() < 0.01 {
                        labels.get(i).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .y_desc(y_label.as_str())
                .y_label_formatter(&|y| tick(*y, y_label))
                .label_style(("sans-serif", 14))
                .draw()
                .map_err(e)?;
            chart
                .draw_series(bars.iter().enumerate().map(|(i, b)| {
                    let v = if b.value.is_finite() { b.value } else { 0.0 };
                    Rectangle::new([(i as f64 + 0.2, 0.0), (i as f64 + 0.8, v)], color(i).mix(0.75).filled())
                }))
                .map_err(e)?;
            chart
                .draw_series(bars.iter().enumerate().map(|(i, b)| {
                    ErrorBar::new_vertical(i as f64 + 0.5, b.low, b.value, b.high, BLACK.stroke_width(2), 14)
                }))
                .map_err(e)?;
            if let Some(r) = reference {
                chart
                    .draw_series(LineSeries::new([(0.0, *r), (n as f64, *r)], BLACK.mix(0.5).stroke_width(1)))
                    .map_err(e)?;
            }
        }
        Chart::Categories { title, x_label, y_label, categories, series } => {
            let ys = series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.1).chain(s.band.iter().flatten().flat_map(|b| [b.1, b.2])))
                .filter(|y| y.is_finite());
            let (y0, y1) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| (a.min(y), b.max(y)));
            let (y0, y1) = if y0.is_finite() && y1 > y0 { (y0.min(0.0), y1 * 1.1) } else { (0.0, 1.0) };
            let n = categories.len().max(1);
            let mut chart = ChartBuilder::on(root)
                .caption(title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(-0.5..n as f64 - 0.5, y0..y1)
                .map_err(e)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(2 * n + 1)
                .x_label_formatter(&|x| {
                    let i = x.round();
                    if (x - i).abs() < 0.01 && i >= 0.0 {
                        categories.get(i as usize).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .x_desc(x_label.as_str())
                .y_desc(y_label.as_str())
                .y_label_formatter(&|y| tick(*y, y_label))
                .label_style(("sans-serif", 14))
                .draw()
                .map_err(e)?;
            let k = series.len().max(1) as f64;
            for (i, s) in series.iter().enumerate() {
                // Series side by side within a category, so intervals do not hide each other.
                let dx = 0.5 * (i as f64 - (k - 1.0) / 2.0) / k;
                if let Some(band) = &s.band {
                    chart
                        .draw_series(
                            band.iter().zip(&s.points).map(|(b, p)| {
                                ErrorBar::new_vertical(b.0 + dx, b.1, p.1, b.2, color(i).stroke_width(2), 8)
                            }),
                        )
                        .map_err(e)?;
                }
                chart
                    .draw_series(s.points.iter().map(|p| Circle::new((p.0 + dx, p.1), 5, color(i).filled())))
                    .map_err(e)?
                    .label(s.name.clone())
                    .legend(move |(x, y)| Circle::new((x + 9, y), 5, color(i).filled()));
            }
            legend(&mut chart)?;
        }
        Chart::Lines { title, x_label, y_label, series } => {
            let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
            let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
            let ys = series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.1).chain(s.band.iter().flatten().flat_map(|b| [b.1, b.2])));
            let (y0, y1) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| (a.min(y), b.max(y)));
            let (x0, x1) = if x0.is_finite() && x1 > x0 { (x0, x1) } else { (0.0, 1.0) };
            let (y0, y1) = if y0.is_finite() && y1 > y0 { (y0.min(0.0), y1 * 1.1) } else { (0.0, 1.0) };
            let mut chart = ChartBuilder::on(root)
                .caption(title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(x0..x1, y0..y1)
                .map_err(e)?;
            chart
                .configure_mesh()
                .x_desc(x_label.as_str())
                .y_desc(y_label.as_str())
                .y_label_formatter(&|y| tick(*y, y_label))
                .label_style(("sans-serif", 14))
                .draw()
                .map_err(e)?;
            for (i, s) in series.iter().enumerate() {
                let c = series_color(i, &s.name);
                if let Some(band) = &s.band {
                    let mut pts: Vec<(f64, f64)> = band.iter().map(|b| (b.0, b.2)).collect();
                    pts.extend(band.iter().rev().map(|b| (b.0, b.1)));
                    chart.draw_series(std::iter::once(Polygon::new(pts, c.mix(0.18)))).map_err(e)?;
                }
                chart
                    .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))
                    .map_err(e)?
                    .label(s.name.clone())
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
            }
            legend(&mut chart)?;
        }
        Chart::HBars { title, x_label, bars } => {
            let fin = |v: f64| if v.is_finite() { v } else { 0.0 };
            let top = bars.iter().map(|b| fin(b.high).max(fin(b.value))).fold(0.0, f64::max);
            let top = if top > 0.0 { top * 1.08 } else { 1.0 };
            let n = bars.len().max(1);
            let longest = bars.iter().map(|b| b.label.chars().count()).max().unwrap_or(4) as u32;
            let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
            let mut chart = ChartBuilder::on(root)
                .caption(title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(12 + 7 * longest)
                .build_cartesian_2d(0.0..top, 0.0..n as f64)
                .map_err(e)?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .x_desc(x_label.as_str())
                .x_label_formatter(&|x| tick(*x, x_label))
                .y_labels(n * 2 + 1)
                .y_label_formatter(&|y| {
                    // Row i (from the top) is centred at n - i - 0.5.
                    let r = n as f64 - y - 0.5;
                    let i = r.round();
                    if (r - i).abs() < 0.01 && i >= 0.0 {
                        labels.get(i as usize).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .label_style(("sans-serif", 13))
                .draw()
                .map_err(e)?;
            chart
                .draw_series(bars.iter().enumerate().map(|(i, b)| {
                    let y = (n - 1 - i) as f64;
                    Rectangle::new([(0.0, y + 0.2), (fin(b.value), y + 0.8)], color(0).mix(0.75).filled())
                }))
                .map_err(e)?;
            chart
                .draw_series(bars.iter().enumerate().map(|(i, b)| {
                    let y = (n - 1 - i) as f64 + 0.5;
                    ErrorBar::new_horizontal(y, fin(b.low), fin(b.value), fin(b.high), BLACK.stroke_width(2), 10)
                }))
                .map_err(e)?;
        }
        Chart::Scatter { title, x_label, y_label, points } => {
            let fin = |v: f64| if v.is_finite() { v } else { 0.0 };
            let x1 = points.iter().map(|p| fin(p.x_ci.1).max(fin(p.x))).fold(0.0, f64::max);
            let y1 = points.iter().map(|p| fin(p.y_ci.1).max(fin(p.y))).fold(0.0, f64::max);
            let (x1, y1) = (if x1 > 0.0 { x1 * 1.15 } else { 1.0 }, if y1 > 0.0 { y1 * 1.1 } else { 1.0 });
            let mut chart = ChartBuilder::on(root)
                .caption(title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(0.0..x1, 0.0..y1)
                .map_err(e)?;
            chart
                .configure_mesh()
                .x_desc(x_label.as_str())
                .y_desc(y_label.as_str())
                .label_style(("sans-serif", 14))
                .draw()
                .map_err(e)?;
            let whisker = color(0).mix(0.45);
            for p in points.iter().filter(|p| p.x.is_finite() && p.y.is_finite()) {
                let (xl, xh) = (fin(p.x_ci.0), fin(p.x_ci.1));
                let (yl, yh) = (fin(p.y_ci.0), fin(p.y_ci.1));
                chart.draw_series([PathElement::new([(xl, p.y), (xh, p.y)], whisker)]).map_err(e)?;
                chart.draw_series([PathElement::new([(p.x, yl), (p.x, yh)], whisker)]).map_err(e)?;
                chart.draw_series([Circle::new((p.x, p.y), 4, color(0).filled())]).map_err(e)?;
                if !p.label.is_empty() {
                    let text = Text::new(p.label.clone(), (p.x, p.y), ("sans-serif", 13));
                    chart.draw_series([text]).map_err(e)?;
                }
            }
        }
        Chart::Heatmap { title, x_label, y_label, xs, ys, rows, percent, intervals, sides } => {
            // Proportions share one fixed scale, 0% to 100%, so two heatmaps
            // compare by colour; other values span their own range. The
            // strip at the right is the colour legend.
            let (lo, hi) = if *percent {
                (0.0, 1.0)
            } else {
                rows.iter()
                    .flatten()
                    .filter(|v| v.is_finite())
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)))
            };
            let span = if hi > lo { hi - lo } else { 1.0 };
            let (w, _) = root.dim_in_pixel();
            let (area, strip) = root.split_horizontally(w.saturating_sub(90));
            let label = |v: f64| if *percent { format!("{:.0}%", 100.0 * v + 0.0) } else { format!("{:.2}", v + 0.0) };
            // The meaning of each end, in the strip's margins: above the top
            // value what high means, below the bottom value what low means,
            // a word a line so it fits the strip's width.
            if let Some([low, high]) = sides {
                let (_, h) = strip.dim_in_pixel();
                let font = ("sans-serif", 11).into_font();
                let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
                for (k, w) in words(high).iter().enumerate() {
                    strip.draw(&Text::new(w.clone(), (4, 14 + 12 * k as i32), font.clone())).map_err(e)?;
                }
                let low = words(low);
                for (k, w) in low.iter().enumerate() {
                    let y = h as i32 - 10 - 12 * (low.len() - k) as i32;
                    strip.draw(&Text::new(w.clone(), (4, y), font.clone())).map_err(e)?;
                }
            }
            let strip = strip.margin(60, 50, 10, 30);
            let (sw, sh) = strip.dim_in_pixel();
            let steps = 40;
            for k in 0..steps {
                let t = k as f64 / (steps - 1) as f64;
                let y0 = ((1.0 - (k + 1) as f64 / steps as f64) * sh as f64) as i32;
                let y1 = ((1.0 - k as f64 / steps as f64) * sh as f64) as i32;
                strip.draw(&Rectangle::new([(0, y0), (sw.min(18) as i32, y1)], heat(t).filled())).map_err(e)?;
            }
            let font = ("sans-serif", 12).into_font();
            strip.draw(&Text::new(label(hi), (22, 0), font.clone())).map_err(e)?;
            strip.draw(&Text::new(label(lo), (22, sh as i32 - 12), font)).map_err(e)?;
            let root = &area;
            // Room for the longest row label (a range such as "−0.75…−0.5"
            // needs more than a number does), at about 8 pixels a letter.
            let longest = ys.iter().map(|y| y.chars().count()).max().unwrap_or(0) as u32;
            let mut chart = ChartBuilder::on(root)
                .caption(title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size((longest * 8 + 30).clamp(60, 160))
                .build_cartesian_2d(0.0..xs.len() as f64, 0.0..ys.len() as f64)
                .map_err(e)?;
            chart
                .configure_mesh()
                .disable_mesh()
                .x_labels(xs.len() * 2 + 1)
                .y_labels(ys.len() * 2 + 1)
                .x_label_formatter(&|x| {
                    let i = x.floor() as usize;
                    if (x - i as f64 - 0.5).abs() < 0.01 {
                        xs.get(i).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .y_label_formatter(&|y| {
                    // Row i is drawn i rows from the top, as the tables list them.
                    let i = y.floor() as usize;
                    if (y - i as f64 - 0.5).abs() < 0.01 && i < ys.len() {
                        ys.get(ys.len() - 1 - i).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .x_desc(x_label.as_str())
                .y_desc(y_label.as_str())
                .label_style(("sans-serif", 14))
                .draw()
                .map_err(e)?;
            let n = rows.len();
            for (r, row) in rows.iter().enumerate() {
                let i = n - 1 - r;
                for (j, &v) in row.iter().enumerate() {
                    let fill = if v.is_finite() { heat((v - lo) / span) } else { RGBColor(200, 200, 200) };
                    let v = v + 0.0;
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(j as f64, i as f64), (j as f64 + 1.0, i as f64 + 1.0)],
                            fill.filled(),
                        )))
                        .map_err(e)?;
                    let text = if !v.is_finite() {
                        "-".to_string()
                    } else if *percent {
                        format!("{:.0}", 100.0 * v)
                    } else {
                        format!("{v:.2}")
                    };
                    chart
                        .draw_series(std::iter::once(Text::new(
                            text,
                            (j as f64 + 0.3, i as f64 + 0.6),
                            ("sans-serif", 12).into_font().color(&WHITE),
                        )))
                        .map_err(e)?;
                    if let Some(ci) = intervals.get(r).and_then(|row| row.get(j)).filter(|t| !t.is_empty()) {
                        chart
                            .draw_series(std::iter::once(Text::new(
                                ci.clone(),
                                (j as f64 + 0.15, i as f64 + 0.3),
                                ("sans-serif", 10).into_font().color(&WHITE),
                            )))
                            .map_err(e)?;
                    }
                }
            }
        }
    }
    root.present().map_err(e)?;
    Ok(())
}

/// Write `dir/stem.svg` and `dir/stem.png`.
pub fn write(c: &Chart, dir: &Path, stem: &str) -> R {
    register_fonts();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        draw(c, &root)?;
    }
    write_file(&dir.join(format!("{stem}.svg")), svg.as_bytes())?;
    // The PNG encoder picks its format from the extension, so the temporary
    // name ends in .png too.
    let dest = dir.join(format!("{stem}.png"));
    let tmp = dir.join(format!(".{stem}.{}.tmp.png", std::process::id()));
    {
        let root = BitMapBackend::new(&tmp, SIZE).into_drawing_area();
        draw(c, &root)?;
    }
    let (p, f) =
        Pending::adopt(&tmp, &dest).map_err(|x| Error::io(format!("{}: cannot write: {x}", dest.display())))?;
    p.commit(f).map_err(|x| Error::io(format!("{}: cannot write: {x}", dest.display())))
}

#[cfg(test)]
mod tests {
    use super::{color, series_color, tick};

    /// A gold source has one colour wherever its series falls in a chart,
    /// and it is never a strategy's palette colour.
    #[test]
    fn a_gold_source_keeps_its_colour_from_chart_to_chart() {
        let sources = ["gold from mines", "gold from pillage", "gold from loot"];
        for s in sources {
            let c = series_color(0, s);
            assert!((1..16).all(|i| series_color(i, s) == c), "{s}");
            assert!((0..8).all(|i| color(i) != c), "{s} looks like a strategy");
        }
        assert!(
            sources.iter().all(|a| sources.iter().filter(|b| series_color(0, a) == series_color(0, b)).count() == 1)
        );
        assert_eq!(series_color(2, "balanced"), color(2));
    }

    #[test]
    fn ticks_read_as_the_tables_do() {
        assert_eq!(tick(0.25, "win rate (%)"), "25%");
        assert_eq!(tick(0.055, "share (%)"), "5.5%");
        assert_eq!(tick(-0.04, "difference (pts)"), "-4");
        assert_eq!(tick(-0.0, "gold"), "0");
        assert_eq!(tick(-0.00001, "difference (pts)"), "0");
        assert_eq!(tick(1250.0, "gold"), "1250");
    }
}
