//! Ctrl-C for the long calls (perft, random playouts, an agent's search).
//!
//! The work runs without the GIL on a worker thread; the calling thread, which holds the GIL
//! between waits, asks Python every [`POLL`] whether a signal handler raised (SIGINT gives
//! KeyboardInterrupt). If one did, it raises the stop flag of the [`Stoppable`] game the work
//! runs on (rbg-core's game with a stop flag: every search on it fails at once once the flag
//! is raised), waits for the worker to notice and return, and passes the exception on.

use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;
pub use rbg_core::stoppable::Stoppable;

use crate::errors::search_error;

/// How often the waiting thread asks Python about signals: short enough that Ctrl-C feels
/// immediate, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(20);

/// The worker thread's stack: as much as a main thread's, which ran the work before it moved
/// to a worker (the drivers' deep recursions move to fresh segments anyway, `rbg_core::stack`).
const WORKER_STACK: usize = 8 << 20;

/// Long work on a [`Stoppable`] game that Ctrl-C stops.
pub trait Run {
    /// Runs `work` on a worker thread without the GIL, polling for signals meanwhile: an
    /// exception from a signal handler (KeyboardInterrupt for Ctrl-C) stops the work and is
    /// raised instead of its result. The flag is lowered first, so a game stopped once runs
    /// again.
    fn run<T: Send>(&self, py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T>;
}

impl Run for Stoppable {
    fn run<T: Send>(&self, py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
        self.flag().store(false, Ordering::Relaxed);
        std::thread::scope(|scope| {
            let (done, mut finished) = mpsc::channel();
            let worker = std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    // The receiver only goes away once the result is no longer wanted.
                    let _ = done.send(work());
                })
                .map_err(|e| search_error(format!("cannot start a worker thread: {e}")))?;
            loop {
                // A receiver is not `Sync`: it goes into the GIL-free wait and comes back.
                let (received, back) = py.allow_threads(move || (finished.recv_timeout(POLL), finished));
                finished = back;
                match received {
                    Ok(result) => return Ok(result),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        // Joined here, so that the scope does not pass the panic on.
                        let _ = worker.join();
                        return Err(search_error("a worker thread panicked"));
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
                if let Err(interrupt) = py.check_signals() {
                    self.flag().store(true, Ordering::Relaxed);
                    // The worker's next search fails at once; wait for it without the GIL.
                    py.allow_threads(|| worker.join()).ok();
                    return Err(interrupt);
                }
            }
        })
    }
}
