//! Completion: the names that can be written at the cursor.
//!
//! After `#` the section keywords; elsewhere the declared pieces, variables, players and labels,
//! the macros (with their parameters as placeholders) and the parameters of the macro being
//! written. Names the place is most likely to want come first: pieces after `{` or `[`,
//! players after `->`.

use rbg_parser::expand::SectionKind;

use crate::symbols::SymbolKind;
use crate::Analysis;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Symbol(SymbolKind),
    Keyword,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: String,
    /// The text to insert: the label, or for a macro with parameters a snippet with
    /// `${n:param}` placeholders (`snippet` is then true).
    pub insert: String,
    pub snippet: bool,
    /// Sort key: smaller first.
    pub rank: u8,
}

impl Analysis {
    /// Completions at byte `offset`, for the word being typed there.
    pub fn completions(&self, offset: u32) -> Vec<Completion> {
        if let Some(sbg) = self.sbg_file() {
            return sbg.completions(offset, &self.symbols);
        }
        let text = &self.source.bytes;
        let offset = (offset as usize).min(text.len());
        let word_start =
            (0..offset).rev().take_while(|&i| text[i].is_ascii_alphanumeric()).last().unwrap_or(offset);
        let prefix = String::from_utf8_lossy(&text[word_start..offset]).to_ascii_lowercase();
        let before = text[..word_start].iter().rev().find(|b| !b.is_ascii_whitespace()).copied();
        let mut out = if text[..word_start].ends_with(b"#") {
            section_keywords()
        } else {
            self.name_completions(
                word_start as u32,
                before,
                text[..word_start].trim_ascii_end().ends_with(b"->"),
            )
        };
        out.retain(|c| c.label.to_ascii_lowercase().starts_with(&prefix));
        out.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
        out
    }

    fn name_completions(&self, at: u32, before: Option<u8>, after_arrow: bool) -> Vec<Completion> {
        let mut out = Vec::new();
        let enclosing = self.directive_at(at).map(|(n, _)| n);
        for symbol in &self.symbols.symbols {
            if symbol.kind == SymbolKind::Parameter && symbol.directive != enclosing {
                continue;
            }
            let preferred = match symbol.kind {
                SymbolKind::Piece => matches!(before, Some(b'{' | b'[' | b',')),
                SymbolKind::Player => after_arrow,
                SymbolKind::Parameter => true,
                _ => false,
            };
            let (insert, snippet) = match symbol.kind {
                SymbolKind::Macro if !symbol.params.is_empty() => {
                    let holes: Vec<String> = symbol
                        .params
                        .iter()
                        .enumerate()
                        .map(|(i, p)| format!("${{{}:{p}}}", i + 1))
                        .collect();
                    (format!("{}({})", symbol.name, holes.join("; ")), true)
                }
                _ => (symbol.name.clone(), false),
            };
            let detail = match symbol.kind {
                SymbolKind::Macro if !symbol.params.is_empty() => {
                    format!("macro {}({})", symbol.name, symbol.params.join("; "))
                }
                kind => kind.noun().to_string(),
            };
            let rank = if preferred { 0 } else { 1 };
            out.push(Completion {
                label: symbol.name.clone(),
                kind: CompletionKind::Symbol(symbol.kind),
                detail,
                insert,
                snippet,
                rank,
            });
        }
        out
    }
}

fn section_keywords() -> Vec<Completion> {
    SectionKind::ALL
        .into_iter()
        .map(|kind| Completion {
            label: kind.name().to_string(),
            kind: CompletionKind::Keyword,
            detail: "section".into(),
            insert: format!("{} = ", kind.name()),
            snippet: false,
            rank: 0,
        })
        .collect()
}
