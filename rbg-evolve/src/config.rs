//! The settings of an evolutionary run, validated before anything runs.

use serde::{Deserialize, Serialize};

use crate::blocks::PieceClass;

/// Letters of piece types per class (uppercase; black pieces are the lowercase letters).
pub const WEAK_LETTERS: &[u8] = b"PWXYZ";
pub const LIGHT_LETTERS: &[u8] = b"NBLCDEFG";
pub const STRONG_LETTERS: &[u8] = b"RQKAHMST";

/// Settings of a run (the defaults are the paper's where it gives them: a 6x6 board, the turn
/// limit 60 of its example game, a population of 50).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    pub width: u32,
    pub height: u32,
    /// Piece types per class: weak, light, strong.
    pub weak_pieces: u32,
    pub light_pieces: u32,
    pub strong_pieces: u32,
    pub population: u32,
    /// Generations after the initial population.
    pub generations: u32,
    /// Playouts of each kind per evaluation: min-max against min-max, and min-max against
    /// random (split between the two seats).
    pub playouts: u32,
    /// The branching factor the width feature rewards (its mean).
    pub expected_branching: f64,
    /// The turn limit written into generated games, and the length that every playout must end
    /// within for the game to be playable.
    pub turn_limit: u64,
    /// The depth of the min-max (alpha-beta) player.
    pub depth: u32,
    /// Search nodes the min-max player may visit per move (keeps improper games fast).
    pub nodes_per_move: u64,
    /// Weight of the optional extra fitness term (used only when a scoring function is given).
    pub extra_weight: f64,
    /// The extra term is the ease of learning the game's pieces ([`crate::fitness::nld_ease`],
    /// from the NLD complexity score); runs and checkpoints without it leave it off.
    #[serde(default)]
    pub nld_term: bool,
    pub seed: u64,
}

impl Default for EvolveConfig {
    fn default() -> Self {
        EvolveConfig {
            width: 6,
            height: 6,
            weak_pieces: 2,
            light_pieces: 2,
            strong_pieces: 1,
            population: 50,
            generations: 30,
            playouts: 20,
            expected_branching: 16.0,
            turn_limit: 60,
            depth: 3,
            nodes_per_move: 4000,
            extra_weight: 1.0,
            nld_term: false,
            seed: 1,
        }
    }
}

impl EvolveConfig {
    /// Checks every setting; the error says which one is wrong and why.
    pub fn validate(&self) -> Result<(), String> {
        self.invalid_setting().map_or(Ok(()), |(_, why)| Err(why))
    }

    /// The first wrong setting: the name of its field (`"kinds"` for the three piece counts
    /// together) and why it is wrong; `None` if all are valid. A front end maps the field to
    /// its own name for it (a command-line flag).
    pub fn invalid_setting(&self) -> Option<(&'static str, String)> {
        let checks: [(bool, &'static str, &str); 12] = [
            ((2..=26).contains(&self.width), "width", "the board width must be between 2 and 26"),
            ((2..=26).contains(&self.height), "height", "the board height must be between 2 and 26"),
            (self.weak_pieces as usize <= WEAK_LETTERS.len(), "weak_pieces", "at most 5 weak piece types"),
            (
                self.light_pieces as usize <= LIGHT_LETTERS.len(),
                "light_pieces",
                "at most 8 light piece types",
            ),
            (
                self.strong_pieces as usize <= STRONG_LETTERS.len(),
                "strong_pieces",
                "at most 8 strong piece types",
            ),
            (self.kinds() > 0, "kinds", "there must be at least one piece type"),
            (
                (2..=100_000).contains(&self.population),
                "population",
                "the population must be between 2 and 100000",
            ),
            (
                self.playouts >= 2,
                "playouts",
                "at least 2 playouts per evaluation (one per seat against random)",
            ),
            (
                self.expected_branching.is_finite() && self.expected_branching > 0.0,
                "expected_branching",
                "the expected branching factor must be a positive number",
            ),
            (
                (1..=100_000).contains(&self.turn_limit),
                "turn_limit",
                "the turn limit must be between 1 and 100000",
            ),
            ((1..=8).contains(&self.depth), "depth", "the min-max depth must be between 1 and 8"),
            (self.nodes_per_move >= 1, "nodes_per_move", "the min-max player needs at least 1 node per move"),
        ];
        if let Some((_, field, why)) = checks.iter().find(|(ok, _, _)| !ok) {
            return Some((field, why.to_string()));
        }
        (!(self.extra_weight.is_finite() && self.extra_weight >= 0.0))
            .then(|| ("extra_weight", "the extra term's weight must be a non-negative number".to_string()))
    }

    /// The extra fitness term the settings ask for: [`crate::fitness::nld_ease`] when
    /// `nld_term` is on, none otherwise.
    pub fn extra_term(&self) -> Option<crate::fitness::ExtraScore> {
        self.nld_term.then_some(crate::fitness::nld_ease as crate::fitness::ExtraScore)
    }

    /// The number of piece types.
    pub fn kinds(&self) -> u32 {
        self.weak_pieces + self.light_pieces + self.strong_pieces
    }

    /// The class of piece type `kind` (weak types first, then light, then strong).
    pub fn class_of(&self, kind: usize) -> PieceClass {
        if kind < self.weak_pieces as usize {
            PieceClass::Weak
        } else if kind < (self.weak_pieces + self.light_pieces) as usize {
            PieceClass::Light
        } else {
            PieceClass::Strong
        }
    }

    /// The uppercase letter of piece type `kind`.
    pub fn letter(&self, kind: usize) -> u8 {
        let (weak, light) = (self.weak_pieces as usize, self.light_pieces as usize);
        match self.class_of(kind) {
            PieceClass::Weak => WEAK_LETTERS[kind],
            PieceClass::Light => LIGHT_LETTERS[kind - weak],
            PieceClass::Strong => STRONG_LETTERS[kind - weak - light],
        }
    }

    /// The piece types of `class`.
    pub fn kinds_of(&self, class: PieceClass) -> Vec<usize> {
        (0..self.kinds() as usize).filter(|&k| self.class_of(k) == class).collect()
    }

    /// The desired size of a game's rules (letters written), for the complexity feature: the
    /// sum over piece types of their class's chess-like size.
    pub fn desired_rules_size(&self) -> f64 {
        (0..self.kinds() as usize).map(|k| self.class_of(k).desired_rule_size()).sum()
    }
}
