//! `rbg.Agent`: the agents of rbg-agents (random, flat Monte Carlo, MCTS, split-move MCTS,
//! alpha-beta), chosen by the same specification text as `rbg play --agent`.

use pyo3::prelude::*;
use rbg_agents::{Agent, AgentSpec};
use rbg_core::dynamic::AnyGame;

use crate::errors::{search_error, value_error};
use crate::game::PyGame;
use crate::moves::PyMove;
use crate::state::PyState;

/// A game-playing agent for one game, e.g. `rbg.Agent(game, "mcts:iterations=200", seed=1)`.
///
/// The specification is the CLI's: `random`, `flatmc`, `mcts`, `split-mcts` or `alphabeta`,
/// then `:key=value,...` options. `seed`, when given, replaces the specification's seed.
/// An agent keeps search memory between calls and is used from the thread that made it.
#[pyclass(module = "rbg._rbg", name = "Agent", unsendable)]
pub struct PyAgent {
    any: AnyGame,
    agent: Box<dyn Agent<AnyGame>>,
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (game, spec, seed = None))]
    fn new(game: &Bound<'_, PyGame>, spec: &str, seed: Option<u64>) -> PyResult<Self> {
        let mut parsed: AgentSpec =
            spec.parse().map_err(|e| value_error(format!("bad agent specification {spec:?}: {e}")))?;
        if let Some(seed) = seed {
            parsed.seed = seed;
        }
        let any = game.get().any.clone();
        let agent =
            parsed.build(&any).map_err(|e| value_error(format!("cannot build agent {spec:?}: {e}")))?;
        Ok(PyAgent { any, agent })
    }

    /// The agent's description, e.g. `mcts:iterations=200`.
    #[getter]
    fn name(&self) -> String {
        self.agent.name()
    }

    /// Chooses a move for the player to move in `state` (which is not changed). Raises
    /// ValueError for a state of another game or a finished game.
    fn select_move(&mut self, state: &PyState) -> PyResult<PyMove> {
        if !self.any.owns(state.inner()) {
            return Err(value_error("the state belongs to another game than the agent's"));
        }
        let budget = self.agent.budget();
        let decision = self.agent.select_move(&self.any, state.inner(), &budget).map_err(|e| match e {
            rbg_agents::AgentError::Search(e) => search_error(e),
            other => value_error(other.to_string()),
        })?;
        Ok(PyMove::new(&self.any, decision.mv))
    }

    /// `Agent("spec")`.
    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.agent.name())
    }
}
