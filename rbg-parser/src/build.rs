//! From expanded sections to the game IR (spec sections 5-9, 12). STUB: to be implemented.

use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::ir::Game;

/// Parses the declarations, the board and the rules; types, lowers and indexes the rules.
/// Warnings are appended to `warnings`; the first error is returned.
pub fn build_game(expanded: &Expanded, warnings: &mut Vec<Diagnostic>) -> Result<Game, Diagnostic> {
    let _ = (expanded, warnings);
    Err(Diagnostic::error("sections are not implemented yet", None))
}
