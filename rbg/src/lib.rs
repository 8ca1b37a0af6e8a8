//! The one door to RBG games for every front end (the `rbg` command, `rbg serve`, the Python
//! package, the language server, the cluster runner, tests).
//!
//! - [`open`]: read a game file (RBG, or Simplified Boardgames by extension or content) and
//!   build the chosen engine (interpreter, compiled, direct SBG reasoner) behind one dynamic
//!   handle; errors are data (diagnostics with spans), rendered only by the caller.
//! - [`compile`]: the compile pipeline (generate the reasoner crate, build it with cargo, keep
//!   it in the cache, load it into this process), usable in-process by any front end.
//! - [`session`]: checked play of one game with undo, redo, the result and the log.
//! - [`background`]: the compiled engine built on a thread of its own while the interpreter
//!   plays, for front ends that switch engines when it is ready.
//!
//! This crate knows no clap, JSON, HTTP or terminal: the outer crates do.

#![forbid(unsafe_code)]

pub mod background;
pub mod compile;
pub mod open;
pub mod session;

pub use open::{open, open_bytes, parse_game, read_game, Engine, GameFile, OpenError, OpenOptions, Opened};
