//! Shared by the benchmarks: the eight benchmark games and how to load them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

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

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// Reads a game from `$RBG_CORPUS` (default `../shared/corpus`).
pub fn load(name: &str) -> Option<ir::Game> {
    let corpus = std::env::var_os("RBG_CORPUS").map(PathBuf::from).unwrap_or_else(|| shared().join("corpus"));
    let bytes = std::fs::read(corpus.join(format!("{name}.rbg"))).ok()?;
    rbg_parser::parse(name, &bytes).game
}

pub fn interpreter(name: &str) -> Option<Interpreter> {
    let game = load(name)?;
    Interpreter::new(&game, name, InterpOptions::default()).ok()
}

/// Every corpus game (`nsplit/` included) as (name, bytes), sorted by name; empty if missing.
pub fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let corpus = std::env::var_os("RBG_CORPUS").map(PathBuf::from).unwrap_or_else(|| shared().join("corpus"));
    let mut files = Vec::new();
    for dir in [corpus.clone(), corpus.join("nsplit")] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.extension().is_some_and(|x| x == "rbg") {
                if let Ok(bytes) = std::fs::read(&path) {
                    files.push((path.display().to_string(), bytes));
                }
            }
        }
    }
    files.sort();
    files
}
