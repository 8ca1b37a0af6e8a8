//! The declaration sections `#players`, `#pieces` and `#variables` (spec section 5).
//!
//! All three are "loose" comma lists: leading, trailing and repeated commas are accepted, but two
//! items need at least one comma between them. A list stops at the first token that is neither a
//! comma nor an identifier; what remains only earns a warning. Players and variables are
//! `name(bound)` items with a bound of at least 1; pieces are bare names.
//!
//! The sections are read in the order players, pieces, variables (the reference leaves this order
//! to the C++ compiler; it only decides which of two errors is reported), then the three name
//! sets are checked to be pairwise disjoint. The result also answers name lookups for the board
//! and the rules.

use std::collections::{BTreeMap, HashMap};

use crate::cursor::{error_at, Cursor};
use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::ir::{Bounded, PieceId, PlayerIdx, VarId};
use crate::token::{SectionTokens, Sym, Token, TokenKind, Trails};

/// The three declaration sections, resolved.
#[derive(Debug, Default)]
pub(crate) struct Declarations {
    /// Declaration order, duplicates kept.
    pub players: Vec<Bounded>,
    /// Sorted, without duplicates.
    pub pieces: Vec<String>,
    /// Sorted, without duplicates, first bound kept.
    pub variables: Vec<Bounded>,
    /// First occurrence of each player name.
    player_index: HashMap<String, PlayerIdx>,
}

impl Declarations {
    pub(crate) fn piece(&self, name: &str) -> Option<PieceId> {
        self.pieces.binary_search_by(|p| p.as_str().cmp(name)).ok().map(|i| i as PieceId)
    }

    pub(crate) fn player(&self, name: &str) -> Option<PlayerIdx> {
        self.player_index.get(name).copied()
    }

    /// The unified variable id of a declared variable (players' scores come first).
    pub(crate) fn variable(&self, name: &str) -> Option<VarId> {
        let index = self.variables.binary_search_by(|v| v.name.as_str().cmp(name)).ok()?;
        Some((self.players.len() + index) as VarId)
    }
}

/// One parsed item: its name token and its bound (pieces have none).
struct Item<'a> {
    token: &'a Token,
    name: &'a str,
    bound: u32,
}

/// Reads the three sections and checks that their names are pairwise disjoint.
pub(crate) fn parse_declarations(
    expanded: &Expanded,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Declarations, Diagnostic> {
    let players = parse_section(&expanded.players, expanded, "players", true, warnings)?;
    let pieces = parse_section(&expanded.pieces, expanded, "pieces", false, warnings)?;
    let variables = parse_section(&expanded.variables, expanded, "variables", true, warnings)?;

    let player_names = first_occurrences(&players);
    let piece_names = first_occurrences(&pieces);
    let variable_names = first_occurrences(&variables);
    let trails = &expanded.trails;
    check_disjoint(trails, &piece_names, &player_names, "pieces", "players")?;
    check_disjoint(trails, &piece_names, &variable_names, "pieces", "variables")?;
    check_disjoint(trails, &player_names, &variable_names, "players", "variables")?;

    let mut player_index = HashMap::new();
    for (i, item) in players.iter().enumerate() {
        player_index.entry(item.name.to_string()).or_insert(i as PlayerIdx);
    }
    Ok(Declarations {
        players: players.iter().map(|p| Bounded { name: p.name.to_string(), bound: p.bound }).collect(),
        pieces: piece_names.keys().map(|name| name.to_string()).collect(),
        variables: variable_names
            .iter()
            .map(|(name, item)| Bounded { name: name.to_string(), bound: item.bound })
            .collect(),
        player_index,
    })
}

/// The first item of each name, sorted by name.
fn first_occurrences<'i, 'a>(items: &'i [Item<'a>]) -> BTreeMap<&'a str, &'i Item<'a>> {
    let mut map = BTreeMap::new();
    for item in items {
        map.entry(item.name).or_insert(item);
    }
    map
}

/// "Identifier 'x' is found in both 'A' and 'B' declarations", located at the name in `B`.
fn check_disjoint(
    trails: &Trails,
    a: &BTreeMap<&str, &Item>,
    b: &BTreeMap<&str, &Item>,
    a_name: &str,
    b_name: &str,
) -> Result<(), Diagnostic> {
    match a.keys().find_map(|name| b.get(name)) {
        Some(item) => Err(error_at(
            trails,
            item.token,
            format!("Identifier '{}' is found in both '{a_name}' and '{b_name}' declarations", item.name),
        )),
        None => Ok(()),
    }
}

/// `loose-list(bounded)` or `loose-list(identifier)`.
fn parse_section<'a>(
    section: &'a SectionTokens,
    expanded: &'a Expanded,
    name: &str,
    bounded: bool,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Item<'a>>, Diagnostic> {
    let mut cursor = Cursor::new(section, &expanded.trails);
    let context = format!("'{name}' segment");
    let mut items = Vec::new();
    // Whether a comma has been read since the last item (or no item has been read yet).
    let mut separated = true;
    while let Some(token) = cursor.peek()? {
        match &token.kind {
            TokenKind::Sym(Sym::Comma) => {
                cursor.advance();
                separated = true;
            }
            TokenKind::Ident(ident) => {
                if !separated {
                    return Err(
                        cursor.error_at(token, "Two identifiers should be separated by at least one comma")
                    );
                }
                cursor.advance();
                let bound = if bounded { parse_bound(&mut cursor, &context)? } else { 0 };
                items.push(Item { token, name: ident, bound });
                separated = false;
            }
            _ => break,
        }
    }
    cursor.warn_if_trailing(&format!("'{name}' segment"), warnings)?;
    Ok(items)
}

/// `"(" number ")"` with a number of at least 1.
fn parse_bound(cursor: &mut Cursor, context: &str) -> Result<u32, Diagnostic> {
    cursor.expect_sym(Sym::LParen, context)?;
    let token = cursor.peek_required("integer")?;
    let bound = match token.kind {
        TokenKind::Number(n) if n >= 1 => n,
        _ => return Err(cursor.encountered("Expected positive integer", token)),
    };
    cursor.advance();
    cursor.expect_sym(Sym::RParen, context)?;
    Ok(bound)
}

#[cfg(test)]
mod tests {
    use crate::ir::Bounded;
    use crate::test_support::{at, at_end, build};

    const BOARD_AND_RULES: &str = "#board = rectangle(up,down,left,right,[e]) #rules = ->>";

    fn bounded(items: &[(&str, u32)]) -> Vec<Bounded> {
        items.iter().map(|&(name, bound)| Bounded { name: name.to_string(), bound }).collect()
    }

    #[test]
    fn loose_lists_order_sort_and_duplicates() {
        let text = format!(
            "#players = ,p(2),, q(3) , p(9),\n#pieces = ,,w,e,w,\n#variables = z(5), a(1), z(7),,\n{BOARD_AND_RULES}"
        );
        let built = build(&text);
        let game = built.game();
        // Players keep declaration order and duplicates; variables and pieces are sorted sets,
        // a variable keeping its first bound.
        assert_eq!(game.players, bounded(&[("p", 2), ("q", 3), ("p", 9)]));
        assert_eq!(game.pieces, ["e", "w"]);
        assert_eq!(game.variables, bounded(&[("a", 1), ("z", 5)]));
        assert!(built.warnings.is_empty());
    }

    #[test]
    fn lookups_use_first_player_and_unified_variable_ids() {
        let text =
            format!("#players = p(2), q(3), p(9)\n#pieces = e\n#variables = z(5), a(1)\n{BOARD_AND_RULES}");
        let built = build(&text);
        let expanded = crate::test_support::sections(&text);
        let mut warnings = Vec::new();
        let decls = super::parse_declarations(&expanded, &mut warnings).unwrap();
        assert_eq!(decls.player("p"), Some(0));
        assert_eq!(decls.player("q"), Some(1));
        // Three scores come first, then a, z in sorted order.
        assert_eq!(decls.variable("a"), Some(3));
        assert_eq!(decls.variable("z"), Some(4));
        assert_eq!(decls.piece("e"), Some(0));
        assert_eq!(decls.piece("x"), None);
        assert_eq!(built.game().num_vars(), 5);
    }

    #[test]
    fn empty_declaration_sections_are_accepted() {
        let built = build("#players = \n#pieces = e\n#variables = \n#board = rectangle(up,down,left,right,[e]) #rules = {e}");
        assert!(built.game().players.is_empty() && built.game().variables.is_empty());
    }

    #[test]
    fn items_need_a_comma_between_them() {
        let text = format!("#players = white(1) black(1)\n#pieces = e\n#variables =\n{BOARD_AND_RULES}");
        assert_eq!(
            build(&text).error(),
            at("Two identifiers should be separated by at least one comma", &text, "black", 0)
        );
        let text = format!("#players = w(1)\n#pieces = e f\n#variables =\n{BOARD_AND_RULES}");
        assert_eq!(
            build(&text).error(),
            at("Two identifiers should be separated by at least one comma", &text, "f", 0)
        );
    }

    #[test]
    fn bounds_need_parentheses_and_a_positive_number() {
        let cases = [
            ("#players = white 5", "Expected '(', encountered '5'", "5"),
            ("#players = white(0)", "Expected positive integer, encountered '0'", "0"),
            ("#players = white(x)", "Expected positive integer, encountered 'x'", "x"),
            ("#players = white(3,", "Expected ')', encountered ','", ","),
        ];
        for (players, message, needle) in cases {
            let text = format!("{players}\n#pieces = e\n#variables =\n{BOARD_AND_RULES}");
            assert_eq!(build(&text).error(), at(message, &text, needle, 0), "{players}");
        }
        let text = format!("#pieces = e\n#variables = v(1), w(-1)\n{BOARD_AND_RULES}\n#players = a(1)");
        assert_eq!(build(&text).error(), at("Expected positive integer, encountered '-'", &text, "-", 0));
    }

    #[test]
    fn input_ending_inside_a_bound() {
        let text = format!("#pieces = e\n#variables =\n{BOARD_AND_RULES}\n#players = white");
        assert_eq!(
            build(&text).error(),
            at_end("Unexpected end of input while parsing 'players' segment", &text)
        );
        let text = format!("#pieces = e\n#variables =\n{BOARD_AND_RULES}\n#players = white(");
        assert_eq!(build(&text).error(), at_end("Unexpected end of input while parsing integer", &text));
        let text = format!("#pieces = e\n{BOARD_AND_RULES}\n#players = white(1)\n#variables = v(2");
        assert_eq!(
            build(&text).error(),
            at_end("Unexpected end of input while parsing 'variables' segment", &text)
        );
    }

    #[test]
    fn names_must_be_disjoint() {
        let cases = [
            (
                "a(1), x(1)",
                "b, x",
                "c(1)",
                "Identifier 'x' is found in both 'pieces' and 'players' declarations",
            ),
            ("a(1)", "b, x", "x(1)", "Identifier 'x' is found in both 'pieces' and 'variables' declarations"),
            (
                "a(1), x(1)",
                "b",
                "x(1)",
                "Identifier 'x' is found in both 'players' and 'variables' declarations",
            ),
        ];
        for (players, pieces, variables, message) in cases {
            let text = format!(
                "#players = {players}\n#pieces = {pieces}\n#variables = {variables}\n{BOARD_AND_RULES}"
            );
            let (got, _, _) = build(&text).error();
            assert_eq!(got, message);
        }
        // Located at the name in the second-named section.
        let text = format!("#players = a(1), x(1)\n#pieces = x\n#variables =\n{BOARD_AND_RULES}");
        assert_eq!(
            build(&text).error(),
            at("Identifier 'x' is found in both 'pieces' and 'players' declarations", &text, "x", 0)
        );
    }

    #[test]
    fn trailing_tokens_only_warn() {
        let text = "#players = a(1); b(1)\n#pieces = e, f ( g\n#variables = v(1) 5\n#board = rectangle(up,down,left,right,[e]) #rules = ->>";
        let built = build(text);
        assert_eq!(built.game().players.len(), 1);
        assert_eq!(built.game().pieces, ["e", "f"]);
        assert_eq!(
            built.warnings(),
            [
                at("Unexpected tokens at the end of 'players' segment", text, ";", 0),
                at("Unexpected tokens at the end of 'pieces' segment", text, "(", 2),
                at("Unexpected tokens at the end of 'variables' segment", text, "5", 0),
            ]
        );
    }
}
