//! `rbg.State`: one position of a game, always keeper-completed, so that a real player is to
//! move unless the game is over.

use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use rbg_core::dynamic::{AnyGame, DynScratch, DynState};
use rbg_core::moves::{check_listed, check_move, CheckedMoveError};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Action, Game, MoveList, KEEPER};

use crate::board;
use crate::errors::{search_error, value_error};
use crate::game::PyGame;
use crate::moves::{actions_of, PyMove};
use crate::utility::score_return;

/// `current_player()` of a finished game (OpenSpiel's `pyspiel.PlayerId.TERMINAL`).
pub const TERMINAL: i64 = -4;

/// A game state. Mutable (`apply` changes it in place); `clone()` gives an independent copy.
#[pyclass(module = "rbg._rbg", name = "State")]
pub struct PyState {
    game: Py<PyGame>,
    any: AnyGame,
    state: DynState,
    /// Search memory. Python objects must be `Sync`; a scratch is only `Send`, and the mutex
    /// makes it `Sync` at no cost, since `&mut self` reaches it with `Mutex::get_mut`.
    scratch: Mutex<DynScratch>,
    /// The legal moves of `state` once `legal_moves()` listed them, until the state changes:
    /// a Python loop then pays one move generation per ply, not three (`is_terminal` and
    /// `apply`'s legality check read the list).
    legal: Option<MoveList>,
}

impl PyState {
    /// The keeper-completed initial state of `game`.
    pub fn initial(game: Py<PyGame>, any: &AnyGame) -> PyResult<Self> {
        Self::from_state(game, any, any.initial_state())
    }

    /// Wraps `state`, completing the keeper's moves if it is the keeper's turn.
    pub fn from_state(game: Py<PyGame>, any: &AnyGame, mut state: DynState) -> PyResult<Self> {
        let mut scratch = any.new_scratch();
        any.complete_keeper(&mut state, &mut scratch, DEFAULT_KEEPER_LIMIT).map_err(search_error)?;
        Ok(PyState { game, any: any.clone(), state, scratch: Mutex::new(scratch), legal: None })
    }

    /// The engine's state (for agents).
    pub fn inner(&self) -> &DynState {
        &self.state
    }

    /// The state and the scratch, borrowed together for a search.
    fn parts(&mut self) -> (&AnyGame, &mut DynState, &mut DynScratch) {
        // A poisoned lock only means a panic elsewhere; a scratch holds no game data.
        (&self.any, &mut self.state, self.scratch.get_mut().unwrap_or_else(PoisonError::into_inner))
    }

    /// Whether the player to move has no legal move (the keeper is only ever to move then).
    fn finished(&mut self) -> PyResult<bool> {
        if let Some(list) = &self.legal {
            return Ok(list.is_empty());
        }
        Ok(!{
            let (any, state, scratch) = self.parts();
            any.has_legal_move(state, scratch)
        }
        .map_err(search_error)?)
    }
}

#[pymethods]
impl PyState {
    /// The game this state belongs to.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.game.clone_ref(py)
    }

    /// The legal moves of the player to move, in the engine's search order (empty when the
    /// game is over).
    fn legal_moves(&mut self) -> PyResult<Vec<PyMove>> {
        if self.legal.is_none() {
            let mut list = MoveList::new();
            let (any, state, scratch) = self.parts();
            any.legal_moves(state, scratch, &mut list).map_err(search_error)?;
            self.legal = Some(list);
        }
        let list = self.legal.iter().flat_map(|list| list.iter());
        Ok(list.map(|m| PyMove::new(&self.any, m.to_vec())).collect())
    }

    /// Plays `move`: a `Move`, its text in pair notation (`"3@c2 7@c3"`) or a list of
    /// `(index, vertex)` pairs. A move that is not legal here raises ValueError and leaves the
    /// state unchanged. The keeper's moves that follow are made too.
    #[pyo3(name = "apply", signature = (r#move))]
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions = actions_of(self.any.info(), r#move)?;
        // Work on a copy so that no failure (illegal move, keeper bound) changes the state.
        let mut next = self.state.clone();
        let scratch = self.scratch.get_mut().unwrap_or_else(PoisonError::into_inner);
        // The list made by `legal_moves()`, if any, answers without a search.
        let player = self.any.current_player(&next);
        let checked = match &self.legal {
            Some(list) => check_listed(list, player, &actions).map_err(CheckedMoveError::Illegal),
            None => check_move(&self.any, &mut next, scratch, &actions),
        };
        checked.map_err(|e| match e {
            CheckedMoveError::Search(e) => search_error(e),
            CheckedMoveError::Illegal(e) => value_error(format!(
                "illegal move {:?}: not one of the {} legal moves of this state",
                rbg_core::notation::format_move(self.any.info(), &actions, Default::default()),
                e.legal
            )),
        })?;
        self.any.apply_move(&mut next, &actions);
        self.any.complete_keeper(&mut next, scratch, DEFAULT_KEEPER_LIMIT).map_err(search_error)?;
        self.state = next;
        self.legal = None;
        Ok(())
    }

    /// The distinct next actions `(index, vertex)` of the partial move `prefix` (a list of
    /// `(index, vertex)` pairs, empty by default): every one extends `prefix` towards some
    /// legal move. Empty when `prefix` is already a whole move or begins no legal move.
    #[pyo3(signature = (prefix = Vec::new()))]
    fn next_actions(&mut self, prefix: Vec<(u32, u32)>) -> PyResult<Vec<(u32, u32)>> {
        let prefix: Vec<Action> = prefix.into_iter().map(|(i, v)| Action::new(i, v)).collect();
        let mut out = Vec::new();
        let (any, state, scratch) = self.parts();
        any.next_actions(state, scratch, &prefix, &mut out).map_err(search_error)?;
        Ok(out.into_iter().map(|a| (a.index, a.vertex)).collect())
    }

    /// The player to move as an index into `Game.players` (0 for the first player), or
    /// `rbg.TERMINAL` (-4) when the game is over.
    fn current_player(&mut self) -> PyResult<i64> {
        if self.finished()? {
            return Ok(TERMINAL);
        }
        match self.any.current_player(&self.state) {
            KEEPER => Ok(TERMINAL),
            p => Ok(i64::from(p) - 1),
        }
    }

    /// Whether the game is over: the player to move has no legal move.
    fn is_terminal(&mut self) -> PyResult<bool> {
        self.finished()
    }

    /// Each player's score (the RBG score variables), in player order.
    fn scores(&self) -> Vec<i64> {
        let players = self.any.info().num_players() as u32;
        (1..=players).map(|p| self.any.score(&self.state, p)).collect()
    }

    /// OpenSpiel-style returns: at the end of the game each player's score mapped from
    /// `0..=bound` to `-1..=1` (so 100/50/0 of 100 give 1/0/-1); all 0 before the end.
    fn returns(&mut self) -> PyResult<Vec<f64>> {
        let terminal = self.finished()?;
        let bounds = &self.any.info().bounds;
        Ok(self
            .scores()
            .iter()
            .zip(bounds)
            .map(|(&score, &bound)| if terminal { score_return(score, bound) } else { 0.0 })
            .collect())
    }

    /// The value of a variable by name (scores and declared variables; see `Game.variables`).
    fn variable(&self, name: &str) -> PyResult<i64> {
        let index = self.any.info().variables.iter().position(|v| v == name);
        let index = index.ok_or_else(|| value_error(format!("no variable named {name:?}")))?;
        Ok(self.any.variable(&self.state, index))
    }

    /// The name of the piece on each vertex, in board order.
    fn board(&self) -> Vec<String> {
        let info = self.any.info();
        (0..info.vertices.len() as u32)
            .map(|v| info.pieces[self.any.piece(&self.state, v) as usize].clone())
            .collect()
    }

    /// One plane per piece (in `Game.pieces` order), each a list over the vertices (in board
    /// order) holding 1.0 where that piece stands and 0.0 elsewhere: shape
    /// `[len(game.pieces)][len(game.vertices)]`.
    fn board_tensor(&self) -> Vec<Vec<f32>> {
        let info = self.any.info();
        let mut planes = vec![vec![0.0f32; info.vertices.len()]; info.pieces.len()];
        for v in 0..info.vertices.len() as u32 {
            let piece = self.any.piece(&self.state, v) as usize;
            planes[piece][v as usize] = 1.0;
        }
        planes
    }

    /// The value of every variable, in `Game.variables` order (each player's score first).
    /// With the board, `rules_position()` and `current_vertex()` it is the whole state: two
    /// states that agree on all four have the same legal moves.
    fn variable_values(&self) -> Vec<i64> {
        (0..self.any.info().variables.len()).map(|v| self.any.variable(&self.state, v)).collect()
    }

    /// The position in the rules where the player to move continues: a number of the engine's
    /// own (the same game in another engine may number positions differently). States with the
    /// same board and variables but different positions may have different legal moves (a
    /// game's phase can be a place in the rules rather than a variable).
    fn rules_position(&self) -> u32 {
        self.any.rules_state(&self.state)
    }

    /// The current vertex (where the next move's search starts), an index into
    /// `Game.vertices`.
    fn current_vertex(&self) -> u32 {
        self.any.current_vertex(&self.state)
    }

    /// An independent copy of this state.
    #[pyo3(name = "clone")]
    fn copy(&self, py: Python<'_>) -> Self {
        PyState {
            game: self.game.clone_ref(py),
            any: self.any.clone(),
            state: self.state.clone(),
            scratch: Mutex::new(self.any.new_scratch()),
            legal: self.legal.clone(),
        }
    }

    /// Same as `clone()`.
    fn __copy__(&self, py: Python<'_>) -> Self {
        self.copy(py)
    }

    /// Same as `clone()` (a state shares nothing mutable with other states).
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy(py)
    }

    /// The state as bytes (a versioned, checksummed format); `Game.deserialize_state` reads
    /// them back in any process that loads the same game into the same engine.
    fn serialize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.any.try_encode_state(&self.state).map_err(search_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Pickling: `rbg._restore_state(game, bytes)`, i.e. `game.deserialize_state(bytes)` with
    /// the game pickled by its own `__reduce__` (once per pickle, however many of its states
    /// it holds).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.import("rbg")?.getattr("_restore_state")?;
        let args = (self.game.clone_ref(py), self.serialize(py)?);
        Ok((restore, args.into_pyobject(py)?))
    }

    /// Whether `other` is a state of the same game handle in the same position.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<PyState>().is_ok_and(|o| o.try_borrow().is_ok_and(|o| o.state == self.state))
    }

    /// A text picture of the board and whose turn it is.
    fn __str__(&mut self) -> PyResult<String> {
        let finished = self.finished()?;
        Ok(board::draw(&self.any, &self.state, finished))
    }

    /// `<rbg.State of GAME>`.
    fn __repr__(&self) -> String {
        format!("<rbg.State of {}>", self.any.info().name)
    }
}
