//! rbg-manager: a game manager (server) and a client speaking the RBG project's game-manager
//! protocol, so that our agents can play in matches run by the reference manager and the
//! reference players can play in ours.
//!
//! # The protocol
//!
//! TCP; every message is a string followed by one NUL byte ([`framing`]).
//!
//! 1. The server waits for one client per real player; the i-th client to connect plays player
//!    i (the keeper is never a client).
//! 2. Set-up, to each client: the preparation time in seconds (`5.000000`), the game's text
//!    exactly as the server read it, the player number (`1`). The client answers `ready` (any
//!    message counts; a late one is only logged).
//! 3. Each turn the server sends the mover alone its deadline in seconds (`1.000000`; without a
//!    deadline the largest double, printed in full), reads the move as `v1 m1 v2 m2 ...`
//!    (vertex numbered from 1, then the modifier index, for each modifier of the move:
//!    [`rbg_core::notation::format_wire`]), checks it against the legal moves, applies it and
//!    sends it to every other client (as `format_wire` writes it: the same text whenever the
//!    mover wrote it as the protocol does, with single spaces). Keeper moves are never sent: server and
//!    clients each complete them with [`Game::complete_keeper`](rbg_core::Game::complete_keeper).
//! 4. At the end of a game the server sends `reset` to every client and the next game starts
//!    with the same seats. It stops after the configured number of games, or at the end of a
//!    game in which a client disconnected.
//!
//! # Our choices where the reference stops
//!
//! The reference manager shuts down on an illegal move. Ours declares a **forfeit** and goes
//! on, when the mover sends a move that is not legal, a message that is not a move (not text,
//! not numbers in range, an odd count), a message over the length limit, or nothing within the
//! deadline plus the grace period ([`ServerConfig::grace`], 1 s by default; without a deadline,
//! within [`ServerConfig::max_wait`]), or when its connection is closed. The game ends at once:
//! the offender scores 0 and every other player the maximum declared for its score
//! ([`GameInfo::bounds`](rbg_core::GameInfo::bounds)). The reason is logged, the results line
//! gets ` forfeit=p<N>:<reason>` ([`ForfeitReason::token`]), `reset` is sent, and the next game
//! starts, unless the offender's connection is gone (closed, failed, or desynchronised by an
//! over-long message): then the server stops after that game, as the reference does when a
//! client disconnects. A move later than the deadline but within the grace period is accepted
//! and counted in the line's `timeouts=` field, as the reference counts late moves. Messages a
//! client sends when it was not asked for a move (e.g. a move given up on after a timeout) are
//! discarded before the next question.
//!
//! Nothing a client sends can make the server panic, hang, or hold more than one message of
//! [`ServerConfig::max_message`] bytes per client: every read has a deadline, every write a
//! timeout.
//!
//! # Logs
//!
//! * Results ([`ServerLogs::results`]): one line per game, as the reference writes it:
//!   `<seconds> <moves made> <sum of legal-move counts over the game> <score p1> <score p2> ...`,
//!   then ` timeouts=<n1>,<n2>,...` (late moves per player) when a move was late, then
//!   ` forfeit=p<N>:<reason>` for a forfeited game; see [`GameResult::results_line`].
//! * Moves ([`ServerLogs::moves`]): one line per player move, `<game> <player> <wire text>`.
//! * Events ([`ServerLogs::events`]): connections, late answers, forfeits with their reasons.
//!
//! # The client
//!
//! [`Client`] reads the set-up, builds the game from the text received through a closure
//! (this crate does not depend on the parser: the caller chooses the reasoner) and an agent
//! ([`rbg_agents::Agent`]), answers `ready`, and plays: on a deadline it asks the agent for a
//! move within the agent's budget capped at the deadline minus a safety margin
//! ([`client::move_budget`]); moves from the server are checked, applied and shown to the agent
//! ([`Agent::observe`](rbg_agents::Agent::observe)); `reset` starts a new game with a new seed
//! ([`Agent::reset`](rbg_agents::Agent::reset)); the server closing the connection ends the run
//! normally. A message that the protocol does not allow at that point is a [`ClientError`].
//! [`Client::play_switching`] also takes another engine of the game that the caller offers
//! once it is ready (the compiled engine built meanwhile): waited for during the preparation
//! time, else taken before the client's next move, the game so far replayed on it, each move
//! checked.
//!
//! # Example
//!
//! ```no_run
//! use rbg_manager::{Server, ServerConfig, ServerLogs};
//! # fn example(game: rbg_core::dynamic::AnyGame, text: String) -> Result<(), Box<dyn std::error::Error>> {
//! let config = ServerConfig { deadline: Some(std::time::Duration::from_secs(1)), games: Some(10), ..Default::default() };
//! let logs = ServerLogs { results: Some(Box::new(std::io::stdout())), ..Default::default() };
//! let server = Server::bind(game, text, "127.0.0.1:8000", config)?.with_logs(logs);
//! let report = server.run()?;
//! println!("{} games", report.games.len());
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

pub mod client;
pub mod framing;
pub mod server;

pub use client::{Client, ClientConfig, ClientError, ClientGame, ClientReport};
pub use framing::{Connection, FrameError, FrameReader, DEFAULT_MAX_MESSAGE};
pub use server::{
    Forfeit, ForfeitReason, GameResult, Server, ServerConfig, ServerError, ServerLogs, ServerReport,
    StopReason, RESET,
};
