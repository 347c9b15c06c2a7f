//! `play --html DIR`: one self-contained page that replays a campaign
//! season by season. It shows the map at the start and after every season
//! (terrain, owners, buildings, armies, ships, spies), each season's events
//! as the `play` log prints them, the players' standings, and empire size
//! over the seasons as a chart. Everything is inline (SVG, style, a few
//! lines of script), so the page works from a `file://` URL with no network.
//!
//! The seasons are played through the one door (`sim::Campaign`, same
//! seeds, same seats), watching each season's end, so the page shows the
//! game `empires play` prints.

use super::charts::register_fonts;
use super::files::write_file;
use super::html::esc;
use super::map_draw::{self, Layers, player_color};
use super::{Names, text};
use crate::error::Error;
use crate::map::Map;
use crate::rules::empire::sizes;
use crate::rules::season::Outcome;
use crate::rules::setup::{SetupError, initial_state, make_map};
use crate::rules::{EndReason, Event, Log, Rules, State};
use crate::scenario::Scenario;
use crate::seed;
use crate::sim;
use crate::sim::runner::seat_strategies;
use plotters::prelude::*;
use std::fmt::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// A campaign kept season by season.
#[derive(Clone, Debug)]
pub struct Replay {
    pub map: Map,
    /// The strategy of each seat.
    pub strategies: Vec<String>,
    /// `states[0]` is the starting position, `states[k]` the state at the
    /// end of season `k`; the last one is the final state.
    pub states: Vec<State>,
    pub outcome: Outcome,
}

impl Replay {
    pub fn final_state(&self) -> &State {
        self.states.last().expect("the starting position is always kept")
    }
}

/// Play campaign `campaign` of master seed `master` (with `rotate`, as
/// `play --rotate-seats` does: the campaign index moves the strategies
/// round the seats), keeping the state after every season. The events go to `log`.
pub fn play<L: Log>(sc: &Scenario, master: u64, campaign: u64, rotate: bool, log: L) -> Result<Replay, SetupError> {
    let cs = seed::campaign_seed(master, campaign);
    let map = make_map(sc, cs)?;
    let names = seat_strategies(sc, campaign, rotate);
    let (states, outcome) = {
        let mut states = vec![initial_state(Rules::new(sc, &map))];
        let d = sim::Campaign::new(sc, cs).on(&map).seats(&names).log(log).watch(|_, s| {
            states.push(s.clone());
            ControlFlow::Continue(())
        });
        // The last season's copy, as `finish` leaves it.
        *states.last_mut().expect("one season at least") = d.state;
        (states, d.outcome)
    };
    let strategies = names.into_iter().map(String::from).collect();
    Ok(Replay { map, strategies, states, outcome })
}

/// The events of each frame of the page: `[0]` those before the first
/// season (none, today), then one slice per season, from its
/// `SeasonStart` up to the next one. The end of the campaign and the
/// standings come with the last season.
pub fn season_events(events: &[Event]) -> Vec<&[Event]> {
    let mut out = Vec::new();
    let mut from = 0;
    for (i, e) in events.iter().enumerate() {
        if matches!(e, Event::SeasonStart { .. }) {
            out.push(&events[from..i]);
            from = i;
        }
    }
    out.push(&events[from..]);
    out
}

/// Provenance shown in the page's header.
pub struct PageInfo<'a> {
    pub master: u64,
    pub campaign: u64,
    /// The command that replays the campaign (shown as is).
    pub command: &'a str,
}

fn hex_color(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn reason_text(r: EndReason) -> &'static str {
    match r {
        EndReason::SeasonLimit => "the season limit was reached",
        EndReason::Domination => "a player holds the winning share of the land",
        EndReason::LastStanding => "every rival has lost all its hexes",
        EndReason::AllEliminated => "every player has lost all its hexes",
        EndReason::Stalled => "stalled: nothing had changed hands for many seasons",
    }
}

/// An SVG document from plotters, for inlining in HTML: without its XML
/// namespace (HTML's parser gives inline `<svg>` its namespace), and with
/// `extra` inserted first inside it.
fn inline_svg(svg: &str, extra: &str) -> Result<String, Error> {
    let svg = svg.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    let open = svg
        .find("<svg")
        .and_then(|i| svg[i..].find('>').map(|j| i + j + 1))
        .ok_or_else(|| Error::internal("no <svg> element"))?;
    Ok(format!("{}{extra}{}", &svg[..open], svg[open..].trim_end()))
}

/// The body of an SVG document (what is inside `<svg>`).
fn svg_body(svg: &str) -> Result<&str, Error> {
    let open = svg
        .find("<svg")
        .and_then(|i| svg[i..].find('>').map(|j| i + j + 1))
        .ok_or_else(|| Error::internal("no <svg> element"))?;
    let close = svg.rfind("</svg>").ok_or_else(|| Error::internal("no </svg>"))?;
    Ok(svg[open..close].trim())
}

/// Empire size (G-03) per player per frame, and the chart of it as inline
/// SVG with a marker line (`id="now"`) the script moves; returns the x of
/// every frame in the chart's coordinates too.
fn size_chart(names: &[String], series: &[Vec<u32>]) -> Result<(String, Vec<i32>), Error> {
    register_fonts();
    // Drawn into a string: a failure is a bug.
    let e = |x: &dyn std::fmt::Debug| Error::internal(format!("{x:?}"));
    let frames = series.first().map_or(0, Vec::len);
    let last = frames.saturating_sub(1).max(1) as i32;
    let top = series.iter().flatten().copied().max().unwrap_or(0).max(1);
    let top = top + (top / 10).max(1);
    let mut svg = String::new();
    let (xs, ys) = {
        let root = SVGBackend::with_string(&mut svg, super::charts::SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Empire size (G-03) at the end of each season", ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0..last, 0.0..top as f64)
            .map_err(|x| e(&x))?;
        chart
            .configure_mesh()
            .x_desc("season (0 = start)")
            .y_desc("empire size")
            .y_label_formatter(&|y| format!("{:.0}", y))
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(|x| e(&x))?;
        // Players of equal size would hide each other: each line is nudged
        // by a fraction of a hex, never enough to read as another size.
        let n = series.len().max(1) as f64;
        for (p, s) in series.iter().enumerate() {
            let c = player_color(p);
            let nudge = 0.12 * (p as f64 - (n - 1.0) / 2.0);
            chart
                .draw_series(LineSeries::new(
                    s.iter().enumerate().map(|(k, &v)| (k as i32, v as f64 + nudge)),
                    c.stroke_width(2),
                ))
                .map_err(|x| e(&x))?
                .label(names[p].clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
            chart
                .draw_series(
                    s.iter().enumerate().map(|(k, &v)| Circle::new((k as i32, v as f64 + nudge), 3, c.filled())),
                )
                .map_err(|x| e(&x))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 14))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|x| e(&x))?;
        let xs: Vec<i32> = (0..frames).map(|k| chart.backend_coord(&(k as i32, 0.0)).0).collect();
        let ys = chart.plotting_area().get_pixel_range().1;
        root.present().map_err(|x| e(&x))?;
        (xs, ys)
    };
    let marker = format!(
        "<line id=\"now\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#333333\" stroke-width=\"2\" stroke-dasharray=\"5 4\" opacity=\"0.7\"/>",
        ys.start,
        ys.end,
        x = xs.first().copied().unwrap_or(0)
    );
    let svg = inline_svg(&svg, "")?;
    let close = svg.rfind("</svg>").ok_or_else(|| Error::internal("no </svg>"))?;
    Ok((format!("{}{marker}\n</svg>", &svg[..close]), xs))
}

/// One frame's standings: a row per seat.
fn standings_table(out: &mut String, rules: Rules<'_>, st: &State, names: &[String]) {
    let size = sizes(rules, st);
    out.push_str("<table class=\"standings\"><thead><tr><th>player</th><th title=\"hexes + castles; a city counts as a castle (G-03)\">size</th><th>hexes</th><th>cities</th><th>castles</th><th>gold</th><th>armies (units)</th><th>ships</th><th>spies</th></tr></thead><tbody>\n");
    for (p, n) in names.iter().enumerate() {
        let pid = p as u8;
        let armies: Vec<_> = st.armies.iter().filter(|a| a.alive && a.owner == pid).collect();
        let units: i32 = armies.iter().map(|a| a.units).sum();
        let ships = st.ships.iter().filter(|s| s.alive && s.owner == pid).count();
        let spies = st.spies.iter().filter(|s| s.alive && s.owner == pid).count();
        let s = size[p];
        let out_mark = if st.players[p].eliminated { " <em>(eliminated)</em>" } else { "" };
        let _ = writeln!(
            out,
            "<tr><td><span class=\"sw\" style=\"background:{}\"></span>{}{out_mark}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ({units})</td><td>{ships}</td><td>{spies}</td></tr>",
            hex_color(player_color(p)),
            esc(n),
            s.size,
            s.hexes,
            s.cities,
            s.castles,
            st.players[p].gold,
            armies.len(),
        );
    }
    out.push_str("</tbody></table>\n");
}

/// The whole page. `events` is the log of the campaign `r` holds.
pub fn render(sc: &Scenario, r: &Replay, events: &[Event], info: &PageInfo) -> Result<String, Error> {
    let per_season = season_events(events);
    if per_season.len() != r.states.len() {
        return Err(Error::internal(format!(
            "the log has {} season(s) but {} were kept",
            per_season.len() - 1,
            r.states.len().saturating_sub(1)
        )));
    }
    let rules = Rules::new(sc, &r.map);
    let lognames = Names::new(sc, &r.map);
    let names: Vec<String> = sc.players.iter().map(|p| p.name.clone()).collect();
    let last = r.states.len() - 1;

    // Sizes over the frames, and the chart.
    let all: Vec<_> = r.states.iter().map(|st| sizes(rules, st)).collect();
    let series: Vec<Vec<u32>> = (0..names.len()).map(|p| all.iter().map(|s| s[p].size).collect()).collect();
    let (chart, xs) = size_chart(&names, &series)?;

    // The terrain under the pieces and the coordinates over them are drawn
    // once; every frame uses them.
    let first = &r.states[0];
    let ground = map_draw::svg(&r.map, first, &names, Layers::GROUND)?;
    let coords = map_draw::svg(&r.map, first, &names, Layers::COORDS)?;
    // The map may grow to half as big again as drawn (it is vector art).
    let map_max = map_draw::image_size(&r.map, Layers::GROUND).0 * 3 / 2;

    let mut frames = String::new();
    for (k, st) in r.states.iter().enumerate() {
        let pieces = map_draw::svg(&r.map, st, &names, Layers::PIECES)?;
        let pieces = inline_svg(&pieces, "<use href=\"#ground\"/>")?;
        let close = pieces.rfind("</svg>").ok_or_else(|| Error::internal("no </svg>"))?;
        let pieces = format!("{}<use href=\"#coords\"/>\n</svg>", &pieces[..close]);
        let title = if k == 0 { "Start, before season 1".to_string() } else { format!("Season {k}") };
        let mut log = if k == 0 {
            let caps: Vec<String> = r
                .map
                .placements
                .capitals
                .iter()
                .enumerate()
                .map(|(p, &h)| format!("{} {}", lognames.player(p as u8), lognames.hex(h)))
                .collect();
            format!("The starting position. Capitals: {}.\n", caps.join(", "))
        } else {
            String::new()
        };
        log.push_str(text::render(&lognames, per_season[k]).trim_start_matches('\n'));
        let _ = write!(
            frames,
            "<section class=\"frame\" id=\"season-{k}\" data-season=\"{k}\" data-x=\"{}\"{}>\n<div class=\"map\">{pieces}</div>\n<div class=\"side\">\n<h2>{}</h2>\n",
            xs[k],
            if k == 0 { "" } else { " hidden" },
            esc(&title)
        );
        standings_table(&mut frames, rules, st, &names);
        let _ = writeln!(frames, "<pre class=\"events\">{}</pre>\n</div>\n</section>", esc(&log));
    }

    // Header: provenance, players, end and final standings.
    let o = &r.outcome;
    let mut players = String::new();
    for (p, n) in names.iter().enumerate() {
        let _ = write!(
            players,
            "<li><span class=\"sw\" style=\"background:{}\"></span><b>{}</b> plays <i>{}</i></li>",
            hex_color(player_color(p)),
            esc(n),
            esc(&r.strategies[p])
        );
    }
    let mut fin = String::from(
        "<table class=\"final\"><thead><tr><th>rank</th><th>player</th><th>size</th><th>hexes</th><th>cities</th><th>castles</th></tr></thead><tbody>",
    );
    for s in &o.standings {
        let _ = write!(
            fin,
            "<tr><td>{}{}</td><td><span class=\"sw\" style=\"background:{}\"></span>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.rank,
            if s.tie { " (tie, broken by die)" } else { "" },
            hex_color(player_color(s.player as usize)),
            esc(lognames.player(s.player)),
            s.size.size,
            s.size.hexes,
            s.size.cities,
            s.size.castles
        );
    }
    fin.push_str("</tbody></table>");
    // The page's answer: who won, by how much, and how it ended.
    let answer = match (o.standings.first(), o.standings.get(1)) {
        (Some(w), second) => format!(
            "{} ({}) wins with an empire of size {}{} after {} season(s); the campaign ended: {}.",
            lognames.player(w.player),
            r.strategies.get(w.player as usize).map_or("", String::as_str),
            w.size.size,
            second.map_or(String::new(), |s| if s.size.size == w.size.size {
                format!(
                    ", tied on size with {} (the tie broken by the rules' tie-breaks, G-02)",
                    lognames.player(s.player)
                )
            } else {
                format!(
                    ", {} ahead of {} ({})",
                    w.size.size.saturating_sub(s.size.size),
                    lognames.player(s.player),
                    s.size.size
                )
            }),
            o.seasons,
            reason_text(o.reason)
        ),
        _ => format!("No standings: the campaign ended: {}.", reason_text(o.reason)),
    };
    let ground_body = svg_body(&ground)?;
    let coords_body = svg_body(&coords)?;
    let html = format!(
        r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Replay: {title}, seed {master}, campaign {campaign}</title>
<style>
body {{ font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0 auto; padding: 0 1.2em 2em; max-width: 1400px; color: #222; }}
header {{ display: flex; flex-wrap: wrap; gap: 0.5em 2.5em; align-items: flex-start; }}
h1 {{ font-size: 1.45em; margin: 0.7em 0 0.3em; }} h2 {{ font-size: 1.15em; margin: 0 0 0.4em; }}
.meta {{ margin: 0.2em 0; color: #444; }} .meta code {{ font-size: 0.9em; background: #f3f3f3; padding: 0.1em 0.3em; }}
.answer {{ margin: 0.4em 0; font-size: 1.05em; }}
ul.players {{ list-style: none; padding: 0; margin: 0.4em 0; display: flex; flex-wrap: wrap; gap: 0.3em 1.4em; }}
.sw {{ display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.35em; vertical-align: -0.1em; border: 1px solid #0006; }}
table {{ border-collapse: collapse; font-size: 0.85em; }}
th, td {{ border: 1px solid #ccc; padding: 0.15em 0.5em; text-align: right; }} td {{ white-space: nowrap; }}
th:first-child, td:first-child, table.final td:nth-child(2) {{ text-align: left; }}
table.final {{ margin-top: 0.8em; }}
#controls {{ position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid #ccc; padding: 0.55em 0; margin: 0.6em 0 0.8em; display: flex; align-items: center; gap: 0.7em; }}
#controls input {{ flex: 1; }} #controls button {{ font-size: 1em; min-width: 2.4em; }}
#label {{ font-weight: bold; min-width: 11em; }} .hint {{ color: #666; font-size: 0.85em; }}
.frame {{ display: grid; grid-template-columns: minmax(0, {map_max}px) minmax(34em, 1fr); gap: 1.2em; align-items: start; }}
.side {{ min-width: 0; overflow-x: auto; }} .side table {{ font-size: 0.8em; }}
.frame[hidden] {{ display: none; }}
.map svg {{ width: 100%; height: auto; display: block; }}
.legend {{ font-size: 0.85em; color: #444; margin: 0.3em 0 0; }}
pre.events {{ background: #f6f6f6; padding: 0.6em 0.8em; font-size: 0.8em; white-space: pre-wrap; max-height: 72vh; overflow-y: auto; margin: 0.7em 0 0; }}
#chart {{ margin-top: 1.2em; max-width: 800px; cursor: pointer; }} #chart svg {{ width: 100%; height: auto; display: block; }}
@media (max-width: 900px) {{ .frame {{ grid-template-columns: 1fr; }} }}
</style>
</head>
<body data-frames="pending">
<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs><g id="ground">{ground_body}</g><g id="coords">{coords_body}</g></defs></svg>
<header>
<div>
<h1>Replay: {title}</h1>
<p class="answer">{answer}</p>
<p class="meta">master seed <b>{master}</b>, campaign <b>{campaign}</b> &middot; {seasons} season(s) &middot; ended: {reason}</p>
<p class="meta">replay it with <code>{command}</code></p>
<ul class="players">{players}</ul>
</div>
{fin}
</header>
<nav id="controls">
<button id="prev" type="button" title="previous season (left arrow)">&#9664;</button>
<input id="slider" type="range" min="0" max="{last}" step="1" value="0" aria-label="season">
<button id="next" type="button" title="next season (right arrow)">&#9654;</button>
<output id="label">Start (season 0 of {last})</output>
<span class="hint">&larr; &rarr; step, Home / End jump</span>
</nav>
<main>
{frames}<p class="legend">Each player's hexes are bordered in its colour. {marks}. The small numbers are hexes' (col,row), as the events name them. Terrain: {terrains}</p>
<div id="chart">{chart}</div>
</main>
<script>
(function () {{
  var frames = document.querySelectorAll("section.frame");
  var slider = document.getElementById("slider"), label = document.getElementById("label");
  var now = document.getElementById("now"), n = frames.length - 1, cur = 0;
  function show(i) {{
    i = Math.max(0, Math.min(n, i));
    frames[cur].hidden = true;
    frames[i].hidden = false;
    cur = i;
    slider.value = i;
    label.textContent = i === 0 ? "Start (season 0 of " + n + ")" : "Season " + i + " of " + n;
    var x = frames[i].getAttribute("data-x");
    now.setAttribute("x1", x);
    now.setAttribute("x2", x);
  }}
  slider.addEventListener("input", function () {{ show(+slider.value); }});
  document.getElementById("prev").addEventListener("click", function () {{ show(cur - 1); }});
  document.getElementById("next").addEventListener("click", function () {{ show(cur + 1); }});
  document.addEventListener("keydown", function (e) {{
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    var to = e.key === "ArrowLeft" ? cur - 1 : e.key === "ArrowRight" ? cur + 1 : e.key === "Home" ? 0 : e.key === "End" ? n : null;
    if (to === null) return;
    e.preventDefault();
    show(to);
  }});
  document.getElementById("chart").addEventListener("click", function (e) {{
    var svg = this.querySelector("svg"), r = svg.getBoundingClientRect(), best = 0;
    var x = (e.clientX - r.left) * svg.viewBox.baseVal.width / r.width;
    for (var i = 1; i <= n; i++) {{
      if (Math.abs(frames[i].getAttribute("data-x") - x) < Math.abs(frames[best].getAttribute("data-x") - x)) best = i;
    }}
    show(best);
  }});
  var ok = 0;
  for (var i = 0; i < frames.length; i++) {{
    if (+frames[i].getAttribute("data-season") === i && frames[i].querySelector(".map svg")) ok++;
  }}
  show(0);
  document.body.setAttribute("data-frames", ok === frames.length ? "ok " + ok : "bad " + ok + " of " + frames.length);
}})();
</script>
</body>
</html>
"##,
        title = esc(&sc.name),
        answer = esc(&answer),
        terrains = crate::map::Terrain::ALL
            .iter()
            .map(|&t| format!(
                "<span class=\"sw\" style=\"background:{}\"></span>{}",
                hex_color(map_draw::terrain_color(t)),
                t.name()
            ))
            .collect::<Vec<_>>()
            .join(" "),
        master = info.master,
        campaign = info.campaign,
        seasons = o.seasons,
        reason = esc(reason_text(o.reason)),
        command = esc(info.command),
        marks = esc(map_draw::MARKS),
    );
    Ok(html)
}

/// Write `dir/index.html` atomically, making `dir` if needed; returns its path.
pub fn write(dir: &Path, html: &str) -> Result<PathBuf, Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::input(format!("{}: not a directory", dir.display())));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("{}: cannot make the directory: {e}", dir.display())))?;
    let path = dir.join("index.html");
    write_file(&path, html.as_bytes())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    /// Players of equal size stay visible: their points are drawn apart
    /// (by a fraction of a hex), where one would hide the other.
    #[test]
    fn tied_players_are_drawn_apart() {
        let names = vec!["a".to_string(), "b".to_string()];
        let (svg, xs) = super::size_chart(&names, &[vec![3, 4, 6], vec![3, 4, 6]]).unwrap();
        assert_eq!(xs.len(), 3);
        let mut points: Vec<(String, String)> = Vec::new();
        let mut rest = svg.as_str();
        while let Some(i) = rest.find("<circle ") {
            rest = &rest[i..];
            let tag = &rest[..rest.find('>').unwrap()];
            let get =
                |k: &str| tag.split(&format!(" {k}=\"")).nth(1).and_then(|v| v.split('"').next()).unwrap().to_string();
            points.push((get("cx"), get("cy")));
            rest = &rest[tag.len()..];
        }
        assert_eq!(points.len(), 6, "{svg}");
        let (a, b) = points.split_at(3);
        for (p, q) in a.iter().zip(b) {
            assert_eq!(p.0, q.0, "same season");
            assert_ne!(p.1, q.1, "a tie drawn on one spot");
        }
    }
}
