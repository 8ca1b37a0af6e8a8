//! From expanded sections to the game IR (spec sections 5-9 and 12), in the reference's order:
//! declarations (`decl`), board (`board`), rules (`rules`), then the
//! straightness figures ([`crate::straightness`]).

use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::ir::Game;
use crate::rules::Names;
use crate::{board, decl, rules, straightness};

/// Parses the declarations, the board and the rules; types, lowers and indexes the rules.
/// Warnings are appended to `warnings`; the first error is returned.
pub fn build_game(expanded: &Expanded, warnings: &mut Vec<Diagnostic>) -> Result<Game, Diagnostic> {
    let decls = decl::parse_declarations(expanded, warnings)?;
    let board = board::parse_board(expanded, &decls, warnings)?;
    let relations = board.geometry.as_ref().map_or(&[][..], |g| g.relations.as_slice());
    let names = Names { decls: &decls, labels: &board.labels, relations };
    let (rules, modifiers) = rules::build_rules(expanded, &names, warnings)?;
    let straightness = straightness::straightness(&rules);
    Ok(Game {
        players: decls.players,
        pieces: decls.pieces,
        variables: decls.variables,
        board,
        rules,
        modifiers,
        straightness,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::sections;

    const GAME: &str =
        "#players = w(1)\n#pieces = e\n#variables =\n#board = rectangle(up,down,left,right, [e])\n";

    /// Chooses the section that gets the deferred error.
    type PickSection = fn(&mut Expanded) -> &mut crate::token::SectionTokens;

    fn expansion_error() -> Diagnostic {
        Diagnostic::error("Unexpected tilde", None)
    }

    fn build_with_deferred_error(text: &str, section: PickSection) -> Result<Game, Diagnostic> {
        let mut expanded = sections(text);
        section(&mut expanded).error = Some(expansion_error());
        build_game(&expanded, &mut Vec::new())
    }

    #[test]
    fn a_deferred_expansion_error_is_reported_when_read_past() {
        // Each parser looks past the last token here, as the reference's lazy expansion would.
        let cases: [(&str, PickSection); 5] = [
            ("#rules = up", |e| &mut e.rules),
            ("#rules = (up", |e| &mut e.rules),
            ("#rules = ", |e| &mut e.rules),
            ("#rules = up", |e| &mut e.pieces),
            ("#rules = up", |e| &mut e.board),
        ];
        for (rules, section) in cases {
            let text = format!("{GAME}{rules}");
            assert_eq!(build_with_deferred_error(&text, section), Err(expansion_error()), "{rules}");
        }
    }

    #[test]
    fn a_deferred_expansion_error_is_not_reported_if_parsing_stops_early() {
        // The rules stop at `)`, the pieces list at `;`: neither reads past its last token.
        let text = format!("{GAME}#rules = up ) down");
        assert!(build_with_deferred_error(&text, |e| &mut e.rules).is_ok());
        let text = "#players = w(1)\n#pieces = e ;\n#variables =\n#board = rectangle(up,down,left,right, [e]) ]\n#rules = up )";
        assert!(build_with_deferred_error(text, |e| &mut e.pieces).is_ok());
        assert!(build_with_deferred_error(text, |e| &mut e.board).is_ok());
    }

    #[test]
    fn errors_in_macro_expansions_carry_the_trail() {
        let text = format!("{GAME}#m(a) = up a\n#rules = m(foo)");
        let out = crate::parse("t.rbg", text.as_bytes());
        let error = out.diagnostics.last().expect("an error");
        assert_eq!(
            error.reference_text(&out.source),
            "Error (line 6, character 12): Identifier 'foo' not declared\n\
             \tin expansion of 'a' macro argument\n\tin expansion of macro 'm'"
        );
    }
}
