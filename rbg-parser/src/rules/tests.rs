//! Rules tests: grouping (7.2), suffixes and typing (7.3, 8), lowering and indices (9).
//! Expected trees are written by hand from the spec.

use crate::ir::{Action, ActionKind, Arith, RelOp, Rule};
use crate::test_support::{at, at_end, build, Built};

/// Ids: pieces b=0, e=1, w=2; scores white=0, black=1; variables x=2, y=3, z=4; labels
/// down=0, left=1, right=2, up=3. The rules come last.
const HEADER: &str = "#players = white(5), black(5)\n#pieces = e, w, b\n#variables = x(10), y(10), z(10)\n\
                      #board = rectangle(up,down,left,right, [e,w])\n#rules = ";
const B: u32 = 0;
const E: u32 = 1;
const W: u32 = 2;
const WHITE: u32 = 0;
const BLACK: u32 = 1;
const X: u32 = 2;
const Y: u32 = 3;
const Z: u32 = 4;
const DOWN: u32 = 0;
const LEFT: u32 = 1;
const RIGHT: u32 = 2;
const UP: u32 = 3;

fn rules(text: &str) -> Built {
    build(&format!("{HEADER}{text}"))
}

fn lowered(text: &str) -> Rule {
    rules(text).game().rules.clone()
}

/// The rules with every index set to 0, to compare shapes only.
fn shape(text: &str) -> Rule {
    let mut rule = lowered(text);
    clear_indices(&mut rule);
    rule
}

fn clear_indices(rule: &mut Rule) {
    match rule {
        Rule::Concat(children) | Rule::Alt(children) => {
            for child in children {
                clear_indices(child);
            }
        }
        Rule::Star(body) => clear_indices(body),
        Rule::Action(action) => {
            action.index = 0;
            if let ActionKind::Pattern { body, .. } = &mut action.kind {
                clear_indices(body);
            }
        }
    }
}

/// The error of `text` with the position of the `nth` occurrence of `needle` in the rules.
fn error_at(text: &str, message: &str, needle: &str, nth: usize) {
    let full = format!("{HEADER}{text}");
    let skip = HEADER.matches(needle).count();
    assert_eq!(rules(text).error(), at(message, &full, needle, skip + nth), "rules: {text}");
}

fn act(kind: ActionKind, index: u32) -> Rule {
    Rule::Action(Action { kind, index })
}
fn shift(label: u32) -> Rule {
    act(ActionKind::Shift(label), 0)
}
fn on(pieces: &[u32]) -> Rule {
    act(ActionKind::On(pieces.to_vec()), 0)
}
fn off(piece: u32) -> Rule {
    act(ActionKind::Off(piece), 0)
}
fn assign(var: u32, value: Arith) -> Rule {
    act(ActionKind::Assign(var, value), 0)
}
fn compare(left: Arith, op: RelOp, right: Arith) -> Rule {
    act(ActionKind::Compare(left, op, right), 0)
}
fn cat(children: Vec<Rule>) -> Rule {
    Rule::Concat(children)
}
fn alt(children: Vec<Rule>) -> Rule {
    Rule::Alt(children)
}
fn star(body: Rule) -> Rule {
    Rule::Star(Box::new(body))
}
fn n(value: i64) -> Arith {
    Arith::Const(value)
}
fn var(v: u32) -> Arith {
    Arith::Var(v)
}
/// The arithmetic of `[$ x = <expr>]`.
fn arith(expr: &str) -> Arith {
    match shape(&format!("[$ x = {expr}]")) {
        Rule::Action(Action { kind: ActionKind::Assign(X, value), .. }) => value,
        other => panic!("not an assignment to x: {other:?}"),
    }
}

#[test]
fn multiplication_and_division_levels() {
    // `/` binds tighter than `*`: 3 * 5 / 2 is 3 * (5 / 2).
    assert_eq!(arith("3 * 5 / 2"), Arith::Product(vec![n(3), Arith::Quotient(vec![n(5), n(2)])]));
    assert_eq!(arith("y / z * 2"), Arith::Product(vec![Arith::Quotient(vec![var(Y), var(Z)]), n(2)]));
    assert_eq!(
        arith("y * z / 2 * 3"),
        Arith::Product(vec![var(Y), Arith::Quotient(vec![var(Z), n(2)]), n(3)])
    );
    assert_eq!(arith("y / z / 2"), Arith::Quotient(vec![var(Y), var(Z), n(2)]));
}

#[test]
fn addition_and_subtraction_levels() {
    assert_eq!(arith("y - z + 1"), Arith::Sum(vec![Arith::Difference(vec![var(Y), var(Z)]), n(1)]));
    assert_eq!(arith("y + z - 1"), Arith::Sum(vec![var(Y), Arith::Difference(vec![var(Z), n(1)])]));
    // A run of one operator is one n-ary node; `-` folds left.
    assert_eq!(arith("y - z - 1"), Arith::Difference(vec![var(Y), var(Z), n(1)]));
    assert_eq!(arith("y + z * 2"), Arith::Sum(vec![var(Y), Arith::Product(vec![var(Z), n(2)])]));
}

#[test]
fn arithmetic_normalisation_merges_only_sums_and_products() {
    assert_eq!(arith("(y + z) + (1 + 2)"), Arith::Sum(vec![var(Y), var(Z), n(1), n(2)]));
    assert_eq!(arith("y * (z * 2)"), Arith::Product(vec![var(Y), var(Z), n(2)]));
    assert_eq!(arith("y - (z - 1)"), Arith::Difference(vec![var(Y), Arith::Difference(vec![var(Z), n(1)])]));
    assert_eq!(arith("(y - z) - 1"), Arith::Difference(vec![Arith::Difference(vec![var(Y), var(Z)]), n(1)]));
    assert_eq!(arith("(y / z) / 2"), Arith::Quotient(vec![Arith::Quotient(vec![var(Y), var(Z)]), n(2)]));
    assert_eq!(arith("((y))"), var(Y));
}

#[test]
fn arithmetic_operands() {
    // A piece is its count, a player its score; `+5` and `-0` are unsigned literals.
    assert_eq!(arith("w + black"), Arith::Sum(vec![Arith::Count(W), var(BLACK)]));
    assert_eq!(arith("+5"), n(5));
    assert_eq!(arith("-0"), n(0));
    assert_eq!(arith("2147483647"), n(2147483647));
    assert_eq!(shape("[$ white = 1]"), assign(WHITE, n(1)));
}

#[test]
fn moves_juxtaposition_binds_tighter_than_plus() {
    assert_eq!(
        shape("up left + right down"),
        alt(vec![cat(vec![shift(UP), shift(LEFT)]), cat(vec![shift(RIGHT), shift(DOWN)])])
    );
    assert_eq!(shape("up + left right"), alt(vec![shift(UP), cat(vec![shift(LEFT), shift(RIGHT)])]));
    // Parentheses disappear; nested concatenations and alternatives are flattened.
    assert_eq!(shape("(up (left right)) down"), cat(vec![shift(UP), shift(LEFT), shift(RIGHT), shift(DOWN)]));
    assert_eq!(shape("up + (left + (right))"), alt(vec![shift(UP), shift(LEFT), shift(RIGHT)]));
}

#[test]
fn assignment_lists_group_below_arithmetic() {
    // `[$ x = y + 1, z = 2]` is `(x = (y + 1)), (z = 2)`: a sequence of assignments.
    assert_eq!(
        shape("[$ x = y + 1, z = 2]"),
        cat(vec![assign(X, Arith::Sum(vec![var(Y), n(1)])), assign(Z, n(2))])
    );
    assert_eq!(
        shape("{$ x + 1 <= y * 2}"),
        compare(Arith::Sum(vec![var(X), n(1)]), RelOp::Le, Arith::Product(vec![var(Y), n(2)]))
    );
    for (op, rel) in
        [("==", RelOp::Eq), ("!=", RelOp::Ne), ("<", RelOp::Lt), (">", RelOp::Gt), (">=", RelOp::Ge)]
    {
        assert_eq!(shape(&format!("{{$ x {op} 1}}")), compare(var(X), rel, n(1)));
    }
}

#[test]
fn comparison_chains_fail_typing() {
    error_at("{$ x < y < z}", "less cannot be applied to: variable, variable, variable", "<", 0);
    // `==` binds tighter than `<`: x < (y == z).
    error_at("{$ x < y == z}", "less cannot be applied to: variable, integer comparison", "<", 0);
    error_at("[$ x = y < 1]", "assignment cannot be applied to: variable, integer comparison", "=", 0);
}

#[test]
fn offs_ons_and_lists() {
    assert_eq!(shape("[w, e]"), alt(vec![off(W), off(E)]));
    assert_eq!(shape("[w, w]"), alt(vec![off(W), off(W)]));
    assert_eq!(shape("[w]"), off(W));
    assert_eq!(shape("[]"), alt(vec![]));
    assert_eq!(shape("{w, e, w}"), on(&[E, W]));
    assert_eq!(shape("{}"), on(&[]));
    assert_eq!(shape("up [] down"), cat(vec![shift(UP), alt(vec![]), shift(DOWN)]));
}

#[test]
fn suffixes() {
    assert_eq!(shape("up*"), star(shift(UP)));
    assert_eq!(shape("({e})*"), star(on(&[E])));
    assert_eq!(shape("(up^2)*"), star(cat(vec![shift(UP), shift(UP)])));
    // `^n` is max(n, 1) copies.
    assert_eq!(shape("up^0"), shift(UP));
    assert_eq!(shape("up^1"), shift(UP));
    assert_eq!(
        shape("(up left)^3"),
        cat(vec![shift(UP), shift(LEFT), shift(UP), shift(LEFT), shift(UP), shift(LEFT)])
    );
    // Suffixes on switches and the no-op.
    assert_eq!(shape("->white*"), star(act(ActionKind::SwitchPlayer(WHITE), 0)));
    assert_eq!(shape("->>^2"), cat(vec![act(ActionKind::SwitchKeeper, 0), act(ActionKind::SwitchKeeper, 0)]));
    assert_eq!(shape(".*"), star(act(ActionKind::Noop, 0)));
    assert_eq!(shape("(.)*"), star(act(ActionKind::Noop, 0)));
}

#[test]
fn a_star_after_a_non_move_primary_is_multiplication() {
    error_at("{e}* up", "multiplication cannot be applied to: on move, shift move", "*", 0);
    error_at("[e]* up", "multiplication cannot be applied to: offs move, shift move", "*", 0);
    error_at("[$ x=1]* up", "multiplication cannot be applied to: assignments move, shift move", "*", 0);
    error_at("{$ x<1}* up", "multiplication cannot be applied to: arithmetic check, shift move", "*", 0);
    // A second suffix is a multiplication too.
    error_at("up^2* left", "multiplication cannot be applied to: move expression, shift move", "*", 0);
    error_at("up** left", "multiplication cannot be applied to: move expression, shift move", "*", 1);
    // After arithmetic in brackets `*` is multiplication, which is fine.
    assert_eq!(arith("(y + 1) * 2"), Arith::Product(vec![Arith::Sum(vec![var(Y), n(1)]), n(2)]));
}

#[test]
fn patterns() {
    assert_eq!(
        shape("{? up {e}} {! down}"),
        cat(vec![
            act(ActionKind::Pattern { positive: true, body: Box::new(cat(vec![shift(UP), on(&[E])])) }, 0),
            act(ActionKind::Pattern { positive: false, body: Box::new(shift(DOWN)) }, 0),
        ])
    );
    error_at("{? up}*", "condition brackets cannot be applied to shift move (with star)", "{?", 0);
    error_at(
        "{! up}^2",
        "negated condtition brackets cannot be applied to shift move (with number power)",
        "{!",
        0,
    );
}

#[test]
fn bracket_typing_errors() {
    let cases = [
        ("()", "standard brackets cannot be applied to pieces sequence (with no suffix)", "("),
        ("{?}", "condition brackets cannot be applied to pieces sequence (with no suffix)", "{?"),
        ("{!}", "negated condtition brackets cannot be applied to pieces sequence (with no suffix)", "{!"),
        ("[$]", "assignment bracket cannot be applied to pieces sequence (with no suffix)", "[$"),
        ("{$}", "comparison bracket cannot be applied to pieces sequence (with no suffix)", "{$"),
        ("{w + e}", "curly on bracket cannot be applied to arithmetic expression (with no suffix)", "{"),
        ("[x]", "modifier bracket cannot be applied to variable (with no suffix)", "["),
        ("(w, e)", "standard brackets cannot be applied to pieces sequence (with no suffix)", "("),
        ("{$ x}", "comparison bracket cannot be applied to variable (with no suffix)", "{$"),
        ("[$ x]", "assignment bracket cannot be applied to variable (with no suffix)", "[$"),
        ("{? x}", "condition brackets cannot be applied to variable (with no suffix)", "{?"),
    ];
    for (text, message, needle) in cases {
        error_at(text, message, needle, 0);
    }
}

#[test]
fn operator_typing_errors() {
    let cases = [
        ("{w e}", "concatenation cannot be applied to: piece name, piece name", "w"),
        ("up + 1", "addition cannot be applied to: shift move, unsigned integer", "+"),
        ("up - down", "subtraction cannot be applied to: shift move, shift move", "-"),
        ("[$ x = y / -1]", "division cannot be applied to: variable, integer", "/"),
        ("[w, x = 1]", "comma cannot be applied to: piece name, assignment", ","),
        ("[$ w = 1]", "assignment cannot be applied to: piece name, unsigned integer", "="),
        ("[$ x = -1]", "assignment cannot be applied to: variable, integer", "="),
        ("[$ x = 2147483648]", "assignment cannot be applied to: variable, integer", "="),
        ("{$ x > -1}", "greater cannot be applied to: variable, integer", ">"),
        ("{$ x <= up}", "less or equal cannot be applied to: variable, shift move", "<="),
        ("{$ x >= {e}}", "greater or equal cannot be applied to: variable, on move", ">="),
        ("{$ x == -3}", "equal cannot be applied to: variable, integer", "=="),
        ("{$ x != -3}", "not equal cannot be applied to: variable, integer", "!="),
        ("{$ x < -3}", "less cannot be applied to: variable, integer", "<"),
    ];
    for (text, message, needle) in cases {
        error_at(text, message, needle, 0);
    }
}

#[test]
fn the_whole_rules_must_be_a_move() {
    let text = HEADER.to_string();
    assert_eq!(
        rules("").error(),
        at_end("Segment 'rules' is of type 'pieces sequence' (should be move  expression)", &text)
    );
    error_at(
        "x + 1",
        "Segment 'rules' is of type 'arithmetic expression' (should be move  expression)",
        "x",
        0,
    );
    error_at("w", "Segment 'rules' is of type 'piece name' (should be move  expression)", "w", 0);
}

#[test]
fn names_must_be_declared() {
    error_at("up foo", "Identifier 'foo' not declared", "foo", 0);
    // Vertex names are not usable in the rules.
    error_at("rx0y0", "Identifier 'rx0y0' not declared", "rx0y0", 0);
    error_at("->e", "Player e was not declared", "e", 0);
    error_at("->x", "Player x was not declared", "x", 0);
}

#[test]
fn syntax_errors() {
    let cases = [
        ("(-x)", "Expected digit, encountered 'x'", "x"),
        ("-> >", "Expected identifier, encountered '>'", " >"),
        ("->{}", "Expected identifier, encountered '{'", "{"),
        ("up^x", "Expected number, encountered 'x'", "x"),
        ("(up + )", "Expected some operand, encountered ')'", ")"),
        ("{w,}", "Expected some operand, encountered '}'", "}"),
        ("{,w}", "Expected corresponding '}', encountered ','", ","),
        ("(up]", "Expected corresponding ')', encountered ']'", "]"),
        ("[w)", "Expected corresponding ']', encountered ')'", ")"),
        ("[$ x = 1}", "Expected corresponding ']', encountered '}'", "}"),
        ("{w]", "Expected corresponding '}', encountered ']'", "]"),
        ("{? up)", "Expected corresponding '}', encountered ')'", ")"),
        ("(up +>", "Expected corresponding ')', encountered '+>'", "+>"),
    ];
    for (text, message, needle) in cases {
        // A needle with a leading space stands for the token after the space.
        let (line, col) = {
            let full = format!("{HEADER}{text}");
            let skip = HEADER.matches(needle).count();
            crate::test_support::pos(&full, needle, skip)
        };
        let col = if needle.starts_with(' ') { col + 1 } else { col };
        assert_eq!(rules(text).error(), (message.to_string(), line, col), "rules: {text}");
    }
}

#[test]
fn input_ending_inside_an_expression() {
    let cases = [
        ("up +", "Unexpected end of input while parsing expression"),
        ("(up", "Unexpected end of input while parsing expression"),
        ("{? up", "Unexpected end of input while parsing expression"),
        ("[$ x = -", "Unexpected end of input while parsing integer"),
        ("up^", "Unexpected end of input while parsing integer"),
        ("up ->", "Unexpected end of input while parsing arrow expression"),
    ];
    for (text, message) in cases {
        let full = format!("{HEADER}{text}");
        assert_eq!(rules(text).error(), at_end(message, &full), "rules: {text}");
    }
}

#[test]
fn trailing_tokens_only_warn() {
    for (text, needle) in
        [("up ) left", ")"), ("up +> left", "+>"), ("up \"s\"", "\""), ("{e}^2", "^"), ("up rules", "rules")]
    {
        let built = rules(text);
        let full = format!("{HEADER}{text}");
        let skip = HEADER.matches(needle).count();
        assert_eq!(
            built.warnings(),
            [at("Unexpected tokens at the end of 'rules' segment", &full, needle, skip)]
        );
        assert!(built.result.is_ok(), "{text}");
    }
    assert_eq!(shape("up ) left"), shift(UP));
}

#[test]
fn numbering_example_of_section_9_2() {
    let text = "#players = w(1)\n#pieces = e, x, y, z\n#variables = s(5), t(5)\n\
                #board = rectangle(up,down,left,right, [e])\n\
                #rules = ->w {e} [x] up [y] {? [z] down} [$ s=1, t=2] ->>";
    let game = build(text).game().clone();
    // Pieces e=0, x=1, y=2, z=3; labels down=0, left=1, right=2, up=3; s=1, t=2 (after w's score).
    let expected = cat(vec![
        act(ActionKind::SwitchPlayer(0), 1),
        act(ActionKind::On(vec![0]), 2),
        act(ActionKind::Off(1), 2),
        act(ActionKind::Shift(3), 3),
        act(ActionKind::Off(2), 3),
        act(
            ActionKind::Pattern {
                positive: true,
                body: Box::new(cat(vec![act(ActionKind::Off(3), 0), act(ActionKind::Shift(0), 0)])),
            },
            4,
        ),
        act(ActionKind::Assign(1, n(1)), 4),
        act(ActionKind::Assign(2, n(2)), 5),
        act(ActionKind::SwitchKeeper, 6),
    ]);
    assert_eq!(game.rules, expected);
    assert_eq!(game.modifiers, 6);
}

#[test]
fn copies_and_branches_get_their_own_numbers_and_stars_are_numbered_once() {
    let rule = lowered("([w] ->white)^2 [w, e] (up [b])* ->>");
    let expected = cat(vec![
        act(ActionKind::Off(W), 1),
        act(ActionKind::SwitchPlayer(WHITE), 2),
        act(ActionKind::Off(W), 3),
        act(ActionKind::SwitchPlayer(WHITE), 4),
        alt(vec![act(ActionKind::Off(W), 5), act(ActionKind::Off(E), 6)]),
        star(cat(vec![act(ActionKind::Shift(UP), 7), act(ActionKind::Off(B), 7)])),
        act(ActionKind::SwitchKeeper, 8),
    ]);
    assert_eq!(rule, expected);
}

#[test]
fn deep_nesting_is_capped_and_does_not_overflow() {
    use super::parse::MAX_NESTING;
    // Alternating concatenations and alternatives keep every level in the lowered tree.
    let deep = |levels: usize| {
        let mut text = String::new();
        for _ in 0..levels {
            text.push_str("(up + left ");
        }
        text.push_str("down");
        text.push_str(&")".repeat(levels));
        text
    };
    let built = rules(&deep(MAX_NESTING));
    assert!(!crate::print::print_game(built.game()).is_empty());
    // Nested patterns and stars, printed too.
    let patterns = format!("{}up{}", "{? down ".repeat(MAX_NESTING), "}".repeat(MAX_NESTING));
    assert!(!crate::print::print_game(rules(&patterns).game()).is_empty());
    let stars = format!("{}up{}", "(left ".repeat(MAX_NESTING), ")*".repeat(MAX_NESTING));
    assert!(!crate::print::print_game(rules(&stars).game()).is_empty());
    let text = deep(MAX_NESTING + 1);
    let message = format!("Brackets are nested too deeply (more than {MAX_NESTING} levels)");
    let full = format!("{HEADER}{text}");
    assert_eq!(rules(&text).error(), at(&message, &full, "(", HEADER.matches('(').count() + MAX_NESTING));
    // Deep arithmetic too.
    let mut arith = String::from("[$ x = ");
    for _ in 0..MAX_NESTING - 1 {
        arith.push_str("(y - ");
    }
    arith.push('1');
    arith.push_str(&")".repeat(MAX_NESTING - 1));
    arith.push(']');
    assert!(rules(&arith).result.is_ok());
}

#[test]
fn huge_powers_are_refused() {
    use super::lower::MAX_COPIED_NODES;
    let message = format!("Powers '^n' make the rules too large (more than {MAX_COPIED_NODES} copied nodes)");
    error_at("up^4000000000", &message, "up", 0);
    error_at("((up^2000)^2000)", &message, "(", 1);
    // Many powers that are each small enough still add up.
    let many = vec!["up^100000"; 30].join(" ");
    assert_eq!(rules(&many).error().0, message);
    assert!(rules("up^1000").result.is_ok());
}

#[test]
fn type_names_in_messages() {
    let cases = [
        ("up + white", "addition cannot be applied to: shift move, player name", "+"),
        ("{? up} + x", "addition cannot be applied to: move check, variable", "+"),
        ("[$ x = 1] - [w]", "subtraction cannot be applied to: assignments move, offs move", "-"),
        ("{e} * (up down)", "multiplication cannot be applied to: on move, move expression", "*"),
        ("{$ x < 1} / 2", "division cannot be applied to: arithmetic check, unsigned integer", "/"),
        (
            "{x = 1, y = 2}",
            "curly on bracket cannot be applied to assignments sequence (with no suffix)",
            "{",
        ),
        ("{x = 1}", "curly on bracket cannot be applied to assignment (with no suffix)", "{"),
        ("[x < 1]", "modifier bracket cannot be applied to integer comparison (with no suffix)", "["),
        ("{$ 1 + 2}", "comparison bracket cannot be applied to arithmetic expression (with no suffix)", "{$"),
    ];
    for (text, message, needle) in cases {
        error_at(text, message, needle, 0);
    }
}

/// `(message, line, column)` of the `nth` occurrence of `needle` in the rules part of `text`
/// (after [`HEADER`]).
fn in_rules(message: &str, text: &str, needle: &str, nth: usize) -> (String, u32, u32) {
    at(message, text, needle, HEADER.matches(needle).count() + nth)
}

/// The labels of the error as `(message, line, column)` and its notes.
fn error_help(built: &Built) -> (Vec<(String, u32, u32)>, Vec<String>) {
    let Err(error) = &built.result else { panic!("expected an error") };
    let labels = error
        .labels
        .iter()
        .map(|l| {
            let (line, col) = built.source.line_col(l.span.start);
            (l.message.clone(), line, col)
        })
        .collect();
    (labels, error.notes.clone())
}

#[test]
fn a_wrong_closing_bracket_points_at_the_bracket_left_open() {
    // `[` opened after `up`, closed by `)`: the reference message is unchanged (at the `)`),
    // the label is on the `[` and the note names the expected `]`.
    let text = format!("{HEADER}up ([w) down");
    let built = build(&text);
    assert_eq!(built.error(), in_rules("Expected corresponding ']', encountered ')'", &text, ")", 0));
    let (labels, notes) = error_help(&built);
    assert_eq!(labels, [in_rules("this '[' is not closed", &text, "[", 0)]);
    assert_eq!(notes, ["expected ']' here to close '['; brackets close innermost first"]);
}

#[test]
fn an_unclosed_paren_at_the_end_points_at_the_innermost_open_bracket() {
    // Two brackets open at the end: the label is on the inner `(` (the second one).
    let text = format!("{HEADER}(up (down left");
    let built = build(&text);
    assert_eq!(built.error(), at_end("Unexpected end of input while parsing expression", &text));
    let (labels, notes) = error_help(&built);
    assert_eq!(labels, [in_rules("this '(' is not closed", &text, "(", 1)]);
    assert_eq!(notes, ["expected ')' before the end of the section to close '('"]);
}

#[test]
fn an_unclosed_bracket_before_a_missing_operand_is_labelled() {
    // The end of input comes where an operand is expected, inside `{`.
    let text = format!("{HEADER}up {{w,");
    let built = build(&text);
    assert_eq!(built.error(), at_end("Unexpected end of input while parsing expression", &text));
    let (labels, _) = error_help(&built);
    assert_eq!(labels, [in_rules("this '{' is not closed", &text, "{", 0)]);
}

#[test]
fn other_errors_get_no_bracket_label() {
    let text = format!("{HEADER}(up nowhere)");
    let built = build(&text);
    assert_eq!(built.error(), in_rules("Identifier 'nowhere' not declared", &text, "nowhere", 0));
    assert_eq!(error_help(&built), (vec![], vec![]));
}
