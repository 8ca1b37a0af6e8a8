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
//!
//! [`Evaluation::learned`] replaces the names by weights learned from self-play ([`crate::learn`]):
//! each player `q` has a weight per piece type and per legal move of each player, predicting
//! `q`'s reward; the evaluation for `p` is `(n - 1) * prediction(p) - sum of the others'
//! predictions` (for one player, its prediction), in units of 1/[`LEARNED_SCALE`] of a reward,
//! and a score difference of a whole score bound outweighs any learned term.
//!
//! Both kinds end up in one table: what each piece on the board is worth to each searcher, plus
//! what each legal move of the player to move is worth to each searcher (only learned).

use rbg_core::{Game, GameInfo, MoveList, Player, SearchError};

use crate::learn::LearnedWeights;

/// Evaluation units per unit of reward (a reward is in [0, 1]) of a learned evaluation.
pub const LEARNED_SCALE: f64 = 10_000.0;
/// What a score difference of one whole score bound is worth in a learned evaluation: far
/// above what the learned terms give (they predict rewards in [0, 1]).
const LEARNED_WIN: i64 = 100 * LEARNED_SCALE as i64;

/// Where the piece weights of an evaluation come from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The user's weights (`material`, `piece.NAME`) on pieces owned by the name heuristic.
    #[default]
    Material,
    /// Weights learned from self-play ([`crate::learn`]); names are not read.
    Learned,
}

/// Evaluation weights for one game (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub score_weight: i64,
    /// `material[searcher - 1][piece id]`: what a piece on the board is worth to the searcher.
    material: Vec<Vec<i64>>,
    /// `mobility[searcher - 1][mover - 1]`: what each legal move of the player to move is worth
    /// to the searcher.
    mobility: Vec<Vec<i64>>,
    any_material: bool,
    any_mobility: bool,
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
        let players = info.num_players() as Player;
        let table = (1..=players)
            .map(|searcher| {
                weights
                    .iter()
                    .zip(&owners)
                    .map(|(&w, owner)| match owner {
                        Some(o) if *o == searcher => w,
                        Some(_) => w.saturating_neg(),
                        None => 0,
                    })
                    .collect()
            })
            .collect();
        Ok(Self::from_tables(1000, table, vec![vec![0; players as usize]; players as usize]))
    }

    /// The evaluation of learned weights (see the module documentation).
    pub fn learned(info: &GameInfo, learned: &LearnedWeights) -> Self {
        let n = info.num_players();
        // Each searcher's view: (n - 1) times its own prediction minus the others'.
        let combine = |searcher: usize, weight_of: &dyn Fn(usize) -> f64| -> i64 {
            let sum: f64 = (0..n)
                .map(|q| {
                    let factor = if n == 1 {
                        1.0
                    } else if q == searcher {
                        (n - 1) as f64
                    } else {
                        -1.0
                    };
                    factor * weight_of(q)
                })
                .sum();
            // `as` saturates at the integer bounds and maps NaN to 0.
            (sum * LEARNED_SCALE).round() as i64
        };
        let pieces = info.pieces.len();
        let weight = |table: &[Vec<f64>], q: usize, i: usize| table.get(q).and_then(|w| w.get(i)).copied();
        let material = (0..n)
            .map(|p| {
                (0..pieces).map(|k| combine(p, &|q| weight(&learned.pieces, q, k).unwrap_or(0.0))).collect()
            })
            .collect();
        let mobility = (0..n)
            .map(|p| {
                (0..n).map(|m| combine(p, &|q| weight(&learned.mobility, q, m).unwrap_or(0.0))).collect()
            })
            .collect();
        let top_bound = info.bounds.iter().take(n).copied().max().unwrap_or(1).max(1);
        Self::from_tables((LEARNED_WIN / top_bound).max(1), material, mobility)
    }

    fn from_tables(score_weight: i64, material: Vec<Vec<i64>>, mobility: Vec<Vec<i64>>) -> Self {
        let any_material = material.iter().flatten().any(|&w| w != 0);
        let any_mobility = mobility.iter().flatten().any(|&w| w != 0);
        Evaluation { score_weight, material, mobility, any_material, any_mobility }
    }

    /// What a piece (by id) on the board is worth to `searcher`.
    pub fn piece_weight(&self, searcher: Player, piece: usize) -> i64 {
        let row = self.material.get((searcher as usize).wrapping_sub(1));
        row.and_then(|r| r.get(piece)).copied().unwrap_or(0)
    }

    /// What each legal move of `mover` is worth to `searcher` (0 unless learned).
    pub fn mobility_weight(&self, searcher: Player, mover: Player) -> i64 {
        let row = self.mobility.get((searcher as usize).wrapping_sub(1));
        row.and_then(|r| r.get((mover as usize).wrapping_sub(1))).copied().unwrap_or(0)
    }

    /// Whether [`Evaluation::mobility`] can be anything but 0.
    pub fn uses_mobility(&self) -> bool {
        self.any_mobility
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

    /// The evaluation of `s` for `player` without its mobility part: scores and material.
    pub fn evaluate<G: Game>(&self, game: &G, s: &G::State, player: Player) -> i64 {
        let mut v = self.score_difference(game, s, player).saturating_mul(self.score_weight);
        if self.any_material {
            if let Some(row) = self.material.get((player as usize).wrapping_sub(1)) {
                for vertex in 0..game.info().vertices.len() as u32 {
                    v = v.saturating_add(row.get(game.piece(s, vertex) as usize).copied().unwrap_or(0));
                }
            }
        }
        v
    }

    /// The mobility part of the evaluation of `s` (keeper completed, a real player to move) for
    /// `player`: the legal moves of the player to move times their weight; 0 without mobility
    /// weights. Counts the moves without listing them where the reasoner can (`moves` is
    /// working memory otherwise).
    pub fn mobility<G: Game>(
        &self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        moves: &mut MoveList,
        player: Player,
    ) -> Result<i64, SearchError> {
        let weight = self.mobility_weight(player, game.current_player(s));
        if weight == 0 {
            return Ok(0);
        }
        let count = match game.count_moves(s, sc)? {
            Some(count) => count,
            None => {
                game.legal_moves(s, sc, moves)?;
                moves.len() as u64
            }
        };
        Ok(weight.saturating_mul(i64::try_from(count).unwrap_or(i64::MAX)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(players: &[&str], pieces: &[&str], bounds: &[i64]) -> GameInfo {
        GameInfo {
            players: players.iter().map(|p| p.to_string()).collect(),
            pieces: pieces.iter().map(|p| p.to_string()).collect(),
            bounds: bounds.to_vec(),
            ..GameInfo::default()
        }
    }

    #[test]
    fn learned_tables_combine_the_players_predictions_as_documented() {
        // Two players: piece 0 adds 0.1 to player 1's reward and takes 0.1 from player 2's;
        // piece 1 adds 0.02 to both. For player 1: (2 - 1) * 0.1 - (-0.1) = 0.2 and
        // 0.02 - 0.02 = 0; in units of 1/10,000: 2000 and 0; player 2 the negation.
        let two = info(&["a", "b"], &["x", "y"], &[100, 100]);
        let weights = LearnedWeights {
            pieces: vec![vec![0.1, 0.02], vec![-0.1, 0.02]],
            mobility: vec![vec![0.001, 0.0], vec![-0.001, 0.0]],
            intercept: vec![0.5, 0.5],
            games: 1,
            samples: 1,
            timed_out: false,
            explained: vec![0.0, 0.0],
            draws: 0,
        };
        let e = Evaluation::learned(&two, &weights);
        assert_eq!((e.piece_weight(1, 0), e.piece_weight(1, 1)), (2000, 0));
        assert_eq!((e.piece_weight(2, 0), e.piece_weight(2, 1)), (-2000, 0));
        assert_eq!((e.mobility_weight(1, 1), e.mobility_weight(2, 1), e.mobility_weight(1, 2)), (20, -20, 0));
        assert!(e.uses_mobility());
        // A win (a whole bound of 100 points) outweighs everything learned: 1,000,000 / 100.
        assert_eq!(e.score_weight, 10_000);
        // Out-of-range players and pieces are worth nothing (no panic).
        assert_eq!((e.piece_weight(0, 0), e.piece_weight(3, 0), e.piece_weight(1, 9)), (0, 0, 0));
        // One player: its own prediction alone.
        let one = info(&["solo"], &["x"], &[1]);
        let solo = LearnedWeights {
            pieces: vec![vec![0.3]],
            mobility: vec![vec![0.0]],
            intercept: vec![0.0],
            ..weights
        };
        let e = Evaluation::learned(&one, &solo);
        assert_eq!((e.piece_weight(1, 0), e.score_weight, e.uses_mobility()), (3000, 1_000_000, false));
    }

    #[test]
    fn name_material_is_the_same_table() {
        let game = info(&["white", "black"], &["bPawn", "empty", "wPawn"], &[100, 100]);
        let e = Evaluation::new(&game, 3, &[("empty".to_string(), 5)]).unwrap();
        assert_eq!((e.piece_weight(1, 0), e.piece_weight(1, 1), e.piece_weight(1, 2)), (-3, 0, 3));
        assert_eq!((e.piece_weight(2, 0), e.piece_weight(2, 2)), (3, -3));
        assert!(Evaluation::new(&game, 1, &[("queen".to_string(), 9)]).is_err());
    }
}
