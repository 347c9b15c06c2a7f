//! Ctrl-C (SIGINT): the process's one stop request. It is read only where
//! a stop is decided: by the `sim::watch::Watch` every long command's pool
//! enters (`long.rs`), which makes the computation return an interruption
//! (`Class::Interrupted`), and by `run`'s sink, which stops after the chunk
//! in flight and writes what it completed. Whether a command was
//! interrupted is then told by that error, or by the sink having stopped,
//! and it exits with `exit::INTERRUPTED`; nothing asks this flag again.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Start listening for Ctrl-C. The handler can be set once per process, so
/// a second call (tests run several commands in one process) is a no-op.
pub fn listen() {
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    STOP.load(Ordering::SeqCst)
}
