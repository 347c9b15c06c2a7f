//! `play --html DIR`: the replay page. The seasons are the ones
//! `sim::Campaign` plays, every season has its frame with its events,
//! the last frame draws the final state, and nothing is loaded from outside.

use crate::play_cli::bin;
use empires::report::html::esc;
use empires::report::map_draw::player_color;
use empires::report::replay_page::{self, PageInfo};
use empires::report::{Names, text};
use empires::rules::Event;
use empires::rules::state::State;
use empires::scenario::{BuildingKind, DEFAULT_TOML, Scenario, Source, load_str};
use empires::sim;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-replay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn scenario(file: &str) -> Scenario {
    if file == "default.toml" {
        return load_str(DEFAULT_TOML, &Source::embedded("default.toml")).unwrap();
    }
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(path)).unwrap()
}

#[test]
fn seasons_kept_one_by_one_are_the_game_the_campaign_builder_plays() {
    for file in ["default.toml", "duel.toml", "archipelago.toml", "straits.toml"] {
        let sc = scenario(file);
        for (master, index) in [(1, 0), (7, 0), (7, 3), (42, 11), (1234, 5)] {
            let mut ev = Vec::new();
            let r = replay_page::play(&sc, master, index, false, &mut ev).unwrap();
            let f = sim::Campaign::numbered(&sc, master, index).log(Vec::<Event>::new()).play().unwrap();
            let ev2 = &f.log;
            assert_eq!(r.map, *f.map, "{file} {master}/{index}");
            assert_eq!(r.final_state(), &f.state, "{file} {master}/{index}");
            assert_eq!(r.outcome, f.outcome, "{file} {master}/{index}");
            assert_eq!(&ev, ev2, "{file} {master}/{index}");
            // The start, then one state per season, each after its season.
            assert_eq!(r.states.len() as u32, f.outcome.seasons + 1);
            let rules = empires::rules::Rules::new(&sc, &r.map);
            assert_eq!(r.states[0], empires::rules::setup::initial_state(rules));
            for (k, st) in r.states.iter().enumerate().skip(1) {
                let next = if k as u32 == f.outcome.seasons { k as u32 } else { k as u32 + 1 };
                assert_eq!(st.season, next, "state {k} is the one after season {k}");
            }
            let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
            assert_eq!(r.strategies, names);
        }
    }
}

#[test]
fn rotated_seats_replay_the_rotated_campaign() {
    let sc = scenario("default.toml");
    for index in 0..6u64 {
        let mut ev = Vec::new();
        let r = replay_page::play(&sc, 7, index, true, &mut ev).unwrap();
        let names = sim::runner::seat_strategies(&sc, index, true);
        let cs = empires::seed::campaign_seed(7, index);
        let map = empires::rules::setup::make_map(&sc, cs).unwrap();
        let mut ev2: Vec<Event> = Vec::new();
        let sim::Played { state, outcome, .. } =
            sim::Campaign::new(&sc, cs).on(&map).seats(&names).log(&mut ev2).play();
        assert_eq!((r.final_state(), &r.outcome, &ev), (&state, &outcome, &ev2), "campaign {index}");
        assert_eq!(r.strategies, names);
    }
}

/// The page's frames, in order: the text of each `<section class="frame"`.
fn frames(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("<section class=\"frame\"") {
        let end = rest[i..].find("</section>").expect("frame closed") + i;
        out.push(&rest[i..end]);
        rest = &rest[end..];
    }
    out
}

/// Count the non-overlapping occurrences of `pat`.
fn count(s: &str, pat: &str) -> usize {
    s.matches(pat).count()
}

fn rgb(p: usize) -> String {
    let c = player_color(p);
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// `(fill colour, units)` of every army circle drawn in a frame: the filled
/// circle, its outline, then the units as text.
fn drawn_armies(frame: &str) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    let mut rest = frame;
    while let Some(i) = rest.find(" r=\"9\" opacity=\"1\" fill=\"#") {
        let fill = rest[i + 25..i + 32].to_string();
        let t = rest[i..].find("<text").unwrap() + i;
        let open = rest[t..].find('>').unwrap() + t + 1;
        let close = rest[open..].find("</text>").unwrap() + open;
        out.push((fill, rest[open..close].trim().parse().unwrap()));
        rest = &rest[close..];
    }
    out.sort();
    out
}

/// `(fill colour, corners)` of every filled polygon in a frame's pieces:
/// ships (3 corners) and spies (4).
fn drawn_polygons(frame: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for part in frame.split("<polygon ").skip(1) {
        let f = part.find("fill=\"").unwrap() + 6;
        let p = part.find("points=\"").unwrap() + 8;
        let end = part[p..].find('"').unwrap() + p;
        out.push((part[f..f + 7].to_string(), part[p..end].split_whitespace().count()));
    }
    out.sort();
    out
}

/// The frame's drawing checked against a state: borders, armies, ships,
/// spies and buildings, exactly.
fn check_frame_draws(frame: &str, st: &State, players: usize, what: &str) {
    let map = &frame[frame.find("<div class=\"map\">").unwrap()..frame.find("<div class=\"side\">").unwrap()];
    let mut borders = 0;
    for p in 0..players {
        let n = count(map, &format!("<polyline fill=\"none\" opacity=\"1\" stroke=\"{}\" stroke-width=\"4\"", rgb(p)));
        assert_eq!(n as u32, st.hexes_of(p as u8), "{what}: borders of player {p}");
        borders += n;
    }
    assert_eq!(count(map, "stroke-width=\"4\""), borders, "{what}: no other thick line");
    let mut armies: Vec<(String, i32)> =
        st.armies.iter().filter(|a| a.alive).map(|a| (rgb(a.owner as usize), a.units)).collect();
    armies.sort();
    assert_eq!(drawn_armies(map), armies, "{what}: armies");
    let mut polys: Vec<(String, usize)> =
        st.ships.iter().filter(|s| s.alive).map(|s| (rgb(s.owner as usize), 3)).collect();
    polys.extend(st.spies.iter().filter(|s| s.alive).map(|s| (rgb(s.owner as usize), 4)));
    polys.sort();
    assert_eq!(drawn_polygons(map), polys, "{what}: ships and spies");
    for (kind, mark) in [
        (BuildingKind::Castle, "C"),
        (BuildingKind::City, "★"),
        (BuildingKind::Mine, "M"),
        (BuildingKind::Port, "⚓"),
        (BuildingKind::Tower, "T"),
        (BuildingKind::Bridge, "B"),
    ] {
        let n = st.hexes.iter().filter(|h| h.main == Some(kind) || h.extra == Some(kind)).count();
        let marks = map.split("</text>").filter(|t| t.rsplit_once('>').is_some_and(|(_, x)| x.trim() == mark)).count();
        assert_eq!(marks, n, "{what}: {kind:?} marks");
    }
    assert_eq!(count(map, "<use href=\"#ground\"/>"), 1, "{what}: drawn over the ground");
    assert_eq!(count(map, "<use href=\"#coords\"/>"), 1, "{what}: under the coordinates");
}

/// The events of each season of a log, split here independently of the
/// page: a season runs from its `SeasonStart` to the next one.
fn seasons_of(events: &[Event]) -> Vec<Vec<Event>> {
    let mut out: Vec<Vec<Event>> = vec![Vec::new()];
    for e in events {
        if matches!(e, Event::SeasonStart { .. }) {
            out.push(Vec::new());
        }
        out.last_mut().unwrap().push(*e);
    }
    out
}

#[test]
fn play_html_writes_one_frame_per_season_with_its_events_and_the_final_state() {
    let dir = tmp("seed7");
    let o = bin().args(["play", "--seed", "7", "--html"]).arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The log is printed as without --html.
    let plain = bin().args(["play", "--seed", "7"]).output().unwrap();
    assert_eq!(o.stdout, plain.stdout);
    let path = dir.join("index.html");
    let html = std::fs::read_to_string(&path).unwrap();
    assert!(html.len() < 3_000_000, "page of {} bytes", html.len());
    // No temporary file is left behind.
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names, vec!["index.html".to_string()]);

    let sc = scenario("default.toml");
    let fin = sim::Campaign::numbered(&sc, 7, 0).log(Vec::<Event>::new()).play().unwrap();
    let events = &fin.log;
    let seasons = fin.outcome.seasons as usize;
    let fs = frames(&html);
    assert_eq!(fs.len(), seasons + 1, "the start and one frame per season");
    assert_eq!(count(&html, "<section class=\"frame\""), seasons + 1);
    assert_eq!(count(&html, "data-frames=\"pending\""), 1);
    assert!(html.contains(&format!("max=\"{seasons}\"")), "the slider spans the seasons");

    // Each season's events, as `play` prints them, in its own frame only.
    let n = Names::new(&sc, &fin.map);
    let per = seasons_of(events);
    assert_eq!(per.len(), seasons + 1);
    assert!(per[0].is_empty(), "nothing happens before season 1");
    for (k, f) in fs.iter().enumerate() {
        assert!(f.starts_with(&format!("<section class=\"frame\" id=\"season-{k}\" data-season=\"{k}\"")));
        assert_eq!(f.contains(" hidden>"), k != 0, "only the start shows before the script runs");
        if k == 0 {
            assert!(f.contains("The starting position."));
            continue;
        }
        let log = text::render(&n, &per[k]);
        assert!(f.contains(&esc(log.trim_start_matches('\n'))), "season {k}'s events in frame {k}");
        assert!(f.contains(&format!("=== Season {k} ===")));
        for other in 1..=seasons {
            assert_eq!(f.contains(&format!("=== Season {other} ===")), other == k, "frame {k} has season {other}?");
        }
    }
    assert!(fs[seasons].contains("=== The campaign ends after season"));

    // Self-contained: nothing to load, from anywhere.
    for bad in ["http://", "https://", "src=", "url(", "@import", "<link", "<iframe", "<img"] {
        assert!(!html.contains(bad), "the page contains {bad:?}");
    }
    let hrefs: Vec<&str> = html.split("href=\"").skip(1).collect();
    assert_eq!(hrefs.len(), 2 * (seasons + 1), "two references per frame, to the terrain and the coordinates");
    assert!(hrefs.iter().all(|h| h.starts_with("#ground\"") || h.starts_with("#coords\"")));
    assert_eq!(count(&html, "id=\"ground\""), 1);
    assert_eq!(count(&html, "id=\"coords\""), 1);

    // The start and the end are drawn exactly.
    let rules = empires::rules::Rules::new(&sc, &fin.map);
    check_frame_draws(fs[0], &empires::rules::setup::initial_state(rules), sc.players.len(), "start");
    check_frame_draws(fs[seasons], &fin.state, sc.players.len(), "final frame");

    // Header: scenario, seed, campaign, strategies, end, final standings.
    assert!(html.contains(&format!("<h1>Replay: {}</h1>", esc(&sc.name))));
    assert!(html.contains("master seed <b>7</b>, campaign <b>0</b>"));
    assert!(html.contains("<code>empires play --seed 7 --campaign 0 --html "));
    for p in &sc.players {
        assert!(html.contains(&format!("<b>{}</b> plays <i>{}</i>", esc(&p.name), esc(&p.strategy))));
    }
    for s in &fin.outcome.standings {
        let row = format!(
            "<tr><td>{}{}</td><td><span class=\"sw\" style=\"background:{}\"></span>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.rank,
            if s.tie { " (tie, broken by die)" } else { "" },
            rgb(s.player as usize),
            esc(n.player(s.player)),
            s.size.size,
            s.size.hexes,
            s.size.cities,
            s.size.castles
        );
        assert!(html.contains(&row), "final standing {row}");
    }
    // The chart: one line per player and a marker for the season shown.
    assert_eq!(count(&html, "<line id=\"now\""), 1);
    for p in 0..sc.players.len() {
        assert!(html.contains(&format!("stroke=\"{}\" stroke-width=\"2\"", rgb(p))), "player {p}'s size line");
    }
}

#[test]
fn every_frame_of_a_naval_campaign_draws_its_state() {
    // The archipelago has ships; every frame is checked against its state.
    let sc = scenario("archipelago.toml");
    let mut events = Vec::new();
    let r = replay_page::play(&sc, 3, 0, false, &mut events).unwrap();
    let info = PageInfo { master: 3, campaign: 0, command: "empires play --seed 3 --html out" };
    let html = replay_page::render(&sc, &r, &events, &info).unwrap();
    let fs = frames(&html);
    assert_eq!(fs.len(), r.states.len());
    for (k, st) in r.states.iter().enumerate() {
        check_frame_draws(fs[k], st, sc.players.len(), &format!("frame {k}"));
    }
    assert!(r.states.iter().any(|s| s.ships.iter().any(|s| s.alive)), "the campaign has ships to draw");
    // A log that is not this campaign's is refused, not drawn wrong.
    assert!(replay_page::render(&sc, &r, &events[..events.len() / 2], &info).is_err());
}

#[test]
fn play_html_replays_a_rotated_campaign_and_names_its_seats() {
    let dir = tmp("rotated");
    let o =
        bin().args(["play", "--seed", "7", "--campaign", "2", "--rotate-seats", "--html"]).arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let plain = bin().args(["play", "--seed", "7", "--campaign", "2", "--rotate-seats"]).output().unwrap();
    assert_eq!(o.stdout, plain.stdout);
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let sc = scenario("default.toml");
    for (p, s) in sc.players.iter().zip(sim::runner::seat_strategies(&sc, 2, true)) {
        assert!(html.contains(&format!("<b>{}</b> plays <i>{}</i>", esc(&p.name), esc(s))));
    }
    assert!(html.contains("--campaign 2 --rotate-seats --html "));
}

#[test]
fn play_html_refuses_a_file_and_leaves_it_alone() {
    let dir = tmp("file");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("not-a-dir");
    std::fs::write(&f, "keep me").unwrap();
    let o = bin().args(["play", "--seed", "7", "--html"]).arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim(), format!("--html {}: not a directory", f.display()));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "keep me");
    // A directory under a file cannot be made: an IO error (exit 3, as for
    // every output that cannot be written), not a panic.
    let o = bin().args(["play", "--seed", "7", "--html"]).arg(f.join("sub")).output().unwrap();
    assert_eq!(o.status.code(), Some(3));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("--html ") && err.contains("cannot make the directory"), "{err}");
    assert!(!err.contains("panicked"));
}
