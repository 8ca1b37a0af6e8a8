//! End-to-end tests of `rbg describe` (crate rbg-nld): the text, JSON and Markdown outputs on
//! the NLD paper's pieces (`games/sbg/nld/`), whose complexities are the paper's, and clear
//! errors on bad input.

mod common;
use common::{rbg, stderr, stdout, temp_file};

fn nld_game(name: &str) -> String {
    let path = rbg_testdata::workspace_root().join("games/sbg/nld").join(format!("{name}.sbg"));
    path.to_str().unwrap().to_string()
}

#[test]
fn text_lists_classes_sentence_complexity_and_score() {
    let out = rbg(&["describe", &nld_game("moa")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // The paper: moa (36); two moas on the board and one piece type: 36 * (10 + 1) = 396.
    assert!(text.contains("piece M (2 on the board): complexity 36"), "{text}");
    assert!(
        text.contains("sentence: Moves 1 diagonally and then leaps outwards 1 vertically or horizontally")
    );
    assert!(text.contains("leaper (1,1) [without capturing] then leaper (0,1) [outwards] -> 18"), "{text}");
    assert!(text.trim_end().ends_with("score: 396"), "{text}");
}

#[test]
fn json_carries_the_classes_and_the_numbers() {
    let out = rbg(&["describe", &nld_game("duke"), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["name"], "Duke duel");
    assert_eq!(json["score"], 660.0);
    let piece = &json["pieces"][0];
    assert_eq!(piece["letter"], "D");
    assert_eq!(piece["complexity"], 60.0);
    let first_part = &piece["components"][0]["parts"][0];
    assert_eq!(first_part["class"]["kind"], "rider");
    assert_eq!((first_part["class"]["x"].as_u64(), first_part["class"]["y"].as_u64()), (Some(1), Some(1)));
    assert_eq!(first_part["operators"][0]["operator"], "without_capturing");
}

#[test]
fn markdown_writes_a_how_to_play_page() {
    let dir = temp_file("placeholder", "");
    let page = dir.with_file_name("duke.md");
    let out = rbg(&["describe", &nld_game("duke"), "--markdown", "-o", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let text = std::fs::read_to_string(&page).expect("the page is written");
    assert!(text.starts_with("# How to play Duke duel\n"), "{text}");
    // The initial position, ranks numbered from the bottom, files lettered.
    assert!(text.contains("8 |....d...|\n"), "{text}");
    assert!(text.contains("1 |...D....|\n"), "{text}");
    assert!(text.contains("   abcdefgh\n"), "{text}");
    assert!(text.contains(
        "| D / d | 2 | Rides without capturing diagonally and then leaps outwards 1 vertically or horizontally | 60 |"
    ));
    assert!(text.contains("- White loses when it has no D pieces left."), "{text}");
    assert!(text.contains("100 half-moves (50 by white, 50 by black)"), "{text}");
}

#[test]
fn markdown_names_the_squares_of_reach_goals() {
    let path = rbg_testdata::workspace_root().join("games/sbg/gardner.sbg");
    let out = rbg(&["describe", path.to_str().unwrap(), "--markdown"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // @P 0 4, 1 4, ... : the fifth rank of a 5x5 board.
    assert!(stdout(&out).contains("White wins when one of its P pieces stands on a5, b5, c5, d5 or e5."));
}

#[test]
fn a_parse_error_is_shown_at_file_line_and_column() {
    let bad =
        temp_file("bad.sbg", "<<Bad>>\n<BOARD> 2 2\n|..|\n|.A|\n<PIECES>\nA (1,0,x) &\n<GOALS>\n10 &\n");
    let out = rbg(&["describe", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bad.sbg:6:8"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[test]
fn an_rbg_file_and_a_missing_file_are_errors() {
    let rbg_game = rbg_testdata::workspace_root().join("games/breakthrough.rbg");
    let out = rbg(&["describe", rbg_game.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let message = stderr(&out);
    assert!(message.contains("breakthrough.rbg:1:1: not a Simplified Boardgames description"), "{message}");

    let out = rbg(&["describe", "no-such-game.sbg"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read no-such-game.sbg"), "{}", stderr(&out));
}

#[test]
fn json_and_markdown_exclude_each_other() {
    let out = rbg(&["describe", &nld_game("queen"), "--json", "--markdown"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
}

/// The ten paper pieces play: their first moves, counted by hand on the empty 8x8 board from
/// d1 (the black twin stands on e8), on the direct reasoner and on the RBG translation.
#[test]
fn the_paper_pieces_play() {
    // queen: 7 up the d-file, 3 left, 4 right, 3 + 4 diagonally; short rook: 3 left, 4 right,
    // 4 up; lance: d2-d8; centaur: 5 king steps and b2, f2, c3, e3; griffon: the lone steps
    // c2, e2, then from c2 c3-c8 and b2, a2, from e2 e3-e8 (e8 a capture) and f2-h2;
    // hippogriff: c4-c8, a2, e4-e8, g2, h2; duke: over c2, b3, a4 then c3, b2, b4, a3, a5 and
    // over e2, f3, g4, h5 then e3, f2, f4, g3, g5, h4, h6; moa: e3, f2, c3, b2; ferz then wazir:
    // c3, c1, b2, d2, e3, e1, f2; buffalo: the 12 forward leaps, all on the board.
    let expected = [
        ("queen", 21),
        ("shortrook", 11),
        ("lance", 7),
        ("centaur", 9),
        ("griffon", 19),
        ("hippogriff", 13),
        ("duke", 12),
        ("moa", 4),
        ("ferzwazir", 7),
        ("buffalo", 12),
    ];
    for (name, leaves) in expected {
        for engine in ["sbg", "interp"] {
            let out = rbg(&["perft", &nld_game(name), "--depth", "1", "--json", "--engine", engine]);
            assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
            let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON line");
            assert_eq!(row["leaves"], leaves, "{name} on {engine}");
        }
    }
}
