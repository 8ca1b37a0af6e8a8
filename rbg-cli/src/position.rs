//! Positions reached by typed moves (`--after` of `rbg moves` and `rbg render`), and the one
//! wording of a move that is not legal (also used by `rbg replay`).
//!
//! Every move given is read and checked: a malformed or illegal move, or one after the end of
//! the game, stops with an error naming it (its number and text), whose turn it was and how
//! many moves were legal there.

use rbg_core::dynamic::AnyGame;
use rbg_core::moves::{apply_if_legal, CheckedMoveError};
use rbg_core::notation::{self, VertexStyle};
use rbg_core::{Game, GameInfo, MoveList, SearchError};

use crate::Failure;

/// The keeper's bound while completing a position.
const KEEPER_LIMIT: u64 = rbg_core::perft::DEFAULT_KEEPER_LIMIT;

/// A position reached by playing moves from the start (keeper-completed).
pub struct Reached {
    pub state: <AnyGame as Game>::State,
    /// The state before the last move, if any move was played.
    pub previous: Option<<AnyGame as Game>::State>,
    /// Whether a player is to move (the keeper did not end the game).
    pub ongoing: bool,
}

fn search_failure(e: SearchError) -> Failure {
    Failure::new(e.to_string())
}

/// Plays the moves of `text` (separated by `;`, each a space-separated list of `index@vertex`
/// pairs; vertices by name or number) from the initial position, checking each.
pub fn play_after(
    game: &AnyGame,
    sc: &mut <AnyGame as Game>::Scratch,
    text: &str,
) -> Result<Reached, Failure> {
    let mut state = game.initial_state();
    let mut ongoing = game.complete_keeper(&mut state, sc, KEEPER_LIMIT).map_err(search_failure)?;
    let mut previous = None;
    let mut legal = MoveList::new();
    let moves = text.split(';').map(str::trim).filter(|t| !t.is_empty());
    for (n, move_text) in moves.enumerate() {
        let which = format!("move {} ('{move_text}')", n + 1);
        if !ongoing {
            return Err(Failure::new(format!("{which} comes after the end of the game")));
        }
        let wanted = notation::parse_move(game.info(), move_text)
            .map_err(|e| Failure::new(format!("{which} cannot be read: {e}")))?;
        let before = state.clone();
        match apply_if_legal(game, &mut state, sc, &wanted) {
            Ok(()) => previous = Some(before),
            Err(CheckedMoveError::Search(e)) => return Err(search_failure(e)),
            Err(CheckedMoveError::Illegal(e)) => {
                // The moves are listed only to say which were legal.
                game.legal_moves(&mut state, sc, &mut legal).map_err(search_failure)?;
                return Err(Failure::new(format!(
                    "{which} is not legal: {}",
                    not_one_of(game.info(), e.player, &legal)
                )));
            }
        }
        ongoing = game.complete_keeper(&mut state, sc, KEEPER_LIMIT).map_err(search_failure)?;
    }
    Ok(Reached { state, previous, ongoing })
}

/// `it is not one of the N legal moves of PLAYER (m1; m2; m3, ...)`: why a move is refused.
pub fn not_one_of(info: &GameInfo, player: rbg_core::Player, legal: &MoveList) -> String {
    let who = info.players.get((player as usize).wrapping_sub(1)).cloned().unwrap_or_else(|| "nobody".into());
    let examples: Vec<String> =
        legal.iter().take(3).map(|m| notation::format_move(info, m, VertexStyle::Name)).collect();
    if legal.is_empty() {
        return format!("it is {who}'s turn and no move is legal there");
    }
    let more = if legal.len() > 3 { ", ..." } else { "" };
    let s = if legal.len() == 1 { "" } else { "s" };
    format!(
        "it is {who}'s turn and it is not one of the {} legal move{s} there ({}{more})",
        legal.len(),
        examples.join("; ")
    )
}
