//! Where a command writes: a folder holds one result, and a command never
//! writes over another result.
//!
//! Every folder a command writes into carries `request.txt`: the command
//! line that made it and a key of the request (every flag that changes the
//! result, listed by each command in `key.rs`'s `ResultKey`, and the
//! resolved scenario's hash; not `--out`, `--threads`, `--quiet`,
//! `--resume` or the shard, which change nothing in it). A
//! command may write into a folder that is missing, empty, or holds the
//! same request (redoing or resuming it gives the same result); a folder
//! holding another request, or files no request recorded, is refused
//! (exit 2) unless `--overwrite`. The default folders are named by what was
//! asked, `reports/<kind>/<name>-<key>`, so two different requests never
//! meet in one by default.

use super::CliError;
use crate::report::files::write_atomic;
use clap::Args;
use sha2::{Digest, Sha256};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

/// The file that records which request a folder holds.
pub const REQUEST_FILE: &str = "request.txt";

/// Which command's output folder an [`Out`] names, for its help: where the
/// folder goes by default differs by command, and every command's text is
/// listed below (`folders!`), beside the one declaration of the flags.
pub trait Folder: Clone + Copy + Default + std::fmt::Debug + Send + Sync + 'static {
    /// The `--help` of `--out` (no final period: clap drops a doc
    /// comment's, and these stand beside them).
    const HELP: &'static str;
    /// Whether `--out` must be given (`merge`, whose folder no key names
    /// before its shards are read).
    const REQUIRED: bool = false;
}

/// `--out DIR` and `--overwrite`, declared once: every command that writes
/// a folder flattens `Out<ItsFolder>`.
#[derive(Args, Debug, Clone, Default)]
pub struct Out<F: Folder> {
    #[arg(id = "out", long = "out", value_name = "OUT", help = F::HELP, required = F::REQUIRED)]
    pub dir: Option<PathBuf>,
    // Named so, not `--force`, which `experiment restrict` gives to the
    // action kinds a player takes first.
    /// Write into the output folder even when it holds another result (its
    /// files are replaced as this result writes them; files this result
    /// does not write are left as they are).
    #[arg(long)]
    pub overwrite: bool,
    #[arg(skip)]
    folder: PhantomData<F>,
}

/// One zero-sized [`Folder`] per command (or family of commands sharing a
/// folder scheme), with its `--out` help.
macro_rules! folders {
    ($($(#[$doc:meta])* $name:ident $(required $req:literal)?: $help:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;

        impl Folder for $name {
            const HELP: &'static str = $help;
            $(const REQUIRED: bool = $req;)?
        }
    )*};
}

folders! {
    RunFolder: "Output directory (default: reports/runs/<scenario file>-s<seed>-<key>/, the key naming every other flag \
        that changes the result; plus shard-I-of-K/ for a shard)";
    /// `compare`, `sweep` and `experiment`.
    StudyFolder: "Output directory of the HTML page and its charts (default: reports/<command>/<scenario>-<key>/, the \
        key naming every flag that changes the result)";
    CheckFolder: "Output folder of check.txt, the verdicts as printed (default: reports/check/<file>-<key>, the key \
        naming the balance file's text and every flag that changes the verdicts)";
    TuneFolder: "Output directory (default: reports/tune/NAME-<key>, the key naming every flag that changes the result)";
    DeviateFolder: "Output directory (default: reports/deviate/STRATEGY-<key>, the key naming every flag that changes \
        the result)";
    ProbeFolder: "Output directory (default: reports/probe/STRATEGY-<key>, the key naming every flag that changes the \
        result)";
    ValueFolder: "Output directory (default: reports/value/STRATEGY-<key>, the key naming every flag that changes the \
        result)";
    StylesFolder: "Output directory (default: reports/styles/<scenario>-<key>, the key naming every flag that changes \
        the result)";
    PsroFolder: "Output directory (default: reports/psro/<scenario>-<key>, the key naming every flag that changes the \
        result)";
    LadderFolder: "Output directory (default: reports/ladder/<scenario>-<key>, the key naming every flag that changes \
        the result)";
    MetagameFolder: "Output directory (default: reports/metagame/<scenario>-<key>, the key naming every flag that \
        changes the result, with shard-I-of-K/ under it for a shard)";
    SensitivityFolder: "Output directory (default: reports/sensitivity/METRIC-sSEED-<key>, the key naming every flag \
        that changes the result; shard-I-of-K/ under it for a shard)";
    SolveFolder: "Output directory (default: reports/solve/KEY-sSEED-<key>, the key naming every flag that changes the \
        result)";
    TablesFolder: "Write tables.txt, tables.json, tables.csv and an HTML page with charts into this directory (default \
        reports/tables/NAME-KEY)";
    ReportFolder: "Output directory (default: RUN/report, beside the data it shows)";
    MergeFolder required true: "Output directory for the merged dataset, summary and manifest";
}

impl<F: Folder> Out<F> {
    /// `--out`, if given.
    pub fn given(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The folder a command writes: `--out`, or the request's default
    /// folder `reports/<kind>/<name>-<key>`, claimed for the request.
    pub fn resolve(&self, kind: &str, name: &str, request: &Request) -> Result<PathBuf, CliError> {
        let dir = self.given().map_or_else(|| request.default_dir(kind, name), Path::to_path_buf);
        claim(&dir, request, self.overwrite)?;
        Ok(dir)
    }

    /// [`resolve`](Self::resolve) for a command that may play one shard of
    /// its work (`what`, under `scenarios`): the whole request names the
    /// default folder, so every shard of it lands under one, in
    /// `shard-I-of-K/`; each shard's folder is claimed for the shard's own
    /// request.
    pub fn resolve_shard(
        &self,
        kind: &str,
        name: &str,
        what: &str,
        scenarios: &[&crate::scenario::Scenario],
        shard: Option<(u64, u64)>,
    ) -> Result<PathBuf, CliError> {
        let whole = Request::of(what, scenarios);
        let Some((i, k)) = shard else { return self.resolve(kind, name, &whole) };
        let dir = self
            .given()
            .map_or_else(|| whole.default_dir(kind, name).join(format!("shard-{i}-of-{k}")), Path::to_path_buf);
        claim(&dir, &Request::of(&format!("{what} shard {i}/{k}"), scenarios), self.overwrite)?;
        Ok(dir)
    }

    /// `dir` (a folder the command names itself) claimed for `request`.
    pub fn claim_at(&self, dir: &Path, request: &Request) -> Result<(), CliError> {
        claim(dir, request, self.overwrite)
    }
}

/// What a result answers: a key of every flag that changes it, and the
/// command line as typed (for the messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub key: String,
    pub line: String,
}

/// This process's command line, as `empires ARGS` quoted for a shell.
pub fn command_line() -> String {
    let mut args = std::env::args();
    let _ = args.next();
    std::iter::once("empires".to_string()).chain(args.map(quote)).collect::<Vec<_>>().join(" ")
}

impl Request {
    /// The request of `what` (a canonical text of the flags that change
    /// the result: a command's `ResultKey`, or what it reads) under the
    /// resolved scenario `hash` (empty for a command that reads no
    /// scenario).
    pub fn new(what: &str, scenario_hash: &str) -> Request {
        let digest = Sha256::digest(format!("{what}\n{scenario_hash}").as_bytes());
        let key = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        Request { key, line: command_line() }
    }

    /// The request of `what` under the scenarios it plays.
    pub fn of(what: &str, scenarios: &[&crate::scenario::Scenario]) -> Request {
        let hash: Vec<String> = scenarios.iter().map(|s| crate::report::manifest::scenario_hash(s)).collect();
        Request::new(what, &hash.join(","))
    }

    /// `reports/<kind>/<name>-<key>`: the default folder of this request.
    pub fn default_dir(&self, kind: &str, name: &str) -> PathBuf {
        PathBuf::from("reports").join(kind).join(format!("{name}-{}", &self.key[..8]))
    }

    fn text(&self) -> String {
        format!("{}\nkey {}\n", self.line, self.key)
    }
}

/// A shell word, quoted when it needs to be.
fn quote(s: String) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c)) {
        s
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The key a folder's `request.txt` records, and its command line.
fn recorded(dir: &Path) -> Option<(String, String)> {
    let text = std::fs::read_to_string(dir.join(REQUEST_FILE)).ok()?;
    let mut lines = text.lines();
    let line = lines.next()?.to_string();
    let key = lines.next()?.strip_prefix("key ")?.to_string();
    Some((key, line))
}

/// Take `dir` for `request`: create it, or check that it may be written
/// (missing, empty, the same request, or `--overwrite`), and record the request
/// in it.
pub fn claim(dir: &Path, request: &Request, overwrite: bool) -> Result<(), CliError> {
    if dir.exists() && !overwrite {
        // The shards of one request start together: one may have made the
        // folder and be writing its record (a temporary file first) as
        // another looks. A second's grace tells that from a stranger's
        // folder.
        let mut record = recorded(dir);
        for _ in 0..20 {
            if record.is_some() || std::fs::read_dir(dir).map(|mut d| d.next().is_none()).unwrap_or(true) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            record = recorded(dir);
        }
        match record {
            Some((key, _)) if key == request.key => {}
            Some((_, line)) => {
                return Err(CliError::input(format!(
                    "{}: holds another result (made by: {line}); give another --out, or --overwrite to write over it",
                    dir.display()
                )));
            }
            None => {
                let empty = std::fs::read_dir(dir).map(|mut d| d.next().is_none()).unwrap_or(false);
                if !empty {
                    return Err(CliError::input(format!(
                        "{}: is not empty and records no request (no {REQUEST_FILE}): give another --out, or --overwrite to write into it",
                        dir.display()
                    )));
                }
            }
        }
    }
    super::create_out_dir(dir)?;
    // The same request keeps its record of having finished (`completed`);
    // a command that starts it afresh drops it (`reopen`).
    let done = recorded(dir).filter(|(key, _)| *key == request.key).and_then(|_| completed(dir));
    let text = request.text() + &done.map_or(String::new(), complete_line);
    write_atomic(&dir.join(REQUEST_FILE), text.as_bytes())
        .map_err(|e| CliError::io(format!("{}: cannot write {REQUEST_FILE}: {e}", dir.display())))
}

/// `complete, exit 1`: the line `request.txt` ends with once the request
/// finished in its folder, with the exit code it finished with.
fn complete_line(code: i32) -> String {
    format!("complete, exit {code}\n")
}

/// The exit code the request of `dir` finished with, if it finished there.
pub fn completed(dir: &Path) -> Option<i32> {
    let text = std::fs::read_to_string(dir.join(REQUEST_FILE)).ok()?;
    text.lines().nth(2)?.strip_prefix("complete, exit ")?.parse().ok()
}

/// Record in `dir` that its request finished with exit `code` (so
/// `--resume` there has nothing left to do), or, without a code, that it
/// is under way again.
pub fn mark(dir: &Path, code: Option<i32>) {
    let Ok(text) = std::fs::read_to_string(dir.join(REQUEST_FILE)) else { return };
    let head: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    let _ = write_atomic(&dir.join(REQUEST_FILE), (head + &code.map_or(String::new(), complete_line)).as_bytes());
}
