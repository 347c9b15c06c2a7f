//! The run's dataset, written with polars: `players.parquet`, and with
//! `--detail` `seasons.parquet` and `combats.parquet` (each with CSV on
//! request), one chunk of campaigns at a time so memory stays flat.

use super::files::Pending;
use crate::error::Error;
use crate::rules::{NOBODY, ScoreParts, SpyKind};
use crate::sim::Detail;
use crate::sim::record::{CombatRow, PlayerRecord, SeasonRecord};
use crate::sim::runner::Chunk;
use polars::prelude::*;
use std::fs::File;
use std::path::Path;

/// The exact columns of `players.parquet`, in order.
pub const PLAYER_COLUMNS: [&str; 42] = [
    "campaign",
    "seed",
    "seat",
    "player",
    "strategy",
    "team",
    "winner",
    "tie",
    "rank",
    "empire_size",
    "hexes",
    "castles",
    "cities",
    "mines",
    "ports",
    "towers",
    "units",
    "ships",
    "spies",
    "siege_engines",
    "gold",
    "gold_mines",
    "gold_pillage",
    "gold_loot",
    "gold_spent",
    "ep_earned",
    "ep_capture",
    "ep_conquer",
    "ep_build",
    "ep_pillage",
    "ep_lost",
    "battles_won",
    "battles_drawn",
    "battles_lost",
    "sieges",
    "cities_taken",
    "naval_won",
    "naval_lost",
    "spy_success",
    "spy_lost",
    "seasons",
    "end_reason",
];

/// Rows as a DataFrame with the columns of `PLAYER_COLUMNS`.
pub fn players_frame(rows: &[PlayerRecord]) -> PolarsResult<DataFrame> {
    macro_rules! c {
        ($name:literal, $f:expr) => {
            Column::new($name.into(), rows.iter().map($f).collect::<Vec<_>>())
        };
    }
    let cols = vec![
        c!("campaign", |r| r.campaign),
        c!("seed", |r| r.seed),
        c!("seat", |r| r.seat),
        c!("player", |r| r.player.as_str()),
        c!("strategy", |r| r.strategy.as_str()),
        c!("team", |r| r.team),
        c!("winner", |r| r.winner),
        c!("tie", |r| r.tie),
        c!("rank", |r| r.rank),
        c!("empire_size", |r| r.empire_size),
        c!("hexes", |r| r.hexes),
        c!("castles", |r| r.castles),
        c!("cities", |r| r.cities),
        c!("mines", |r| r.mines),
        c!("ports", |r| r.ports),
        c!("towers", |r| r.towers),
        c!("units", |r| r.units),
        c!("ships", |r| r.ships),
        c!("spies", |r| r.spies),
        c!("siege_engines", |r| r.siege_engines),
        c!("gold", |r| r.gold),
        c!("gold_mines", |r| r.tally.gold_mines),
        c!("gold_pillage", |r| r.tally.gold_pillage),
        c!("gold_loot", |r| r.tally.gold_loot),
        c!("gold_spent", |r| r.tally.gold_spent),
        c!("ep_earned", |r| r.tally.ep_earned),
        c!("ep_capture", |r| r.tally.ep_capture),
        c!("ep_conquer", |r| r.tally.ep_conquer),
        c!("ep_build", |r| r.tally.ep_build),
        c!("ep_pillage", |r| r.tally.ep_pillage),
        c!("ep_lost", |r| r.tally.ep_lost),
        c!("battles_won", |r| r.tally.battles_won),
        c!("battles_drawn", |r| r.tally.battles_drawn),
        c!("battles_lost", |r| r.tally.battles_lost),
        c!("sieges", |r| r.tally.sieges),
        c!("cities_taken", |r| r.tally.cities_taken),
        c!("naval_won", |r| r.tally.naval_won),
        c!("naval_lost", |r| r.tally.naval_lost),
        c!("spy_success", |r| r.tally.spy_success),
        c!("spy_lost", |r| r.tally.spy_lost),
        c!("seasons", |r| r.seasons),
        c!("end_reason", |r| r.end_reason),
    ];
    DataFrame::new(rows.len(), cols)
}

/// A numeric column of `players.parquet` for one row, by its name (the
/// `check` gate measures any of them). `None` for the text columns.
pub fn numeric(r: &PlayerRecord, column: &str) -> Option<f64> {
    let t = &r.tally;
    Some(match column {
        "campaign" => r.campaign as f64,
        "seed" => r.seed as f64,
        "seat" => r.seat as f64,
        "team" => r.team? as f64,
        "winner" => r.winner as u8 as f64,
        "tie" => r.tie as u8 as f64,
        "rank" => r.rank as f64,
        "empire_size" => r.empire_size as f64,
        "hexes" => r.hexes as f64,
        "castles" => r.castles as f64,
        "cities" => r.cities as f64,
        "mines" => r.mines as f64,
        "ports" => r.ports as f64,
        "towers" => r.towers as f64,
        "units" => r.units as f64,
        "ships" => r.ships as f64,
        "spies" => r.spies as f64,
        "siege_engines" => r.siege_engines as f64,
        "gold" => r.gold as f64,
        "gold_mines" => t.gold_mines as f64,
        "gold_pillage" => t.gold_pillage as f64,
        "gold_loot" => t.gold_loot as f64,
        "gold_spent" => t.gold_spent as f64,
        "ep_earned" => t.ep_earned as f64,
        "ep_capture" => t.ep_capture as f64,
        "ep_conquer" => t.ep_conquer as f64,
        "ep_build" => t.ep_build as f64,
        "ep_pillage" => t.ep_pillage as f64,
        "ep_lost" => t.ep_lost as f64,
        "battles_won" => t.battles_won as f64,
        "battles_drawn" => t.battles_drawn as f64,
        "battles_lost" => t.battles_lost as f64,
        "sieges" => t.sieges as f64,
        "cities_taken" => t.cities_taken as f64,
        "naval_won" => t.naval_won as f64,
        "naval_lost" => t.naval_lost as f64,
        "spy_success" => t.spy_success as f64,
        "spy_lost" => t.spy_lost as f64,
        "seasons" => r.seasons as f64,
        _ => return None,
    })
}

/// The columns `numeric` reads: every column but the text ones.
pub fn numeric_columns() -> Vec<&'static str> {
    PLAYER_COLUMNS.iter().copied().filter(|c| !matches!(*c, "player" | "strategy" | "end_reason")).collect()
}

/// The columns of `seasons.parquet` (`--detail seasons`), in order.
pub const SEASON_COLUMNS: [&str; 13] = [
    "campaign",
    "season",
    "seat",
    "strategy",
    "hexes",
    "empire_size",
    "gold",
    "gold_mines",
    "gold_pillage",
    "gold_loot",
    "ep_earned",
    "units",
    "mines",
];

pub fn seasons_frame(rows: &[SeasonRecord]) -> PolarsResult<DataFrame> {
    macro_rules! c {
        ($name:literal, $f:expr) => {
            Column::new($name.into(), rows.iter().map($f).collect::<Vec<_>>())
        };
    }
    let cols = vec![
        c!("campaign", |r| r.campaign),
        c!("season", |r| r.season),
        c!("seat", |r| r.seat),
        c!("strategy", |r| r.strategy.as_str()),
        c!("hexes", |r| r.hexes),
        c!("empire_size", |r| r.empire_size),
        c!("gold", |r| r.gold),
        c!("gold_mines", |r| r.gold_mines),
        c!("gold_pillage", |r| r.gold_pillage),
        c!("gold_loot", |r| r.gold_loot),
        c!("ep_earned", |r| r.ep_earned),
        c!("units", |r| r.units),
        c!("mines", |r| r.mines),
    ];
    DataFrame::new(rows.len(), cols)
}

/// The score parts of each side in `combats.parquet`, in column order
/// (`a_units`, `a_xp`, ..., then `d_units`, ...).
pub const SCORE_PARTS: [&str; 11] =
    ["units", "xp", "bid", "order", "defence", "engines", "level", "stability", "strength", "port", "die"];

/// The columns of `combats.parquet` (`--detail combats`), in order.
pub fn combat_columns() -> Vec<String> {
    let mut c: Vec<String> =
        ["campaign", "season", "kind", "attacker", "defender", "attacker_strategy", "defender_strategy"]
            .map(String::from)
            .to_vec();
    for side in ["a", "d"] {
        c.extend(SCORE_PARTS.iter().map(|p| format!("{side}_{p}")));
        c.push(format!("{side}_total"));
    }
    c.extend(
        ["gap", "row", "a_loss", "d_loss", "a_destroyed", "d_destroyed", "a_result", "d_result", "spy_kind", "success"]
            .map(String::from),
    );
    c
}

fn parts(p: &ScoreParts) -> [i32; 11] {
    [p.units, p.xp, p.bid, p.order, p.defence, p.engines, p.level, p.stability, p.strength, p.port, p.die]
}

pub fn combats_frame(rows: &[CombatRow]) -> PolarsResult<DataFrame> {
    macro_rules! c {
        ($name:expr, $f:expr) => {
            Column::new($name.into(), rows.iter().map($f).collect::<Vec<_>>())
        };
    }
    // The defender of a neutral city has no seat: null.
    let seat = |p: u8| (p != NOBODY).then_some(p as u32);
    let mut cols = vec![
        c!("campaign", |r| r.campaign),
        c!("season", |r| r.season),
        c!("kind", |r| r.rec.kind.name()),
        c!("attacker", |r| seat(r.rec.attacker)),
        c!("defender", |r| seat(r.rec.defender)),
        c!("attacker_strategy", |r| r.attacker_strategy.as_str()),
        c!("defender_strategy", |r| (!r.defender_strategy.is_empty()).then_some(r.defender_strategy.as_str())),
    ];
    for side in ["a", "d"] {
        let get = |r: &CombatRow| if side == "a" { r.rec.a } else { r.rec.d };
        for (k, name) in SCORE_PARTS.iter().enumerate() {
            cols.push(c!(format!("{side}_{name}"), |r| parts(&get(r))[k]));
        }
        cols.push(c!(format!("{side}_total"), |r| get(r).total()));
    }
    cols.extend([
        c!("gap", |r| r.rec.gap),
        c!("row", |r| r.rec.row as u32 + 1),
        c!("a_loss", |r| r.rec.a_loss),
        c!("d_loss", |r| r.rec.d_loss),
        c!("a_destroyed", |r| r.rec.a_destroyed),
        c!("d_destroyed", |r| r.rec.d_destroyed),
        c!("a_result", |r| r.rec.a_result.map(|x| x.key())),
        c!("d_result", |r| r.rec.d_result.map(|x| x.key())),
        c!("spy_kind", |r| r.rec.spy_kind.map(spy_kind_key)),
        c!("success", |r| r.rec.success),
    ]);
    DataFrame::new(rows.len(), cols)
}

fn spy_kind_key(k: SpyKind) -> &'static str {
    match k {
        SpyKind::Sabotage => "sabotage",
        SpyKind::Destabilize => "destabilize",
        SpyKind::DamageMain => "damage_main",
        SpyKind::DamageExtra => "damage_extra",
        SpyKind::Steal => "steal",
    }
}

/// Streams chunks of a table into `NAME.parquet` (and `NAME.csv`). Both go
/// to temporary names and are renamed into place by `finish`.
pub struct TableWriter {
    parquet: Option<(Pending, File, polars::io::parquet::write::BatchedWriter<File>)>,
    parquet_path: std::path::PathBuf,
    csv: Option<(Pending, File, bool)>,
}

impl TableWriter {
    pub fn create(dir: &Path, name: &str, csv: bool) -> PolarsResult<Self> {
        let csv = if csv {
            let (p, f) = Pending::create(&dir.join(format!("{name}.csv")))?;
            Some((p, f, true))
        } else {
            None
        };
        Ok(TableWriter { parquet: None, parquet_path: dir.join(format!("{name}.parquet")), csv })
    }

    pub fn write(&mut self, mut df: DataFrame) -> PolarsResult<()> {
        if self.parquet.is_none() {
            let (p, f) = Pending::create(&self.parquet_path)?;
            // The writer owns a second handle; ours syncs and publishes the file.
            let w = ParquetWriter::new(f.try_clone()?).batched(df.schema())?;
            self.parquet = Some((p, f, w));
        }
        if let Some((_, _, w)) = &mut self.parquet {
            w.write_batch(&df)?;
        }
        if let Some((_, f, first)) = &mut self.csv {
            CsvWriter::new(&mut *f).include_header(*first).finish(&mut df)?;
            *first = false;
        }
        Ok(())
    }

    /// Close the files and move them into place. `empty` gives the schema of
    /// a table that received no rows.
    pub fn finish(mut self, empty: impl FnOnce() -> PolarsResult<DataFrame>) -> PolarsResult<()> {
        if self.parquet.is_none() {
            self.write(empty()?)?;
        }
        if let Some((p, f, w)) = self.parquet.take() {
            w.finish()?;
            drop(w);
            p.commit(f)?;
        }
        if let Some((p, f, _)) = self.csv.take() {
            p.commit(f)?;
        }
        Ok(())
    }
}

/// Write one whole table as `dir/NAME.parquet` (atomically).
pub fn write_parquet(dir: &Path, name: &str, df: DataFrame) -> PolarsResult<()> {
    let mut w = TableWriter::create(dir, name, false)?;
    w.write(df)?;
    // The frame is written even when empty, so `finish` never needs another.
    w.finish(|| Ok(DataFrame::empty()))
}

/// [`write_parquet`] for the report layer: a failure is an
/// [`Io`](crate::error::Class::Io) error that names the file.
pub fn save_parquet(dir: &Path, name: &str, df: DataFrame) -> Result<(), Error> {
    write_parquet(dir, name, df)
        .map_err(|e| Error::io(format!("{}: cannot write: {e}", dir.join(format!("{name}.parquet")).display())))
}

/// The writers of one run: players always, seasons and combats on request.
pub struct RunWriters {
    players: TableWriter,
    seasons: Option<TableWriter>,
    combats: Option<TableWriter>,
}

impl RunWriters {
    pub fn create(dir: &Path, csv: bool, detail: Detail) -> PolarsResult<Self> {
        Ok(RunWriters {
            players: TableWriter::create(dir, "players", csv)?,
            seasons: detail.seasons.then(|| TableWriter::create(dir, "seasons", csv)).transpose()?,
            combats: detail.combats.then(|| TableWriter::create(dir, "combats", csv)).transpose()?,
        })
    }

    pub fn write(&mut self, chunk: &Chunk) -> PolarsResult<()> {
        self.players.write(players_frame(&chunk.players)?)?;
        if let Some(w) = &mut self.seasons {
            w.write(seasons_frame(&chunk.seasons)?)?;
        }
        if let Some(w) = &mut self.combats {
            w.write(combats_frame(&chunk.combats)?)?;
        }
        Ok(())
    }

    /// Publish every file; returns their names.
    pub fn finish(self, csv: bool) -> PolarsResult<Vec<String>> {
        let mut files = Vec::new();
        let mut done = |w: TableWriter, name: &str, empty: &dyn Fn() -> PolarsResult<DataFrame>| {
            w.finish(empty)?;
            files.push(format!("{name}.parquet"));
            if csv {
                files.push(format!("{name}.csv"));
            }
            PolarsResult::Ok(())
        };
        done(self.players, "players", &|| players_frame(&[]))?;
        if let Some(w) = self.seasons {
            done(w, "seasons", &|| seasons_frame(&[]))?;
        }
        if let Some(w) = self.combats {
            done(w, "combats", &|| combats_frame(&[]))?;
        }
        Ok(files)
    }
}

/// The rows of a `players.parquet`, with the columns the studies' metrics
/// read (`study::metrics`): campaign, seat, strategy, winner, empire size,
/// gold by source and cities taken; the other fields are left empty. Sorted by
/// campaign, then seat.
pub fn read_players(path: &Path) -> Result<Vec<PlayerRecord>, Error> {
    let at = |e: PolarsError| Error::input(format!("{}: {e}", path.display()));
    let f = File::open(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let df = ParquetReader::new(f).finish().map_err(at)?;
    let col = |n: &str| df.column(n).map_err(at);
    let campaign = col("campaign")?.u64().map_err(at)?.clone();
    let seat = col("seat")?.u32().map_err(at)?.clone();
    let strategy = col("strategy")?.str().map_err(at)?.clone();
    let winner = col("winner")?.bool().map_err(at)?.clone();
    let size = col("empire_size")?.u32().map_err(at)?.clone();
    let gold = |n: &str| -> Result<Int64Chunked, Error> { Ok(col(n)?.i64().map_err(at)?.clone()) };
    let (mines, pillage, loot) = (gold("gold_mines")?, gold("gold_pillage")?, gold("gold_loot")?);
    let taken = col("cities_taken")?.u32().map_err(at)?.clone();
    let mut rows = Vec::with_capacity(df.height());
    for r in 0..df.height() {
        let (Some(c), Some(s), Some(st), Some(w), Some(z), Some(m), Some(p), Some(l), Some(t)) = (
            campaign.get(r),
            seat.get(r),
            strategy.get(r),
            winner.get(r),
            size.get(r),
            mines.get(r),
            pillage.get(r),
            loot.get(r),
            taken.get(r),
        ) else {
            return Err(Error::input(format!("{}: row {r} has an empty cell", path.display())));
        };
        let tally = crate::rules::state::Tally {
            gold_mines: m,
            gold_pillage: p,
            gold_loot: l,
            cities_taken: t,
            ..Default::default()
        };
        rows.push(PlayerRecord {
            campaign: c,
            seed: 0,
            seat: s,
            player: String::new(),
            strategy: st.to_string(),
            team: None,
            winner: w,
            tie: false,
            rank: 0,
            empire_size: z,
            hexes: 0,
            castles: 0,
            cities: 0,
            mines: 0,
            ports: 0,
            towers: 0,
            units: 0,
            ships: 0,
            spies: 0,
            siege_engines: 0,
            gold: 0,
            tally,
            seasons: 0,
            end_reason: "",
        });
    }
    rows.sort_by_key(|r| (r.campaign, r.seat));
    Ok(rows)
}

/// The combats of a `combats.parquet` (`--detail combats`) as the combat
/// metrics read them (`study::metrics::Fought`), each with its campaign,
/// in the file's order (campaign order, as the run wrote them).
pub fn read_fought(path: &Path) -> Result<Vec<(u64, crate::study::metrics::Fought)>, Error> {
    let at = |e: PolarsError| Error::input(format!("{}: {e}", path.display()));
    let f = File::open(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let df = ParquetReader::new(f).finish().map_err(at)?;
    let col = |n: &str| df.column(n).map_err(at);
    let campaign = col("campaign")?.cast(&DataType::UInt64).map_err(at)?.u64().map_err(at)?.clone();
    let kind = col("kind")?.str().map_err(at)?.clone();
    let int = |n: &str| -> Result<Int64Chunked, Error> {
        Ok(col(n)?.cast(&DataType::Int64).map_err(at)?.i64().map_err(at)?.clone())
    };
    let (gap, a_loss, d_loss) = (int("gap")?, int("a_loss")?, int("d_loss")?);
    let mut out = Vec::with_capacity(df.height());
    for r in 0..df.height() {
        let (Some(c), Some(k), Some(g), Some(a), Some(d)) =
            (campaign.get(r), kind.get(r), gap.get(r), a_loss.get(r), d_loss.get(r))
        else {
            return Err(Error::input(format!("{}: row {r} has an empty cell", path.display())));
        };
        let kind = crate::rules::CombatKind::ALL
            .iter()
            .copied()
            .find(|x| x.name() == k)
            .ok_or_else(|| Error::input(format!("{}: row {r}: unknown combat kind {k:?}", path.display())))?;
        out.push((c, crate::study::metrics::Fought { kind, gap: g as i32, a_loss: a as i32, d_loss: d as i32 }));
    }
    Ok(out)
}
