//! rbg-nld: natural-language descriptions (NLD) of Simplified Boardgames pieces and their
//! complexity, after the NLD paper of Kowalski et al. on evaluating chess-like games by
//! generated natural language descriptions (our copy: `/work/shared/papers/nld-piece-descriptions.txt`).
//!
//! * [`moves`] unfolds a movement rule into moves made of parts (leaps, rides, hops).
//! * [`decompose`] describes the moves by classes (leaper, rider) with operators, greedily.
//! * [`classes`] holds the classes, the operators and their costs: equations (1) and (2) and
//!   our cost table (the paper's Table 1 is missing; ours reproduces its ten complexities).
//! * [`sentence`] writes the English sentence.
//!
//! [`describe_game`] describes every piece of a game and scores the game by equation (3);
//! [`game_complexity`] is that score alone. Both are total: any parsed game gets a
//! description, odd rules a best-effort one ("moves by the pattern ...", see [`classes`] for
//! the fallback cost).

#![forbid(unsafe_code)]

pub mod classes;
pub mod decompose;
pub mod moves;
pub mod sentence;

use rbg_sbg::syntax::Regex;
use rbg_sbg::SbgGame;
use serde::Serialize;

pub use classes::{Class, ClassKind, Operator};
pub use decompose::{Component, PartDescription};

/// The description of one piece type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceDescription {
    /// The piece type's letter (uppercase).
    pub letter: char,
    /// How many pieces of the type (both sides) stand on the initial board: the paper's #p.
    pub count: u64,
    /// Whether the game has a movement rule for the type (pieces without one cannot move).
    pub has_rule: bool,
    pub components: Vec<Component>,
    pub sentence: String,
    /// The NLD complexity f(p): the sum of the components' complexities.
    pub complexity: f64,
}

/// The description of a game: its pieces and its NLD score.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameDescription {
    pub name: String,
    /// The piece types with a rule (in the order written), then those on the board without one.
    pub pieces: Vec<PieceDescription>,
    /// Equation (3).
    pub score: f64,
}

/// The largest complexity reported: a pathological rule (hundreds of generic steps) would
/// otherwise overflow to infinity, which JSON cannot carry and a fitness cannot rank.
pub const MAX_COMPLEXITY: f64 = 1e12;

/// The components, sentence and complexity of one movement rule.
pub fn describe_rule(regex: &Regex) -> (Vec<Component>, String, f64) {
    let moves = moves::moves_of(regex);
    let components = decompose::decompose(&moves);
    let text = sentence::sentence(&components);
    let complexity = components.iter().map(Component::complexity).sum::<f64>().min(MAX_COMPLEXITY);
    (components, text, complexity)
}

/// Describes every piece type of the game (those with a rule and those on the board) and
/// scores the game by equation (3).
pub fn describe_game(game: &SbgGame) -> GameDescription {
    let mut pieces: Vec<PieceDescription> = game
        .rules
        .iter()
        .map(|rule| {
            let (components, sentence, complexity) = describe_rule(&rule.regex);
            PieceDescription {
                letter: char::from(rule.kind),
                count: initial_count(game, rule.kind),
                has_rule: true,
                components,
                sentence,
                complexity,
            }
        })
        .collect();
    for kind in game.kinds() {
        let on_board = initial_count(game, kind) > 0;
        if on_board && game.rule(kind).is_none() {
            pieces.push(PieceDescription {
                letter: char::from(kind),
                count: initial_count(game, kind),
                has_rule: false,
                components: Vec::new(),
                sentence: sentence::sentence(&[]),
                complexity: 0.0,
            });
        }
    }
    let score = score(&pieces);
    GameDescription { name: game.name.clone(), pieces, score }
}

/// Equation (3): the mean piece complexity over the initial position, times 10 + k.
pub fn game_complexity(game: &SbgGame) -> f64 {
    describe_game(game).score
}

/// Equation (3) over described pieces: (sum of #p * f(p)) / (sum of #p) * (10 + k), k the
/// number of piece types described. With no piece on the board the mean is taken over the
/// types (each counted once); with no type at all the score is 0.
fn score(pieces: &[PieceDescription]) -> f64 {
    let k = pieces.len() as f64;
    let on_board: f64 = pieces.iter().map(|p| p.count as f64).sum();
    let mean = if on_board > 0.0 {
        pieces.iter().map(|p| p.count as f64 * p.complexity).sum::<f64>() / on_board
    } else if pieces.is_empty() {
        0.0
    } else {
        pieces.iter().map(|p| p.complexity).sum::<f64>() / k
    };
    mean * (10.0 + k)
}

fn initial_count(game: &SbgGame, kind: u8) -> u64 {
    game.cells.iter().flatten().filter(|p| p.kind == kind).count() as u64
}
