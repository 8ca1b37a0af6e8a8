//! rbg-parser: reads RBG game descriptions exactly as the reference parser does.
//!
//! Pipeline (language reference, section 1): [`lexer`] (bytes → tokens, grammar in `rbg.pest`)
//! → [`expand`] (directives, macro expansion) → [`build`] (declarations, board, rules, typing,
//! lowering, action indices, straightness) → the game IR ([`ir::Game`]) and the printed
//! low-level form ([`print`](mod@print)).
//!
//! Other input languages build games by writing RBG text with [`generate::RbgWriter`], which
//! remembers where each stretch of the text came from, so the ordinary parser's diagnostics can
//! be reported at the original source.
//!
//! Errors and warnings are data ([`diag::Diagnostic`]) with spans and macro-expansion trails; the
//! library never prints and never panics on any input. Input that is clearly not text is one
//! error ([`lexer::not_text`]), and at most [`diag::MAX_WARNINGS_OF_A_KIND`] warnings of a kind
//! are kept, then one summary, so junk input gives a short report in linear time.

#![forbid(unsafe_code)]

mod board;
pub mod build;
mod cursor;
mod decl;
pub mod diag;
pub mod expand;
pub mod generate;
pub mod ir;
pub mod lexer;
pub mod print;
mod rules;
pub mod source;
pub mod straightness;
#[cfg(test)]
mod test_support;
pub mod token;

use diag::Diagnostic;
use source::SourceFile;

/// The result of reading one file: the game if there was no error, and every diagnostic
/// (warnings in the order met, then the error if any).
#[derive(Debug)]
pub struct ParseOutput {
    pub source: SourceFile,
    pub game: Option<ir::Game>,
    pub diagnostics: Vec<Diagnostic>,
}

impl ParseOutput {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Reads a game description. `name` is used in diagnostics (usually the file path).
pub fn parse(name: &str, bytes: &[u8]) -> ParseOutput {
    parse_detailed(name, bytes).output
}

/// [`parse`] together with what the stages in between produced, for tools that look inside a
/// file (editors: symbols, references, macro expansions).
#[derive(Debug)]
pub struct DetailedParse {
    pub output: ParseOutput,
    /// The file's tokens as lexed (empty if lexing failed).
    pub tokens: Vec<token::Token>,
    /// The expanded sections, if the directives could be read.
    pub expanded: Option<expand::Expanded>,
}

/// Reads a game description as [`parse`] does and keeps the tokens and the expanded sections.
pub fn parse_detailed(name: &str, bytes: &[u8]) -> DetailedParse {
    let source = SourceFile::new(name, bytes);
    let mut diagnostics = Vec::new();
    let mut stages = Stages::default();
    let game = parse_into(&source, &mut diagnostics, &mut stages).map_err(|e| diagnostics.push(e)).ok();
    let diagnostics = diag::WarningLimit::apply(diagnostics);
    let output = ParseOutput { source, game, diagnostics };
    DetailedParse { output, tokens: stages.tokens, expanded: stages.expanded }
}

/// What [`parse_into`] got as far as.
#[derive(Default)]
struct Stages {
    tokens: Vec<token::Token>,
    expanded: Option<expand::Expanded>,
}

fn parse_into(
    source: &SourceFile,
    diagnostics: &mut Vec<Diagnostic>,
    stages: &mut Stages,
) -> Result<ir::Game, Diagnostic> {
    let lexed = lexer::lex(&source.bytes)?;
    diagnostics.extend(lexed.warnings);
    stages.tokens = lexed.tokens;
    let expanded = stages.expanded.insert(expand::expand(stages.tokens.clone(), diagnostics)?);
    build::build_game(expanded, diagnostics)
}
