//! Python bindings of rbg-rs: the `rbg._rbg` extension module behind the `rbg` package.
//!
//! The API follows OpenSpiel's shape: [`load`] gives a [`game::PyGame`], whose
//! `new_initial_state()` gives a [`state::PyState`] with `legal_moves()`, `apply()`,
//! `current_player()`, `is_terminal()`, `returns()` and so on. Every state is kept
//! keeper-completed, so Python only ever sees real players to move (or a finished game).
//!
//! Nothing here trusts its input: moves are checked against the legal moves before they are
//! applied, bytes are decoded by the checked state codec, numbers are range-checked by the
//! argument conversion, and every failure is a Python exception (see [`errors`]).

use pyo3::prelude::*;

mod agent;
mod analyze;
mod board;
mod cluster;
mod errors;
mod evolve;
mod game;
mod interrupt;
mod load;
mod moves;
mod session;
mod state;
mod utility;

/// Loads the game described by the file at `path` (`.rbg`, or `.sbg` translated to RBG) into
/// the interpreter. The package's `rbg.load` wraps this and adds `engine="compiled"`, which
/// builds the reasoner library in-process (`_build_library`) and loads it (`load_library`).
#[pyfunction(name = "load")]
#[pyo3(signature = (path, engine = "interpreter"))]
fn load_game(path: std::path::PathBuf, engine: &str) -> PyResult<game::PyGame> {
    game::PyGame::from_path(&path, engine)
}

/// Loads the game text `text` as if read from the file at `path` (which is not read: it names
/// the game and tells RBG from SBG). For unpickling (`rbg._restore_game`); `text` must be
/// bytes, since a pickle holds the file's bytes, whatever their encoding.
#[pyfunction]
fn _load_source(path: std::path::PathBuf, text: &Bound<'_, pyo3::types::PyBytes>) -> PyResult<game::PyGame> {
    game::PyGame::from_source(&path, text.as_bytes().to_vec())
}

/// Loads a compiled reasoner library (the `.so`/`.dylib`/`.dll` built from the crate that
/// `rbg compile FILE -o DIR` writes: `cargo build --release --manifest-path DIR/Cargo.toml`).
#[pyfunction]
fn load_library(path: std::path::PathBuf) -> PyResult<game::PyGame> {
    game::PyGame::from_library(&path)
}

/// The native module; the `rbg` package re-exports its contents.
#[pymodule]
fn _rbg(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(load_library, m)?)?;
    m.add_function(wrap_pyfunction!(_load_source, m)?)?;
    m.add_function(wrap_pyfunction!(load::_build_library, m)?)?;
    m.add("ParseWarning", m.py().get_type::<load::ParseWarning>())?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PlayoutStats>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_class::<session::PySession>()?;
    m.add("TERMINAL", state::TERMINAL)?;
    cluster::register(m)?;
    evolve::register(m)?;
    analyze::register(m)?;
    errors::register(m)
}
