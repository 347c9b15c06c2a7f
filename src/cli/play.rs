//! `empires play`: one campaign, logged season by season.

use super::args::{ScenarioArgs, SeedArg};
use super::{CliError, SeatArgs};
use crate::error::Error;
use crate::report::{Names, log, replay_page, text};
use crate::rules::Event;
use crate::sim;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub players: super::args::PlayersArg,
    #[command(flatten)]
    pub master: SeedArg,
    /// Campaign index under the master seed (replays campaign I of a run).
    #[arg(long, default_value_t = 0)]
    pub campaign: u64,
    /// Print the events as JSON lines instead of text.
    #[arg(long)]
    pub json: bool,
    /// How strategies take the seats, as in `run` (the campaign index picks
    /// which strategy plays which seat when they rotate), so campaign I of
    /// a run replays with the run's own seat flag.
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Print the JSON Schema of one `--json` line (docs/log.schema.json) and exit.
    #[arg(long)]
    pub log_schema: bool,
    /// Also draw the final map to FILE.svg or FILE.png.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub map: Option<PathBuf>,
    /// Also write DIR/index.html, a self-contained page that replays the
    /// campaign season by season (map, events, standings).
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
}

/// A word of a shell command, quoted when it needs to be.
fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The `empires play` command that replays this page's campaign.
fn replay_command(a: &PlayArgs, dir: &Path) -> String {
    let mut w = vec!["empires".to_string(), "play".into()];
    if let Some(f) = &a.scenario.scenario {
        w.extend(["--scenario".into(), shell_word(&f.display().to_string())]);
    }
    w.extend(["--seed".into(), a.master.seed.to_string(), "--campaign".into(), a.campaign.to_string()]);
    for kv in a.scenario.set.iter() {
        w.extend(["--set".into(), shell_word(kv)]);
    }
    if let Some(p) = &a.players.players {
        w.extend(["--players".into(), shell_word(p)]);
    }
    if a.seats.rotate_seats {
        w.push("--rotate-seats".into());
    }
    if a.seats.fixed_seats {
        w.push("--fixed-seats".into());
    }
    w.extend(["--html".into(), shell_word(&dir.display().to_string())]);
    w.join(" ")
}

pub fn run(a: PlayArgs) -> Result<(), CliError> {
    if a.log_schema {
        let _ = std::io::stdout().lock().write_all(log::schema_json().as_bytes());
        return Ok(());
    }
    if let Some(m) = &a.map
        && !matches!(m.extension().and_then(|x| x.to_str()), Some("svg" | "png" | "SVG" | "PNG"))
    {
        return Err(CliError::input(format!("--map {}: give a file ending in .svg or .png", m.display())));
    }
    if let Some(d) = &a.html
        && d.exists()
        && !d.is_dir()
    {
        return Err(CliError::input(format!("--html {}: not a directory", d.display())));
    }
    let sc = a.players.seat(a.scenario.load()?)?;
    let rotate = sim::runner::seating(&[&sc], a.seats.flag()).rotate();
    let mut events: Vec<Event> = Vec::new();
    let seat_strategy: Vec<String> =
        sim::runner::seat_strategies(&sc, a.campaign, rotate).into_iter().map(String::from).collect();
    let setup = |e: crate::rules::setup::SetupError| CliError::input(format!("cannot set up the campaign: {e}"));
    let mut replay = None;
    let (map, state) = if a.html.is_some() {
        // Season by season, the same game as below, keeping every season.
        let r = replay_page::play(&sc, a.master.seed, a.campaign, rotate, &mut events).map_err(setup)?;
        let fin = (r.map.clone(), r.final_state().clone());
        replay = Some(r);
        fin
    } else {
        let names = sim::runner::seat_strategies(&sc, a.campaign, rotate);
        let p = sim::Campaign::numbered(&sc, a.master.seed, a.campaign)
            .seats(&names)
            .log(&mut events)
            .play()
            .map_err(setup)?;
        (p.map.into_owned(), p.state)
    };
    let names = Names::new(&sc, &map);
    let out = if a.json {
        let start = crate::rules::setup::initial_state(crate::rules::Rules::new(&sc, &map));
        let played = log::Played {
            sc: &sc,
            map: &map,
            start: &start,
            master_seed: a.master.seed,
            campaign: a.campaign,
            campaign_seed: crate::seed::campaign_seed(a.master.seed, a.campaign),
            strategies: &seat_strategy,
        };
        log::render(&played, &events)
    } else {
        let mut s = format!(
            "empires play: scenario {:?}, seed {}, campaign {}\nplayers: {}\nmap ({} land hexes; capitals at {}):\n",
            sc.name,
            a.master.seed,
            a.campaign,
            sc.players
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{} ({})", p.name, seat_strategy[i]))
                .collect::<Vec<_>>()
                .join(", "),
            map.land_count,
            map.placements.capitals.iter().map(|&h| names.hex(h)).collect::<Vec<_>>().join(", ")
        );
        for row in crate::map::drawn::render(&map) {
            s.push_str("  ");
            s.push_str(&row);
            s.push('\n');
        }
        s.push_str(&text::render(&names, &events));
        s
    };
    if let Some(m) = &a.map {
        let names: Vec<String> = sc.players.iter().map(|p| p.name.clone()).collect();
        crate::report::map_draw::write(&map, &state, &names, m)
            .map_err(|e| CliError::io(format!("--map {}: cannot write the map: {e}", m.display())))?;
        // Standard error: standard output is the log (`--json` stays JSON).
        eprintln!("wrote the map to {}", m.display());
    }
    if let (Some(dir), Some(r)) = (&a.html, &replay) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("--html {}: cannot make the directory: {e}", dir.display())))?;
        let command = replay_command(&a, dir);
        let info = replay_page::PageInfo { master: a.master.seed, campaign: a.campaign, command: &command };
        let html = replay_page::render(&sc, r, &events, &info).map_err(|e| e.at("--html"))?;
        replay_page::write(dir, &html).map_err(|e| Error::new(e.class(), format!("--html {e}")))?;
        eprintln!("wrote the replay page to {}; open it in a browser", dir.join("index.html").display());
    }
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = stdout.write_all(out.as_bytes());
    Ok(())
}
