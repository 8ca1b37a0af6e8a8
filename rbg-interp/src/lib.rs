//! rbg-interp: an interpreter for Regular Boardgames that implements [`rbg_core::Game`] for any
//! game the parser accepts.
//!
//! # Architecture
//!
//! * [`program`]: the game compiled once into an immutable [`Program`] — a Thompson NFA of the
//!   rules (and of every pattern) whose edges carry folded action lists, plus the static analyses
//!   of the reference compiler (shift tables, precomputed patterns, chain folding, tail
//!   duplication, visited-check elimination, fan filters, constant folding, monotonic classes,
//!   pattern sharing). The program is public so the compiler can translate the very same graph
//!   into specialised code.
//! * `code`: the interpreter's executable encoding of the program's edges (fused instructions)
//!   and the detection of *pure* patterns, which are evaluated by plain recursion.
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

mod code;
pub mod interp;
pub mod program;
pub mod search;

pub use interp::{InterpOptions, Interpreter, State};
pub use program::{BuildError, Program, ProgramOptions};
pub use search::Scratch;
