//! Ctrl-C (SIGINT): a long command finishes the step in flight (a chunk of
//! campaigns, a generation of tuning), writes what it completed, and exits
//! with `exit::INTERRUPTED`. One flag for the process, read between steps.

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
