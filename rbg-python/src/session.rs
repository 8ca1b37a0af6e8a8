//! `rbg.Session`: checked play of one game with undo and redo, over `rbg::session::Session`.
//!
//! A session starts at the initial position (keeper completed), plays whole moves (`play`) or
//! builds one action by action (`step`, offered by `next_actions`), steps back and forth
//! through its history (`undo`, `redo`), bounded by `max_history` moves, and tells the result
//! (`is_terminal`, `scores`, `outcomes`) and the log record of `rbg play --log` (`log`).
//! Every refused call raises and changes nothing: `ValueError` for a move or step that is not
//! legal, a finished game, a full history or nothing to undo or redo; `rbg.SearchError` when a
//! search stops at a bound.

use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rbg::session::{Session, SessionError, SessionOptions};
use rbg_core::dynamic::AnyGame;
use rbg_core::{Action, Game};

use crate::board;
use crate::errors::{search_error, value_error};
use crate::game::PyGame;
use crate::moves::{actions_of, PyMove};
use crate::state::{PyState, TERMINAL};

/// A game in play with its history.
#[pyclass(module = "rbg._rbg", name = "Session")]
pub struct PySession {
    game: Py<PyGame>,
    /// The mutex makes the session `Sync` (its search scratch is only `Send`); `&mut self`
    /// reaches it without locking.
    inner: Mutex<Session<AnyGame>>,
}

/// The Python exception for a refusal.
fn refused(e: SessionError) -> PyErr {
    match e {
        SessionError::Search(e) => search_error(e),
        other => value_error(other.to_string()),
    }
}

impl PySession {
    fn session(&mut self) -> &mut Session<AnyGame> {
        // A poisoned lock only means a panic elsewhere; every call leaves the session whole.
        self.inner.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    fn view(&self) -> std::sync::MutexGuard<'_, Session<AnyGame>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl PySession {
    /// A session of `game` at its initial position; at most `max_history` moves are kept
    /// (a move beyond raises ValueError; undo makes room).
    #[new]
    #[pyo3(signature = (game, max_history = 10_000))]
    fn new(game: Py<PyGame>, max_history: usize) -> PyResult<Self> {
        let any = game.get().any.clone();
        let options = SessionOptions { max_history, ..SessionOptions::default() };
        let session = Session::new(Arc::new(any), options).map_err(search_error)?;
        Ok(PySession { game, inner: Mutex::new(session) })
    }

    /// The game.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.game.clone_ref(py)
    }

    /// Plays `move` (a `Move`, its text in pair notation or a list of `(index, vertex)`
    /// pairs) at the position shown, if it is legal there; the undone moves are dropped.
    #[pyo3(signature = (r#move))]
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let session = self.session();
        let actions = actions_of(session.game().info(), r#move)?;
        session.play(&actions).map_err(refused)
    }

    /// Adds the action `(index, vertex)` to the partial move; one that ends the move (a
    /// switch) plays it.
    fn step(&mut self, action: (u32, u32)) -> PyResult<()> {
        self.session().step(Action::new(action.0, action.1)).map_err(refused)
    }

    /// The actions `(index, vertex)` that can follow the partial move.
    fn next_actions(&mut self) -> PyResult<Vec<(u32, u32)>> {
        let next = self.session().next_actions().map_err(refused)?;
        Ok(next.into_iter().map(|a| (a.index, a.vertex)).collect())
    }

    /// The actions `(index, vertex)` chosen so far of the move being built.
    #[getter]
    fn partial(&self) -> Vec<(u32, u32)> {
        self.view().partial().iter().map(|a| (a.index, a.vertex)).collect()
    }

    /// Drops the partial move; whether there was one.
    fn clear_partial(&mut self) -> bool {
        self.session().clear_partial()
    }

    /// Steps back one move (a partial move is dropped first, and counts as the step).
    fn undo(&mut self) -> PyResult<()> {
        self.session().undo().map_err(refused)
    }

    /// Steps forward one undone move.
    fn redo(&mut self) -> PyResult<()> {
        self.session().redo().map_err(refused)
    }

    /// The moves played up to the position shown.
    fn history(&self) -> Vec<PyMove> {
        let session = self.view();
        session.history().iter().map(|m| PyMove::new(session.handle(), m.clone())).collect()
    }

    /// The undone moves that `redo` replays, in order.
    fn redoable(&self) -> Vec<PyMove> {
        let session = self.view();
        session.redoable().iter().map(|m| PyMove::new(session.handle(), m.clone())).collect()
    }

    /// The number of moves played up to the position shown.
    fn __len__(&self) -> usize {
        self.view().history().len()
    }

    /// A copy of the position shown, as an `rbg.State`.
    fn state(&self, py: Python<'_>) -> PyResult<PyState> {
        let session = self.view();
        PyState::from_state(self.game.clone_ref(py), session.handle(), session.state().clone())
    }

    /// Whether the game is over at the position shown.
    fn is_terminal(&self) -> bool {
        !self.view().ongoing()
    }

    /// The player to move as an index into `Game.players`, or `rbg.TERMINAL`.
    fn current_player(&self) -> i64 {
        self.view().to_move().map_or(TERMINAL, |p| i64::from(p) - 1)
    }

    /// Each player's score at the position shown.
    fn scores(&self) -> Vec<i64> {
        self.view().result().scores
    }

    /// `"win"`, `"draw"` or `"loss"` per player once the game is over (the best score wins,
    /// several best scores draw); None before.
    fn outcomes(&self) -> Option<Vec<&'static str>> {
        self.view().result().outcomes.map(|o| o.into_iter().map(|o| o.name()).collect())
    }

    /// The game up to the position shown as a record of the `rbg play --log` format (a dict:
    /// game, file, index, seed, agents, players, moves, scores, termination, result).
    #[pyo3(signature = (file = None, agents = Vec::new(), index = 0, seed = 0))]
    fn log<'py>(
        &self,
        py: Python<'py>,
        file: Option<String>,
        agents: Vec<String>,
        index: u64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let log = self.view().log(file, agents, index, seed);
        let dict = PyDict::new(py);
        dict.set_item("game", log.game)?;
        dict.set_item("file", log.file)?;
        dict.set_item("index", log.index)?;
        dict.set_item("seed", log.seed)?;
        dict.set_item("agents", log.agents)?;
        dict.set_item("players", log.players)?;
        dict.set_item("moves", log.moves)?;
        dict.set_item("scores", log.scores)?;
        dict.set_item("termination", log.termination)?;
        dict.set_item("result", log.result)?;
        dict.set_item("error", log.error)?;
        dict.set_item("engine", log.engine)?;
        dict.set_item("notation", log.notation)?;
        Ok(dict)
    }

    /// The text picture of the position shown.
    fn __str__(&self) -> String {
        let session = self.view();
        board::draw(session.handle(), session.state(), !session.ongoing())
    }

    /// `<rbg.Session of GAME after N moves>`.
    fn __repr__(&self) -> String {
        let session = self.view();
        format!("<rbg.Session of {} after {} moves>", session.game().info().name, session.history().len())
    }
}
