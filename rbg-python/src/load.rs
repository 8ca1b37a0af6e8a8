//! Reading a game file (RBG, or Simplified Boardgames translated to RBG) into an engine, through
//! [`rbg::open`] as every front end does, and its errors and warnings as Python sees them:
//!
//! * a file that cannot be read: `OSError` with `errno`, `strerror` and `filename` (so a
//!   missing file is a `FileNotFoundError`);
//! * a description with errors: `ParseError`, its message each error as
//!   `file:line:col: error: message` with the notes below, and attributes `path`, `line` and
//!   `column` (those of the first error; `None` when it has no place);
//! * warnings of a valid description: `rbg.ParseWarning` (a `UserWarning`) through Python's
//!   `warnings.warn`, one per warning, as `file:line:col: warning: message`;
//! * a compiled engine that cannot be built: `RuntimeError` with the end of cargo's output.

use std::ffi::CString;
use std::path::{Path, PathBuf};

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyUserWarning};
use pyo3::prelude::*;
use rbg::compile::{build_engine, BuildSettings, CompileOptions};
use rbg::open::{GameFile, OpenError};
use rbg_core::dynamic::AnyGame;
use rbg_interp::InterpOptions;
use rbg_parser::diag::Diagnostic;
use rbg_parser::source::SourceFile;

use crate::errors::ParseError;

create_exception!(
    _rbg,
    ParseWarning,
    PyUserWarning,
    "A warning about a valid game description, as file:line:col: warning: text."
);

/// Why a game could not be loaded, and which Python exception says so.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read (an `OSError`).
    Io(String),
    /// The Python exception, made here.
    Py(PyErr),
}

/// A parsed game: the valid file, its warnings already issued.
pub struct ParsedGame(GameFile);

impl ParsedGame {
    /// The game's intermediate representation (of the RBG translation, for an SBG file).
    pub fn ir(&self) -> &rbg_parser::ir::Game {
        &self.0.ir
    }
}

/// Reads the game file at `path` (its bytes, for `parse_source`).
pub fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
    rbg::open::read_bytes(path).map_err(|e| LoadError::Py(open_error(e)))
}

/// Parses `text` as the game file at `path`, RBG or SBG: the path names the game and its
/// extension tells the languages apart, but the file itself is not read (an unpickled game
/// is rebuilt from the text it was loaded from, wherever the file is now). Warnings are issued.
pub fn parse_source(path: &Path, text: Vec<u8>) -> Result<ParsedGame, LoadError> {
    let game = rbg::parse_game(path, text).map_err(|e| LoadError::Py(open_error(e)))?;
    warn_all(&game.source, &game.warnings).map_err(LoadError::Py)?;
    Ok(ParsedGame(game))
}

/// Builds the interpreter for a parsed game.
pub fn interpreter(parsed: &ParsedGame) -> Result<AnyGame, LoadError> {
    let engine = parsed.0.interpreter(InterpOptions::default()).map_err(|e| LoadError::Py(open_error(e)))?;
    Ok(AnyGame::new(engine))
}

/// Builds (or finds in the compile cache) the compiled reasoner library of the game file at
/// `path` and returns the library's path, for `load_library`. The cache is `rbg`'s
/// (`$RBG_CACHE_DIR`, else `~/.cache/rbg`; see docs/compile-cache.md); cargo is `$CARGO` or on
/// the PATH, and its output is kept for the error. The GIL is released while cargo runs.
#[pyfunction]
pub fn _build_library(py: Python<'_>, path: PathBuf) -> PyResult<PathBuf> {
    let ParsedGame(game) = parse_source(&path, read(&path)?)?;
    let settings = BuildSettings::default();
    let built = py.allow_threads(|| build_engine(&game, &CompileOptions::default(), &settings));
    built
        .map(|built| built.library)
        .map_err(|error| open_error(OpenError::Build { path: path.clone(), error }))
}

/// The Python exception of an error of [`rbg::open`] (see the module docs).
fn open_error(error: OpenError) -> PyErr {
    match &error {
        OpenError::Io { path, raw_os_error: Some(errno), message, .. } => {
            PyOSError::new_err((*errno, strerror(message).to_string(), path.display().to_string()))
        }
        OpenError::Io { .. } => PyOSError::new_err(error.to_string()),
        OpenError::Invalid { source, .. } => {
            let place = error.first_error_place().map(|(_, line, column)| (line, column));
            parse_error(error.to_string(), &source.name, place)
        }
        OpenError::WrongLanguage { .. } | OpenError::Engine { .. } => ParseError::new_err(error.to_string()),
        OpenError::Build { .. } => PyRuntimeError::new_err(error.to_string()),
    }
}

/// `ParseError(text)` with its `path`, `line` and `column` attributes.
fn parse_error(text: String, path: &str, place: Option<(u32, u32)>) -> PyErr {
    let error = ParseError::new_err(text);
    Python::with_gil(|py| {
        let value = error.value(py);
        let (line, column) = place.unzip();
        value.setattr("path", path)?;
        value.setattr("line", line)?;
        value.setattr("column", column)
    })
    .err()
    .unwrap_or(error)
}

/// The operating system's text of an I/O error, without Rust's ` (os error N)`.
fn strerror(message: &str) -> &str {
    message.rfind(" (os error ").map_or(message, |end| &message[..end])
}

/// Issues each warning as a [`ParseWarning`]; an error if a warnings filter makes it one.
fn warn_all(source: &SourceFile, warnings: &[Diagnostic]) -> PyResult<()> {
    if warnings.is_empty() {
        return Ok(());
    }
    Python::with_gil(|py| {
        let category = py.get_type::<ParseWarning>();
        for warning in warnings {
            let text = warning_text(source, warning).replace('\0', "\\0");
            let text = CString::new(text).unwrap_or_default();
            PyErr::warn(py, &category, &text, 1)?;
        }
        Ok(())
    })
}

/// `file:line:col: warning: message` (`file: warning: message` without a place).
fn warning_text(source: &SourceFile, warning: &Diagnostic) -> String {
    let place = match warning.span {
        Some(span) => {
            let (line, col) = source.line_col(span.start);
            format!("{}:{line}:{col}", source.name)
        }
        None => source.name.clone(),
    };
    format!("{place}: warning: {}", warning.message)
}
