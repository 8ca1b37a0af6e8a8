//! End-to-end tests of `rbg moves`: every move of `--after` is read and checked, the end of the
//! game is reported with the scores, and bad moves are errors that name them.

use std::process::Output;

mod common;
use common::{rbg, stderr, stdout, temp_file};

/// Player a marks one of two cells and scores 1, player b passes, then the game ends.
/// Action indices (spec 9.2, modifiers numbered from 1 in text order): `->a`=1, `[x]`=2,
/// `[$ a=1]`=3, `->b`=4, `->>`=5.
const SHORT: &str = "#players = a(1), b(1)\n#pieces = e, x\n#variables =\n\
                     #board = rectangle(up, down, left, right, [e, e])\n\
                     #rules = ->a (left* + right*) {e} [x] [$ a=1] ->b ->> {}\n";

/// The moves that finish SHORT: a marks the right cell (vertex 1, `rx1y0`), b passes.
const FINISH: &str = "2@rx1y0 3@rx1y0 4@rx1y0; 5@rx1y0";

fn run_after(after: &str) -> Output {
    let path = temp_file("short.rbg", SHORT);
    rbg(&["moves", path.to_str().unwrap(), "--after", after])
}

#[test]
fn the_first_state_lists_both_marks_with_their_effects() {
    let path = temp_file("short.rbg", SHORT);
    let out = rbg(&["moves", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("to move: a; scores: a=0 b=0\n2 legal moves\n"), "{text}");
    assert!(text.contains("2@rx0y0 3@rx0y0 4@rx0y0") && text.contains("rx0y0: e→x, a: 0→1"), "{text}");
}

#[test]
fn a_finished_game_says_game_over_with_the_scores() {
    let out = run_after(FINISH);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "game over; scores: a=1 b=0\n0 legal moves\n");
    // Empty segments (a trailing ';') are not moves.
    assert_eq!(stdout(&run_after(&format!("{FINISH};; "))), stdout(&out));
}

#[test]
fn vertices_may_be_given_by_number() {
    let by_number = run_after("2@1 3@1 4@1; 5@1");
    assert_eq!(stdout(&by_number), stdout(&run_after(FINISH)), "{}", stderr(&by_number));
}

#[test]
fn moves_after_the_end_of_the_game_are_errors_naming_them() {
    let out = run_after(&format!("{FINISH};garbage;zzz"));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("move 3 ('garbage') comes after the end of the game"), "{err}");
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn malformed_and_illegal_moves_are_errors_naming_them() {
    let cases = [
        (
            "2@rx1y0 3@rx1y0 4@nowhere",
            "move 1 ('2@rx1y0 3@rx1y0 4@nowhere') cannot be read: token 3 '4@nowhere'",
        ),
        (
            "2@rx1y0 3@rx1y0 4@rx1y0; 5-rx1y0",
            "move 2 ('5-rx1y0') cannot be read: token 1 '5-rx1y0' is not an index@vertex pair",
        ),
        ("2@rx1y0 3@rx1y0 4@2", "vertex number out of range 0..=1"),
        ("99@rx1y0", "the modifier index is not a number from 1"),
        // a is to move, with a mark on either of the two cells.
        (
            "2@rx1y0 4@rx1y0",
            "move 1 ('2@rx1y0 4@rx1y0') is not legal: it is a's turn and it is not one of the 2 legal moves",
        ),
    ];
    for (after, expected) in cases {
        let out = run_after(after);
        assert_eq!(out.status.code(), Some(1), "{after}");
        let err = stderr(&out);
        assert!(err.contains(expected), "{after}: {err}");
    }
}
