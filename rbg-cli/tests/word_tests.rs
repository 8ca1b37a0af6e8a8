//! Word tests (compiler switch `word-tests`, design notes 6.3) against the interpreter, which
//! asks every pattern by a search. The game below is a small connect-four whose keeper drops the
//! piece down a column (a fan prefiltered by a cheap pattern, `{! down {em}}`) and tests a win
//! pattern made to reach every kind of term: lines through the cell in four directions, a fan
//! inside the pattern, one cell tested twice with different pieces, and a precomputed cell set.

mod common;
use common::{perft_counts as perft, rbg, stderr, temp_file};

const GAME: &str = "\
#players = px(100), po(100)
#pieces = em, x, o
#variables =
#board = rectangle(up, down, left, right,
    [em,em,em,em,em]
    [em,em,em,em,em]
    [em,x,em,o,em]
    [o,x,em,x,o])
#line(me; s1; s2) = (s1 {me} (s1 {me} + s2 s2 {me}))
#win(me; opp) = (
      line(me; up left; down right) + line(me; left; right) + line(me; right; left)
    + line(me; down; up) + line(me; up right; down left)
    + (left + right) {me} (up + down) {me}
    + up {me, opp} down up {me}
    + {? up up up} down {me} left {me}
  )
#turn(me; opp; piece; other) = (
    ->me (down* up^3 (left* + right*)) {em} ->> down* {em} {! down {em}}
    (
        {! win(piece; other)} [piece]
      + {? win(piece; other)} [$ me=100, opp=0] ->> {}
    )
  )
#rules = (turn(px; po; x; o) turn(po; px; o; x))*
";

#[test]
fn word_tests_count_what_the_interpreter_counts() {
    let path = temp_file("wordTests.rbg", GAME);
    let path = path.to_str().unwrap();
    let expected = perft(path, 7, &[]);
    assert_eq!(expected.len(), 7);
    // Not a trivial game: wins end many lines early (far fewer than 5^7 leaves), not all.
    assert!(expected[6].0 > 500 && expected[6].0 < 78_125, "{expected:?}");
    assert_eq!(perft(path, 7, &["--engine", "compiled"]), expected, "word tests on");
    assert_eq!(perft(path, 7, &["--engine", "compiled", "--no-word-tests"]), expected, "off");
}

/// The count above means something only if the generated code takes the word forms.
#[test]
fn the_game_reaches_every_word_form() {
    let path = temp_file("wordTests.rbg", GAME);
    let dir = path.parent().unwrap().join("crate");
    let out = rbg(&["compile", path.to_str().unwrap(), "--output", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let code = std::fs::read_to_string(dir.join("src/lib.rs")).expect("generated source");
    for form in [
        "fn cell_pattern_", // a pattern tested by its terms
        "static FAN_",      // a fan's rows as words
        "& !word_pattern_", // a fan prefiltered by a complemented cheap pattern
        "fn word_pattern_", // ... computed from the state's words
    ] {
        assert!(code.contains(form), "{form}");
    }
}

/// A cell pattern counted by hand. Row 0 is `x x o x o o x x` and never changes; each move puts
/// an `x` on an empty cell of row 1 whose cell above holds `x` and so does one of the cells one
/// or two to its left or right, or three to its left: five terms. Columns 0, 1, 6 and 7 have a
/// neighbour `x`, column 3 only those two and three to its left; 2, 4 and 5 hold `o` above. So
/// 5, then 4, then 3 moves: 5, 20, 60 leaves. Taking the terms as an AND would leave none;
/// losing the far terms would lose column 3 (4, 12, 24).
#[test]
fn a_pattern_of_five_terms_is_found() {
    const FIVE_TERMS: &str = "\
#players = a(1)
#pieces = e, x, o
#variables =
#board = rectangle(up, down, left, right,
    [x,x,o,x,o,o,x,x]
    [e,e,e,e,e,e,e,e])
#rules = (->a ((up* + down*)(left* + right*)) {e}
    {? up {x} (left {x} + right {x} + left left {x} + right right {x} + left left left {x})} [x])*
";
    let path = temp_file("fiveTerms.rbg", FIVE_TERMS);
    let path = path.to_str().unwrap();
    for engine in ["interp", "compiled"] {
        let counts = perft(path, 3, &["--engine", engine]);
        let leaves: Vec<u64> = counts.iter().map(|c| c.0).collect();
        assert_eq!(leaves, [5, 20, 60], "{engine}");
    }
    let dir = std::path::Path::new(path).parent().unwrap().join("crate");
    let out = rbg(&["compile", path, "--output", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let code = std::fs::read_to_string(dir.join("src/lib.rs")).expect("generated source");
    assert!(code.contains("fn cell_pattern_"), "the count above is the terms'");
}
