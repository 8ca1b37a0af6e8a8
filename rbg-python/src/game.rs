//! `rbg.Game`: a loaded game, its static description and the whole-game drivers (perft and
//! random playouts), which run in Rust on all cores with the GIL released.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use rbg_core::dynamic::AnyGame;
use rbg_core::perft::{perft, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions, McStats};
use rbg_core::Game;

use crate::errors::{search_error, value_error};
use crate::interrupt::{Run, Stoppable};
use crate::load::{self, LoadError};
use crate::state::PyState;
use crate::utility::{self, score_return};

/// A game loaded into an engine. Immutable; states made from it share it.
///
/// Weakly referenceable: the package keeps a weak table of the loaded games so that
/// unpickling a game (or a state, which pickles its game) in a process where the same game is
/// loaded gives back that game, whose states and agents the unpickled states then work with.
#[pyclass(module = "rbg._rbg", name = "Game", frozen, weakref)]
pub struct PyGame {
    pub(crate) any: AnyGame,
    engine: &'static str,
    origin: Origin,
    /// The sum of the returns in every terminal state, when the rules prove it constant
    /// (`utility`); only games loaded from their text are analysed.
    returns_sum: Option<f64>,
}

/// What a game was loaded from: what its pickle holds to load it again.
enum Origin {
    /// The game text and the path it was read from. The text, not just the path, so that a
    /// pickle restores the game it was made from even if the file has changed or is absent;
    /// the path gives the game's name and tells RBG from SBG.
    Source { path: PathBuf, text: Vec<u8> },
    /// A compiled reasoner library, loaded again from its path (a library is machine code
    /// for one platform; a pickle of it is only good where the library is).
    Library(PathBuf),
}

impl PyGame {
    /// Loads a game file into the named engine.
    pub fn from_path(path: &Path, engine: &str) -> PyResult<Self> {
        match engine {
            "interpreter" => Self::from_source(path, load::read(path)?),
            // Reached only by calling the native module directly: `rbg.load` builds the library.
            "compiled" => Err(value_error(
                "the native loader runs the interpreter only: use rbg.load(path, engine=\"compiled\"), or \
                 rbg.load_library(path) on a reasoner library built by `rbg compile` and cargo",
            )),
            other => {
                Err(value_error(format!("unknown engine {other:?}: use \"interpreter\" or \"compiled\"")))
            }
        }
    }

    /// Loads the game text `text` of the file at `path` into the interpreter.
    pub fn from_source(path: &Path, text: Vec<u8>) -> PyResult<Self> {
        let parsed = load::parse_source(path, text.clone())?;
        let any = load::interpreter(&parsed)?;
        let returns_sum = proved_returns_sum(parsed.ir(), &any);
        let origin = Origin::Source { path: path.to_path_buf(), text };
        Ok(PyGame { any, engine: "interpreter", origin, returns_sum })
    }

    /// Loads a compiled reasoner library.
    pub fn from_library(path: &Path) -> PyResult<Self> {
        if let Err(e) = std::fs::metadata(path) {
            return Err(LoadError::Io(format!("cannot read {}: {e}", path.display())).into());
        }
        let any = rbg_dynlib::load(path).map_err(|e| value_error(format!("{}: {e}", path.display())))?;
        Ok(PyGame { any, engine: "compiled", origin: Origin::Library(path.to_path_buf()), returns_sum: None })
    }

    /// The worker threads for a request of `threads` (None: one per core) on `work_items`
    /// independent pieces of work: never more than the pieces, nor than [`THREADS_PER_CORE`]
    /// per core (more only cost memory and start-up). 0 threads is a ValueError.
    fn worker_threads(threads: Option<usize>, work_items: u64) -> PyResult<usize> {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let wanted = match threads {
            None => cores,
            Some(0) => return Err(value_error("threads must be at least 1 (or None: one per core)")),
            Some(n) => n.min(cores.saturating_mul(THREADS_PER_CORE)),
        };
        let items = usize::try_from(work_items.max(1)).unwrap_or(usize::MAX);
        Ok(wanted.min(items).min(rbg_core::perft::MAX_THREADS))
    }
}

/// The sum of the returns of `game` (loaded as `any`) in every terminal state, when its rules
/// prove it constant ([`utility::returns_sum`] covers the states entered by a switch; the one
/// other terminal state, an initial state whose keeper cannot move, is checked here).
fn proved_returns_sum(game: &rbg_parser::ir::Game, any: &AnyGame) -> Option<f64> {
    let sum = utility::returns_sum(game)?;
    let mut initial = any.initial_state();
    if !any.has_legal_move(&mut initial, &mut any.new_scratch()).ok()? {
        let at_start: f64 =
            any.info().bounds.iter().take(any.info().num_players()).map(|&b| score_return(0, b)).sum();
        if !utility::same_sum(at_start, sum) {
            return None;
        }
    }
    Some(sum)
}

/// The most worker threads per core a driver starts, whatever is asked for.
const THREADS_PER_CORE: usize = 4;

/// The deepest perft `Game.perft` runs: far beyond any count that finishes (a corpus game's
/// deepest reference count is under 20 plies), and small enough that the per-ply buffers of
/// every thread stay small (perft keeps one per remaining ply).
pub const MAX_PERFT_DEPTH: u32 = 1000;

/// What a batch of random playouts did (`Game.random_playouts`).
#[pyclass(module = "rbg._rbg", name = "PlayoutStats", frozen, get_all)]
pub struct PlayoutStats {
    /// Playouts finished.
    playouts: u64,
    /// Player moves made, summed over the playouts.
    plies: u64,
    /// Each player's final score summed over the playouts, in player order.
    score_sums: Vec<i64>,
    /// Wall-clock time of the whole batch, in seconds.
    seconds: f64,
    /// Worker threads used.
    threads: usize,
}

#[pymethods]
impl PlayoutStats {
    /// Playouts per second of wall-clock time.
    #[getter]
    fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds.max(1e-9)
    }

    /// Each player's mean final score.
    #[getter]
    fn mean_scores(&self) -> Vec<f64> {
        self.score_sums.iter().map(|&s| s as f64 / self.playouts.max(1) as f64).collect()
    }

    /// The counts and the time.
    fn __repr__(&self) -> String {
        format!(
            "PlayoutStats(playouts={}, plies={}, seconds={:.3}, threads={})",
            self.playouts, self.plies, self.seconds, self.threads
        )
    }
}

#[pymethods]
impl PyGame {
    /// The game's name (the file stem).
    #[getter]
    fn name(&self) -> String {
        self.any.info().name.clone()
    }

    /// How the players' returns (`State.returns`) relate in the terminal states, as far as
    /// the rules prove: "zero_sum" (they sum to 0), "constant_sum" (to one other number,
    /// `returns_sum`) or "general_sum" (no proof: scores assigned other than constants, or
    /// assigned so that some switch sees another sum; or a compiled game, whose rules are not
    /// analysed). The proof is conservative: a game may be zero-sum without being proved so.
    #[getter]
    fn utility(&self) -> &'static str {
        match self.returns_sum {
            Some(sum) if utility::same_sum(sum, 0.0) => "zero_sum",
            Some(_) => "constant_sum",
            None => "general_sum",
        }
    }

    /// The proved sum of the returns in every terminal state (see `utility`), or None.
    #[getter]
    fn returns_sum(&self) -> Option<f64> {
        self.returns_sum
    }

    /// The engine: "interpreter" or "compiled".
    #[getter]
    fn engine(&self) -> &'static str {
        self.engine
    }

    /// Player names in declaration order; `State.current_player()` indexes this list.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.any.info().players.clone()
    }

    /// Number of players.
    fn num_players(&self) -> usize {
        self.any.info().num_players()
    }

    /// Piece names, sorted; piece ids (the planes of `State.board_tensor()`) index this list.
    #[getter]
    fn pieces(&self) -> Vec<String> {
        self.any.info().pieces.clone()
    }

    /// Vertex names in board order; the vertex numbers of actions index this list.
    #[getter]
    fn vertices(&self) -> Vec<String> {
        self.any.info().vertices.clone()
    }

    /// Variable names: each player's score first, then the declared variables.
    #[getter]
    fn variables(&self) -> Vec<String> {
        self.any.info().variables.clone()
    }

    /// Upper bound of each variable (the lower bound is 0), parallel to `variables`.
    #[getter]
    fn bounds(&self) -> Vec<i64> {
        self.any.info().bounds.clone()
    }

    /// Edge label names, sorted; `edges` refers to them by number.
    #[getter]
    fn labels(&self) -> Vec<String> {
        self.any.info().labels.clone()
    }

    /// The board's edges as `(from vertex, label number, to vertex)` triples.
    #[getter]
    fn edges(&self) -> Vec<(u32, u32, u32)> {
        self.any.info().edges.clone()
    }

    /// The drawing position `(x, y)` of each vertex in cell units, or None when the board was
    /// not made by a generator that places its vertices.
    #[getter]
    fn positions(&self) -> Option<Vec<(f64, f64)>> {
        let positions = self.any.info().positions.as_ref()?;
        Some(positions.iter().map(|p| (p.point[0], p.point[1])).collect())
    }

    /// The grid coordinates `(x, y, z)` of each vertex (z is 0 on flat boards), or None.
    #[getter]
    fn coordinates(&self) -> Option<Vec<(i32, i32, i32)>> {
        let positions = self.any.info().positions.as_ref()?;
        Some(positions.iter().map(|p| (p.coords[0], p.coords[1], p.coords[2])).collect())
    }

    /// Number of modifiers: action indices run from 1 to this.
    #[getter]
    fn modifiers(&self) -> u32 {
        self.any.info().modifiers
    }

    /// Whether the modifier with this index is a switch (the last action of a move).
    fn is_switch(&self, index: u32) -> bool {
        self.any.info().is_switch(index)
    }

    /// The initial state, with the keeper's opening moves made (a player is to move, or the
    /// game is over).
    fn new_initial_state(slf: &Bound<'_, Self>) -> PyResult<PyState> {
        PyState::initial(slf.clone().unbind(), &slf.get().any)
    }

    /// The state `State.serialize()` wrote. Bytes of another game or engine, truncated or
    /// corrupted, raise ValueError.
    fn deserialize_state(slf: &Bound<'_, Self>, data: &Bound<'_, PyBytes>) -> PyResult<PyState> {
        let any = &slf.get().any;
        let state = any
            .decode_state(data.as_bytes())
            .map_err(|e| value_error(format!("these bytes are not a state of {}: {e}", any.info().name)))?;
        PyState::from_state(slf.clone().unbind(), any, state)
    }

    /// Counts the move tree from the initial state `depth` plies deep; returns
    /// `(leaves, nodes)`: the states at exactly that depth and all states counted (the root
    /// included, keeper states not). Runs on `threads` threads (None: one per core; at most 4
    /// per core) without the GIL. `depth` is at most 1000 (ValueError beyond). Ctrl-C stops
    /// it (KeyboardInterrupt) at once. `fast_subtrees` chooses who counts each subtree of the
    /// work split: the engine its own way (True: the default of the interpreter, whose count
    /// sees the stop flag at every subtree of two or more plies) or rbg-core's count checking
    /// the flag at every node (False: the default of a compiled game, whose own count runs
    /// behind the library's interface, where True makes Ctrl-C wait for the subtree).
    #[pyo3(signature = (depth, threads = None, fast_subtrees = None))]
    fn perft(
        &self,
        py: Python<'_>,
        depth: u32,
        threads: Option<usize>,
        fast_subtrees: Option<bool>,
    ) -> PyResult<(u64, u64)> {
        if depth > MAX_PERFT_DEPTH {
            return Err(value_error(format!("depth must be at most {MAX_PERFT_DEPTH}, not {depth}")));
        }
        let threads = Self::worker_threads(threads, u64::MAX)?;
        let fast_subtrees = fast_subtrees.unwrap_or(self.engine == "interpreter");
        let game = Stoppable::new(&self.any).forward_subtrees(fast_subtrees);
        let options = PerftOptions { threads, stop: Some(game.flag()), ..PerftOptions::default() };
        let counts = game.run(py, || perft(&game, depth, &options))?.map_err(search_error)?;
        Ok((counts.leaves, counts.nodes))
    }

    /// Plays uniformly random games from the initial state to their ends, in Rust on
    /// `threads` threads (None: one per core; never more than `n`, nor than 4 per core)
    /// without the GIL: `n` playouts in all, or as many as fit in `seconds`. Thread t draws
    /// from the seed `seed + t * 0x9E3779B97F4A7C15`, so one thread plays the games
    /// `rbg mc --seed SEED` plays. Returns a `PlayoutStats`. Ctrl-C stops it
    /// (KeyboardInterrupt).
    #[pyo3(signature = (n = None, threads = None, seed = 0, seconds = None))]
    fn random_playouts(
        &self,
        py: Python<'_>,
        n: Option<u64>,
        threads: Option<usize>,
        seed: u64,
        seconds: Option<f64>,
    ) -> PyResult<PlayoutStats> {
        let threads = Self::worker_threads(threads, n.unwrap_or(u64::MAX))?;
        let limits = playout_limits(n, seconds, threads)?;
        let game = Stoppable::new(&self.any);
        let start = Instant::now();
        let per_thread = game.run(py, || run_playouts(&game, &limits, seed))??;
        let seconds = start.elapsed().as_secs_f64();
        let players = self.any.info().num_players();
        let mut stats =
            PlayoutStats { playouts: 0, plies: 0, score_sums: vec![0; players], seconds, threads };
        for s in per_thread {
            stats.playouts += s.playouts;
            stats.plies += s.plies;
            stats.score_sums.iter_mut().zip(&s.score_sum).for_each(|(total, v)| *total += v);
        }
        Ok(stats)
    }

    /// Pickling: `rbg._restore_game(engine, path, text)`, which returns the loaded game of
    /// that engine, path and text if there is one in this process, else loads it (from the
    /// text; a compiled game from its library path, with an empty text).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.import("rbg")?.getattr("_restore_game")?;
        let (path, text): (&Path, &[u8]) = match &self.origin {
            Origin::Source { path, text } => (path, text),
            Origin::Library(path) => (path, &[]),
        };
        let args = (self.engine, path.as_os_str(), PyBytes::new(py, text));
        Ok((restore, args.into_pyobject(py)?))
    }

    /// `Game("name", engine="...")`.
    fn __repr__(&self) -> String {
        format!("Game({:?}, engine={:?})", self.any.info().name, self.engine)
    }
}

/// Each thread's limit: `n` split as evenly as possible, or the same duration for all.
fn playout_limits(n: Option<u64>, seconds: Option<f64>, threads: usize) -> PyResult<Vec<McLimit>> {
    match (n, seconds) {
        (Some(n), None) => {
            let threads = threads as u64;
            Ok((0..threads).map(|t| McLimit::Playouts(n / threads + u64::from(t < n % threads))).collect())
        }
        (None, Some(s)) if s.is_finite() && (0.0..=1e9).contains(&s) => {
            Ok(vec![McLimit::Time(Duration::from_secs_f64(s)); threads])
        }
        (None, Some(s)) => Err(value_error(format!("seconds must be between 0 and 1e9, not {s}"))),
        _ => Err(value_error("give exactly one of n (a number of playouts) and seconds")),
    }
}

/// Runs one flat Monte Carlo driver per limit, each on its own thread.
fn run_playouts(game: &Stoppable, limits: &[McLimit], seed: u64) -> PyResult<Vec<McStats>> {
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (t, &limit) in limits.iter().enumerate() {
            let options = McOptions {
                seed: seed.wrapping_add((t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                limit,
                ..McOptions::default()
            };
            let handle = std::thread::Builder::new()
                .spawn_scoped(scope, move || flat_monte_carlo(game, &options, |_| {}))
                .map_err(|e| search_error(format!("cannot start a worker thread: {e}")))?;
            handles.push(handle);
        }
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(result) => result.map_err(search_error),
                Err(_) => Err(search_error("a playout thread panicked")),
            })
            .collect()
    })
}
