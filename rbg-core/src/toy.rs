//! A tiny hand-written reasoner (Nim) used by the documentation examples and the driver tests.
//!
//! Two players alternately take one or two stones from a pile; whoever takes the last stone
//! scores 1. The keeper hands the turn over after every move and is stuck once the pile is
//! empty, which ends the game, mirroring the `->>` bookkeeping of RBG descriptions.
//! Action indices: 1 = take one, 2 = take two, 3 = keeper passes to player 1,
//! 4 = keeper passes to player 2. Variables: the two scores, then `pile` (the stones left).
//! Rules states: 1 and 2 = that player is to move; 3 and 4 = the keeper is to move after
//! player 1 and 2 respectively.

use core::ops::ControlFlow;
use core::sync::atomic::{AtomicU64, Ordering};

use crate::game::{Game, GameInfo, Player, SearchError, KEEPER};
use crate::moves::Action;
use crate::state_codec::{StateCodecError, StateParts};

/// Nim with a pile of a given size (see the module documentation).
pub struct Nim {
    pile: u32,
    info: GameInfo,
}

impl Nim {
    /// Nim starting with `pile` stones.
    pub fn new(pile: u32) -> Self {
        let info = GameInfo {
            name: "nim".into(),
            players: vec!["first".into(), "second".into()],
            pieces: vec!["stone".into()],
            variables: vec!["first".into(), "second".into(), "pile".into()],
            bounds: vec![1, 1, i64::from(pile)],
            vertices: vec!["pile".into()],
            modifiers: 4,
            switches: vec![1, 2, 3, 4],
            labels: Vec::new(),
            edges: Vec::new(),
            positions: None,
        };
        Nim { pile, info }
    }
}

/// A state of [`Nim`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimState {
    pile: u32,
    player: Player,
    /// The player who moved last (the keeper gives the turn to the other one).
    last: Player,
    scores: [i64; 2],
}

impl Game for Nim {
    type State = NimState;
    type Scratch = ();

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_scratch(&self) {}

    fn initial_state(&self) -> NimState {
        NimState { pile: self.pile, player: KEEPER, last: 2, scores: [0, 0] }
    }

    fn current_player(&self, s: &NimState) -> Player {
        s.player
    }

    fn current_vertex(&self, _s: &NimState) -> u32 {
        0
    }

    fn piece(&self, _s: &NimState, _vertex: u32) -> u32 {
        0
    }

    fn variable(&self, s: &NimState, var: usize) -> i64 {
        match var {
            0 | 1 => s.scores[var],
            _ => i64::from(s.pile),
        }
    }

    fn rules_state(&self, s: &NimState) -> u32 {
        if s.player == KEEPER {
            2 + s.last
        } else {
            s.player
        }
    }

    fn state_from_parts(&self, parts: &StateParts) -> Result<NimState, StateCodecError> {
        let (player, last) = match (parts.player, parts.rules_state) {
            (KEEPER, r @ (3 | 4)) => (KEEPER, r - 2),
            (p @ (1 | 2), r) if r == p => (p, 3 - p),
            (_, r) => return Err(StateCodecError::OutOfRange { what: "rules state", value: i128::from(r) }),
        };
        let &[first, second, pile] = parts.variables.as_slice() else {
            return Err(StateCodecError::OutOfRange {
                what: "variable count",
                value: parts.variables.len() as i128,
            });
        };
        Ok(NimState { pile: pile as u32, player, last, scores: [first, second] })
    }

    fn visit_moves<F>(
        &self,
        s: &mut NimState,
        _sc: &mut (),
        mut visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        if s.player == KEEPER {
            if s.pile > 0 {
                let next = 3 - s.last; // the other player
                return Ok(visit(&[Action::new(2 + next, 0)]));
            }
            return Ok(ControlFlow::Continue(()));
        }
        for take in 1..=2.min(s.pile) {
            if visit(&[Action::new(take, 0)]).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    fn apply_move(&self, s: &mut NimState, m: &[Action]) {
        // Moves are trusted (see the trait), but an empty one is ignored rather than a panic.
        let Some(first) = m.first() else { return };
        match first.index {
            take @ (1 | 2) => {
                s.pile = s.pile.saturating_sub(take);
                if s.pile == 0 {
                    s.scores[s.player as usize - 1] = 1;
                }
                s.last = s.player;
                s.player = KEEPER;
            }
            pass => s.player = pass.saturating_sub(2),
        }
    }
}

/// [`Nim`] with the searches the compiled engine adds, [`Game::count_moves`] and
/// [`Game::visit_children`], which count how often the drivers use them; for the drivers'
/// tests of those paths.
pub struct SearchingNim {
    /// The game itself.
    pub nim: Nim,
    /// Calls of `count_moves` and `visit_children` so far.
    pub searches: AtomicU64,
}

impl SearchingNim {
    /// Nim starting with `pile` stones.
    pub fn new(pile: u32) -> Self {
        SearchingNim { nim: Nim::new(pile), searches: AtomicU64::new(0) }
    }

    /// Calls of `count_moves` and `visit_children` so far.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }
}

impl Game for SearchingNim {
    type State = NimState;
    type Scratch = ();

    fn info(&self) -> &GameInfo {
        self.nim.info()
    }

    fn new_scratch(&self) {}

    fn initial_state(&self) -> NimState {
        self.nim.initial_state()
    }

    fn current_player(&self, s: &NimState) -> Player {
        self.nim.current_player(s)
    }

    fn current_vertex(&self, s: &NimState) -> u32 {
        self.nim.current_vertex(s)
    }

    fn piece(&self, s: &NimState, vertex: u32) -> u32 {
        self.nim.piece(s, vertex)
    }

    fn variable(&self, s: &NimState, var: usize) -> i64 {
        self.nim.variable(s, var)
    }

    fn rules_state(&self, s: &NimState) -> u32 {
        self.nim.rules_state(s)
    }

    fn state_from_parts(&self, parts: &StateParts) -> Result<NimState, StateCodecError> {
        self.nim.state_from_parts(parts)
    }

    fn visit_moves<F>(&self, s: &mut NimState, sc: &mut (), visit: F) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        self.nim.visit_moves(s, sc, visit)
    }

    fn apply_move(&self, s: &mut NimState, m: &[Action]) {
        self.nim.apply_move(s, m)
    }

    fn count_moves(&self, s: &mut NimState, _sc: &mut ()) -> Result<Option<u64>, SearchError> {
        self.searches.fetch_add(1, Ordering::Relaxed);
        // A player takes one or two stones while there are that many; the keeper passes while
        // stones are left.
        let moves = if s.player == KEEPER { u32::from(s.pile > 0) } else { s.pile.min(2) };
        Ok(Some(u64::from(moves)))
    }

    fn visit_children<F>(
        &self,
        s: &mut NimState,
        sc: &mut (),
        child: &mut NimState,
        mut visit: F,
    ) -> Result<Option<u64>, SearchError>
    where
        F: FnMut(&mut NimState) -> ControlFlow<()>,
    {
        self.searches.fetch_add(1, Ordering::Relaxed);
        let base = s.clone();
        let mut visited = 0;
        let _ = self.nim.visit_moves(s, sc, |m| {
            child.clone_from(&base);
            self.nim.apply_move(child, m);
            visited += 1;
            visit(child)
        })?;
        Ok(Some(visited))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveList;

    #[test]
    fn every_state_round_trips_through_bytes() {
        let game = Nim::new(5);
        let mut sc = ();
        // Walk the whole game tree, keeper states included.
        let mut todo = vec![game.initial_state()];
        let mut seen = 0;
        while let Some(mut s) = todo.pop() {
            let mut bytes = Vec::new();
            game.encode_state(&s, &mut bytes);
            assert_eq!(game.decode_state(&bytes), Ok(s.clone()));
            seen += 1;
            let mut list = MoveList::new();
            game.legal_moves(&mut s, &mut sc, &mut list).unwrap();
            for m in list.iter() {
                let mut child = s.clone();
                game.apply_move(&mut child, m);
                todo.push(child);
            }
        }
        assert!(seen > 20);
    }

    #[test]
    fn impossible_parts_are_rejected() {
        let game = Nim::new(5);
        let mut parts = game.state_parts(&game.initial_state());
        parts.rules_state = 1; // the keeper cannot be at a player's position
        assert!(game.state_from_parts(&parts).is_err());
        parts.player = 1;
        assert!(game.state_from_parts(&parts).is_ok());
        parts.variables.pop();
        assert!(game.state_from_parts(&parts).is_err());
    }
}
