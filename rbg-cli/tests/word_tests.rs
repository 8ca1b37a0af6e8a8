//! Word tests (compiler switch `word-tests`, design notes 6.3) against the interpreter, which
//! asks every pattern by a search. The game below is a small connect-four whose keeper drops the
//! piece down a column (a fan prefiltered by a cheap pattern, `{! down {em}}`) and tests a win
//! pattern made to reach every kind of term: several piece sets, lines through the cell in four
//! directions, a fan inside the pattern, one cell tested twice with different pieces, and a
//! precomputed cell set.

mod common;
use common::{rbg, stderr, stdout, temp_file};

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
    + (left + right) {opp} (up + down) {me}
    + up {me, opp} down up {me}
    + {? up up up} down {opp} left {me}
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

/// `(leaves, nodes)` per depth of `rbg perft`, which must succeed.
fn perft(path: &str, depth: u32, extra: &[&str]) -> Vec<(u64, u64)> {
    let depth = depth.to_string();
    let mut args = vec!["perft", path, "--depth", &depth];
    args.extend_from_slice(extra);
    let out = rbg(&args);
    assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<u64> =
                line.split_whitespace().take(3).map(|c| c.parse().expect("a count")).collect();
            (cols[1], cols[2])
        })
        .collect()
}

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
        "let w1: BoardSet", // ... reading two piece words
        "static FAN_",      // a fan's rows as words
        "& !word_pattern_", // a fan prefiltered by a complemented cheap pattern
        "fn word_pattern_", // ... computed from the state's words
    ] {
        assert!(code.contains(form), "{form}");
    }
}

/// A cell pattern counted by hand. Row 0 is `x x o x o o x x` and never changes; each move puts
/// an `x` on an empty cell of row 1 whose cell above holds `x` and whose upper left holds `x` or
/// upper right `o`: two terms over two piece words. Columns 1 (left `x`), 3 (right `o`) and 7
/// (left `x`) qualify; 0 (right is `x`), 6 (left `o`, right `x`) and the `o` columns do not. So
/// 3, then 2, then 1 move: 3, 6, 6 leaves. Taking the terms as an AND would leave only column
/// 1 (1, 0, 0); dropping a term would lose column 3 or columns 1 and 7.
#[test]
fn a_pattern_of_two_terms_is_found() {
    const TWO_TERMS: &str = "\
#players = a(1)
#pieces = e, x, o
#variables =
#board = rectangle(up, down, left, right,
    [x,x,o,x,o,o,x,x]
    [e,e,e,e,e,e,e,e])
#rules = (->a ((up* + down*)(left* + right*)) {e} {? up {x} (left {x} + right {o})} [x])*
";
    let path = temp_file("twoTerms.rbg", TWO_TERMS);
    let path = path.to_str().unwrap();
    for engine in ["interp", "compiled"] {
        let counts = perft(path, 3, &["--engine", engine]);
        let leaves: Vec<u64> = counts.iter().map(|c| c.0).collect();
        assert_eq!(leaves, [3, 6, 6], "{engine}");
    }
}
