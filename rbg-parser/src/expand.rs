//! Directives and macro expansion (spec sections 3 and 4).
//!
//! Two stages:
//!
//! 1. `directives` splits the file's tokens at every `#` into directives, numbers them with
//!    their *context order*, records the body of each of the five sections (the last occurrence
//!    wins) and registers macro definitions in a `macros::MacroBank`. All file-level errors
//!    and warnings of section 3 and of macro definitions come from here, in file order.
//! 2. `expander` expands each section's body into the token stream its parser reads. It is an
//!    explicit-stack machine (no Rust recursion, so arbitrarily deep macro nesting cannot overflow
//!    the stack) that follows the reference algorithm of section 4.8, with `~` pasting done in
//!    `paste` and argument lists split with boundaries precomputed once per file by
//!    `arguments`. Every produced token records its expansion trail in [`Trails`].
//!
//! The reference parser expands lazily while each section parser pulls tokens, so an expansion
//! error is only reported if the parser reads that far. We expand eagerly and keep the error in
//! [`SectionTokens::error`] next to the tokens produced before it; the section parser reports it
//! only when it reads past the last token.
//!
//! Expansion can grow exponentially (`#a = x x` `#b = a a` …) although it always terminates. A
//! work budget per section ([`MAX_EXPANSION_STEPS`]) turns such inputs into a clean error instead
//! of exhausting time or memory.

mod arguments;
mod directives;
mod expander;
mod macros;
mod paste;

use crate::diag::Diagnostic;
use crate::token::{SectionTokens, Token, Trails};

pub use expander::MAX_EXPANSION_STEPS;

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

impl Expanded {
    /// The expanded tokens of one section.
    pub fn section(&self, kind: SectionKind) -> &SectionTokens {
        match kind {
            SectionKind::Board => &self.board,
            SectionKind::Players => &self.players,
            SectionKind::Variables => &self.variables,
            SectionKind::Pieces => &self.pieces,
            SectionKind::Rules => &self.rules,
        }
    }
}

/// The five section directives, in the order in which missing ones are reported.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SectionKind {
    Board,
    Players,
    Variables,
    Pieces,
    Rules,
}

impl SectionKind {
    /// The section a keyword after `#` opens (`#board` ...); `None` for the board generators'
    /// keywords.
    pub fn of_keyword(keyword: crate::token::Keyword) -> Option<SectionKind> {
        use crate::token::Keyword;
        match keyword {
            Keyword::Board => Some(SectionKind::Board),
            Keyword::Players => Some(SectionKind::Players),
            Keyword::Variables => Some(SectionKind::Variables),
            Keyword::Pieces => Some(SectionKind::Pieces),
            Keyword::Rules => Some(SectionKind::Rules),
            Keyword::Hexagon | Keyword::Cuboid | Keyword::Rectangle => None,
        }
    }

    pub const ALL: [SectionKind; 5] = [
        SectionKind::Board,
        SectionKind::Players,
        SectionKind::Variables,
        SectionKind::Pieces,
        SectionKind::Rules,
    ];

    /// The section's keyword, as used in diagnostics ("No 'board' directive").
    pub fn name(self) -> &'static str {
        match self {
            SectionKind::Board => "board",
            SectionKind::Players => "players",
            SectionKind::Variables => "variables",
            SectionKind::Pieces => "pieces",
            SectionKind::Rules => "rules",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Splits the file's tokens into directives, registers macros and expands the five sections.
/// Directive-level warnings are appended to `warnings`; the first error is returned.
///
/// Errors met while expanding a section do not make this function fail: they are kept in that
/// section's [`SectionTokens::error`] (see the module documentation).
pub fn expand(tokens: Vec<Token>, warnings: &mut Vec<Diagnostic>) -> Result<Expanded, Diagnostic> {
    let file = directives::read_directives(&tokens, warnings)?;
    let bounds = arguments::ArgumentBounds::new(&tokens);
    let mut trails = Trails::default();
    let mut expand_section = |kind: SectionKind| {
        expander::expand_section(&file, &tokens, &bounds, &mut trails, file.section(kind))
    };
    let board = expand_section(SectionKind::Board);
    let players = expand_section(SectionKind::Players);
    let variables = expand_section(SectionKind::Variables);
    let pieces = expand_section(SectionKind::Pieces);
    let rules = expand_section(SectionKind::Rules);
    Ok(Expanded { board, players, variables, pieces, rules, trails })
}
