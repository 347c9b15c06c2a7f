//! `empires check [FILE]`: the balance gate (see `gate/`).

use super::CliError;
use super::args::{PlayersArg, ThreadsArg};
use super::key::{ResultKey, Shape, blank};
use super::long::{Interruption, Long, LongArgs};
use super::out::{CheckFolder, Out, Request};
use crate::gate::{self, spec};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// The balance file (default: balance.toml in the working folder, else
    /// scenarios/balance.toml, where a project built like this one keeps it).
    pub file: Option<PathBuf>,
    /// Rewrite the baselines in place with the values measured now.
    #[arg(long)]
    pub update: bool,
    /// Metrics measured at once (each also runs its campaigns in parallel).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub out: Out<CheckFolder>,
    #[command(flatten)]
    pub long: LongArgs,
}

impl ResultKey for CheckArgs {
    /// The file as named (`run` names the one it found); its text and its
    /// stored baseline values are added by `run`. `--jobs` changes no
    /// verdict.
    fn key(&self) -> String {
        let shape = Shape::new("CheckArgs")
            .field("file", &self.file)
            .field("update", &self.update)
            .neutral("jobs", "1")
            .field("players", &self.players.players)
            .neutral_threads_out()
            .neutral("long", blank::LONG);
        format!("check {shape}")
    }
}

/// Where `check` looks for a balance file when none is named, in order.
pub const DEFAULT_FILES: [&str; 2] = ["balance.toml", "scenarios/balance.toml"];

/// The named file, or the first of `DEFAULT_FILES` that exists.
fn balance_file(named: Option<&Path>) -> Result<PathBuf, CliError> {
    if let Some(f) = named {
        return Ok(f.to_path_buf());
    }
    DEFAULT_FILES.iter().map(PathBuf::from).find(|p| p.is_file()).ok_or_else(|| {
        CliError::input(format!(
            "no balance file named, and neither {} is in the working folder; name one: empires check FILE",
            DEFAULT_FILES.join(" nor ")
        ))
    })
}

pub fn run(mut a: CheckArgs) -> Result<(), CliError> {
    a.file = Some(balance_file(a.file.as_deref())?);
    let file_path = a.file.clone().unwrap_or_default();
    let name = file_path.display().to_string();
    let text = std::fs::read_to_string(&file_path).map_err(|e| CliError::input(format!("{name}: {e}")))?;
    let file = spec::parse(&text, &name)?;
    if a.jobs == 0 {
        return Err(CliError::input("--jobs must be at least 1"));
    }
    let dir = file_path.parent().map(|p| p.to_path_buf()).unwrap_or_default();
    // The baseline run's per-campaign values, for the paired tests.
    let sidecar = gate::baseline::path_of(&file_path);
    let stored = gate::baseline::Stored::read(&sidecar)?;
    let out = {
        let sidecar_text = std::fs::read_to_string(&sidecar).unwrap_or_default();
        // The scenario files the metrics play are part of the request: an
        // edited default.toml is another check, never the last one's folder.
        let mut played = String::new();
        for m in &file.metric {
            let p = gate::played(m, &dir).map_err(|e| e.at(format_args!("{name}: metric {:?}", m.name)))?;
            played.push_str(&format!("{} {}\n", p.file, p.sha256));
        }
        let request = Request::new(&format!("{}\n{text}\n{sidecar_text}", a.key()), &played);
        let stem = file_path.file_stem().map_or("balance".into(), |s| s.to_string_lossy().to_string());
        a.out.resolve("check", &stem, &request)?
    };
    let planned: u64 = file.metric.iter().map(|m| gate::planned(m, &dir)).sum();
    let long = Long::start(a.threads, a.long, planned, &out)?;
    // `--jobs` workers take metrics in turn; each metric's campaigns run on
    // the command's pool (so its progress, Ctrl-C and kept work), and the
    // cores stay busy either way.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Result<gate::measure::Sample, crate::error::Error>>>> =
        file.metric.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..a.jobs.min(file.metric.len()).max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(m) = file.metric.get(i) else { break };
                    let r = long.pool().install(|| gate::measure_sample(m, &dir, a.players.players.as_deref()));
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    let results: Vec<Result<gate::measure::Sample, crate::error::Error>> = slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err(crate::error::Error::internal("a metric was not measured")))
        })
        .collect();
    if results.iter().any(|r| r.as_ref().is_err_and(Interruption::is_interruption)) {
        return Err(long.interrupted(""));
    }
    long.finish();
    let mut measured = Vec::new();
    let mut errors = Vec::new();
    // Every metric's problem is listed; the exit code is the gravest
    // class among them (a bug or a failed write over bad input).
    let mut class = crate::error::Class::Input;
    for (m, r) in file.metric.iter().zip(results) {
        match r {
            Ok(v) => measured.push(v),
            Err(e) => {
                if e.class() != crate::error::Class::Input {
                    class = e.class();
                }
                errors.push(format!("{name}: metric {:?}: {e}", m.name));
            }
        }
    }
    if !errors.is_empty() {
        return Err(crate::error::Error::new(class, errors.join("\n")).into());
    }
    let judged = gate::judge(&file, measured, &stored);
    let verdicts = crate::gate::text::text(&name, file.alpha, &judged, a.update);
    say!("{verdicts}");
    let check_txt = out.join("check.txt");
    crate::report::files::write_atomic(&check_txt, verdicts.as_bytes())
        .map_err(|e| CliError::io(format!("{}: {e}", check_txt.display())))?;
    if a.update {
        let new = gate::update(&text, &judged).map_err(|e| e.at(&name))?;
        // The values first: a balance file whose baselines the values do not
        // match falls back to unpaired tests, never to wrong pairs.
        let values = gate::stored(&judged);
        if !values.metrics.is_empty() {
            crate::report::files::write_atomic(&sidecar, values.to_json().as_bytes())
                .map_err(|e| CliError::io(format!("{}: {e}", sidecar.display())))?;
        }
        crate::report::files::write_atomic(&file_path, new.as_bytes())
            .map_err(|e| CliError::io(format!("{name}: {e}")))?;
        sayln!("baselines updated in {name}");
        if !values.metrics.is_empty() {
            sayln!("per-campaign baseline values ({} metrics) in {}", values.metrics.len(), sidecar.display());
        }
    }
    // After --update a baseline that moved is settled; a bound is not.
    let settled = |j: &gate::Judged| a.update && crate::gate::text::settled_by_update(j);
    if judged.iter().any(|j| !j.pass && !settled(j)) {
        let why = if a.update { " (a bound, which --update does not rewrite)" } else { "" };
        return Err(CliError::verdict(format!("{name}: balance check failed{why}")));
    }
    Ok(())
}
