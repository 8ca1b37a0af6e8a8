//! The agent interface and what all agents share: decisions, statistics, errors, rewards.

use core::fmt;
use std::time::Duration;

use rbg_core::{Action, Game, Player, SearchError, KEEPER};

use crate::budget::Budget;

/// Search statistics of one decision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations completed (see [`Budget`] for what an iteration is for each agent).
    pub iterations: u64,
    /// Game states visited (moves applied) during the search.
    pub nodes: u64,
    /// Depth reached: MCTS's deepest tree node, alpha-beta's last completed depth.
    pub depth: u32,
    /// The agent's estimate of the chosen move's value for the mover: a mean reward in [0, 1]
    /// for the Monte Carlo agents, the evaluation for alpha-beta; `None` for the random agent.
    pub value: Option<f64>,
    pub elapsed: Duration,
    /// What the search learned of each move at the root, most visited first: the Monte Carlo
    /// agents' visit counts and mean rewards (empty for the other agents).
    pub root: Vec<RootMove>,
}

impl SearchStats {
    /// Counts one iteration that visited `nodes` states and reached `depth`.
    pub(crate) fn count_iteration(&mut self, nodes: u64, depth: u32) {
        self.iterations += 1;
        self.nodes += nodes;
        self.depth = self.depth.max(depth);
    }

    /// Adds the iterations, states and depth of another search of the same decision (another
    /// thread's).
    pub(crate) fn add_counts(&mut self, other: &SearchStats) {
        self.iterations += other.iterations;
        self.nodes += other.nodes;
        self.depth = self.depth.max(other.depth);
    }
}

/// One move at the root of a search (see [`SearchStats::root`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove {
    pub mv: Vec<Action>,
    /// Playouts or tree visits through the move.
    pub visits: u64,
    /// The mean reward in [0, 1] for the mover over those visits (`None` before the first).
    pub value: Option<f64>,
}

/// Sorts root moves most visited first (ties: higher value first), as [`SearchStats::root`] lists them.
pub(crate) fn sort_root(root: &mut [RootMove]) {
    root.sort_by(|a, b| {
        b.visits.cmp(&a.visits).then(b.value.unwrap_or(0.0).total_cmp(&a.value.unwrap_or(0.0)))
    });
}

/// A chosen move and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub mv: Vec<Action>,
    pub stats: SearchStats,
}

/// Why an agent could not choose a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentError {
    /// The reasoner stopped on a bound (only improper game descriptions cause this).
    Search(SearchError),
    /// The state given has the keeper to move: agents only play for real players.
    KeeperToMove,
    /// The player to move has no legal move (the game is over).
    NoLegalMove,
    /// The agent gave up without choosing a move, for the reason given (e.g. a human player
    /// quit, or their input ended). The built-in agents never do.
    Aborted(String),
}

impl From<SearchError> for AgentError {
    fn from(e: SearchError) -> Self {
        AgentError::Search(e)
    }
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Search(e) => e.fmt(f),
            AgentError::KeeperToMove => {
                write!(f, "an agent was asked to move for the keeper; complete the keeper's moves first")
            }
            AgentError::NoLegalMove => write!(f, "the player to move has no legal move: the game is over"),
            AgentError::Aborted(reason) => write!(f, "the agent gave up: {reason}"),
        }
    }
}

impl std::error::Error for AgentError {}

/// A game-playing agent for one game `G`.
///
/// An agent is built for one game (it owns the reasoner's scratch memory for it) and every call
/// must pass that same game. States passed in must have a real player to move (keeper
/// completed).
pub trait Agent<G: Game> {
    /// A short description, e.g. `mcts:c=1.4`.
    fn name(&self) -> String;

    /// Starts a new game: forgets trees and tables learned so far and reseeds the random
    /// generator, so that a game played after `reset(seed)` depends only on `seed`.
    fn reset(&mut self, seed: u64);

    /// The budget this agent was configured with (used by [`play_game`](crate::play_game)).
    fn budget(&self) -> Budget;

    /// Chooses a move for the player to move in `state`, searching within `budget`.
    fn select_move(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError>;

    /// Tells the agent that `mv` was played in `before` (by anyone, this agent included), so that
    /// it can keep the part of its search that is still relevant.
    fn observe(&mut self, _game: &G, _before: &G::State, _mv: &[Action]) -> Result<(), AgentError> {
        Ok(())
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn reset(&mut self, seed: u64) {
        (**self).reset(seed)
    }
    fn budget(&self) -> Budget {
        (**self).budget()
    }
    fn select_move(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError> {
        (**self).select_move(game, state, budget)
    }
    fn observe(&mut self, game: &G, before: &G::State, mv: &[Action]) -> Result<(), AgentError> {
        (**self).observe(game, before, mv)
    }
}

/// Checks that a real player is to move in `state`; returns that player.
pub(crate) fn mover<G: Game>(game: &G, state: &G::State) -> Result<Player, AgentError> {
    match game.current_player(state) {
        KEEPER => Err(AgentError::KeeperToMove),
        p => Ok(p),
    }
}

/// Rewards in [0, 1] of each player (index `p - 1`), from the scores: a score divided by the
/// player's declared upper bound (RBG scores range over `0..=bound`). A bound of 0 gives 0.
pub(crate) fn rewards_into<G: Game>(game: &G, state: &G::State, out: &mut [f64]) {
    let bounds = &game.info().bounds;
    for (i, r) in out.iter_mut().enumerate() {
        let bound = bounds.get(i).copied().unwrap_or(0);
        let score = game.score(state, i as Player + 1);
        *r = if bound > 0 { (score as f64 / bound as f64).clamp(0.0, 1.0) } else { 0.0 };
    }
}

/// A 64-bit hash of a move's actions (FNV-1a over the pairs, then a final mix), used to key
/// MAST statistics, killer moves and history scores.
pub(crate) fn move_hash(mv: &[Action]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for a in mv {
        h = (h ^ a.index as u64).wrapping_mul(0x0000_0100_0000_01b3);
        h = (h ^ a.vertex as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    splitmix(h)
}

/// The splitmix64 finaliser: spreads the bits of `x` over the whole word.
pub(crate) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
