//! A long command's progress bar, Ctrl-C and `--resume`, in one place.
//!
//! `Long::start` enters a `sim::watch::Watch` on every worker of the
//! command's pool: the library counts each campaign it plays (the bar
//! moves per campaign, with rate and ETA), stops at the next campaign when
//! Ctrl-C is pressed, and keeps each finished piece of work in
//! `OUT/cells/` (`cells`). A stopped computation returns an error of its
//! own class (`Class::Interrupted`, exit 130), so the command knows it was
//! stopped from the error itself: it says what was kept; the same command
//! with `--resume` then finds those pieces and plays only the rest, to the
//! same files an uninterrupted run writes (each piece is keyed by everything
//! it depends on). A run that ends any other way removes `cells/`.

use super::args::ThreadsArg;
use super::{CliError, exit};
use super::{cells, interrupt, out, progress};
use crate::sim::watch::Watch;
use crate::strength::tune::Flow;
use clap::Args;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// `--quiet` and `--resume`, on every long command (and `run`).
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct LongArgs {
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Continue a command stopped by Ctrl-C in the same output folder: what
    /// it finished (the campaigns `run` wrote, the work the others kept in
    /// OUT/cells/) is reused, the rest is played, and the files are those of
    /// an uninterrupted run; where the request already finished, nothing is
    /// played.
    #[arg(long)]
    pub resume: bool,
}

/// Whether an error is an interruption (Ctrl-C), told by its class: the
/// library returns one as `Class::Interrupted`, never as a message to
/// recognise, so no command asks again whether Ctrl-C was pressed.
pub trait Interruption {
    fn is_interruption(&self) -> bool;
}

impl Interruption for CliError {
    fn is_interruption(&self) -> bool {
        self.code == exit::INTERRUPTED
    }
}

impl Interruption for crate::error::Error {
    fn is_interruption(&self) -> bool {
        self.is_interrupted()
    }
}

impl Interruption for crate::balance::solve::SolveError {
    fn is_interruption(&self) -> bool {
        matches!(self, crate::balance::solve::SolveError::Failed(e) if e.is_interrupted())
    }
}

/// A pool whose workers count campaigns on `bar`, for `run`: it keeps no
/// pieces and is never told to stop, because `run`'s sink writes each
/// chunk as it comes and stops itself on Ctrl-C, after the chunk in
/// flight, so that what it wrote is a prefix of the uninterrupted run.
pub fn counted_pool(threads: ThreadsArg, bar: &ProgressBar) -> Result<rayon::ThreadPool, CliError> {
    let b = bar.clone();
    threads.pool(&Watch::new(move |k| b.inc(k), || false, None))
}

/// The folders of the long commands this process started: `finished`
/// records in each that its request finished.
static OPEN: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// The command ended with exit `code`: unless it was stopped (Ctrl-C, exit
/// 130) or failed, its folders record that their request finished, so
/// `--resume` there plays nothing.
pub fn finished(code: i32) {
    if !matches!(code, exit::SUCCESS | exit::VERDICT) {
        return;
    }
    if let Ok(open) = OPEN.lock() {
        for dir in open.iter() {
            out::mark(dir, Some(code));
        }
    }
}

/// A long command under way.
pub struct Long {
    bar: ProgressBar,
    pool: rayon::ThreadPool,
    out: PathBuf,
    quiet: bool,
    /// The command stopped for Ctrl-C (`interrupted`): its kept pieces
    /// stay for `--resume`.
    stopped: AtomicBool,
    /// One shard of several sharing `out/cells/`: the pieces stay for the
    /// others.
    shared: bool,
}

impl Long {
    /// Start a command that plays `total` campaigns (an upper bound where
    /// a search may stop early) and writes into `out`.
    pub fn start(threads: ThreadsArg, flags: LongArgs, total: u64, out: &Path) -> Result<Long, CliError> {
        Long::start_shard(threads, flags, total, out, None)
    }

    /// [`start`](Self::start) for shard `I` of `K` of one request, every
    /// shard in the same `out` (a shared file system): each walks the
    /// whole computation, plays the pieces that fall to it and reads the
    /// others' from `out/cells/` as they appear, so all K end with the
    /// same answer in about a K-th of the time. The kept pieces are the
    /// shards' meeting place: a shard neither clears them when it starts
    /// nor when it ends (the next unsharded run there without `--resume`
    /// does).
    pub fn start_shard(
        threads: ThreadsArg,
        flags: LongArgs,
        total: u64,
        out: &Path,
        shard: Option<(u64, u64)>,
    ) -> Result<Long, CliError> {
        interrupt::listen();
        if flags.resume
            && let Some(code) = out::completed(out)
        {
            // Nothing is missing: the request finished here.
            return Err(CliError {
                code,
                message: format!(
                    "{}: already complete (this request finished there, exit {code}); --resume played nothing and \
                     left its files as they are (without --resume the command starts afresh)",
                    out.display()
                ),
            });
        }
        if !flags.resume && shard.is_none() {
            cells::clear(out);
        }
        out::mark(out, None);
        if let Ok(mut open) = OPEN.lock() {
            open.push(out.to_path_buf());
        }
        let bar = progress::campaigns(total, flags.quiet);
        let b = bar.clone();
        let tick = move |n| {
            b.inc(n);
            // A planned length is an upper bound or, for a search, an
            // estimate: never let the count run past it.
            if b.length().is_some_and(|len| b.position() > len) {
                b.set_length(b.position());
            }
        };
        let watch = Watch::new(tick, interrupt::requested, Some(Box::new(cells::Files::shared(out, shard))));
        let pool = threads.pool(&watch)?;
        Ok(Long {
            bar,
            pool,
            out: out.to_path_buf(),
            quiet: flags.quiet,
            stopped: AtomicBool::new(false),
            shared: shard.is_some(),
        })
    }

    /// Run `f` on the command's pool. An interruption it returns becomes
    /// exit 130 with what was kept and what to do next.
    pub fn run<T: Send>(&self, f: impl FnOnce() -> Result<T, CliError> + Send) -> Result<T, CliError> {
        match self.pool.install(f) {
            Err(e) if e.is_interruption() => Err(self.interrupted("")),
            r => r,
        }
    }

    /// `r`, or exit 130 when it is an interruption (for a step whose other
    /// errors the command sorts itself).
    pub fn check<T, E: Interruption>(&self, r: Result<T, E>) -> Result<Result<T, E>, CliError> {
        match r {
            Err(e) if e.is_interruption() => Err(self.interrupted("")),
            r => Ok(r),
        }
    }

    /// The exit-130 error of a command stopped by Ctrl-C, `when` saying how
    /// far it got.
    pub fn interrupted(&self, when: &str) -> CliError {
        self.stopped.store(true, Ordering::SeqCst);
        self.bar.finish_and_clear();
        let when = if when.is_empty() { String::new() } else { format!(" {when}") };
        CliError::interrupted(format!(
            "{}: interrupted by Ctrl-C{when}; what finished is kept in {}; run the same command with --resume to \
             continue",
            self.out.display(),
            self.out.join(cells::DIR).display()
        ))
    }

    /// `n` campaigns were done before this run (a resumed search).
    pub fn skip(&self, n: u64) {
        self.bar.inc(n);
        self.bar.reset_eta();
    }

    /// The work grew by `n` campaigns once known (a held-out evaluation
    /// whose size the search decides).
    pub fn grow(&self, n: u64) {
        if let Some(len) = self.bar.length() {
            self.bar.set_length(len + n);
        }
    }

    /// A line on standard error above the bar (unless `--quiet`), for a
    /// search's steps.
    pub fn println(&self, line: String) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() { eprintln!("{line}") } else { self.bar.println(line) }
    }

    /// A line after the bar (a search's state).
    pub fn message(&self, m: String) {
        self.bar.set_message(m);
    }

    /// The pool, for a step run outside `run`'s Ctrl-C handling.
    pub fn pool(&self) -> &rayon::ThreadPool {
        &self.pool
    }

    /// Clear the bar (the command then prints its answer).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Long {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
        // Kept pieces serve only a resume after Ctrl-C.
        if !self.stopped.load(Ordering::SeqCst) && !self.shared {
            cells::clear(&self.out);
        }
    }
}

/// What a search stopped by Ctrl-C recorded in `path`, read with `parse`
/// when `resume` asks for it: `None` without `--resume`, or when it
/// stopped before recording anything (its kept pieces are in OUT/cells).
pub fn read_record<T>(
    resume: bool,
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<T>, CliError> {
    if !resume {
        return Ok(None);
    }
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text).map(Some).map_err(|e| CliError::input(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CliError::input(format!("{}: cannot read: {e}", path.display()))),
    }
}

/// Write a search's record to `path` as JSON (atomically).
pub fn write_record<T: serde::Serialize>(path: &Path, record: &T) -> Result<(), CliError> {
    let json = serde_json::to_string(record).expect("a record serialises");
    crate::report::files::write_file(path, json.as_bytes()).map_err(CliError::from)
}

/// What a search is told after each of its steps, once `keep` has kept
/// what it recorded: stop when keeping failed (the error goes to `err`,
/// for the command to return) or Ctrl-C was pressed (the watch the pool
/// entered says so), else go on.
pub fn after_step(err: &mut Option<CliError>, keep: impl FnOnce() -> Result<(), CliError>) -> Flow {
    if let Err(e) = keep() {
        *err = Some(e);
        return Flow::Stop;
    }
    if crate::sim::watch::stopping() { Flow::Stop } else { Flow::Continue }
}
