//! Tokens of RBG (spec section 2) and expanded section token streams.

use std::fmt;
use std::rc::Rc;

use crate::diag::Diagnostic;
use crate::source::Span;

/// The eight keywords. A keyword is never an identifier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Keyword {
    Players,
    Pieces,
    Variables,
    Rules,
    Board,
    Hexagon,
    Cuboid,
    Rectangle,
}

impl Keyword {
    pub const ALL: [Keyword; 8] = [
        Keyword::Players,
        Keyword::Pieces,
        Keyword::Variables,
        Keyword::Rules,
        Keyword::Board,
        Keyword::Hexagon,
        Keyword::Cuboid,
        Keyword::Rectangle,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Players => "players",
            Keyword::Pieces => "pieces",
            Keyword::Variables => "variables",
            Keyword::Rules => "rules",
            Keyword::Board => "board",
            Keyword::Hexagon => "hexagon",
            Keyword::Cuboid => "cuboid",
            Keyword::Rectangle => "rectangle",
        }
    }

    pub fn from_word(word: &str) -> Option<Keyword> {
        Keyword::ALL.into_iter().find(|k| k.as_str() == word)
    }
}

/// The 34 symbols. Multi-character symbols are single tokens.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sym {
    Hash,
    Assign,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    /// `[$`
    LBracketDollar,
    /// `{$`
    LBraceDollar,
    /// `{?`
    LBraceQuestion,
    /// `{!`
    LBraceBang,
    /// `->`
    Arrow,
    /// `->>`
    DoubleArrow,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Dot,
    Comma,
    Semicolon,
    Colon,
    Tilde,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Bang,
    Question,
    Dollar,
    /// `+>`
    PlusArrow,
}

impl Sym {
    pub const ALL: [Sym; 34] = [
        Sym::Hash,
        Sym::Assign,
        Sym::LParen,
        Sym::RParen,
        Sym::LBracket,
        Sym::RBracket,
        Sym::LBrace,
        Sym::RBrace,
        Sym::LBracketDollar,
        Sym::LBraceDollar,
        Sym::LBraceQuestion,
        Sym::LBraceBang,
        Sym::Arrow,
        Sym::DoubleArrow,
        Sym::Plus,
        Sym::Minus,
        Sym::Star,
        Sym::Slash,
        Sym::Caret,
        Sym::Dot,
        Sym::Comma,
        Sym::Semicolon,
        Sym::Colon,
        Sym::Tilde,
        Sym::Eq,
        Sym::Ne,
        Sym::Lt,
        Sym::Le,
        Sym::Gt,
        Sym::Ge,
        Sym::Bang,
        Sym::Question,
        Sym::Dollar,
        Sym::PlusArrow,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Sym::Hash => "#",
            Sym::Assign => "=",
            Sym::LParen => "(",
            Sym::RParen => ")",
            Sym::LBracket => "[",
            Sym::RBracket => "]",
            Sym::LBrace => "{",
            Sym::RBrace => "}",
            Sym::LBracketDollar => "[$",
            Sym::LBraceDollar => "{$",
            Sym::LBraceQuestion => "{?",
            Sym::LBraceBang => "{!",
            Sym::Arrow => "->",
            Sym::DoubleArrow => "->>",
            Sym::Plus => "+",
            Sym::Minus => "-",
            Sym::Star => "*",
            Sym::Slash => "/",
            Sym::Caret => "^",
            Sym::Dot => ".",
            Sym::Comma => ",",
            Sym::Semicolon => ";",
            Sym::Colon => ":",
            Sym::Tilde => "~",
            Sym::Eq => "==",
            Sym::Ne => "!=",
            Sym::Lt => "<",
            Sym::Le => "<=",
            Sym::Gt => ">",
            Sym::Ge => ">=",
            Sym::Bang => "!",
            Sym::Question => "?",
            Sym::Dollar => "$",
            Sym::PlusArrow => "+>",
        }
    }

    pub fn from_spelling(text: &str) -> Option<Sym> {
        Sym::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Ident(Rc<str>),
    Keyword(Keyword),
    /// An unsigned decimal number (leading zeros dropped).
    Number(u32),
    /// A string literal (contents without the quotes); it has no grammatical role.
    Str(Rc<str>),
    Sym(Sym),
}

impl TokenKind {
    pub fn is_sym(&self, s: Sym) -> bool {
        matches!(self, TokenKind::Sym(x) if *x == s)
    }

    pub fn ident(&self) -> Option<&Rc<str>> {
        match self {
            TokenKind::Ident(name) => Some(name),
            _ => None,
        }
    }
}

/// The spelling used in messages such as "encountered 'x'".
impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenKind::Ident(name) => f.write_str(name),
            TokenKind::Keyword(k) => f.write_str(k.as_str()),
            TokenKind::Number(n) => write!(f, "{n}"),
            TokenKind::Str(s) => write!(f, "\"{s}\""),
            TokenKind::Sym(s) => f.write_str(s.as_str()),
        }
    }
}

/// Index of a macro-expansion frame in a [`Trails`] arena; [`TrailId::ROOT`] means "written
/// directly in the section, not produced by any expansion".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct TrailId(pub u32);

impl TrailId {
    pub const ROOT: TrailId = TrailId(0);
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokenKind,
    /// Where the token was written (for a pasted token: where its left part was written).
    pub span: Span,
    /// The expansion frame the token was produced in.
    pub trail: TrailId,
}

impl Token {
    pub fn is_sym(&self, s: Sym) -> bool {
        self.kind.is_sym(s)
    }
}

/// The fully expanded tokens of one section, as the section's parser will read them.
///
/// Expansion is eager, but it reproduces the reference's lazy expansion: if expanding failed
/// after producing `tokens`, the error is kept in `error` and must be reported only if the parser
/// reads past the last token (a parser that stops early never sees it, as in the reference).
#[derive(Clone, Debug, Default)]
pub struct SectionTokens {
    pub tokens: Vec<Token>,
    pub error: Option<Diagnostic>,
    /// Span used for "Unexpected end of …" errors: the end of the section's text.
    pub end: Span,
}

/// Arena of macro-expansion frames; each token's [`TrailId`] points into it.
#[derive(Clone, Debug)]
pub struct Trails {
    nodes: Vec<(TrailId, Option<crate::diag::TrailFrame>)>,
}

impl Default for Trails {
    fn default() -> Self {
        Trails { nodes: vec![(TrailId::ROOT, None)] }
    }
}

impl Trails {
    /// A new frame inside `parent`.
    pub fn push(&mut self, parent: TrailId, frame: crate::diag::TrailFrame) -> TrailId {
        self.nodes.push((parent, Some(frame)));
        TrailId(self.nodes.len() as u32 - 1)
    }

    /// The frames of `id`, innermost first.
    pub fn frames(&self, mut id: TrailId) -> Vec<crate::diag::TrailFrame> {
        let mut out = Vec::new();
        while let Some((parent, Some(frame))) = self.nodes.get(id.0 as usize) {
            out.push(frame.clone());
            id = *parent;
        }
        out
    }
}
