//! Hover: what the name under the cursor is, what a macro call expands to there, and the
//! lowered form of the rule around the cursor.
//!
//! A macro call's expansion is read from the parser's expansion: the tokens whose trail passes
//! through that call (the first time it is expanded). The lowered form is the parser's: the
//! innermost parenthesised part of the rules (or of a macro without parameters) around the
//! cursor is read as the whole rules of a copy of the file, and the copy's low-level rules are
//! shown.

use std::collections::HashMap;

use rbg_parser::diag::TrailFrame;
use rbg_parser::expand::SectionKind;
use rbg_parser::source::Span;
use rbg_parser::token::{Sym, TokenKind, TrailId};

use crate::format::join_tokens;
use crate::outline::DirectiveKind;
use crate::symbols::{Reference, Symbol, SymbolKind};
use crate::Analysis;

/// Most characters of one code block of a hover.
const MAX_BLOCK: usize = 3000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// What the hover is about.
    pub span: Span,
    /// Markdown.
    pub text: String,
}

impl Analysis {
    pub fn hover(&self, offset: u32) -> Option<Hover> {
        let mut parts = Vec::new();
        let mut span = None;
        if let Some(sbg) = self.sbg_file() {
            let (symbol, reference) = self.symbol_at(offset)?;
            return Some(Hover {
                span: reference.span,
                text: sbg.describe_piece(&self.source.bytes, symbol),
            });
        }
        if let Some((symbol, reference)) = self.symbol_at(offset) {
            parts.push(self.describe(symbol, reference));
            span = Some(reference.span);
        }
        if let Some(lowered) = self.lowered_rule(offset) {
            let title = match lowered.call {
                Some(call) => {
                    let (line, column) = self.source.line_col(call.start);
                    format!("Lowered, as expanded at the call on line {line}, column {column}:")
                }
                None => "Lowered:".to_string(),
            };
            parts.push(format!("{title}\n{}", code_block(&lowered.text)));
            span.get_or_insert(lowered.span);
        }
        Some(Hover { span: span?, text: parts.join("\n\n---\n\n") })
    }

    fn describe(&self, symbol: &Symbol, reference: &Reference) -> String {
        let name = &symbol.name;
        let mut text = match symbol.kind {
            SymbolKind::Macro => {
                let signature = match symbol.params.len() {
                    0 => format!("#{name}"),
                    _ => format!("#{name}({})", symbol.params.join("; ")),
                };
                let mut text = code_block(&signature);
                if reference.definition {
                    text.push_str(&self.macro_body(symbol).map(|b| code_block(&b)).unwrap_or_default());
                } else if let Some(expansion) = self.expansion_at(reference.span) {
                    text.push_str(&format!("Expands here to:\n{}", code_block(&expansion)));
                }
                text
            }
            SymbolKind::Parameter => {
                let owner =
                    symbol.directive.and_then(|d| self.directives.get(d)).and_then(|d| d.macro_name());
                format!("parameter `{name}` of macro `{}`", owner.unwrap_or("?"))
            }
            SymbolKind::Player => self.describe_player(symbol),
            SymbolKind::Variable => {
                format!("variable `{name}`, from 0 to {}", symbol.bound.map_or("?".into(), |b| b.to_string()))
            }
            SymbolKind::Piece => self.describe_piece(name),
            SymbolKind::Label => self.describe_label(name),
        };
        if reference.pasted {
            text.push_str("\n\n(this name is made by pasting with `~`)");
        }
        text
    }

    fn describe_player(&self, symbol: &Symbol) -> String {
        let bound = symbol.bound.map_or("?".into(), |b| b.to_string());
        let mut text = format!("player `{}`, score from 0 to {bound}", symbol.name);
        if let Some(game) = &self.game {
            if let Some(i) = game.players.iter().position(|p| p.name == symbol.name) {
                text.push_str(&format!(" (player number {} of {})", i + 1, game.players.len()));
            }
        }
        text
    }

    fn describe_piece(&self, name: &str) -> String {
        let mut text = format!("piece `{name}`");
        if let Some(game) = &self.game {
            if let Some(id) = game.pieces.iter().position(|p| p == name) {
                let count = game.board.vertices.iter().filter(|v| v.piece as usize == id).count();
                text.push_str(&format!(
                    ", on {count} of the {} vertices at the start",
                    game.board.vertices.len()
                ));
            }
        }
        text
    }

    fn describe_label(&self, name: &str) -> String {
        let mut text = format!("edge label `{name}`");
        if let Some(game) = &self.game {
            if let Some(id) = game.board.labels.iter().position(|l| l == name) {
                let edges = game
                    .board
                    .vertices
                    .iter()
                    .filter(|v| v.edges.iter().any(|e| e.label as usize == id))
                    .count();
                text.push_str(&format!(", leaving {edges} of the {} vertices", game.board.vertices.len()));
            } else if let Some((_, labels)) =
                game.board.geometry.iter().flat_map(|g| &g.relations).find(|(word, _)| word == name)
            {
                let names: Vec<&str> = labels
                    .iter()
                    .filter_map(|&l| game.board.labels.get(l as usize))
                    .map(String::as_str)
                    .collect();
                text = format!("relation `{name}`: any of {}", names.join(", "));
            }
        }
        text
    }

    /// A macro definition's body as written.
    fn macro_body(&self, symbol: &Symbol) -> Option<String> {
        let directive = self.directives.get(symbol.directive?)?;
        let first = self.tokens.get(directive.body.start)?;
        let last = self.tokens.get(directive.body.end.checked_sub(1)?)?;
        Some(self.source.snippet(first.span.to(last.span)))
    }

    /// The tokens the macro call at `call` produces, the first time it is expanded.
    pub fn expansion_at(&self, call: Span) -> Option<String> {
        let expanded = self.expanded()?;
        let mut through: HashMap<TrailId, bool> = HashMap::new();
        for kind in SectionKind::ALL {
            let tokens = &expanded.section(kind).tokens;
            let mut inside = |trail: TrailId| {
                *through.entry(trail).or_insert_with(|| {
                    expanded
                        .trails
                        .frames(trail)
                        .iter()
                        .any(|f| matches!(f, TrailFrame::Macro { call: c, .. } if *c == call))
                })
            };
            let Some(start) = tokens.iter().position(|t| inside(t.trail)) else { continue };
            let run = tokens[start..].iter().take_while(|t| inside(t.trail)).map(|t| &t.kind);
            return Some(join_tokens(run));
        }
        None
    }

    /// The lowered form of the innermost parenthesised part around `offset` of the rules or
    /// of a macro without parameters; in a macro with parameters, of its whole body as
    /// expanded at its first call.
    pub fn lowered_rule(&self, offset: u32) -> Option<LoweredRule> {
        let (n, directive) = self.directive_at(offset)?;
        let body = &self.tokens[directive.body.clone()];
        if body.is_empty() || offset < body[0].span.start {
            return None;
        }
        let whole = body[0].span.to(body[body.len() - 1].span);
        match &directive.kind {
            DirectiveKind::Section(SectionKind::Rules) => {}
            DirectiveKind::Macro { params, .. } if params.is_empty() => {}
            DirectiveKind::Macro { .. } => return self.lowered_at_first_call(n, whole),
            _ => return None,
        }
        let span = innermost_group(body, offset).unwrap_or(whole);
        let fragment = self.source.snippet(span);
        let text = match self.lower_as_rules(&fragment)? {
            Ok(lowered) => lowered,
            Err(error) => format!("(not a rule on its own: {error})"),
        };
        Some(LoweredRule { span, text, call: None })
    }

    /// A parameterised macro's body lowered as its first call expands it (only if that is a rule).
    fn lowered_at_first_call(&self, directive: usize, whole: Span) -> Option<LoweredRule> {
        let symbol = self
            .symbols
            .symbols
            .iter()
            .position(|s| s.kind == SymbolKind::Macro && s.directive == Some(directive))?;
        let call = self.symbols.references_of(symbol).find(|r| !r.definition && !r.pasted)?.span;
        let expansion = self.expansion_at(call)?;
        let text = self.lower_as_rules(&expansion)?.ok()?;
        Some(LoweredRule { span: whole, text, call: Some(call) })
    }

    /// `fragment` read as the whole rules of a copy of the file: its printed low-level rules,
    /// or the error that stops it. `None` if the file has no rules section to replace.
    fn lower_as_rules(&self, fragment: &str) -> Option<Result<String, String>> {
        let rules = self.directives.iter().rev().find(|d| d.section() == Some(SectionKind::Rules))?;
        let text = self.text();
        let (start, end) = if rules.body.is_empty() {
            let at = self.tokens.get(rules.body.start.checked_sub(1)?)?.span.end as usize;
            (at, at)
        } else {
            let last = self.tokens.get(rules.body.end - 1)?;
            (self.tokens.get(rules.body.start)?.span.start as usize, last.span.end as usize)
        };
        let copy = format!("{} {fragment} {}", text.get(..start)?, text.get(end..)?);
        let out = rbg_parser::parse(&self.source.name, copy.as_bytes());
        Some(match &out.game {
            Some(game) => {
                let printed = rbg_parser::print::print_game(game);
                Ok(printed
                    .split_once("#rules = \n")
                    .map_or(printed.clone(), |(_, r)| r.trim_end().to_string()))
            }
            None => {
                let error = out.diagnostics.iter().find(|d| d.is_error()).map(|d| d.message.clone());
                Err(error.unwrap_or_else(|| "?".into()))
            }
        })
    }
}

/// The low-level form of a part of the rules (what `rbg lower` prints for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoweredRule {
    /// The part lowered.
    pub span: Span,
    pub text: String,
    /// For a macro with parameters: the call whose expansion was lowered.
    pub call: Option<Span>,
}

/// The span of the innermost `( … )` of `body` containing `offset` (brackets included).
fn innermost_group(body: &[rbg_parser::token::Token], offset: u32) -> Option<Span> {
    let mut open: Vec<Span> = Vec::new();
    let mut best: Option<Span> = None;
    for token in body {
        match token.kind {
            TokenKind::Sym(Sym::LParen) => open.push(token.span),
            TokenKind::Sym(Sym::RParen) => {
                if let Some(start) = open.pop() {
                    let group = start.to(token.span);
                    let inside = group.start <= offset && offset <= group.end;
                    if inside && best.is_none_or(|b| group.end - group.start < b.end - b.start) {
                        best = Some(group);
                    }
                }
            }
            _ => {}
        }
    }
    best
}

pub(crate) fn code_block(text: &str) -> String {
    let clipped = rbg_parser::diag::clip_text(text, MAX_BLOCK);
    format!("```rbg\n{clipped}\n```\n")
}
