//! The directives of a file read from its raw tokens, tolerant of errors.
//!
//! The parser stops at the first malformed directive; an editor needs the layout of the whole
//! file while it is being typed. A directive is everything from one `#` to the next (spec
//! section 3): a section (`keyword = body`) or a macro definition (`name [(p1; …)] = body`).
//! Anything else between two `#` is kept as an unreadable directive, so positions inside it
//! still belong somewhere.

use std::ops::Range;

use rbg_parser::expand::SectionKind;
use rbg_parser::source::Span;
use rbg_parser::token::{Sym, Token, TokenKind};

/// What a directive defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveKind {
    Section(SectionKind),
    Macro {
        name: String,
        params: Vec<(String, Span)>,
    },
    /// Not readable as either (the parser reports why).
    Unreadable,
}

/// One directive of the file.
#[derive(Clone, Debug)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// The `#` token's index in the file's tokens.
    pub hash: usize,
    /// The section keyword's or macro name's span (the `#` for unreadable directives).
    pub name_span: Span,
    /// Indices of the body's tokens (after `=`; empty when there is no `=`).
    pub body: Range<usize>,
    /// From the `#` to the end of the last token.
    pub span: Span,
}

impl Directive {
    pub fn macro_name(&self) -> Option<&str> {
        match &self.kind {
            DirectiveKind::Macro { name, .. } => Some(name),
            _ => None,
        }
    }

    pub fn params(&self) -> &[(String, Span)] {
        match &self.kind {
            DirectiveKind::Macro { params, .. } => params,
            _ => &[],
        }
    }

    pub fn section(&self) -> Option<SectionKind> {
        match self.kind {
            DirectiveKind::Section(kind) => Some(kind),
            _ => None,
        }
    }
}

/// Splits the tokens at every `#` into directives.
pub fn directives(tokens: &[Token]) -> Vec<Directive> {
    let hashes: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i].is_sym(Sym::Hash)).collect();
    let mut out = Vec::with_capacity(hashes.len());
    for (n, &hash) in hashes.iter().enumerate() {
        let end = hashes.get(n + 1).copied().unwrap_or(tokens.len());
        out.push(read_directive(tokens, hash, end));
    }
    out
}

fn read_directive(tokens: &[Token], hash: usize, end: usize) -> Directive {
    let span = tokens[hash].span.to(tokens[end - 1].span);
    let unreadable = Directive {
        kind: DirectiveKind::Unreadable,
        hash,
        name_span: tokens[hash].span,
        body: end..end,
        span,
    };
    let Some(head) = tokens.get(hash + 1).filter(|_| hash + 1 < end) else { return unreadable };
    let (kind, after_head) = match &head.kind {
        TokenKind::Keyword(keyword) => match SectionKind::of_keyword(*keyword) {
            Some(section) => (DirectiveKind::Section(section), hash + 2),
            None => return unreadable,
        },
        TokenKind::Ident(name) => {
            let (params, after) = read_params(tokens, hash + 2, end);
            (DirectiveKind::Macro { name: name.to_string(), params }, after)
        }
        _ => return unreadable,
    };
    let body_start = match tokens.get(after_head) {
        Some(token) if after_head < end && token.is_sym(Sym::Assign) => after_head + 1,
        _ => end,
    };
    Directive { kind, hash, name_span: head.span, body: body_start..end, span }
}

/// The parameters `(p1; p2; …)` starting at `at`, if there is a `(`; and the index after them.
fn read_params(tokens: &[Token], at: usize, end: usize) -> (Vec<(String, Span)>, usize) {
    let mut params = Vec::new();
    if !tokens.get(at).is_some_and(|t| at < end && t.is_sym(Sym::LParen)) {
        return (params, at);
    }
    let mut i = at + 1;
    while i < end {
        let token = &tokens[i];
        match &token.kind {
            TokenKind::Ident(name) => params.push((name.to_string(), token.span)),
            TokenKind::Sym(Sym::RParen) => return (params, i + 1),
            TokenKind::Sym(Sym::Semicolon) => {}
            _ => return (params, i),
        }
        i += 1;
    }
    (params, i)
}

/// The number of arguments of a call whose `(` is token `open`, and the index after its `)`:
/// arguments are separated by `;` at the call's own bracket depth (spec 4.5). `None` if the
/// list is not closed before `end`.
pub fn call_arity(tokens: &[Token], open: usize, end: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut arity = 1;
    for (i, token) in tokens.iter().enumerate().take(end).skip(open) {
        match &token.kind {
            TokenKind::Sym(Sym::LParen) => depth += 1,
            TokenKind::Sym(Sym::RParen) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some((arity, i + 1));
                }
            }
            TokenKind::Sym(Sym::Semicolon) if depth == 1 => arity += 1,
            _ => {}
        }
    }
    None
}

/// One entry of a file's outline (for an editor's document symbols).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutlineItem {
    pub name: String,
    pub detail: String,
    pub kind: OutlineKind,
    /// The whole entry, and its name.
    pub span: Span,
    pub name_span: Span,
    pub children: Vec<OutlineItem>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OutlineKind {
    Section,
    Macro,
    Symbol(crate::symbols::SymbolKind),
}
