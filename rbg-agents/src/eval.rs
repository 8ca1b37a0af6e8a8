//! A generic evaluation for any game: score difference and material.
//!
//! RBG knows no piece ownership: a piece is just a name that any rule may put anywhere. The
//! evaluation therefore only counts material for pieces that it can attribute to a player:
//!
//! * by the name heuristic of [`piece_owners`]: a piece belongs to a player when its name starts
//!   or ends with the player's name (`whitePawn`, `pawnWhite`), or starts with the player's
//!   initial followed by an upper-case letter (`wPawn`, `bKing`), compared case-insensitively,
//!   and exactly one player matches;
//! * each attributed piece is worth `material` (default 0: no material term at all), unless a
//!   weight is given for it by name, which also applies to pieces the heuristic left unowned
//!   (those count for nobody, so a weight on them has no effect).
//!
//! "Material" of a player is the sum of the weights of the pieces on the board that belong to
//! them. The evaluation of a state for player `p` among `n` players is
//! `score_weight * ((n - 1) * score(p) - sum of the others' scores) + material(p) - material of
//! the others`, so it is zero-sum for two players and counts scores (which RBG games keep up to
//! date, e.g. 50/50 while tic-tac-toe is undecided) before material.

use rbg_core::{Game, GameInfo, Player};

/// Evaluation weights for one game (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub score_weight: i64,
    /// Per piece id: its weight and owner.
    weights: Vec<i64>,
    owners: Vec<Option<Player>>,
    any_material: bool,
}

/// The owner of each piece by the name heuristic (see the module documentation).
pub fn piece_owners(info: &GameInfo) -> Vec<Option<Player>> {
    info.pieces
        .iter()
        .map(|piece| {
            let lower = piece.to_lowercase();
            let matches: Vec<Player> = info
                .players
                .iter()
                .enumerate()
                .filter(|(_, player)| {
                    let name = player.to_lowercase();
                    let initial = player.chars().next().map(|c| c.to_ascii_lowercase());
                    let mut chars = piece.chars();
                    let by_initial = chars.next().map(|c| c.to_ascii_lowercase()) == initial
                        && chars.next().is_some_and(|c| c.is_uppercase());
                    !name.is_empty() && (lower.starts_with(&name) || lower.ends_with(&name) || by_initial)
                })
                .map(|(i, _)| i as Player + 1)
                .collect();
            (matches.len() == 1).then(|| matches[0])
        })
        .collect()
}

impl Evaluation {
    /// Weights: `material` for every owned piece, then the named overrides. Fails on a name
    /// that is not a piece of the game.
    pub fn new(info: &GameInfo, material: i64, named: &[(String, i64)]) -> Result<Self, String> {
        let owners = piece_owners(info);
        let mut weights: Vec<i64> = owners.iter().map(|o| if o.is_some() { material } else { 0 }).collect();
        for (name, w) in named {
            let id = info.pieces.iter().position(|p| p == name).ok_or_else(|| name.clone())?;
            weights[id] = *w;
        }
        let any_material = weights.iter().zip(&owners).any(|(w, o)| *w != 0 && o.is_some());
        Ok(Evaluation { score_weight: 1000, weights, owners, any_material })
    }

    /// The weight and owner of a piece id.
    pub fn piece(&self, id: usize) -> (i64, Option<Player>) {
        (self.weights.get(id).copied().unwrap_or(0), self.owners.get(id).copied().flatten())
    }

    /// The score part alone: `(n - 1) * score(p) - sum of the others' scores`.
    pub fn score_difference<G: Game>(&self, game: &G, s: &G::State, player: Player) -> i64 {
        let n = game.info().num_players() as Player;
        let mut v = 0i64;
        for q in 1..=n {
            let score = game.score(s, q);
            v = v.saturating_add(if q == player { score.saturating_mul(n as i64 - 1) } else { -score });
        }
        v
    }

    /// The evaluation of `s` for `player`.
    pub fn evaluate<G: Game>(&self, game: &G, s: &G::State, player: Player) -> i64 {
        let mut v = self.score_difference(game, s, player).saturating_mul(self.score_weight);
        if self.any_material {
            for vertex in 0..game.info().vertices.len() as u32 {
                let (w, owner) = self.piece(game.piece(s, vertex) as usize);
                match owner {
                    Some(o) if o == player => v = v.saturating_add(w),
                    Some(_) => v = v.saturating_sub(w),
                    None => {}
                }
            }
        }
        v
    }
}
