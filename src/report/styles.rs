//! What `empires styles` writes: the map as a terminal table and a heat
//! map page, every cell's elite as a strategy table, and one row per cell
//! as parquet.

use super::charts::Chart;
use super::dataset::write_parquet;
use super::html::Page;
use super::table::{pct, text_table};
use crate::error::Error;
use crate::stats::wilson;
use crate::strength::styles::{Axis, Record, Row, Styles};
use polars::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// What a map did, in words: the lines the text and the page share.
pub struct Summary {
    pub command: String,
    pub campaigns_played: u64,
    pub seconds: f64,
    pub eval_master: u64,
    pub eval_campaigns: u64,
}

/// The command that redoes this map exactly.
pub fn command(p: &Styles<'_>, scenario: Option<&str>, sets: &[String], keys_all: bool) -> String {
    let s = &p.settings;
    let mut c = String::from("empires styles");
    if let Some(f) = scenario {
        let _ = write!(c, " --scenario {f}");
    }
    for kv in sets {
        let _ = write!(c, " --set '{}'", kv.replace('\'', "'\\''"));
    }
    let _ = write!(
        c,
        " --starts {} --against {} --axes {},{} --bins {} --generations {} --campaigns-per-eval {} --emitters {} \
         --population {} --sigma {} --objective {} --seed {}",
        s.starts.join(","),
        s.field.join(","),
        s.axes[0].name(),
        s.axes[1].name(),
        s.bins,
        s.generations,
        s.per_eval,
        s.emitters,
        s.population,
        s.sigma,
        s.objective.name(),
        s.seed
    );
    if !keys_all {
        let _ = write!(c, " --keys {}", s.keys.join(","));
    }
    c
}

fn rate_ci(wins: u64, campaigns: u64) -> String {
    let (lo, hi) = wilson(wins as f64, campaigns as f64, 0.95);
    format!("{} [{}, {}]", pct(wins as f64 / campaigns as f64), pct(lo), pct(hi))
}

fn num(v: f64) -> String {
    if v.is_nan() { "none".into() } else { format!("{v:.2}") }
}

/// The name a cell's elite is installed under: `style_X_Y`, by bin.
pub fn elite_name(cell: (usize, usize)) -> String {
    format!("style_{}_{}", cell.0, cell.1)
}

/// The map as rows, header first, best held-out win rate first.
pub fn rows_table(p: &Styles<'_>, rows: &[Row]) -> Vec<Vec<String>> {
    let [ax, ay] = p.settings.axes;
    let b = p.settings.bins;
    let mut out = vec![
        [
            "strategy",
            ax.name(),
            ay.name(),
            "wins against the field",
            "trails the best by (points)",
            "held-out cell",
            "battles a season",
            "source",
            "gold spent a season",
            "castles",
            "sieges",
            "ships",
            "from",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>(),
    ];
    for r in rows {
        let h = &r.held;
        out.push(vec![
            elite_name(r.cell),
            ax.label(r.cell.0, b),
            ay.label(r.cell.1, b),
            rate_ci(h.wins, h.campaigns),
            if r.trail.mean == 0.0 && r.trail.sd == 0.0 {
                "the best".into()
            } else {
                format!("{:.1} [{:.1}, {:.1}]", 100.0 * r.trail.mean, 100.0 * r.trail.low, 100.0 * r.trail.high)
            },
            {
                // The search placed it on its own generation's campaigns;
                // on the held-out ones its play may land elsewhere.
                let c = h.cell(p.settings.axes, b);
                if c == r.cell { "same".into() } else { format!("{}, {}", ax.label(c.0, b), ay.label(c.1, b)) }
            },
            num(h.value(Axis::Battles)),
            num(h.value(Axis::Source)),
            format!("{:.0}", h.value(Axis::Spent)),
            num(h.value(Axis::Castles)),
            num(h.value(Axis::Sieges)),
            num(h.value(Axis::Ships)),
            format!(
                "{}{}",
                p.settings.starts[r.elite.eval.base],
                if r.elite.generation < 0 { String::new() } else { format!(", gen {}", r.elite.generation) }
            ),
        ]);
    }
    out
}

/// The answer in one paragraph: how many cells, the best, and which styles
/// come close to it.
pub fn answer(p: &Styles<'_>, rows: &[Row], s: &Summary) -> String {
    let Some(best) = rows.first() else {
        return "The map is empty.".into();
    };
    let [ax, ay] = p.settings.axes;
    let b = p.settings.bins;
    let close: Vec<&Row> = rows.iter().skip(1).filter(|r| r.trail.low <= 0.05 && r.trail.mean <= 0.05).collect();
    let beaten: Vec<&Row> = rows.iter().skip(1).filter(|r| r.trail.low > 0.0).collect();
    format!(
        "{} cells of {} × {} filled. The best style ({} {}, {} {}) wins {} against the field ({}) on {} held-out \
         campaigns (master seed {}, seats rotated); {} other cells trail it by at most 5 points (interval reaching \
         5 or less), {} trail it beyond chance (paired 95% interval above 0). Each cell's player is the strongest the \
         search found there by {}, measured again on campaigns it never played.",
        rows.len(),
        ax.words(),
        ay.words(),
        ax.name(),
        ax.label(best.cell.0, b),
        ay.name(),
        ay.label(best.cell.1, b),
        rate_ci(best.held.wins, best.held.campaigns),
        p.settings.field.join(","),
        s.eval_campaigns,
        s.eval_master,
        close.len(),
        beaten.len(),
        p.settings.objective.words()
    )
}

pub fn text(p: &Styles<'_>, rec: &Record, rows: &[Row], s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", answer(p, rows, s));
    let filled: u32 = rec.generations.iter().map(|g| g.new).sum();
    let improved: u32 = rec.generations.iter().map(|g| g.improved).sum();
    let restarts = rec.generations.iter().filter(|g| g.restarted).count();
    let _ = writeln!(
        out,
        "  search: {} starts, then {} emitter generations of {} candidates × {} campaigns; {} cells filled by the \
         emitters, {} improved, {} emitter restarts; {} campaigns played in {:.1} s",
        rec.seeds.len(),
        rec.generations.len(),
        p.settings.population,
        p.settings.per_eval,
        filled,
        improved,
        restarts,
        s.campaigns_played,
        s.seconds
    );
    let _ = writeln!(out, "  redo: {}", s.command);
    let _ = writeln!(
        out,
        "\nheld-out: each cell's player against {} on {} campaigns of master seed {} (no search played it), seats \
         rotated; the fair share is {}; 95% Wilson intervals; \"trails the best by\" is paired campaign by campaign \
         with the best cell's player; \"held-out cell\" is where its play there lands (the search placed it on its \
         own generation's campaigns); the behaviour columns are its play there (source: −1 all pillage and loot, +1 \
         all mines)",
        p.settings.field.join(","),
        s.eval_campaigns,
        s.eval_master,
        pct(1.0 / p.sc.players.len() as f64)
    );
    out.push_str(&text_table(&rows_table(p, rows)));
    out
}

/// Every cell's player as a `[strategies.style_X_Y]` table, spelled out.
pub fn strategies_toml(p: &Styles<'_>, rows: &[Row], s: &Summary) -> Result<String, Error> {
    let [ax, ay] = p.settings.axes;
    let mut out = format!(
        "# Made by: {}\n# Each table is one cell's strongest player; append to a scenario to play it.\n\n",
        s.command
    );
    for r in rows {
        let header = vec![format!(
            "{} {}, {} {}: {} against the field on held-out campaigns",
            ax.name(),
            ax.label(r.cell.0, p.settings.bins),
            ay.name(),
            ay.label(r.cell.1, p.settings.bins),
            rate_ci(r.held.wins, r.held.campaigns)
        )];
        out += &super::strength::spec_toml(&r.spec, &elite_name(r.cell), &header)?;
        out.push('\n');
    }
    Ok(out)
}

/// `styles.parquet`: one row per cell.
pub fn write_table(p: &Styles<'_>, rows: &[Row], dir: &Path) -> PolarsResult<()> {
    let n = rows.len();
    let [ax, ay] = p.settings.axes;
    let col_f =
        |name: &str, f: &dyn Fn(&Row) -> f64| Column::new(name.into(), rows.iter().map(f).collect::<Vec<f64>>());
    let mut cols = vec![
        Column::new("strategy".into(), rows.iter().map(|r| elite_name(r.cell)).collect::<Vec<_>>()),
        Column::new(format!("{}_bin", ax.name()).into(), rows.iter().map(|r| r.cell.0 as u32).collect::<Vec<_>>()),
        Column::new(format!("{}_bin", ay.name()).into(), rows.iter().map(|r| r.cell.1 as u32).collect::<Vec<_>>()),
        Column::new(
            "start".into(),
            rows.iter().map(|r| p.settings.starts[r.elite.eval.base].clone()).collect::<Vec<_>>(),
        ),
        Column::new("generation".into(), rows.iter().map(|r| r.elite.generation).collect::<Vec<_>>()),
        col_f("search_objective", &|r| r.elite.eval.measure.objective()),
        Column::new("campaigns".into(), rows.iter().map(|r| r.held.campaigns).collect::<Vec<_>>()),
        Column::new("wins".into(), rows.iter().map(|r| r.held.wins).collect::<Vec<_>>()),
        col_f("win_rate", &|r| r.held.rate()),
        col_f("win_rate_low", &|r| wilson(r.held.wins as f64, r.held.campaigns as f64, 0.95).0),
        col_f("win_rate_high", &|r| wilson(r.held.wins as f64, r.held.campaigns as f64, 0.95).1),
        col_f("trail", &|r| r.trail.mean),
        col_f("trail_low", &|r| r.trail.low),
        col_f("trail_high", &|r| r.trail.high),
    ];
    for a in Axis::ALL {
        cols.push(col_f(a.name(), &|r| r.held.value(a)));
    }
    for k in &p.space.knobs {
        cols.push(col_f(&format!("key_{}", k.key), &|r| (k.get)(&r.spec)));
    }
    write_parquet(dir, "styles", DataFrame::new(n, cols)?)
}

/// `index.html`: the heat map of held-out win rates, then the table.
pub fn page(
    p: &Styles<'_>,
    rec: &Record,
    rows: &[Row],
    s: &Summary,
    text: &str,
    dir: &Path,
) -> Result<Vec<String>, Error> {
    let [ax, ay] = p.settings.axes;
    let b = p.settings.bins;
    let (nx, ny) = (ax.cells(b), ay.cells(b));
    let mut grid = vec![vec![f64::NAN; nx]; ny];
    let mut intervals = vec![vec![String::new(); nx]; ny];
    for r in rows {
        let (lo, hi) = wilson(r.held.wins as f64, r.held.campaigns as f64, 0.95);
        grid[r.cell.1][r.cell.0] = r.held.rate();
        intervals[r.cell.1][r.cell.0] = format!("[{}, {}]", pct(lo), pct(hi));
    }
    let mut page = Page::new("empires styles: which styles can win");
    page.answer(&answer(p, rows, s));
    page.pre(&s.command);
    page.chart(
        dir,
        "styles",
        &Chart::Heatmap {
            title: "Held-out win rate of each cell's strongest player".into(),
            x_label: ax.short().into(),
            y_label: ay.short().into(),
            xs: (0..nx).map(|i| ax.label(i, b)).collect(),
            ys: (0..ny).map(|i| ay.label(i, b)).collect(),
            rows: grid,
            percent: true,
            intervals,
            sides: None,
        },
        &format!(
            "Each filled cell holds the strongest player the search found whose play lands there, against {} on {} \
             held-out campaigns, with its 95% interval; grey cells were never reached. {} emitter generations.",
            p.settings.field.join(","),
            s.eval_campaigns,
            rec.generations.len()
        ),
    )?;
    page.h2("Every cell");
    page.table(&rows_table(p, rows));
    page.h2("As printed");
    page.pre(text);
    let files = page.files();
    page.finish(dir)?;
    Ok(files)
}
