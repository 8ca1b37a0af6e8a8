//! Ctrl-C during a long run: the run reports what it has so far, then the process exits with
//! [`INTERRUPTED_EXIT_CODE`].
//!
//! While an [`InterruptWatch`] lives, the first Ctrl-C only sets a flag that the run polls
//! ([`interrupted`]); the run then prints its partial results and exits itself. A second Ctrl-C,
//! or one while no watch is active, exits at once, as an unhandled Ctrl-C would.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

/// The exit code after Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT_CODE: i32 = 130;

/// Set by the Ctrl-C handler while a watch is active.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Whether a watch is active (Ctrl-C outside one exits at once).
static WATCHING: AtomicBool = AtomicBool::new(false);

/// Installs (once per process) the Ctrl-C handler.
fn install_handler() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Another handler installed by the embedding program wins; then Ctrl-C keeps its meaning.
        let _ = ctrlc::set_handler(|| {
            if WATCHING.load(Ordering::SeqCst) && !INTERRUPTED.swap(true, Ordering::SeqCst) {
                return;
            }
            std::process::exit(INTERRUPTED_EXIT_CODE);
        });
    });
}

/// Marks a run as able to report on Ctrl-C, until dropped.
pub struct InterruptWatch;

impl InterruptWatch {
    /// Installs the handler if needed and clears an earlier interruption.
    pub fn start() -> Self {
        install_handler();
        INTERRUPTED.store(false, Ordering::SeqCst);
        WATCHING.store(true, Ordering::SeqCst);
        InterruptWatch
    }
}

impl Drop for InterruptWatch {
    fn drop(&mut self) {
        WATCHING.store(false, Ordering::SeqCst);
    }
}

/// Whether Ctrl-C was pressed since the active watch started.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
