//! `rbg.analyze`: rbg-metrics' analysis of a game by self-play, as a table (a list of dicts, one
//! per measure) for Python.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rbg_agents::{AgentSpec, PlayLimits};
use rbg_core::Game;
use rbg_metrics::analyze::{self as metrics, AnalysisConfig, StrengthTest};

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

/// Measures `game` by self-play (see `docs/analysis.md`) and returns one dict per measure:
/// `measure` (its name), `value`, `low` and `high` (the 95% interval of a rate, else None) and
/// `n` (the games or positions it rests on). `agents` is one specification (self-play in
/// every seat) or a list of one per player; `strength` is `(weak, strong)` or None for
/// random against the first agent (no test when that is random, or when `strength_games` is
/// 0). Runs on all cores (`threads`, default one per core) without the GIL; the numbers depend
/// only on the arguments. Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (
    game, agents = Agents::One("mcts:iterations=100".to_string()), games = 100, seed = 0,
    threads = None, max_moves = PlayLimits::default().max_moves, samples = metrics::DEFAULT_SAMPLES,
    evaluator = metrics::DEFAULT_EVALUATOR, strength = None, strength_games = metrics::DEFAULT_STRENGTH_GAMES
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
    evaluator: &str,
    strength: Option<(String, String)>,
    strength_games: u64,
) -> PyResult<Vec<Py<PyDict>>> {
    let stoppable = Stoppable::new(&game.get().any);
    let players = game.get().any.info().num_players();
    let agents = match agents {
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
    let threads = threads.unwrap_or_else(metrics::default_threads);
    let most = rbg_agents::matches::max_threads();
    if threads == 0 || threads > most {
        return Err(value_error(format!("threads: give from 1 to {most}")));
    }
    let strength = match (strength, strength_games) {
        (_, 0) => None,
        (Some((weak, strong)), games) => Some(StrengthTest {
            weak: parse_spec("strength", &weak)?,
            strong: parse_spec("strength", &strong)?,
            games,
        }),
        (None, games) => agents
            .first()
            .and_then(|first| AnalysisConfig::self_play(&stoppable, first.clone(), games).strength)
            .map(|test| StrengthTest { games, ..test }),
    };
    let config = AnalysisConfig {
        agents,
        games,
        seed,
        threads,
        limits: PlayLimits { max_moves, ..PlayLimits::default() },
        samples,
        evaluator: parse_spec("evaluator", evaluator)?,
        strength,
    };
    let analysis = stoppable
        .run(py, || metrics::analyze(&stoppable, &config, &rbg_metrics::Silent))?
        .map_err(|e| match e {
            rbg_metrics::AnalysisError::Match { .. } | rbg_metrics::AnalysisError::Evaluator(_) => {
                value_error(e.to_string())
            }
            other => search_error(other),
        })?;
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
