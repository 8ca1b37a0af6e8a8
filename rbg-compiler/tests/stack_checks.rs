//! Where generated searches guard their stack: chains walked by a node's last edge become
//! loops, other cycles of calls check the stack (see `rbg_core::stack`), and code without
//! cycles is left alone. Whether the code runs right on long boards is tested end to end in
//! `rbg-cli/tests/deep_boards.rs`.

use rbg_compiler::{generate_source, CompileOptions};

fn source(rules: &str) -> String {
    source_on(4, rules)
}

/// The generated source of a game on a 1×`cells` row of empty cells.
fn source_on(cells: usize, rules: &str) -> String {
    let row = vec!["e"; cells].join(", ");
    let text = format!(
        "#players = x(1), o(1)\n#pieces = e, p\n#variables =\n\
         #board = rectangle(up, down, left, right, [{row}])\n#rules = {rules}\n"
    );
    let out = rbg_parser::parse("test.rbg", text.as_bytes());
    let game = out.game.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    generate_source(&game, "test", &CompileOptions::default()).expect("generates")
}

#[test]
fn a_rules_loop_through_a_modifier_checks_the_stack() {
    // Each turn of `(right [p])*` applies a modifier, so it starts a new visited layer: the
    // depth is not bounded by the board, even on a short one.
    let code = source("->x (right [p])* ->>");
    assert!(code.contains("approximate_stack_pointer() < sc.stack_low"), "{code}");
    assert!(code.contains("_on_new_stack("), "{code}");
    assert!(code.contains("sc.stack_low = ::rbg_core::stack::low_water_mark(STACK_RED_ZONE)"), "{code}");
}

/// `(right {e})*` then a modifier: the node tries "one more step" first, so the call to itself
/// is followed by the exit edge and cannot be a loop. No modifier on the way, so one layer
/// enters each (node, cell) pair at most once: the depth is at most (cycle nodes x cells),
/// small on a short row (no check), large on a long one (checked).
#[test]
fn a_modifier_free_rules_loop_is_checked_only_where_its_bound_is_large() {
    const RULES: &str = "->x (right {e})* [p] ->>";
    let short = source_on(8, RULES);
    assert!(!short.contains("approximate_stack_pointer"), "{short}");
    let long = source_on(5000, RULES);
    assert!(long.contains("approximate_stack_pointer() < sc.stack_low"), "a 5000-cell walk unchecked");
}

#[test]
fn a_pattern_walk_ending_in_itself_is_a_loop_without_checks() {
    // The pattern tries its exit `{! right}` first (closest to acceptance) and the step right
    // last: the step is the loop's next iteration.
    let code = source("->x {? (right {e})* {! right}} [p] ->>");
    assert!(code.contains("'node: loop"), "{code}");
    assert!(!code.contains("approximate_stack_pointer"), "{code}");
    assert!(!code.contains("stack_low"), "{code}");
}

#[test]
fn acyclic_rules_have_no_checks() {
    let code = source("->x right right [p] ->>");
    assert!(!code.contains("stack_low") && !code.contains("'node: loop"), "{code}");
}

/// A pattern that may step right or left: one of the steps is not its last edge, so it
/// recurses rather than loops. One evaluation enters each (node, cell) pair at most once along
/// a path, so its depth is at most (pattern nodes × cells): small on a short row (no check; the
/// bound joins the red zone), large on a long one (checked).
#[test]
fn pattern_recursion_is_checked_only_where_its_bound_is_large() {
    const RULES: &str = "->x {? (right {e} + left {e})* right {p}} [p] ->>";
    let short = source_on(8, RULES);
    assert!(!short.contains("approximate_stack_pointer"), "{short}");
    let long = source_on(5000, RULES);
    assert!(
        long.contains("approximate_stack_pointer() < sc.stack_low"),
        "a 5000-cell pattern walk unchecked"
    );
}
