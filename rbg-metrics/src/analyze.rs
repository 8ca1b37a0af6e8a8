//! An analysis: self-play games between the chosen agents, their measures, value estimates of a
//! few sample games, and a match of a weak against a strong agent.
//!
//! Game `i` of each match is seeded from the seed and `i` alone (rbg-agents' matches), traces
//! are put back in game order before anything is computed from them, and the sample positions
//! are each searched with their own seed: an analysis gives the same numbers with any number of
//! threads (for iteration budgets; a time budget depends on the machine).

use std::sync::Mutex;

use rbg_agents::{stream_match, AgentSpec, MatchConfig, MatchError, PlayLimits};
use rbg_core::{Action, Game};
use serde::Serialize;

use crate::measures::Measures;
use crate::stats::Rate;
use crate::trace::{replay, GameTrace, Recorder};
use crate::values::{estimates_values, first_player_values, positions, smooth, DramaSummary, SampleGame};

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

/// Runs the analysis of `config` on `game`.
pub fn analyze<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    progress: &dyn Progress,
) -> Result<Analysis, AnalysisError> {
    if !estimates_values(&config.evaluator) {
        return Err(AnalysisError::Evaluator(format!(
            "{} gives no value estimates; use flatmc, mcts or split-mcts",
            config.evaluator
        )));
    }
    config.evaluator.build(game).map_err(|e| AnalysisError::Evaluator(e.to_string()))?;
    let agents: Vec<String> = config.agents.iter().map(AgentSpec::to_string).collect();
    let (traces, sample_moves) = self_play(game, config, progress)?;
    let info = game.info();
    let measures = Measures::of(info, &agents, &traces, true);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| AnalysisError::Pool(e.to_string()))?;
    let (samples, samples_note) =
        pool.install(|| estimate_samples(game, config, &traces, &sample_moves, progress))?;
    let drama = (!samples.is_empty()).then(|| DramaSummary::of(&samples));
    let strength = match &config.strength {
        // Alone, a player has nobody to be stronger than.
        Some(test) if test.games > 0 && info.num_players() > 1 => {
            Some(strength_gap(game, config, test, progress)?)
        }
        _ => None,
    };
    Ok(Analysis {
        game: info.name.clone(),
        players: info.players.clone(),
        agents,
        games: config.games,
        seed: config.seed,
        max_moves: config.limits.max_moves,
        measures,
        evaluator: config.evaluator.to_string(),
        samples,
        drama,
        samples_note,
        strength,
    })
}

/// The self-play games as traces in game order, and the moves of the sample games.
type Played = (Vec<GameTrace>, Vec<Vec<Vec<Action>>>);

fn self_play<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    progress: &dyn Progress,
) -> Result<Played, AnalysisError> {
    let match_config = MatchConfig {
        games: config.games,
        threads: config.threads,
        seed: config.seed,
        budget: None,
        limits: config.limits.clone(),
    };
    let traces = Mutex::new(Vec::new());
    let samples = Mutex::new(Vec::new());
    let done = std::sync::atomic::AtomicU64::new(0);
    progress.start(Stage::SelfPlay, config.games);
    stream_match(game, &config.agents, &match_config, |result| {
        let trace = replay(game, &result, &mut Recorder::new(game, true), config.limits.keeper_limit);
        if result.index < config.samples {
            lock(&samples).push((result.index, result.move_list()));
        }
        lock(&traces).push((result.index, trace));
        progress.advance(Stage::SelfPlay, done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    })
    .map_err(|error| AnalysisError::Match { stage: Stage::SelfPlay, error })?;
    let mut traces = traces.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    traces.sort_by_key(|t| t.0);
    let mut samples = samples.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    samples.sort_by_key(|s| s.0);
    Ok((traces.into_iter().map(|t| t.1).collect(), samples.into_iter().map(|s| s.1).collect()))
}

/// A mutex's contents, also after a panic elsewhere (the data is still whole: every push is one
/// call).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn estimate_samples<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    traces: &[GameTrace],
    sample_moves: &[Vec<Vec<Action>>],
    progress: &dyn Progress,
) -> Result<(Vec<SampleGame>, Option<String>), AnalysisError> {
    if sample_moves.is_empty() {
        return Ok((Vec::new(), None));
    }
    if game.info().num_players() != 2 {
        let note = "value estimates are made for two-player games only".to_string();
        return Ok((Vec::new(), Some(note)));
    }
    let total: u64 = sample_moves.iter().map(|m| m.len() as u64).sum();
    progress.start(Stage::Samples, total);
    let mut samples = Vec::new();
    let mut done = 0;
    for (index, moves) in sample_moves.iter().enumerate() {
        let states = positions(game, moves, config.limits.keeper_limit)
            .map_err(|e| AnalysisError::Evaluator(format!("replaying sample game {index}: {e}")))?;
        let seed = rbg_agents::matches::game_seed(config.seed ^ SAMPLE_SEED, index as u64);
        let raw =
            first_player_values(game, &config.evaluator, &states, seed).map_err(AnalysisError::Evaluator)?;
        let first = smooth(&raw);
        let winner = traces.get(index).and_then(GameTrace::winner);
        let drama = crate::values::Drama::of(&first, winner);
        samples.push(SampleGame { index: index as u64, first, raw, winner, drama });
        done += moves.len() as u64;
        progress.advance(Stage::Samples, done);
    }
    Ok((samples, None))
}

/// Mixed into the seed of the sample positions' searches, so they differ from the games'.
const SAMPLE_SEED: u64 = 0x5a4d_504c_4553;
/// Mixed into the seed of the strength test.
const STRENGTH_SEED: u64 = 0x5354_5245_4e47;

fn strength_gap<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    test: &StrengthTest,
    progress: &dyn Progress,
) -> Result<StrengthGap, AnalysisError> {
    let players = game.info().num_players();
    let mut specs = vec![test.strong.clone()];
    specs.extend(std::iter::repeat_n(test.weak.clone(), players.saturating_sub(1)));
    let match_config = MatchConfig {
        games: test.games,
        threads: config.threads,
        seed: config.seed ^ STRENGTH_SEED,
        budget: None,
        limits: config.limits.clone(),
    };
    let done = std::sync::atomic::AtomicU64::new(0);
    progress.start(Stage::Strength, test.games);
    let summary = stream_match(game, &specs, &match_config, |_| {
        progress.advance(Stage::Strength, done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    })
    .map_err(|error| AnalysisError::Match { stage: Stage::Strength, error })?;
    let strong = summary.per_agent.first().cloned().unwrap_or_default();
    let strong_score = Rate::of(strong.wins as f64 + strong.draws as f64 / 2.0, strong.games());
    let fair = 1.0 / players.max(1) as f64;
    Ok(StrengthGap {
        weak: test.weak.to_string(),
        strong: test.strong.to_string(),
        games: test.games,
        finished: summary.finished,
        strong_score,
        gap: strong_score.map(|r| Gap { value: r.rate - fair, low: r.low - fair, high: r.high - fair }),
    })
}
