//! Shared by the integration tests: loading the games of `games/sbg/`, both reasoners.

#![allow(dead_code)]

use rbg_interp::{InterpOptions, Interpreter};
use rbg_sbg::{SbgGame, SbgReasoner};

/// The path of a game of `games/sbg/`.
pub fn game_path(file: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/sbg").join(file)
}

/// Parses a game of `games/sbg/`, failing the test with the diagnostics.
pub fn load(file: &str) -> (SbgGame, Vec<u8>) {
    let bytes = std::fs::read(game_path(file)).expect("the game file");
    let game = rbg_sbg::parse(file, &bytes).unwrap_or_else(|ds| panic!("{file}: {ds:?}"));
    (game, bytes)
}

/// The direct reasoner and the interpreter of the translation.
pub fn both(file: &str) -> (SbgReasoner, Interpreter) {
    let (game, source) = load(file);
    let rbg = rbg_sbg::to_rbg_writer_with_source(&game, &source);
    let generated = rbg.parse(&format!("{file}.rbg"));
    let ir = generated.game.unwrap_or_else(|| {
        panic!("{file}: the translation is invalid: {:?}\n{}", generated.parsed, rbg.text())
    });
    let interpreter = Interpreter::new(&ir, file, InterpOptions::default()).expect("a program");
    (SbgReasoner::new(&game), interpreter)
}
