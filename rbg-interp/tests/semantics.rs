//! The semantic points of spec section 10 on small hand-written games, with expected moves and
//! counts derived by hand from the spec (not from our output).
//!
//! Games are written in the low-level form. Action indices follow spec 9.2: modifiers (offs,
//! assignments, switches) are numbered 1, 2, … from left to right; pattern contents get none.

use core::ops::ControlFlow;

use rbg_core::perft::{perft, PerftOptions};
use rbg_core::{Action, Game, KEEPER};
use rbg_interp::{InterpOptions, Interpreter, State};

mod common;
use common::{read_game, with_baseline};

/// A `w` x `h` grid (labels up/down/left/right, row 0 on top) whose first node — the start
/// vertex — is `start`. Every cell holds `e`. Vertex ids follow the node order.
fn grid(w: u32, h: u32, start: (u32, u32)) -> String {
    let mut cells: Vec<(u32, u32)> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect();
    cells.retain(|&c| c != start);
    cells.insert(0, start);
    let mut text = String::from("#board =\n");
    for (x, y) in cells {
        let mut edges = Vec::new();
        if y > 0 {
            edges.push(format!("up:x{x}y{}", y - 1));
        }
        if y + 1 < h {
            edges.push(format!("down:x{x}y{}", y + 1));
        }
        if x > 0 {
            edges.push(format!("left:x{}y{y}", x - 1));
        }
        if x + 1 < w {
            edges.push(format!("right:x{}y{y}", x + 1));
        }
        if edges.is_empty() {
            // A node needs at least one edge (spec 6.1); a 1x1 grid gets an unused self-loop.
            edges.push(format!("stay:x{x}y{y}"));
        }
        text += &format!("    x{x}y{y}[e]{{{}}}\n", edges.join(","));
    }
    text
}

fn game(board: &str, decls: &str, rules: &str) -> String {
    format!("{board}{decls}\n#rules = {rules}\n")
}

/// All option sets the tests run under: defaults and every optimisation off.
fn option_sets() -> [InterpOptions; 2] {
    with_baseline(InterpOptions::default())
}

fn build(text: &str, options: InterpOptions) -> Interpreter {
    let g = read_game(text.as_bytes()).expect("test game parses");
    Interpreter::new(&g, "test", options).expect("test game builds")
}

fn vertex(interp: &Interpreter, name: &str) -> u32 {
    interp.info().vertex_id(name).unwrap_or_else(|| panic!("no vertex {name}"))
}

/// The keeper-completed initial state (panics if the game is over at once).
fn root(interp: &Interpreter) -> State {
    let mut s = interp.initial_state();
    let mut sc = interp.new_scratch();
    assert!(interp.complete_keeper(&mut s, &mut sc, 100).unwrap(), "game over at the start");
    s
}

/// The legal moves of `s` as sorted lists of (index, vertex name).
fn moves(interp: &Interpreter, s: &mut State) -> Vec<Vec<(u32, String)>> {
    let mut sc = interp.new_scratch();
    let mut out = Vec::new();
    let _ = interp
        .visit_moves(s, &mut sc, |m| {
            out.push(
                m.iter().map(|a| (a.index, interp.info().vertices[a.vertex as usize].clone())).collect(),
            );
            ControlFlow::Continue(())
        })
        .unwrap();
    out.sort();
    out
}

fn mv(pairs: &[(u32, &str)]) -> Vec<(u32, String)> {
    pairs.iter().map(|&(i, v)| (i, v.to_string())).collect()
}

const XO: &str = "#players = x(100),o(100)\n#pieces = e,p\n#variables = ";

#[test]
fn moves_are_sets_of_pair_lists() {
    // From the centre of a 3x3 grid, `up left` and `left up` both reach x0y0: one move.
    let text = game(&grid(3, 3, (1, 1)), XO, "->x (up left + left up) ->>");
    for options in option_sets() {
        let interp = build(&text, options);
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(2, "x0y0")])]);
    }
}

#[test]
fn equal_effects_with_different_indices_are_different_moves() {
    // ->x = 1, [p] = 2, [p] = 3, ->> = 4.
    let text = game(&grid(2, 2, (0, 0)), XO, "->x ([p] + [p]) ->>");
    for options in option_sets() {
        let interp = build(&text, options);
        let mut s = root(&interp);
        assert_eq!(
            moves(&interp, &mut s),
            vec![mv(&[(2, "x0y0"), (4, "x0y0")]), mv(&[(3, "x0y0"), (4, "x0y0")])]
        );
    }
}

#[test]
fn vertex_is_recorded_for_every_modifier() {
    // ->x = 1, [$ v=1] = 2, ->> = 3; from x0y1 both `up` and `down` exist.
    let decls = "#players = x(100),o(100)\n#pieces = e,p\n#variables = v(1)";
    let text = game(&grid(1, 3, (0, 1)), decls, "->x (up + down) [$ v=1] ->>");
    for options in option_sets() {
        let interp = build(&text, options);
        let mut s = root(&interp);
        assert_eq!(
            moves(&interp, &mut s),
            vec![mv(&[(2, "x0y0"), (3, "x0y0")]), mv(&[(2, "x0y2"), (3, "x0y2")])]
        );
    }
}

#[test]
fn patterns_need_a_complete_word() {
    // From x0y1 of a 1x3 column there is one `up` but not two.
    let board = grid(1, 3, (0, 1));
    for options in option_sets() {
        let cases = [
            ("->x {? up} ->>", 1),
            ("->x {? up up} ->>", 0),
            ("->x {! up up} ->>", 1),
            ("->x {! up} ->>", 0),
            // A word of the pattern must reach its end: `[p] up up` fails after the off.
            ("->x {? [p] up up} ->>", 0),
            ("->x {? [p] up} ->>", 1),
            // The pattern is evaluated where the path is: after `up` there is no further `up`.
            ("->x up {? up} ->>", 0),
            ("->x down {? up up} ->>", 1),
        ];
        for (rules, expected) in cases {
            let interp = build(&game(&board, XO, rules), options.clone());
            let mut s = root(&interp);
            assert_eq!(moves(&interp, &mut s).len(), expected, "{rules}");
        }
    }
}

#[test]
fn pattern_modifiers_never_leak() {
    let decls = "#players = x(100),o(100)\n#pieces = e,p\n#variables = v(1)";
    let board = grid(2, 1, (0, 0));
    for options in option_sets() {
        // The off inside the pattern is undone: `{e}` still holds after it.
        let interp = build(&game(&board, decls, "->x {? [p]} {e} ->>"), options.clone());
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(2, "x0y0")])]);
        // Same for assignments, and for a negated pattern that fails after writing.
        let interp =
            build(&game(&board, decls, "->x {? [$ v=1]} {! [$ v=1] {$ v==0}} {$ v==0} ->>"), options.clone());
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(2, "x0y0")])]);
        // Pattern contents have no index: the switch after a pattern with an off is number 2.
        let interp = build(&game(&board, decls, "->x {? right [p]} [p] ->>"), options.clone());
        let mut s = root(&interp);
        let before = s.clone();
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(2, "x0y0"), (3, "x0y0")])]);
        assert_eq!(s, before, "generating moves changed the state");
    }
}

#[test]
fn out_of_range_assignments_are_invalid() {
    let decls = "#players = x(100),o(100)\n#pieces = e,p\n#variables = c(2)";
    let board = grid(1, 1, (0, 0));
    for options in option_sets() {
        // ->x = 1, c=3 = 2, c=2 = 3, ->> = 4: only the second assignment fits 0..2.
        let interp = build(&game(&board, decls, "->x ([$ c=3] + [$ c=2]) ->>"), options.clone());
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(3, "x0y0"), (4, "x0y0")])]);
        // A counter bounded by 2 as a loop guard: 0, 1 or 2 increments (c=c+1 is 2, ->> is 3).
        let interp = build(&game(&board, decls, "->x ([$ c=c+1])* ->>"), options.clone());
        let mut s = root(&interp);
        assert_eq!(
            moves(&interp, &mut s),
            vec![
                mv(&[(2, "x0y0"), (2, "x0y0"), (3, "x0y0")]),
                mv(&[(2, "x0y0"), (3, "x0y0")]),
                mv(&[(3, "x0y0")]),
            ]
        );
        // Negative values are out of range too, but comparisons may use them.
        let interp = build(&game(&board, decls, "->x ([$ c=0-1] + {$ 0-1 < c}) ->>"), options.clone());
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(3, "x0y0")])]);
    }
}

#[test]
fn arithmetic_truncates_and_division_by_zero_is_invalid() {
    let decls = "#players = x(100),o(100)\n#pieces = e,p\n#variables = c(9),d(20)";
    let board = grid(1, 1, (0, 0));
    for options in option_sets() {
        // c = 0: `5 / c` cannot be computed, so neither the assignment nor the comparison holds.
        let rules = "->x ([$ d=5/c] + {$ 1/c == 0} + [$ d=(0-7)/2+10]) ->>";
        let interp = build(&game(&board, decls, rules), options.clone());
        let mut s = root(&interp);
        // ->x = 1, d=5/c = 2, d=(0-7)/2+10 = 3, ->> = 4.
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(3, "x0y0"), (4, "x0y0")])]);
        interp.apply_move(&mut s, &[Action::new(3, 0), Action::new(4, 0)]);
        // (0 - 7) / 2 truncates toward zero to -3, so d = 7; `3 * 5 / 2` groups as 3 * (5 / 2) = 6.
        assert_eq!(interp.variable(&s, 3), 7);
        let interp = build(&game(&board, decls, "->x [$ c=3*5/2] ->>"), options.clone());
        let mut s = root(&interp);
        interp.apply_move(&mut s, &[Action::new(2, 0), Action::new(3, 0)]);
        assert_eq!(interp.variable(&s, 2), 6);
    }
}

#[test]
fn piece_counts_are_visible_to_arithmetic() {
    // Three cells hold e; after the off the count of p is 1 and of e is 2 in the same move.
    let decls = "#players = x(100),o(100)\n#pieces = e,p\n#variables = c(9)";
    let board = grid(3, 1, (0, 0));
    for options in option_sets() {
        let interp =
            build(&game(&board, decls, "->x [p] {$ p == 1} {$ e == 2} [$ c = e * 3 + p] ->>"), options);
        let mut s = root(&interp);
        let all = moves(&interp, &mut s);
        assert_eq!(all, vec![mv(&[(2, "x0y0"), (3, "x0y0"), (4, "x0y0")])]);
        interp.apply_move(&mut s, &[Action::new(2, 0), Action::new(3, 0), Action::new(4, 0)]);
        assert_eq!(interp.variable(&s, 2), 7);
    }
}

#[test]
fn a_move_ends_at_the_first_switch_and_needs_one() {
    let board = grid(3, 1, (0, 0));
    for options in option_sets() {
        // No switch after the off: no move at all.
        let interp = build(&game(&board, XO, "->x [p] right"), options.clone());
        let mut s = root(&interp);
        assert!(moves(&interp, &mut s).is_empty());
        // The move stops at `->o`; what follows belongs to o's turn.
        let interp = build(&game(&board, XO, "->x right ->o right [p] ->>"), options.clone());
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(2, "x1y0")])]);
        // The current vertex carries over: o continues from x1y0.
        interp.apply_move(&mut s, &[Action::new(2, 1)]);
        assert_eq!(interp.current_player(&s), 2);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(3, "x2y0"), (4, "x2y0")])]);
    }
}

#[test]
fn keeper_completion_applies_the_first_move_and_detects_the_end() {
    let decls = "#players = x(100),o(100)\n#pieces = e,p\n#variables = a(5)";
    let board = grid(2, 1, (0, 0));
    for options in option_sets() {
        // The keeper's first move (in rule order) sets a = 1 and gives the turn to x.
        let interp = build(&game(&board, decls, "[$ a=1] [$ x=7] ->x [p] ->> {}"), options.clone());
        let s = root(&interp);
        assert_eq!((interp.current_player(&s), interp.variable(&s, 2), interp.score(&s, 1)), (1, 1, 7));
        // a=1 is 1, x=7 is 2, ->x is 3, [p] is 4, ->> is 5.
        // After x's only move the keeper is stuck on `{}`: terminal, and perft stops there.
        let mut s2 = s.clone();
        let all = moves(&interp, &mut s2);
        assert_eq!(all, vec![mv(&[(4, "x0y0"), (5, "x0y0")])]);
        interp.apply_move(&mut s2, &[Action::new(4, 0), Action::new(5, 0)]);
        assert_eq!(interp.current_player(&s2), KEEPER);
        let mut sc = interp.new_scratch();
        assert!(!interp.complete_keeper(&mut s2, &mut sc, 100).unwrap());
        assert_eq!(interp.piece(&s2, 0), 1);
        let d1 = perft(&interp, 1, &PerftOptions::default()).unwrap();
        let d2 = perft(&interp, 2, &PerftOptions::default()).unwrap();
        assert_eq!((d1.leaves, d1.nodes), (1, 2));
        assert_eq!((d2.leaves, d2.nodes), (0, 2));
    }
}

#[test]
fn keeper_chains_and_moves_inside_player_moves() {
    // x places p at any empty cell of a 3-cell strip; the keeper then writes the score and passes
    // to o, who does the same; the keeper ends the game when no empty cell is left.
    let decls = "#players = x(100),o(100)\n#pieces = e,p,q\n#variables = ";
    let rules = "(->x (left* + right*) {e} [p] ->> [$ x=1] {? (left* + right*) {e}} ->o (left* + right*) {e} [q] ->> [$ o=1] {? (left* + right*) {e}})*";
    let board = grid(3, 1, (0, 0));
    for options in option_sets() {
        let interp = build(&game(&board, decls, rules), options);
        // Depth 1: 3 moves; depth 2: 3 * 2; depth 3: 6 * 1; the board is full after 3 moves, so
        // depth 4 has no nodes; nodes = 1 + 3 + 6 + 6.
        let counts: Vec<(u64, u64)> = (0..=4)
            .map(|d| {
                let c = perft(&interp, d, &PerftOptions::default()).unwrap();
                (c.leaves, c.nodes)
            })
            .collect();
        assert_eq!(counts, vec![(1, 1), (3, 4), (6, 10), (6, 16), (0, 16)]);
    }
}

#[test]
fn switches_inside_patterns_are_no_ops() {
    // Documented policy: a switch inside a pattern neither ends the pattern nor counts as an index.
    let board = grid(1, 2, (0, 0));
    for options in option_sets() {
        let interp = build(&game(&board, XO, "->x {? ->o down} [p] ->>"), options.clone());
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(2, "x0y0"), (3, "x0y0")])]);
        let interp = build(&game(&board, XO, "->x {? ->o down down} [p] ->>"), options);
        let mut s = root(&interp);
        assert!(moves(&interp, &mut s).is_empty());
    }
}

#[test]
fn empty_on_sets_and_empty_alternatives_never_hold() {
    let board = grid(2, 1, (0, 0));
    for options in option_sets() {
        let interp = build(&game(&board, XO, "->x ({} + [] + right) ->>"), options);
        let mut s = root(&interp);
        assert_eq!(moves(&interp, &mut s), vec![mv(&[(2, "x1y0")])]);
    }
}

#[test]
fn monotonic_classes_are_found_for_placement_games_only() {
    // x and o place on empty cells anywhere: both turns are classes (nothing ever places e).
    let decls = "#players = x(100),o(100)\n#pieces = e,p,q\n#variables = ";
    let placement = "(->x (left* + right*) {e} ->> [p] ->o (left* + right*) {e} ->> [q])*";
    let interp = build(&game(&grid(3, 1, (0, 0)), decls, placement), InterpOptions::default());
    assert_eq!(interp.monotonic_classes(), 2);
    let s = root(&interp);
    assert!(interp.monotonic_class(&s).is_some());
    let e = vertex(&interp, "x2y0");
    assert!(interp.is_still_legal(&s, &[Action::new(2, e)]));
    // o moves onto cells holding p, which the keeper creates: only x's turn is a class.
    let clearing = "(->x (left* + right*) {e} ->> [p] ->o (left* + right*) {p} ->> [q])*";
    let interp = build(&game(&grid(3, 1, (0, 0)), decls, clearing), InterpOptions::default());
    assert_eq!(interp.monotonic_classes(), 1);
}
