//! Directives and macro expansion (spec sections 3 and 4). STUB: to be implemented.

use crate::diag::Diagnostic;
use crate::token::{SectionTokens, Token, Trails};

/// The five sections after macro expansion.
#[derive(Debug, Default)]
pub struct Expanded {
    pub board: SectionTokens,
    pub players: SectionTokens,
    pub variables: SectionTokens,
    pub pieces: SectionTokens,
    pub rules: SectionTokens,
    /// The expansion frames that the tokens' [`crate::token::TrailId`]s point into.
    pub trails: Trails,
}

/// Splits the file's tokens into directives, registers macros and expands the five sections.
/// Directive-level warnings are appended to `warnings`; the first error is returned.
pub fn expand(tokens: Vec<Token>, warnings: &mut Vec<Diagnostic>) -> Result<Expanded, Diagnostic> {
    let _ = (tokens, warnings);
    Err(Diagnostic::error("macro expansion is not implemented yet", None))
}
