//! `rbg.Agent`: the agents of rbg-agents (random, flat Monte Carlo, MCTS, split-move MCTS,
//! alpha-beta), chosen by the same specification text as `rbg play --agent`.

use std::sync::{Mutex, PoisonError};

use crate::errors::{search_error, value_error};
use crate::game::PyGame;
use crate::interrupt::{Run, Stoppable};
use crate::moves::PyMove;
use crate::state::PyState;
use pyo3::prelude::*;
use rbg_agents::{
    Agent, AgentKind, AgentSpec, AlphaBeta, BuildError, FlatMonteCarlo, Mcts, RandomAgent, SplitMcts,
};

/// An agent that may move to another thread: `select_move` searches with the GIL released,
/// and a pyclass must be `Send` (and `Sync`, which the mutex adds) to be used from any thread.
type SendAgent = Box<dyn Agent<Stoppable> + Send>;

/// A game-playing agent for one game, e.g. `rbg.Agent(game, "mcts:iterations=200", seed=1)`.
///
/// The specification is the CLI's: `random`, `flatmc`, `mcts`, `split-mcts` or `alphabeta`,
/// then `:key=value,...` options. `seed`, when given, replaces the specification's seed.
/// An agent keeps search memory between calls. It searches without the GIL, so other Python
/// threads run meanwhile; one agent makes one search at a time (a second call on it from
/// another thread during a search raises RuntimeError). Ctrl-C stops a search
/// (KeyboardInterrupt).
#[pyclass(module = "rbg._rbg", name = "Agent")]
pub struct PyAgent {
    /// The game, whose flag stops a search on Ctrl-C.
    game: Stoppable,
    /// Reached only through `&mut self` (`Mutex::get_mut`, no locking): the mutex is there
    /// to make the agent `Sync`, which pyo3 requires of a class.
    agent: Mutex<SendAgent>,
}

/// The agent of `spec`, as `AgentSpec::build` makes it but boxed as `Send`. `build`'s box
/// is not `Send`, because it serves every `Game`; for `Stoppable` every agent is (a
/// compile-time check: this fails to build if an agent ever holds something that is not).
fn build_send(spec: &AgentSpec, any: &Stoppable) -> Result<SendAgent, BuildError> {
    Ok(match &spec.kind {
        AgentKind::Random => Box::new(RandomAgent::new(any, spec.seed)),
        AgentKind::FlatMc(c) => Box::new(FlatMonteCarlo::new(any, c.clone(), spec.seed)),
        AgentKind::Mcts(c) => Box::new(Mcts::new(any, c.clone(), spec.seed)),
        AgentKind::SplitMcts(c) => Box::new(SplitMcts::new(any, c.clone(), spec.seed)),
        AgentKind::AlphaBeta(c) => Box::new(AlphaBeta::new(any, c.clone())?),
    })
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
        let game = Stoppable::new(&game.get().any);
        let agent = build_send(&parsed, &game)
            .map_err(|e| value_error(format!("cannot build agent {spec:?}: {e}")))?;
        Ok(PyAgent { game, agent: Mutex::new(agent) })
    }

    /// The agent's description, e.g. `mcts:iterations=200`.
    #[getter]
    fn name(&mut self) -> String {
        self.agent().name()
    }

    /// Chooses a move for the player to move in `state` (which is not changed). Raises
    /// ValueError for a state of another game or a finished game. Searches with the GIL
    /// released, on a copy of the state, so that other threads may use `state` meanwhile.
    fn select_move(&mut self, py: Python<'_>, state: &Bound<'_, PyState>) -> PyResult<PyMove> {
        // Borrowed only for the copy: a borrow held through the search would make the state's
        // methods raise "already borrowed" in the threads that run meanwhile.
        let position = state.try_borrow()?.inner().clone();
        if !self.game.any().owns(&position) {
            return Err(value_error("the state belongs to another game than the agent's"));
        }
        let game = &self.game;
        let agent = self.agent.get_mut().unwrap_or_else(PoisonError::into_inner);
        let budget = agent.budget();
        let decision =
            game.run(py, || agent.select_move(game, &position, &budget))?.map_err(|e| match e {
                rbg_agents::AgentError::Search(e) => search_error(e),
                other => value_error(other.to_string()),
            })?;
        Ok(PyMove::new(game.any(), decision.mv))
    }

    /// `Agent("spec")`.
    fn __repr__(&mut self) -> String {
        format!("Agent({:?})", self.agent().name())
    }
}

impl PyAgent {
    /// The agent, for calls that hold the GIL.
    fn agent(&mut self) -> &mut SendAgent {
        // A poisoned lock only means a panic in an earlier call; the agent is still usable.
        self.agent.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}
