//! An analysis: self-play games between the chosen agents, their measures, value estimates of a
//! few sample games, and a match of a weak against a strong agent.
//!
//! Game `i` of each match is seeded from the seed and `i` alone (rbg-agents' matches), traces
//! are put back in game order before anything is computed from them, and the sample positions
//! are each searched with their own seed: an analysis gives the same numbers with any number of
//! threads (for iteration budgets; a time budget depends on the machine).

use std::sync::Mutex;

use rbg_agents::{stream_match, AgentSpec, GameResult, MatchConfig, MatchError, PlayLimits};
use rbg_core::Game;
use serde::Serialize;

use crate::measures::Measures;
use crate::parts::{self, Parts, PlayedGame, StrengthGame};
use crate::stats::Rate;
use crate::values::{DramaSummary, SampleGame};

/// A weak agent against a strong one.
#[derive(Clone, Debug, PartialEq)]
pub struct StrengthTest {
    pub weak: AgentSpec,
    pub strong: AgentSpec,
    pub games: u64,
}

/// What to play and measure.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisConfig {
    /// The agents, one per player (the same one in every seat for self-play). Seats rotate
    /// from game to game as in a match.
    pub agents: Vec<AgentSpec>,
    pub games: u64,
    pub seed: u64,
    /// Worker threads (1 to rbg-agents' `max_threads`).
    pub threads: usize,
    pub limits: PlayLimits,
    /// The first `samples` games get value estimates of every position (two-player games).
    pub samples: u64,
    /// The agent whose value estimate is taken (flat Monte Carlo or MCTS).
    pub evaluator: AgentSpec,
    pub strength: Option<StrengthTest>,
}

impl AnalysisConfig {
    /// Self-play of `agent` in every seat of `game`, with the default evaluator and a strength
    /// test of `random` against `agent` (none when `agent` is random).
    pub fn self_play<G: Game>(game: &G, agent: AgentSpec, games: u64) -> AnalysisConfig {
        let random: AgentSpec = AgentSpec { kind: rbg_agents::AgentKind::Random, seed: 0 };
        let strength = (agent.kind != random.kind).then(|| StrengthTest {
            weak: random,
            strong: agent.clone(),
            games: DEFAULT_STRENGTH_GAMES,
        });
        AnalysisConfig {
            agents: vec![agent; game.info().num_players()],
            games,
            seed: 0,
            threads: default_threads(),
            limits: PlayLimits::default(),
            samples: DEFAULT_SAMPLES,
            evaluator: default_evaluator(),
            strength,
        }
    }
}

/// Sample games with value estimates, by default.
pub const DEFAULT_SAMPLES: u64 = 4;
/// Games of the strength test, by default.
pub const DEFAULT_STRENGTH_GAMES: u64 = 20;
/// The default evaluator's specification.
pub const DEFAULT_EVALUATOR: &str = "mcts:iterations=200";

/// `mcts:iterations=200`.
pub fn default_evaluator() -> AgentSpec {
    DEFAULT_EVALUATOR.parse().unwrap_or(AgentSpec { kind: rbg_agents::AgentKind::Random, seed: 0 })
}

/// One thread per core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The stage an analysis is in, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Self-play games (units: games).
    SelfPlay,
    /// Value estimates of the sample games (units: positions).
    Samples,
    /// The strength test (units: games).
    Strength,
}

/// Progress: the stage has this many units in all (called once at its start).
pub trait Progress: Sync {
    fn start(&self, stage: Stage, total: u64);
    fn advance(&self, stage: Stage, done: u64);
}

/// No progress reports.
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: Stage, _: u64) {}
    fn advance(&self, _: Stage, _: u64) {}
}

/// The strength test's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrengthGap {
    pub weak: String,
    pub strong: String,
    pub games: u64,
    /// Games that finished (the others do not count).
    pub finished: u64,
    /// The strong agent's score fraction (a win 1, a draw ½) over finished games.
    pub strong_score: Option<Rate>,
    /// `strong_score` minus the fair share `1/players`, with its interval moved alike: positive
    /// when the stronger agent does better than an equal one would.
    pub gap: Option<Gap>,
}

/// A difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Gap {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// Everything an analysis found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    pub game: String,
    pub players: Vec<String>,
    pub agents: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub max_moves: u64,
    pub measures: Measures,
    pub evaluator: String,
    pub samples: Vec<SampleGame>,
    pub drama: Option<DramaSummary>,
    /// Why no sample games were estimated, when none were.
    pub samples_note: Option<String>,
    pub strength: Option<StrengthGap>,
}

/// Why an analysis could not run.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisError {
    /// The self-play or strength match could not start (wrong number of agents, a game over
    /// at the start, threads ...).
    Match { stage: Stage, error: MatchError },
    /// The evaluator is not a Monte Carlo agent, or could not be built.
    Evaluator(String),
    /// The worker threads could not be started.
    Pool(String),
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalysisError::Match { stage: Stage::Strength, error } => write!(f, "strength test: {error}"),
            AnalysisError::Match { error, .. } => error.fmt(f),
            AnalysisError::Evaluator(e) => write!(f, "evaluator: {e}"),
            AnalysisError::Pool(e) => write!(f, "cannot start the worker threads: {e}"),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// Runs the analysis of `config` on `game`: the self-play games and the strength test as
/// matches on `config.threads` threads, the sample games' positions on as many, each part
/// recorded as [`crate::parts`] records it and the report assembled from them.
pub fn analyze<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    progress: &dyn Progress,
) -> Result<Analysis, AnalysisError> {
    parts::check(game, config)?;
    let info = game.info();
    let games = self_play(game, config, progress)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| AnalysisError::Pool(e.to_string()))?;
    let samples = match parts::samples_note(info, config) {
        Some(_) => Vec::new(),
        None => pool.install(|| estimate_samples(game, config, &games, progress))?,
    };
    let strength = match parts::strength_test(info, config) {
        Some(test) => strength_games(game, config, test, progress)?,
        None => Vec::new(),
    };
    Ok(parts::assemble(info, config, Parts { games, samples, strength }))
}

/// Plays the `games` of `match_config` between `specs`, handing each result to `record`;
/// returns the records in game order.
fn play_match<G: Game, R: Send>(
    game: &G,
    specs: &[AgentSpec],
    match_config: &MatchConfig,
    stage: Stage,
    progress: &dyn Progress,
    record: impl Fn(&GameResult) -> R + Sync,
) -> Result<Vec<R>, AnalysisError> {
    let records = Mutex::new(Vec::new());
    let done = std::sync::atomic::AtomicU64::new(0);
    progress.start(stage, match_config.games);
    stream_match(game, specs, match_config, |result| {
        let r = record(&result);
        lock(&records).push((result.index, r));
        progress.advance(stage, done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    })
    .map_err(|error| AnalysisError::Match { stage, error })?;
    let mut records = records.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    records.sort_by_key(|r| r.0);
    Ok(records.into_iter().map(|r| r.1).collect())
}

/// The self-play games, in game order.
fn self_play<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    progress: &dyn Progress,
) -> Result<Vec<PlayedGame>, AnalysisError> {
    let match_config = MatchConfig {
        games: config.games,
        threads: config.threads,
        seed: config.seed,
        budget: None,
        limits: config.limits.clone(),
    };
    play_match(game, &config.agents, &match_config, Stage::SelfPlay, progress, |result| {
        PlayedGame::of(game, config, result)
    })
}

/// A mutex's contents, also after a panic elsewhere (the data is still whole: every push is one
/// call).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn estimate_samples<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    games: &[PlayedGame],
    progress: &dyn Progress,
) -> Result<Vec<SampleGame>, AnalysisError> {
    let sample_games: Vec<&PlayedGame> = games.iter().filter(|g| g.moves.is_some()).collect();
    if sample_games.is_empty() {
        return Ok(Vec::new());
    }
    let length = |g: &PlayedGame| g.moves.as_ref().map_or(0, |m| m.len() as u64);
    progress.start(Stage::Samples, sample_games.iter().map(|g| length(g)).sum());
    let mut samples = Vec::new();
    let mut done = 0;
    for played in sample_games {
        samples.push(parts::sample_game(game, config, played)?);
        done += length(played);
        progress.advance(Stage::Samples, done);
    }
    Ok(samples)
}

fn strength_games<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    test: &StrengthTest,
    progress: &dyn Progress,
) -> Result<Vec<StrengthGame>, AnalysisError> {
    let specs = parts::strength_specs(game.info().num_players(), test);
    let match_config = MatchConfig {
        games: test.games,
        threads: config.threads,
        seed: parts::strength_seed(config),
        budget: None,
        limits: config.limits.clone(),
    };
    play_match(game, &specs, &match_config, Stage::Strength, progress, StrengthGame::of)
}
