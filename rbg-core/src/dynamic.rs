//! A game handle whose engine is chosen at run time.
//!
//! [`Game`] is generic: its state and scratch types differ per reasoner, so code that picks the
//! game at run time (a server, a Python binding, a match runner loading compiled reasoners) cannot
//! name them. This module erases them:
//!
//! * [`DynGame`] is an object-safe mirror of [`Game`], implemented for every `G: Game` (and only
//!   through that blanket implementation). States and scratch are passed as `dyn Any` and
//!   downcast with a check, so a value of the wrong type is an error, never a panic.
//! * [`AnyGame`] is the handle: a shared `Arc<dyn DynGame>` plus an identity. It implements
//!   [`Game`] itself with [`DynState`] and [`DynScratch`] as state and scratch, so every driver
//!   (perft, flat Monte Carlo, agents) runs on it unchanged.
//!
//! # Identity and foreign states
//!
//! Two handles over the same engine type (two interpreted games, say) have states of the same
//! Rust type, so a type check alone cannot tell a state of one from a state of the other. Each
//! handle therefore gets a process-unique identity when it is created; clones of a handle share
//! it, and every state carries the identity of the handle that made it. [`AnyGame::check`] and
//! the `try_` methods report a foreign state as [`DynError::ForeignState`]. The [`Game`]
//! methods, which have no error channel for it, treat a foreign state as a finished game: no
//! legal moves, the keeper to move, every piece, variable and score 0, moves and encodings
//! ignored. A foreign scratch is not an error at all: it holds no game data, so it is replaced
//! by a fresh one.
//!
//! # Cost
//!
//! The drivers' hot operations ([`Game::legal_moves`], [`Game::apply_move`],
//! [`Game::complete_keeper`], state `clone_from`) each cross the erasure once per call, not once
//! per move: the move loop itself runs monomorphised inside the engine. Only
//! [`Game::visit_moves`] calls its visitor through a `dyn FnMut`.
//!
//! # Example
//!
//! ```
//! use rbg_core::{dynamic::AnyGame, perft::perft, toy::Nim, Game};
//! let game = AnyGame::new(Nim::new(4));
//! let counts = perft(&game, 2, &Default::default()).unwrap();
//! assert_eq!((counts.leaves, counts.nodes), (4, 7));
//! // States serialise to bytes and load back into the same game.
//! let mut bytes = Vec::new();
//! game.encode_state(&game.initial_state(), &mut bytes);
//! assert_eq!(game.decode_state(&bytes).unwrap(), game.initial_state());
//! ```

use core::any::Any;
use core::fmt;
use core::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::game::{Game, GameInfo, Player, SearchError, KEEPER};
use crate::moves::{Action, MoveList};
use crate::perft::{PerftCounts, PerftOptions};
use crate::playout::{PlayoutBuffers, PlayoutLimits, PlayoutOutcome};
use crate::rng::PlayoutRng;
use crate::split::SplitMoves;
use crate::state_codec::StateCodecError;

/// Why an operation of the dynamic layer failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynError {
    /// The state belongs to another game handle (or has another engine's type).
    ForeignState,
    /// The move is not one of the legal moves of the state.
    IllegalMove,
    /// The engine's search stopped at a bound.
    Search(SearchError),
}

impl From<SearchError> for DynError {
    fn from(e: SearchError) -> Self {
        DynError::Search(e)
    }
}

impl fmt::Display for DynError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynError::ForeignState => write!(f, "the state belongs to another game"),
            DynError::IllegalMove => write!(f, "the move is not legal in this state"),
            DynError::Search(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DynError {}

/// A game state of unknown type: what [`DynGame`] hands out and takes back.
///
/// Implemented for every type that can be a [`Game::State`].
pub trait ErasedState: Any + Send + Sync + fmt::Debug {
    /// A boxed copy.
    fn clone_boxed(&self) -> Box<dyn ErasedState>;
    /// Makes `target` a copy of `self`, in place (reusing its buffers) when it has the same type.
    fn clone_into_box(&self, target: &mut Box<dyn ErasedState>);
    /// Whether `other` has the same type and an equal value.
    fn eq_erased(&self, other: &dyn ErasedState) -> bool;
}

impl<T> ErasedState for T
where
    T: Clone + PartialEq + Send + Sync + fmt::Debug + 'static,
{
    fn clone_boxed(&self) -> Box<dyn ErasedState> {
        Box::new(self.clone())
    }

    #[inline]
    fn clone_into_box(&self, target: &mut Box<dyn ErasedState>) {
        match (&mut **target as &mut dyn Any).downcast_mut::<T>() {
            Some(t) => t.clone_from(self),
            None => *target = self.clone_boxed(),
        }
    }

    fn eq_erased(&self, other: &dyn ErasedState) -> bool {
        (other as &dyn Any).downcast_ref::<T>() == Some(self)
    }
}

/// The [`Game`] methods that [`DynGame`] mirrors and [`AnyGame`] forwards, listed once: the
/// trait [`DynGame`], its implementation for every `G: Game` and [`AnyGame`]'s implementation
/// of [`Game`] are each made from this list by a callback macro, so a method added to [`Game`]
/// (a hook with a default body, say) crosses the erasure by one line here. The methods that
/// need more than forwarding (range checks, the visitor, state construction) are written out.
///
/// * `search`: a method on a state and a scratch returning `Result<T, SearchError>`, with what
///   it answers for a foreign state (it may use the arguments, e.g. clear an output);
/// * `query`: a method on a state, with its answer for a foreign state;
/// * `constant`: a method on the game alone.
macro_rules! erased_hooks {
    ($callback:ident) => {
        $callback! {
            search {
                fn keeper_step() -> bool, foreign false;
                fn count_moves() -> Option<u64>, foreign None;
                fn apply_nth_move(n: u64) -> bool, foreign false;
                fn legal_moves(out: &mut MoveList) -> (), foreign out.clear();
                fn split_moves(out: &mut SplitMoves) -> (), foreign {
                    let _ = out.fill(|_| Ok::<(), SearchError>(()));
                };
                fn next_actions(prefix: &[Action], out: &mut Vec<Action>) -> (), foreign out.clear();
                fn has_legal_move() -> bool, foreign false;
                fn play_class_move(class: u32, a: Action, keeper_limit: u64) -> bool, foreign false;
                fn complete_keeper(limit: u64) -> bool, foreign false;
                fn random_playout(
                    buffers: &mut PlayoutBuffers,
                    rng: &mut PlayoutRng,
                    limits: &PlayoutLimits
                ) -> PlayoutOutcome, foreign PlayoutOutcome { moves_exact: true, ..Default::default() };
                fn perft_subtree(depth: u32, opts: &PerftOptions) -> PerftCounts,
                    foreign PerftCounts { leaves: (depth == 0) as u64, nodes: 1 };
            }
            query {
                fn monotonic_class() -> Option<u32>, foreign None;
                fn is_still_legal(m: &[Action]) -> bool, foreign false;
                fn monotonic_moves(class: u32, out: &mut Vec<Action>) -> bool, foreign false;
            }
            constant {
                fn monotonic_classes() -> u32;
                fn rules_fingerprint() -> u64;
            }
        }
    };
}

/// [`erased_hooks!`] into [`DynGame`]'s method declarations.
macro_rules! dyn_game_methods {
    (
        search { $(fn $sname:ident($($sarg:ident: $sty:ty),* $(,)?) -> $sret:ty, foreign $sforeign:expr;)* }
        query { $(fn $qname:ident($($qarg:ident: $qty:ty),*) -> $qret:ty, foreign $qforeign:expr;)* }
        constant { $(fn $cname:ident() -> $cret:ty;)* }
    ) => {
        $(
            #[doc = concat!("See [`Game::", stringify!($sname), "`].")]
            fn $sname(&self, s: &mut dyn Any, sc: &mut dyn Any $(, $sarg: $sty)*) -> Result<$sret, DynError>;
        )*
        $(
            #[doc = concat!("See [`Game::", stringify!($qname), "`]; `None` for a state of another type.")]
            fn $qname(&self, s: &dyn Any $(, $qarg: $qty)*) -> Option<$qret>;
        )*
        $(
            #[doc = concat!("See [`Game::", stringify!($cname), "`].")]
            fn $cname(&self) -> $cret;
        )*
    };
}

/// [`erased_hooks!`] into the implementation of [`DynGame`] for every `G: Game`.
macro_rules! engine_methods {
    (
        search { $(fn $sname:ident($($sarg:ident: $sty:ty),* $(,)?) -> $sret:ty, foreign $sforeign:expr;)* }
        query { $(fn $qname:ident($($qarg:ident: $qty:ty),*) -> $qret:ty, foreign $qforeign:expr;)* }
        constant { $(fn $cname:ident() -> $cret:ty;)* }
    ) => {
        $(
            #[inline]
            fn $sname(&self, s: &mut dyn Any, sc: &mut dyn Any $(, $sarg: $sty)*) -> Result<$sret, DynError> {
                let (s, sc) = both::<G>(s, sc)?;
                Ok(Game::$sname(self, s, sc $(, $sarg)*)?)
            }
        )*
        $(
            fn $qname(&self, s: &dyn Any $(, $qarg: $qty)*) -> Option<$qret> {
                state::<G>(s).map(|s| Game::$qname(self, s $(, $qarg)*))
            }
        )*
        $(
            fn $cname(&self) -> $cret {
                Game::$cname(self)
            }
        )*
    };
}

/// [`erased_hooks!`] into [`AnyGame`]'s implementation of [`Game`]: a foreign state gets the
/// listed answer, and so does a type mismatch behind a matching identity (impossible for states
/// made by the handle); search errors pass through.
macro_rules! any_game_methods {
    (
        search { $(fn $sname:ident($($sarg:ident: $sty:ty),* $(,)?) -> $sret:ty, foreign $sforeign:expr;)* }
        query { $(fn $qname:ident($($qarg:ident: $qty:ty),*) -> $qret:ty, foreign $qforeign:expr;)* }
        constant { $(fn $cname:ident() -> $cret:ty;)* }
    ) => {
        $(
            #[inline]
            fn $sname(&self, s: &mut DynState, sc: &mut DynScratch $(, $sarg: $sty)*) -> Result<$sret, SearchError> {
                let Some((s, sc)) = self.parts(s, sc) else { return Ok($sforeign) };
                match self.game.$sname(s, sc $(, $sarg)*) {
                    Ok(v) => Ok(v),
                    Err(DynError::Search(e)) => Err(e),
                    Err(DynError::ForeignState | DynError::IllegalMove) => Ok($sforeign),
                }
            }
        )*
        $(
            fn $qname(&self, s: &DynState $(, $qarg: $qty)*) -> $qret {
                match self.erased(s) {
                    Some(s) => self.game.$qname(s $(, $qarg)*).unwrap_or($qforeign),
                    None => $qforeign,
                }
            }
        )*
        $(
            fn $cname(&self) -> $cret {
                self.game.$cname()
            }
        )*
    };
}

/// The object-safe form of [`Game`], implemented for every `G: Game + Send + 'static`.
///
/// States are [`ErasedState`]s made by [`DynGame::initial_state`] or [`DynGame::decode_state`]
/// of an engine of the same type; scratch values come from [`DynGame::new_scratch`]. A value of
/// another type gives `None`, [`DynError::ForeignState`] or `false` (never a panic). Most code
/// wants [`AnyGame`], which adds the per-game identity check and implements [`Game`].
pub trait DynGame: Send + Sync {
    /// See [`Game::info`].
    fn info(&self) -> &GameInfo;
    /// See [`Game::new_scratch`].
    fn new_scratch(&self) -> Box<dyn Any + Send>;
    /// See [`Game::initial_state`].
    fn initial_state(&self) -> Box<dyn ErasedState>;
    /// See [`Game::current_player`].
    fn current_player(&self, s: &dyn Any) -> Option<Player>;
    /// See [`Game::current_vertex`].
    fn current_vertex(&self, s: &dyn Any) -> Option<u32>;
    /// See [`Game::piece`]; `None` also for a vertex out of range.
    fn piece(&self, s: &dyn Any, vertex: u32) -> Option<u32>;
    /// See [`Game::variable`]; `None` also for a variable out of range.
    fn variable(&self, s: &dyn Any, var: usize) -> Option<i64>;
    /// See [`Game::rules_state`].
    fn rules_state(&self, s: &dyn Any) -> Option<u32>;
    /// See [`Game::score`]; `None` also for a player out of range.
    fn score(&self, s: &dyn Any, player: Player) -> Option<i64>;
    /// See [`Game::visit_moves`].
    fn visit_moves(
        &self,
        s: &mut dyn Any,
        sc: &mut dyn Any,
        visit: &mut dyn FnMut(&[Action]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, DynError>;
    /// See [`Game::apply_move`] (unchecked, like it).
    fn apply_move(&self, s: &mut dyn Any, m: &[Action]) -> Result<(), DynError>;
    /// See [`Game::encode_state`].
    fn encode_state(&self, s: &dyn Any, out: &mut Vec<u8>) -> Result<(), DynError>;
    /// See [`Game::decode_state`].
    fn decode_state(&self, bytes: &[u8]) -> Result<Box<dyn ErasedState>, StateCodecError>;
    erased_hooks!(dyn_game_methods);
}

/// Checked downcasts of the erased arguments.
fn state<G: Game>(s: &dyn Any) -> Option<&G::State>
where
    G::State: 'static,
{
    s.downcast_ref::<G::State>()
}

fn state_mut<G: Game>(s: &mut dyn Any) -> Result<&mut G::State, DynError>
where
    G::State: 'static,
{
    s.downcast_mut::<G::State>().ok_or(DynError::ForeignState)
}

fn both<'a, G: Game>(
    s: &'a mut dyn Any,
    sc: &'a mut dyn Any,
) -> Result<(&'a mut G::State, &'a mut G::Scratch), DynError>
where
    G::State: 'static,
    G::Scratch: 'static,
{
    let s = state_mut::<G>(s)?;
    // A scratch of another type is a caller bug [`AnyGame`] rules out by replacing it; report it
    // as foreign rather than guess.
    let sc = sc.downcast_mut::<G::Scratch>().ok_or(DynError::ForeignState)?;
    Ok((s, sc))
}

impl<G> DynGame for G
where
    G: Game + Send + 'static,
    G::State: 'static,
    G::Scratch: 'static,
{
    fn info(&self) -> &GameInfo {
        Game::info(self)
    }

    fn new_scratch(&self) -> Box<dyn Any + Send> {
        Box::new(Game::new_scratch(self))
    }

    fn initial_state(&self) -> Box<dyn ErasedState> {
        Box::new(Game::initial_state(self))
    }

    fn current_player(&self, s: &dyn Any) -> Option<Player> {
        state::<G>(s).map(|s| Game::current_player(self, s))
    }

    fn current_vertex(&self, s: &dyn Any) -> Option<u32> {
        state::<G>(s).map(|s| Game::current_vertex(self, s))
    }

    fn piece(&self, s: &dyn Any, vertex: u32) -> Option<u32> {
        let in_range = (vertex as usize) < Game::info(self).vertices.len();
        state::<G>(s).filter(|_| in_range).map(|s| Game::piece(self, s, vertex))
    }

    fn variable(&self, s: &dyn Any, var: usize) -> Option<i64> {
        let in_range = var < Game::info(self).variables.len();
        state::<G>(s).filter(|_| in_range).map(|s| Game::variable(self, s, var))
    }

    fn rules_state(&self, s: &dyn Any) -> Option<u32> {
        state::<G>(s).map(|s| Game::rules_state(self, s))
    }

    fn score(&self, s: &dyn Any, player: Player) -> Option<i64> {
        let in_range = player >= 1 && player as usize <= Game::info(self).num_players();
        state::<G>(s).filter(|_| in_range).map(|s| Game::score(self, s, player))
    }

    fn visit_moves(
        &self,
        s: &mut dyn Any,
        sc: &mut dyn Any,
        visit: &mut dyn FnMut(&[Action]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, DynError> {
        let (s, sc) = both::<G>(s, sc)?;
        Ok(Game::visit_moves(self, s, sc, visit)?)
    }

    #[inline]
    fn apply_move(&self, s: &mut dyn Any, m: &[Action]) -> Result<(), DynError> {
        Game::apply_move(self, state_mut::<G>(s)?, m);
        Ok(())
    }

    fn encode_state(&self, s: &dyn Any, out: &mut Vec<u8>) -> Result<(), DynError> {
        let s = state::<G>(s).ok_or(DynError::ForeignState)?;
        Game::encode_state(self, s, out);
        Ok(())
    }

    fn decode_state(&self, bytes: &[u8]) -> Result<Box<dyn ErasedState>, StateCodecError> {
        Ok(Box::new(Game::decode_state(self, bytes)?))
    }

    erased_hooks!(engine_methods);
}

/// A state of an [`AnyGame`]: the engine's state, boxed, tagged with its game's identity.
pub struct DynState {
    game: u64,
    state: Box<dyn ErasedState>,
}

impl DynState {
    /// The engine's state, if it has type `T` (for code that knows the engine).
    pub fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        (&*self.state as &dyn Any).downcast_ref::<T>()
    }
}

impl Clone for DynState {
    fn clone(&self) -> Self {
        DynState { game: self.game, state: self.state.clone_boxed() }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.game = source.game;
        source.state.clone_into_box(&mut self.state);
    }
}

impl PartialEq for DynState {
    fn eq(&self, other: &Self) -> bool {
        self.game == other.game && self.state.eq_erased(&*other.state)
    }
}

impl Eq for DynState {}

impl fmt::Debug for DynState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.state.fmt(f)
    }
}

/// Search scratch of an [`AnyGame`], tagged with its game's identity.
pub struct DynScratch {
    game: u64,
    scratch: Box<dyn Any + Send>,
}

impl fmt::Debug for DynScratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynScratch").field("game", &self.game).finish_non_exhaustive()
    }
}

/// Identities of game handles; 0 is never issued.
static NEXT_GAME_ID: AtomicU64 = AtomicU64::new(1);

/// A game of any engine, chosen at run time; cheap to clone (clones share the game and its
/// identity). Implements [`Game`], so the drivers run on it. See the module documentation for
/// how states of other games are treated.
#[derive(Clone)]
pub struct AnyGame {
    id: u64,
    game: Arc<dyn DynGame>,
}

impl fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyGame").field("id", &self.id).field("name", &self.game.info().name).finish()
    }
}

impl AnyGame {
    /// A handle over a reasoner.
    pub fn new<G>(game: G) -> Self
    where
        G: Game + Send + 'static,
        G::State: 'static,
        G::Scratch: 'static,
    {
        Self::from_arc(Arc::new(game))
    }

    /// A handle over an already shared engine. Each call makes a new identity: states of two
    /// handles made from the same engine are foreign to each other.
    pub fn from_arc(game: Arc<dyn DynGame>) -> Self {
        AnyGame { id: NEXT_GAME_ID.fetch_add(1, Ordering::Relaxed), game }
    }

    /// The engine behind the handle.
    pub fn engine(&self) -> &dyn DynGame {
        &*self.game
    }

    /// Whether `s` is a state of this game.
    #[inline]
    pub fn owns(&self, s: &DynState) -> bool {
        s.game == self.id
    }

    /// `Ok` if `s` is a state of this game.
    pub fn check(&self, s: &DynState) -> Result<(), DynError> {
        if self.owns(s) {
            Ok(())
        } else {
            Err(DynError::ForeignState)
        }
    }

    /// Applies `m` if it is one of the legal moves of `s`; otherwise leaves `s` unchanged.
    /// For moves from untrusted sources (a network peer, a user); [`Game::apply_move`] does
    /// not check. The check is [`crate::moves::apply_if_legal`]'s (use it directly to learn
    /// whose turn it was and how many moves were legal).
    pub fn try_apply_move(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        m: &[Action],
    ) -> Result<(), DynError> {
        self.check(s)?;
        crate::moves::apply_if_legal(self, s, sc, m).map_err(|e| match e {
            crate::moves::CheckedMoveError::Illegal(_) => DynError::IllegalMove,
            crate::moves::CheckedMoveError::Search(e) => DynError::Search(e),
        })
    }

    /// The encoding of `s`, or an error for a foreign state.
    pub fn try_encode_state(&self, s: &DynState) -> Result<Vec<u8>, DynError> {
        self.check(s)?;
        let mut out = Vec::new();
        self.game.encode_state(&*s.state, &mut out)?;
        Ok(out)
    }

    /// Replaces a scratch made by another game with one of this game.
    #[inline]
    fn fresh_scratch(&self, sc: &mut DynScratch) {
        if sc.game != self.id {
            *sc = Game::new_scratch(self);
        }
    }

    /// The engine's state and scratch, or `None` for a foreign state.
    #[inline]
    fn parts<'a>(
        &self,
        s: &'a mut DynState,
        sc: &'a mut DynScratch,
    ) -> Option<(&'a mut dyn Any, &'a mut dyn Any)> {
        if !self.owns(s) {
            return None;
        }
        self.fresh_scratch(sc);
        Some((&mut *s.state as &mut dyn Any, &mut *sc.scratch as &mut dyn Any))
    }

    #[inline]
    fn erased<'a>(&self, s: &'a DynState) -> Option<&'a dyn Any> {
        self.owns(s).then_some(&*s.state as &dyn Any)
    }
}

/// Foreign states read as a finished game, see the module documentation; search errors pass
/// through, and a type mismatch behind a matching identity (impossible for states made by this
/// handle) reads the same way as a foreign state.
fn search_result<T>(r: Result<T, DynError>, foreign: T) -> Result<T, SearchError> {
    match r {
        Ok(v) => Ok(v),
        Err(DynError::Search(e)) => Err(e),
        Err(DynError::ForeignState | DynError::IllegalMove) => Ok(foreign),
    }
}

impl Game for AnyGame {
    type State = DynState;
    type Scratch = DynScratch;

    fn info(&self) -> &GameInfo {
        self.game.info()
    }

    fn new_scratch(&self) -> DynScratch {
        DynScratch { game: self.id, scratch: self.game.new_scratch() }
    }

    fn initial_state(&self) -> DynState {
        DynState { game: self.id, state: self.game.initial_state() }
    }

    fn current_player(&self, s: &DynState) -> Player {
        self.erased(s).and_then(|s| self.game.current_player(s)).unwrap_or(KEEPER)
    }

    fn current_vertex(&self, s: &DynState) -> u32 {
        self.erased(s).and_then(|s| self.game.current_vertex(s)).unwrap_or(0)
    }

    fn piece(&self, s: &DynState, vertex: u32) -> u32 {
        self.erased(s).and_then(|s| self.game.piece(s, vertex)).unwrap_or(0)
    }

    fn variable(&self, s: &DynState, var: usize) -> i64 {
        self.erased(s).and_then(|s| self.game.variable(s, var)).unwrap_or(0)
    }

    fn rules_state(&self, s: &DynState) -> u32 {
        self.erased(s).and_then(|s| self.game.rules_state(s)).unwrap_or(0)
    }

    fn score(&self, s: &DynState, player: Player) -> i64 {
        self.erased(s).and_then(|s| self.game.score(s, player)).unwrap_or(0)
    }

    fn visit_moves<F>(
        &self,
        s: &mut DynState,
        sc: &mut DynScratch,
        mut visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(ControlFlow::Continue(())) };
        search_result(self.game.visit_moves(s, sc, &mut visit), ControlFlow::Continue(()))
    }

    #[inline]
    fn apply_move(&self, s: &mut DynState, m: &[Action]) {
        if self.owns(s) {
            // A type mismatch behind a matching identity cannot happen; ignoring it is the
            // documented foreign-state behaviour.
            let _ = self.game.apply_move(&mut *s.state, m);
        }
    }

    fn encode_state(&self, s: &DynState, out: &mut Vec<u8>) {
        if let Some(s) = self.erased(s) {
            // Only a type mismatch can fail here, which matching identities rule out.
            let _ = self.game.encode_state(s, out);
        }
    }

    erased_hooks!(any_game_methods);

    fn decode_state(&self, bytes: &[u8]) -> Result<DynState, StateCodecError> {
        Ok(DynState { game: self.id, state: self.game.decode_state(bytes)? })
    }
}

#[cfg(test)]
mod tests {
    use super::{AnyGame, DynError};
    use crate::moves::{Action, MoveList};
    use crate::perft::{perft, PerftCounts, PerftOptions};
    use crate::playout::{flat_monte_carlo, McLimit, McOptions};
    use crate::toy::Nim;
    use crate::{Game, KEEPER};

    #[test]
    fn perft_and_playouts_match_static_dispatch() {
        let dynamic = AnyGame::new(Nim::new(9));
        for depth in 0..8 {
            let expected = perft(&Nim::new(9), depth, &PerftOptions::default()).unwrap();
            assert_eq!(perft(&dynamic, depth, &PerftOptions::default()).unwrap(), expected);
            let parallel = PerftOptions { threads: 2, ..Default::default() };
            assert_eq!(perft(&dynamic, depth, &parallel).unwrap(), expected);
        }
        // The well-known value, not just agreement: 9 stones, 2 plies, 2 * 2 leaves.
        assert_eq!(
            perft(&dynamic, 2, &PerftOptions::default()).unwrap(),
            PerftCounts { leaves: 4, nodes: 7 }
        );
        let opts = McOptions { limit: McLimit::Playouts(300), seed: 5, ..Default::default() };
        let a = flat_monte_carlo(&Nim::new(9), &opts, |_| {}).unwrap();
        let b = flat_monte_carlo(&dynamic, &opts, |_| {}).unwrap();
        assert_eq!((a.plies, a.moves, a.score_sum), (b.plies, b.moves, b.score_sum));
    }

    #[test]
    fn states_of_another_handle_are_rejected_without_panicking() {
        let one = AnyGame::new(Nim::new(3));
        let other = AnyGame::new(Nim::new(3));
        let mut sc = one.new_scratch();
        let mut mine = one.initial_state();
        assert!(one.complete_keeper(&mut mine, &mut sc, 10).unwrap());
        assert_eq!(one.current_player(&mine), 1);
        // Same engine type, same contents, different game: foreign.
        let mut theirs = other.initial_state();
        assert!(other.complete_keeper(&mut theirs, &mut other.new_scratch(), 10).unwrap());
        assert_ne!(mine, theirs);
        assert_eq!(one.check(&theirs), Err(DynError::ForeignState));
        assert_eq!(one.current_player(&theirs), KEEPER);
        let mut moves = MoveList::new();
        moves.push(&[Action::new(9, 9)]);
        one.legal_moves(&mut theirs, &mut sc, &mut moves).unwrap();
        assert!(moves.is_empty());
        assert!(!one.complete_keeper(&mut theirs, &mut sc, 10).unwrap());
        let before = theirs.clone();
        one.apply_move(&mut theirs, &[Action::new(1, 0)]);
        assert_eq!(theirs, before);
        assert_eq!(
            one.try_apply_move(&mut theirs, &mut sc, &[Action::new(1, 0)]),
            Err(DynError::ForeignState)
        );
        assert_eq!(one.try_encode_state(&theirs), Err(DynError::ForeignState));
        // A scratch of the other game is replaced, not trusted.
        let mut their_scratch = other.new_scratch();
        one.legal_moves(&mut mine, &mut their_scratch, &mut moves).unwrap();
        assert_eq!(moves.len(), 2);
        // Out-of-range queries answer 0 instead of indexing out of bounds.
        assert_eq!(
            (one.piece(&mine, 99), one.variable(&mine, 99), one.score(&mine, 0), one.score(&mine, 3)),
            (0, 0, 0, 0)
        );
        // Clones of a handle share its identity.
        assert!(one.clone().owns(&mine));
    }

    #[test]
    fn checked_apply_refuses_illegal_moves_and_states_round_trip_through_bytes() {
        let game = AnyGame::new(Nim::new(5));
        let mut sc = game.new_scratch();
        let mut s = game.initial_state();
        game.complete_keeper(&mut s, &mut sc, 10).unwrap();
        assert_eq!(game.try_apply_move(&mut s, &mut sc, &[Action::new(3, 0)]), Err(DynError::IllegalMove));
        game.try_apply_move(&mut s, &mut sc, &[Action::new(2, 0)]).unwrap();
        game.complete_keeper(&mut s, &mut sc, 10).unwrap();
        assert_eq!(game.current_player(&s), 2);
        let bytes = game.try_encode_state(&s).unwrap();
        let mut static_bytes = Vec::new();
        let mut static_state = Nim::new(5).initial_state();
        Nim::new(5).complete_keeper(&mut static_state, &mut (), 10).unwrap();
        Nim::new(5).apply_move(&mut static_state, &[Action::new(2, 0)]);
        Nim::new(5).complete_keeper(&mut static_state, &mut (), 10).unwrap();
        Nim::new(5).encode_state(&static_state, &mut static_bytes);
        assert_eq!(bytes, static_bytes);
        // A state saved by one handle loads into another handle of the same game.
        let later = AnyGame::new(Nim::new(5));
        let loaded = later.decode_state(&bytes).unwrap();
        assert!(later.owns(&loaded));
        assert_eq!(loaded.downcast_ref::<crate::toy::NimState>(), Some(&static_state));
        assert!(later.decode_state(&bytes[..bytes.len() - 1]).is_err());
    }

    /// The listed hooks reach the engine through the handle (`count_moves` is one
    /// `SearchingNim` overrides; the handle has no such search of its own), and a foreign
    /// state gets the listed answers.
    #[test]
    fn listed_hooks_reach_the_engine_and_foreign_states_get_the_listed_answers() {
        use crate::split::SplitMoves;
        use crate::toy::SearchingNim;
        let game = AnyGame::new(SearchingNim::new(5));
        let mut sc = game.new_scratch();
        let mut s = game.initial_state();
        game.complete_keeper(&mut s, &mut sc, 10).unwrap();
        // Five stones, the first player takes one or two: two moves, counted without a list.
        assert_eq!(game.count_moves(&mut s, &mut sc).unwrap(), Some(2));
        assert!(game.apply_nth_move(&mut s.clone(), &mut sc, 1).unwrap());
        let mut split = SplitMoves::new();
        game.split_moves(&mut s, &mut sc, &mut split).unwrap();
        assert_eq!(split.len(), 2);

        let other = AnyGame::new(SearchingNim::new(5));
        let mut theirs = other.initial_state();
        other.complete_keeper(&mut theirs, &mut other.new_scratch(), 10).unwrap();
        assert_eq!(game.count_moves(&mut theirs, &mut sc).unwrap(), None);
        assert!(!game.apply_nth_move(&mut theirs, &mut sc, 0).unwrap());
        game.split_moves(&mut theirs, &mut sc, &mut split).unwrap();
        assert!(split.is_empty());
        let mut next = vec![Action::new(9, 9)];
        game.next_actions(&mut theirs, &mut sc, &[], &mut next).unwrap();
        assert!(next.is_empty());
        assert_eq!(game.monotonic_class(&theirs), None);
        assert!(!game.monotonic_moves(&theirs, 0, &mut next));
    }
}
