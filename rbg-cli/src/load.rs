//! Reading and parsing a game file, reporting diagnostics.

use std::path::Path;

use rbg_parser::ir;

use crate::diagnostics::{emit, Format};
use crate::Failure;

/// A parsed game and its name (the file stem).
pub struct Loaded {
    pub name: String,
    pub game: ir::Game,
}

/// Reads and parses `path`; diagnostics go to stderr. Warnings are shown unless `quiet`.
pub fn load(path: &Path, format: Format, quiet: bool) -> Result<Loaded, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let output = rbg_parser::parse(&path.display().to_string(), &bytes);
    let shown: Vec<_> = output.diagnostics.iter().filter(|d| d.is_error() || !quiet).cloned().collect();
    emit(&output.source, &shown, format);
    match output.game {
        Some(game) => Ok(Loaded { name: game_name(path), game }),
        None => Err(Failure::silent()),
    }
}

/// The game's name: the file name without extension.
pub fn game_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into())
}
