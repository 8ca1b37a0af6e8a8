//! rbg-evolve: procedural generation of Simplified Boardgames by evolution, after Kowalski and
//! Szykuła, "Procedural Content Generation for GDL Descriptions of Simplified Boardgames",
//! section III (an adaptive genetic algorithm over chess-like games).
//!
//! * [`blocks`]: building blocks of piece movements and the weak/light/strong pools of a run.
//! * [`genome`]: the chromosome (board, rules, winning conditions), its SBG text, the random
//!   initial individuals.
//! * [`operators`]: two-point/uniform crossover and adaptive mutation.
//! * [`fitness`]: the features P, L_M, L_D, W, B_M, B_R, S, C, R from min-max and random
//!   playouts, and the paper's formula (with an optional extra term).
//! * [`evolution`]: the generational loop, selection, statistics, checkpoints; a generation
//!   in public steps (candidates proposed, each evaluated alone, folded back) for runners that
//!   evaluate elsewhere.
//! * [`output`]: the best games written and checked (SBG, RBG, JSON), the CSV, checkpoints.
//! * [`config`]: the settings of a run; [`seeds`]: how every random choice is seeded.
//!
//! A run depends only on its settings and seed: evaluations run in parallel (rayon) but each is
//! seeded from the run seed, the generation and the individual's index.
//!
//! ```
//! use rbg_evolve::{EvolveConfig, Evolution};
//!
//! let config = EvolveConfig {
//!     width: 4, height: 4, weak_pieces: 1, light_pieces: 1, strong_pieces: 0,
//!     population: 4, generations: 1, playouts: 2, turn_limit: 12, depth: 1,
//!     ..EvolveConfig::default()
//! };
//! let mut run = Evolution::start(config, None).unwrap();
//! while !run.finished() {
//!     run.step();
//! }
//! assert_eq!(run.history().len(), 2);
//! ```

#![forbid(unsafe_code)]

pub mod blocks;
pub mod config;
pub mod evolution;
pub mod fitness;
pub mod genome;
pub mod operators;
pub mod output;
pub mod seeds;

pub use config::EvolveConfig;
pub use evolution::{
    evaluate_candidate, Checkpoint, Evolution, GenerationStats, Individual, Proposal, Start,
};
pub use fitness::{evaluate, EvalSettings, ExtraScore, Features};
pub use genome::Genome;
