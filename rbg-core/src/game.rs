//! The reasoner trait.

use core::fmt;
use core::ops::ControlFlow;

use crate::moves::{Action, MoveList};
use crate::state_codec::{self, StateCodecError, StateParts};

/// A player number: 0 is the keeper, real players are 1, 2, … in declaration order.
pub type Player = u32;

/// The keeper, the pseudo-player that performs the game's bookkeeping moves.
pub const KEEPER: Player = 0;

/// Where a vertex is, for drawing boards and for coordinates in user interfaces.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct VertexPosition {
    /// Grid coordinates: `(x, y, 0)` on a rectangle, the generator's own axes on a hexagon,
    /// `(x, y, z)` on a cuboid.
    pub coords: [i32; 3],
    /// A 2-D drawing position in cell units.
    pub point: [f64; 2],
}

/// Names and sizes of a game, for display and for sizing tables. Everything here is static.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// The game's name (usually the file stem).
    pub name: String,
    /// Real players in declaration order; player `p` (1-based) is `players[p - 1]`.
    pub players: Vec<String>,
    /// Pieces, sorted by name; piece ids index this vector.
    pub pieces: Vec<String>,
    /// All integer variables: first each player's score (same order as `players`), then the
    /// declared variables sorted by name. Variable ids index this vector.
    pub variables: Vec<String>,
    /// Upper bound of each variable (lower bound is always 0), parallel to `variables`.
    pub bounds: Vec<i64>,
    /// Vertex names in board order; vertex ids index this vector.
    pub vertices: Vec<String>,
    /// Number of modifiers (the largest action index).
    pub modifiers: u32,
    /// Indices of the modifiers that are switches (`->p` or `->>`), sorted.
    pub switches: Vec<u32>,
    /// Edge label names, sorted by name; label ids index this vector.
    pub labels: Vec<String>,
    /// The board's edges as `(from vertex, label id, to vertex)`, by source vertex and then
    /// label id.
    pub edges: Vec<(u32, u32, u32)>,
    /// Positions of the vertices (parallel to `vertices`) when the board was made by a
    /// generator that gives them (rectangle, hexagon, cuboid); `None` otherwise.
    pub positions: Option<Vec<VertexPosition>>,
}

impl GameInfo {
    /// Number of real players (the keeper not counted).
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// Whether the modifier with this action index is a switch.
    pub fn is_switch(&self, index: u32) -> bool {
        self.switches.binary_search(&index).is_ok()
    }

    /// The vertex id with the given name.
    pub fn vertex_id(&self, name: &str) -> Option<u32> {
        self.vertices.iter().position(|v| v == name).map(|i| i as u32)
    }
}

/// A search stopped because it exceeded a documented bound. Only improper game descriptions
/// (spec section 12) can cause one; proper games never reach the bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// A move under construction had more than `limit` modifiers: the description lets moves grow
    /// without bound (e.g. `([a][b])*` inside a move).
    MoveTooLong {
        /// The bound that was exceeded.
        limit: usize,
    },
    /// One move generation (or one pattern evaluation) visited more than `limit` search nodes.
    SearchTooLarge {
        /// The bound that was exceeded.
        limit: u64,
    },
    /// The keeper made more than `limit` moves in a row without giving the turn to a player.
    KeeperLoop {
        /// The bound that was exceeded.
        limit: u64,
    },
    /// A playout lasted more than `limit` player moves without reaching a terminal state.
    PlayoutTooLong {
        /// The bound that was exceeded.
        limit: u64,
    },
    /// One move generation produced moves holding more than `limit` actions in all (see
    /// [`MoveList::with_limit`]): the game has too many legal moves to list.
    TooManyMoves {
        /// The bound that was exceeded.
        limit: usize,
    },
    /// Counting or sampling the moves of one state one by one (because they do not fit in a
    /// list) met more than `limit` of them: the game has too many legal moves to play.
    TooManyStreamedMoves {
        /// The bound that was exceeded.
        limit: u64,
    },
    /// A checked keeper completion found two keeper moves that lead to different states
    /// (the description is not proper, spec section 12.1 condition 2).
    AmbiguousKeeper,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::MoveTooLong { limit } => write!(
                f,
                "a move exceeded {limit} modifiers; the game lets moves grow without bound \
                 (its rules are not finitely straight)"
            ),
            SearchError::SearchTooLarge { limit } => write!(
                f,
                "a move search visited more than {limit} states; the game's move generation \
                 does not terminate in reasonable time"
            ),
            SearchError::KeeperLoop { limit } => write!(
                f,
                "the keeper made more than {limit} consecutive moves without passing the turn \
                 to a player"
            ),
            SearchError::PlayoutTooLong { limit } => {
                write!(f, "a playout exceeded {limit} moves without ending")
            }
            SearchError::TooManyStreamedMoves { limit } => write!(
                f,
                "one state has more than {limit} legal moves; counting or sampling them one by one \
                 would not end in reasonable time (the bound is --max-streamed-moves)"
            ),
            SearchError::TooManyMoves { limit } => write!(
                f,
                "the legal moves of one state hold more than {limit} actions in all; \
                 the game has too many moves to list"
            ),
            SearchError::AmbiguousKeeper => write!(
                f,
                "the keeper has two legal moves leading to different states; the description \
                 is not proper"
            ),
        }
    }
}

impl std::error::Error for SearchError {}

/// A reasoner for one game: enumerates and applies moves on states of that game.
///
/// Implementations: the interpreter (`rbg_interp::Interpreter`) and the crates generated by the
/// compiler. Drivers (`perft`, `playout`) are generic over this trait, so they monomorphise for
/// each reasoner with no dynamic dispatch.
///
/// All state-changing methods assume the state was reached from [`Game::initial_state`] by moves
/// of this same game; moves passed to [`Game::apply_move`] must come from
/// [`Game::visit_moves`] on that state (they are applied without re-validation).
///
/// A method added here (an optional capability: a hook with a default body) reaches engines
/// chosen at run time by one line in `dynamic.rs`'s `erased_hooks!` list, which makes the
/// object-safe mirror ([`crate::dynamic::DynGame`]) and [`crate::dynamic::AnyGame`]'s
/// forwarding; a loaded library gets it by one line of the C ABI's declaration (crate
/// `rbg-dynlib`) and its two bodies.
pub trait Game: Sync {
    /// A game state: board, variables, current vertex, current player and rules position.
    /// Cloning is cheap (flat arrays); use `clone_from` to reuse buffers.
    type State: Clone + Send + Sync + fmt::Debug + PartialEq + Eq;
    /// Per-thread working memory of a search (visited sets, move-building buffers).
    type Scratch: Send;

    /// Names and sizes of the game.
    fn info(&self) -> &GameInfo;
    /// Fresh working memory for one thread's searches.
    fn new_scratch(&self) -> Self::Scratch;
    /// The initial state, *before* keeper completion (its current player is the keeper).
    fn initial_state(&self) -> Self::State;

    /// The player to move (the keeper is [`KEEPER`]).
    fn current_player(&self, s: &Self::State) -> Player;
    /// The current vertex (where the next move's search starts).
    fn current_vertex(&self, s: &Self::State) -> u32;
    /// The piece id on a vertex.
    fn piece(&self, s: &Self::State, vertex: u32) -> u32;
    /// The value of a variable (see [`GameInfo::variables`] for the numbering).
    fn variable(&self, s: &Self::State, var: usize) -> i64;
    /// The NFA state of the rules position (implementation-specific numbering).
    fn rules_state(&self, s: &Self::State) -> u32;

    /// The score of a real player (1-based).
    fn score(&self, s: &Self::State, player: Player) -> i64 {
        self.variable(s, player as usize - 1)
    }

    /// Calls `visit` once for each legal move of the current player (keeper included), in the
    /// reasoner's search order, until it returns `Break`. Returns `Break` if the visitor stopped
    /// the enumeration. The state is restored before returning.
    fn visit_moves<F>(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>;

    /// Applies a legal move (from [`Game::visit_moves`] on this state) without checking it.
    fn apply_move(&self, s: &mut Self::State, m: &[Action]);

    /// If the current player is the keeper and has a legal move, applies the first one found and
    /// returns `true`; otherwise returns `false` and leaves the state unchanged.
    fn keeper_step(&self, s: &mut Self::State, sc: &mut Self::Scratch) -> Result<bool, SearchError> {
        self.apply_nth_move(s, sc, 0)
    }

    /// Counts the legal moves of `s` by a search that records no move, or `None` (the default)
    /// when the reasoner has no such search. With [`Game::apply_nth_move`] it lets a playout draw
    /// a move without storing the move list ([`crate::playout`], "count and replay").
    fn count_moves(&self, _s: &mut Self::State, _sc: &mut Self::Scratch) -> Result<Option<u64>, SearchError> {
        Ok(None)
    }

    /// Calls `visit` with the state after each legal move of `s` (keeper not completed), in
    /// [`Game::visit_moves`]'s order, until it returns `Break`; each child is built in `child`
    /// (its earlier contents are overwritten). Returns how many children were visited, or
    /// `None` (the default) when the reasoner has no search that builds children, and the
    /// caller lists the moves and applies each instead. The state is restored before returning.
    ///
    /// A search that builds children copies its working state at each move it finds, which
    /// already holds the move's modifications: no move list, and no second pass over the
    /// move's actions to apply it (perft, [`crate::perft`]).
    fn visit_children<F>(
        &self,
        _s: &mut Self::State,
        _sc: &mut Self::Scratch,
        _child: &mut Self::State,
        _visit: F,
    ) -> Result<Option<u64>, SearchError>
    where
        F: FnMut(&mut Self::State) -> ControlFlow<()>,
    {
        Ok(None)
    }

    /// Applies the legal move number `n` (from 0, in [`Game::visit_moves`]'s order) and returns
    /// `true`; returns `false` and leaves `s` unchanged when there are at most `n` moves.
    fn apply_nth_move(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        n: u64,
    ) -> Result<bool, SearchError> {
        let mut left = n;
        let mut found: Option<Vec<Action>> = None;
        let _ = self.visit_moves(s, sc, |m| {
            if left > 0 {
                left -= 1;
                return ControlFlow::Continue(());
            }
            found = Some(m.to_vec());
            ControlFlow::Break(())
        })?;
        match found {
            Some(m) => {
                self.apply_move(s, &m);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Replaces the contents of `out` with all legal moves. Fails with
    /// [`SearchError::TooManyMoves`] when they do not fit in `out`'s limit
    /// ([`MoveList::with_limit`]); `out` then holds the moves that fitted.
    ///
    /// Implementations that override this method may keep enumerating past the limit (the list
    /// itself drops the moves that do not fit); callers should rely on the result or on
    /// [`MoveList::overflowed`], not on the enumeration stopping early.
    fn legal_moves(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        out: &mut MoveList,
    ) -> Result<(), SearchError> {
        out.clear();
        let _ = self.visit_moves(s, sc, |m| {
            out.push(m);
            if out.overflowed() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        out.check()
    }

    /// Replaces the contents of `out` with the legal moves seen as a tree of partial moves
    /// (see [`crate::split`]), for agents that choose a move one step at a time. Fails like
    /// [`Game::legal_moves`] when the moves do not fit in `out`'s list.
    ///
    /// The default lists the legal moves and sorts them; every step it offers is therefore
    /// part of a legal move, so no partial move is a dead end. This is the place where a
    /// reasoner may instead generate sub-moves incrementally (only the next steps of a partial
    /// move); an override must offer the same steps.
    fn split_moves(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        out: &mut crate::split::SplitMoves,
    ) -> Result<(), SearchError> {
        out.fill(|list| self.legal_moves(s, sc, list))
    }

    /// The move-by-move interface: replaces the contents of `out` with the distinct actions
    /// that follow the partial move `prefix` in the legal moves beginning with it, each once,
    /// in the reasoner's search order. Every action returned extends `prefix` to a partial move
    /// that some legal move completes (no dead ends). `out` is empty when `prefix` is a whole
    /// legal move (its last action is a switch) or no legal move begins with it. The state is
    /// restored before returning.
    ///
    /// The default enumerates every legal move. The engines override it with a search that
    /// skips modifiers disagreeing with `prefix` and, once one completion of a next action is
    /// found, abandons the rest of that action's subtree, so a step costs about one completion
    /// per choice instead of every move (see [`crate::split::StepGenerator`]).
    fn next_actions(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        prefix: &[Action],
        out: &mut Vec<Action>,
    ) -> Result<(), SearchError> {
        out.clear();
        let _ = self.visit_moves(s, sc, |m| {
            if let Some(&next) = m.get(prefix.len()).filter(|_| m.starts_with(prefix)) {
                if !out.contains(&next) {
                    out.push(next);
                }
            }
            ControlFlow::Continue(())
        })?;
        Ok(())
    }

    /// Whether the current player has at least one legal move.
    fn has_legal_move(&self, s: &mut Self::State, sc: &mut Self::Scratch) -> Result<bool, SearchError> {
        Ok(self.visit_moves(s, sc, |_| ControlFlow::Break(()))?.is_break())
    }

    /// Plays `a`, a move from a monotonic class's cached list (a single action) that is legal in
    /// `s` ([`Game::is_still_legal`]), then completes the keeper's moves after it: the same as
    /// [`Game::apply_move`] followed by [`Game::complete_keeper`], with the same result. A
    /// reasoner may override it to go from the switch straight into the keeper's search, without
    /// looking the action up and the rules position up again.
    fn play_class_move(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        _class: u32,
        a: Action,
        keeper_limit: u64,
    ) -> Result<bool, SearchError> {
        self.apply_move(s, core::slice::from_ref(&a));
        self.complete_keeper(s, sc, keeper_limit)
    }

    /// Keeper completion: while the keeper is to move and can move, apply its first move.
    /// Returns `true` if a real player is to move afterwards, `false` if the game is over (the
    /// keeper is stuck). At most `limit` keeper moves are made.
    fn complete_keeper(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        limit: u64,
    ) -> Result<bool, SearchError> {
        crate::playout::complete_keeper_after(self, s, sc, 0, limit)
    }

    /// Plays one uniformly random game from `s` (keeper-completed) to its end, drawing from
    /// `rng` and reusing `buffers`; `s` ends in the final state. The default runs
    /// [`playout::random_playout`](crate::playout::random_playout) over this trait's methods;
    /// a reasoner whose every call crosses a boundary (a library loaded at run time) overrides
    /// it to run the whole loop on its side. An override must draw the same numbers and play
    /// the same game. The generator is the concrete [`PlayoutRng`](crate::PlayoutRng) so that
    /// such a library can take its state instead of calling back for every number.
    fn random_playout(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        buffers: &mut crate::playout::PlayoutBuffers,
        rng: &mut crate::PlayoutRng,
        limits: &crate::playout::PlayoutLimits,
    ) -> Result<crate::playout::PlayoutOutcome, SearchError> {
        crate::playout::random_playout(self, s, sc, buffers, rng, limits)
    }

    /// Counts the perft subtree of `s`, a state reached by a move (a keeper state is completed
    /// first), `depth` plies deep. The default runs
    /// [`perft::perft_subtree`](crate::perft::perft_subtree); overridden for the same reason
    /// as [`Game::random_playout`], with the same counts.
    fn perft_subtree(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        depth: u32,
        opts: &crate::perft::PerftOptions,
    ) -> Result<crate::perft::PerftCounts, SearchError> {
        crate::perft::perft_subtree(self, s, sc, depth, opts)
    }

    /// Monotonic class of the state, if it has one: a class is a rules position at which the
    /// legal moves are exactly "switch at any vertex holding a piece of set P" where no piece of
    /// P is ever created. Along one playout, the legal moves at later visits of the same class
    /// are a subset of those at the first visit, so drivers may cache the list and filter it
    /// with [`Game::is_still_legal`]. Default: no classes.
    fn monotonic_class(&self, _s: &Self::State) -> Option<u32> {
        None
    }

    /// For a state with a monotonic class: whether a move from that class's cached list is
    /// legal in `s`. Only called when [`Game::monotonic_class`] returned `Some`.
    fn is_still_legal(&self, _s: &Self::State, _m: &[Action]) -> bool {
        false
    }

    /// Number of monotonic classes (class ids are below this).
    fn monotonic_classes(&self) -> u32 {
        0
    }

    /// For a state with a monotonic class: replaces the contents of `out` with the class's
    /// legal moves, each a single action, in [`Game::legal_moves`]'s order, and returns `true`.
    /// `false` (the default) when the reasoner has no such shortcut: the driver then lists the
    /// moves with [`Game::legal_moves`]. A shortcut saves the move search a driver would run at
    /// the first visit to each class in every playout (design notes 2.15).
    fn monotonic_moves(&self, _s: &Self::State, _class: u32, _out: &mut Vec<Action>) -> bool {
        false
    }

    /// The parts of a state as the accessors give them (see [`StateParts`]).
    fn state_parts(&self, s: &Self::State) -> StateParts {
        let info = self.info();
        StateParts {
            pieces: (0..info.vertices.len() as u32).map(|v| self.piece(s, v)).collect(),
            variables: (0..info.variables.len()).map(|v| self.variable(s, v)).collect(),
            vertex: self.current_vertex(s),
            player: self.current_player(s),
            rules_state: self.rules_state(s),
        }
    }

    /// A fingerprint of this reasoner's numbering of rules positions ([`Game::rules_state`]),
    /// stored in encoded states so that a state is not loaded into a reasoner that numbers rules
    /// positions differently. Default: 0 (one numbering only).
    fn rules_fingerprint(&self) -> u64 {
        0
    }

    /// Appends the encoding of `s` to `out` (format: [`crate::state_codec`]). A state encoded by
    /// one run decodes in another run of the same reasoner for the same game.
    fn encode_state(&self, s: &Self::State, out: &mut Vec<u8>) {
        state_codec::encode(self.info(), self.rules_fingerprint(), &self.state_parts(s), out);
    }

    /// Reads a state written by [`Game::encode_state`]. Bytes of another game or reasoner,
    /// truncated, corrupted or describing an impossible state give an error.
    fn decode_state(&self, bytes: &[u8]) -> Result<Self::State, StateCodecError> {
        let parts = state_codec::decode(self.info(), self.rules_fingerprint(), bytes)?;
        self.state_from_parts(&parts)
    }

    /// Builds a state from its parts (already checked against [`GameInfo`]: sizes, piece ids,
    /// variable bounds, vertex and player ranges). The reasoner checks the rest (the rules
    /// state) and rebuilds any derived data. Default: [`StateCodecError::Unsupported`].
    fn state_from_parts(&self, _parts: &StateParts) -> Result<Self::State, StateCodecError> {
        Err(StateCodecError::Unsupported)
    }
}
