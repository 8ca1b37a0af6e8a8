//! Tests of directives and macro expansion (spec sections 3, 4, 13.2-13.3 and 16.2 items 1-10).
//!
//! Expected token sequences are derived by hand from the spec text. Most tests put a few macro
//! definitions and a `#rules` body after a fixed header of the other four sections ([`HEADER`],
//! four lines, so the test's own text starts on line 5) and compare the spelled rules tokens.

mod corpus_support;

use std::collections::BTreeSet;

use rbg_parser::diag::{Diagnostic, Severity, TrailFrame};
use rbg_parser::expand::{expand, Expanded, SectionKind};
use rbg_parser::lexer::lex;
use rbg_parser::source::{SourceFile, Span};
use rbg_parser::token::{Keyword, SectionTokens, Sym, Token, TokenKind};

const HEADER: &str = "#board = b\n#players = p\n#pieces = e\n#variables =\n";

struct Run {
    source: SourceFile,
    result: Result<Expanded, Diagnostic>,
    warnings: Vec<Diagnostic>,
}

fn run(text: &str) -> Run {
    let source = SourceFile::new("test.rbg", text.as_bytes());
    let lexed = lex(text.as_bytes()).expect("test inputs lex");
    let mut warnings = lexed.warnings;
    let result = expand(lexed.tokens, &mut warnings);
    Run { source, result, warnings }
}

impl Run {
    fn expanded(&self) -> &Expanded {
        match &self.result {
            Ok(expanded) => expanded,
            Err(e) => panic!("unexpected error: {}", e.reference_text(&self.source)),
        }
    }

    fn error(&self) -> &Diagnostic {
        match &self.result {
            Ok(_) => panic!("expected a directive error"),
            Err(e) => e,
        }
    }

    /// The expansion error of the rules section.
    fn rules_error(&self) -> &Diagnostic {
        self.expanded().rules.error.as_ref().expect("expected an expansion error in #rules")
    }

    fn line_col(&self, span: Option<Span>) -> (u32, u32) {
        self.source.line_col(span.expect("diagnostic has a span").start)
    }

    /// Each trail frame as "macro NAME" / "argument PARAM" with the line and column it points at.
    fn trail(&self, diagnostic: &Diagnostic) -> Vec<(String, (u32, u32))> {
        self.frames(&diagnostic.trail)
    }

    fn frames(&self, frames: &[TrailFrame]) -> Vec<(String, (u32, u32))> {
        frames
            .iter()
            .map(|frame| {
                let what = match frame {
                    TrailFrame::Macro { name, .. } => format!("macro {name}"),
                    TrailFrame::Argument { param, .. } => format!("argument {param}"),
                };
                (what, self.source.line_col(frame.span().start))
            })
            .collect()
    }

    fn token_trail(&self, token: &Token) -> Vec<(String, (u32, u32))> {
        self.frames(&self.expanded().trails.frames(token.trail))
    }
}

fn spell(tokens: &[Token]) -> String {
    tokens.iter().map(|t| t.kind.to_string()).collect::<Vec<_>>().join(" ")
}

fn messages(diagnostics: &[Diagnostic]) -> Vec<&str> {
    diagnostics.iter().map(|d| d.message.as_str()).collect()
}

/// The spelled rules tokens of `HEADER + text`, which must expand with no diagnostic at all.
fn rules(text: &str) -> String {
    let run = run(&format!("{HEADER}{text}"));
    assert_eq!(messages(&run.warnings), Vec::<&str>::new(), "warnings for {text:?}");
    let rules = &run.expanded().rules;
    if let Some(e) = &rules.error {
        panic!("expansion error for {text:?}: {}", e.reference_text(&run.source));
    }
    spell(&rules.tokens)
}

/// `HEADER + text`, which must expand with an error in the rules section.
fn rules_failing(text: &str) -> Run {
    let run = run(&format!("{HEADER}{text}"));
    assert!(run.expanded().rules.error.is_some(), "expected an expansion error for {text:?}");
    run
}

fn frame(what: &str, line: u32, col: u32) -> (String, (u32, u32)) {
    (what.to_string(), (line, col))
}

// ------------------------------------------------------------------------------------------
// Section 3: file layout and directives

#[test]
fn empty_file_has_no_tokens() {
    for text in ["", "  \n// only a comment\n/* and another */"] {
        let run = run(text);
        assert_eq!(run.error().message, "No tokens in file");
        assert_eq!(run.error().span, None);
    }
}

#[test]
fn file_must_start_with_hash() {
    let run = run("board = x");
    assert_eq!(run.error().message, "Expected '#' token at beginning of file, encountered 'board'");
    assert_eq!(run.line_col(run.error().span), (1, 1));
    let run = self::run("// comment\n  x #board = y");
    assert_eq!(run.error().message, "Expected '#' token at beginning of file, encountered 'x'");
    assert_eq!(run.line_col(run.error().span), (2, 3));
}

#[test]
fn lone_trailing_hash_is_ignored() {
    assert_eq!(rules("#rules = a b\n#"), "a b");
    // A file that is a lone `#` has no directive at all.
    assert_eq!(run("#").error().message, "No 'board' directive");
}

#[test]
fn bad_directive_heads() {
    let expected = |x: &str| {
        format!(
            "Expected 'game', 'board', 'players', 'variables', 'pieces' or 'rules' token or identifier, \
             encountered '{x}'"
        )
    };
    let run = run(&format!("{HEADER}#rules = a\n#(x) = 1"));
    assert_eq!(run.error().message, expected("("));
    assert_eq!(run.line_col(run.error().span), (6, 2));
    let run = self::run(&format!("{HEADER}#hexagon = a"));
    assert_eq!(run.error().message, expected("hexagon"));
    assert_eq!(run.line_col(run.error().span), (5, 2));
    // `# #`: the second `#` is the head of the directive started by the first.
    let run = self::run(&format!("{HEADER}#rules = a\n#\n#players = q"));
    assert_eq!(run.error().message, expected("#"));
    assert_eq!(run.line_col(run.error().span), (7, 1));
    let run = self::run("#5 = x");
    assert_eq!(run.error().message, expected("5"));
}

#[test]
fn game_is_an_ordinary_macro_name() {
    assert_eq!(rules("#game = \"Tic-tac-toe\"\n#rules = game"), "\"Tic-tac-toe\"");
}

#[test]
fn section_keyword_needs_assign() {
    let run = run("#board x");
    assert_eq!(run.error().message, "Expected '=' after 'board' segment name, encountered 'x'");
    assert_eq!(run.line_col(run.error().span), (1, 8));
    let run = self::run("#pieces(a) = x");
    assert_eq!(run.error().message, "Expected '=' after 'pieces' segment name, encountered '('");
}

#[test]
fn section_keyword_at_end_of_file() {
    let run = run("#players = a\n#board");
    assert_eq!(run.error().message, "Unexpected end of 'board' segment");
    // Placed just after the last token.
    assert_eq!(run.line_col(run.error().span), (2, 7));
}

#[test]
fn missing_sections_are_reported_in_order() {
    let sections = ["#board = b\n", "#players = p\n", "#variables =\n", "#pieces = e\n", "#rules = r\n"];
    let names = ["board", "players", "variables", "pieces", "rules"];
    for present in 0..5 {
        // The sections before `present`, written in reverse order to show the check order does
        // not depend on file order.
        let text: String = sections[..present].iter().rev().copied().collect();
        let text = if text.is_empty() { "#m = x".to_string() } else { text };
        let run = run(&text);
        assert_eq!(run.error().message, format!("No '{}' directive", names[present]));
        assert_eq!(run.error().span, None);
    }
}

#[test]
fn repeated_section_warns_and_last_wins() {
    let run = run(&format!("{HEADER}#rules = a\n#m = M\n#rules = m b"));
    assert_eq!(messages(&run.warnings), ["Another 'rules' declared; discarding previous"]);
    assert_eq!(run.line_col(run.warnings[0].span), (7, 2));
    // The last occurrence has its own, later, context order: `m` is visible in it.
    assert_eq!(spell(&run.expanded().rules.tokens), "M b");
}

#[test]
fn empty_directives_warn_except_variables() {
    let run = run("#board =\n#players =\n#pieces =\n#variables =\n#rules =");
    assert_eq!(
        messages(&run.warnings),
        [
            "Empty 'board' directive",
            "Empty 'players' directive",
            "Empty 'pieces' directive",
            "Empty 'rules' directive"
        ]
    );
    let positions: Vec<_> = run.warnings.iter().map(|w| run.line_col(w.span)).collect();
    assert_eq!(positions, [(1, 2), (2, 2), (3, 2), (5, 2)]);
    assert!(run.warnings.iter().all(|w| w.severity == Severity::Warning));
    assert!(run.expanded().rules.tokens.is_empty());
}

#[test]
fn sections_and_macros_interleave_freely() {
    let run = run("#m = M\n#rules = m\n#pieces = m\n#n = N\n#board = m n\n#players = n\n#variables = m n");
    let expanded = run.expanded();
    assert_eq!(spell(&expanded.rules.tokens), "M");
    assert_eq!(spell(&expanded.pieces.tokens), "M");
    assert_eq!(spell(&expanded.board.tokens), "M N");
    assert_eq!(spell(&expanded.section(SectionKind::Players).tokens), "N");
    assert_eq!(spell(&expanded.variables.tokens), "M N");
}

#[test]
fn lexical_diagnostics_of_section_2() {
    let text = "#rules = a_b\n  4294967295 \"open";
    let lexed = lex(text.as_bytes()).unwrap();
    let source = SourceFile::new("t", text.as_bytes());
    let at = |d: &Diagnostic| source.line_col(d.span.unwrap().start);
    assert_eq!(messages(&lexed.warnings), ["Stray '_' character in file", "Unterminated string"]);
    assert_eq!(at(&lexed.warnings[0]), (1, 11));
    assert_eq!(at(&lexed.warnings[1]), (2, 14));
    let comment = "#rules = a\n /* open";
    let lexed = lex(comment.as_bytes()).unwrap();
    assert_eq!(messages(&lexed.warnings), ["Unterminated comment"]);
    assert_eq!(
        SourceFile::new("t", comment.as_bytes()).line_col(lexed.warnings[0].span.unwrap().start),
        (2, 2)
    );
    let too_large = "#rules =\n 4294967296";
    let error = lex(too_large.as_bytes()).unwrap_err();
    assert_eq!(error.message, "Too large integer");
    assert_eq!(SourceFile::new("t", too_large.as_bytes()).line_col(error.span.unwrap().start), (2, 2));
}

// Macro definition rows of 13.2

fn definition_error(text: &str) -> (String, (u32, u32)) {
    let run = run(text);
    let error = run.error();
    (error.message.clone(), run.line_col(error.span))
}

#[test]
fn malformed_parameter_lists() {
    let cases = [
        ("#f(a, b) = x", "Expected ';' or '(' token, encounered ','", (1, 5)),
        ("#f(a b) = x", "Expected ';' or '(' token, encounered 'b'", (1, 6)),
        ("#f() = x", "Expected identifier, encountered ')'", (1, 4)),
        ("#f(a;) = x", "Expected identifier, encountered ')'", (1, 6)),
        ("#f(rules) = x", "Expected identifier, encountered 'rules'", (1, 4)),
        ("#f(a;\n 7) = x", "Expected identifier, encountered '7'", (2, 2)),
        ("#f(a #rules = x", "Expected ';' or '(' token, encounered '#'", (1, 6)),
        // Unexpected ends are placed just after the last token.
        ("#f(", "Unexpected end of macro arguments list", (1, 4)),
        ("#f(a", "Unexpected end of macro arguments list", (1, 5)),
        ("#f(a;", "Unexpected end of macro arguments list", (1, 6)),
    ];
    for (text, message, at) in cases {
        assert_eq!(definition_error(text), (message.to_string(), at), "for {text:?}");
    }
}

#[test]
fn malformed_definitions() {
    let cases = [
        ("#f", "Unexpected end of macro definition", (1, 3)),
        ("#f(a)", "Unexpected end of macro definition", (1, 6)),
        ("#f x", "Expected '=' token, encountered 'x'", (1, 4)),
        ("#f(a) #", "Expected '=' token, encountered '#'", (1, 7)),
        ("#f(a)(b) = x", "Expected '=' token, encountered '('", (1, 6)),
    ];
    for (text, message, at) in cases {
        assert_eq!(definition_error(text), (message.to_string(), at), "for {text:?}");
    }
}

#[test]
fn macro_without_body_warns_and_expands_to_nothing() {
    let run = run(&format!("#f =\n{HEADER}#rules = a f b"));
    assert_eq!(messages(&run.warnings), ["Macro 'f' doesn't have body"]);
    assert_eq!(run.line_col(run.warnings[0].span), (1, 2));
    assert_eq!(spell(&run.expanded().rules.tokens), "a b");
}

#[test]
fn zero_and_non_zero_arities_cannot_share_a_name() {
    let message = "Cannot define two macros with the same name with zero and non zero arities";
    for text in ["#f = a\n#f(x) = b", "#f(x) = a\n#f = b", "#f = a\n#f = b"] {
        assert_eq!(definition_error(text), (message.to_string(), (2, 2)), "for {text:?}");
    }
}

#[test]
fn same_arity_redefinition_warns_but_keeps_the_first() {
    let run = run(&format!("#f(x; y) = first x y\n#f(a; b) = second a b\n{HEADER}#rules = f(1; 2)"));
    assert_eq!(
        messages(&run.warnings),
        ["Macro 'f' with arity 2 already defined, overwriting previous definition"]
    );
    assert_eq!(run.line_col(run.warnings[0].span), (2, 2));
    assert_eq!(spell(&run.expanded().rules.tokens), "first 1 2");
}

// ------------------------------------------------------------------------------------------
// Section 4.1: definitions and arity

#[test]
fn arity_zero_macro_is_replaced_by_its_body() {
    assert_eq!(rules("#m = a b\n#rules = x m y"), "x a b y");
}

#[test]
fn parameters_receive_their_arguments() {
    assert_eq!(rules("#f(p; q) = q p q\n#rules = f(1; 2)"), "2 1 2");
}

#[test]
fn overloading_by_arity() {
    let text = "#winAt(piece) = one piece\n#winAt(piece; s1; s2) = three piece s1 s2\n\
                #rules = winAt(x) winAt(x; y; z)";
    assert_eq!(rules(text), "one x three x y z");
}

#[test]
fn duplicate_parameters_first_one_receives_the_argument() {
    assert_eq!(rules("#f(x; x) = x\n#rules = f(1; 2)"), "1");
}

// Section 4.2: macros are expanded in every section

#[test]
fn macros_expand_in_every_section() {
    let text = "#pl(c) = c~Player(1)\n#pc(c) = c~Pawn, c~King\n#bound = 5\n#row = [e, e]\n\
                #board = rectangle(up, down, left, right, row)\n#players = pl(white), pl(black)\n\
                #pieces = pc(white), e\n#variables = turn(bound)\n#rules = ->whitePlayer";
    let run = run(text);
    let expanded = run.expanded();
    assert_eq!(spell(&expanded.board.tokens), "rectangle ( up , down , left , right , [ e , e ] )");
    assert_eq!(spell(&expanded.players.tokens), "whitePlayer ( 1 ) , blackPlayer ( 1 )");
    assert_eq!(spell(&expanded.pieces.tokens), "whitePawn , whiteKing , e");
    assert_eq!(spell(&expanded.variables.tokens), "turn ( 5 )");
    assert_eq!(spell(&expanded.rules.tokens), "-> whitePlayer");
    assert_eq!(expanded.board.tokens[0].kind, TokenKind::Keyword(Keyword::Rectangle));
}

// Section 4.3: visibility

#[test]
fn macros_defined_later_are_plain_identifiers() {
    assert_eq!(rules("#rules = late x\n#late = L"), "late x");
    // A body sees only macros defined before it.
    assert_eq!(rules("#f = g\n#g = G\n#rules = f g"), "g G");
}

#[test]
fn a_macro_name_is_plain_inside_its_own_body() {
    // arimaa's `#turn(…)` body uses the variable `turn`.
    assert_eq!(rules("#turn(x) = turn x\n#rules = turn(1)"), "turn 1");
    assert_eq!(rules("#m = m m\n#rules = m"), "m m");
}

#[test]
fn arguments_carry_the_callers_context_order() {
    // `z` is defined after `f`: invisible in f's body, visible in the argument written in #rules.
    assert_eq!(rules("#f(x) = x z\n#z = Z\n#rules = f(z)"), "Z z");
}

// Section 4.4: recognising a call

#[test]
fn parameters_shadow_macros() {
    assert_eq!(rules("#p = M\n#f(p) = p\n#rules = f(1) p"), "1 M");
    // Even a parameter named like an arity-1 macro is just replaced (no argument list needed).
    assert_eq!(rules("#g(a) = G\n#f(g) = g(x)\n#rules = f(1)"), "1 ( x )");
}

#[test]
fn arity_zero_macro_leaves_following_parentheses() {
    assert_eq!(rules("#m1 = x\n#rules = m1(x)"), "x ( x )");
}

#[test]
fn macro_with_parameters_needs_an_open_paren() {
    let run = rules_failing("#f(a) = a\n#rules = f x");
    let error = run.rules_error();
    assert_eq!(error.message, "Expected '(' token, encountered 'x'");
    assert_eq!(run.line_col(error.span), (6, 12));
    assert!(error.trail.is_empty());
    assert!(run.expanded().rules.tokens.is_empty());
}

#[test]
fn macro_with_parameters_at_end_of_its_string() {
    let run = rules_failing("#f(a) = a\n#rules = a f");
    let error = run.rules_error();
    assert_eq!(error.message, "Unexpected end of macro arguments");
    assert_eq!(run.line_col(error.span), (6, 12));
    assert_eq!(spell(&run.expanded().rules.tokens), "a");
}

#[test]
fn unterminated_argument_list() {
    let run = rules_failing("#f(a) = a\n#rules = x f(a (b) c");
    let error = run.rules_error();
    assert_eq!(error.message, "Unexpected end of macro arguments");
    assert_eq!(run.line_col(error.span), (6, 12));
    assert_eq!(spell(&run.expanded().rules.tokens), "x");
}

#[test]
fn wrong_number_of_arguments() {
    let run = rules_failing("#f(a) = a\n#f(a; b; c) = a\n#rules = f(1; 2)");
    let error = run.rules_error();
    assert_eq!(
        error.message,
        "Macro with given name exists but requires another number of arguments (2 given)"
    );
    assert_eq!(run.line_col(error.span), (7, 10));
    // An overload defined later is not visible.
    let run = rules_failing("#f(a) = a\n#rules = f(1; 2)\n#f(a; b) = a");
    assert_eq!(
        run.rules_error().message,
        "Macro with given name exists but requires another number of arguments (2 given)"
    );
    assert_eq!(rules("#f(a) = a\n#f(a; b) = b\n#rules = f(1; 2) f(3)"), "2 3");
}

#[test]
fn a_call_cannot_take_its_paren_from_outside_its_string() {
    let run = rules_failing("#g(x) = [x]\n#f(m) = m(1)\n#rules = f(g)");
    let error = run.rules_error();
    assert_eq!(error.message, "Unexpected end of macro arguments");
    assert_eq!(run.line_col(error.span), (7, 12));
    assert_eq!(run.trail(error), [frame("argument m", 7, 12), frame("macro f", 7, 10)]);
}

#[test]
fn call_errors_inside_macro_bodies_carry_their_trail() {
    let cases = [
        ("#f(a) = a\n#g = f x\n#rules = g", "Expected '(' token, encountered 'x'", (6, 8)),
        ("#f(a) = a\n#g = x f\n#rules = g", "Unexpected end of macro arguments", (6, 8)),
        (
            "#f(a) = a\n#g = f(1; 2)\n#rules = g",
            "Macro with given name exists but requires another number of arguments (2 given)",
            (6, 6),
        ),
    ];
    for (text, message, at) in cases {
        let run = rules_failing(text);
        let error = run.rules_error();
        assert_eq!(error.message, message, "{text:?}");
        assert_eq!(run.line_col(error.span), at, "{text:?}");
        assert_eq!(run.trail(error), [frame("macro g", 7, 10)], "{text:?}");
    }
}

// Section 4.5: argument splitting

#[test]
fn empty_parentheses_pass_one_empty_argument() {
    assert_eq!(rules("#f(a) = [a]\n#rules = f()"), "[ ]");
    assert_eq!(rules("#f(a; b) = [a] [b]\n#rules = f(;)"), "[ ] [ ]");
    assert_eq!(rules("#f(a; b; c) = c b a\n#rules = f(x;;y)"), "y x");
}

#[test]
fn only_round_parentheses_nest() {
    assert_eq!(rules("#f(a) = [a]\n#rules = f((x; y))"), "[ ( x ; y ) ]");
    assert_eq!(rules("#f(a; b) = a e b\n#rules = f(x {; }) f(y [; ])"), "x { e } y [ e ]");
}

#[test]
fn idiom_empty_arguments_english_draughts() {
    let text = "#potentialJumpForward(opp; middleAction; forward) = forward middleAction opp\n\
                #potentialJumpAround(opp; middleAction) = [opp middleAction]\n\
                #rules = potentialJumpForward(o; ; up) potentialJumpAround(o;)";
    assert_eq!(rules(text), "up o [ o ]");
}

#[test]
fn idiom_argument_with_commas_international_draughts() {
    let text = "#grabPiece(x) = [x]\n#turn(me) = grabPiece(me~Man, manToBeRemoved, manToBeMoved)\n#rules = turn(white)";
    assert_eq!(rules(text), "[ whiteMan , manToBeRemoved , manToBeMoved ]");
}

#[test]
fn idiom_nested_parentheses_with_commas() {
    let text = "#jumpWhileRealMove(move; opp) = (move) opp\n\
                #rules = jumpWhileRealMove(upLeft ({empty, manToBeRemoved} upLeft)*; opp)";
    assert_eq!(rules(text), "( upLeft ( { empty , manToBeRemoved } upLeft ) * ) opp");
}

#[test]
fn idiom_semicolon_inside_braces_splits_arimaa() {
    let text = "#forEachPiece(actionBegin; actionEnd) = {e} actionBegin e actionEnd\n\
                #rules = forEachPiece(backLayer {;}) forEachPiece(backLayer [;])";
    assert_eq!(rules(text), "{ e } backLayer { e } { e } backLayer [ e ]");
}

#[test]
fn idiom_many_empty_arguments_and_leading_commas_mill_game() {
    let text = "#circle(name; a; b; c; d) = name {x a} {y b} {z c} {w d}\n\
                #rules = circle(outer; ;;; ,right: middle2)";
    assert_eq!(rules(text), "outer { x } { y } { z } { w , right : middle2 }");
}

// Section 4.6: substitution and scoping

#[test]
fn arguments_expand_in_the_callers_context_each_time() {
    assert_eq!(rules("#twice(x) = x x\n#c = C\n#rules = twice(c)"), "C C");
    // The caller's parameters in an argument are the caller's arguments.
    assert_eq!(rules("#g(y) = [y]\n#f(x) = g(x x)\n#rules = f(1)"), "[ 1 1 ]");
}

#[test]
fn each_use_of_an_argument_is_a_separate_expansion() {
    let run = run(&format!("{HEADER}#twice(x) = x x\n#rules = twice(a)"));
    let tokens = &run.expanded().rules.tokens;
    assert_eq!(spell(tokens), "a a");
    assert_ne!(tokens[0].trail, tokens[1].trail);
    assert_eq!(run.token_trail(&tokens[0]), run.token_trail(&tokens[1]));
}

#[test]
fn scoping_is_lexical() {
    assert_eq!(rules("#g = x\n#f(x) = g\n#rules = f(1)"), "x");
    assert_eq!(rules("#g(y) = x y\n#f(x) = g(x)\n#rules = f(1)"), "x 1");
}

#[test]
fn bodies_are_not_parenthesised() {
    assert_eq!(rules("#m = a b\n#rules = m*"), "a b *");
    assert_eq!(rules("#m = (a b)\n#rules = m^2"), "( a b ) ^ 2");
}

// Section 4.7: token pasting

#[test]
fn pasting_directly_in_a_section_is_an_error() {
    let run = rules_failing("#rules = x a ~ b");
    let error = run.rules_error();
    assert_eq!(error.message, "Tokens can be pasted only inside macros");
    assert_eq!(run.line_col(error.span), (5, 14));
    assert!(error.trail.is_empty());
    // `a` waits for its paste partner, so only `x` was produced.
    assert_eq!(spell(&run.expanded().rules.tokens), "x");
}

#[test]
fn pasting_in_an_argument_written_in_a_section_is_an_error() {
    let run = rules_failing("#f(x) = x\n#rules = f(a ~ b)");
    let error = run.rules_error();
    assert_eq!(error.message, "Tokens can be pasted only inside macros");
    assert_eq!(run.line_col(error.span), (6, 14));
    assert_eq!(run.trail(error), [frame("argument x", 6, 12), frame("macro f", 6, 10)]);
}

#[test]
fn pasting_in_an_argument_written_in_a_macro_body() {
    assert_eq!(rules("#g(x) = x\n#f(c) = g(c ~ Pawn)\n#rules = f(white)"), "whitePawn");
}

#[test]
fn operands_are_units() {
    // A parameter's and a macro's expansions: the glue joins last and first tokens only.
    assert_eq!(rules("#m = p q\n#f(x) = x ~ m\n#rules = f(a b)"), "a bp q");
    assert_eq!(rules("#g(x) = x y\n#f = a ~ g(b)\n#rules = f"), "ab y");
}

#[test]
fn chains_associate_to_the_left() {
    assert_eq!(rules("#f = a ~ b ~ c\n#rules = f"), "abc");
    assert_eq!(rules("#f = 1 ~ 2 ~ 3\n#rules = f"), "123");
    // Right association would fail on `> ~ >`.
    assert_eq!(rules("#f = - ~ > ~ >\n#rules = f"), "->>");
}

#[test]
fn empty_operands_are_transparent() {
    assert_eq!(rules("#f(a; x; c) = a ~ x ~ c\n#rules = f(p;;q)"), "pq");
    assert_eq!(rules("#f(x; b) = x ~ b\n#rules = f(; q)"), "q");
    assert_eq!(rules("#f(a; x) = a ~ x\n#rules = f(p;)"), "p");
    // The glue never reaches tokens outside the chain.
    assert_eq!(rules("#f(a; x; b) = a x ~ b\n#rules = f(p;;q)"), "p q");
    assert_eq!(rules("#f(x; b) = a x ~ b\n#rules = f(;q)"), "a q");
}

#[test]
fn pasting_inside_nested_chains() {
    // Inner chain `e ~ d` inside the right operand of the outer `c ~ m`: c ~ (ed) = ced.
    assert_eq!(rules("#m = e ~ d\n#f = c ~ m\n#rules = f"), "ced");
    // Inner chain with an empty left operand.
    assert_eq!(rules("#m(x) = x ~ d\n#f = c ~ m()\n#rules = f"), "cd");
    assert_eq!(rules("#m(x) = x ~ d z\n#f = c ~ m() ~ y\n#rules = f"), "cd zy");
}

#[test]
fn misplaced_tildes() {
    let run = rules_failing("#f = ~ a\n#rules = x f");
    let error = run.rules_error();
    assert_eq!(error.message, "Unexpected tilde");
    assert_eq!(run.line_col(error.span), (5, 6));
    assert_eq!(run.trail(error), [frame("macro f", 6, 12)]);
    assert_eq!(spell(&run.expanded().rules.tokens), "x");

    let run = rules_failing("#f = a ~ ~ b\n#rules = x f");
    assert_eq!(run.rules_error().message, "Unexpected tilde");
    assert_eq!(run.line_col(run.rules_error().span), (5, 10));
    assert_eq!(spell(&run.expanded().rules.tokens), "x");

    let run = rules_failing("#f = a b ~\n#rules = x f");
    assert_eq!(run.rules_error().message, "Tilde at the end of tokens string");
    assert_eq!(run.line_col(run.rules_error().span), (5, 10));
    assert_eq!(spell(&run.expanded().rules.tokens), "x a");

    // At the end of an argument written in a macro body.
    let run = rules_failing("#g(p) = p\n#f = g(a ~)\n#rules = f");
    assert_eq!(run.rules_error().message, "Tilde at the end of tokens string");
    assert_eq!(run.line_col(run.rules_error().span), (6, 10));
    let trail = run.trail(run.rules_error());
    assert_eq!(trail, [frame("argument p", 6, 8), frame("macro g", 6, 6), frame("macro f", 7, 10)]);

    // `~` first in a section is "Unexpected tilde", not the section error.
    let run = rules_failing("#rules = ~ a");
    assert_eq!(run.rules_error().message, "Unexpected tilde");
}

#[test]
fn pasted_tokens_are_not_rescanned() {
    assert_eq!(rules("#ab = Z\n#f = a ~ b\n#rules = f"), "ab");
    assert_eq!(rules("#f(xy) = x ~ y\n#rules = f(1)"), "xy");
}

/// Every row of the allowed-combinations table: `#f = L ~ R` expands to one token.
#[test]
fn pasting_table_rows() {
    let ident = |s: &str| TokenKind::Ident(s.into());
    let sym = |s: &str| TokenKind::Sym(Sym::from_spelling(s).unwrap());
    let cases = [
        ("color", "Pawn", ident("colorPawn")),
        ("x", "rules", ident("xrules")),
        ("board", "s", ident("boards")),
        ("rules", "board", ident("rulesboard")),
        ("play", "ers", TokenKind::Keyword(Keyword::Players)),
        ("rect", "angle", TokenKind::Keyword(Keyword::Rectangle)),
        ("outer", "1", ident("outer1")),
        ("a", "007", ident("a7")),
        ("1", "2", TokenKind::Number(12)),
        ("10", "0", TokenKind::Number(100)),
        ("-", ">", sym("->")),
        ("->", ">", sym("->>")),
        ("+", ">", sym("+>")),
        ("{", "?", sym("{?")),
        ("{", "!", sym("{!")),
        ("{", "$", sym("{$")),
        ("[", "$", sym("[$")),
        ("<", "=", sym("<=")),
        (">", "=", sym(">=")),
        ("=", "=", sym("==")),
        ("!", "=", sym("!=")),
    ];
    for (left, right, expected) in cases {
        let run = run(&format!("{HEADER}#f = {left} ~ {right}\n#rules = f"));
        let rules = &run.expanded().rules;
        assert!(rules.error.is_none(), "{left} ~ {right}: {:?}", rules.error);
        let kinds: Vec<_> = rules.tokens.iter().map(|t| t.kind.clone()).collect();
        assert_eq!(kinds, [expected], "{left} ~ {right}");
    }
}

#[test]
fn pasting_outside_the_table_is_an_error() {
    let cases = [("8", "y"), ("a", "-"), (">", ">"), ("(", ")"), ("-", "->"), ("[", "?"), ("\"s\"", "t")];
    for (left, right) in cases {
        let run = rules_failing(&format!("#f = {left} ~ {right}\n#rules = x f"));
        let error = run.rules_error();
        assert_eq!(error.message, format!("Pasting '{left}' and '{right}' doesn't create parseable token"));
        let tilde_col = 6 + left.len() as u32 + 1;
        assert_eq!(run.line_col(error.span), (5, tilde_col), "{left} ~ {right}");
        assert_eq!(run.trail(error), [frame("macro f", 6, 12)]);
        assert_eq!(spell(&run.expanded().rules.tokens), "x");
    }
}

#[test]
fn pasting_numbers_beyond_u32_is_too_large_integer() {
    assert_eq!(rules("#f = 429496729 ~ 5\n#rules = f"), "4294967295");
    let run = rules_failing("#f = 4294967 ~ 296\n#rules = f");
    assert_eq!(run.rules_error().message, "Too large integer");
    assert_eq!(run.line_col(run.rules_error().span), (5, 14));
}

#[test]
fn corpus_pasting_uses() {
    // ticTacToe: `->me~player` switches to `xplayer`.
    assert_eq!(rules("#turn(me) = ->me~player {e}\n#rules = turn(x)"), "-> xplayer { e }");
    assert_eq!(
        rules("#check(color) = {$ color~KingMoved==0}\n#rules = check(white)"),
        "{$ whiteKingMoved == 0 }"
    );
    assert_eq!(rules("#m(v; id1) = v~id1 [e]\n#rules = m(outer; 1)"), "outer1 [ e ]");
}

// ------------------------------------------------------------------------------------------
// Trails

#[test]
fn trails_of_macro_and_argument_tokens() {
    let run = run(&format!("{HEADER}#f(x) = [x]\n#rules = a f(y)"));
    let tokens = &run.expanded().rules.tokens;
    assert_eq!(spell(tokens), "a [ y ]");
    assert_eq!(run.token_trail(&tokens[0]), []);
    assert_eq!(run.token_trail(&tokens[1]), [frame("macro f", 6, 12)]);
    assert_eq!(run.token_trail(&tokens[2]), [frame("argument x", 6, 14), frame("macro f", 6, 12)]);
    assert_eq!(run.token_trail(&tokens[3]), [frame("macro f", 6, 12)]);
}

#[test]
fn trails_nest_as_expansion_nests() {
    let run = run(&format!("{HEADER}#g(p) = p\n#f(x) = g(x)\n#rules = f(y)"));
    let tokens = &run.expanded().rules.tokens;
    assert_eq!(spell(tokens), "y");
    // Innermost first, as the expansion nested: #rules → f → g → g's parameter p (written as `x`
    // in f's body) → f's parameter x (written as `y` in #rules).
    let expected = [
        frame("argument x", 7, 12),
        frame("argument p", 6, 11),
        frame("macro g", 6, 9),
        frame("macro f", 7, 10),
    ];
    assert_eq!(run.token_trail(&tokens[0]), expected);
    // The argument frame spans the whole argument.
    let frames = run.expanded().trails.frames(tokens[0].trail);
    assert_eq!(run.source.snippet(frames[0].span()), "y");
}

#[test]
fn pasted_token_keeps_its_left_parts_span_and_trail() {
    let run = run(&format!("{HEADER}#f(c) = c ~ Pawn\n#rules = f(white)"));
    let token = &run.expanded().rules.tokens[0];
    assert_eq!(token.kind, TokenKind::Ident("whitePawn".into()));
    assert_eq!(run.source.snippet(token.span), "white");
    assert_eq!(run.token_trail(token), [frame("argument c", 6, 12), frame("macro f", 6, 10)]);
}

#[test]
fn reference_text_of_an_error_in_an_expansion() {
    let run = rules_failing("#f(x) = x\n#rules = f(a ~ b)");
    assert_eq!(
        run.rules_error().reference_text(&run.source),
        "Error (line 6, character 14): Tokens can be pasted only inside macros\n\
         \tin expansion of 'x' macro argument\n\tin expansion of macro 'f'"
    );
}

// ------------------------------------------------------------------------------------------
// Lazy semantics and section ends

#[test]
fn errors_stay_in_their_section() {
    let run = run("#f = ~\n#board = b f\n#players = p\n#pieces = e\n#variables =\n#rules = r");
    let expanded = run.expanded();
    assert_eq!(spell(&expanded.board.tokens), "b");
    assert_eq!(expanded.board.error.as_ref().map(|e| e.message.as_str()), Some("Unexpected tilde"));
    for kind in [SectionKind::Players, SectionKind::Pieces, SectionKind::Variables, SectionKind::Rules] {
        assert!(expanded.section(kind).error.is_none());
    }
}

#[test]
fn section_end_is_just_after_its_last_raw_token() {
    let run = run(&format!("{HEADER}#m = x y z\n#rules = a m  \n\n#n = 1"));
    let rules: &SectionTokens = &run.expanded().rules;
    assert_eq!(rules.end.start, rules.end.end);
    assert_eq!(run.source.line_col(rules.end.start), (6, 13));
    // An empty section ends just after its `=`.
    let variables = &run.expanded().variables;
    assert_eq!(run.source.line_col(variables.end.start), (4, 13));
}

// ------------------------------------------------------------------------------------------
// Spec 16.2, items 1-10

#[test]
fn pitfalls_16_2_items_1_to_10() {
    // 1. Multi-character symbols are single tokens; spaces break them, pasting builds them.
    assert_eq!(rules("#rules = [$ x=1] [ $x=1]"), "[$ x = 1 ] [ $ x = 1 ]");
    assert_eq!(rules("#f = [ ~ $ x=1]\n#rules = f"), "[$ x = 1 ]");
    // 2. A stray character splits a word (a lexer warning).
    let run = run(&format!("{HEADER}#rules = a_b"));
    assert_eq!(messages(&run.warnings), ["Stray '_' character in file"]);
    assert_eq!(spell(&run.expanded().rules.tokens), "a b");
    // 3. Keywords are never names; `game`, `keeper`, `player` are.
    assert_eq!(definition_error("#f(board) = x").0, "Expected identifier, encountered 'board'");
    assert!(definition_error("#rectangle = x").0.ends_with("encountered 'rectangle'"));
    assert_eq!(rules("#keeper = K\n#player(game) = game\n#rules = keeper player(1)"), "K 1");
    // 4. Only round parentheses nest.
    assert_eq!(rules("#f(a; b) = b a\n#rules = f({;})"), "} {");
    // 5. `f()` has one argument; an arity-0 macro leaves `(x)` in place.
    assert_eq!(rules("#f(a) = <a>\n#m = M\n#rules = f() m(x)"), "< > M ( x )");
    // 6. An earlier macro turns `name(5)` in #variables into a call; a later one is harmless.
    let declarations = "#board = b\n#players = p\n#pieces = e\n";
    let earlier = self::run(&format!("{declarations}#turn(n) = t n\n#variables = turn(5)\n#rules = r"));
    assert_eq!(spell(&earlier.expanded().variables.tokens), "t 5");
    let later = self::run(&format!("{declarations}#variables = turn(5)\n#turn(n) = t n\n#rules = r"));
    assert_eq!(spell(&later.expanded().variables.tokens), "turn ( 5 )");
    // 7. Arguments in the caller's context, every time; bodies don't see the caller's params.
    assert_eq!(rules("#g = x\n#f(x) = g x\n#h(x) = f(x x)\n#rules = h(1)"), "x 1 1");
    // 8. Pasted tokens are not re-expanded; `~` is illegal in sections; empty operands vanish.
    assert_eq!(rules("#xy = no\n#f(a) = x ~ a ~ y\n#rules = f()"), "xy");
    assert_eq!(
        rules_failing("#rules = a ~ b").rules_error().message,
        "Tokens can be pasted only inside macros"
    );
    // 9. Bodies are not parenthesised.
    assert_eq!(rules("#m = a b\n#rules = m* (m)*"), "a b * ( a b ) *");
    // 10. The first redefinition wins; redefining an arity-0 macro is an error.
    let run = self::run(&format!("#f(a) = one\n#f(b) = two\n{HEADER}#rules = f(x)"));
    assert_eq!(spell(&run.expanded().rules.tokens), "one");
    assert_eq!(run.warnings.len(), 1);
    assert!(definition_error("#m = a\n#m = b").0.starts_with("Cannot define two macros"));
}

// ------------------------------------------------------------------------------------------
// Robustness: exponential growth and deep nesting

fn expansion_limit_error(section: &SectionTokens) -> bool {
    section
        .error
        .as_ref()
        .is_some_and(|e| e.message.starts_with("Macro expansion of this section is too large"))
}

#[test]
fn exponential_tower_is_cut_off_quickly() {
    let mut text = String::from(HEADER);
    text.push_str("#a0 = x x\n");
    for level in 1..=60 {
        text.push_str(&format!("#a{level} = a{} a{}\n", level - 1, level - 1));
    }
    text.push_str("#rules = a60");
    let run = run(&text);
    let rules = &run.expanded().rules;
    assert!(expansion_limit_error(rules), "{:?}", rules.error);
    // The error is raised deep inside the tower, with the whole nesting as its trail.
    assert_eq!(rules.error.as_ref().unwrap().trail.len(), 61);
    assert!(rules.tokens.len() as u64 <= rbg_parser::expand::MAX_EXPANSION_STEPS);
}

#[test]
fn exponential_tower_of_empty_macros_is_cut_off() {
    let mut text = String::from(HEADER);
    text.push_str("#a0 = \n");
    for level in 1..=60 {
        text.push_str(&format!("#a{level} = a{} a{} a{}\n", level - 1, level - 1, level - 1));
    }
    text.push_str("#rules = a60");
    let run = run(&text);
    assert_eq!(messages(&run.warnings), ["Macro 'a0' doesn't have body"]);
    assert!(expansion_limit_error(&run.expanded().rules));
    assert!(run.expanded().rules.tokens.is_empty());
}

fn deep_chain(depth: usize, innermost: &str) -> String {
    let mut text = String::from(HEADER);
    text.push_str(&format!("#m0 = {innermost}\n"));
    for level in 1..=depth {
        text.push_str(&format!("#m{level} = m{}\n", level - 1));
    }
    text.push_str(&format!("#rules = m{depth}"));
    text
}

#[test]
fn hundred_thousand_nested_definitions() {
    const DEPTH: usize = 100_000;
    let run = run(&deep_chain(DEPTH, "x"));
    let rules = &run.expanded().rules;
    assert!(rules.error.is_none());
    assert_eq!(spell(&rules.tokens), "x");
    assert_eq!(run.expanded().trails.frames(rules.tokens[0].trail).len(), DEPTH + 1);

    let run = self::run(&deep_chain(DEPTH, "a b ~"));
    let error = run.rules_error();
    assert_eq!(error.message, "Tilde at the end of tokens string");
    assert_eq!(error.trail.len(), DEPTH + 1);
    assert_eq!(spell(&run.expanded().rules.tokens), "a");
}

#[test]
fn deeply_nested_arguments() {
    // f(f(f(…f(x)…))) with 20 000 levels of parentheses in one section.
    const DEPTH: usize = 20_000;
    let text = format!("{HEADER}#f(a) = [a]\n#rules = {}x{}", "f(".repeat(DEPTH), ")".repeat(DEPTH));
    let run = run(&text);
    let rules = &run.expanded().rules;
    assert!(rules.error.is_none());
    assert_eq!(rules.tokens.len(), 2 * DEPTH + 1);
}

// ------------------------------------------------------------------------------------------
// The corpus (spec section 15): every game expands without any diagnostic

fn corpus_expansions() -> Option<Vec<(String, Run)>> {
    let dir = corpus_support::corpus()?;
    let games = corpus_support::corpus_games(&dir);
    assert_eq!(games.len(), 75, "the corpus has 75 games");
    Some(
        games
            .into_iter()
            .map(|(name, bytes)| {
                let text = String::from_utf8(bytes).expect("corpus games are UTF-8");
                (name, run(&text))
            })
            .collect(),
    )
}

#[test]
fn corpus_games_expand_without_diagnostics() {
    let Some(runs) = corpus_expansions() else { return };
    for (name, run) in &runs {
        assert_eq!(messages(&run.warnings), Vec::<&str>::new(), "{name}");
        let expanded = run.expanded();
        for kind in SectionKind::ALL {
            let section = expanded.section(kind);
            assert!(section.error.is_none(), "{name} #{}: {:?}", kind.name(), section.error);
            assert!(!section.tokens.is_empty() || kind == SectionKind::Variables, "{name} #{}", kind.name());
        }
    }
}

/// The tokens of one `#section = …` line of a lowered file.
fn lowered_section(lowered: &str, keyword: &str) -> Vec<String> {
    let start = lowered.find(&format!("#{keyword} =")).expect("lowered file has every section");
    let rest = &lowered[start + 1..];
    let body = &rest[..rest.find('#').unwrap_or(rest.len())];
    let tokens = lex(body.as_bytes()).expect("lowered text lexes").tokens;
    tokens.iter().skip(2).map(|t| t.kind.to_string()).collect()
}

fn words(tokens: &[Token]) -> BTreeSet<String> {
    tokens.iter().filter(|t| matches!(t.kind, TokenKind::Ident(_))).map(|t| t.kind.to_string()).collect()
}

/// Declarations can be compared with the reference's lowered output directly: players in
/// declaration order, pieces and variables as sets (the lowered form prints them sorted).
#[test]
fn corpus_declarations_match_the_reference() {
    let Some(runs) = corpus_expansions() else { return };
    let lowered_dir = corpus_support::lowered_dir();
    for (name, run) in &runs {
        let lowered = std::fs::read_to_string(lowered_dir.join(name)).expect("lowered file exists");
        let expanded = run.expanded();
        // Declaration lists accept stray commas; the lowered form has none.
        let without_stray_commas = |tokens: &[Token]| {
            let mut spelled: Vec<String> = Vec::new();
            for token in tokens {
                let comma = token.is_sym(Sym::Comma);
                if !(comma && spelled.last().is_none_or(|last| last == ",")) {
                    spelled.push(token.kind.to_string());
                }
            }
            if spelled.last().is_some_and(|last| last == ",") {
                spelled.pop();
            }
            spelled
        };
        assert_eq!(
            without_stray_commas(&expanded.players.tokens),
            lowered_section(&lowered, "players"),
            "{name}"
        );
        let set = |v: Vec<String>| v.into_iter().filter(|s| s != ",").collect::<BTreeSet<_>>();
        assert_eq!(
            set(without_stray_commas(&expanded.pieces.tokens)),
            set(lowered_section(&lowered, "pieces")),
            "{name}"
        );
        let lowered_variables = lowered_section(&lowered, "variables");
        let variable_names: BTreeSet<String> = without_stray_commas(&expanded.variables.tokens)
            .into_iter()
            .filter(|s| s.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
            .collect();
        let lowered_names: BTreeSet<String> = lowered_variables
            .into_iter()
            .filter(|s| s.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
            .collect();
        assert_eq!(variable_names, lowered_names, "{name}");
        // Every name in the expanded rules appears in the lowered rules and vice versa.
        let lowered_rules = lex(lowered_section_text(&lowered, "rules").as_bytes()).unwrap().tokens;
        assert_eq!(words(&expanded.rules.tokens), words(&lowered_rules), "{name}");
    }
}

fn lowered_section_text<'a>(lowered: &'a str, keyword: &str) -> &'a str {
    let start = lowered.find(&format!("#{keyword} =")).expect("lowered file has every section");
    let rest = &lowered[start + keyword.len() + 3..];
    &rest[..rest.find('#').unwrap_or(rest.len())]
}

#[test]
fn corpus_tic_tac_toe_switches_to_xplayer() {
    let Some(runs) = corpus_expansions() else { return };
    let (_, run) = runs.iter().find(|(name, _)| name == "ticTacToe.rbg").expect("ticTacToe is in the corpus");
    let tokens = &run.expanded().rules.tokens;
    let switch_targets: Vec<String> =
        tokens.windows(2).filter(|w| w[0].is_sym(Sym::Arrow)).map(|w| w[1].kind.to_string()).collect();
    assert_eq!(switch_targets, ["xplayer", "oplayer"]);
    // The pasted `xplayer` comes from `me~player` in the body of `turn`, `me` being `x`.
    let arrow = tokens.iter().position(|t| t.is_sym(Sym::Arrow)).unwrap();
    let xplayer = &tokens[arrow + 1];
    assert_eq!(run.source.snippet(xplayer.span), "x");
    let trail = run.expanded().trails.frames(xplayer.trail);
    assert!(matches!(&trail[..], [TrailFrame::Argument { param, .. }, TrailFrame::Macro { name, .. }]
        if param == "me" && name == "turn"));
}
