//! The chromosome (paper, section III): the initial position, the rules of every piece type
//! (blocks of its class), and the winning conditions as (piece type, side, capture or reach)
//! triples; its SBG text; and the random individuals of the initial population (III.A).
//!
//! A condition `(kind, side, Reach)` means: `side` wins when one of its pieces of `kind` stands
//! on the opponent's back rank (SBG `@`). `(kind, side, Capture)` means: `side` wins when the
//! opponent has no piece of `kind` left (SBG `#` with count 0 on the opponent's letter). With no
//! condition a game is won by leaving the opponent without a move (e.g. without pieces), as in
//! the paper's example game.

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::blocks::{rule_size, rule_text, Block, BlockPools, PieceClass};
use crate::config::EvolveConfig;
use crate::seeds::Rng;

/// The owner of a piece (SBG's own type, serialisable through its `serde` feature).
pub use rbg_sbg::syntax::Side;

/// A piece on a square: its owner and its type (an index into the run's piece types).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placed {
    pub side: Side,
    pub kind: usize,
}

/// How a winning condition is met.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GoalType {
    /// The opponent has no piece of the type left.
    Capture,
    /// A piece of the type reaches the opponent's back rank.
    Reach,
}

/// A winning condition: `side` wins by `goal` with pieces of type `kind`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Condition {
    pub kind: usize,
    pub side: Side,
    pub goal: GoalType,
}

impl Condition {
    /// The same condition for the other side.
    pub fn mirrored(self) -> Condition {
        Condition { side: self.side.opponent(), ..self }
    }
}

/// One individual.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Genome {
    pub width: u32,
    pub height: u32,
    /// Squares row by row from white's back rank (`y = 0`), left to right: `cells[y * width + x]`.
    pub cells: Vec<Option<Placed>>,
    /// The blocks of each piece type's rule, by type.
    pub rules: Vec<Vec<Block>>,
    pub conditions: Vec<Condition>,
}

/// The chance that a mirrored square is drawn anew instead of copied.
const CHANGE_ON_MIRROR: f64 = 0.2;

impl Genome {
    pub fn cell(&self, x: u32, y: u32) -> Option<Placed> {
        self.cells[(y * self.width + x) as usize]
    }

    pub fn set_cell(&mut self, x: u32, y: u32, content: Option<Placed>) {
        self.cells[(y * self.width + x) as usize] = content;
    }

    /// The letters written in all rules.
    pub fn rules_size(&self) -> usize {
        self.rules.iter().map(|r| rule_size(r)).sum()
    }

    /// Adds `condition` unless it is there already; whether it was added.
    pub fn add_condition(&mut self, condition: Condition) -> bool {
        let new = !self.conditions.contains(&condition);
        if new {
            self.conditions.push(condition);
        }
        new
    }

    /// Whether `side` has a piece of `kind` on the board.
    pub fn has_piece(&self, side: Side, kind: usize) -> bool {
        self.cells.iter().flatten().any(|p| p.side == side && p.kind == kind)
    }

    /// Whether the genome fits the settings of `config` (board size, piece types), as every
    /// genome of a run does; one read from a file or received from elsewhere may not, and an
    /// unfitting one would index out of its board.
    pub fn check_fits(&self, config: &EvolveConfig) -> Result<(), String> {
        let kinds = config.kinds() as usize;
        let fits = (self.width, self.height, self.rules.len()) == (config.width, config.height, kinds)
            && self.cells.len() == (config.width * config.height) as usize
            && self.cells.iter().flatten().all(|p| p.kind < kinds)
            && self.conditions.iter().all(|c| c.kind < kinds);
        if fits {
            Ok(())
        } else {
            Err(format!(
                "the game does not fit the settings (a {}x{} board with {kinds} piece types)",
                config.width, config.height
            ))
        }
    }

    /// The game as SBG text, named `name`.
    pub fn to_sbg(&self, config: &EvolveConfig, name: &str) -> String {
        let letter = |p: Placed| {
            let upper = config.letter(p.kind);
            (if p.side == Side::White { upper } else { upper.to_ascii_lowercase() }) as char
        };
        let mut text = format!("<<{name}>>\n<BOARD> {} {}\n", self.width, self.height);
        for y in (0..self.height).rev() {
            text.push('|');
            text.extend((0..self.width).map(|x| self.cell(x, y).map_or('.', letter)));
            text.push_str("|\n");
        }
        text.push_str("<PIECES>\n");
        for (kind, blocks) in self.rules.iter().enumerate() {
            if !blocks.is_empty() {
                text.push_str(&format!("{} {} &\n", config.letter(kind) as char, rule_text(blocks)));
            }
        }
        text.push_str(&format!("<GOALS>\n{} &\n", config.turn_limit));
        for c in &self.conditions {
            let winner = letter(Placed { side: c.side, kind: c.kind });
            match c.goal {
                GoalType::Reach => {
                    let rank = if c.side == Side::White { self.height - 1 } else { 0 };
                    let squares: Vec<String> = (0..self.width).map(|x| format!("{x} {rank}")).collect();
                    text.push_str(&format!("@{winner} {} &\n", squares.join(", ")));
                }
                GoalType::Capture => {
                    let loser = letter(Placed { side: c.side.opponent(), kind: c.kind });
                    text.push_str(&format!("#{loser} 0 &\n"));
                }
            }
        }
        text
    }

    /// The game parsed back from its SBG text (always valid for a genome of `config`; the
    /// error is the parser's diagnostics, for a report rather than a panic).
    pub fn to_game(&self, config: &EvolveConfig, name: &str) -> Result<rbg_sbg::SbgGame, String> {
        let text = self.to_sbg(config, name);
        rbg_sbg::parse(&format!("{name}.sbg"), text.as_bytes())
            .map_err(|ds| format!("{name}: generated SBG does not parse: {ds:?}\n{text}"))
    }

    /// A random individual (paper, III.A).
    pub fn random(config: &EvolveConfig, pools: &BlockPools, rng: &mut Rng) -> Genome {
        let cells = random_position(config, rng);
        let rules =
            (0..config.kinds() as usize).map(|k| pools.random_rule(rng, config.class_of(k))).collect();
        let mut genome =
            Genome { width: config.width, height: config.height, cells, rules, conditions: Vec::new() };
        genome.conditions = random_conditions(&genome, config, rng);
        genome
    }
}

/// The rows of each army: a third of the board's height, at least one.
pub fn army_rows(height: u32) -> u32 {
    (height / 3).max(1)
}

/// A random content of a square of the white army `distance` rows behind its front row: the
/// front row holds weak pieces; behind it, the chance of a strong piece grows with the distance
/// from the opponent.
fn random_army_square(config: &EvolveConfig, rng: &mut Rng, distance: u32, rows: u32) -> Option<usize> {
    let t = if rows > 1 { f64::from(distance) / f64::from(rows - 1) } else { 0.0 };
    let weights = if distance == 0 {
        // empty, weak, light, strong
        [0.15, 0.85, 0.0, 0.0]
    } else {
        [0.1, 0.3 * (1.0 - t), 0.45, 0.15 + 0.35 * t]
    };
    let mut weights = weights;
    // A class without piece types cannot be drawn.
    for (w, class) in weights[1..].iter_mut().zip(PieceClass::ALL) {
        if config.kinds_of(class).is_empty() {
            *w = 0.0;
        }
    }
    if weights[1..].iter().all(|&w| w == 0.0) {
        // Fall back to any class that has pieces.
        for (w, class) in weights[1..].iter_mut().zip(PieceClass::ALL) {
            *w = if config.kinds_of(class).is_empty() { 0.0 } else { 1.0 };
        }
    }
    match crate::blocks::weighted(rng, &weights) {
        0 => None,
        i => Some(random_kind_of(config, rng, PieceClass::ALL[i - 1])),
    }
}

/// A random piece type of `class` (which must have one).
pub fn random_kind_of(config: &EvolveConfig, rng: &mut Rng, class: PieceClass) -> usize {
    let kinds = config.kinds_of(class);
    kinds[rng.gen_range(0..kinds.len())]
}

/// The initial position: a quarter of the board (the left half of white's army), mirrored to
/// the right half and then to black, each copy redrawn with a small probability (black's within
/// the same class).
fn random_position(config: &EvolveConfig, rng: &mut Rng) -> Vec<Option<Placed>> {
    let (w, h) = (config.width, config.height);
    let rows = army_rows(h);
    let mut cells = vec![None; (w * h) as usize];
    let half = w.div_ceil(2);
    let white = |kind| Some(Placed { side: Side::White, kind });
    for y in 0..rows {
        let distance = rows - 1 - y;
        for x in 0..half {
            cells[(y * w + x) as usize] = random_army_square(config, rng, distance, rows).and_then(white);
        }
        for x in half..w {
            let mirror = cells[(y * w + (w - 1 - x)) as usize];
            cells[(y * w + x) as usize] = if rng.gen_bool(CHANGE_ON_MIRROR) {
                random_army_square(config, rng, distance, rows).and_then(white)
            } else {
                mirror
            };
        }
    }
    for y in 0..rows {
        for x in 0..w {
            let black = cells[(y * w + x) as usize].map(|p| {
                let kind = if rng.gen_bool(CHANGE_ON_MIRROR) {
                    random_kind_of(config, rng, config.class_of(p.kind))
                } else {
                    p.kind
                };
                Placed { side: Side::Black, kind }
            });
            cells[((h - 1 - y) * w + x) as usize] = black;
        }
    }
    cells
}

/// A random winning condition that a game with the pieces of `genome` can meet: the winner
/// has the type for a reach, the opponent has it for a capture.
pub fn random_condition(genome: &Genome, config: &EvolveConfig, rng: &mut Rng, side: Side) -> Condition {
    let goal = if rng.gen_bool(0.5) { GoalType::Capture } else { GoalType::Reach };
    let owner = if goal == GoalType::Reach { side } else { side.opponent() };
    let present: Vec<usize> = (0..config.kinds() as usize).filter(|&k| genome.has_piece(owner, k)).collect();
    let kind = if present.is_empty() {
        rng.gen_range(0..config.kinds() as usize)
    } else {
        present[rng.gen_range(0..present.len())]
    };
    Condition { kind, side, goal }
}

/// The winning conditions of a new individual: none (win by leaving the opponent without a
/// move), one or two, each for both sides (symmetric) with probability 0.8, else for one side.
fn random_conditions(genome: &Genome, config: &EvolveConfig, rng: &mut Rng) -> Vec<Condition> {
    let count = crate::blocks::weighted(rng, &[0.25, 0.5, 0.25]);
    let mut g = genome.clone();
    for _ in 0..count {
        let side = if rng.gen_bool(0.5) { Side::White } else { Side::Black };
        let c = random_condition(&g, config, rng, side);
        g.add_condition(c);
        if rng.gen_bool(0.8) {
            g.add_condition(c.mirrored());
        }
    }
    g.conditions
}
