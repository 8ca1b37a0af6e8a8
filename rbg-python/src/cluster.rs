//! The pieces of work `rbg.cluster` hands to Ray tasks, each a whole unit in Rust: one game of
//! a match (as `rbg play` plays it), one perft subtree, and the result table of a match (the
//! analysis' parts are in `analyze.rs`, evolution's in `evolve.rs`).
//!
//! A game of a match is played exactly as `rbg play` plays game `index` of a match seeded
//! `seed` (by rbg-agents' `matches::match_game`, as `rbg play`): the seats rotated, the game seeded from
//! `(seed, index)`, fresh agents built from their specifications. So the games, and the log records they make, depend on
//! `(seed, index)` alone, never on which worker plays them or when.

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rbg_agents::matches::match_game;
use rbg_agents::matches::{FailedGame, GameResult, Termination};
use rbg_agents::{AgentSpec, Budget, MatchSummary, PlayLimits};
use rbg_core::notation::{self, VertexStyle};
use rbg_core::perft::{perft_subtree, PerftOptions};
use rbg_core::Game;

use crate::errors::{search_error, value_error};
use crate::game::PyGame;
use crate::interrupt::{Run, Stoppable};
use crate::state::PyState;

/// The agents of a match from their specifications, with `time` (seconds) or `iterations`
/// replacing their own budgets as `rbg play --time/--iterations` do.
fn match_specs(agents: &[String], time: Option<f64>, iterations: Option<u64>) -> PyResult<Vec<AgentSpec>> {
    let budget = match (time, iterations) {
        (Some(_), Some(_)) => return Err(value_error("give time or iterations, not both")),
        (Some(t), None) => Some(Budget::time(
            Duration::try_from_secs_f64(t).map_err(|e| value_error(format!("time {t}: {e}")))?,
        )),
        (None, Some(n)) => Some(Budget::iterations(n)),
        (None, None) => None,
    };
    agents
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let spec: AgentSpec =
                text.parse().map_err(|e| value_error(format!("agent {} (`{text}`): {e}", i + 1)))?;
            Ok(match budget {
                Some(b) => spec.with_budget(b),
                None => spec,
            })
        })
        .collect()
}

/// The agents' labels as `rbg play` writes them (with the budget that replaced theirs).
#[pyfunction]
#[pyo3(signature = (agents, time = None, iterations = None))]
pub fn _match_labels(
    agents: Vec<String>,
    time: Option<f64>,
    iterations: Option<u64>,
) -> PyResult<Vec<String>> {
    Ok(match_specs(&agents, time, iterations)?.iter().map(AgentSpec::to_string).collect())
}

/// Plays game `index` of the match seeded `seed` between `agents` (one per player, seats
/// rotated) and returns its `rbg play --log` record as a dict. `engine` is the log's engine
/// name (`interp`, `compiled`), `file` the game file as the user named it. A game whose agent
/// fails is a record with termination `error` (and the moves before the failure are not kept).
#[pyfunction]
#[pyo3(signature = (game, agents, seed, index, file = None, engine = "interp", max_moves = None, time = None, iterations = None))]
#[allow(clippy::too_many_arguments)] // a Python signature, with keywords
pub fn _play_match_game<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    agents: Vec<String>,
    seed: u64,
    index: u64,
    file: Option<String>,
    engine: &str,
    max_moves: Option<u64>,
    time: Option<f64>,
    iterations: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let specs = match_specs(&agents, time, iterations)?;
    let any = &game.get().any;
    let players = any.info().num_players();
    if specs.len() != players {
        return Err(value_error(format!(
            "the game has {players} players ({}) but {} agents were given; give one per player",
            any.info().players.join(", "),
            specs.len()
        )));
    }
    let limits = PlayLimits {
        max_moves: max_moves.unwrap_or(PlayLimits::default().max_moves),
        ..PlayLimits::default()
    };
    let stoppable = Stoppable::new(any);
    let result = stoppable.run(py, || play_one(&stoppable, &specs, seed, index, &limits))??;
    let labels: Vec<String> = specs.iter().map(AgentSpec::to_string).collect();
    record(py, &stoppable, &result, &labels, file, engine)
}

/// Game `index` of a match, as `rbg_agents::stream_match` plays it (rbg-metrics'
/// `match_game`); an agent that cannot be built is a ValueError naming it.
fn play_one(
    game: &Stoppable,
    specs: &[AgentSpec],
    seed: u64,
    index: u64,
    limits: &PlayLimits,
) -> PyResult<GameResult> {
    for (a, spec) in specs.iter().enumerate() {
        spec.build(game).map_err(|e| value_error(format!("agent {} ({spec}): {e}", a + 1)))?;
    }
    Ok(match_game(game, specs, seed, index, limits))
}

/// The log record of a played game, with the fields in the order of `rbg::session::GameLog`.
fn record<'py>(
    py: Python<'py>,
    game: &Stoppable,
    result: &GameResult,
    labels: &[String],
    file: Option<String>,
    engine: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let info = game.info();
    let (termination, error) = match &result.termination {
        Termination::Error(e) => ("error", Some(e.clone())),
        t => (t.name(), None),
    };
    let dict = PyDict::new(py);
    dict.set_item("game", &info.name)?;
    dict.set_item("file", file)?;
    dict.set_item("index", result.index)?;
    dict.set_item("seed", result.seed)?;
    dict.set_item("agents", result.seating.iter().map(|&a| labels[a].clone()).collect::<Vec<_>>())?;
    dict.set_item("players", info.players.clone())?;
    let moves: Vec<String> =
        result.moves.iter().map(|m| notation::format_move(info, &m.mv, VertexStyle::Name)).collect();
    dict.set_item("moves", moves)?;
    dict.set_item("scores", result.scores.clone())?;
    dict.set_item("termination", termination)?;
    let outcomes = result.outcomes().map(|o| o.iter().map(|o| o.name()).collect::<Vec<_>>());
    dict.set_item("result", outcomes)?;
    dict.set_item("error", error)?;
    dict.set_item("engine", engine)?;
    dict.set_item("notation", rbg::session::RBG_NOTATION)?;
    Ok(dict)
}

/// Counts the move tree below `state` (of `game`) `depth` plies deep, on this thread without the GIL:
/// `(leaves, nodes)` as `Game.perft` counts them (the state itself is a node).
#[pyfunction]
pub fn _perft_state(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    state: &Bound<'_, PyState>,
    depth: u32,
) -> PyResult<(u64, u64)> {
    if depth > crate::game::MAX_PERFT_DEPTH {
        return Err(value_error(format!(
            "depth must be at most {}, not {depth}",
            crate::game::MAX_PERFT_DEPTH
        )));
    }
    let mut position = state.try_borrow()?.inner().clone();
    let any = &game.get().any;
    if !any.owns(&position) {
        return Err(value_error("the state belongs to another game"));
    }
    let stoppable = Stoppable::new(any);
    let options = PerftOptions { threads: 1, ..PerftOptions::default() };
    let counts = stoppable
        .run(py, || {
            let mut sc = stoppable.new_scratch();
            perft_subtree(&stoppable, &mut position, &mut sc, depth, &options)
        })?
        .map_err(search_error)?;
    Ok((counts.leaves, counts.nodes))
}

/// One game of a match for the result table: its seating, final scores and how it ended
/// (`finished`, `move-limit` or `error`), its number of moves and its error.
type GameRow = (u64, Vec<usize>, Vec<i64>, String, usize, Option<String>);

/// The result table `rbg play` prints after a match, from its games' rows (see [`GameRow`]).
/// `labels` are the agents, `max_moves` the match's move limit.
#[pyfunction]
pub fn _match_table(
    game: &Bound<'_, PyGame>,
    labels: Vec<String>,
    games: Vec<GameRow>,
    max_moves: u64,
) -> PyResult<String> {
    let info = game.get().any.info();
    let mut summary = MatchSummary::new(labels);
    let mut failed = Vec::new();
    for (index, seats, scores, termination, moves, error) in games {
        let termination = match termination.as_str() {
            "finished" => Termination::Finished,
            "move-limit" => Termination::MoveLimit,
            "error" => Termination::Error(error.unwrap_or_default()),
            other => return Err(value_error(format!("game {index}: unknown termination {other:?}"))),
        };
        if seats.iter().any(|&a| a >= summary.agents.len()) || seats.len() != summary.agents.len() {
            return Err(value_error(format!("game {index}: the seating {seats:?} does not fit the agents")));
        }
        let result = GameResult { index, seed: 0, seating: seats, moves: Vec::new(), scores, termination };
        summary.add(&result);
        if let Termination::Error(e) = &result.termination {
            failed.push(FailedGame { index, moves, error: e.clone() });
        }
    }
    failed.sort_by_key(|f| f.index);
    Ok(summary.table(&info.name, &info.players, &failed, max_moves))
}

/// Adds the functions above to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_match_labels, m)?)?;
    m.add_function(wrap_pyfunction!(_play_match_game, m)?)?;
    m.add_function(wrap_pyfunction!(_perft_state, m)?)?;
    m.add_function(wrap_pyfunction!(_match_table, m)?)?;
    Ok(())
}
