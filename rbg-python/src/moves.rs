//! Moves as Python values and the conversions of Python arguments into actions.

use pyo3::exceptions::PyTypeError;
use std::hash::{Hash, Hasher};

use pyo3::prelude::*;
use pyo3::types::{PySequence, PyString};
use rbg_core::dynamic::AnyGame;
use rbg_core::notation::{self, VertexStyle};
use rbg_core::Game;
use rbg_core::{Action, GameInfo};

use crate::errors::value_error;

/// A move: the `(modifier index, vertex)` actions of one player's turn, ending with a switch.
///
/// `str(move)` is the move in pair notation (`index@vertex` pairs, vertices by name), the
/// text `State.apply` also accepts. Moves compare and hash by their actions.
#[pyclass(module = "rbg._rbg", name = "Move", frozen, eq, hash)]
#[derive(Clone)]
pub struct PyMove {
    pub actions: Vec<Action>,
    /// The game, for the vertex names of the text, which is written only when asked for
    /// (formatting every listed move would cost more than listing it).
    game: AnyGame,
}

impl PartialEq for PyMove {
    fn eq(&self, other: &Self) -> bool {
        self.actions == other.actions
    }
}

impl Eq for PyMove {}

impl Hash for PyMove {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.actions.hash(state)
    }
}

impl PyMove {
    /// A move of `game`.
    pub fn new(game: &AnyGame, actions: Vec<Action>) -> Self {
        PyMove { actions, game: game.clone() }
    }

    /// The move in pair notation with vertex names.
    fn text(&self) -> String {
        notation::format_move(self.game.info(), &self.actions, VertexStyle::Name)
    }
}

#[pymethods]
impl PyMove {
    /// The actions as a list of `(modifier index, vertex number)` pairs.
    #[getter]
    fn actions(&self) -> Vec<(u32, u32)> {
        self.actions.iter().map(|a| (a.index, a.vertex)).collect()
    }

    /// The move in pair notation (`"4@c2 5@c2"`), as `State.apply` reads it.
    fn __str__(&self) -> String {
        self.text()
    }

    /// `Move("...")` with the text in pair notation.
    fn __repr__(&self) -> String {
        format!("Move({:?})", self.text())
    }

    /// The number of actions.
    fn __len__(&self) -> usize {
        self.actions.len()
    }
}

/// The actions of a move given as a `Move`, its text in pair notation, or a sequence of
/// `(index, vertex)` pairs. Only the form is checked here; legality is the state's business.
pub fn actions_of(info: &GameInfo, value: &Bound<'_, PyAny>) -> PyResult<Vec<Action>> {
    if let Ok(m) = value.downcast::<PyMove>() {
        return Ok(m.get().actions.clone());
    }
    if let Ok(text) = value.downcast::<PyString>() {
        // `to_str` fails (UnicodeEncodeError, a ValueError) on lone surrogates.
        let text = text.to_str()?;
        return notation::parse_move(info, text)
            .map_err(|e| value_error(format!("bad move text {text:?}: {e}")));
    }
    if value.downcast::<PySequence>().is_err() {
        return Err(PyTypeError::new_err(format!(
            "a move is a Move, its text or a list of (index, vertex) pairs, not {}",
            value.get_type().name()?
        )));
    }
    // The conversion's own errors say what is wrong: TypeError for a bad shape,
    // OverflowError for numbers outside 0..2^32.
    let pairs: Vec<(u32, u32)> = value.extract()?;
    Ok(pairs.into_iter().map(|(index, vertex)| Action::new(index, vertex)).collect())
}
