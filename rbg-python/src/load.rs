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

/// Reads the game file at `path` (its bytes, for `parse_source`).
pub fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
    std::fs::read(path).map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))
}

/// Parses `text` as the game file at `path`, RBG or SBG: the path names the game and its
/// extension tells the languages apart, but the file itself is not read (an unpickled game
/// is rebuilt from the text it was loaded from, wherever the file is now).
pub fn parse_source(path: &Path, text: Vec<u8>) -> Result<ParsedGame, LoadError> {
    let parsed = rbg_sbg::file::parse_file(path, text);
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
