//! Test-only helpers: read macro-free game text into sections without the macro expander, so
//! the section parsers can be tested on their own. Not a directive parser: it only splits the
//! lexed tokens at `#` and expects `# keyword = body` for each of the five sections.

use crate::build::build_game;
use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::ir::Game;
use crate::lexer::lex;
use crate::source::{SourceFile, Span};
use crate::token::{Keyword, SectionTokens, Sym, TokenKind};

/// Splits macro-free text into its five sections. Panics on text that is not of that form
/// (a test bug, not a case under test).
pub(crate) fn sections(text: &str) -> Expanded {
    let tokens = lex(text.as_bytes()).expect("test input lexes").tokens;
    let mut expanded = Expanded::default();
    let mut starts: Vec<usize> =
        tokens.iter().enumerate().filter(|(_, t)| t.is_sym(Sym::Hash)).map(|(i, _)| i).collect();
    starts.push(tokens.len());
    for pair in starts.windows(2) {
        let (hash, next) = (pair[0], pair[1]);
        let TokenKind::Keyword(keyword) = tokens[hash + 1].kind else {
            panic!("test input: section keyword expected")
        };
        assert!(tokens[hash + 2].is_sym(Sym::Assign), "test input: '=' expected");
        let body = tokens[hash + 3..next].to_vec();
        let last = body.last().map_or(tokens[hash + 2].span, |t| t.span);
        let section = SectionTokens { tokens: body, error: None, end: Span::new(last.end, last.end) };
        match keyword {
            Keyword::Board => expanded.board = section,
            Keyword::Players => expanded.players = section,
            Keyword::Pieces => expanded.pieces = section,
            Keyword::Variables => expanded.variables = section,
            Keyword::Rules => expanded.rules = section,
            other => panic!("test input: unexpected keyword {other:?}"),
        }
    }
    expanded
}

/// The result of building a macro-free game: the game or the error, plus the warnings.
pub(crate) struct Built {
    pub source: SourceFile,
    pub result: Result<Game, Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

impl Built {
    pub(crate) fn game(&self) -> &Game {
        match &self.result {
            Ok(game) => game,
            Err(e) => panic!("unexpected error: {}", e.reference_text(&self.source)),
        }
    }

    /// The error as `(message, line, column)`.
    pub(crate) fn error(&self) -> (String, u32, u32) {
        match &self.result {
            Ok(_) => panic!("expected an error"),
            Err(e) => located(&self.source, e),
        }
    }

    /// The warnings as `(message, line, column)`.
    pub(crate) fn warnings(&self) -> Vec<(String, u32, u32)> {
        self.warnings.iter().map(|w| located(&self.source, w)).collect()
    }
}

fn located(source: &SourceFile, d: &Diagnostic) -> (String, u32, u32) {
    let (line, col) = d.span.map_or((0, 0), |s| source.line_col(s.start));
    (d.message.clone(), line, col)
}

/// Builds a macro-free game.
pub(crate) fn build(text: &str) -> Built {
    let expanded = sections(text);
    let mut warnings = Vec::new();
    let result = build_game(&expanded, &mut warnings);
    Built { source: SourceFile::new("test.rbg", text.as_bytes()), result, warnings }
}

/// 1-based (line, column) of the `nth` (0-based) occurrence of `needle` in `text`: where a
/// diagnostic about that token must point.
pub(crate) fn pos(text: &str, needle: &str, nth: usize) -> (u32, u32) {
    let offset =
        text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle occurs in the test input");
    SourceFile::new("t", text.as_bytes()).line_col(offset as u32)
}

/// `(message, line, column)` expected for the `nth` occurrence of `needle` in `text`.
pub(crate) fn at(message: &str, text: &str, needle: &str, nth: usize) -> (String, u32, u32) {
    let (line, col) = pos(text, needle, nth);
    (message.to_string(), line, col)
}

/// `(message, line, column)` expected at the end of the last token of `text` (where
/// "Unexpected end of input" errors of the last section point).
pub(crate) fn at_end(message: &str, text: &str) -> (String, u32, u32) {
    let end = text.trim_end().len();
    let (line, col) = SourceFile::new("t", text.as_bytes()).line_col(end as u32);
    (message.to_string(), line, col)
}
