//! Symbols of a file and every place that names them.
//!
//! Declared names (players, pieces, variables, board labels) are read from the expanded
//! sections, so names that macros produce are found too; macros and their parameters from the
//! directives. References come from two scans: every identifier written in the file (inside
//! macro bodies too, whether or not they are ever expanded) is resolved by name, as the
//! expander would resolve it (a parameter of the enclosing macro first, then a macro, then a
//! declared name); and every token of the expansion whose name was made by pasting (`color~King`)
//! is a *pasted* reference at the place its left part was written. Pasted references are shown
//! but never renamed: the name is not written there.

use std::collections::HashMap;

use rbg_parser::expand::{Expanded, SectionKind};
use rbg_parser::ir;
use rbg_parser::source::Span;
use rbg_parser::token::{Keyword, Sym, Token, TokenKind};

use crate::outline::{call_arity, Directive, DirectiveKind};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    Player,
    Piece,
    Variable,
    /// An edge label of the board (or a relation word of a `tiling` board).
    Label,
    Macro,
    /// A parameter of one macro definition.
    Parameter,
}

impl SymbolKind {
    pub fn noun(self) -> &'static str {
        match self {
            SymbolKind::Player => "player",
            SymbolKind::Piece => "piece",
            SymbolKind::Variable => "variable",
            SymbolKind::Label => "edge label",
            SymbolKind::Macro => "macro",
            SymbolKind::Parameter => "macro parameter",
        }
    }
}

/// Index of a symbol in [`SymbolIndex::symbols`].
pub type SymbolId = usize;

#[derive(Clone, Debug)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub name: String,
    /// Where the name is defined (its first declaration), if it is written in the file.
    pub definition: Option<Span>,
    /// The directive that defines it (macros) or whose body it belongs to (parameters).
    pub directive: Option<usize>,
    /// Parameter names of a macro.
    pub params: Vec<String>,
    /// The bound of a player's score or of a variable.
    pub bound: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub symbol: SymbolId,
    pub span: Span,
    /// This is where the symbol is defined.
    pub definition: bool,
    /// The name was made by pasting; `span` is where its left part is written.
    pub pasted: bool,
}

#[derive(Clone, Debug, Default)]
pub struct SymbolIndex {
    pub symbols: Vec<Symbol>,
    /// Sorted by start offset.
    pub references: Vec<Reference>,
    by_name: HashMap<String, Vec<SymbolId>>,
}

/// What the index is built from.
pub(crate) struct Sources<'a> {
    pub text: &'a [u8],
    pub tokens: &'a [Token],
    pub directives: &'a [Directive],
    pub expanded: Option<&'a Expanded>,
    pub game: Option<&'a ir::Game>,
}

impl SymbolIndex {
    pub(crate) fn build(sources: &Sources) -> SymbolIndex {
        let mut index = SymbolIndex::default();
        index.add_macros(sources.directives);
        index.add_declarations(sources);
        index.add_written_references(sources);
        index.add_pasted_references(sources);
        index.references.sort_by_key(|r| (r.span.start, r.pasted));
        index.references.dedup();
        index
    }

    /// The symbols of this name, macros first.
    pub fn named(&self, name: &str) -> &[SymbolId] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// The declared name (not a macro or parameter) called `name`.
    pub fn declared(&self, name: &str) -> Option<SymbolId> {
        self.named(name)
            .iter()
            .copied()
            .find(|&id| !matches!(self.symbols[id].kind, SymbolKind::Macro | SymbolKind::Parameter))
    }

    /// Every declared name of these kinds, in index order.
    pub fn of_kind(&self, kind: SymbolKind) -> impl Iterator<Item = (SymbolId, &Symbol)> {
        self.symbols.iter().enumerate().filter(move |(_, s)| s.kind == kind)
    }

    /// The reference under byte `offset` (touching either end), a written one before a pasted one.
    pub fn reference_at(&self, offset: u32) -> Option<&Reference> {
        let first = self.references.partition_point(|r| r.span.end < offset);
        self.references[first..]
            .iter()
            .take_while(|r| r.span.start <= offset)
            .filter(|r| r.span.end >= offset)
            .min_by_key(|r| (r.pasted, r.span.end - r.span.start))
    }

    pub fn references_of(&self, symbol: SymbolId) -> impl Iterator<Item = &Reference> {
        self.references.iter().filter(move |r| r.symbol == symbol)
    }

    pub(crate) fn add(&mut self, symbol: Symbol) -> SymbolId {
        let id = self.symbols.len();
        self.by_name.entry(symbol.name.clone()).or_default().push(id);
        self.symbols.push(symbol);
        id
    }

    fn add_macros(&mut self, directives: &[Directive]) {
        for (d, directive) in directives.iter().enumerate() {
            let DirectiveKind::Macro { name, params } = &directive.kind else { continue };
            let arity = params.len();
            let same = self.named(name).iter().any(|&id| self.symbols[id].params.len() == arity);
            if same {
                // The reference keeps the first definition of a name and arity.
                continue;
            }
            self.add(Symbol {
                kind: SymbolKind::Macro,
                name: name.clone(),
                definition: Some(directive.name_span),
                directive: Some(d),
                params: params.iter().map(|(p, _)| p.clone()).collect(),
                bound: None,
            });
        }
    }

    fn add_declarations(&mut self, sources: &Sources) {
        let section = |kind| section_tokens(sources, kind);
        for (kind, section_kind) in
            [(SymbolKind::Player, SectionKind::Players), (SymbolKind::Variable, SectionKind::Variables)]
        {
            let tokens = section(section_kind);
            for (i, token) in tokens.iter().enumerate() {
                let Some(name) = token.kind.ident() else { continue };
                if !tokens.get(i + 1).is_some_and(|t| t.is_sym(Sym::LParen)) {
                    continue;
                }
                let bound = match tokens.get(i + 2).map(|t| &t.kind) {
                    Some(TokenKind::Number(n)) => Some(*n),
                    _ => None,
                };
                self.declare(kind, name, written_span(sources.text, token), bound);
            }
        }
        for token in section(SectionKind::Pieces) {
            if let Some(name) = token.kind.ident() {
                self.declare(SymbolKind::Piece, name, written_span(sources.text, token), None);
            }
        }
        for token in board_labels(&section(SectionKind::Board)) {
            if let Some(name) = token.kind.ident() {
                self.declare(SymbolKind::Label, name, written_span(sources.text, token), None);
            }
        }
        // Labels and relation words the board generator made without writing them.
        if let Some(game) = sources.game {
            let relations = game.board.geometry.iter().flat_map(|g| g.relations.iter().map(|(w, _)| w));
            for name in game.board.labels.iter().chain(relations) {
                self.declare(SymbolKind::Label, name, None, None);
            }
        }
    }

    /// Adds a declared name unless one of that name exists (the first declaration counts).
    fn declare(&mut self, kind: SymbolKind, name: &str, definition: Option<Span>, bound: Option<u32>) {
        if self.declared(name).is_some() {
            return;
        }
        self.add(Symbol {
            kind,
            name: name.to_string(),
            definition,
            directive: None,
            params: Vec::new(),
            bound,
        });
    }

    /// Every identifier written in the file, resolved as the expander would.
    fn add_written_references(&mut self, sources: &Sources) {
        let mut parameters: HashMap<(usize, String), SymbolId> = HashMap::new();
        for (d, directive) in sources.directives.iter().enumerate() {
            for (name, span) in directive.params() {
                if parameters.contains_key(&(d, name.clone())) {
                    continue;
                }
                let id = self.add(Symbol {
                    kind: SymbolKind::Parameter,
                    name: name.clone(),
                    definition: Some(*span),
                    directive: Some(d),
                    params: Vec::new(),
                    bound: None,
                });
                parameters.insert((d, name.clone()), id);
                self.references.push(Reference { symbol: id, span: *span, definition: true, pasted: false });
            }
            if let Some(id) = self.macro_defined_at(d) {
                let span = directive.name_span;
                self.references.push(Reference { symbol: id, span, definition: true, pasted: false });
            }
            for at in directive.body.clone() {
                let token = &sources.tokens[at];
                let Some(name) = token.kind.ident() else { continue };
                let symbol = match parameters.get(&(d, name.to_string())) {
                    Some(&id) => Some(id),
                    None => self
                        .macro_called(name, sources.tokens, at, directive.body.end)
                        .or(self.declared(name)),
                };
                if let Some(symbol) = symbol {
                    let definition = self.symbols[symbol].definition == Some(token.span);
                    self.references.push(Reference { symbol, span: token.span, definition, pasted: false });
                }
            }
        }
    }

    fn macro_defined_at(&self, directive: usize) -> Option<SymbolId> {
        (0..self.symbols.len()).find(|&id| {
            self.symbols[id].kind == SymbolKind::Macro && self.symbols[id].directive == Some(directive)
        })
    }

    /// The macro a name at token `at` calls: the overload with as many parameters as the
    /// arguments that follow (the first overload if none matches).
    fn macro_called(&self, name: &str, tokens: &[Token], at: usize, end: usize) -> Option<SymbolId> {
        let macros: Vec<SymbolId> = self
            .named(name)
            .iter()
            .copied()
            .filter(|&id| self.symbols[id].kind == SymbolKind::Macro)
            .collect();
        let first = *macros.first()?;
        let opens = tokens.get(at + 1).is_some_and(|t| at + 1 < end && t.is_sym(Sym::LParen));
        let arity = if opens { call_arity(tokens, at + 1, end).map_or(0, |(n, _)| n) } else { 0 };
        Some(macros.iter().copied().find(|&id| self.symbols[id].params.len() == arity).unwrap_or(first))
    }

    /// Names made by pasting, found in the expansion.
    fn add_pasted_references(&mut self, sources: &Sources) {
        let Some(expanded) = sources.expanded else { return };
        for kind in SectionKind::ALL {
            for token in &expanded.section(kind).tokens {
                let Some(name) = token.kind.ident() else { continue };
                if written_span(sources.text, token).is_some() {
                    continue;
                }
                if let Some(symbol) = self.declared(name) {
                    self.references.push(Reference {
                        symbol,
                        span: token.span,
                        definition: false,
                        pasted: true,
                    });
                }
            }
        }
    }
}

/// The token's span if the token's name is written there (not made by pasting).
pub(crate) fn written_span(text: &[u8], token: &Token) -> Option<Span> {
    let name = token.kind.ident()?;
    let written = text.get(token.span.start as usize..token.span.end as usize)?;
    (written == name.as_bytes()).then_some(token.span)
}

/// The tokens of a section: expanded if the file could be expanded, else as written.
fn section_tokens<'a>(sources: &Sources<'a>, kind: SectionKind) -> Vec<&'a Token> {
    if let Some(expanded) = sources.expanded {
        return expanded.section(kind).tokens.iter().collect();
    }
    let last = sources.directives.iter().rev().find(|d| d.section() == Some(kind));
    last.map_or_else(Vec::new, |d| sources.tokens[d.body.clone()].iter().collect())
}

/// The label names a board section writes: the generator's label arguments (before the first
/// row), or each `label:` of an explicit node list.
fn board_labels<'a>(tokens: &[&'a Token]) -> Vec<&'a Token> {
    let generator = tokens.first().is_some_and(|t| {
        matches!(t.kind, TokenKind::Keyword(Keyword::Rectangle | Keyword::Hexagon | Keyword::Cuboid))
    });
    if generator {
        return tokens
            .iter()
            .skip(1)
            .take_while(|t| !t.is_sym(Sym::LBracket))
            .filter(|t| t.kind.ident().is_some())
            .copied()
            .collect();
    }
    tokens
        .windows(2)
        .filter(|pair| pair[0].kind.ident().is_some() && pair[1].is_sym(Sym::Colon))
        .map(|pair| pair[0])
        .collect()
}
