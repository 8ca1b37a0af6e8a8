//! `rbg.analyze`: rbg-metrics' analysis of a game by self-play, as a table (a list of dicts, one
//! per measure) for Python; and the same analysis in parts (`rbg.cluster.report` plays them as
//! Ray tasks): every part is JSON text, assembled into the report `rbg analyze --json` prints.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rbg_agents::{AgentSpec, PlayLimits};
use rbg_core::Game;
use rbg_metrics::analyze::{self as metrics, AnalysisConfig, StrengthTest};
use rbg_metrics::parts::{self, Parts, PlayedGame};
use rbg_metrics::AnalysisError;

use crate::errors::{search_error, value_error};
use crate::game::PyGame;
use crate::interrupt::{Run, Stoppable};

/// Agents as Python gives them: one specification, or one per player.
#[derive(FromPyObject)]
pub enum Agents {
    One(String),
    Each(Vec<String>),
}

fn parse_spec(argument: &str, text: &str) -> PyResult<AgentSpec> {
    text.parse().map_err(|e| value_error(format!("{argument}: bad agent specification {text:?}: {e}")))
}

/// The agent of self-play by default.
const DEFAULT_AGENT: &str = "mcts:iterations=100";
/// Self-play games by default.
const DEFAULT_GAMES: u64 = 100;

/// The settings of an analysis as Python gives them (`rbg.analyze`'s keywords; a dict of them
/// for the parts).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Options {
    agents: Agents,
    games: u64,
    seed: u64,
    max_moves: u64,
    samples: u64,
    evaluator: String,
    strength: Option<(String, String)>,
    strength_games: u64,
}

impl Options {
    /// The analysis configuration for `game` on `threads` threads.
    fn config(self, game: &Stoppable, threads: usize) -> PyResult<AnalysisConfig> {
        let players = game.info().num_players();
        let agents = match self.agents {
            Agents::One(text) => vec![parse_spec("agents", &text)?; players],
            Agents::Each(texts) if texts.len() == players => {
                texts.iter().map(|t| parse_spec("agents", t)).collect::<PyResult<_>>()?
            }
            Agents::Each(texts) => {
                return Err(value_error(format!(
                    "agents: the game has {players} players but {} agents were given; give one, or one per player",
                    texts.len()
                )))
            }
        };
        let most = rbg_agents::matches::max_threads();
        if threads == 0 || threads > most {
            return Err(value_error(format!("threads: give from 1 to {most}")));
        }
        let strength = match (self.strength, self.strength_games) {
            (_, 0) => None,
            (Some((weak, strong)), games) => Some(StrengthTest {
                weak: parse_spec("strength", &weak)?,
                strong: parse_spec("strength", &strong)?,
                games,
            }),
            (None, games) => agents
                .first()
                .and_then(|first| AnalysisConfig::self_play(game, first.clone(), games).strength)
                .map(|test| StrengthTest { games, ..test }),
        };
        Ok(AnalysisConfig {
            agents,
            games: self.games,
            seed: self.seed,
            threads,
            limits: PlayLimits { max_moves: self.max_moves, ..PlayLimits::default() },
            samples: self.samples,
            evaluator: parse_spec("evaluator", &self.evaluator)?,
            strength,
        })
    }
}

/// An analysis' failure as a Python exception: a bad setting is a ValueError.
fn analysis_error(e: AnalysisError) -> PyErr {
    match e {
        AnalysisError::Match { .. } | AnalysisError::Evaluator(_) => value_error(e.to_string()),
        other => search_error(other),
    }
}

/// Measures `game` by self-play (see `docs/analysis.md`) and returns one dict per measure:
/// `measure` (its name), `value`, `low` and `high` (the 95% interval of a rate, else None) and
/// `n` (the games or positions it rests on). `agents` is one specification (self-play in
/// every seat) or a list of one per player; `strength` is `(weak, strong)` or None for
/// random against the first agent (no test when that is random, or when `strength_games` is
/// 0). Runs on all cores (`threads`, default one per core) without the GIL; the numbers depend
/// only on the arguments. Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (
    game, agents = Agents::One(DEFAULT_AGENT.to_string()), games = DEFAULT_GAMES, seed = 0,
    threads = None, max_moves = PlayLimits::default().max_moves, samples = metrics::DEFAULT_SAMPLES,
    evaluator = metrics::DEFAULT_EVALUATOR.to_string(), strength = None, strength_games = metrics::DEFAULT_STRENGTH_GAMES
))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    agents: Agents,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    max_moves: u64,
    samples: u64,
    evaluator: String,
    strength: Option<(String, String)>,
    strength_games: u64,
) -> PyResult<Vec<Py<PyDict>>> {
    let stoppable = Stoppable::new(&game.get().any);
    let options = Options { agents, games, seed, max_moves, samples, evaluator, strength, strength_games };
    let config = options.config(&stoppable, threads.unwrap_or_else(metrics::default_threads))?;
    let analysis = stoppable
        .run(py, || metrics::analyze(&stoppable, &config, &rbg_metrics::Silent))?
        .map_err(analysis_error)?;
    rbg_metrics::rows(&analysis)
        .into_iter()
        .map(|row| {
            let dict = PyDict::new(py);
            dict.set_item("measure", row.measure)?;
            dict.set_item("value", row.value)?;
            dict.set_item("low", row.low)?;
            dict.set_item("high", row.high)?;
            dict.set_item("n", row.n)?;
            Ok(dict.unbind())
        })
        .collect()
}

fn to_json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| value_error(e.to_string()))
}

fn from_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> PyResult<T> {
    serde_json::from_str(text).map_err(|e| value_error(format!("{what}: {e}")))
}

/// The parts of the analysis of `game` with `options` (a dict of `rbg.analyze`'s keywords):
/// `(games, samples, strength_games)`, the numbers of self-play games, of sample games to
/// estimate and of strength-test games. Raises ValueError for settings the analysis refuses.
#[pyfunction]
pub fn _analysis_plan(game: &Bound<'_, PyGame>, options: Options) -> PyResult<(u64, u64, u64)> {
    let stoppable = Stoppable::new(&game.get().any);
    let config = options.config(&stoppable, 1)?;
    parts::check(&stoppable, &config).map_err(analysis_error)?;
    let info = stoppable.info();
    let samples = match parts::samples_note(info, &config) {
        Some(_) => 0,
        None => config.samples.min(config.games),
    };
    let strength = parts::strength_test(info, &config).map_or(0, |t| t.games);
    Ok((config.games, samples, strength))
}

/// Games `first .. first + count` of one kind, each played by `play` (one thread, without the
/// GIL) and returned as JSON.
fn games_as_json<T: serde::Serialize + Send>(
    py: Python<'_>,
    stoppable: &impl Run,
    first: u64,
    count: u64,
    play: impl Fn(u64) -> T + Sync,
) -> PyResult<Vec<String>> {
    let played = stoppable.run(py, || (first..first.saturating_add(count)).map(&play).collect::<Vec<_>>())?;
    played.iter().map(to_json).collect()
}

/// Self-play games `first .. first + count` of the analysis (one thread, without the GIL),
/// each as JSON.
#[pyfunction]
pub fn _analysis_games(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    options: Options,
    first: u64,
    count: u64,
) -> PyResult<Vec<String>> {
    let stoppable = Stoppable::new(&game.get().any);
    let config = options.config(&stoppable, 1)?;
    games_as_json(py, &stoppable, first, count, |i| parts::self_play_game(&stoppable, &config, i))
}

/// The value estimates (JSON) of a sample game (its JSON from `_analysis_games`), without the GIL.
#[pyfunction]
pub fn _analysis_sample(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    options: Options,
    played: &str,
) -> PyResult<String> {
    let stoppable = Stoppable::new(&game.get().any);
    let config = options.config(&stoppable, 1)?;
    let played: PlayedGame = from_json("a played game", played)?;
    let sample =
        stoppable.run(py, || parts::sample_game(&stoppable, &config, &played))?.map_err(analysis_error)?;
    to_json(&sample)
}

/// Strength-test games `first .. first + count` of the analysis, each as JSON.
#[pyfunction]
pub fn _analysis_strength(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    options: Options,
    first: u64,
    count: u64,
) -> PyResult<Vec<String>> {
    let stoppable = Stoppable::new(&game.get().any);
    let config = options.config(&stoppable, 1)?;
    let test = parts::strength_test(stoppable.info(), &config)
        .cloned()
        .ok_or_else(|| value_error("the analysis has no strength test"))?;
    games_as_json(py, &stoppable, first, count, |i| parts::strength_game(&stoppable, &config, &test, i))
}

/// The report from its parts (JSON texts, in any order): `(json, html)`, the JSON as
/// `rbg analyze --json` prints it and the HTML page of `rbg analyze --html`.
#[pyfunction]
pub fn _analysis_assemble(
    game: &Bound<'_, PyGame>,
    options: Options,
    games: Vec<String>,
    samples: Vec<String>,
    strength: Vec<String>,
) -> PyResult<(String, String)> {
    let stoppable = Stoppable::new(&game.get().any);
    let config = options.config(&stoppable, 1)?;
    let parts = Parts {
        games: games.iter().map(|t| from_json("a played game", t)).collect::<PyResult<_>>()?,
        samples: samples.iter().map(|t| from_json("a sample game", t)).collect::<PyResult<_>>()?,
        strength: strength.iter().map(|t| from_json("a strength-test game", t)).collect::<PyResult<_>>()?,
    };
    let analysis = parts::assemble(stoppable.info(), &config, parts);
    let json = serde_json::to_string_pretty(&analysis).map_err(|e| value_error(e.to_string()))?;
    Ok((json, rbg_metrics::html::report(&analysis)))
}

/// The default settings of an analysis (`rbg.analyze`'s and `rbg analyze`'s), as a dict.
#[pyfunction]
pub fn _analysis_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("agents", DEFAULT_AGENT)?;
    dict.set_item("games", DEFAULT_GAMES)?;
    dict.set_item("seed", 0)?;
    dict.set_item("max_moves", PlayLimits::default().max_moves)?;
    dict.set_item("samples", metrics::DEFAULT_SAMPLES)?;
    dict.set_item("evaluator", metrics::DEFAULT_EVALUATOR)?;
    dict.set_item("strength", py.None())?;
    dict.set_item("strength_games", metrics::DEFAULT_STRENGTH_GAMES)?;
    Ok(dict)
}

/// Adds the analysis' parts to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_plan, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_games, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_sample, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_strength, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_assemble, m)?)?;
    Ok(())
}
