//! End-to-end tests of `rbg render`: pictures after listed or random moves, PNG output, and
//! errors that name the move at fault.

mod common;
use common::{rbg, stderr, stdout, temp_file};

/// Player a marks one of two cells and scores 1, player b passes, then the game ends.
/// Action indices (modifiers numbered from 1 in text order): `->a`=1, `[x]`=2, `[$ a=1]`=3,
/// `->b`=4, `->>`=5.
const SHORT: &str = "#players = a(1), b(1)\n#pieces = e, x\n#variables =\n\
                     #board = rectangle(up, down, left, right, [e, e])\n\
                     #rules = ->a (left* + right*) {e} [x] [$ a=1] ->b ->> {}\n";

/// a marks the right cell (`rx1y0`).
const MARK_RIGHT: &str = "2@rx1y0 3@rx1y0 4@rx1y0";

fn render(args: &[&str]) -> std::process::Output {
    let path = temp_file("short.rbg", SHORT);
    let mut all = vec!["render", path.to_str().unwrap()];
    all.extend_from_slice(args);
    rbg(&all)
}

#[test]
fn a_picture_after_a_move_shows_the_mark_and_the_next_player() {
    let out = render(&["--after", MARK_RIGHT, "--engine", "interpreter"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = stdout(&out);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
    assert!(svg.contains("data-vertex=\"rx1y0\" data-piece=\"x\""), "{svg}");
    assert!(!svg.contains("data-vertex=\"rx0y0\" data-piece="), "the left cell is empty: {svg}");
    assert!(svg.contains("short: b to move"), "{svg}");
    assert!(svg.contains("scores: a 1 · b 0"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
fn the_picture_goes_to_the_output_file() {
    let dir = temp_file("placeholder", "");
    let target = dir.with_file_name("board.svg");
    let out = render(&["-o", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let svg = std::fs::read_to_string(&target).expect("written");
    assert!(svg.contains("short: a to move"), "{svg}");
}

#[test]
fn garbage_moves_are_errors_naming_the_move() {
    let cases = [
        ("hello", "move 1 ('hello') cannot be read: token 1 'hello' is not an index@vertex pair"),
        ("2@nowhere", "move 1 ('2@nowhere') cannot be read: token 1 '2@nowhere': no such vertex"),
        ("999@rx0y0", "move 1 ('999@rx0y0') cannot be read"),
        // b's pass is not a's move.
        ("5@rx0y0", "move 1 ('5@rx0y0') is not legal: it is a's turn and it is not one of the 2 legal moves"),
        // The right cell is taken: b cannot mark it (it is not even b's kind of move).
        (&format!("{MARK_RIGHT}; {MARK_RIGHT}"), &format!("move 2 ('{MARK_RIGHT}') is not legal")),
        (&format!("{MARK_RIGHT}; 5@rx1y0; 5@rx1y0"), "move 3 ('5@rx1y0') comes after the end of the game"),
    ];
    for (after, expected) in cases {
        let out = render(&["--after", after]);
        assert_eq!(out.status.code(), Some(1), "{after}: {}", stderr(&out));
        assert!(stderr(&out).contains(expected), "{after}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "no picture after an error");
    }
}

#[test]
fn random_moves_are_repeatable_by_seed_and_stop_at_the_end() {
    let first = render(&["--random-moves", "5", "--seed", "7"]);
    let again = render(&["--random-moves", "5", "--seed", "7"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(stdout(&first), stdout(&again));
    // The game lasts two moves: the picture is of the end, and the early end is reported.
    assert!(stdout(&first).contains("short: game over"), "{}", stdout(&first));
    assert!(stderr(&first).contains("the game ended after 2 of the 5 random moves"), "{}", stderr(&first));
}

#[test]
fn listed_and_random_moves_cannot_be_combined() {
    let out = render(&["--after", MARK_RIGHT, "--random-moves", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_png_is_written_when_asked_for() {
    let dir = temp_file("placeholder", "");
    let target = dir.with_file_name("board.png");
    let out = render(&["--after", MARK_RIGHT, "-o", target.to_str().unwrap()]);
    if cfg!(feature = "png") {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let bytes = std::fs::read(&target).expect("written");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    } else {
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("without PNG support"), "{}", stderr(&out));
    }
}

#[test]
fn simplified_boardgames_files_are_drawn_too() {
    let gardner = rbg_testdata::workspace_root().join("games/sbg/gardner.sbg");
    let out = rbg(&["render", gardner.to_str().unwrap(), "--cell-size", "30", "--vertex-names"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = stdout(&out);
    // Gardner's minichess: 5 pawns and 5 pieces a side; the white king on e1 is ♔.
    assert_eq!(svg.matches("class=\"piece\"").count(), 20);
    assert!(svg.contains('♔') && svg.contains('♚'));
    assert!(svg.contains("class=\"vertex-names\""));
}
