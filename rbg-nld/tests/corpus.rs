//! Descriptions of the games in `games/sbg/` (every piece gets a sentence and a complexity;
//! chess pieces have the values derived by hand below), hand-written sentences for operators
//! the paper's ten pieces do not use, and random rules that must never make `describe_game`
//! panic.

use std::path::PathBuf;

use proptest::prelude::*;
use rbg_nld::{describe_game, game_complexity, MAX_COMPLEXITY};
use rbg_parser::source::Span;
use rbg_sbg::syntax::{Letter, On, Power, Regex};

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/sbg")
}

fn parse_file(path: &std::path::Path) -> rbg_sbg::SbgGame {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    rbg_sbg::parse(&path.display().to_string(), &bytes)
        .unwrap_or_else(|d| panic!("{}: {d:?}", path.display()))
}

/// A 3x3 game whose piece `A` (on the middle of the bottom row) moves by `rule`.
fn one_piece(rule: &str) -> rbg_sbg::SbgGame {
    let text = format!("<<T>>\n<BOARD> 3 3\n|.a.|\n|...|\n|.A.|\n<PIECES>\nA {rule} &\n<GOALS>\n10 &\n");
    rbg_sbg::parse("t.sbg", text.as_bytes()).unwrap_or_else(|d| panic!("{rule}: {d:?}"))
}

fn sentence_and_complexity(rule: &str) -> (String, f64) {
    let description = describe_game(&one_piece(rule));
    let piece = &description.pieces[0];
    (piece.sentence.clone(), piece.complexity)
}

#[test]
fn every_piece_of_every_sbg_game_gets_a_sentence() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(games_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sbg"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 15);
    for file in files {
        let game = parse_file(&file);
        let description = describe_game(&game);
        assert_eq!(
            description.pieces.len(),
            game.rules.len(),
            "{}: every piece here has a rule",
            file.display()
        );
        for piece in &description.pieces {
            assert!(
                !piece.sentence.is_empty() && !piece.components.is_empty(),
                "{}: {piece:?}",
                file.display()
            );
            assert!(piece.complexity > 0.0 && piece.complexity.is_finite(), "{}: {piece:?}", file.display());
            assert!(piece.sentence.chars().next().unwrap().is_uppercase(), "{}", piece.sentence);
        }
        assert!(description.score > 0.0 && description.score.is_finite());
    }
}

#[test]
fn gardner_by_hand() {
    let game = parse_file(&games_dir().join("gardner.sbg"));
    let description = describe_game(&game);
    let piece = |letter: char| description.pieces.iter().find(|p| p.letter == letter).unwrap();
    // Pawn: a forward step to an empty square, leaper <0,1> with forwards (1) and without
    // capturing (0.5): 2 * 2.5 = 5; the same for the diagonal forward captures with only
    // capturing (0.5): 5.
    assert_eq!(piece('P').complexity, 10.0);
    assert_eq!(piece('P').sentence, "Moves 1 vertically forward or captures 1 diagonally forward");
    // Rook: riders <1,0> and <0,1> (2 each); bishop: rider <1,1>; knight: leapers <1,2> and
    // <2,1> (4 each); king and queen: three classes of cost 2.
    assert_eq!(piece('R').complexity, 4.0);
    assert_eq!(piece('R').sentence, "Rides vertically or horizontally");
    assert_eq!(piece('B').complexity, 2.0);
    assert_eq!(piece('B').sentence, "Rides diagonally");
    assert_eq!(piece('N').complexity, 8.0);
    assert_eq!(piece('N').sentence, "Leaps over vector (1,2)/(2,1)");
    assert_eq!(piece('K').complexity, 6.0);
    assert_eq!(piece('K').sentence, "Leaps 1 in every direction");
    assert_eq!(piece('Q').complexity, 6.0);
    // Equation (3): 10 pawns, two of each other piece, 6 types:
    // (10*10 + 2*4 + 2*2 + 2*8 + 2*6 + 2*6) / 20 * 16 = 152 / 20 * 16 = 121.6.
    assert!((game_complexity(&game) - 121.6).abs() < 1e-9);
}

#[test]
fn operators_beyond_the_papers_ten_pieces() {
    // A berolina-like step: forward diagonally without capturing, captures straight ahead.
    // Leaper <1,1> forwards without capturing: 2 * (1 + 1 + 0.5) = 5; leaper <0,1>
    // forwards only capturing: 5.
    assert_eq!(
        sentence_and_complexity("(1,1,e) + (-1,1,e) + (0,1,p)"),
        ("Moves 1 diagonally forward or captures 1 vertically forward".to_string(), 10.0)
    );
    // A grasshopper along files and ranks: rider hopping (2): 2 * 3 per class.
    let hopper = "(0,1,e)^*((0,1,p) + (0,1,w))((0,1,e) + (0,1,p)) + (0,-1,e)^*((0,-1,p) + (0,-1,w))((0,-1,e) + (0,-1,p)) + \
                  (1,0,e)^*((1,0,p) + (1,0,w))((1,0,e) + (1,0,p)) + (-1,0,e)^*((-1,0,p) + (-1,0,w))((-1,0,e) + (-1,0,p))";
    assert_eq!(
        sentence_and_complexity(hopper),
        ("Hops over a piece vertically or horizontally".to_string(), 12.0)
    );
    // A rook that only captures, to the right only: rider <1,0> with only capturing (1.5) and
    // rightwards (1): 2 * 3.5.
    assert_eq!(
        sentence_and_complexity("(1,0,e)^*(1,0,p)"),
        ("Rides only capturing horizontally to the right".to_string(), 7.0)
    );
    // Capturing own pieces on a knight's leap forward: leaper <1,2>, forwards (1), end on own
    // pieces (5): 4 * 7.
    assert_eq!(
        sentence_and_complexity("(1,2,w) + (-1,2,w)"),
        ("Captures own forward over vector (1,2)".to_string(), 28.0)
    );
    // A rook riding over opponent's pieces to an empty square: rider <1,0> and <0,1>, without
    // capturing (1.5), riding over opponent's pieces (3.5): 2 * 6 each.
    let over_pieces = "(1,0,p)^*(1,0,e) + (-1,0,p)^*(-1,0,e) + (0,1,p)^*(0,1,e) + (0,-1,p)^*(0,-1,e)";
    assert_eq!(
        sentence_and_complexity(over_pieces),
        (
            "Rides without capturing riding only over opponent's pieces horizontally or vertically"
                .to_string(),
            24.0
        )
    );
}

#[test]
fn odd_rules_get_a_pattern_and_its_documented_cost() {
    // Four parts: the generic description, scored by the product of equation (1) over the
    // steps: 2 * 2 * 2 * 2.
    assert_eq!(
        sentence_and_complexity("(1,0,e)(0,1,e)(1,0,e)(0,1,e)"),
        ("Moves by the pattern (1,0,e)(0,1,e)(1,0,e)(0,1,e)".to_string(), 16.0)
    );
    // A starred group of two letters: 2 (the pattern factor) times the product over its
    // distinct vectors (f(<0,1>) = 2), after the leading step (2): 2 * 2 * 2 = 8.
    assert_eq!(
        sentence_and_complexity("(0,1,e)((0,1,w)(0,1,e))^*"),
        ("Moves by the pattern (0,1,e)((0,1,w)(0,1,e))^*".to_string(), 8.0)
    );
    // The null move (0,0,w) stays in place; f(<0,0>) = 1.
    assert_eq!(sentence_and_complexity("(0,0,w)"), ("Stays in place".to_string(), 1.0));
}

#[test]
fn a_piece_on_the_board_without_a_rule_cannot_move() {
    let text = "<<T>>\n<BOARD> 2 2\n|xa|\n|XA|\n<PIECES>\nA (0,1,e) &\n<GOALS>\n10 &\n";
    let game = rbg_sbg::parse("t.sbg", text.as_bytes()).unwrap();
    let description = describe_game(&game);
    let x = description.pieces.iter().find(|p| p.letter == 'X').unwrap();
    assert_eq!((x.sentence.as_str(), x.complexity, x.has_rule), ("Cannot move", 0.0, false));
    // A: leaper <0,1> forwards without capturing, 2 * 2.5 = 5; two A and two X on the board,
    // k = 2: (2*5 + 2*0) / 4 * 12 = 30.
    assert_eq!(description.score, 30.0);
}

fn letter(dx: i32, dy: i32, on: On) -> Regex {
    Regex::Letter(Letter { dx, dy, on, span: Span { start: 0, end: 0 } })
}

/// Random rules, built directly (a generator need not go through the parser, so sizes beyond
/// the parser's limits are allowed).
fn regex() -> impl Strategy<Value = Regex> {
    let on = prop_oneof![Just(On::Empty), Just(On::Opponent), Just(On::Own)];
    let leaf = (-3i32..=3, -3i32..=3, on).prop_map(|(dx, dy, on)| letter(dx, dy, on));
    leaf.prop_recursive(5, 48, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 2..4).prop_map(Regex::Concat),
            prop::collection::vec(inner.clone(), 2..4).prop_map(Regex::Alt),
            (inner.clone(), 0u32..6).prop_map(|(r, n)| Regex::Power(Box::new(r), Power::Times(n))),
            inner.prop_map(|r| Regex::Power(Box::new(r), Power::Star)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn describing_random_rules_never_panics(rules in prop::collection::vec(regex(), 1..4)) {
        let mut game = one_piece("(0,1,e)");
        let template = game.rules[0].clone();
        game.rules = rules
            .into_iter()
            .zip([b'A', b'B', b'C'])
            .map(|(regex, kind)| rbg_sbg::syntax::Rule { kind, regex, ..template.clone() })
            .collect();
        let description = describe_game(&game);
        for piece in &description.pieces {
            prop_assert!(!piece.sentence.is_empty());
            prop_assert!(piece.complexity >= 0.0 && piece.complexity <= MAX_COMPLEXITY, "{piece:?}");
        }
        prop_assert!(description.score.is_finite() && description.score >= 0.0);
        prop_assert_eq!(description.score, game_complexity(&game));
    }
}
