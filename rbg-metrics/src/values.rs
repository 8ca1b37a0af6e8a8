//! Decisiveness and drama: how the eventual winner's prospects went during a game, from value
//! estimates of every position of a few sample games (a search per position is costly, so only
//! samples get them).
//!
//! A position's value is the evaluator's (flat Monte Carlo or MCTS) estimate of the mean reward
//! of the player to move, in [0, 1]; in a two-player game the other player's is one minus it,
//! so the series kept is the first player's value before each move.

use rayon::prelude::*;
use rbg_agents::{Agent, AgentKind, AgentSpec};
use rbg_core::{Action, Game, SearchError};
use serde::{Deserialize, Serialize};

/// How far from ½ a value must be to give one player the lead: estimates are noisy, and
/// without a margin a close game would count a lead change at every wobble around ½.
pub const LEAD_MARGIN: f64 = 0.05;

/// The value series of one sample game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleGame {
    /// The game's number in the analysis.
    pub index: u64,
    /// `first[i]`: the first player's value at ply `i`, the mean of the estimates before and
    /// after the move (see [`smooth`]); the measures and the charts use it.
    pub first: Vec<f64>,
    /// `raw[i]`: the first player's estimated value before ply `i`, as the evaluator gave it.
    pub raw: Vec<f64>,
    /// The winning seat (from 0), if the game finished with one winner.
    pub winner: Option<usize>,
    pub drama: Drama,
}

/// What one game's value series says (see `docs/analysis.md`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Drama {
    /// Times the leader changed: a player leads from a value above ½ + [`LEAD_MARGIN`] until
    /// the other player's value is (a value within the margin of ½ leaves the lead as it was).
    pub lead_changes: u64,
    /// For a won game: the share of the game (0 to 1) played before the winner took the lead for
    /// good; 0 when they led throughout.
    pub decided_at: Option<f64>,
    /// For a won game: the share of positions in which the winner was behind (value below ½).
    pub winner_behind: Option<f64>,
    /// For a won game: the mean of ½ minus the winner's value over those positions (0 if none).
    pub drama: Option<f64>,
}

impl Drama {
    /// The measures of the first player's series `first` for a game won by `winner` (a seat of a
    /// two-player game) or not won.
    pub fn of(first: &[f64], winner: Option<usize>) -> Drama {
        let mut leader = None;
        let mut lead_changes = 0;
        for &v in first {
            let now = if v > 0.5 + LEAD_MARGIN {
                Some(0)
            } else if v < 0.5 - LEAD_MARGIN {
                Some(1)
            } else {
                None
            };
            if now.is_some() {
                lead_changes += u64::from(leader.is_some() && leader != now);
                leader = now;
            }
        }
        let mut drama = Drama { lead_changes, ..Drama::default() };
        let (Some(winner), false) = (winner, first.is_empty()) else { return drama };
        let value = |v: f64| if winner == 0 { v } else { 1.0 - v };
        let n = first.len() as f64;
        let decided = first.iter().rposition(|&v| value(v) <= 0.5).map_or(0, |i| i + 1);
        drama.decided_at = Some(decided as f64 / n);
        let behind: Vec<f64> = first.iter().map(|&v| value(v)).filter(|&w| w < 0.5).collect();
        drama.winner_behind = Some(behind.len() as f64 / n);
        drama.drama = Some(if behind.is_empty() {
            0.0
        } else {
            behind.iter().map(|w| 0.5 - w).sum::<f64>() / behind.len() as f64
        });
        drama
    }
}

/// The means of the sample games' measures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DramaSummary {
    pub games: u64,
    pub won: u64,
    pub lead_changes: f64,
    pub decided_at: Option<f64>,
    pub winner_behind: Option<f64>,
    pub drama: Option<f64>,
}

impl DramaSummary {
    pub fn of(samples: &[SampleGame]) -> DramaSummary {
        let mean =
            |values: Vec<f64>| (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64);
        let won: Vec<&Drama> = samples.iter().filter(|s| s.winner.is_some()).map(|s| &s.drama).collect();
        DramaSummary {
            games: samples.len() as u64,
            won: won.len() as u64,
            lead_changes: mean(samples.iter().map(|s| s.drama.lead_changes as f64).collect()).unwrap_or(0.0),
            decided_at: mean(won.iter().filter_map(|d| d.decided_at).collect()),
            winner_behind: mean(won.iter().filter_map(|d| d.winner_behind).collect()),
            drama: mean(won.iter().filter_map(|d| d.drama).collect()),
        }
    }
}

/// The mean of each estimate and the next one (the last stays as it is). An estimate by
/// playouts favours the player to move (in a race such as breakthrough, random playouts are won
/// more often by whoever moves first), so the raw series of a two-player game zigzags with the
/// turn, and every zigzag across ½ would count as a lead change; the mean of the values before
/// and after a move carries the bias of each player once.
pub fn smooth(raw: &[f64]) -> Vec<f64> {
    let pairs = raw.windows(2).map(|pair| (pair[0] + pair[1]) / 2.0);
    pairs.chain(raw.last().copied()).collect()
}

/// Whether `spec` gives value estimates in [0, 1] (the Monte Carlo agents).
pub fn estimates_values(spec: &AgentSpec) -> bool {
    matches!(spec.kind, AgentKind::FlatMc(_) | AgentKind::Mcts(_) | AgentKind::SplitMcts(_))
}

/// The positions (keeper-completed, a player to move) before each move of `moves`.
pub fn positions<G: Game>(
    game: &G,
    moves: &[Vec<Action>],
    keeper_limit: u64,
) -> Result<Vec<G::State>, SearchError> {
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    let mut out = Vec::with_capacity(moves.len());
    game.complete_keeper(&mut state, &mut sc, keeper_limit)?;
    for mv in moves {
        out.push(state.clone());
        game.apply_move(&mut state, mv);
        game.complete_keeper(&mut state, &mut sc, keeper_limit)?;
    }
    Ok(out)
}

/// The first player's value at each of `positions` (of a two-player game) by `evaluator`, one
/// search per position seeded by `seed` and the position's number, in parallel on the current
/// rayon pool (the same values with any number of threads).
pub fn first_player_values<G: Game>(
    game: &G,
    evaluator: &AgentSpec,
    positions: &[G::State],
    seed: u64,
) -> Result<Vec<f64>, String> {
    let budget = evaluator.budget();
    positions
        .par_iter()
        .enumerate()
        .map_init(
            || evaluator.build(game).map_err(|e| e.to_string()),
            |agent, (i, state)| {
                let agent = agent.as_mut().map_err(|e| e.clone())?;
                agent.reset(rbg_agents::seat_seed(seed, i));
                let decision = agent.select_move(game, state, &budget).map_err(|e| e.to_string())?;
                let value = decision.stats.value.ok_or("the evaluator gives no value estimate")?;
                Ok(if game.current_player(state) == 1 { value } else { 1.0 - value })
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing_takes_the_mean_of_each_value_and_the_next() {
        assert_eq!(
            smooth(&[0.8, 0.4, 0.9, 0.3]),
            vec![(0.8 + 0.4) / 2.0, (0.4 + 0.9) / 2.0, (0.9 + 0.3) / 2.0, 0.3]
        );
        assert_eq!(smooth(&[0.7]), vec![0.7]);
        assert!(smooth(&[]).is_empty());
    }

    #[test]
    fn drama_of_series_worked_out_by_hand() {
        // The first player's values; the second player wins. Leads: 0.7 first, 0.52 (within the
        // margin) keeps it, 0.3 second, 0.6 first, 0.2 and 0.1 second: 3 changes. The second
        // player's values are 0.3, 0.48, 0.7, 0.4, 0.8, 0.9: behind (below ½) at plies 0, 1 and
        // 3, by 0.2, 0.02 and 0.1 (mean 0.32/3); above ½ for good from ply 4 of 6.
        let first = [0.7, 0.52, 0.3, 0.6, 0.2, 0.1];
        let d = Drama::of(&first, Some(1));
        assert_eq!(d.lead_changes, 3);
        assert_eq!(d.decided_at, Some(4.0 / 6.0));
        assert_eq!(d.winner_behind, Some(3.0 / 6.0));
        assert!((d.drama.unwrap() - 0.32 / 3.0).abs() < 1e-12, "{d:?}");
        // The first player leading throughout and winning: decided from the start, no drama.
        let d = Drama::of(&[0.6, 0.7, 0.9], Some(0));
        assert_eq!(
            (d.lead_changes, d.decided_at, d.winner_behind, d.drama),
            (0, Some(0.0), Some(0.0), Some(0.0))
        );
        // A draw has lead changes only.
        let d = Drama::of(&first, None);
        assert_eq!((d.lead_changes, d.decided_at), (3, None));
    }
}
