//! Improper descriptions end with a clear error, never a hang or a panic.

use rbg_core::perft::{perft, DriverError, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::{Game, SearchError};
use rbg_interp::{BuildError, InterpOptions, Interpreter};
use rbg_parser::ir;

mod common;
use common::{read_game, with_baseline};

/// A strip of `n` cells in one row, linked by `right`/`left`, all holding `e`.
fn strip(n: u32) -> String {
    let cells = vec!["e"; n as usize].join(",");
    format!("#board = rectangle(up, down, left, right, [{cells}])\n")
}

fn build(rules: &str, cells: u32, options: InterpOptions) -> Interpreter {
    let text = format!(
        "{}#players = x(100),o(100)\n#pieces = e,p\n#variables = a(5)\n#rules = {rules}\n",
        strip(cells)
    );
    let game = read_game(text.as_bytes()).expect("parses");
    Interpreter::new(&game, "improper", options).expect("builds")
}

/// Perft to depth 1 fails with `expected`, with and without the program optimisations.
fn assert_perft_fails(rules: &str, cells: u32, limits: InterpOptions, expected: SearchError) {
    for options in with_baseline(limits) {
        let interp = build(rules, cells, options);
        let err = perft(&interp, 1, &PerftOptions::default()).unwrap_err();
        assert_eq!(err, DriverError::Search(expected.clone()), "{rules}");
    }
}

#[test]
fn unbounded_moves_fail_with_move_too_long() {
    // `([p][e])*` inside a move: every iteration is a new modifier layer, so the search never
    // runs out of new states; the modifier bound stops it.
    let limits = InterpOptions { max_modifiers: 64, ..Default::default() };
    assert_perft_fails("->x ([p][e])* ->>", 2, limits, SearchError::MoveTooLong { limit: 64 });
}

#[test]
fn unbounded_patterns_fail_with_move_too_long() {
    let limits = InterpOptions { max_modifiers: 64, ..Default::default() };
    assert_perft_fails("->x {? ([p][e])* left} ->>", 2, limits, SearchError::MoveTooLong { limit: 64 });
}

#[test]
fn exploding_searches_fail_with_search_too_large() {
    // A proper but exponential move: 2^39 ways to write the 40-cell strip.
    let limits = InterpOptions { max_search_nodes: 100_000, ..Default::default() };
    let expected = SearchError::SearchTooLarge { limit: 100_000 };
    assert_perft_fails("->x (([p] + [e]) right)* ->>", 40, limits, expected);
}

#[test]
fn keeper_loops_fail_with_keeper_loop() {
    // The keeper keeps switching to itself.
    for options in with_baseline(InterpOptions::default()) {
        let interp = build("->x [p] ->> ([$ a=1] ->>)*", 2, options);
        let opts = PerftOptions { keeper_limit: 1000, ..Default::default() };
        let err = perft(&interp, 1, &opts).unwrap_err();
        assert_eq!(err, DriverError::Search(SearchError::KeeperLoop { limit: 1000 }));
        // Before the loop starts, counting still works.
        let ok = perft(&interp, 0, &opts).unwrap();
        assert_eq!((ok.leaves, ok.nodes), (1, 1));
    }
}

#[test]
fn endless_play_fails_with_playout_too_long() {
    for options in with_baseline(InterpOptions::default()) {
        let interp = build("(->x ->o)*", 1, options);
        let opts = McOptions { limit: McLimit::Playouts(1), max_plies: 500, ..Default::default() };
        let err = flat_monte_carlo(&interp, &opts, |_| {}).unwrap_err();
        assert_eq!(err, DriverError::Search(SearchError::PlayoutTooLong { limit: 500 }));
    }
}

#[test]
fn ambiguous_keeper_is_detected_in_checked_mode() {
    let rules = "([$ a=1] + [$ a=2]) ->x [p] ->> {}";
    // Unchecked: the first keeper move found wins (a = 1).
    let interp = build(rules, 1, InterpOptions::default());
    let mut s = interp.initial_state();
    let mut sc = interp.new_scratch();
    assert!(interp.complete_keeper(&mut s, &mut sc, 10).unwrap());
    assert_eq!(interp.variable(&s, 2), 1);
    // Checked: two keeper moves lead to different states.
    for options in with_baseline(InterpOptions { checked_keeper: true, ..Default::default() }) {
        let interp = build(rules, 1, options);
        let err = perft(&interp, 1, &PerftOptions::default()).unwrap_err();
        assert_eq!(err, DriverError::Search(SearchError::AmbiguousKeeper));
    }
    // Two keeper moves with the same effect are fine in checked mode.
    let interp = build(
        "([$ a=1] + [$ a=1]) ->x [p] ->> {}",
        1,
        InterpOptions { checked_keeper: true, ..Default::default() },
    );
    let c = perft(&interp, 1, &PerftOptions::default()).unwrap();
    assert_eq!((c.leaves, c.nodes), (1, 2));
}

#[test]
fn stuck_keeper_at_the_start_is_reported() {
    let interp = build("{} ->x ->>", 1, InterpOptions::default());
    assert_eq!(perft(&interp, 1, &PerftOptions::default()).unwrap_err(), DriverError::GameOverAtStart);
}

#[test]
fn games_the_interpreter_cannot_hold_are_build_errors() {
    let text = format!("{}#players = x(1)\n#pieces = e\n#variables = \n#rules = ->x ->>\n", strip(1));
    let mut game = read_game(text.as_bytes()).unwrap();
    let mut empty = game.clone();
    empty.board.vertices.clear();
    assert_eq!(Interpreter::new(&empty, "g", InterpOptions::default()).unwrap_err(), BuildError::EmptyBoard);
    game.pieces = (0..300).map(|i| format!("p{i}")).collect();
    assert_eq!(
        Interpreter::new(&game, "g", InterpOptions::default()).unwrap_err(),
        BuildError::TooManyPieces { count: 300 }
    );
    // Malformed ids are errors, not panics.
    let mut bad = read_game(text.as_bytes()).unwrap();
    bad.rules = ir::Rule::Action(ir::Action { kind: ir::ActionKind::Off(7), index: 1 });
    assert!(matches!(Interpreter::new(&bad, "g", InterpOptions::default()), Err(BuildError::BadIr { .. })));
}

#[test]
fn more_than_64_pieces_use_piece_tables() {
    // 70 pieces: on-sets no longer fit a 64-bit mask.
    let pieces: Vec<String> = (0..70).map(|i| format!("p{i:02}")).collect();
    let text = format!(
        "#board =\n    a[p69]{{r:b}}\n    b[p00]{{l:a}}\n#players = x(1),o(1)\n#pieces = {}\n#variables = \n\
         #rules = ->x {{p69}} [p68] r {{p00,p01}} [p69] ->> {{}}\n",
        pieces.join(",")
    );
    let game = read_game(text.as_bytes()).unwrap();
    for options in with_baseline(InterpOptions::default()) {
        let interp = Interpreter::new(&game, "many", options).unwrap();
        let c = perft(&interp, 1, &PerftOptions::default()).unwrap();
        assert_eq!((c.leaves, c.nodes), (1, 2));
    }
}

/// A pattern nested 300 branch nodes deep: on the 2-cell strip `right {e} left` comes back to
/// the first cell and `up` leads nowhere (the strip has one row), so the pattern holds and every
/// node on its one successful path has a second edge to try. Since the static walk sees that
/// `up` never arrives, no (node, vertex) pair repeats and no node needs a visited check: the
/// interpreter evaluates the pattern by native recursion and hands the part below a fixed depth
/// to the general search.
const DEEP_PATTERN: &str = "(right {e} left + up)^300";

#[test]
fn deep_pure_patterns_report_search_errors() {
    // Every branch node in the deep part costs one unit of the search budget, far more than 10.
    let limits = InterpOptions { max_search_nodes: 10, ..Default::default() };
    let expected = SearchError::SearchTooLarge { limit: 10 };
    assert_perft_fails(&format!("->x {{? {DEEP_PATTERN}}} ->> {{}}"), 2, limits.clone(), expected.clone());
    assert_perft_fails(&format!("->x {{! {DEEP_PATTERN}}} ->> {{}}"), 2, limits, expected);
}

#[test]
fn deep_pure_patterns_hold_within_bounds() {
    // Independent derivation: the pattern holds from the first cell, so `{?}` leaves x exactly
    // one move (the switch) and `{!}` none.
    for (rules, leaves) in
        [(format!("->x {{? {DEEP_PATTERN}}} ->> {{}}"), 1), (format!("->x {{! {DEEP_PATTERN}}} ->> {{}}"), 0)]
    {
        for options in with_baseline(InterpOptions::default()) {
            let interp = build(&rules, 2, options);
            let c = perft(&interp, 1, &PerftOptions::default()).unwrap();
            assert_eq!((c.leaves, c.nodes), (leaves, 1 + leaves), "{rules}");
        }
    }
}

/// A read-only pattern with visited checks, 600 cells deep: `(right + left)` can come back, so
/// the loop node needs a visited slot, and `{! right}` (a precomputed set) holds only on the
/// last cell, so the pattern holds from the first cell only through a path along the whole
/// strip — deeper than the native recursion goes before handing over to the general search.
const DEEP_READ_ONLY_PATTERN: &str = "({e} (right + left))* {! right}";

#[test]
fn deep_read_only_patterns_hold_within_bounds() {
    // Independent derivation: the last cell is reachable through empty cells, so `{?}` leaves x
    // one move (the switch) and `{!}` none.
    for (rules, leaves) in [
        (format!("->x {{? {DEEP_READ_ONLY_PATTERN}}} ->> {{}}"), 1),
        (format!("->x {{! {DEEP_READ_ONLY_PATTERN}}} ->> {{}}"), 0),
    ] {
        for read_only_patterns in [true, false] {
            for options in with_baseline(InterpOptions { read_only_patterns, ..Default::default() }) {
                let interp = build(&rules, 600, options);
                let c = perft(&interp, 1, &PerftOptions::default()).unwrap();
                assert_eq!((c.leaves, c.nodes), (leaves, 1 + leaves), "{rules}");
            }
        }
    }
}

#[test]
fn deep_read_only_patterns_report_search_errors() {
    // The part of the path below the native recursion's depth is searched with frames, each
    // costing one unit of the budget.
    let limits = InterpOptions { max_search_nodes: 10, ..Default::default() };
    let expected = SearchError::SearchTooLarge { limit: 10 };
    let rules = format!("->x {{? {DEEP_READ_ONLY_PATTERN}}} ->> {{}}");
    assert_perft_fails(&rules, 600, limits, expected);
}

#[test]
fn ray_patterns_end_on_cyclic_boards() {
    // A ring of three `p` cells: the ray `({p} r)* {e}` comes back to its start and never meets
    // an `e`, so the pattern fails ({?} leaves no move, {!} one) instead of walking forever.
    for (check, leaves) in [("?", 0), ("!", 1)] {
        let text = format!(
            "#board = a[p]{{r:b}} b[p]{{r:c}} c[p]{{r:a}}\n#players = x(1)\n#pieces = e,p\n#variables =\n\
             #rules = ->x {{{check} ({{p}} r)* {{e}}}} ->> {{}}\n"
        );
        let game = read_game(text.as_bytes()).expect("parses");
        for ray_patterns in [true, false] {
            for options in with_baseline(InterpOptions { ray_patterns, ..Default::default() }) {
                let interp = Interpreter::new(&game, "ring", options).expect("builds");
                let c = perft(&interp, 1, &PerftOptions::default()).unwrap();
                assert_eq!((c.leaves, c.nodes), (leaves, 1 + leaves), "{{{check}}}");
            }
        }
    }
}
