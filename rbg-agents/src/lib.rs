//! rbg-agents: game-playing agents that run on any [`rbg_core::Game`] reasoner.
//!
//! Every agent is generic over `G: Game`, so the same code plays on the interpreter and on the
//! compiled reasoners; both generate the same moves in the same order, so an agent seeded the
//! same way and given an iteration (not a time) budget plays the same moves on both.
//!
//! * [`Agent`]: the interface, in the style of Ludii's `selectAction(game, state, max seconds,
//!   max iterations, max depth)`: [`Agent::select_move`] takes a [`Budget`] (wall time,
//!   iterations, depth; the first limit reached stops the search) and returns the move with
//!   search statistics; [`Agent::observe`] tells the agent of every move played so that it can
//!   reuse its search tree; [`Agent::reset`] starts a new game with a new seed.
//! * Agents: [`RandomAgent`], [`FlatMonteCarlo`], [`Mcts`] (UCT, optional MAST and NST
//!   playouts, RAVE/GRAVE, tree- or root-parallel threads, tree reuse), [`SplitMcts`] (UCT over parts
//!   of moves, one step at a time, after Kowalski et al., AAAI 2022; optional split MAST and
//!   NST), [`AlphaBeta`] (iterative deepening, transposition table, history/killer
//!   ordering, generic [`Evaluation`]: user material weights, or weights learned per game from
//!   random self-play by [`mod@learn`]).
//! * [`AgentSpec`]: agent descriptions such as `mcts:c=0.4,iterations=2000` or
//!   `split-mcts:expansion=single` or `alphabeta:depth=3,time=100ms`, parsed with clear errors.
//! * [`play_game`]: plays one game between agents to the end, bounded by a move limit.
//! * [`play_match`]: many games between the same agents, seats rotated, on several threads,
//!   with wins/draws/losses per agent and per seat and an Elo estimate ([`mod@matches`]).
//!
//! Agents are only asked to move when a real player is to move (the keeper's moves are completed
//! with [`Game::complete_keeper`](rbg_core::Game::complete_keeper), as the reference tools do).
//! Reasoner errors ([`rbg_core::SearchError`], raised only by improper game descriptions) come
//! back as [`AgentError`]s; nothing here panics on them.
//!
//! # Example
//!
//! ```
//! use rbg_agents::{play_game, AgentSpec, PlayLimits};
//! use rbg_core::toy::Nim;
//!
//! let game = Nim::new(7);
//! let spec: AgentSpec = "mcts:iterations=200".parse().unwrap();
//! let mut agents = vec![spec.build(&game).unwrap(), "random".parse::<AgentSpec>().unwrap().build(&game).unwrap()];
//! let record = play_game(&game, &mut agents, 42, &PlayLimits::default()).unwrap();
//! assert!(record.finished);
//! ```
#![forbid(unsafe_code)]

mod action_stats;
mod agent;
mod alpha_beta;
mod budget;
mod eval;
mod flat_mc;
pub mod learn;
pub mod matches;
mod mcts;
mod play;
mod random;
mod spec;
mod split_mcts;
mod uct;
mod zobrist;

pub use agent::{Agent, AgentError, Decision, RootMove, SearchStats};
pub use alpha_beta::{AlphaBeta, AlphaBetaConfig};
pub use budget::Budget;
pub use eval::{piece_owners, EvalKind, Evaluation, LEARNED_SCALE};
pub use flat_mc::{FlatMcConfig, FlatMonteCarlo};
pub use matches::{
    play_match, stream_match, GameResult, MatchConfig, MatchError, MatchOutcome, MatchSummary, Outcome,
    Tally, Termination,
};
pub use mcts::{Mcts, MctsConfig, Parallelism};
pub use play::{play_game, seat_seed, GameRecord, PlayError, PlayLimits, PlayedMove};
pub use random::RandomAgent;
pub use spec::{parse_time, AgentKind, AgentSpec, BuildError, SpecError};
pub use split_mcts::{
    Expansion, SplitMcts, SplitMctsConfig, SplitPlayout, StepSource, DEFAULT_SPLIT_MCTS_ITERATIONS,
};
pub use zobrist::Zobrist;
