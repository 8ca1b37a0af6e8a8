//! The parser's diagnostics for an editor: the macro-expansion trail as related places, and
//! quick fixes.
//!
//! Quick fixes: the parser's own suggestion ([`rbg_parser::diag::Fix`]: `|` to `+`); a name
//! that is not declared replaced by the nearest declared name of the kind the place expects
//! (by edit distance); a missing closing bracket inserted where the parser expected it.

use rbg_parser::diag::{Diagnostic, TrailFrame};
use rbg_parser::source::Span;
use rbg_parser::token::{Sym, TokenKind};

use crate::symbols::SymbolKind;
use crate::{Analysis, TextEdit};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// Another place that explains a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub span: Span,
    pub message: String,
}

/// An edit that resolves a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickFix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdeDiagnostic {
    pub severity: Severity,
    /// The parser's message followed by its notes.
    pub message: String,
    /// Where (an empty span at the start for file-level problems).
    pub span: Span,
    /// Labels, then the expansion trail from the innermost macro call outwards.
    pub related: Vec<Related>,
    pub fixes: Vec<QuickFix>,
}

impl Analysis {
    /// The file's diagnostics with related places and quick fixes.
    pub fn diagnostics(&self) -> Vec<IdeDiagnostic> {
        self.diagnostics.iter().map(|d| self.ide_diagnostic(d)).collect()
    }

    fn ide_diagnostic(&self, d: &Diagnostic) -> IdeDiagnostic {
        let mut message = d.message.clone();
        for note in &d.notes {
            message.push_str("\nnote: ");
            message.push_str(note);
        }
        let mut related: Vec<Related> =
            d.labels.iter().map(|l| Related { span: l.span, message: l.message.clone() }).collect();
        related
            .extend(d.trail.iter().map(|frame| Related { span: frame.span(), message: trail_text(frame) }));
        IdeDiagnostic {
            severity: if d.is_error() { Severity::Error } else { Severity::Warning },
            message,
            span: d.span.unwrap_or_default(),
            related,
            fixes: self.fixes(d),
        }
    }

    fn fixes(&self, d: &Diagnostic) -> Vec<QuickFix> {
        let mut fixes = Vec::new();
        if let Some(fix) = &d.fix {
            let title = format!("Replace with `{}`", fix.replacement);
            fixes.push(QuickFix {
                title,
                edits: vec![TextEdit { span: fix.span, text: fix.replacement.clone() }],
            });
        }
        fixes.extend(self.nearest_name_fix(d));
        fixes.extend(self.missing_closer_fix(d));
        fixes
    }

    /// "Identifier 'x' not declared" and its kin: replace by the nearest declared name.
    fn nearest_name_fix(&self, d: &Diagnostic) -> Option<QuickFix> {
        let (name, kinds) = undeclared_name(&d.message)?;
        let span = d.span?;
        if self.source.bytes.get(span.start as usize..span.end as usize)? != name.as_bytes() {
            return None; // The name is not written there (pasted): nothing to replace.
        }
        let candidates = self.symbols.symbols.iter().filter(|s| kinds.contains(&s.kind));
        let (best, distance) = candidates
            .map(|s| (s.name.as_str(), strsim::levenshtein(name, &s.name)))
            .min_by_key(|&(candidate, distance)| (distance, candidate))?;
        if distance == 0 || distance > (name.len() / 3).max(2) {
            return None;
        }
        let title = format!("Change to `{best}`");
        Some(QuickFix { title, edits: vec![TextEdit { span, text: best.to_string() }] })
    }

    /// "Expected ']', encountered …" (or `)`, `}`): insert the bracket after the last token
    /// before the place of the error.
    fn missing_closer_fix(&self, d: &Diagnostic) -> Option<QuickFix> {
        let closer = [("Expected ']'", "]"), ("Expected ')'", ")"), ("Expected corresponding '}'", "}")]
            .into_iter()
            .find(|(start, _)| d.message.starts_with(start))
            .map(|(_, closer)| closer)
            .or_else(|| self.unclosed_at_end(d))?;
        let span = d.span?;
        let before = self.tokens.iter().take_while(|t| t.span.end <= span.start).last()?;
        let at = Span::new(before.span.end, before.span.end);
        Some(QuickFix {
            title: format!("Insert `{closer}`"),
            edits: vec![TextEdit { span: at, text: closer.into() }],
        })
    }

    /// For "Unexpected end of input…": the innermost bracket left open in the directive.
    fn unclosed_at_end(&self, d: &Diagnostic) -> Option<&'static str> {
        if !d.message.starts_with("Unexpected end of input") {
            return None;
        }
        let (_, directive) = self.directive_at(d.span?.start.saturating_sub(1))?;
        let mut open = Vec::new();
        for token in &self.tokens[directive.body.clone()] {
            let TokenKind::Sym(sym) = token.kind else { continue };
            match sym {
                Sym::LParen => open.push(")"),
                Sym::LBracket | Sym::LBracketDollar => open.push("]"),
                Sym::LBrace | Sym::LBraceDollar | Sym::LBraceQuestion | Sym::LBraceBang => open.push("}"),
                Sym::RParen | Sym::RBracket | Sym::RBrace => {
                    open.pop();
                }
                _ => {}
            }
        }
        open.pop()
    }
}

fn trail_text(frame: &TrailFrame) -> String {
    match frame {
        TrailFrame::Macro { name, .. } => format!("in the expansion of macro '{name}' called here"),
        TrailFrame::Argument { param, .. } => format!("in the argument for parameter '{param}' written here"),
    }
}

/// The name of an "not declared" message and the kinds of names the place accepts.
fn undeclared_name(message: &str) -> Option<(&str, &'static [SymbolKind])> {
    const ANY: &[SymbolKind] =
        &[SymbolKind::Piece, SymbolKind::Variable, SymbolKind::Player, SymbolKind::Label];
    const PIECE: &[SymbolKind] = &[SymbolKind::Piece];
    const PLAYER: &[SymbolKind] = &[SymbolKind::Player];
    let quoted = |prefix: &str, suffix: &str| message.strip_prefix(prefix)?.strip_suffix(suffix);
    if let Some(name) = quoted("Identifier '", "' not declared") {
        return Some((name, ANY));
    }
    if let Some(name) = quoted("Piece '", "' was not declared") {
        return Some((name, PIECE));
    }
    if let Some(name) = quoted("Identifier '", "' was not declared in respective segment") {
        return Some((name, PIECE));
    }
    if let Some(name) = quoted("Player ", " was not declared") {
        return Some((name, PLAYER));
    }
    None
}
