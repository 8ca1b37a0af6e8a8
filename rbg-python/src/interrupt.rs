//! Ctrl-C for the long calls (perft, random playouts, an agent's search).
//!
//! The work runs without the GIL on a worker thread; the calling thread, which holds the GIL
//! between waits, asks Python every [`POLL`] whether a signal handler raised (SIGINT gives
//! KeyboardInterrupt). If one did, it raises the stop flag of the [`Stoppable`] game the work
//! runs on, waits for the worker to notice and return, and passes the exception on.
//!
//! The flag is polled by [`Stoppable`], a [`Game`] that is the loaded [`AnyGame`] plus the flag:
//! every search the drivers and agents start checks the flag first and, once it is raised,
//! fails at once. The drivers and agents are generic over [`Game`], so none of them needs to
//! know about stopping. A stopped search reports [`STOPPED`]; the caller that raised the flag
//! knows that the run was stopped, not bounded, and says so.
//!
//! `Stoppable` forwards every method `AnyGame` implements itself, so each engine keeps its own
//! searches. Perft subtrees are counted by the engine ([`Stoppable::forward_subtrees`]) when it
//! sees the flag itself: the interpreter's count runs in rbg-core, which looks at
//! `PerftOptions::stop` once per subtree of two or more plies. A compiled library counts behind
//! its C interface, which carries no flag, so for it rbg-core's count runs over `Stoppable`
//! instead and sees the flag at every node (the library's own count is faster, but Ctrl-C
//! would wait for the whole subtree being counted).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use pyo3::prelude::*;
use rbg_core::dynamic::{AnyGame, DynScratch, DynState};
use rbg_core::perft::{PerftCounts, PerftOptions};
use rbg_core::playout::{PlayoutBuffers, PlayoutLimits, PlayoutOutcome};
use rbg_core::state_codec::StateCodecError;
use rbg_core::{Action, Game, GameInfo, MoveList, Player, PlayoutRng, SearchError};

use crate::errors::search_error;

/// How often the waiting thread asks Python about signals: short enough that Ctrl-C feels
/// immediate, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(20);

/// The worker thread's stack: as much as a main thread's, which ran the work before it moved
/// to a worker (the drivers' deep recursions move to fresh segments anyway, `rbg_core::stack`).
const WORKER_STACK: usize = 8 << 20;

/// The error a search on a stopped [`Stoppable`] returns. No search bound is zero, so the
/// callers that raised the flag (and only they see this) tell it from a real bound by the flag.
const STOPPED: SearchError = SearchError::SearchTooLarge { limit: 0 };

/// A loaded game whose searches fail with [`STOPPED`] once its flag is raised.
#[derive(Clone)]
pub struct Stoppable {
    any: AnyGame,
    stop: Arc<AtomicBool>,
    /// Whether perft subtrees are counted by the engine (see the module documentation).
    forward_subtrees: bool,
}

impl Stoppable {
    /// `any` with a flag of its own, lowered.
    pub fn new(any: &AnyGame) -> Self {
        Stoppable { any: any.clone(), stop: Arc::new(AtomicBool::new(false)), forward_subtrees: false }
    }

    /// `self` with perft subtrees counted by the engine (faster; Ctrl-C waits for a subtree).
    pub fn forward_subtrees(mut self, forward: bool) -> Self {
        self.forward_subtrees = forward;
        self
    }

    /// The stop flag, for drivers that look at it themselves (`PerftOptions::stop`).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The game without the flag.
    pub fn any(&self) -> &AnyGame {
        &self.any
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// `Err(STOPPED)` once the flag is raised.
    fn check(&self) -> Result<(), SearchError> {
        if self.stopped() {
            Err(STOPPED)
        } else {
            Ok(())
        }
    }

    /// Runs `work` on a worker thread without the GIL, polling for signals meanwhile: an
    /// exception from a signal handler (KeyboardInterrupt for Ctrl-C) stops the work and is
    /// raised instead of its result. The flag is lowered first, so a game stopped once runs
    /// again.
    pub fn run<T: Send>(&self, py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
        self.stop.store(false, Ordering::Relaxed);
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
                    self.stop.store(true, Ordering::Relaxed);
                    // The worker's next search fails at once; wait for it without the GIL.
                    py.allow_threads(|| worker.join()).ok();
                    return Err(interrupt);
                }
            }
        })
    }
}

impl Game for Stoppable {
    type State = DynState;
    type Scratch = DynScratch;

    fn info(&self) -> &GameInfo {
        self.any.info()
    }

    fn new_scratch(&self) -> DynScratch {
        self.any.new_scratch()
    }

    fn initial_state(&self) -> DynState {
        self.any.initial_state()
    }

    fn current_player(&self, s: &DynState) -> Player {
        self.any.current_player(s)
    }

    fn current_vertex(&self, s: &DynState) -> u32 {
        self.any.current_vertex(s)
    }

    fn piece(&self, s: &DynState, vertex: u32) -> u32 {
        self.any.piece(s, vertex)
    }

    fn variable(&self, s: &DynState, var: usize) -> i64 {
        self.any.variable(s, var)
    }

    fn rules_state(&self, s: &DynState) -> u32 {
        self.any.rules_state(s)
    }

    fn score(&self, s: &DynState, player: Player) -> i64 {
        self.any.score(s, player)
    }

    fn visit_moves<F>(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        self.check()?;
        self.any.visit_moves(s, sc, visit)
    }

    fn apply_move(&self, s: &mut DynState, m: &[Action]) {
        self.any.apply_move(s, m)
    }

    fn keeper_step(&self, s: &mut DynState, sc: &mut DynScratch) -> Result<bool, SearchError> {
        self.check()?;
        self.any.keeper_step(s, sc)
    }

    fn legal_moves(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        out: &mut MoveList,
    ) -> Result<(), SearchError> {
        self.check()?;
        self.any.legal_moves(s, sc, out)
    }

    fn next_actions(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        prefix: &[Action],
        out: &mut Vec<Action>,
    ) -> Result<(), SearchError> {
        self.check()?;
        self.any.next_actions(s, sc, prefix, out)
    }

    fn has_legal_move(&self, s: &mut DynState, sc: &mut DynScratch) -> Result<bool, SearchError> {
        self.check()?;
        self.any.has_legal_move(s, sc)
    }

    fn complete_keeper(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        limit: u64,
    ) -> Result<bool, SearchError> {
        self.check()?;
        self.any.complete_keeper(s, sc, limit)
    }

    fn monotonic_class(&self, s: &DynState) -> Option<u32> {
        self.any.monotonic_class(s)
    }

    fn is_still_legal(&self, s: &DynState, m: &[Action]) -> bool {
        self.any.is_still_legal(s, m)
    }

    fn monotonic_classes(&self) -> u32 {
        self.any.monotonic_classes()
    }

    fn encode_state(&self, s: &DynState, out: &mut Vec<u8>) {
        self.any.encode_state(s, out)
    }

    fn decode_state(&self, bytes: &[u8]) -> Result<DynState, StateCodecError> {
        self.any.decode_state(bytes)
    }

    /// rbg-core's count over `self`, which sees the flag at every node, unless subtrees are
    /// forwarded to the engine's count.
    fn perft_subtree(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        depth: u32,
        opts: &PerftOptions,
    ) -> Result<PerftCounts, SearchError> {
        self.check()?;
        if self.forward_subtrees {
            self.any.perft_subtree(s, sc, depth, opts)
        } else {
            rbg_core::perft::perft_subtree(self, s, sc, depth, opts)
        }
    }

    /// The engine's whole playout: one playout (milliseconds) between two looks at the flag.
    fn random_playout(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        buffers: &mut PlayoutBuffers,
        rng: &mut PlayoutRng,
        limits: &PlayoutLimits,
    ) -> Result<PlayoutOutcome, SearchError> {
        self.check()?;
        self.any.random_playout(s, sc, buffers, rng, limits)
    }
}
