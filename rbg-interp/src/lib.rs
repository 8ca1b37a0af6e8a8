//! rbg-interp: an interpreter for Regular Boardgames that implements [`rbg_core::Game`] for any
//! game the parser accepts.
//!
//! # Architecture
//!
//! * [`program`] (a re-export of the `rbg-automaton` crate): the game compiled once into an
//!   immutable [`Program`] — a Thompson NFA of the rules (and of every pattern) whose edges carry
//!   folded action lists, plus the static analyses. The compiler depends on the same crate, so
//!   both engines walk the very same graph.
//! * `code`: the interpreter's executable encoding of the program's edges (fused instructions)
//!   and the choice of patterns that write nothing, which are evaluated by plain recursion.
//! * [`search`]: the move search — an explicit-stack depth-first walk over (node, vertex) pairs
//!   with an undo trail, stamped visited layers and a per-(pattern, vertex) result memo, all in a
//!   caller-owned [`Scratch`].
//! * [`interp`]: [`Interpreter`] and its [`State`], gluing both to the `Game` trait.
//!
//! # Example
//!
//! ```
//! use rbg_core::perft::{perft, PerftOptions};
//! use rbg_interp::{InterpOptions, Interpreter};
//!
//! // Two players alternately put a piece on an empty cell of a 1x3 strip.
//! let text = b"#board = a[e]{r:b} b[e]{l:a,r:c} c[e]{l:b}
//! #players = x(1), o(1)
//! #pieces = e, px, po
//! #variables =
//! #rules = ->x (l* + r*) {e} [px] ->o (l* + r*) {e} [po] ->> {}";
//! let game = rbg_parser::parse("strip.rbg", text).game.unwrap();
//! let interp = Interpreter::new(&game, "strip", InterpOptions::default()).unwrap();
//! let counts = perft(&interp, 2, &PerftOptions::default()).unwrap();
//! assert_eq!((counts.leaves, counts.nodes), (6, 1 + 3 + 6));
//! ```

#![forbid(unsafe_code)]

mod code;
pub mod interp;
pub mod search;

/// The analysed automaton the interpreter walks (the `rbg-automaton` crate).
pub use rbg_automaton as program;

pub use interp::{InterpOptions, Interpreter, State};
pub use program::{BuildError, Program, ProgramOptions};
pub use search::Scratch;
