//! What a long computation tells whoever runs it, and what it is told: how
//! many campaigns are done (a progress bar), whether to stop (Ctrl-C), and
//! which pieces of work already finished in an earlier, interrupted run
//! (`--resume`).
//!
//! A `Watch` is ambient, like a tracing span: the command line enters one
//! on every worker of the thread pool it plays on (`Watch::pool`), and the
//! few places that play campaigns (`Lineup`, the runner and the loops over
//! it) report to the watch of the thread they run on. So no study, ladder
//! or solver threads a handle through its signatures, and a library call
//! with no watch (a test, a benchmark) pays one thread-local read.
//!
//! None of it changes a result. Progress is only counted; a stop makes the
//! computation return `SetupError::Interrupted` (an error of its own class,
//! `Class::Interrupted` once it is the library's `Error`, which the command
//! line turns into exit 130 without asking again whether Ctrl-C was
//! pressed), never a partial answer; and a
//! memoized piece (`memo`) is keyed by everything it depends on (the
//! scenario's whole text, the seed, the campaigns, what is measured), so
//! finding it is the same as playing it again. The bytes of a piece are
//! encoded here (bincode, in memory); storing them is the caller's
//! (`Cells`), since this crate writes no file.

use crate::rules::setup::SetupError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::sync::Arc;

/// Where finished pieces of work are kept between runs, by key: the
/// caller's files (`empires`' `cli/cells.rs`).
pub trait Cells: Send + Sync {
    /// The bytes stored under `key`, if any.
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Keep `bytes` under `key` (a failure to keep it loses only the
    /// saving, so it is the store's to report).
    fn put(&self, key: &str, bytes: &[u8]);
    /// Whether this process plays the piece under `key`. A store shared by
    /// the shards of one request (each walking the same computation) says
    /// no to the pieces another shard plays: `memo` then waits for them to
    /// appear. Unsharded, every piece is this process's.
    fn mine(&self, _key: &str) -> bool {
        true
    }
}

/// How long a piece another shard plays is waited for, per campaign it
/// holds, beyond `PEER_GRACE`: a few times what this process takes to
/// play one (`Inner::pace`). Then the waiter plays it itself. A wait never
/// blocks for good: shards whose work-stealing reached their pieces in
/// different orders, or a shard that died, cost time, never a hang, and
/// the piece is the same either way. (Waiting without bound, two shards
/// each waiting on a piece the other had not reached stalled a run.)
const PEER_PATIENCE: f64 = 3.0;
const PEER_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

type Tick = Box<dyn Fn(u64) + Send + Sync>;
type Stop = Box<dyn Fn() -> bool + Send + Sync>;

struct Inner {
    tick: Tick,
    stop: Stop,
    cells: Option<Box<dyn Cells>>,
    /// Nanoseconds a campaign of the pieces this process played took, as
    /// a running mean (0 before the first): how long a peer's piece is
    /// worth waiting for.
    pace: std::sync::atomic::AtomicU64,
}

/// A handle on one long computation's progress, stop flag and cells.
#[derive(Clone)]
pub struct Watch(Arc<Inner>);

thread_local! {
    static CURRENT: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

impl Watch {
    /// `tick(n)` is told of every `n` campaigns done; `stop()` says whether
    /// to stop; `cells`, when given, holds finished pieces.
    pub fn new(
        tick: impl Fn(u64) + Send + Sync + 'static,
        stop: impl Fn() -> bool + Send + Sync + 'static,
        cells: Option<Box<dyn Cells>>,
    ) -> Watch {
        Watch(Arc::new(Inner {
            tick: Box::new(tick),
            stop: Box::new(stop),
            cells,
            pace: std::sync::atomic::AtomicU64::new(0),
        }))
    }

    /// A thread pool of `threads` workers (0: one per core) on every one
    /// of which this watch is entered. A computation run with the pool's
    /// `install` reports to it.
    pub fn pool(&self, threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
        let w = self.clone();
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .start_handler(move |_| CURRENT.with(|c| *c.borrow_mut() = Some(w.clone())))
            .exit_handler(|_| CURRENT.with(|c| *c.borrow_mut() = None))
            .build()
    }

    /// Enter this watch on the current thread until the guard drops (for a
    /// computation that runs on the caller's thread).
    pub fn enter(&self) -> Entered {
        let before = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        Entered(before)
    }
}

/// The watch entered by `Watch::enter`; dropping it restores the one before.
pub struct Entered(Option<Watch>);

impl Drop for Entered {
    fn drop(&mut self) {
        let before = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = before);
    }
}

fn with<R>(f: impl FnOnce(&Inner) -> R) -> Option<R> {
    CURRENT.with(|c| c.borrow().as_ref().map(|w| f(&w.0)))
}

/// `n` more campaigns are done.
pub fn played(n: u64) {
    with(|w| (w.tick)(n));
}

/// Whether the computation should stop now.
pub fn stopping() -> bool {
    with(|w| (w.stop)()).unwrap_or(false)
}

/// `Err(SetupError::Interrupted)` when the computation should stop.
pub fn check() -> Result<(), SetupError> {
    if stopping() { Err(SetupError::Interrupted) } else { Ok(()) }
}

/// Whether finished pieces are being kept (so a caller may skip building a
/// key nobody reads).
pub fn keeping() -> bool {
    with(|w| w.cells.is_some()).unwrap_or(false)
}

/// A piece of work worth `campaigns` campaigns: found under `key()` in the
/// watch's cells (counted as played at once), or computed and kept there.
/// `key` must name everything the value depends on; it is built only when
/// cells are kept. An error is never kept.
pub fn memo<T, E>(campaigns: u64, key: impl FnOnce() -> String, compute: impl FnOnce() -> Result<T, E>) -> Result<T, E>
where
    T: Serialize + DeserializeOwned,
{
    let Some(w) = CURRENT.with(|c| c.borrow().clone()) else { return compute() };
    let Some(store) = w.0.cells.as_deref() else { return compute() };
    let key = key();
    let config = bincode::config::standard();
    let found = |store: &dyn Cells| {
        let bytes = store.get(&key)?;
        bincode::serde::decode_from_slice::<T, _>(&bytes, config).ok().map(|(v, _)| v)
    };
    if let Some(value) = found(store) {
        (w.0.tick)(campaigns);
        return Ok(value);
    }
    if !store.mine(&key) {
        // Another shard plays it: wait a few times what playing it here
        // would take, then play it. Meanwhile this worker plays pending
        // work of the pool (this shard's own pieces, mostly), which is
        // what makes shards faster than one process; a wait inside such
        // work is bounded the same way, so nesting costs time, never a
        // hang.
        use std::sync::atomic::Ordering::Relaxed;
        let pace = std::time::Duration::from_nanos(w.0.pace.load(Relaxed).saturating_mul(campaigns));
        let patience = PEER_GRACE + pace.mul_f64(PEER_PATIENCE);
        let since = std::time::Instant::now();
        while !(w.0.stop)() && since.elapsed() < patience {
            if let Some(value) = found(store) {
                (w.0.tick)(campaigns);
                return Ok(value);
            }
            if !matches!(rayon::yield_now(), Some(rayon::Yield::Executed)) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
    let started = std::time::Instant::now();
    let value = compute()?;
    if campaigns > 0 {
        use std::sync::atomic::Ordering::Relaxed;
        let per = (started.elapsed().as_nanos() / campaigns as u128).min(u64::MAX as u128) as u64;
        let old = w.0.pace.load(Relaxed);
        w.0.pace.store(if old == 0 { per } else { (old * 3 + per) / 4 }, Relaxed);
    }
    if let Ok(bytes) = bincode::serde::encode_to_vec(&value, config) {
        store.put(&key, &bytes);
    }
    Ok(value)
}

/// Whether this process plays the piece under `key` (always, unless its
/// cells are shared by shards): callers play their own pieces first, so
/// that by the time they reach the others' those are mostly found.
pub fn mine(key: &str) -> bool {
    with(|w| w.cells.as_ref().is_none_or(|c| c.mine(key))).unwrap_or(true)
}

/// `range` cut at the multiples of `size`: the pieces a kept computation
/// is made of, aligned so that a resumed call over the same campaigns
/// finds the same pieces.
pub fn pieces(range: std::ops::Range<u64>, size: u64) -> Vec<std::ops::Range<u64>> {
    let size = size.max(1);
    let mut out = Vec::new();
    let mut start = range.start;
    while start < range.end {
        let end = ((start / size + 1) * size).min(range.end);
        out.push(start..end);
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    #[derive(Default)]
    struct Memory(Mutex<HashMap<String, Vec<u8>>>);
    impl Cells for Arc<Memory> {
        fn get(&self, key: &str) -> Option<Vec<u8>> {
            self.0.lock().unwrap().get(key).cloned()
        }
        fn put(&self, key: &str, bytes: &[u8]) {
            self.0.lock().unwrap().insert(key.into(), bytes.to_vec());
        }
    }

    /// A store shared with another shard, which plays the keys that start
    /// with "theirs".
    struct Shared(Arc<Memory>);
    impl Cells for Shared {
        fn get(&self, key: &str) -> Option<Vec<u8>> {
            self.0.get(key)
        }
        fn put(&self, key: &str, bytes: &[u8]) {
            self.0.put(key, bytes)
        }
        fn mine(&self, key: &str) -> bool {
            !key.starts_with("theirs")
        }
    }

    /// Another shard's piece is read when it is there, waited for while it
    /// is not, and played here once the wait runs out (a shard that died
    /// costs time, never a hang); this shard's own pieces are played and
    /// kept at once.
    #[test]
    fn another_shards_piece_is_read_or_after_a_bounded_wait_played() {
        let store = Arc::new(Memory::default());
        let w = Watch::new(|_| {}, || false, Some(Box::new(Shared(store.clone()))));
        let _in = w.enter();
        assert!(!mine("theirs 1") && mine("mine 1"));
        let config = bincode::config::standard();
        store.put("theirs 1", &bincode::serde::encode_to_vec(41u64, config).unwrap());
        let v: Result<u64, ()> = memo(1, || "theirs 1".into(), || unreachable!("found, not played"));
        assert_eq!(v, Ok(41));
        // Delivered while waited for.
        let late = store.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            late.put("theirs 2", &bincode::serde::encode_to_vec(42u64, config).unwrap());
        });
        let v: Result<u64, ()> = memo(1, || "theirs 2".into(), || Ok(0));
        t.join().unwrap();
        assert_eq!(v, Ok(42));
        // Never delivered: played here after the grace.
        let since = std::time::Instant::now();
        let v: Result<u64, ()> = memo(1, || "theirs 3".into(), || Ok(43));
        assert_eq!(v, Ok(43));
        assert!(since.elapsed() >= PEER_GRACE, "it waited first");
        let v: Result<u64, ()> = memo(1, || "mine 1".into(), || Ok(44));
        assert_eq!(v, Ok(44));
        assert!(store.get("mine 1").is_some() && store.get("theirs 3").is_some());
    }

    #[test]
    fn pieces_tile_a_range_at_multiples_of_their_size() {
        assert_eq!(pieces(0..0, 4), vec![]);
        assert_eq!(pieces(0..10, 4), vec![0..4, 4..8, 8..10]);
        assert_eq!(pieces(6..13, 4), vec![6..8, 8..12, 12..13]);
        assert_eq!(pieces(3..4, 1), vec![3..4]);
    }

    #[test]
    fn without_a_watch_nothing_is_counted_kept_or_stopped() {
        played(5);
        assert!(!stopping());
        assert!(!keeping());
        let mut computed = 0;
        let v: Result<u64, ()> = memo(
            3,
            || unreachable!("no key is built without cells"),
            || {
                computed += 1;
                Ok(7)
            },
        );
        assert_eq!((v, computed), (Ok(7), 1));
    }

    #[test]
    fn a_kept_piece_is_found_again_exactly_and_counted_as_played() {
        let done = Arc::new(AtomicU64::new(0));
        let memory = Arc::new(Memory::default());
        let d = done.clone();
        let w = Watch::new(move |n| _ = d.fetch_add(n, Ordering::SeqCst), || false, Some(Box::new(memory.clone())));
        let _in = w.enter();
        let value = vec![(1u64, f64::NAN, -0.0f64), (2, 0.1 + 0.2, f64::MIN_POSITIVE)];
        let first: Result<_, ()> = memo(10, || "k".into(), || Ok(value.clone()));
        assert_eq!(done.load(Ordering::SeqCst), 0, "a computed piece ticks as its campaigns play, not here");
        let again: Result<Vec<(u64, f64, f64)>, ()> = memo(10, || "k".into(), || panic!("found, not computed"));
        assert_eq!(done.load(Ordering::SeqCst), 10);
        let bits = |v: &[(u64, f64, f64)]| v.iter().map(|t| (t.0, t.1.to_bits(), t.2.to_bits())).collect::<Vec<_>>();
        assert_eq!(bits(&again.unwrap()), bits(&first.unwrap()));
        let err: Result<u64, &str> = memo(1, || "e".into(), || Err("no"));
        assert_eq!(err, Err("no"));
        assert!(!memory.0.lock().unwrap().contains_key("e"), "an error is never kept");
    }

    #[test]
    fn a_pool_enters_its_watch_on_every_worker_and_a_stop_is_seen() {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicU64::new(0));
        let (s, d) = (stop.clone(), done.clone());
        let w = Watch::new(move |n| _ = d.fetch_add(n, Ordering::SeqCst), move || s.load(Ordering::SeqCst), None);
        let pool = w.pool(2).unwrap();
        use rayon::prelude::*;
        pool.install(|| (0..100).into_par_iter().for_each(|_| played(1)));
        assert_eq!(done.load(Ordering::SeqCst), 100);
        assert!(!pool.install(stopping));
        stop.store(true, Ordering::SeqCst);
        assert!(pool.install(|| (0..4).into_par_iter().all(|_| stopping())));
        assert_eq!(pool.install(check), Err(SetupError::Interrupted), "a stop is its own error, not a message");
        assert!(!stopping(), "this thread entered no watch");
    }
}
