//! Where the generator uses word tests (design notes 6.3), read off the generated source. That
//! they are right is tested end to end in `rbg-cli/tests/word_tests.rs` (against the
//! interpreter, with the switch on and off, and a count by hand) and by the corpus conformance
//! tests.

mod common;

use common::source;
use rbg_compiler::CompileOptions;

use common::DROP_RULES;

#[test]
fn a_pattern_of_several_terms_is_tested_by_words() {
    let code = source(7, 6, DROP_RULES, &CompileOptions::default());
    assert!(code.contains("fn cell_pattern_"), "{code}");
    // Five terms at a middle cell, over one piece word.
    assert!(code.contains("; 1]; 5]; VERTICES + 1]"), "{code}");
    // The drop visits the bits of one word: the column's empty cells above a non-empty one.
    assert!(code.contains("static FAN_"), "{code}");
    assert!(code.contains("& !word_pattern_"), "{code}");
    // Its continuation has one edge, run inline at the bits without the tests they passed.
    assert!(code.contains("let v = w;"), "{code}");
}

#[test]
fn a_continuation_of_two_edges_is_called() {
    // The same drop, then one of two pieces: either edge's tests may be the ones a bit passed.
    let rules = DROP_RULES
        .replace("[x] ->b)*", "([x] + [o]) ->b)*")
        .replace("{e} {! down {e}}", "({e} {! down {e}} [x] + {e} {! down {e}} [o])");
    let code = source(7, 6, &rules, &CompileOptions::default());
    assert!(code.contains("& !word_pattern_"), "{code}");
    assert!(!code.contains("let v = w;"), "{code}");
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

/// Breakthrough's shape on the test board: `x` moves up, `o` down, each a step straight onto an
/// empty cell or diagonally onto an empty or enemy cell; the keeper puts the pawn.
fn stepping_rules(x_step: &str) -> String {
    format!(
        "(->a (up* + down*) (left* + right*) {{x}} [e] {x_step} ->> [x] \
         ->b (up* + down*) (left* + right*) {{o}} [e] down ({{e}} + (left + right) {{e, x}}) ->> [o])*"
    )
}

const BREAKTHROUGH_STEP: &str = "up ({e} + (left + right) {e, o})";

#[test]
fn steps_along_translations_are_counted_set_at_a_time() {
    let code = source(8, 8, &stepping_rules(BREAKTHROUGH_STEP), &CompileOptions::default());
    // Both players' positions, three steps each.
    assert_eq!(code.matches("fn set_count_").count(), 2, "{code}");
    assert!(code.contains("fn set_nth_"), "{code}");
    assert_eq!(code.matches("-> [BoardSet; 3]").count(), 2, "{code}");
    // Moving up is moving 8 cells back: the empty cells' word moves forward to the movers.
    assert!(code.contains("<< 8)"), "{code}");
    assert!(code.contains("<< 9)") && code.contains("<< 7)"), "{code}");
    assert!(code.contains(">> 8)") && code.contains(">> 9)") && code.contains(">> 7)"), "{code}");
    let off = CompileOptions { set_moves: false, ..CompileOptions::default() };
    assert!(!source(8, 8, &stepping_rules(BREAKTHROUGH_STEP), &off).contains("set_count_"));
    // Count and replay and children off: nothing to serve.
    let off = CompileOptions { count_replay: false, visit_children: false, ..CompileOptions::default() };
    assert!(!source(8, 8, &stepping_rules(BREAKTHROUGH_STEP), &off).contains("set_count_"));
}

#[test]
fn other_shapes_keep_the_search() {
    let searched = |step: &str| {
        let code = source(8, 8, &stepping_rules(step), &CompileOptions::default());
        // Only `o`'s position (unchanged) is generated set-at-a-time.
        code.matches("fn set_count_").count() == 1
    };
    assert!(!searched("up {e}"));
    // A test on a cell passed over.
    assert!(searched("up {e} up {e}"));
    // A second modifier on the way.
    assert!(searched("up [o] up {e}"));
    // A fan at the mover's cell.
    assert!(searched("(up + down)* {e}"));
    // An assignment.
    assert!(searched("up {e} [$ a = 1]"));
}
