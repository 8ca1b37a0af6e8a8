//! Where the generator evaluates patterns for the whole board at once (design notes 6.3), where
//! it runs ray captures as one loop (`ray_captures.rs`) and where it counts moves by a popcount
//! (switch `bulk-counts`), read off the generated source. That the sets are right is tested end
//! to end in
//! `rbg-cli/tests/board_patterns.rs` (against the interpreter, with the switch on and off) and by
//! the corpus conformance tests.

use rbg_compiler::{generate_source, CompileOptions};

/// The generated source of a game on a `width`×`height` rectangle of empty cells with one `x`
/// at the first cell.
fn source(width: usize, height: usize, rules: &str, options: &CompileOptions) -> String {
    let rows: String = (0..height)
        .map(|y| {
            let cells: Vec<&str> = (0..width).map(|x| if x + y == 0 { "x" } else { "e" }).collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    let text = format!(
        "#players = a(1), b(1)\n#pieces = e, x, o\n#variables =\n\
         #board = rectangle(up, down, left, right, {rows})\n#anySquare = ((up* + down*)(left* + right*))\n\
         #rules = {rules}\n"
    );
    let out = rbg_parser::parse("test.rbg", text.as_bytes());
    let game = out.game.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    generate_source(&game, "test", options).expect("generates")
}

/// A reversi-like placement: at every empty cell, a ray of `o` to the left ending at an `x`.
const RAY_RULES: &str = "(->a anySquare {e} {? left {o} left ({o} left)* {x}} [x] ->b)*";

#[test]
fn a_ray_asked_at_every_cell_is_one_word_fixpoint_with_fixed_rounds() {
    let code = source(8, 8, RAY_RULES, &CompileOptions::default());
    assert!(code.contains("type BoardSet = u64;"), "{code}");
    assert!(code.contains("fn board_memo_"), "{code}");
    // The fan visits only the cells where the memoised set and the piece test both hold.
    assert!(code.contains("let mut bits: BoardSet = "), "{code}");
    // On rows of 8 cells a ray walks at most 7 steps to the left, so 8 rounds (0 to 7 steps)
    // reach the fixpoint.
    assert!(code.contains("for _ in 0..8usize"), "{code}");
    // `left` moves every cell but the first column by -1: one masked shift by 1.
    assert!(code.contains("x << 1"), "{code}");
}

#[test]
fn the_switch_turns_it_off() {
    let options = CompileOptions { board_patterns: false, ..CompileOptions::default() };
    let code = source(8, 8, RAY_RULES, &options);
    assert!(!code.contains("board_memo_"), "{code}");
    assert!(!code.contains("board_epoch"), "{code}");
}

#[test]
fn boards_past_64_cells_use_128_bit_sets_and_past_128_none() {
    // 9 x 8 = 72 cells.
    let code = source(9, 8, RAY_RULES, &CompileOptions::default());
    assert!(code.contains("type BoardSet = u128;"), "{code}");
    assert!(code.contains("fn board_memo_"), "{code}");
    // 12 x 11 = 132 cells.
    let code = source(12, 11, RAY_RULES, &CompileOptions::default());
    assert!(!code.contains("board_memo_"), "{code}");
}

#[test]
fn short_fans_keep_the_scalar_search() {
    // A fan over one row of 8 cells asks the pattern at too few cells to repay the board.
    let rules = "(->a (left* + right*) {e} {? left {o} left ({o} left)* {x}} [x] ->b)*";
    let code = source(8, 8, rules, &CompileOptions::default());
    assert!(!code.contains("board_memo_"), "{code}");
}

#[test]
fn cycles_other_than_rays_keep_the_scalar_search() {
    // `(left up)*` shifts twice per round: not a ray, so no fixed number of rounds.
    let rules = "(->a anySquare {e} {? (left {o} up)* {x}} [x] ->b)*";
    let code = source(8, 8, rules, &CompileOptions::default());
    assert!(!code.contains("board_memo_"), "{code}");
}

#[test]
fn nested_patterns_and_comparisons_have_word_forms() {
    let rules = "(->a anySquare {e} {? {! up {e}} {$ x < o + 3} left {o}} [x] ->b)*";
    let code = source(8, 8, rules, &CompileOptions::default());
    assert!(code.contains("fn board_memo_"), "{code}");
    // The nested pattern is its own set, read complemented.
    assert!(code.contains("x &= !sub"), "{code}");
    // The comparison keeps or empties the whole set.
    assert!(code.contains("break 'cmp false"), "{code}");
}

/// The body of the generated function `name` (up to the next top-level item).
fn function<'a>(code: &'a str, name: &str) -> &'a str {
    let start = code.find(&format!("fn {name}(")).unwrap_or_else(|| panic!("no {name} in {code}"));
    let body = &code[start..];
    &body[..body.find("\n}\n").map_or(body.len(), |end| end + 2)]
}

#[test]
fn memoised_sets_read_the_state_words_unless_switched_off() {
    let code = source(8, 8, RAY_RULES, &CompileOptions::default());
    let memo = code.find("fn board_memo_").expect("a memo");
    let automaton = code[memo + "fn board_memo_".len()..].split('(').next().expect("a name");
    let set = function(&code, &format!("board_pattern_{automaton}"));
    // The ray reads `o` and `x`, each one word of the state, and never scans the board.
    assert!(set.contains("st.words["), "{set}");
    assert!(!set.contains("board_bits"), "{set}");
    assert!(code.contains("words: [BoardSet; WORD_SLOTS]"), "{code}");

    let options = CompileOptions { board_words: false, ..CompileOptions::default() };
    let code = source(8, 8, RAY_RULES, &options);
    let set = function(&code, &format!("board_pattern_{automaton}"));
    assert!(set.contains("board_bits(st, |p| matches!(p, PIECE_O))"), "{set}");
    assert!(set.contains("board_bits(st, |p| matches!(p, PIECE_X))"), "{set}");
    assert!(!code.contains("words: [BoardSet"), "{code}");
}

/// A reversi with two directions: at an empty cell with a capture, each direction either has
/// no capture or flips its run of the opponent's pieces and walks back to the cell.
fn flipping_game(back_left: &str) -> String {
    format!(
        "#players = a(1), b(1)\n#pieces = e, x, o\n#variables =\n\
         #board = rectangle(up, down, left, right, [e,e,e,e,e,e] [e,e,x,o,e,e] [e,e,o,x,e,e] [e,e,e,e,e,e])\n\
         #anySquare = ((up* + down*)(left* + right*))\n\
         #possible(me; opp; dir) = (dir {{opp}} dir ({{opp}} dir)* {{me}})\n\
         #swap(me; opp; dir; back) = ({{! possible(me; opp; dir)}} + dir {{opp}} [me] dir ({{opp}} [me] dir)* {{me}} back ({{me}} back)* {{e}})\n\
         #turn(me; opp; p) = (->p anySquare {{e}} {{? possible(me; opp; left) + possible(me; opp; right)}} ->> \
           swap(me; opp; left; {back_left}) swap(me; opp; right; left) [me])\n\
         #rules = (turn(x; o; a) turn(o; x; b))*\n"
    )
}

fn ray_capture_source(text: &str, options: &CompileOptions) -> String {
    let out = rbg_parser::parse("flips.rbg", text.as_bytes());
    let game = out.game.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    generate_source(&game, "flips", options).expect("generates")
}

#[test]
fn ray_captures_walk_each_direction_in_one_loop_unless_switched_off() {
    let walks = |code: &str| code.matches("run += 1;").count();
    let code = ray_capture_source(&flipping_game("right"), &CompileOptions::default());
    // Two directions for each of the two players (the last one's `[me]` duplicated into it).
    assert_eq!(walks(&code), 4, "{code}");
    assert!(code.contains("set_piece(st, at, PIECE_X);"), "{code}");
    assert!(code.contains("set_piece(st, at, PIECE_O);"), "{code}");

    let options = CompileOptions { ray_captures: false, ..CompileOptions::default() };
    let code = ray_capture_source(&flipping_game("right"), &options);
    assert_eq!(walks(&code), 0, "{code}");
}

#[test]
fn a_walk_back_that_does_not_retrace_the_ray_keeps_the_search() {
    // Walking back `up` after flipping to the left does not return to the cell: the shape's
    // meaning differs, so only the `right` directions (walking back `left`) qualify.
    let code = ray_capture_source(&flipping_game("up"), &CompileOptions::default());
    assert_eq!(code.matches("run += 1;").count(), 2, "{code}");
}

#[test]
fn reversi_written_as_walk_out_then_flip_back_keeps_the_search() {
    // games/reversi.rbg brackets the run first and flips it on the way back
    // (`bracket back ({enemy} [own] back)* {bare}`): another shape, left to the search (the
    // corpus reversi flips on the way out, as `flipping_game` does, and gets the loops).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/reversi.rbg");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let code = ray_capture_source(&text, &CompileOptions::default());
    assert_eq!(code.matches("run += 1;").count(), 0);
}

#[test]
fn moves_that_are_the_cells_of_a_whole_board_set_are_counted_by_popcount_unless_switched_off() {
    // Each empty cell with a capture is one move (the flips are the keeper's): the count is the
    // set's popcount.
    let skips = |code: &str| code.matches("k.skip_moves(u64::from(bits.count_ones()))").count();
    let code = ray_capture_source(&flipping_game("right"), &CompileOptions::default());
    assert_eq!(skips(&code), 2, "{code}");
    let options = CompileOptions { bulk_counts: false, ..CompileOptions::default() };
    assert_eq!(skips(&ray_capture_source(&flipping_game("right"), &options)), 0);
    // A modifier after the tests makes each cell's move do more than its switch.
    let code = source(8, 8, RAY_RULES, &CompileOptions::default());
    assert!(code.contains("fn board_memo_"), "{code}");
    assert_eq!(skips(&code), 0, "{code}");
}

#[test]
fn sets_that_walk_rays_stay_memoised_while_the_piece_words_are_unchanged() {
    let keyed = |code: &str| code.contains("sc.board_keys[");
    // Reversi's move test walks rays over `o` and `x`, read from the state's words.
    assert!(keyed(&ray_capture_source(&flipping_game("right"), &CompileOptions::default())));
    assert!(keyed(&source(8, 8, RAY_RULES, &CompileOptions::default())));
    // Without the words the set is collected from the board, and memoised per search only.
    let options = CompileOptions { board_words: false, ..CompileOptions::default() };
    let code = source(8, 8, RAY_RULES, &options);
    assert!(code.contains("fn board_memo_") && !keyed(&code), "{code}");
    // A set of a few shifts costs less to recompute than the words to compare.
    let shifts = "(->a anySquare {e} {? left {o} + right {o}} [x] ->b)*";
    let code = source(8, 8, shifts, &CompileOptions::default());
    assert!(code.contains("fn board_memo_") && !keyed(&code), "{code}");
}

/// Two players' moves each asked as a pattern of rays, and after `a`'s move the test "can anyone
/// move" written out as the rays of both (reversi's keeper).
const MINE: &str = "left {o} left ({o} left)* {x} + right {o} right ({o} right)* {x}";
const THEIRS: &str = "left {x} left ({x} left)* {o} + right {x} right ({x} right)* {o}";

fn keeper_source(options: &CompileOptions) -> String {
    let rules = format!(
        "(->a anySquare {{e}} {{? {MINE}}} [x] {{? anySquare {{e}} ({MINE} + {THEIRS})}} \
         ->b anySquare {{e}} {{? {THEIRS}}} [o])*"
    );
    source(8, 8, &rules, options)
}

/// The memo function that the fan of the move ending in `[piece]` reads.
fn move_memo(code: &str, piece: &str) -> String {
    let at =
        code.find(&format!("[{piece}] →")).or_else(|| code.find(&format!("[{piece}]"))).expect("the move");
    let before = &code[..at];
    let memo = before.rfind("board_memo_").expect("a memo before the move");
    code[memo..].split('(').next().expect("a name").to_string()
}

#[test]
fn a_keeper_written_out_reads_the_move_sets_the_next_player_first() {
    let code = keeper_source(&CompileOptions::default());
    let theirs = move_memo(&code, "o");
    let mine = move_memo(&code, "x");
    assert_ne!(theirs, mine, "{code}");
    // The keeper asks whether some empty cell is in either set, `b`'s first: `b`'s search asks
    // it next while the pieces are unchanged, so it is computed once for both.
    let either =
        format!("{theirs}(st, sc) & 18446744073709551615) != 0\n        || (st.occ[0][0] & {mine}(st, sc)");
    assert!(code.contains(&either), "{code}");
    // Off: the keeper walks the rays itself and reads no memo at its empty cells.
    let options = CompileOptions {
        program: rbg_automaton::ProgramOptions { pattern_tails: false, ..Default::default() },
        ..CompileOptions::default()
    };
    let code = keeper_source(&options);
    assert!(!code.contains("!= 0\n        || (st.occ"), "{code}");
}
