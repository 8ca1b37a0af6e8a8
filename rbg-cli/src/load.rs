//! Reading game files through [`rbg::open`], with diagnostics and errors shown on the terminal.
//!
//! A game file is RBG or Simplified Boardgames (SBG); an SBG game is read through its RBG
//! translation, so every command that runs RBG runs it; diagnostics, also those of the
//! translation, point at the SBG source.

use std::path::Path;

use rbg::open::{GameFile, OpenError};

use crate::compile::build_failure;
use crate::diagnostics::{emit, Format};
use crate::Failure;

pub use rbg_sbg::file::{language, parse_file, Language};

/// Reads and parses `path`; diagnostics go to stderr. Warnings are shown unless `quiet`.
pub fn load(path: &Path, format: Format, quiet: bool) -> Result<GameFile, Failure> {
    let game = rbg::read_game(path).map_err(|e| open_failure(e, format, quiet))?;
    if !quiet {
        emit(&game.source, &game.warnings, format);
    }
    Ok(game)
}

/// An error of [`rbg::open`] for the terminal: diagnostics rendered (warnings too unless
/// `quiet`) and a silent failure, or the message.
pub fn open_failure(error: OpenError, format: Format, quiet: bool) -> Failure {
    match error {
        OpenError::Invalid { source, diagnostics } => {
            let shown: Vec<_> = diagnostics.into_iter().filter(|d| d.is_error() || !quiet).collect();
            emit(&source, &shown, format);
            Failure::silent()
        }
        OpenError::WrongLanguage { path } => Failure::new(format!(
            "{}: --engine sbg runs Simplified Boardgames (.sbg) games only",
            path.display()
        )),
        OpenError::Build { path, error } => {
            let failure = build_failure(error);
            Failure::new(format!("{}: {}", path.display(), failure.message().unwrap_or_default()))
        }
        other => Failure::new(other.to_string()),
    }
}
