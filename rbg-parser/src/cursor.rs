//! A read position in one expanded section, shared by the section parsers.
//!
//! The reference parser expands macros lazily while a section parser pulls tokens, so an
//! expansion error is only reported if the parser asks for a token past the last one that was
//! produced before the error. [`crate::token::SectionTokens`] keeps such an error aside; this
//! cursor reproduces the lazy behaviour by returning it from [`Cursor::peek`] exactly when a
//! parser looks past the last token. Every "Unexpected end of input" error goes through the same
//! path, so a deferred expansion error always wins over it.
//!
//! The cursor also builds diagnostics that carry the offending token's span and macro trail.

use crate::diag::Diagnostic;
use crate::token::{SectionTokens, Sym, Token, TokenKind, Trails};

/// An error located at `token`, with the token's macro trail.
pub(crate) fn error_at(trails: &Trails, token: &Token, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(message, Some(token.span)).with_trail(trails.frames(token.trail))
}

pub(crate) struct Cursor<'a> {
    section: &'a SectionTokens,
    trails: &'a Trails,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(section: &'a SectionTokens, trails: &'a Trails) -> Self {
        Cursor { section, trails, pos: 0 }
    }

    /// The next token, `None` at the end of the section, or the section's deferred expansion
    /// error if the parser looks past the last token of a section whose expansion failed.
    pub(crate) fn peek(&self) -> Result<Option<&'a Token>, Diagnostic> {
        match self.section.tokens.get(self.pos) {
            Some(token) => Ok(Some(token)),
            None => match &self.section.error {
                Some(error) => Err(error.clone()),
                None => Ok(None),
            },
        }
    }

    /// The next token; at the end of input the error "Unexpected end of input while parsing
    /// `context`" (or the deferred expansion error).
    pub(crate) fn peek_required(&self, context: &str) -> Result<&'a Token, Diagnostic> {
        self.peek()?.ok_or_else(|| self.end_of_input(context))
    }

    /// Whether the next token is this symbol (`false` at the end of input).
    pub(crate) fn peek_is(&self, sym: Sym) -> Result<bool, Diagnostic> {
        Ok(self.peek()?.is_some_and(|t| t.is_sym(sym)))
    }

    /// The token after the next one, if the section has it (no deferred error is raised: the
    /// caller only uses it to choose between two readings of the next token).
    pub(crate) fn peek_second(&self) -> Option<&'a Token> {
        self.section.tokens.get(self.pos + 1)
    }

    pub(crate) fn advance(&mut self) {
        self.pos += 1;
    }

    /// Consumes the symbol `sym` or fails with "Expected 'sym', encountered 'x'".
    pub(crate) fn expect_sym(&mut self, sym: Sym, context: &str) -> Result<&'a Token, Diagnostic> {
        let token = self.peek_required(context)?;
        if !token.is_sym(sym) {
            return Err(self.encountered(&format!("Expected '{}'", sym.as_str()), token));
        }
        self.advance();
        Ok(token)
    }

    /// Consumes an identifier or fails with "`what`, encountered 'x'".
    pub(crate) fn expect_ident(&mut self, what: &str, context: &str) -> Result<&'a Token, Diagnostic> {
        let token = self.peek_required(context)?;
        if !matches!(token.kind, TokenKind::Ident(_)) {
            return Err(self.encountered(what, token));
        }
        self.advance();
        Ok(token)
    }

    /// An error located at `token`, with the token's macro trail.
    pub(crate) fn error_at(&self, token: &Token, message: impl Into<String>) -> Diagnostic {
        error_at(self.trails, token, message)
    }

    /// A warning located at `token`, with the token's macro trail.
    pub(crate) fn warning_at(&self, token: &Token, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(message, Some(token.span)).with_trail(self.trails.frames(token.trail))
    }

    /// "`expected`, encountered 'x'" located at `token`.
    pub(crate) fn encountered(&self, expected: &str, token: &Token) -> Diagnostic {
        self.error_at(token, format!("{expected}, encountered '{}'", token.kind))
    }

    /// "Unexpected end of input while parsing `context`" at the end of the section.
    pub(crate) fn end_of_input(&self, context: &str) -> Diagnostic {
        Diagnostic::error(format!("Unexpected end of input while parsing {context}"), Some(self.section.end))
    }

    /// The warning "Unexpected tokens at the end of `what`" if tokens remain (looking for them
    /// may also surface the deferred expansion error, as reading on would in the reference).
    pub(crate) fn warn_if_trailing(
        &self,
        what: &str,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<(), Diagnostic> {
        if let Some(token) = self.peek()? {
            warnings.push(self.warning_at(token, format!("Unexpected tokens at the end of {what}")));
        }
        Ok(())
    }
}
