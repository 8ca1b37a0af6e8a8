//! Reading a game file (RBG, or Simplified Boardgames translated to RBG) into an engine.
//!
//! Files are read by [`rbg_sbg::file`], as by every front end; diagnostics become one text,
//! each error as `file:line:col: error: message` followed by its notes, the form editors and
//! tests match on.

use std::path::Path;

use rbg_core::dynamic::AnyGame;
use rbg_interp::{InterpOptions, Interpreter};
use rbg_parser::diag::Diagnostic;
use rbg_parser::ir;

/// Why a game could not be loaded, and which Python exception says so.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read (an `OSError`).
    Io(String),
    /// The description has errors (their rendered text) or the engine rejected it.
    Invalid(String),
}

/// A parsed game: its name (the file stem) and intermediate representation.
pub struct ParsedGame {
    pub name: String,
    pub game: ir::Game,
}

/// Reads and parses the game at `path`, RBG or SBG.
pub fn parse_path(path: &Path) -> Result<ParsedGame, LoadError> {
    let bytes =
        std::fs::read(path).map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))?;
    let parsed = rbg_sbg::file::parse_file(path, bytes);
    match parsed.game {
        Some(game) if !parsed.diagnostics.iter().any(Diagnostic::is_error) => {
            Ok(ParsedGame { name: game_name(path), game })
        }
        _ => Err(LoadError::Invalid(rbg_sbg::file::errors_text(&parsed.source, &parsed.diagnostics))),
    }
}

/// Builds the interpreter for a parsed game.
pub fn interpreter(parsed: &ParsedGame) -> Result<AnyGame, LoadError> {
    let engine = Interpreter::new(&parsed.game, &parsed.name, InterpOptions::default())
        .map_err(|e| LoadError::Invalid(format!("{}: {e}", parsed.name)))?;
    Ok(AnyGame::new(engine))
}

/// The game's name: the file name without extension.
fn game_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into())
}
