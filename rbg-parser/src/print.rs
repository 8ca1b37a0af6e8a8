//! The printed low-level form (spec section 14). STUB: to be implemented.

use crate::ir::Game;

/// The low-level RBG text of a game, byte for byte as the reference parser writes it.
pub fn print_game(game: &Game) -> String {
    let _ = game;
    String::new()
}
