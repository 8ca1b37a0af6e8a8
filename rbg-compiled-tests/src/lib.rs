//! Every corpus game compiled by rbg-compiler into a module of this crate (see `build.rs`), for
//! the conformance tests: compiled perft against the reference, and compiled move lists against
//! the interpreter's.

#![forbid(unsafe_code)]

/// Every game of the registry is handed out as a `SharedChildren`, so that no test binary
/// compiles a game's children's search again (see rbg-compiled-shard).
pub use rbg_compiled_shard::{SharedChildren, SharedSearch};
use rbg_core::Game;

/// A computation to run on a compiled reasoner whose type depends on the game.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, game: &G) -> Self::Output;
}

include!(concat!(env!("OUT_DIR"), "/games.rs"));
