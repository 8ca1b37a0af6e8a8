//! rbg-metrics: what self-play says about a game, for designers and for evolution.
//!
//! Agents of rbg-agents play the game many times; every game is kept as a [`GameTrace`] (per
//! ply the mover, the legal moves and the piece used; the cells touched; the scores; how it
//! ended) and the [`Measures`] are computed from the traces: win, draw and loss rates per seat
//! and per agent with 95% Wilson intervals, first-mover advantage, balance, completion,
//! duration, branching over the course of a game, piece usage and board coverage. A few
//! sample games get a value estimate of every position ([`values`]: decisiveness, lead
//! changes, drama), and a match of a weak against a strong agent gives the strength gap.
//! `docs/analysis.md` defines each measure and says where it comes from.
//!
//! * [`analyze`]: the whole analysis ([`AnalysisConfig`] in, [`Analysis`] out), on all cores,
//!   the same numbers for a seed whatever the number of threads.
//! * [`parts`]: the same analysis in parts (a self-play game, a sample game's estimates, a
//!   strength-test game, each alone from its number) and [`parts::assemble`], which folds
//!   them into the report; `rbg.cluster` plays the parts as Ray tasks.
//! * [`trace`]: [`Recorder`] (any game loop reports its moves to it; `rbg evolve`'s fitness
//!   playouts do) and [`trace::replay`] (a match's game replayed into a trace).
//! * [`measures`], [`values`], [`stats`] (Wilson intervals, distributions).
//! * [`table`]: the analysis as rows (measure, value, interval), as the CLI prints it and
//!   Python returns it.
//! * [`html`]: the report as one HTML page with SVG charts (plain text: the caller writes it).
//!
//! The library returns plain data (serde-serialisable); JSON and files are the callers'.

#![forbid(unsafe_code)]

pub mod analyze;
pub mod html;
pub mod measures;
pub mod parts;
pub mod stats;
pub mod table;
pub mod trace;
pub mod values;

pub use analyze::{
    analyze, Analysis, AnalysisConfig, AnalysisError, Gap, Progress, Silent, Stage, StrengthGap, StrengthTest,
};
pub use measures::{Branching, Measures, PieceUse, Results};
pub use stats::{Distribution, Rate};
pub use table::{rows, Row};
pub use trace::{End, GameTrace, Ply, Recorder};
pub use values::{Drama, DramaSummary, SampleGame};
