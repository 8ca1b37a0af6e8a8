//! Whole-board pattern evaluation (compiler switch `board-patterns`, design notes 6.3) against
//! the interpreter, which asks every pattern by a search at each cell. The game below is made to
//! reach every word form: shifts with several deltas per label (a hexagon's rows differ in
//! length), rays with a fixed number of rounds, a nested pattern read as is and complemented, a
//! comparison of piece counts, a precomputed cell set, a fan over every cell and a fan along a
//! row inside a pattern, and the fan filter that visits only the cells of a memoised set.
//! Patterns without a word form (a cycle that is not a ray) stay searches beside them.

mod common;
use common::{perft_counts as perft, rbg, stderr, temp_file};

const GAME: &str = "\
#players = px(100), po(100)
#pieces = em, x, o
#variables =
#board = hexagon(nw, ne, e, se, sw, w,
    [em,em,em,em]
    [em,em,em,em,em]
    [em,em,em,x,o,em]
    [em,em,o,em,x,em,em]
    [em,em,x,o,em,em]
    [em,em,em,em,em]
    [em,em,em,em])
#anySquare = ((e* + w*)(ne* + sw*)(e* + w*)(nw* + se*)(e* + w*))
#ray(me; opp; dir) = (dir {opp} dir ({opp} dir)* {me})
#legalA(me; opp) = (
      ray(me; opp; w) + ray(me; opp; e)
    + {! sw {em}} {$ me < opp + 3} se {opp}
    + nw {me} {? nw nw}
    + {? anySquare {opp} {! e {em}}} ne {opp} ne {me}
    + w w* {opp} nw {me}
  )
#legalB(me; opp) = ((e {opp} ne)* se se {me} + w w* {me})
#rules = (
    ->px (anySquare {em} {? legalA(x; o)} [x] + {! anySquare {em} {? legalA(x; o)}})
    ->po (anySquare {em} {! legalA(o; x)} {? legalB(o; x)} [o]
          + {! anySquare {em} {! legalA(o; x)} {? legalB(o; x)}})
  )*
";

#[test]
fn whole_board_patterns_count_what_the_interpreter_counts() {
    let path = temp_file("boardPatterns.rbg", GAME);
    let path = path.to_str().unwrap();
    let expected = perft(path, 6, &[]);
    assert_eq!(expected.len(), 6);
    // Not a trivial game: the patterns leave some moves and forbid others.
    assert!(expected[5].0 > 10_000, "{expected:?}");
    assert_eq!(perft(path, 6, &["--engine", "compiled"]), expected, "board patterns on");
    assert_eq!(perft(path, 6, &["--engine", "compiled", "--no-board-patterns"]), expected, "off");
}

/// The count above means something only if the generated code takes the word forms.
#[test]
fn the_game_reaches_every_word_form() {
    let path = temp_file("boardPatterns.rbg", GAME);
    let dir = path.parent().unwrap().join("crate");
    let out = rbg(&["compile", path.to_str().unwrap(), "--output", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let code = std::fs::read_to_string(dir.join("src/lib.rs")).expect("generated source");
    for form in [
        "fn board_memo_",            // a memoised set
        "let mut bits: BoardSet = ", // a fan visiting the cells of a set
        "& !board_memo_",            // ... of a complemented one
        "for _ in 0..7usize",        // a ray along a row of 7 cells
        "x &= !sub",                 // a nested pattern, complemented
        "break 'cmp false",          // a comparison
        "} else { 0 }",              // a fan over every cell inside a pattern
        // A fan along a row (`w w*`), one masked shift per distance: six steps west are
        // possible only from the last cell of the middle row of 7 (vertex 4 + 5 + 6 + 6 = 21).
        "((x << 6) & 2097152)",
    ] {
        assert!(code.contains(form), "{form}");
    }
    // Several deltas for one label: `ne` moves by -4 .. -7 between the hexagon's rows.
    assert!(code.contains("x << 4") && code.contains("x << 6"), "ne shifts");
}

/// A ray as long as the board allows, counted by hand. Row 0 holds seven `o` and an `x`; each
/// move puts an `x` on an empty cell of row 1 from which `up ({o} right)* {x}` holds. From
/// column k, `up` reaches (k, 0) and the ray crosses the `o` of columns k..6 to the `x`: every
/// column qualifies, and from column 0 the ray takes all 7 steps the row allows. Row 0 never
/// changes, so the moves are the 8, then 7, then 6 remaining cells: 8, 56, 336 leaves. One round
/// too few would lose column 0 (7, 42, 210).
#[test]
fn the_longest_ray_is_found() {
    const LONG_RAY: &str = "\
#players = a(1)
#pieces = e, x, o
#variables =
#board = rectangle(up, down, left, right,
    [o,o,o,o,o,o,o,x]
    [e,e,e,e,e,e,e,e])
#rules = (->a ((up* + down*)(left* + right*)) {e} {? up ({o} right)* {x}} [x])*
";
    let path = temp_file("longRay.rbg", LONG_RAY);
    let path = path.to_str().unwrap();
    // The compiled engine with and without word tests (which take this pattern as up to 8 terms
    // at one cell).
    for args in
        [&["--engine", "interp"][..], &["--engine", "compiled"], &["--engine", "compiled", "--no-word-tests"]]
    {
        let leaves: Vec<u64> = perft(path, 3, args).iter().map(|c| c.0).collect();
        assert_eq!(leaves, [8, 56, 336], "{args:?}");
    }
}
