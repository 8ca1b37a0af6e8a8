//! The eight benchmark games compiled into this benchmark by `rbg_game!` (from the corpus in
//! `../shared/corpus`), and a visitor to run a benchmark on each with its own reasoner type.
#![allow(dead_code)]

use rbg_core::Game;

rbg_macros::rbg_game!("../shared/corpus/breakthrough.rbg");
rbg_macros::rbg_game!("../shared/corpus/chess.rbg");
rbg_macros::rbg_game!("../shared/corpus/connect4.rbg");
rbg_macros::rbg_game!("../shared/corpus/reversi.rbg");
rbg_macros::rbg_game!("../shared/corpus/amazons.rbg");
rbg_macros::rbg_game!("../shared/corpus/englishDraughts.rbg");
rbg_macros::rbg_game!("../shared/corpus/hex_9x9.rbg");
rbg_macros::rbg_game!("../shared/corpus/go.rbg");

/// A benchmark to run on a compiled reasoner (its type differs per game).
pub trait OnGame {
    fn run<G: Game>(&mut self, name: &str, game: &G, depth: u32, playouts: u64);
}

/// Runs `f` on every benchmark game with the depth and playout count of `common::GAMES`.
pub fn each_game(f: &mut impl OnGame) {
    for (name, depth, playouts) in super::common::GAMES {
        match name {
            "breakthrough" => f.run(name, &Breakthrough, depth, playouts),
            "chess" => f.run(name, &Chess, depth, playouts),
            "connect4" => f.run(name, &Connect4, depth, playouts),
            "reversi" => f.run(name, &Reversi, depth, playouts),
            "amazons" => f.run(name, &Amazons, depth, playouts),
            "englishDraughts" => f.run(name, &EnglishDraughts, depth, playouts),
            "hex_9x9" => f.run(name, &Hex9x9, depth, playouts),
            "go" => f.run(name, &Go, depth, playouts),
            _ => eprintln!("note: {name} is not compiled into this benchmark"),
        }
    }
}
