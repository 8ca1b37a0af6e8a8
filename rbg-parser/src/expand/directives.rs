//! File layout (spec section 3): the file is `#` directive `#` directive …, each directive being
//! a section (`keyword = body`) or a macro definition (`name [(p1; …; pk)] = body`).
//!
//! Directives are read strictly in file order, as the reference does, so warnings come out in
//! file order and the first malformed directive stops everything. Each directive gets the next
//! context order (0, 1, 2, …), which later decides macro visibility. Bodies are not looked at
//! here: they are remembered as token ranges and expanded later.

use std::ops::Range;
use std::rc::Rc;

use super::macros::{MacroBank, MacroDef};
use super::SectionKind;
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::token::{Sym, Token, TokenKind};

/// The raw body of one section directive.
#[derive(Clone, Debug, Default)]
pub(super) struct SectionSource {
    /// Indices of the body's tokens in the file's token list.
    pub body: Range<usize>,
    /// The directive's context order.
    pub order: u32,
    /// An empty span just after the section's last raw token (after `=` when the body is empty).
    pub end: Span,
}

/// Everything the directives of a file define.
#[derive(Debug)]
pub(super) struct FileDirectives {
    sections: [SectionSource; 5],
    pub macros: MacroBank,
}

impl FileDirectives {
    pub fn section(&self, kind: SectionKind) -> &SectionSource {
        &self.sections[kind.index()]
    }
}

/// Reads all directives of a file (section 3), with the reference's errors and warnings.
pub(super) fn read_directives(
    tokens: &[Token],
    warnings: &mut Vec<Diagnostic>,
) -> Result<FileDirectives, Diagnostic> {
    let first = tokens.first().ok_or_else(|| Diagnostic::error("No tokens in file", None))?;
    if !first.is_sym(Sym::Hash) {
        let message = format!("Expected '#' token at beginning of file, encountered '{}'", first.kind);
        return Err(Diagnostic::error(message, Some(first.span)));
    }
    let mut reader = DirectiveReader {
        tokens,
        warnings,
        sections: Default::default(),
        macros: MacroBank::default(),
        order: 0,
    };
    // A lone trailing `#` ends the loop without starting a directive.
    let mut head = 1;
    while head < tokens.len() {
        head = reader.read_directive(head)?;
        reader.order += 1;
    }
    let DirectiveReader { sections, macros, .. } = reader;
    let mut present: [SectionSource; 5] = Default::default();
    for kind in SectionKind::ALL {
        match &sections[kind.index()] {
            Some(section) => present[kind.index()] = section.clone(),
            None => return Err(Diagnostic::error(format!("No '{}' directive", kind.name()), None)),
        }
    }
    Ok(FileDirectives { sections: present, macros })
}

struct DirectiveReader<'t, 'w> {
    tokens: &'t [Token],
    warnings: &'w mut Vec<Diagnostic>,
    sections: [Option<SectionSource>; 5],
    macros: MacroBank,
    /// Context order of the directive being read.
    order: u32,
}

impl DirectiveReader<'_, '_> {
    /// Reads the directive whose first token (after `#`) is at `head`; returns the index just
    /// past the `#` that ends it (or the token count at the end of the file).
    fn read_directive(&mut self, head: usize) -> Result<usize, Diagnostic> {
        let token = self.token(head)?;
        match &token.kind {
            TokenKind::Keyword(keyword) => match SectionKind::of_keyword(*keyword) {
                Some(kind) => self.read_section(kind, head),
                None => Err(bad_directive_head(token)),
            },
            TokenKind::Ident(name) => self.read_macro(name.clone(), head),
            _ => Err(bad_directive_head(token)),
        }
    }

    fn read_section(&mut self, kind: SectionKind, keyword_at: usize) -> Result<usize, Diagnostic> {
        let name = kind.name();
        let keyword_span = self.token(keyword_at)?.span;
        if self.sections[kind.index()].is_some() {
            let message = format!("Another '{name}' declared; discarding previous");
            self.warnings.push(Diagnostic::warning(message, Some(keyword_span)));
        }
        let assign = self
            .tokens
            .get(keyword_at + 1)
            .ok_or_else(|| self.unexpected_end(&format!("Unexpected end of '{name}' segment")))?;
        if !assign.is_sym(Sym::Assign) {
            let message = format!("Expected '=' after '{name}' segment name, encountered '{}'", assign.kind);
            return Err(Diagnostic::error(message, Some(assign.span)));
        }
        let body = self.body_from(keyword_at + 2);
        // `#variables =` may be empty silently (no game needs variables).
        if body.is_empty() && kind != SectionKind::Variables {
            let message = format!("Empty '{name}' directive");
            self.warnings.push(Diagnostic::warning(message, Some(keyword_span)));
        }
        // The token before the body's end is the `=` when the body is empty.
        let last_span = self.tokens.get(body.end - 1).map_or(assign.span, |t| t.span);
        let end = Span::new(last_span.end, last_span.end);
        let next = body.end + 1;
        self.sections[kind.index()] = Some(SectionSource { body, order: self.order, end });
        Ok(next)
    }

    fn read_macro(&mut self, name: Rc<str>, name_at: usize) -> Result<usize, Diagnostic> {
        let name_span = self.token(name_at)?.span;
        let mut params = Vec::new();
        let mut at = name_at + 1;
        if self.token_or_end(at, "Unexpected end of macro definition")?.is_sym(Sym::LParen) {
            at = self.read_params(at + 1, &mut params)?;
        }
        let assign = self.token_or_end(at, "Unexpected end of macro definition")?;
        if !assign.is_sym(Sym::Assign) {
            let message = format!("Expected '=' token, encountered '{}'", assign.kind);
            return Err(Diagnostic::error(message, Some(assign.span)));
        }
        let body = self.body_from(at + 1);
        if body.is_empty() {
            let message = format!("Macro '{name}' doesn't have body");
            self.warnings.push(Diagnostic::warning(message, Some(name_span)));
        }
        let next = body.end + 1;
        let definition = MacroDef { params, body, order: self.order };
        self.macros.define(name, name_span, definition, self.warnings)?;
        Ok(next)
    }

    /// Reads `p1 ; p2 ; … )` starting just after `(`; returns the index after `)`.
    fn read_params(&self, mut at: usize, params: &mut Vec<Rc<str>>) -> Result<usize, Diagnostic> {
        const END: &str = "Unexpected end of macro arguments list";
        loop {
            let param = self.token_or_end(at, END)?;
            match param.kind.ident() {
                Some(name) => params.push(name.clone()),
                None => {
                    let message = format!("Expected identifier, encountered '{}'", param.kind);
                    return Err(Diagnostic::error(message, Some(param.span)));
                }
            }
            let separator = self.token_or_end(at + 1, END)?;
            if separator.is_sym(Sym::RParen) {
                return Ok(at + 2);
            }
            if !separator.is_sym(Sym::Semicolon) {
                // The reference's wording, typo and all.
                let message = format!("Expected ';' or '(' token, encounered '{}'", separator.kind);
                return Err(Diagnostic::error(message, Some(separator.span)));
            }
            at += 2;
        }
    }

    /// The body starting at `start`: every token up to the next `#` or the end of the file.
    fn body_from(&self, start: usize) -> Range<usize> {
        let start = start.min(self.tokens.len());
        let rest = self.tokens.get(start..).unwrap_or_default();
        let length = rest.iter().position(|t| t.is_sym(Sym::Hash)).unwrap_or(rest.len());
        start..start + length
    }

    fn token(&self, at: usize) -> Result<&Token, Diagnostic> {
        self.token_or_end(at, "Unexpected end of file")
    }

    fn token_or_end(&self, at: usize, end_message: &str) -> Result<&Token, Diagnostic> {
        self.tokens.get(at).ok_or_else(|| self.unexpected_end(end_message))
    }

    /// An "Unexpected end of …" error, placed just after the file's last token.
    fn unexpected_end(&self, message: &str) -> Diagnostic {
        let end = self.tokens.last().map_or(0, |t| t.span.end);
        Diagnostic::error(message, Some(Span::new(end, end)))
    }
}

fn bad_directive_head(token: &Token) -> Diagnostic {
    let message = format!(
        "Expected 'game', 'board', 'players', 'variables', 'pieces' or 'rules' token or identifier, \
         encountered '{}'",
        token.kind
    );
    Diagnostic::error(message, Some(token.span))
}
