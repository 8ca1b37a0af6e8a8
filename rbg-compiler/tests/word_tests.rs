//! Where the generator uses word tests (design notes 6.3), read off the generated source. That
//! they are right is tested end to end in `rbg-cli/tests/word_tests.rs` (against the
//! interpreter, with the switch on and off, and a count by hand) and by the corpus conformance
//! tests.

use rbg_compiler::{generate_source, CompileOptions};

/// The generated source of a game on a `width`×`height` rectangle of empty cells.
fn source(width: usize, height: usize, rules: &str, options: &CompileOptions) -> String {
    let rows: String = (0..height).map(|_| format!("[{}]", vec!["e"; width].join(","))).collect();
    let text = format!(
        "#players = a(1), b(1)\n#pieces = e, x, o\n#variables =\n\
         #board = rectangle(up, down, left, right, {rows})\n\
         #rules = {rules}\n"
    );
    let out = rbg_parser::parse("test.rbg", text.as_bytes());
    let game = out.game.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    generate_source(&game, "test", options).expect("generates")
}

/// Connect-four's shape: a drop down the column the player picked, then a test of three in a
/// row from the cell (five terms away from the edges).
const DROP_RULES: &str = "(->a (left* + right*) {e} ->> down* {e} {! down {e}} \
                          {! left {x} left {x} + right {x} right {x} + down {x} down {x} \
                          + up left {x} up left {x} + up right {x} up right {x}} [x] ->b)*";

#[test]
fn a_pattern_of_several_terms_is_tested_by_words() {
    let code = source(7, 6, DROP_RULES, &CompileOptions::default());
    assert!(code.contains("fn cell_pattern_"), "{code}");
    // Five terms at a middle cell, over one piece word.
    assert!(code.contains("; 1]; 5]; VERTICES + 1]"), "{code}");
    // The drop visits the bits of one word: the column's empty cells above a non-empty one.
    assert!(code.contains("static FAN_"), "{code}");
    assert!(code.contains("& !word_pattern_"), "{code}");
}

#[test]
fn the_switch_turns_it_off() {
    let options = CompileOptions { word_tests: false, ..CompileOptions::default() };
    let code = source(7, 6, DROP_RULES, &options);
    for form in ["cell_pattern_", "word_pattern_", "_MASKS", "WORD_SLOT"] {
        assert!(!code.contains(form), "{form}: {code}");
    }
}

#[test]
fn boards_past_64_cells_use_128_bit_words_and_past_128_none() {
    // 9 x 8 = 72 cells.
    let code = source(9, 8, DROP_RULES, &CompileOptions::default());
    assert!(code.contains("type BoardSet = u128;"), "{code}");
    assert!(code.contains("fn cell_pattern_"), "{code}");
    // 12 x 11 = 132 cells.
    let code = source(12, 11, DROP_RULES, &CompileOptions::default());
    assert!(!code.contains("cell_pattern_") && !code.contains("BoardSet"), "{code}");
}

const FIVE_TERMS: &str = "up {x} + down {x} + left {x} + right {x} + up up {x}";

#[test]
fn patterns_of_few_terms_or_that_compare_stay_searches() {
    let rules = |pattern: &str| format!("(->a (left* + right*) {{e}} {{? {pattern}}} [x] ->b)*");
    let generated = |pattern: &str| source(5, 5, &rules(pattern), &CompileOptions::default());
    assert!(generated(FIVE_TERMS).contains("fn cell_pattern_"));
    // Four terms: the search is about as fast, and the words would cost every move.
    assert!(!generated("up {x} + down {x} + left {x} + right {x}").contains("cell_pattern_"));
    // Two piece sets.
    assert!(!generated("up {x} + down {o} + left {x} + right {x} + up up {x}").contains("cell_pattern_"));
    // A comparison reads variables, which no word holds.
    let compares = format!("{FIVE_TERMS} + down down {{x}} {{$ a > 0}}");
    assert!(!generated(&compares).contains("cell_pattern_"));
}
