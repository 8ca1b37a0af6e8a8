//! What a played game tells the measures: per ply the mover, the number of legal moves and the
//! piece used, the cells the game touched, the final scores and how it ended.
//!
//! A [`Recorder`] is told of every move as it is applied ([`Recorder::play`]); any game loop
//! can use it (`rbg evolve`'s playouts do). A game played elsewhere (a match of rbg-agents) is
//! replayed through one by [`replay`]: the moves were legal when played, so the replay costs one
//! move generation per ply, nothing next to the agents' searches.

use rbg_agents::matches::outcomes;
use rbg_agents::{GameResult, Outcome, Termination};
use rbg_core::{Action, Game, MoveList, Player, SearchError};
use serde::{Deserialize, Serialize};

/// One player move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ply {
    pub player: Player,
    /// Legal moves of the position the move was chosen in.
    pub branching: u32,
    /// The piece used (see [`Recorder::play`]), as a piece id.
    pub piece: Option<u32>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    /// By its rules.
    Finished,
    /// Stopped unfinished at the move limit.
    MoveLimit,
    /// Stopped by a failure (the message).
    Error(String),
}

impl From<&Termination> for End {
    fn from(t: &Termination) -> End {
        match t {
            Termination::Finished => End::Finished,
            Termination::MoveLimit => End::MoveLimit,
            Termination::Error(e) => End::Error(e.clone()),
        }
    }
}

/// One game as the measures see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameTrace {
    pub plies: Vec<Ply>,
    /// Final scores, index `p - 1` for player `p`.
    pub scores: Vec<i64>,
    pub end: End,
    /// The agent in each seat (indices into the agents of the analysis).
    pub seating: Vec<usize>,
    /// Vertices whose piece changed at least once (0 when cells were not watched).
    pub cells_touched: u32,
}

impl GameTrace {
    /// Each seat's outcome, for a finished game (a strictly highest score wins, a tie for it
    /// draws, as in rbg-agents' matches).
    pub fn outcomes(&self) -> Option<Vec<Outcome>> {
        (self.end == End::Finished).then(|| outcomes(&self.scores))
    }

    /// The seat (from 0) of the only winner of a finished game.
    pub fn winner(&self) -> Option<usize> {
        self.outcomes()?.iter().position(|&o| o == Outcome::Win)
    }

    /// Player moves played.
    pub fn length(&self) -> u64 {
        self.plies.len() as u64
    }
}

/// Records the plies of one game at a time.
pub struct Recorder {
    /// Per piece id: whether it is an empty cell (by name, as pictures decide).
    empty: Vec<bool>,
    /// Watch which cells change (board coverage); costs a look at every cell per ply.
    watch_cells: bool,
    board: Vec<u32>,
    touched: Vec<bool>,
    plies: Vec<Ply>,
}

impl Recorder {
    pub fn new<G: Game>(game: &G, watch_cells: bool) -> Recorder {
        let info = game.info();
        Recorder {
            empty: info.pieces.iter().map(|p| rbg_render::pieces::is_empty_name(p)).collect(),
            watch_cells,
            board: Vec::new(),
            touched: if watch_cells { vec![false; info.vertices.len()] } else { Vec::new() },
            plies: Vec::new(),
        }
    }

    /// Applies `mv` to `state`, recording the ply: its mover, `branching` (the legal moves of
    /// `state`) and the piece used. The piece used is the one standing on the vertex of the
    /// move's first action before the move (the piece that leaves its square in chess-like
    /// rules), unless that is an empty cell: then it is the piece standing there after the
    /// move (the one placed, in tic-tac-toe). A move without actions uses no piece.
    pub fn play<G: Game>(&mut self, game: &G, state: &mut G::State, branching: usize, mv: &[Action]) {
        let player = game.current_player(state);
        let first = mv.first().map(|a| a.vertex);
        let before = first.map(|v| game.piece(state, v));
        if self.watch_cells {
            self.board.clear();
            self.board.extend((0..self.touched.len() as u32).map(|v| game.piece(state, v)));
        }
        game.apply_move(state, mv);
        if self.watch_cells {
            for (v, (&old, touched)) in self.board.iter().zip(self.touched.iter_mut()).enumerate() {
                *touched |= game.piece(state, v as u32) != old;
            }
        }
        let piece = match (first, before) {
            (Some(v), Some(p)) if self.empty.get(p as usize).copied().unwrap_or(false) => {
                Some(game.piece(state, v))
            }
            (_, p) => p,
        };
        let branching = u32::try_from(branching).unwrap_or(u32::MAX);
        self.plies.push(Ply { player, branching, piece });
    }

    /// The game recorded so far as a trace; the recorder starts a new game.
    pub fn finish(&mut self, scores: Vec<i64>, end: End, seating: Vec<usize>) -> GameTrace {
        let cells_touched = self.touched.iter().filter(|&&t| t).count() as u32;
        self.touched.iter_mut().for_each(|t| *t = false);
        GameTrace { plies: std::mem::take(&mut self.plies), scores, end, seating, cells_touched }
    }
}

/// A played match game replayed through `recorder` (which must be new or finished).
pub fn replay<G: Game>(
    game: &G,
    result: &GameResult,
    recorder: &mut Recorder,
    keeper_limit: u64,
) -> GameTrace {
    let played = replay_moves(game, result.moves.iter().map(|m| m.mv.as_slice()), recorder, keeper_limit);
    let end = match played {
        Ok(()) => End::from(&result.termination),
        Err(e) => End::Error(format!("replaying the game: {e}")),
    };
    recorder.finish(result.scores.clone(), end, result.seating.clone())
}

/// Plays `moves` from the keeper-completed initial state through `recorder`.
pub fn replay_moves<'m, G: Game>(
    game: &G,
    moves: impl Iterator<Item = &'m [Action]>,
    recorder: &mut Recorder,
    keeper_limit: u64,
) -> Result<(), SearchError> {
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    let mut legal = MoveList::new();
    game.complete_keeper(&mut state, &mut sc, keeper_limit)?;
    for mv in moves {
        game.legal_moves(&mut state, &mut sc, &mut legal)?;
        recorder.play(game, &mut state, legal.len(), mv);
        game.complete_keeper(&mut state, &mut sc, keeper_limit)?;
    }
    Ok(())
}
