//! Building blocks of piece movements (paper, section III.A).
//!
//! A block is a short word over the SBG alphabet of letters `(dx, dy, on)`, drawn from
//! per-class probability tables, with optional modifiers that extend the one word to a set of
//! words: a horizontal mirror (`dx` negated), a vertical mirror (`dy` negated), the four
//! rotations by a right angle, and a Kleene star on some letters. Pieces are divided into three
//! classes by mobility (weak, light, strong); every run draws one pool of blocks per class, and
//! a piece's rule is a few blocks of its class's pool, written as the alternation of all their
//! words.
//!
//! Choices where the paper gives no numbers (the tables below): weak blocks are one or two
//! letters going forward or sideways, never starred nor rotated (pawn-like); light blocks are
//! one to three letters within two squares, sometimes mirrored or rotated, rarely starred
//! (knight- and bishop-like steps); strong blocks are usually two letters with a starred first
//! letter (riders), mirrored and rotated more often. The last letter of a word is never starred,
//! so no word is empty (an empty word would be a null move, i.e. a pass), and no letter is
//! `(0, 0, _)`.

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::seeds::Rng;

/// The mobility class of a piece type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PieceClass {
    Weak,
    Light,
    Strong,
}

impl PieceClass {
    pub const ALL: [PieceClass; 3] = [PieceClass::Weak, PieceClass::Light, PieceClass::Strong];

    /// The rule size (letters as written) of a typical chess piece of the class, from the
    /// Gardner description of the SBG specification: the pawn (3) for weak; the knight and the
    /// bishop (16 each) for light; the mean of the rook (16) and the queen (32) for strong.
    /// The complexity feature compares a game's rules with the sum of these over its pieces.
    pub fn desired_rule_size(self) -> f64 {
        match self {
            PieceClass::Weak => 3.0,
            PieceClass::Light => 16.0,
            PieceClass::Strong => 24.0,
        }
    }

    /// How many blocks of its pool a piece of this class gets: `(least, most)`.
    fn blocks_per_piece(self) -> (usize, usize) {
        match self {
            PieceClass::Weak => (1, 2),
            PieceClass::Light => (2, 3),
            PieceClass::Strong => (2, 4),
        }
    }
}

/// What a letter requires of the square it lands on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OnSquare {
    Empty,
    Opponent,
    Own,
}

impl OnSquare {
    fn symbol(self) -> char {
        match self {
            OnSquare::Empty => 'e',
            OnSquare::Opponent => 'p',
            OnSquare::Own => 'w',
        }
    }
}

/// One letter of a word, possibly starred.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    pub dx: i32,
    pub dy: i32,
    pub on: OnSquare,
    pub star: bool,
}

/// A building block: a word and the modifiers that extend it to a set of words.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Block {
    pub steps: Vec<Step>,
    pub mirror_horizontal: bool,
    pub mirror_vertical: bool,
    pub rotate: bool,
}

/// The per-class pools of blocks of one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockPools {
    pub weak: Vec<Block>,
    pub light: Vec<Block>,
    pub strong: Vec<Block>,
}

/// Blocks drawn per class and run.
pub const POOL_SIZE: usize = 10;

impl Block {
    /// The words of the block: the word itself and its images under the modifiers, without
    /// repeats, in a fixed order.
    pub fn words(&self) -> Vec<Vec<Step>> {
        let mut words = vec![self.steps.clone()];
        let map = |words: &mut Vec<Vec<Step>>, f: &dyn Fn(Step) -> Step| {
            let images: Vec<Vec<Step>> = words.iter().map(|w| w.iter().map(|&s| f(s)).collect()).collect();
            words.extend(images);
        };
        if self.mirror_horizontal {
            map(&mut words, &|s| Step { dx: -s.dx, ..s });
        }
        if self.mirror_vertical {
            map(&mut words, &|s| Step { dy: -s.dy, ..s });
        }
        if self.rotate {
            let quarter = |s: Step| Step { dx: -s.dy, dy: s.dx, ..s };
            let base = words.clone();
            for turns in 1..4 {
                for word in &base {
                    let mut rotated = word.clone();
                    for step in &mut rotated {
                        for _ in 0..turns {
                            *step = quarter(*step);
                        }
                    }
                    words.push(rotated);
                }
            }
        }
        let mut unique: Vec<Vec<Step>> = Vec::with_capacity(words.len());
        for word in words {
            if !unique.contains(&word) {
                unique.push(word);
            }
        }
        unique
    }
}

/// A word as SBG text: `(dx,dy,on)` letters, `^*` after starred ones.
pub fn word_text(word: &[Step]) -> String {
    let mut text = String::new();
    for step in word {
        text.push_str(&format!("({},{},{})", step.dx, step.dy, step.on.symbol()));
        if step.star {
            text.push_str("^*");
        }
    }
    text
}

/// The SBG regular expression of a rule made of `blocks`: the alternation of all their words
/// (repeats written once). Empty when there are no blocks.
pub fn rule_text(blocks: &[Block]) -> String {
    let mut words: Vec<String> = Vec::new();
    for block in blocks {
        for word in block.words() {
            let text = word_text(&word);
            if !words.contains(&text) {
                words.push(text);
            }
        }
    }
    words.join(" + ")
}

/// The number of letters written in the rule of `blocks` (the size the complexity feature
/// measures).
pub fn rule_size(blocks: &[Block]) -> usize {
    let mut words: Vec<Vec<Step>> = Vec::new();
    for block in blocks {
        for word in block.words() {
            if !words.contains(&word) {
                words.push(word);
            }
        }
    }
    words.iter().map(Vec::len).sum()
}

/// Draws an index by weights (not all zero).
pub(crate) fn weighted(rng: &mut Rng, weights: &[f64]) -> usize {
    let total: f64 = weights.iter().sum();
    let mut x = rng.gen::<f64>() * total;
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

/// The probability tables of one class.
struct ClassTable {
    /// Weights of word lengths 1, 2, 3.
    lengths: [f64; 3],
    /// The largest `|dx|` and `|dy|` of a letter, and the weight of using it (versus 1).
    reach: i32,
    far_weight: f64,
    /// Only forward or sideways steps (`dy >= 0`).
    forward_only: bool,
    mirror_horizontal: f64,
    mirror_vertical: f64,
    rotate: f64,
    /// Probability that a letter other than the last one is starred.
    star: f64,
}

fn table(class: PieceClass) -> ClassTable {
    match class {
        PieceClass::Weak => ClassTable {
            lengths: [0.8, 0.2, 0.0],
            reach: 1,
            far_weight: 0.0,
            forward_only: true,
            mirror_horizontal: 0.6,
            mirror_vertical: 0.0,
            rotate: 0.0,
            star: 0.0,
        },
        PieceClass::Light => ClassTable {
            lengths: [0.5, 0.4, 0.1],
            reach: 2,
            far_weight: 0.4,
            forward_only: false,
            mirror_horizontal: 0.5,
            mirror_vertical: 0.4,
            rotate: 0.4,
            star: 0.15,
        },
        PieceClass::Strong => ClassTable {
            lengths: [0.25, 0.6, 0.15],
            reach: 2,
            far_weight: 0.2,
            forward_only: false,
            mirror_horizontal: 0.6,
            mirror_vertical: 0.5,
            rotate: 0.6,
            star: 0.7,
        },
    }
}

fn random_offset(rng: &mut Rng, t: &ClassTable, forward: bool) -> i32 {
    let magnitude = if t.reach > 1 && rng.gen_bool(t.far_weight) { t.reach } else { rng.gen_range(0..=1) };
    if forward || rng.gen_bool(0.5) {
        magnitude
    } else {
        -magnitude
    }
}

fn random_step(rng: &mut Rng, t: &ClassTable, last: bool) -> Step {
    let (dx, dy) = loop {
        let dx = random_offset(rng, t, false);
        let dy = random_offset(rng, t, t.forward_only);
        if (dx, dy) != (0, 0) {
            break (dx, dy);
        }
    };
    // Inner letters mostly pass over empty squares; the last one decides the capture.
    let on_weights = if last { [0.5, 0.4, 0.1] } else { [0.8, 0.1, 0.1] };
    let on = [OnSquare::Empty, OnSquare::Opponent, OnSquare::Own][weighted(rng, &on_weights)];
    Step { dx, dy, on, star: !last && rng.gen_bool(t.star) }
}

/// Draws one block of `class`.
pub fn random_block(rng: &mut Rng, class: PieceClass) -> Block {
    let t = table(class);
    let length = weighted(rng, &t.lengths) + 1;
    let steps = (0..length).map(|i| random_step(rng, &t, i + 1 == length)).collect();
    Block {
        steps,
        mirror_horizontal: rng.gen_bool(t.mirror_horizontal),
        mirror_vertical: rng.gen_bool(t.mirror_vertical),
        rotate: rng.gen_bool(t.rotate),
    }
}

impl BlockPools {
    /// Draws the pools of a run.
    pub fn random(rng: &mut Rng) -> BlockPools {
        let mut pool = |class| (0..POOL_SIZE).map(|_| random_block(rng, class)).collect();
        BlockPools {
            weak: pool(PieceClass::Weak),
            light: pool(PieceClass::Light),
            strong: pool(PieceClass::Strong),
        }
    }

    pub fn of_class(&self, class: PieceClass) -> &[Block] {
        match class {
            PieceClass::Weak => &self.weak,
            PieceClass::Light => &self.light,
            PieceClass::Strong => &self.strong,
        }
    }

    /// A rule for a piece of `class`: a few distinct blocks of the class's pool.
    pub fn random_rule(&self, rng: &mut Rng, class: PieceClass) -> Vec<Block> {
        let pool = self.of_class(class);
        let (least, most) = class.blocks_per_piece();
        let count = rng.gen_range(least..=most).min(pool.len());
        let mut chosen: Vec<usize> = Vec::with_capacity(count);
        while chosen.len() < count {
            let i = rng.gen_range(0..pool.len());
            if !chosen.contains(&i) {
                chosen.push(i);
            }
        }
        chosen.into_iter().map(|i| pool[i].clone()).collect()
    }
}
