//! Playing one game between agents.

use core::fmt;

use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Action, Game, MoveList, Player, SearchError};

use crate::agent::{splitmix, Agent, AgentError, SearchStats};

/// Bounds of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayLimits {
    /// The game stops unfinished after this many player moves.
    pub max_moves: u64,
    /// Bound on consecutive keeper moves.
    pub keeper_limit: u64,
}

impl Default for PlayLimits {
    fn default() -> Self {
        PlayLimits { max_moves: 10_000, keeper_limit: DEFAULT_KEEPER_LIMIT }
    }
}

/// One player move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub player: Player,
    pub mv: Vec<Action>,
    pub stats: SearchStats,
}

/// A played game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub moves: Vec<PlayedMove>,
    /// The scores of the final state, index `p - 1` for player `p`.
    pub scores: Vec<i64>,
    /// Whether the game ended by its rules (not by [`PlayLimits::max_moves`]).
    pub finished: bool,
}

impl GameRecord {
    /// The move sequence alone (for comparing games).
    pub fn move_list(&self) -> Vec<Vec<Action>> {
        self.moves.iter().map(|m| m.mv.clone()).collect()
    }
}

/// Why a game could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// There must be exactly one agent per player.
    AgentCount { players: usize, agents: usize },
    /// The keeper has no move in the initial state: no player ever moves.
    GameOverAtStart,
    /// An agent failed.
    Agent { player: Player, error: AgentError },
    /// An agent chose a move that is not legal.
    IllegalMove { player: Player, mv: Vec<Action> },
    /// The reasoner stopped on a bound (improper game descriptions only).
    Search(SearchError),
}

impl From<SearchError> for PlayError {
    fn from(e: SearchError) -> Self {
        PlayError::Search(e)
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::AgentCount { players, agents } => {
                write!(f, "the game has {players} players but {agents} agents were given")
            }
            PlayError::GameOverAtStart => write!(f, "the game is over before any player moves"),
            PlayError::Agent { player, error } => write!(f, "the agent of player {player} failed: {error}"),
            PlayError::IllegalMove { player, mv } => {
                write!(f, "the agent of player {player} chose an illegal move {mv:?}")
            }
            PlayError::Search(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

/// Plays one game: `agents[i]` plays player `i + 1`. Each agent is first reset with a seed
/// derived from `seed` and its seat, and asked with its own [`Agent::budget`]; every agent
/// observes every move. Each chosen move is checked against the legal moves before it is
/// applied. The game ends when the player to move has no legal move, when the keeper is stuck,
/// or unfinished after `limits.max_moves` moves.
pub fn play_game<G: Game, A: Agent<G>>(
    game: &G,
    agents: &mut [A],
    seed: u64,
    limits: &PlayLimits,
) -> Result<GameRecord, PlayError> {
    let players = game.info().num_players();
    if agents.len() != players {
        return Err(PlayError::AgentCount { players, agents: agents.len() });
    }
    let played = play_recorded(game, agents, seed, limits);
    let finished = played.outcome?;
    Ok(GameRecord { moves: played.moves, scores: played.scores, finished })
}

/// A game played as far as it went: the moves, the scores of the last state reached, and
/// whether it finished (`Ok(true)`), stopped at the move limit (`Ok(false)`) or failed.
pub(crate) struct Played {
    pub moves: Vec<PlayedMove>,
    pub scores: Vec<i64>,
    pub outcome: Result<bool, PlayError>,
}

/// The seed an agent is reset with for the game seeded `seed`, in seat `seat` (from 0).
pub fn seat_seed(seed: u64, seat: usize) -> u64 {
    splitmix(seed ^ splitmix(seat as u64 + 1))
}

/// [`play_game`] keeping what was played when the game fails. `agents` must hold one agent per
/// player.
pub(crate) fn play_recorded<G: Game, A: Agent<G>>(
    game: &G,
    agents: &mut [A],
    seed: u64,
    limits: &PlayLimits,
) -> Played {
    for (seat, agent) in agents.iter_mut().enumerate() {
        agent.reset(seat_seed(seed, seat));
    }
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    let outcome = play_moves(game, agents, limits, &mut sc, &mut state, &mut moves);
    let players = game.info().num_players() as Player;
    let scores = (1..=players).map(|p| game.score(&state, p)).collect();
    Played { moves, scores, outcome }
}

fn play_moves<G: Game, A: Agent<G>>(
    game: &G,
    agents: &mut [A],
    limits: &PlayLimits,
    sc: &mut G::Scratch,
    state: &mut G::State,
    moves: &mut Vec<PlayedMove>,
) -> Result<bool, PlayError> {
    if !game.complete_keeper(state, sc, limits.keeper_limit)? {
        return Err(PlayError::GameOverAtStart);
    }
    let mut legal = MoveList::new();
    loop {
        game.legal_moves(state, sc, &mut legal)?;
        if legal.is_empty() {
            return Ok(true);
        }
        if moves.len() as u64 >= limits.max_moves {
            return Ok(false);
        }
        let player = game.current_player(state);
        let agent = &mut agents[player as usize - 1];
        let budget = agent.budget();
        let decision =
            agent.select_move(game, state, &budget).map_err(|error| PlayError::Agent { player, error })?;
        if !legal.iter().any(|m| m == decision.mv.as_slice()) {
            return Err(PlayError::IllegalMove { player, mv: decision.mv });
        }
        for (seat, agent) in agents.iter_mut().enumerate() {
            agent
                .observe(game, state, &decision.mv)
                .map_err(|error| PlayError::Agent { player: seat as Player + 1, error })?;
        }
        game.apply_move(state, &decision.mv);
        moves.push(PlayedMove { player, mv: decision.mv, stats: decision.stats });
        if !game.complete_keeper(state, sc, limits.keeper_limit)? {
            return Ok(true);
        }
    }
}
