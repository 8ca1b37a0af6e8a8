//! The ten fairy pieces of the NLD paper (section 4.1), written in SBG in `games/sbg/nld/`:
//! their complexities must be the paper's exactly, and their sentences the paper's words.
//!
//! Expected values are the paper's, typed from its list. Where the paper names the same
//! directions in two orders ("horizontally or vertically" for the short rook and the
//! hippogriff, "vertically or horizontally" for the griffon, the duke, the moa and ferz then
//! wazir), our sentences follow the order the rule uses, and the games are written in the
//! paper's order, so every sentence below is the paper's word for word.

use std::path::PathBuf;

use rbg_nld::{describe_game, game_complexity, ClassKind, Component};

fn nld_game(name: &str) -> rbg_sbg::SbgGame {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/sbg/nld").join(format!("{name}.sbg"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    rbg_sbg::parse(&path.display().to_string(), &bytes)
        .unwrap_or_else(|d| panic!("{} does not parse: {d:?}", path.display()))
}

/// (file, piece letter, the paper's complexity, the paper's sentence).
const PAPER: [(&str, char, f64, &str); 10] = [
    ("queen", 'Q', 6.0, "Rides in every direction"),
    ("shortrook", 'R', 12.0, "Rides a maximum of 4 times horizontally or vertically"),
    ("lance", 'L', 4.0, "Rides vertically forward"),
    ("centaur", 'C', 14.0, "Leaps 1 in every direction or over vector (1,2)/(2,1)"),
    (
        "griffon",
        'G',
        78.0,
        "Moves 1 diagonally or moves 1 diagonally and then rides outwards vertically or horizontally",
    ),
    (
        "hippogriff",
        'H',
        120.0,
        "Moves 1 diagonally and then rides a minimum of 2 times outwards horizontally or vertically",
    ),
    (
        "duke",
        'D',
        60.0,
        "Rides without capturing diagonally and then leaps outwards 1 vertically or horizontally",
    ),
    ("moa", 'M', 36.0, "Moves 1 diagonally and then leaps outwards 1 vertically or horizontally"),
    ("ferzwazir", 'F', 12.0, "Moves 1 diagonally and then leaps 1 vertically or horizontally"),
    ("buffalo", 'B', 28.0, "Leaps over vector (3,2)/(2,3) or (3,1)/(1,3) or (1,2)/(2,1)"),
];

#[test]
fn the_ten_pieces_have_the_papers_complexities() {
    for (file, letter, expected, _) in PAPER {
        let description = describe_game(&nld_game(file));
        let piece = description.pieces.iter().find(|p| p.letter == letter).expect("the piece is described");
        assert_eq!(piece.complexity, expected, "{file}: {piece:#?}");
    }
}

#[test]
fn the_ten_pieces_have_the_papers_sentences() {
    for (file, letter, _, expected) in PAPER {
        let description = describe_game(&nld_game(file));
        let piece = description.pieces.iter().find(|p| p.letter == letter).expect("the piece is described");
        assert_eq!(piece.sentence, expected, "{file}");
    }
}

#[test]
fn a_game_of_one_piece_type_scores_its_complexity_times_eleven() {
    // Equation (3) with k = 1 and two pieces of the type on the board: f * (10 + 1).
    for (file, _, expected, _) in PAPER {
        assert_eq!(game_complexity(&nld_game(file)), expected * 11.0, "{file}");
    }
}

#[test]
fn the_queen_is_three_riders_and_the_centaur_five_leapers() {
    let queen = describe_game(&nld_game("queen"));
    let classes = |components: &[Component]| -> Vec<(ClassKind, u32, u32)> {
        let mut classes: Vec<_> = components
            .iter()
            .flat_map(|c| match c {
                Component::Classes { parts, .. } => {
                    parts.iter().map(|p| (p.class.kind, p.class.x, p.class.y)).collect()
                }
                Component::Pattern { .. } => Vec::new(),
            })
            .collect();
        classes.sort();
        classes
    };
    use ClassKind::{Leaper, Rider};
    assert_eq!(classes(&queen.pieces[0].components), [(Rider, 0, 1), (Rider, 1, 0), (Rider, 1, 1)]);
    let centaur = describe_game(&nld_game("centaur"));
    assert_eq!(
        classes(&centaur.pieces[0].components),
        [(Leaper, 0, 1), (Leaper, 1, 0), (Leaper, 1, 1), (Leaper, 1, 2), (Leaper, 2, 1)]
    );
    // Plain leapers and riders carry no operator.
    for piece in [&queen.pieces[0], &centaur.pieces[0]] {
        for component in &piece.components {
            let Component::Classes { parts, .. } = component else { panic!("no fallback expected") };
            assert!(parts.iter().all(|p| p.operators.is_empty()), "{parts:?}");
        }
    }
}

#[test]
fn the_papers_generated_example_piece() {
    // Section 4.1: a generated piece that "captures own forward over vector (5,2)/(2,5) or
    // rides capturing but riding only over own pieces horizontally or vertically" (136). We
    // read it as forward leaps by (5,2) and (2,5) onto own pieces and rook lines over own
    // pieces ending on an opponent's.
    let rule = "(5,2,w) + (-5,2,w) + (2,5,w) + (-2,5,w) + \
                (1,0,w)^*(1,0,p) + (-1,0,w)^*(-1,0,p) + (0,1,w)^*(0,1,p) + (0,-1,w)^*(0,-1,p)";
    let text = format!(
        "<<G>>\n<BOARD> 6 6\n{}<PIECES>\nA {rule} &\n<GOALS>\n10 &\n",
        "|......|\n".repeat(5) + "|A.....|\n"
    );
    let game = rbg_sbg::parse("g.sbg", text.as_bytes()).unwrap_or_else(|d| panic!("{d:?}"));
    let piece = &describe_game(&game).pieces[0];
    assert_eq!(piece.complexity, 136.0, "{piece:#?}");
    assert_eq!(
        piece.sentence,
        "Captures own forward over vector (5,2)/(2,5) or rides capturing but riding only over own pieces horizontally or vertically"
    );
}
