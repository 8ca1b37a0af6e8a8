//! Semantic classes of the written tokens, for editors that colour by meaning.

use rbg_parser::source::Span;
use rbg_parser::token::TokenKind;

use crate::symbols::SymbolKind;
use crate::Analysis;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    Keyword,
    Symbol(SymbolKind),
    /// An identifier that names nothing declared.
    Unresolved,
    Number,
    String,
    Operator,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub span: Span,
    pub class: TokenClass,
    /// The place where the symbol is defined.
    pub definition: bool,
}

impl Analysis {
    /// One class per written token, in file order.
    pub fn highlights(&self) -> Vec<Highlight> {
        if let Some(sbg) = self.sbg_file() {
            return sbg.highlights(&self.symbols);
        }
        self.tokens
            .iter()
            .map(|token| {
                let (class, definition) = match &token.kind {
                    TokenKind::Keyword(_) => (TokenClass::Keyword, false),
                    TokenKind::Number(_) => (TokenClass::Number, false),
                    TokenKind::Str(_) => (TokenClass::String, false),
                    TokenKind::Sym(_) => (TokenClass::Operator, false),
                    TokenKind::Ident(_) => match self.written_reference(token.span) {
                        Some((kind, definition)) => (TokenClass::Symbol(kind), definition),
                        None => (TokenClass::Unresolved, false),
                    },
                };
                Highlight { span: token.span, class, definition }
            })
            .collect()
    }

    fn written_reference(&self, span: Span) -> Option<(SymbolKind, bool)> {
        let reference = self.symbols.reference_at(span.start).filter(|r| r.span == span && !r.pasted)?;
        Some((self.symbols.symbols[reference.symbol].kind, reference.definition))
    }
}
