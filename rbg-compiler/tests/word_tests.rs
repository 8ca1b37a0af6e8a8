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
/// row through the cell (two terms: left-left and right-right).
const DROP_RULES: &str = "(->a (left* + right*) {e} ->> down* {e} {! down {e}} \
                          {! left {x} left {x} + right {x} right {x}} [x] ->b)*";

#[test]
fn a_pattern_of_several_terms_is_tested_by_words() {
    let code = source(7, 6, DROP_RULES, &CompileOptions::default());
    assert!(code.contains("fn cell_pattern_"), "{code}");
    // Two terms at a middle cell; one at a cell two from an edge.
    assert!(code.contains("; 2]; VERTICES + 1]"), "{code}");
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

#[test]
fn a_pattern_of_one_term_and_a_pattern_that_compares_stay_searches() {
    // `{? up {x}}` has one term at each cell: the search is as short.
    let code = source(5, 5, "(->a (left* + right*) {e} {? up {x}} [x] ->b)*", &CompileOptions::default());
    assert!(!code.contains("cell_pattern_"), "{code}");
    // A comparison reads variables, which no word holds.
    let rules = "(->a (left* + right*) {e} {? up {x} {$ a > 0} + down {x}} [x] ->b)*";
    let code = source(5, 5, rules, &CompileOptions::default());
    assert!(!code.contains("cell_pattern_"), "{code}");
    // The same pattern without the comparison has two terms.
    let code =
        source(5, 5, "(->a (left* + right*) {e} {? up {x} + down {x}} [x] ->b)*", &CompileOptions::default());
    assert!(code.contains("cell_pattern_"), "{code}");
}
