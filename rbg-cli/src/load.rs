//! Reading and parsing a game file, reporting diagnostics on the terminal.
//!
//! A game file is RBG or Simplified Boardgames (SBG), read by [`rbg_sbg::file`]: an SBG game
//! through its RBG translation, so every command that runs RBG runs it; diagnostics, also those
//! of the translation, point at the SBG source.

use std::path::Path;

use rbg_parser::ir;

use crate::diagnostics::{emit, Format};
use crate::Failure;

/// A parsed game and its name (the file stem).
pub struct Loaded {
    pub name: String,
    pub game: ir::Game,
    /// The RBG text the game was read from: the file itself, or the translation of an SBG file
    /// (what a compiled engine is keyed by and what the game manager sends to its clients).
    pub rbg_text: Vec<u8>,
}

pub use rbg_sbg::file::{language, parse_file, Language};

/// Reads and parses `path`; diagnostics go to stderr. Warnings are shown unless `quiet`.
pub fn load(path: &Path, format: Format, quiet: bool) -> Result<Loaded, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let parsed = parse_file(path, bytes);
    let shown: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error() || !quiet).cloned().collect();
    emit(&parsed.source, &shown, format);
    match parsed.game {
        Some(game) => Ok(Loaded { name: game_name(path), game, rbg_text: parsed.rbg_text }),
        None => Err(Failure::silent()),
    }
}

/// The game's name: the file name without extension.
pub fn game_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into())
}
