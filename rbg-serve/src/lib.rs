//! rbg-serve: a local web page and a JSON API to browse games, play them against people and
//! agents, step through their history, run perft and Monte Carlo and analyse a game by self-play
//! (`rbg serve`).
//!
//! The server knows nothing of game files: the caller gives a [`Loader`] that turns a path
//! inside the games directory into a reasoner (`rbg serve` passes one that reads RBG and SBG
//! files into the interpreter). Each browser tab owns a *session*: a game, the states after
//! each move of its history, a cursor into that history (undo and redo), and the partial move
//! being built one action at a time from the reasoner's move-by-move interface
//! ([`rbg_core::Game::next_actions`]), so only steps that can still complete a legal move are
//! offered.
//!
//! The page plays whole moves from the view's list of legal moves, each with the vertices a
//! player clicks and its human notation ([`rbg_core::notation::sketch_move`]); while an agent
//! searches for a session, the session is locked (changes are refused with a 409) and its
//! answer lands only if the search was not stopped meanwhile.
//!
//! Safety: the server binds where the caller says (the CLI: 127.0.0.1 by default); it reads only
//! files inside the games directory (paths are resolved and must stay under it); every bad
//! request gets a 4xx JSON error and changes nothing; searches (agents, perft, Monte Carlo) run
//! on blocking threads with bounded budgets, so they never hold a session's lock while they run
//! and never stall other requests.
//!
//! The API is documented in `docs/serve-api.md`.

#![forbid(unsafe_code)]

mod api;
mod editor;
mod games;
mod jobs;
mod session;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rbg_core::dynamic::AnyGame;

pub use api::{router, router_with_builds, router_with_preview};
pub use rbg::background::Builder;

/// Turns a game file (a path under the games directory) into a reasoner, or an error message
/// (with file:line:col where the file has an error).
pub type Loader = Arc<dyn Fn(&Path) -> Result<AnyGame, String> + Send + Sync>;

/// Settings of a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The games directory: the only place files are read from.
    pub dir: PathBuf,
    /// Most sessions kept; the least recently used one is dropped beyond it.
    pub max_sessions: usize,
    /// Longest time budget an agent may be given.
    pub max_agent_time: Duration,
    /// Most iterations an agent may be given.
    pub max_agent_iterations: u64,
    /// Deepest perft a job may run.
    pub max_perft_depth: u32,
    /// Longest Monte Carlo job.
    pub max_mc_time: Duration,
    /// Most moves a history may hold (a bound on memory per session).
    pub max_history: usize,
    /// Most self-play games an analysis may play (each of the self-play and strength tests).
    pub max_analysis_games: u64,
    /// Longest analysis: it is stopped at this time.
    pub max_analysis_time: Duration,
    /// Build the compiled engine of every game opened in the background and switch its
    /// session to it when ready (`rbg serve`'s default when cargo is found). Off by default,
    /// so servers made in tests never start a build.
    pub compile_in_background: bool,
}

impl Config {
    /// Defaults for `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Config {
            dir: dir.into(),
            max_sessions: 1000,
            max_agent_time: Duration::from_secs(60),
            max_agent_iterations: 1_000_000,
            max_perft_depth: 10,
            max_mc_time: Duration::from_secs(600),
            max_history: 100_000,
            max_analysis_games: 10_000,
            max_analysis_time: Duration::from_secs(600),
            compile_in_background: false,
        }
    }
}

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, router: axum::Router) -> std::io::Result<()> {
    axum::serve(listener, router).await
}
