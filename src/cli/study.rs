//! `empires compare`, `empires sweep` and `empires experiment`: studies
//! played on the same seeds, printed as text and written as HTML pages.

use super::args::{BestResponseArgs, PlayersArg, ScenarioArgs, SeedArg, StudyCampaigns, ThreadsArg};
use super::key::{ResultKey, Shape, blank};
use super::long::{Long, LongArgs};
use super::out::{Out, Request, StudyFolder};
use super::{CliError, SeatArgs, load_scenario, load_scenario_varied};
use crate::error::Error;
use crate::report::study;
use crate::scenario::{ActionKind, Scenario};
use crate::sim::runner::seating;
use crate::study::{compare, mine_pillage, restrict, sweep, worth};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

/// Flags every study shares.
#[derive(Args, Debug, Clone)]
pub struct StudyFlags {
    #[command(flatten)]
    pub campaigns: StudyCampaigns,
    #[command(flatten)]
    pub master: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<StudyFolder>,
    #[command(flatten)]
    pub seats: SeatArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub long: LongArgs,
}

impl StudyFlags {
    /// What these flags put in a key.
    fn shape(&self) -> Shape {
        Shape::new("StudyFlags")
            .field("campaigns", &self.campaigns.n)
            .group("master", self.master.shape())
            .neutral_threads_out()
            .group("seats", self.seats.shape())
            .field("players", &self.players.players)
            .neutral("long", blank::LONG)
    }

    /// The strategy a best response starts from: `--players`, or `tuned`.
    fn start(&self) -> String {
        self.players.or_tuned()
    }

    /// The scenario as the study plays it: `--players` applied.
    fn seat(&self, sc: Scenario) -> Result<Scenario, CliError> {
        self.players.seat(sc)
    }

    /// The study's folder, claimed before anything is played (`out`):
    /// `--out`, or `reports/<kind>/<name>-<key>`, the key naming what the
    /// command's `ResultKey` lists and the scenarios played.
    fn out_dir(&self, kind: &str, name: &str, key: String, scenarios: &[&Scenario]) -> Result<PathBuf, CliError> {
        self.out.resolve(kind, name, &Request::of(&key, scenarios))
    }

    fn check(&self) -> Result<(), CliError> {
        if self.campaigns.n < 2 {
            return Err(CliError::input("--campaigns must be at least 2 for an interval"));
        }
        Ok(())
    }

    /// The progress, Ctrl-C and kept work of a study playing `planned`
    /// campaigns into `out`.
    fn long(&self, planned: u64, out: &Path) -> Result<Long, CliError> {
        Long::start(self.threads, self.long, planned, out)
    }
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// A.toml B.toml; or, with --scenario A.toml, B.toml alone; or two
    /// finished run folders (`empires run`), compared on the campaigns they
    /// share without playing any.
    #[arg(value_name = "FILE", num_args = 0..=2)]
    pub files: Vec<PathBuf>,
    /// `--scenario` is A; `--set` changes A and B.
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// What makes B: A (or B.toml) with this key at this value, e.g.
    /// economy.pillage=3D6x10. Repeatable.
    #[arg(long = "vary", value_name = "KEY=VALUE")]
    pub vary: Vec<String>,
    #[command(flatten)]
    pub flags: StudyFlags,
    #[command(flatten)]
    pub best: BestResponseArgs,
}

impl ResultKey for CompareArgs {
    fn key(&self) -> String {
        format!(
            "compare {:?} {:?} {:?} {:?} {} {}",
            self.scenario.scenario,
            self.files,
            self.scenario.set.set,
            self.vary,
            self.best.shape(),
            self.flags.shape()
        )
    }
}

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// `--set` changes every cell.
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// A key and its values, e.g. economy.pillage=1D6x10,2D6x10,3D6x10, or
    /// a range of whole numbers, costs.capture=1..4. One (a line) or two (a
    /// heatmap).
    #[arg(long = "values", value_name = "KEY=V1,V2,...|KEY=LO..HI", required = true)]
    pub vary: Vec<String>,
    /// A metric by name, e.g. "share of gold from mines" or "win rate: seat
    /// 0".
    ///
    /// Here a metric to show, repeatable (default: every strategy's win
    /// rate; with --best-response, the mean empire size and the shares of
    /// gold from mines and pillage).
    #[arg(long = "metric", value_name = "METRIC")]
    pub metric: Vec<String>,
    #[command(flatten)]
    pub flags: StudyFlags,
    #[command(flatten)]
    pub best: BestResponseArgs,
}

impl ResultKey for SweepArgs {
    /// The scenario file is not named: its text is in the scenario's hash.
    fn key(&self) -> String {
        format!(
            "sweep {:?} {:?} {:?} {} {}",
            self.scenario.set.set,
            self.vary,
            self.metric,
            self.best.shape(),
            self.flags.shape()
        )
    }
}

#[derive(Subcommand, Debug)]
pub enum Experiment {
    /// Is a mine worth more than a pillage, and from which season on?
    MineVsPillage(MineVsPillageArgs),
    /// What is an option worth? One restricted player against unrestricted
    /// copies at each strength level, and with --best-response both sides tuned.
    Restrict(RestrictArgs),
    /// What is a resource worth? Gold, a unit, an EP and a mine-able hex,
    /// given and taken, in win-rate points to the strongest candidate player;
    /// with --best-response each ask also gets a best response fitted with
    /// it (the field's heaviest weighted member, tuned against the field
    /// with the ask in every tuning campaign).
    Worth(WorthArgs),
}

#[derive(Args, Debug)]
pub struct WorthArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    /// The strategy in every other seat (default: the scenario's strong
    /// field, `equilibrium`).
    #[arg(long, default_value = crate::strategy::STRONG)]
    field: String,
    /// The players the resource is handed to, A,B,... (default: the field,
    /// its mixture's members and `tuned`); the one that gains most on
    /// selection seeds is measured again on the held-out seeds.
    #[arg(long, value_delimiter = ',')]
    candidates: Vec<String>,
    // --best-response: a best response fitted with each ask (the
    // command's help says what is tuned).
    #[command(flatten)]
    best: BestResponseArgs,
    #[command(flatten)]
    flags: StudyFlags,
}

impl ResultKey for WorthArgs {
    fn key(&self) -> String {
        // Added after the first keys: written only when given, so a
        // folder made before resumes.
        let best = if self.best.best_response { format!(" {}", self.best.shape()) } else { String::new() };
        format!("worth {:?} {:?} {:?} {}{best}", self.field, self.candidates, self.scenario.set.set, self.flags.shape())
    }
}

#[derive(Args, Debug)]
pub struct MineVsPillageArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    /// The players whose play measures the chance of losing a mine's hex
    /// (default: the scenario's strong field, `equilibrium`).
    #[arg(long, default_value = crate::strategy::STRONG)]
    loss_from: String,
    /// Campaigns of that measurement (0 leaves it out). Default: the
    /// readings table's shipped row, when it plays the same players
    /// (--readings-players), so part 1 and part 4 quote one figure; else 500.
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::count::<0>)]
    loss_campaigns: Option<u64>,
    /// Also solve the exact part backwards: the mean yield a payday at which
    /// a mine first matches a pillage at its Nth payday, at the measured
    /// loss rate and its interval's ends, with a dice expression that gives it.
    #[arg(long, value_parser = super::args::count::<1>)]
    payback: Option<u64>,
    /// Campaigns of each measurement of what gold, a unit, an EP and a
    /// mine-able hex are worth to the strongest player (`experiment worth`,
    /// against --readings-players), so the answer reads gold in win points
    /// (default: --campaigns; 0 leaves it out).
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::count::<0>)]
    worth_campaigns: Option<u64>,
    /// Campaigns of each variant of the readings table (what the answer
    /// rests on: each combat reading flipped by its key and played against
    /// the shipped one on the same seeds); 0 leaves the table out.
    ///
    /// Here the table answers under the shipped reading of G-03, G-11 and
    /// G-13 and under each alternative. Default: --campaigns.
    #[arg(long, value_name = "N")]
    readings_campaigns: Option<u64>,
    /// The strategy every seat plays in the readings table (default: the
    /// scenario's strong field, `equilibrium`).
    #[arg(long, default_value = crate::strategy::STRONG)]
    readings_players: String,
    #[command(flatten)]
    best: BestResponseArgs,
    #[command(flatten)]
    flags: StudyFlags,
}

impl MineVsPillageArgs {
    /// `--readings-campaigns`, or `--campaigns`.
    fn readings_campaigns(&self) -> u64 {
        self.readings_campaigns.unwrap_or(self.flags.campaigns.n)
    }

    /// Whether the loss rate is read off the readings' shipped row rather
    /// than measured apart: the default, where that row plays the same
    /// players on the same seeds.
    fn loss_from_readings(&self) -> bool {
        self.loss_campaigns.is_none() && self.readings_campaigns() > 0 && self.readings_players == self.loss_from
    }

    /// Campaigns the loss rate is measured on apart from the readings.
    fn loss_campaigns(&self) -> u64 {
        if self.loss_from_readings() { 0 } else { self.loss_campaigns.unwrap_or(500) }
    }
}

impl ResultKey for MineVsPillageArgs {
    fn key(&self) -> String {
        format!(
            "mine-vs-pillage {:?} {} {} {:?} {} {:?} {}{}",
            self.loss_from,
            if self.loss_from_readings() { "readings".to_string() } else { self.loss_campaigns().to_string() },
            self.readings_campaigns(),
            self.readings_players,
            self.best.shape(),
            self.scenario.set.set,
            self.flags.shape(),
            self.payback.map_or(String::new(), |n| format!(" payback {n}"))
                + &self.worth_campaigns.map_or(String::new(), |n| format!(" worth {n}"))
        )
    }
}

#[derive(Args, Debug)]
pub struct RestrictArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    /// Action kinds the restricted player never takes (A,B,...).
    #[arg(long, value_delimiter = ',')]
    forbid: Vec<ActionKind>,
    /// Action kinds the restricted player takes first whenever legal.
    #[arg(long, value_delimiter = ',')]
    force: Vec<ActionKind>,
    /// The strength levels: one strategy each (every seat plays it).
    #[arg(long, default_value = "random,balanced,tuned,lookahead_tuned")]
    levels: String,
    #[command(flatten)]
    best: BestResponseArgs,
    #[command(flatten)]
    flags: StudyFlags,
}

impl ResultKey for RestrictArgs {
    fn key(&self) -> String {
        format!(
            "restrict {} {:?} {} {:?} {}",
            Shape::new("Restriction").field("forbid", &self.forbid).field("force", &self.force),
            self.levels,
            self.best.shape(),
            self.scenario.set.set,
            self.flags.shape()
        )
    }
}

impl ResultKey for Experiment {
    fn key(&self) -> String {
        match self {
            Experiment::MineVsPillage(a) => a.key(),
            Experiment::Restrict(a) => a.key(),
            Experiment::Worth(a) => a.key(),
        }
    }
}

fn write_page(out: &Path, f: impl FnOnce(&Path) -> Result<Vec<String>, Error>) -> Result<(), CliError> {
    super::create_out_dir(out)?;
    let files = f(out).map_err(|e| e.at(out.display()))?;
    sayln!("wrote {} files to {}; open {}", files.len(), out.display(), out.join("index.html").display());
    Ok(())
}

/// `best-response.toml` in `dir`: every player a best response tuned, each
/// a whole `[strategies.NAME]` table (`name`, the player, its competence
/// line), so a designer can read what was fitted and probe or replay it by
/// appending the file to the scenario. `made` heads it as a comment.
fn write_best_players(
    dir: &Path,
    made: &str,
    players: &[(String, &crate::scenario::StrategySpec, Option<String>)],
) -> Result<String, Error> {
    let mut text = String::new();
    for (i, (name, spec, competence)) in players.iter().enumerate() {
        // A name a designer can pass to --players as it is.
        let name: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let mut header = Vec::new();
        if i == 0 {
            header.push(format!("Made by: {made}"));
            header.push("Append to the scenario file to play, probe or replay these players.".into());
        }
        if let Some(c) = competence {
            header.push(c.clone());
        }
        if i > 0 {
            text.push('\n');
        }
        text += &crate::report::strength::spec_toml(spec, &name, &header)?;
    }
    let name = "best-response.toml";
    crate::report::files::write_file(&dir.join(name), text.as_bytes())?;
    Ok(name.into())
}

/// The players of restriction studies' best responses, for
/// `write_best_players`: the unrestricted player (tuned the same way for
/// every restriction, so named once) and each restricted one, of the first
/// search.
fn restricted_players(studies: &[restrict::Study]) -> Vec<(String, &crate::scenario::StrategySpec, Option<String>)> {
    let best: Vec<(&restrict::Study, &restrict::Best)> =
        studies.iter().filter_map(|s| s.best.as_ref().map(|b| (s, b))).collect();
    let Some((_, first)) = best.first() else { return Vec::new() };
    // Each study checks the unrestricted player on its own restriction's probes.
    let lines: Vec<String> = best
        .iter()
        .filter_map(|(s, b)| b.competence.as_ref().map(|c| format!("{}: {}", s.restriction.label(), c.line())))
        .collect();
    let lines = (!lines.is_empty()).then(|| lines.join("\n# "));
    let mut out = vec![("best_response".to_string(), &first.unrestricted, lines)];
    out.extend(best.iter().map(|(s, b)| (format!("best_response {}", s.restriction.label()), &b.restricted, None)));
    out
}

pub fn compare_cmd(a: CompareArgs) -> Result<(), CliError> {
    a.flags.check()?;
    if let [ra, rb] = a.files.as_slice()
        && ra.is_dir()
        && rb.is_dir()
    {
        return compare_runs(&a, ra, rb);
    }
    // A is --scenario or the first of two files; B is the other file, or A,
    // either with the --vary values. One file without --scenario could be
    // either, so it is refused rather than guessed.
    let (fa, fb): (Option<&Path>, Option<&Path>) = match (a.files.as_slice(), &a.scenario.scenario) {
        ([], s) => (s.as_deref(), None),
        ([b], Some(s)) => (Some(s.as_path()), Some(b.as_path())),
        ([f], None) => {
            return Err(CliError::input(format!(
                "compare {}: is it A or B? give A as --scenario {0} and B with --vary KEY=VALUE, or both files \
                 (compare A.toml B.toml)",
                f.display()
            )));
        }
        ([fa, fb], None) => (Some(fa.as_path()), Some(fb.as_path())),
        _ => {
            return Err(CliError::input("compare: give A once, as --scenario A.toml or as the first of two files"));
        }
    };
    if fb.is_none() && a.vary.is_empty() {
        return Err(CliError::input(
            "compare: B is the same as A; give --vary KEY=VALUE (B is A with it) or a file for B (--set changes both)",
        ));
    }
    let sa = load_scenario(fa, &a.scenario.set)?;
    let sb = load_scenario_varied(fb.or(fa), &a.scenario.set, ("--vary", &a.vary))?;
    let na = super::args::file_name(fa);
    let nb = match (fb, a.vary.is_empty()) {
        (Some(f), true) => super::args::file_name(Some(f)),
        (f, _) => format!("{} with {}", super::args::file_name(f.or(fa)), a.vary.join(" ")),
    };
    let (sa, sb) = (a.flags.seat(sa)?, a.flags.seat(sb)?);
    compare::comparable((&na, &sa), (&nb, &sb))?;
    let out = a.flags.out_dir("compare", &super::args::file_name(fa), a.key(), &[&sa, &sb])?;
    let budget = a.best.budget();
    let long = a.flags.long(compare::planned(&sa, &sb, a.flags.campaigns.n, budget.as_ref()), &out)?;
    let (sa, sb, best) = if let Some(budget) = budget {
        let start = a.flags.start();
        let (sa, sb, br) = long
            .run(|| compare::best_response(&sa, &sb, &start, a.flags.master.seed, &budget).map_err(CliError::from))?;
        (sa, sb, Some(br))
    } else {
        (sa, sb, None)
    };
    // A and B are seated alike, so campaign i stays one paired game.
    let seated = seating(&[&sa, &sb], a.flags.seats.flag());
    let c = long.run(|| {
        compare::compare((&na, &sa), (&nb, &sb), a.flags.master.seed, a.flags.campaigns.n, seated.rotate())
            .map_err(CliError::from)
    })?;
    long.finish();
    // The answer first, word for word as the page opens with it.
    sayln!("{}\n", crate::report::study::shift::compare_answer(&c));
    sayln!("{}", crate::report::seating::describe(seated));
    let br = best;
    let best = br.as_ref().map(study::best_response_text);
    if let Some(b) = &best {
        say!("{b}");
    }
    say!("{}", study::compare_text(&c));
    write_page(&out, |d| {
        let mut files = study::compare_page(&c, d, best.as_deref())?;
        if let Some(br) = &br {
            let line = |k: usize| br.competence[k].as_ref().map(|c| c.line());
            let players = [("best_response_a".to_string(), &br.a, line(0)), ("best_response_b".into(), &br.b, line(1))];
            files.push(write_best_players(d, &super::out::command_line(), &players)?);
        }
        Ok(files)
    })
}

/// `compare RUN_A RUN_B`: two finished runs, paired campaign by campaign
/// on the campaigns both played (the same master seed and seating, so
/// campaign i is the same deal in both), with nothing played.
fn compare_runs(a: &CompareArgs, ra: &Path, rb: &Path) -> Result<(), CliError> {
    use crate::report::manifest::Manifest;
    let ignored = [
        (a.scenario.scenario.is_some(), "--scenario"),
        (!a.scenario.set.is_empty(), "--set"),
        (!a.vary.is_empty(), "--vary"),
        (a.best.best_response, "--best-response"),
        (a.flags.players.players.is_some(), "--players"),
        (a.flags.seats.rotate_seats || a.flags.seats.fixed_seats, "--rotate-seats/--fixed-seats"),
        // The runs' own campaigns and seed are compared; a value other than
        // the default can only be a request this cannot meet.
        (a.flags.campaigns.n != StudyCampaigns::DEFAULT, "--campaigns"),
        (a.flags.master.seed != super::args::DEFAULT_SEED, "--seed"),
    ];
    if let Some((_, flag)) = ignored.iter().find(|(given, _)| *given) {
        return Err(CliError::input(format!(
            "compare RUN_A RUN_B reads finished runs and plays nothing, so {flag} cannot apply; give the runs \
             as they were made, or compare scenarios"
        )));
    }
    let read = |d: &Path| -> Result<(Manifest, Scenario), CliError> {
        let m = Manifest::read(d)?;
        if m.interrupted {
            return Err(CliError::input(format!(
                "{}: the run was interrupted; finish it with `empires run ... --resume` first",
                d.display()
            )));
        }
        let sc = m.scenario().map_err(|e| e.at(d.display()))?;
        Ok((m, sc))
    };
    let ((ma, sa), (mb, sb)) = (read(ra)?, read(rb)?);
    let (na, nb) = (ra.display().to_string(), rb.display().to_string());
    if ma.master_seed != mb.master_seed {
        return Err(CliError::input(format!(
            "{na} played master seed {} and {nb} master seed {}: runs are paired only on the same seeds",
            ma.master_seed, mb.master_seed
        )));
    }
    if ma.rotate_seats != mb.rotate_seats {
        return Err(CliError::input(format!(
            "{na} {} the seats and {nb} {}: a paired comparison needs the same seating",
            if ma.rotate_seats { "rotated" } else { "kept" },
            if mb.rotate_seats { "rotated" } else { "kept" }
        )));
    }
    compare::comparable((&na, &sa), (&nb, &sb))?;
    let (start, end) = (ma.campaign_start.max(mb.campaign_start), ma.campaign_end.min(mb.campaign_end));
    if end < start + 2 {
        return Err(CliError::input(format!(
            "{na} played campaigns {}..{} and {nb} {}..{}: fewer than 2 in common to pair",
            ma.campaign_start, ma.campaign_end, mb.campaign_start, mb.campaign_end
        )));
    }
    // The combat metrics per kind need each campaign's combats, which a run
    // keeps only with `--detail combats`: both runs must have them, or the
    // comparison would pair a count against nothing.
    let with_combats = [ra, rb].iter().all(|d| d.join("combats.parquet").exists());
    let metrics = if with_combats {
        crate::study::metrics::with_combat(&[&sa, &sb])
    } else {
        crate::study::metrics::standard(&[&sa, &sb])
    };
    let measured = |d: &Path| -> Result<crate::study::metrics::Measured, CliError> {
        use crate::study::metrics::Fought;
        let rows = crate::report::dataset::read_players(&d.join("players.parquet"))?;
        let mut fought: std::collections::BTreeMap<u64, Vec<Fought>> = Default::default();
        if with_combats {
            for (c, f) in crate::report::dataset::read_fought(&d.join("combats.parquet"))? {
                fought.entry(c).or_default().push(f);
            }
        }
        let mut by: Vec<(&[crate::sim::record::PlayerRecord], &[Fought])> = rows
            .chunk_by(|x, y| x.campaign == y.campaign)
            .filter(|c| (start..end).contains(&c[0].campaign))
            .map(|c| (c, fought.get(&c[0].campaign).map_or(&[][..], |v| v.as_slice())))
            .collect();
        by.sort_by_key(|c| c.0[0].campaign);
        if by.len() as u64 != end - start {
            return Err(CliError::input(format!(
                "{}: players.parquet holds {} of campaigns {start}..{end}",
                d.display(),
                by.len()
            )));
        }
        Ok(crate::study::metrics::Measured::of_rows(&metrics, &by))
    };
    let (xa, xb) = (measured(ra)?, measured(rb)?);
    let mut c = compare::of_measured((&na, &xa), (&nb, &xb), &metrics, ma.master_seed, ma.rotate_seats);
    // What each run's players did is in its manifest, counted over all the
    // campaigns that run played.
    c.played = [&ma, &mb]
        .map(|m| compare::Played { coverage: m.coverage.clone(), campaigns: m.campaign_end - m.campaign_start });
    let hashes = |m: &Manifest| {
        ["players.parquet", "combats.parquet"].map(|f| m.file_hashes.get(f).cloned().unwrap_or_default()).join(" ")
    };
    let request = Request::new(&format!("compare runs {} {} {start}..{end}", hashes(&ma), hashes(&mb)), "");
    let name = ra.file_name().map_or("runs".into(), |s| s.to_string_lossy().to_string());
    let out = a.flags.out.resolve("compare", &name, &request)?;
    sayln!("{}\n", crate::report::study::shift::compare_answer(&c));
    sayln!(
        "finished runs, nothing played: campaigns {start}..{end} of master seed {} in both, paired campaign by \
         campaign; {}",
        ma.master_seed,
        if with_combats {
            "combat metrics per kind from both runs' combats.parquet"
        } else {
            "no combat metrics: they need both runs made with `empires run --detail combats`"
        }
    );
    say!("{}", study::compare_text(&c));
    write_page(&out, |d| study::compare_page(&c, d, None))
}

pub fn sweep_cmd(a: SweepArgs) -> Result<(), CliError> {
    a.flags.check()?;
    let axes = a.vary.iter().map(|s| sweep::parse_axis(s)).collect::<Result<Vec<_>, _>>()?;
    if axes.len() > 2 {
        return Err(CliError::input("sweep takes one or two --values KEY=V1,V2,... (a line or a heatmap)"));
    }
    if axes.len() == 2 && axes[0].key == axes[1].key {
        return Err(CliError::input("--values: the two keys must differ"));
    }
    let file = a.scenario.scenario.clone();
    let base = a.scenario.load()?;
    let out = a.flags.out_dir("sweep", &a.scenario.file_name(), a.key(), &[&base])?;
    let budget = a.best.budget();
    let start = a.flags.start();
    let cells = sweep::grid(&axes).len() as u64;
    let tuning = budget.as_ref().map_or(0, |b| {
        cells
            * (crate::strength::best_response::tuning_planned(&base, b)
                + crate::strength::best_response::check_planned(b))
    });
    let long = a.flags.long(sweep::planned(&axes, a.flags.campaigns.n) + tuning, &out)?;
    let mut tuned: Vec<(String, u64, Option<crate::strength::probe::Competence>, crate::scenario::StrategySpec)> =
        Vec::new();
    let s = long.run(|| {
        sweep::run::<CliError>(&axes, a.flags.master.seed, a.flags.campaigns.n, a.flags.seats.flag(), |cell| {
            let cell_sets: Vec<String> = cell.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let sc = a.flags.seat(load_scenario_varied(file.as_deref(), &a.scenario.set, ("--values", &cell_sets))?)?;
            match &budget {
                None => Ok(sc),
                Some(b) => {
                    let r = crate::strength::best_response::retuned(&sc, &start, a.flags.master.seed, b)?;
                    tuned.push((cell_sets.join(" "), r.played, r.competence, r.spec));
                    Ok(r.scenario)
                }
            }
        })
    });
    let mut s = s?;
    long.finish();
    let metrics = if a.metric.is_empty() && budget.is_some() {
        // Every seat plays the re-tuned player: its win rate is 1 ÷ seats.
        ["mean empire size", "share of gold from mines", "share of gold from pillage"].map(String::from).to_vec()
    } else {
        a.metric.clone()
    };
    s.choose(&metrics)?;
    sayln!("{}\n", crate::report::study::shift::sweep_answer(&s));
    sayln!("{}", crate::report::seating::describe(s.seating));
    if !a.scenario.set.is_empty() {
        sayln!("in every cell: {}", a.scenario.set.iter().map(|s| format!("--set {s}")).collect::<Vec<_>>().join(" "));
    }
    let best = budget.as_ref().map(|b| {
        let played: u64 = tuned.iter().map(|t| t.1).sum();
        format!(
            "best response: in every cell, every seat plays {start} re-tuned in self-play under that cell's rules \
             ({}, {} generations, {} campaigns a candidate, step 0.1 of each range; {} cells, {played} \
             campaigns of search on master seed {}, never the sweep's); {}",
            crate::strength::best_response::TUNED_OVER,
            b.generations,
            b.per_eval,
            tuned.len(),
            crate::strength::best_response::tuning_seed(a.flags.master.seed),
            b.family.words()
        )
    });
    let best = best.map(|b| {
        // Each cell's re-tuned player, with its competence check under the cell's rules.
        let checks: Vec<String> = tuned
            .iter()
            .map(|(cell, _, c, _)| match c {
                Some(c) => format!("\n  {cell}: {}", c.line()),
                None => format!("\n  {cell}: players not checked (--probe-campaigns 0)"),
            })
            .collect();
        format!("{b}{}", checks.concat())
    });
    if let Some(b) = &best {
        sayln!("{b}");
    }
    say!("{}", study::sweep_text(&s));
    write_page(&out, |d| {
        let mut files = study::sweep_page(&s, d, best.as_deref())?;
        if !tuned.is_empty() {
            // One table per cell, named for its cell's values.
            let players: Vec<_> = tuned
                .iter()
                .map(|(cell, _, c, spec)| (format!("best_response {cell}"), spec, c.as_ref().map(|c| c.line())))
                .collect();
            files.push(write_best_players(d, &super::out::command_line(), &players)?);
        }
        Ok(files)
    })
}

pub fn experiment_cmd(e: Experiment) -> Result<(), CliError> {
    let key = e.key();
    match e {
        Experiment::MineVsPillage(a) => {
            let readings_campaigns = a.readings_campaigns();
            let worth_campaigns = a.worth_campaigns.unwrap_or(a.flags.campaigns.n);
            let (loss_campaigns, loss_from_readings) = (a.loss_campaigns(), a.loss_from_readings());
            let MineVsPillageArgs { scenario, loss_from, readings_players, best, flags, payback, .. } = a;
            flags.check()?;
            if readings_campaigns == 1 || worth_campaigns == 1 {
                return Err(CliError::input(
                    "--readings-campaigns and --worth-campaigns must be 0 (left out) or at least 2 for an interval",
                ));
            }
            let file = scenario.load()?;
            let out = flags.out_dir("mine-vs-pillage", &scenario.file_name(), key, &[&file])?;
            let sc: Scenario = flags.seat(file.clone())?;
            let seated = seating(&[&sc], flags.seats.flag());
            if loss_campaigns > 0 || loss_from_readings {
                file.named_strategy(&loss_from).map_err(|e| e.at("--loss-from"))?;
            }
            if readings_campaigns > 0 || worth_campaigns > 0 {
                file.named_strategy(&readings_players).map_err(|e| e.at("--readings-players"))?;
            }
            let budget = best.weighted_budget("experiment mine-vs-pillage")?;
            let restrictions = mine_pillage::restrictions();
            let campaigns = flags.campaigns.n;
            let planned = mine_pillage::planned(&sc, campaigns)
                + loss_campaigns
                + mine_pillage::readings_planned(readings_campaigns)
                + if worth_campaigns > 0 {
                    let n = worth::default_candidates(&file, &readings_players).len();
                    worth::planned(&file, n, worth_campaigns, budget.as_ref())
                } else {
                    0
                }
                + budget.as_ref().map_or(0, |b| {
                    restrictions.iter().map(|r| restrict::planned(&file, r, 1, campaigns, Some(b))).sum()
                });
            let long = flags.long(planned, &out)?;
            let mut x = long.run(|| {
                mine_pillage::run(&sc, flags.master.seed, campaigns, seated.rotate()).map_err(CliError::from)
            })?;
            if loss_campaigns > 0 {
                x.loss = Some(long.run(|| {
                    mine_pillage::measure_loss(&file, &loss_from, flags.master.seed, loss_campaigns)
                        .map_err(CliError::from)
                })?);
            }
            if readings_campaigns > 0 {
                x.readings = Some(long.run(|| {
                    mine_pillage::run_readings(&file, &readings_players, flags.master.seed, readings_campaigns)
                        .map_err(CliError::from)
                })?);
            }
            if loss_from_readings {
                x.loss = x.readings.as_ref().and_then(|r| r.rows.first()).map(|row| row.observed.loss.clone());
            }
            x.payback = payback.map(|n| n as u32);
            if worth_campaigns > 0 {
                let candidates = worth::default_candidates(&file, &readings_players);
                x.worth = Some(long.run(|| {
                    let seed = flags.master.seed;
                    worth::run(&file, &candidates, &readings_players, seed, worth_campaigns, budget.as_ref())
                        .map_err(CliError::from)
                })?);
            }
            if let Some(budget) = budget {
                let players = flags.start();
                for r in restrictions {
                    let s = long.run(|| {
                        restrict::run(
                            &file,
                            &r,
                            &players,
                            std::slice::from_ref(&players),
                            flags.master.seed,
                            campaigns,
                            Some(&budget),
                        )
                        .map_err(CliError::from)
                    })?;
                    x.best.push(s);
                }
            }
            long.finish();
            // The answer first, word for word as the page opens with it.
            sayln!("{}\n", crate::report::study::mine_pillage::answer(&x));
            sayln!("{}", crate::report::seating::describe(seated));
            say!("{}", study::experiment_text(&x));
            write_page(&out, |d| {
                let mut files = study::experiment_page(&x, d)?;
                if !x.best.is_empty() {
                    files.push(write_best_players(d, &super::out::command_line(), &restricted_players(&x.best))?);
                }
                Ok(files)
            })
        }
        Experiment::Worth(WorthArgs { scenario, field, candidates, best, flags }) => {
            flags.check()?;
            if flags.players.players.is_some() || flags.seats.fixed_seats {
                return Err(CliError::input(
                    "experiment worth seats --field in every other seat and --candidates in the probed one, seats \
                     always rotated; --players and --fixed-seats do not apply",
                ));
            }
            let sc: Scenario = scenario.load()?;
            let out = flags.out_dir("worth", &scenario.file_name(), key, &[&sc])?;
            sc.named_strategy(&field).map_err(|e| e.at("--field"))?;
            let candidates = if candidates.is_empty() { worth::default_candidates(&sc, &field) } else { candidates };
            for c in &candidates {
                sc.named_strategy(c).map_err(|e| e.at("--candidates"))?;
            }
            let campaigns = flags.campaigns.n;
            let budget = best.weighted_budget("experiment worth")?;
            let long = flags.long(worth::planned(&sc, candidates.len(), campaigns, budget.as_ref()), &out)?;
            let w = long.run(|| {
                worth::run(&sc, &candidates, &field, flags.master.seed, campaigns, budget.as_ref())
                    .map_err(CliError::from)
            })?;
            long.finish();
            sayln!("{}\n", crate::report::worth::answer(&sc, &w));
            say!("{}", crate::report::worth::text(&w));
            write_page(&out, |d| crate::report::worth::page(&sc, &w, d))
        }
        Experiment::Restrict(RestrictArgs { scenario, forbid, force, levels, best, flags }) => {
            flags.check()?;
            let split = |s: &str| -> Vec<String> {
                s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()
            };
            let r = restrict::Restriction::new(forbid, force)?;
            let sc: Scenario = scenario.load()?;
            let out = flags.out_dir("restrict", &scenario.file_name(), key, &[&sc])?;
            let players = flags.start();
            let budget = best.weighted_budget("experiment restrict")?;
            let levels = split(&levels);
            let campaigns = flags.campaigns.n;
            let long = flags.long(restrict::planned(&sc, &r, levels.len(), campaigns, budget.as_ref()), &out)?;
            let s = long.run(|| {
                restrict::run(&sc, &r, &players, &levels, flags.master.seed, campaigns, budget.as_ref())
                    .map_err(CliError::from)
            })?;
            long.finish();
            let text = study::restrict_text(&s);
            say!("{text}");
            write_page(&out, |d| {
                let mut files = study::restrict_page(&s, &text, d)?;
                if s.best.is_some() {
                    files.push(write_best_players(
                        d,
                        &super::out::command_line(),
                        &restricted_players(std::slice::from_ref(&s)),
                    )?);
                }
                Ok(files)
            })
        }
    }
}
