//! Shared by the benchmarks: the eight benchmark games and how to load them.
#![allow(dead_code)]

use rbg_interp::{InterpOptions, Interpreter};
use rbg_parser::ir;

/// The benchmark games with a perft depth and a playout count sized for ~10-100 ms per run.
pub const GAMES: [(&str, u32, u64); 8] = [
    ("breakthrough", 3, 10),
    ("chess", 3, 1),
    ("connect4", 5, 50),
    ("reversi", 5, 5),
    ("amazons", 1, 1),
    ("englishDraughts", 5, 10),
    ("hex_9x9", 2, 10),
    ("go", 1, 1),
];

/// Reads a game from `$RBG_CORPUS` (default `../shared/corpus`).
pub fn load(name: &str) -> Option<ir::Game> {
    let bytes = std::fs::read(rbg_testdata::corpus_game(name)).ok()?;
    rbg_parser::parse(name, &bytes).game
}

pub fn interpreter(name: &str) -> Option<Interpreter> {
    let game = load(name)?;
    Interpreter::new(&game, name, InterpOptions::default()).ok()
}

/// Every corpus game (`nsplit/` included) as (name, bytes), sorted by name; empty if missing.
pub fn corpus_files() -> Vec<(String, Vec<u8>)> {
    rbg_testdata::corpus_games(&rbg_testdata::corpus_dir())
        .into_iter()
        .map(|g| (g.name.clone(), g.bytes()))
        .collect()
}
