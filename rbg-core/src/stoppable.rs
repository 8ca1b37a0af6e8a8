//! A loaded game that can be stopped from another thread: [`Stoppable`] is an [`AnyGame`]
//! plus a stop flag. Every search the drivers and agents start on it checks the flag first
//! and, once it is raised, fails at once with [`STOPPED`]. The drivers and agents are generic
//! over [`Game`], so none of them needs to know about stopping: Python's Ctrl-C (rbg-python)
//! and the Stop and Cancel buttons of `rbg serve` raise the flag of the game a search runs on.
//! A caller that raised the flag knows that the run was stopped, not bounded, and says so.
//!
//! `Stoppable` forwards every method `AnyGame` implements itself, so each engine keeps its own
//! searches. Perft subtrees are counted by the engine ([`Stoppable::forward_subtrees`]) when it
//! sees the flag itself: the interpreter's count runs in this crate, which looks at
//! `PerftOptions::stop` once per subtree of two or more plies. A compiled library counts behind
//! its C interface, which carries no flag, so for it this crate's count runs over `Stoppable`
//! instead and sees the flag at every node (the library's own count is faster, but a stop
//! would wait for the whole subtree being counted).

use core::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::dynamic::{AnyGame, DynScratch, DynState};
use crate::perft::{PerftCounts, PerftOptions};
use crate::playout::{PlayoutBuffers, PlayoutLimits, PlayoutOutcome};
use crate::state_codec::StateCodecError;
use crate::{Action, Game, GameInfo, MoveList, Player, PlayoutRng, SearchError};

/// The error a search on a stopped [`Stoppable`] returns. No search bound is zero, so the
/// callers that raised the flag (and only they see this) tell it from a real bound by the flag.
pub const STOPPED: SearchError = SearchError::SearchTooLarge { limit: 0 };

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

    /// `self` with perft subtrees counted by the engine (faster; a stop waits for a subtree).
    pub fn forward_subtrees(mut self, forward: bool) -> Self {
        self.forward_subtrees = forward;
        self
    }

    /// The stop flag, for drivers that look at it themselves (`PerftOptions::stop`).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// `any` with the flag `stop` (raised by its owner to stop every search on the game).
    pub fn with_flag(any: &AnyGame, stop: Arc<AtomicBool>) -> Self {
        Stoppable { any: any.clone(), stop, forward_subtrees: false }
    }

    /// The game without the flag.
    pub fn any(&self) -> &AnyGame {
        &self.any
    }

    /// Whether the flag is raised.
    pub fn stopped(&self) -> bool {
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
            crate::perft::perft_subtree(self, s, sc, depth, opts)
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
