//! Simplified Boardgames files in the editor: the piece types as symbols, their hover, the
//! outline, completion of piece letters and the semantic classes of the tokens.
//!
//! A piece type is one symbol, named by its uppercase letter: the white (`K`) and black (`k`)
//! letters on the board, the letter a movement rule starts with and the letters of the goals
//! all refer to it (a rule applies to both colours). Its definition is the letter of its rule,
//! or, for a type without a rule, its first place on the board. Everything is read from the
//! tolerant tokens of [`lex`], so a file being typed still has its symbols; the hover adds
//! the natural-language description of a rule (rbg-nld) when the file is a valid game.

pub mod format;
pub mod lex;

use rbg_parser::source::Span;
use rbg_sbg::SbgGame;

use self::lex::{Kind, Lexed, Role, Section, Token};
use crate::complete::{Completion, CompletionKind};
use crate::highlight::{Highlight, TokenClass};
use crate::hover::code_block;
use crate::outline::{OutlineItem, OutlineKind};
use crate::symbols::{Reference, Symbol, SymbolIndex, SymbolKind};

/// Most characters of a rule shown as an outline entry's detail.
const MAX_DETAIL: usize = 60;

/// What an SBG file adds to its analysis.
pub(crate) struct SbgFile {
    pub lexed: Lexed,
    /// The game, if the file is valid.
    pub game: Option<SbgGame>,
}

impl SbgFile {
    pub fn new(name: &str, text: &[u8]) -> SbgFile {
        SbgFile { lexed: lex::lex(text), game: rbg_sbg::parse(name, text).ok() }
    }

    /// One symbol per piece type and a reference for every piece letter.
    pub fn symbols(&self) -> SymbolIndex {
        let mut index = SymbolIndex::default();
        let pieces: Vec<&Token> = self.lexed.tokens.iter().filter(|t| t.is_piece()).collect();
        let mut kinds: Vec<u8> = pieces.iter().filter_map(|t| t.piece_kind()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        for kind in kinds {
            let of_kind = || pieces.iter().filter(move |t| t.piece_kind() == Some(kind));
            let definition = of_kind()
                .find(|t| t.role == Role::RuleLetter)
                .or_else(|| of_kind().find(|t| t.role == Role::Cell))
                .map(|t| t.span);
            let symbol = index.add(Symbol {
                kind: SymbolKind::Piece,
                name: char::from(kind).to_string(),
                definition,
                directive: None,
                params: Vec::new(),
                bound: None,
            });
            for token in of_kind() {
                let definition = Some(token.span) == definition;
                index.references.push(Reference { symbol, span: token.span, definition, pasted: false });
            }
        }
        index.references.sort_by_key(|r| r.span.start);
        index
    }

    pub fn highlights(&self, symbols: &SymbolIndex) -> Vec<Highlight> {
        self.lexed
            .tokens
            .iter()
            .map(|token| {
                let class = match (token.kind, token.role) {
                    (Kind::Tag(_), _) | (_, Role::On) => TokenClass::Keyword,
                    (Kind::Number, _) => TokenClass::Number,
                    (Kind::Name, _) => TokenClass::String,
                    (_, Role::Cell | Role::RuleLetter | Role::GoalPiece) => {
                        TokenClass::Symbol(SymbolKind::Piece)
                    }
                    (Kind::Letter(_), _) => TokenClass::Unresolved,
                    _ => TokenClass::Operator,
                };
                let definition = symbols
                    .reference_at(token.span.start)
                    .is_some_and(|r| r.definition && r.span == token.span);
                Highlight { span: token.span, class, definition }
            })
            .collect()
    }

    /// The text of a piece type's rule as written, from its letter to its `&`.
    fn rule_text(&self, text: &[u8], kind: u8) -> Option<(Span, String)> {
        let tokens = &self.lexed.tokens;
        let start = tokens.iter().position(|t| t.role == Role::RuleLetter && t.piece_kind() == Some(kind))?;
        let end = tokens[start + 1..]
            .iter()
            .position(|t| {
                t.kind == Kind::Punct(b'&') || matches!(t.kind, Kind::Tag(_)) || t.role == Role::RuleLetter
            })
            .map_or(tokens.len() - 1, |n| start + 1 + n);
        let last = if tokens[end].kind == Kind::Punct(b'&') { end } else { end.saturating_sub(1).max(start) };
        let span = tokens[start].span.to(tokens[last].span);
        let written = String::from_utf8_lossy(text.get(span.start as usize..span.end as usize)?).into_owned();
        Some((span, written))
    }

    /// How many white and black pieces of a type the board holds at the start.
    fn on_board(&self, kind: u8) -> (usize, usize) {
        let cells = self.lexed.tokens.iter().filter(|t| t.role == Role::Cell);
        cells.fold((0, 0), |(white, black), t| match t.kind {
            Kind::Letter(b) if b == kind => (white + 1, black),
            Kind::Letter(b) if b.to_ascii_uppercase() == kind => (white, black + 1),
            _ => (white, black),
        })
    }

    /// The hover of a piece type.
    pub fn describe_piece(&self, text: &[u8], symbol: &Symbol) -> String {
        let kind = symbol.name.as_bytes().first().copied().unwrap_or(b'?');
        let (white, black) = self.on_board(kind);
        let lower = char::from(kind.to_ascii_lowercase());
        let mut out = format!(
            "piece `{}` (white `{}`, black `{lower}`): on the board at the start {white} white, {black} black",
            symbol.name, symbol.name
        );
        match self.rule_text(text, kind) {
            Some((_, rule)) => {
                out.push_str("\n\nIts rule (black's moves are mirrored top to bottom):\n");
                out.push_str(&code_block(&rule));
            }
            None => out.push_str("\n\nNo movement rule: pieces of this type never move."),
        }
        if let Some(rule) = self.game.as_ref().and_then(|g| g.rule(kind)) {
            let (_, sentence, complexity) = rbg_nld::describe_rule(&rule.regex);
            out.push_str(&format!("\n{sentence}\n\n(NLD complexity {complexity:.2})"));
        }
        out
    }

    /// The header, the board, each piece type with its rule, and the goals.
    pub fn outline(&self, text: &[u8], symbols: &SymbolIndex) -> Vec<OutlineItem> {
        let tokens = &self.lexed.tokens;
        let mut out = Vec::new();
        if let Some(name) = tokens.iter().find(|t| t.kind == Kind::Name) {
            let written = String::from_utf8_lossy(&text[name.span.start as usize..name.span.end as usize]);
            out.push(item(format!("<<{}>>", written.trim()), String::new(), name.span, Vec::new()));
        }
        for section in [Section::Board, Section::Pieces, Section::Goals] {
            let Some(tag) = tokens.iter().position(|t| t.kind == Kind::Tag(section)) else { continue };
            let end = tokens[tag + 1..]
                .iter()
                .position(|t| matches!(t.kind, Kind::Tag(_)))
                .map_or(tokens.len(), |n| tag + 1 + n);
            let span = tokens[tag].span.to(tokens[end - 1].span);
            let (detail, children) = match section {
                Section::Board => {
                    let sizes: Vec<&str> = tokens[tag + 1..end]
                        .iter()
                        .take_while(|t| t.kind == Kind::Number)
                        .map(|t| {
                            std::str::from_utf8(&text[t.span.start as usize..t.span.end as usize])
                                .unwrap_or("?")
                        })
                        .collect();
                    (sizes.join(" × "), self.piece_items(text, symbols, false))
                }
                Section::Pieces => (String::new(), self.piece_items(text, symbols, true)),
                _ => {
                    let limit = tokens[tag + 1..end].iter().find(|t| t.role == Role::TurnLimit);
                    let limit = limit.map(|t| {
                        String::from_utf8_lossy(&text[t.span.start as usize..t.span.end as usize])
                            .into_owned()
                    });
                    (limit.map_or(String::new(), |l| format!("turn limit {l}")), Vec::new())
                }
            };
            let mut entry = item(section.tag().to_string(), detail, span, children);
            entry.name_span = tokens[tag].span;
            out.push(entry);
        }
        out
    }

    /// The piece types with a rule (`ruled`: each under the pieces section, its rule the
    /// detail) or without one (listed under the board, where they stand).
    fn piece_items(&self, text: &[u8], symbols: &SymbolIndex, ruled: bool) -> Vec<OutlineItem> {
        symbols
            .of_kind(SymbolKind::Piece)
            .filter_map(|(_, symbol)| {
                let kind = *symbol.name.as_bytes().first()?;
                let rule = self.rule_text(text, kind);
                if rule.is_some() != ruled {
                    return None;
                }
                let (span, detail) = match rule {
                    Some((span, rule)) => {
                        let moves =
                            rule.get(1..).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
                        (
                            span,
                            rbg_parser::diag::clip_text(moves.trim_end_matches('&').trim_end(), MAX_DETAIL)
                                .into_owned(),
                        )
                    }
                    None => (symbol.definition?, "no rule".to_string()),
                };
                let mut entry = item(symbol.name.clone(), detail, span, Vec::new());
                entry.kind = OutlineKind::Symbol(SymbolKind::Piece);
                entry.name_span =
                    symbol.definition.filter(|d| span.start <= d.start && d.end <= span.end).unwrap_or(span);
                Some(entry)
            })
            .collect()
    }

    /// Piece letters where one can be written: in a board row (either colour), at the start
    /// of a rule (white only: rules are written for white) and after `#` or `@` in a goal.
    pub fn completions(&self, offset: u32, symbols: &SymbolIndex) -> Vec<Completion> {
        let tokens = &self.lexed.tokens;
        let mut before = tokens.iter().rev().filter(|t| t.span.end <= offset);
        let mut previous = before.next();
        // A letter being typed at the cursor is replaced by the completion.
        if previous.is_some_and(|t| t.span.end == offset && matches!(t.kind, Kind::Letter(_))) {
            previous = before.next();
        }
        let Some(previous) = previous else { return Vec::new() };
        let (white, black) = match (previous.kind, previous.role) {
            (_, Role::RowOpen | Role::Cell | Role::EmptyCell | Role::GoalStart) => (true, true),
            (Kind::Tag(Section::Pieces), _) => (true, false),
            (Kind::Punct(b'&'), _) if previous.section == Section::Pieces => (true, false),
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        for (_, symbol) in symbols.of_kind(SymbolKind::Piece) {
            let upper = symbol.name.clone();
            let lower = upper.to_ascii_lowercase();
            for (wanted, label, side, rank) in [(white, upper, "white", 0), (black, lower, "black", 1)] {
                if wanted {
                    out.push(Completion {
                        detail: format!("{side} piece {}", symbol.name),
                        insert: label.clone(),
                        label,
                        kind: CompletionKind::Symbol(SymbolKind::Piece),
                        snippet: false,
                        rank,
                    });
                }
            }
        }
        out.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
        out
    }
}

fn item(name: String, detail: String, span: Span, children: Vec<OutlineItem>) -> OutlineItem {
    OutlineItem { name, detail, kind: OutlineKind::Section, span, name_span: span, children }
}
