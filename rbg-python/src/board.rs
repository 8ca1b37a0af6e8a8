//! The text picture of a state (`str(state)`, `str(session)`): whose turn it is, then the
//! picture of `rbg_render::TextBoard` (the board, the scores, the other variables), drawn with
//! the same piece rules as every other picture of the project.

use rbg_core::dynamic::{AnyGame, DynState};
use rbg_core::{Game, KEEPER};
use rbg_render::TextBoard;

/// The picture of `state`; `finished` says whether the game is over.
pub fn draw(any: &AnyGame, state: &DynState, finished: bool) -> String {
    let info = any.info();
    let player = any.current_player(state);
    let mut out = if finished {
        "game over\n".to_string()
    } else {
        match info.players.get((player as usize).wrapping_sub(1)) {
            Some(name) if player != KEEPER => format!("{name} to move\n"),
            _ => String::new(),
        }
    };
    out.push_str(&TextBoard::new(any).draw(any, state));
    out
}
