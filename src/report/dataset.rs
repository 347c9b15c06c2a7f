//! The run's dataset, written with polars: `players.parquet` (and CSV on
//! request), one chunk of campaigns at a time so memory stays flat.

use super::files::Pending;
use crate::sim::record::PlayerRecord;
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

/// Streams chunks of rows into `players.parquet` (and `players.csv`).
pub struct PlayersWriter {
    parquet: Option<(Pending, File, polars::io::parquet::write::BatchedWriter<File>)>,
    parquet_path: std::path::PathBuf,
    csv: Option<(Pending, File, bool)>,
}

impl PlayersWriter {
    pub fn create(dir: &Path, csv: bool) -> PolarsResult<Self> {
        let csv = if csv {
            let (p, f) = Pending::create(&dir.join("players.csv"))?;
            Some((p, f, true))
        } else {
            None
        };
        Ok(PlayersWriter { parquet: None, parquet_path: dir.join("players.parquet"), csv })
    }

    pub fn write(&mut self, rows: &[PlayerRecord]) -> PolarsResult<()> {
        let mut df = players_frame(rows)?;
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

    /// Close the files and move them into place.
    pub fn finish(mut self) -> PolarsResult<()> {
        if self.parquet.is_none() {
            self.write(&[])?;
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
