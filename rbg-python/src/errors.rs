//! The exceptions the module raises and the conversions of the engines' errors into them.
//!
//! * `rbg.ParseError` (a `ValueError`): the game description has errors; the message holds
//!   each one as `file:line:col: error: message`.
//! * `rbg.SearchError` (a `RuntimeError`): a search stopped at one of the engines' documented
//!   bounds (only improper game descriptions reach them).
//! * `ValueError`: an illegal or malformed move, bytes that are not a state of this game, a
//!   state or game that does not belong with the other argument, a bad agent specification.
//! * `OSError`: a file that cannot be read.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::load::LoadError;

create_exception!(
    _rbg,
    ParseError,
    PyValueError,
    "The game description has errors; the message lists each as file:line:col: error: text."
);
create_exception!(
    _rbg,
    SearchError,
    PyRuntimeError,
    "A search stopped at one of the engines' bounds (an improper game description)."
);

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    m.add("SearchError", m.py().get_type::<SearchError>())?;
    Ok(())
}

impl From<LoadError> for PyErr {
    fn from(e: LoadError) -> PyErr {
        match e {
            LoadError::Io(text) => PyOSError::new_err(text),
            LoadError::Py(error) => error,
        }
    }
}

/// A search that stopped at a bound.
pub fn search_error(e: impl std::fmt::Display) -> PyErr {
    SearchError::new_err(e.to_string())
}

/// A bad value passed by the caller.
pub fn value_error(text: impl Into<String>) -> PyErr {
    PyValueError::new_err(text.into())
}
