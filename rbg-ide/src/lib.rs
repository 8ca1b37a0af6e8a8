//! rbg-ide: what an editor needs to know about an RBG or SBG file, as plain data.
//!
//! An [`Analysis`] is made from a file's text (RBG, or SBG through [`sbg`]) and answers
//! questions by byte offset: its diagnostics (with the macro-expansion trail as related places
//! and quick fixes), its symbols and their references ([`symbols`]), hover text, completions,
//! renames, semantic classes of its tokens and its outline; [`format::format_as`] is
//! `rbg fmt`. Nothing here knows
//! the Language Server Protocol, JSON or terminals: `rbg-lsp` turns these answers into LSP
//! messages, the CLI into text.
//!
//! Everything comes from rbg-parser's own reading of the file ([`rbg_parser::parse_detailed`]:
//! the diagnostics, the tokens and the expanded sections with their trails), so the editor
//! sees exactly what `rbg check` sees. Re-analysis after an edit reads the whole file again:
//! the parser reads any corpus game in a few milliseconds (the `reanalysis` benchmark measures
//! it after a one-character edit), and answers that cost more (hover's lowered form, a macro's
//! expansion) are computed only when asked for.

#![forbid(unsafe_code)]

mod complete;
mod diagnostics;
pub mod format;
mod highlight;
mod hover;
pub mod outline;
mod rename;
pub mod sbg;
pub mod symbols;

use rbg_parser::diag::Diagnostic;
use rbg_parser::expand::Expanded;
use rbg_parser::ir;
use rbg_parser::source::{SourceFile, Span};
use rbg_parser::token::Token;

pub use complete::{Completion, CompletionKind};
pub use diagnostics::{IdeDiagnostic, QuickFix, Related, Severity};
pub use highlight::{Highlight, TokenClass};
pub use hover::{Hover, LoweredRule};
pub use outline::{Directive, DirectiveKind, OutlineItem, OutlineKind};
pub use rename::RenameError;
pub use symbols::{Reference, Symbol, SymbolId, SymbolIndex, SymbolKind};

/// The description language of a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Language {
    Rbg,
    Sbg,
}

impl Language {
    /// The language of a file by its name and contents (as `rbg check` decides it).
    pub fn of(name: &str, text: &str) -> Language {
        match rbg_sbg::file::language(std::path::Path::new(name), text.as_bytes()) {
            rbg_sbg::file::Language::Rbg => Language::Rbg,
            rbg_sbg::file::Language::Sbg => Language::Sbg,
        }
    }
}

/// A replacement of the bytes of `span` by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub span: Span,
    pub text: String,
}

/// One analysed file.
pub struct Analysis {
    language: Language,
    source: SourceFile,
    diagnostics: Vec<Diagnostic>,
    game: Option<ir::Game>,
    tokens: Vec<Token>,
    directives: Vec<Directive>,
    expanded: Option<Expanded>,
    symbols: SymbolIndex,
    /// The SBG view of an SBG file (its tokens and game).
    sbg: Option<sbg::SbgFile>,
}

impl Analysis {
    /// Reads `text` as a file called `name` (its extension or contents tell the language).
    pub fn new(name: &str, text: &str) -> Analysis {
        match Language::of(name, text) {
            Language::Rbg => Analysis::rbg(name, text),
            Language::Sbg => Analysis::sbg(name, text),
        }
    }

    fn rbg(name: &str, text: &str) -> Analysis {
        let parsed = rbg_parser::parse_detailed(name, text.as_bytes());
        let directives = outline::directives(&parsed.tokens);
        let output = parsed.output;
        let symbols = symbols::SymbolIndex::build(&symbols::Sources {
            text: text.as_bytes(),
            tokens: &parsed.tokens,
            directives: &directives,
            expanded: parsed.expanded.as_ref(),
            game: output.game.as_ref(),
        });
        Analysis {
            language: Language::Rbg,
            source: output.source,
            diagnostics: output.diagnostics,
            game: output.game,
            tokens: parsed.tokens,
            directives,
            expanded: parsed.expanded,
            symbols,
            sbg: None,
        }
    }

    /// An SBG file: its diagnostics (those of its RBG translation mapped back to it), and its
    /// piece types as symbols (see [`sbg`]).
    fn sbg(name: &str, text: &str) -> Analysis {
        let parsed = rbg_sbg::file::parse_file(std::path::Path::new(name), text.as_bytes().to_vec());
        let file = sbg::SbgFile::new(name, text.as_bytes());
        Analysis {
            language: Language::Sbg,
            source: parsed.source,
            diagnostics: parsed.diagnostics,
            game: parsed.game,
            tokens: Vec::new(),
            directives: Vec::new(),
            expanded: None,
            symbols: file.symbols(),
            sbg: Some(file),
        }
    }

    /// The file's text with this edit applied, analysed (offsets are clamped to the text and
    /// moved to character boundaries, so any edit is accepted).
    pub fn edited(&self, span: Span, replacement: &str) -> Analysis {
        let text = apply_edit(&self.text(), span, replacement);
        Analysis::new(&self.source.name, &text)
    }

    pub fn language(&self) -> Language {
        self.language
    }

    pub fn source(&self) -> &SourceFile {
        &self.source
    }

    /// The text (lossily decoded; an editor's text is always valid UTF-8).
    pub fn text(&self) -> String {
        self.source.text_lossy()
    }

    /// The game, if the file is valid.
    pub fn game(&self) -> Option<&ir::Game> {
        self.game.as_ref()
    }

    pub fn symbols(&self) -> &SymbolIndex {
        &self.symbols
    }

    pub fn directives(&self) -> &[Directive] {
        &self.directives
    }

    /// The parser's diagnostics as they are.
    pub fn parser_diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The symbol under `offset` and the reference there.
    pub fn symbol_at(&self, offset: u32) -> Option<(&Symbol, &Reference)> {
        let reference = self.symbols.reference_at(offset)?;
        Some((&self.symbols.symbols[reference.symbol], reference))
    }

    /// Where the symbol under `offset` is defined.
    pub fn definition(&self, offset: u32) -> Option<Span> {
        self.symbol_at(offset)?.0.definition
    }

    /// Every place naming the symbol under `offset` (its definition included).
    pub fn references(&self, offset: u32) -> Vec<Reference> {
        let Some(reference) = self.symbols.reference_at(offset) else { return Vec::new() };
        self.symbols.references_of(reference.symbol).cloned().collect()
    }

    /// The directive `offset` belongs to: the last one starting at or before it (a directive
    /// reaches to the next `#`, so the place after its last token, where one types, is in it).
    pub fn directive_at(&self, offset: u32) -> Option<(usize, &Directive)> {
        self.directives.iter().enumerate().rev().find(|(_, d)| d.span.start <= offset)
    }

    /// The directives, each section with the names it declares (SBG: the header, the board,
    /// the pieces with their rules and the goals).
    pub fn outline(&self) -> Vec<OutlineItem> {
        if let Some(sbg) = &self.sbg {
            return sbg.outline(&self.source.bytes, &self.symbols);
        }
        self.directives.iter().filter_map(|d| self.outline_item(d)).collect()
    }

    fn outline_item(&self, directive: &Directive) -> Option<OutlineItem> {
        let (name, detail, kind) = match &directive.kind {
            DirectiveKind::Section(section) => {
                (format!("#{}", section.name()), String::new(), OutlineKind::Section)
            }
            DirectiveKind::Macro { name, params } => {
                let params: Vec<&str> = params.iter().map(|(p, _)| p.as_str()).collect();
                let detail =
                    if params.is_empty() { String::new() } else { format!("({})", params.join("; ")) };
                (format!("#{name}"), detail, OutlineKind::Macro)
            }
            DirectiveKind::Unreadable => return None,
        };
        let inside = |span: Span| directive.span.start <= span.start && span.end <= directive.span.end;
        let children = match kind {
            OutlineKind::Section => self
                .symbols
                .symbols
                .iter()
                .filter(|s| !matches!(s.kind, SymbolKind::Macro | SymbolKind::Parameter))
                .filter_map(|s| {
                    let at = s.definition.filter(|&d| inside(d))?;
                    Some(OutlineItem {
                        name: s.name.clone(),
                        detail: s.kind.noun().to_string(),
                        kind: OutlineKind::Symbol(s.kind),
                        span: at,
                        name_span: at,
                        children: Vec::new(),
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        Some(OutlineItem {
            name,
            detail,
            kind,
            span: directive.span,
            name_span: directive.name_span,
            children,
        })
    }

    /// The formatted text (`rbg fmt`), in the file's language.
    pub fn format(&self) -> Result<String, format::FormatError> {
        format::format_as(self.language, &self.text())
    }

    pub(crate) fn sbg_file(&self) -> Option<&sbg::SbgFile> {
        self.sbg.as_ref()
    }

    pub(crate) fn expanded(&self) -> Option<&Expanded> {
        self.expanded.as_ref()
    }
}

/// `text` with the bytes of `span` replaced (the span clamped and moved to char boundaries).
pub fn apply_edit(text: &str, span: Span, replacement: &str) -> String {
    let clamp = |offset: u32| {
        let mut at = (offset as usize).min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let end = clamp(span.end);
    let start = clamp(span.start).min(end);
    let mut out = String::with_capacity(text.len() + replacement.len());
    out.push_str(&text[..start]);
    out.push_str(replacement);
    out.push_str(&text[end..]);
    out
}
