//! Renaming a symbol everywhere it is written, macro bodies and arguments included.
//!
//! Refused when the result would not mean the same game: the new name is not an identifier,
//! or names something already, or the old name is also made by pasting somewhere (`c~King`
//! with `c = white`): that place does not spell the name, so it cannot be renamed there.

use rbg_parser::source::Span;
use rbg_parser::token::Keyword;

use crate::symbols::SymbolKind;
use crate::{Analysis, Language, TextEdit};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameError {
    pub message: String,
}

impl Analysis {
    /// The span of the name a rename at `offset` would change.
    pub fn rename_target(&self, offset: u32) -> Option<Span> {
        if self.language() == Language::Sbg {
            return None;
        }
        let (_, reference) = self.symbol_at(offset)?;
        (!reference.pasted).then_some(reference.span)
    }

    /// The edits renaming the symbol under `offset` to `new_name`.
    pub fn rename(&self, offset: u32, new_name: &str) -> Result<Vec<TextEdit>, RenameError> {
        let refuse = |message: String| Err(RenameError { message });
        if self.language() == Language::Sbg {
            return refuse("renaming is for RBG files (an SBG piece is a letter: change it by hand)".into());
        }
        let Some((symbol, _)) = self.symbol_at(offset) else {
            return refuse("there is no symbol here to rename".into());
        };
        let is_identifier = new_name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && new_name.bytes().all(|b| b.is_ascii_alphanumeric());
        if !is_identifier || Keyword::from_word(new_name).is_some() {
            return refuse(format!("`{new_name}` is not an identifier (a letter, then letters and digits)"));
        }
        let taken = self.symbols.named(new_name).iter().any(|&id| {
            let other = &self.symbols.symbols[id];
            other.kind != SymbolKind::Parameter || other.directive == symbol.directive
        });
        if taken && new_name != symbol.name {
            return refuse(format!("`{new_name}` already names something in this file"));
        }
        let id = self.symbols.reference_at(offset).map(|r| r.symbol);
        let references: Vec<_> = id.map(|id| self.symbols.references_of(id).collect()).unwrap_or_default();
        if let Some(pasted) = references.iter().find(|r| r.pasted) {
            let (line, column) = self.source.line_col(pasted.span.start);
            return refuse(format!(
                "`{}` is also made by pasting with `~` at {line}:{column}; rename it there by hand",
                symbol.name
            ));
        }
        let mut edits: Vec<TextEdit> =
            references.iter().map(|r| TextEdit { span: r.span, text: new_name.to_string() }).collect();
        edits.sort_by_key(|e| e.span.start);
        edits.dedup();
        Ok(edits)
    }
}
