//! Half of the corpus games compiled by rbg-compiler (every second game in the corpus order)
//! and the unoptimised baselines, for rbg-compiled-tests, whose build script writes this
//! crate's modules too and whose registry names them. See that crate's `build.rs`.

#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/games.rs"));

use core::ops::ControlFlow;

use rbg_core::playout::{PlayoutBuffers, PlayoutLimits, PlayoutOutcome};
use rbg_core::split::SplitMoves;
use rbg_core::{
    Action, Game, GameInfo, MoveList, Player, PlayoutRng, SearchError, StateCodecError, StateParts,
};

/// A compiled game whose children's search has one non-generic entry point, compiled in the
/// crate holding the game (the build script writes the impl beside each module).
/// `Game::visit_children` is generic over the visitor, so every test binary running perft or
/// checking children with closures of its own would compile each game's search again; through
/// this function they share the library's copy, at an indirect call per child.
pub trait SharedSearch: Game {
    /// `Game::visit_children` with the visitor behind a `&mut dyn FnMut`.
    fn visit_children_dyn(
        &self,
        s: &mut Self::State,
        sc: &mut Self::Scratch,
        child: &mut Self::State,
        visit: &mut dyn FnMut(&mut Self::State) -> ControlFlow<()>,
    ) -> Result<Option<u64>, SearchError>;
}

/// A compiled game as the registry hands it to the tests: every method is the game's own,
/// except that `visit_children` goes through [`SharedSearch::visit_children_dyn`] and that
/// `perft_subtree` is the trait's default run on this wrapper (the compiled games keep that
/// default; run on the game itself it would call the generic `visit_children` again).
pub struct SharedChildren<'a, G>(pub &'a G);

impl<G: SharedSearch> Game for SharedChildren<'_, G> {
    type State = G::State;
    type Scratch = G::Scratch;

    fn info(&self) -> &GameInfo {
        self.0.info()
    }
    fn new_scratch(&self) -> G::Scratch {
        self.0.new_scratch()
    }
    fn initial_state(&self) -> G::State {
        self.0.initial_state()
    }
    fn current_player(&self, s: &G::State) -> Player {
        self.0.current_player(s)
    }
    fn current_vertex(&self, s: &G::State) -> u32 {
        self.0.current_vertex(s)
    }
    fn piece(&self, s: &G::State, vertex: u32) -> u32 {
        self.0.piece(s, vertex)
    }
    fn variable(&self, s: &G::State, var: usize) -> i64 {
        self.0.variable(s, var)
    }
    fn rules_state(&self, s: &G::State) -> u32 {
        self.0.rules_state(s)
    }
    fn score(&self, s: &G::State, player: Player) -> i64 {
        self.0.score(s, player)
    }
    fn visit_moves<F>(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        self.0.visit_moves(s, sc, visit)
    }
    fn apply_move(&self, s: &mut G::State, m: &[Action]) {
        self.0.apply_move(s, m)
    }
    fn keeper_step(&self, s: &mut G::State, sc: &mut G::Scratch) -> Result<bool, SearchError> {
        self.0.keeper_step(s, sc)
    }
    fn count_moves(&self, s: &mut G::State, sc: &mut G::Scratch) -> Result<Option<u64>, SearchError> {
        self.0.count_moves(s, sc)
    }
    fn visit_children<F>(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        child: &mut G::State,
        mut visit: F,
    ) -> Result<Option<u64>, SearchError>
    where
        F: FnMut(&mut G::State) -> ControlFlow<()>,
    {
        self.0.visit_children_dyn(s, sc, child, &mut visit)
    }
    fn apply_nth_move(&self, s: &mut G::State, sc: &mut G::Scratch, n: u64) -> Result<bool, SearchError> {
        self.0.apply_nth_move(s, sc, n)
    }
    fn legal_moves(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        out: &mut MoveList,
    ) -> Result<(), SearchError> {
        self.0.legal_moves(s, sc, out)
    }
    fn split_moves(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        out: &mut SplitMoves,
    ) -> Result<(), SearchError> {
        self.0.split_moves(s, sc, out)
    }
    fn next_actions(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        prefix: &[Action],
        out: &mut Vec<Action>,
    ) -> Result<(), SearchError> {
        self.0.next_actions(s, sc, prefix, out)
    }
    fn has_legal_move(&self, s: &mut G::State, sc: &mut G::Scratch) -> Result<bool, SearchError> {
        self.0.has_legal_move(s, sc)
    }
    fn play_class_move(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        class: u32,
        a: Action,
        keeper_limit: u64,
    ) -> Result<bool, SearchError> {
        self.0.play_class_move(s, sc, class, a, keeper_limit)
    }
    fn complete_keeper(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        limit: u64,
    ) -> Result<bool, SearchError> {
        self.0.complete_keeper(s, sc, limit)
    }
    fn random_playout(
        &self,
        s: &mut G::State,
        sc: &mut G::Scratch,
        buffers: &mut PlayoutBuffers,
        rng: &mut PlayoutRng,
        limits: &PlayoutLimits,
    ) -> Result<PlayoutOutcome, SearchError> {
        self.0.random_playout(s, sc, buffers, rng, limits)
    }
    fn monotonic_class(&self, s: &G::State) -> Option<u32> {
        self.0.monotonic_class(s)
    }
    fn is_still_legal(&self, s: &G::State, m: &[Action]) -> bool {
        self.0.is_still_legal(s, m)
    }
    fn monotonic_classes(&self) -> u32 {
        self.0.monotonic_classes()
    }
    fn monotonic_moves(&self, s: &G::State, class: u32, out: &mut Vec<Action>) -> bool {
        self.0.monotonic_moves(s, class, out)
    }
    fn state_parts(&self, s: &G::State) -> StateParts {
        self.0.state_parts(s)
    }
    fn rules_fingerprint(&self) -> u64 {
        self.0.rules_fingerprint()
    }
    fn encode_state(&self, s: &G::State, out: &mut Vec<u8>) {
        self.0.encode_state(s, out)
    }
    fn decode_state(&self, bytes: &[u8]) -> Result<G::State, StateCodecError> {
        self.0.decode_state(bytes)
    }
    fn state_from_parts(&self, parts: &StateParts) -> Result<G::State, StateCodecError> {
        self.0.state_from_parts(parts)
    }
}
