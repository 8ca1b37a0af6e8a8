//! A tiny hand-written reasoner (Nim) used by the documentation examples and the driver tests.
//!
//! Two players alternately take one or two stones from a pile; whoever takes the last stone
//! scores 1. The keeper hands the turn over after every move and is stuck once the pile is
//! empty, which ends the game, mirroring the `->>` bookkeeping of RBG descriptions.
//! Action indices: 1 = take one, 2 = take two, 3 = keeper passes to player 1,
//! 4 = keeper passes to player 2.

use core::ops::ControlFlow;

use crate::game::{Game, GameInfo, Player, SearchError, KEEPER};
use crate::moves::Action;

pub struct Nim {
    pile: u32,
    info: GameInfo,
}

impl Nim {
    pub fn new(pile: u32) -> Self {
        let info = GameInfo {
            name: "nim".into(),
            players: vec!["first".into(), "second".into()],
            pieces: vec!["stone".into()],
            variables: vec!["first".into(), "second".into()],
            bounds: vec![1, 1],
            vertices: vec!["pile".into()],
            modifiers: 4,
            switches: vec![1, 2, 3, 4],
        };
        Nim { pile, info }
    }
}

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
        s.scores[var]
    }

    fn rules_state(&self, s: &NimState) -> u32 {
        s.player
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
        match m[0].index {
            take @ (1 | 2) => {
                s.pile -= take;
                if s.pile == 0 {
                    s.scores[s.player as usize - 1] = 1;
                }
                s.last = s.player;
                s.player = KEEPER;
            }
            pass => s.player = pass - 2,
        }
    }
}
