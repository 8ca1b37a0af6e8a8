"""Tournaments, perft, Monte Carlo, analysis and evolution on a Ray cluster (or on this machine).

Every run is cut into tasks whose results depend on the run's arguments alone: game ``i`` of a
tournament is played with the seed derived from ``(seed, i)`` (as ``rbg play`` does), perft's
subtrees are counted exactly, Monte Carlo chunk ``t`` draws from ``seed + t * 0x9E37...``
(as thread ``t`` of ``Game.random_playouts``), an analysis' game ``i`` from ``(seed, i)``, and
an evolution's candidate ``i`` of generation ``g`` from ``(seed, g, i)`` (as ``rbg evolve``).
So a run gives the same answer in this process (``Local``), on a local Ray and on a cluster of
any size, whatever order the tasks finish in and however often Ray retries them.

A game goes to the workers as its text (``GameText``), never as a path: workers need no
shared file system. ``Ray(address)`` joins a running cluster (``"HOST:PORT"``, ``"auto"`` or
``"ray://HOST:10001"``) or, without an address, starts a Ray on this machine; scheduling,
retries after a lost worker (``max_retries``) and node placement are Ray's. Run from a shell as
``python -m rbg.cluster play|perft|mc|analyze|evolve ...`` (see ``docs/cluster.md``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple

import rbg
from rbg import _rbg

__all__ = [
    "Analysis",
    "Backend",
    "GameText",
    "Local",
    "MatchResult",
    "McResult",
    "PlayoutAnalysis",
    "Ray",
    "SettingsError",
    "analyze",
    "evolve",
    "mc",
    "perft",
    "play",
    "report",
    "Report",
]

#: Golden-ratio step between Monte Carlo chunks' seeds (as between Game.random_playouts' threads).
_MC_SEED_STEP = 0x9E3779B97F4A7C15
_U64 = (1 << 64) - 1

# --------------------------------------------------------------------------------------------
# Games shipped by content


@dataclasses.dataclass(frozen=True)
class GameText:
    """A game as its file's name and bytes: what goes to the workers instead of a path.

    ``name`` is the path as the user gave it (it names the game in logs and tells RBG from
    SBG); it is never read on a worker. ``engine`` is ``"interpreter"`` or ``"compiled"``.
    """

    name: str
    text: bytes
    engine: str = "interpreter"

    @classmethod
    def read(cls, path: "str | os.PathLike[str]", engine: str = "interpreter") -> "GameText":
        """The game in the file at ``path`` (read here, on the driver)."""
        if engine not in ("interpreter", "compiled"):
            raise ValueError(f'unknown engine {engine!r}: use "interpreter" or "compiled"')
        return cls(os.fspath(path), Path(path).read_bytes(), engine)

    @property
    def digest(self) -> str:
        """SHA-256 of the text (names the game's copy on a worker)."""
        return hashlib.sha256(self.text).hexdigest()

    @property
    def log_engine(self) -> str:
        """The engine's name in logs, as ``rbg play --engine`` spells it."""
        return "interp" if self.engine == "interpreter" else "compiled"

    def load(self) -> rbg.Game:
        """The game, loaded once per process. A compiled game is written to a per-node
        directory and built through rbg's compile cache, whose file lock makes the tasks of one
        node wait for a single build (so each node builds an engine once)."""
        key = (self.name, self.digest, self.engine)
        game = _loaded.get(key)
        if game is None:
            if self.engine == "compiled":
                game = rbg.load(self._node_copy(), engine="compiled")
            else:
                game = rbg._load_source(self.name, self.text)
            _loaded[key] = game
        return game

    def _node_copy(self) -> Path:
        """The text written to ``<tmp>/rbg-cluster/<digest>/<file name>`` on this node."""
        directory = Path(tempfile.gettempdir()) / "rbg-cluster" / self.digest
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / (Path(self.name).name or "game.rbg")
        if not path.exists() or path.read_bytes() != self.text:
            partial = path.with_suffix(path.suffix + f".{os.getpid()}.part")
            partial.write_bytes(self.text)
            partial.replace(path)
        return path


#: Games loaded in this process, by (name, digest, engine).
_loaded: Dict[Tuple[str, str, str], rbg.Game] = {}

# --------------------------------------------------------------------------------------------
# Backends: where tasks run


class Backend(Protocol):
    """Runs tasks ``fn(*args)``; returns their results in the order of ``tasks``."""

    def map(
        self,
        fn: Callable[..., Any],
        tasks: Sequence[Tuple[Any, ...]],
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> List[Any]: ...


class Local:
    """Runs the tasks one after the other in this process (no Ray): the reference answer."""

    def map(self, fn, tasks, progress=None):
        results = []
        for done, args in enumerate(tasks, 1):
            results.append(fn(*args))
            if progress:
                progress(done, len(tasks))
        return results


class Ray:
    """Runs the tasks on Ray: the cluster at ``address``, or a Ray started on this machine.

    ``address`` is ``"HOST:PORT"`` (a head node's GCS port, 6379 by default), ``"auto"``
    (the cluster this machine is a node of) or ``"ray://HOST:PORT"`` (Ray Client). A host
    that does not answer within ``timeout`` seconds is a ``ConnectionError`` (Ray itself would
    retry for minutes). Without an address a new Ray starts here, on 127.0.0.1, with
    ``num_cpus`` CPUs (default: all). Ray is initialised once per process; a driver that
    initialised it already keeps its connection. Every task takes one CPU and is retried up to
    ``max_retries`` times when its worker dies; ``in_flight`` tasks are handed to Ray at a time
    (default: twice the cluster's CPUs), so that each goes to a node with a free CPU. On connecting, one task per node checks that the ``rbg`` package is
    installed there (``RuntimeError`` naming the package and the node when it is not).
    """

    def __init__(
        self,
        address: Optional[str] = None,
        *,
        num_cpus: Optional[int] = None,
        timeout: float = 10.0,
        max_retries: int = 3,
        check_nodes: bool = True,
        in_flight: Optional[int] = None,
        _exit_once: Optional[str] = None,
    ):
        loopback = address is None or _is_loopback(address)
        if loopback:
            _stay_on_loopback()
        import ray

        self._ray = ray
        self.max_retries = max_retries
        #: Tasks handed to Ray at a time (default: the cluster's CPUs when a run starts).
        self.in_flight = in_flight
        #: Tests only: a marker file; the first task to see it removes it and kills its worker.
        self._exit_once = _exit_once
        if address is not None:
            _check_reachable(address, timeout)
        if not ray.is_initialized():
            if address is None:
                # A new Ray of this machine alone (not one `ray start` left running), on loopback.
                ray.init(address="local", num_cpus=num_cpus, include_dashboard=False,
                         logging_level="WARNING", log_to_driver=False)
            else:
                ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        if check_nodes:
            check_workers(timeout=max(timeout, 60.0))
        self._task = ray.remote(num_cpus=1, max_retries=max_retries)(_task)

    def map(self, fn, tasks, progress=None):
        ray = self._ray
        # Twice as many tasks in flight as the cluster has CPUs: each next task goes to a node
        # that has just freed a CPU, and the second one a CPU hides the round trip of handing
        # it out (tiny tasks: 270 a second with one a CPU, 550 with two). Handed out all at
        # once, the tasks would queue on the driver's node and reach the others only by Ray's
        # slower spill-back (measured: a second node got a quarter of the games, not half).
        window = self.in_flight or 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
        waiting = list(enumerate(tasks))[::-1]
        pending: Dict[Any, int] = {}
        results: List[Any] = [None] * len(tasks)
        done = 0
        try:
            while pending or waiting:
                while waiting and len(pending) < window:
                    i, args = waiting.pop()
                    pending[self._task.remote(fn, args, self._exit_once)] = i
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    results[pending.pop(ref)] = ray.get(ref)
                    done += 1
                    if progress:
                        progress(done, len(tasks))
        except ray.exceptions.RayTaskError as e:
            _cancel(pending)
            raise _task_error(e) from None
        except ray.exceptions.RayError as e:
            # Lost beyond its retries (a worker killed every time, a node gone), or cancelled.
            _cancel(pending)
            raise RuntimeError(f"a task failed on Ray: {e}") from None
        return results


def _cancel(refs) -> None:
    """Cancels the tasks of a run that failed (their results are no longer wanted)."""
    import ray

    for ref in refs:
        ray.cancel(ref)


def _task_error(error: BaseException) -> BaseException:
    """The exception a task raised, as the driver should see it. The native module's classes
    (``rbg.ParseError``, ``rbg.SearchError``) are named ``_rbg.X``, a module Python cannot
    import by that name, so a pickle of one comes back as a copy of the class: it is turned
    back into the package's own, with its attributes (a ParseError's path, line, column)."""
    cause = getattr(error, "cause", None)
    if not isinstance(cause, BaseException):
        return error
    native = getattr(_rbg, type(cause).__name__, None)
    if type(cause).__module__ == "_rbg" and isinstance(native, type) and issubclass(native, BaseException):
        same = native(*cause.args)
        same.__dict__.update(getattr(cause, "__dict__", {}))
        return same
    return cause


def _task(fn, args, exit_once=None):
    """A task on a worker: ``fn(*args)`` (``exit_once`` is the tests' worker-killing hook)."""
    if exit_once is not None:
        try:
            os.remove(exit_once)
        except FileNotFoundError:
            pass
        else:
            os._exit(1)
    return fn(*args)


def _host_port(address: str) -> Tuple[str, str]:
    """``HOST:PORT`` of ``HOST:PORT`` or ``ray://HOST:PORT``."""
    host, _, port = address.split("://", 1)[-1].rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"bad Ray address {address!r}: give HOST:PORT, ray://HOST:PORT or auto")
    return host, port


def _is_loopback(address: str) -> bool:
    if address == "auto":
        return False
    host = _host_port(address)[0]
    return host == "localhost" or host.startswith("127.")


def _stay_on_loopback() -> None:
    """Makes Ray keep 127.0.0.1 as this machine's address. Ray replaces a loopback address by
    the machine's network address (to be reachable from other machines), so a driver would
    look for a loopback cluster where it is not listening, and a Ray started here would listen
    on the network. Ray reads the switch from the environment when it is first imported (the
    nodes it starts inherit the environment) and from its constants module after that."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    constants = sys.modules.get("ray._private.ray_constants")
    if constants is not None:
        constants.ENABLE_RAY_CLUSTER = False


def _check_reachable(address: str, timeout: float) -> None:
    """Fails fast when nobody listens at the cluster's address (``ray.init`` would wait)."""
    if address == "auto":
        return
    host, port = _host_port(address)
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise ConnectionError(f"cannot reach the Ray cluster at {address} within {timeout:g} s: {e}") from None


#: Checks the worker's Python for a package; defined from source so that cloudpickle ships it
#: by value: it must run on a worker that lacks the package it looks for.
_PROBE_SOURCE = '''
def probe(package):
    import importlib, socket, sys
    try:
        module = importlib.import_module(package)
    except ImportError as e:
        raise RuntimeError(
            f"the Python package {package!r} is not installed on the Ray worker on "
            f"{socket.gethostname()} ({sys.executable}): {e}; install it on every node "
            f"(pip install ./rbg-python) or start the cluster from an environment that has it"
        ) from None
    return socket.gethostname(), getattr(module, "__file__", None)
'''


def _probe_function():
    namespace: Dict[str, Any] = {"__name__": "rbg_cluster_probe"}
    exec(_PROBE_SOURCE, namespace)
    return namespace["probe"]


def check_workers(package: str = "rbg", timeout: float = 60.0) -> List[Tuple[str, Optional[str]]]:
    """Runs one task on every alive node of the connected Ray cluster that imports ``package``;
    returns each node's (host, module file). A node without it raises ``RuntimeError`` naming
    the package; no answer within ``timeout`` seconds raises ``TimeoutError``."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    probe = ray.remote(num_cpus=0, max_retries=0)(_probe_function())
    refs = [
        probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)).remote(package)
        for node in ray.nodes()
        if node.get("Alive")
    ]
    ready, missing = ray.wait(refs, num_returns=len(refs), timeout=timeout)
    if missing:
        raise TimeoutError(f"{len(missing)} of {len(refs)} Ray nodes did not answer within {timeout:g} s")
    try:
        return ray.get(ready)
    except ray.exceptions.RayTaskError as e:
        raise _task_error(e) from None


# --------------------------------------------------------------------------------------------
# Tournaments (rbg play)


def _play_chunk(game: GameText, agents, seed, indices, options) -> List[Dict[str, Any]]:
    """Plays games ``indices`` of a match; their ``rbg play --log`` records."""
    loaded = game.load()
    return [
        _rbg._play_match_game(loaded, list(agents), seed, index, file=game.name, engine=game.log_engine, **options)
        for index in indices
    ]


def split_agents(text: str) -> List[str]:
    """``--agents`` of ``rbg play``: a comma starts a new agent unless what follows is an
    option (``key=value`` with no ``:``) of the agent before it."""
    agents: List[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if agents and "=" in piece and ":" not in piece:
            agents[-1] += "," + piece
        else:
            agents.append(piece)
    return agents


@dataclasses.dataclass
class MatchResult:
    """A played tournament: every game's log record, in game order, and the result table of
    ``rbg play``."""

    records: List[Dict[str, Any]]
    table: str

    def log_lines(self) -> List[str]:
        """The records as ``rbg play --log`` writes them (compact JSON, one per line)."""
        return [log_line(r) for r in self.records]


def log_line(record: Dict[str, Any]) -> str:
    """A record as one line of ``rbg play --log`` (serde_json's compact form)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def play(
    game: "GameText | str | os.PathLike[str]",
    agents: "Sequence[str] | str",
    games: int = 1,
    *,
    seed: int = 0,
    time: Optional[float] = None,
    iterations: Optional[int] = None,
    max_moves: Optional[int] = None,
    backend: Optional[Backend] = None,
    chunk: int = 1,
    progress: Optional[Callable[[int, int], None]] = None,
) -> MatchResult:
    """A tournament of ``games`` games between ``agents`` (one per player, seats rotated, as
    ``rbg play --agents``), ``chunk`` games a task. The records and the table are those of
    ``rbg play --seed SEED`` with the same options."""
    game = _game_text(game)
    agents = split_agents(agents) if isinstance(agents, str) else list(agents)
    if games < 1 or chunk < 1:
        raise ValueError("games and chunk must be at least 1")
    options = {"max_moves": max_moves, "time": time, "iterations": iterations}
    labels = _rbg._match_labels(agents, time, iterations)
    tasks = [(game, agents, seed, range(i, min(i + chunk, games)), options) for i in range(0, games, chunk)]
    records = [r for part in (backend or Local()).map(_play_chunk, tasks, progress) for r in part]
    n = len(agents)
    # Seat j of game i holds agent (j + i) mod n (rbg_agents' seating).
    rows = [
        (r["index"], [(j + r["index"]) % n for j in range(n)], r["scores"], r["termination"], len(r["moves"]), r["error"])
        for r in records
    ]
    limit = max_moves if max_moves is not None else 10_000
    return MatchResult(records, _rbg._match_table(game.load(), labels, rows, limit))


def _game_text(game) -> GameText:
    return game if isinstance(game, GameText) else GameText.read(game)


# --------------------------------------------------------------------------------------------
# Perft


def _perft_chunk(game: GameText, states: List[bytes], depth: int) -> Tuple[int, int]:
    """The summed ``(leaves, nodes)`` of the subtrees below ``states``, ``depth`` plies deep."""
    loaded = game.load()
    leaves = nodes = 0
    for data in states:
        subtree = _rbg._perft_state(loaded, loaded.deserialize_state(data), depth)
        leaves += subtree[0]
        nodes += subtree[1]
    return leaves, nodes


def perft(
    game: "GameText | str | os.PathLike[str]",
    depth: int,
    *,
    split: int = 1,
    tasks: int = 64,
    backend: Optional[Backend] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Tuple[int, int]:
    """``Game.perft(depth)``'s ``(leaves, nodes)``, with the tree cut ``split`` plies below the
    root (1: at the root's children): the plies above the cut are counted here, the subtrees
    below it in at most ``tasks`` tasks, and the counts summed."""
    game = _game_text(game)
    if depth < 0 or split < 0 or tasks < 1:
        raise ValueError("depth and split must be at least 0, tasks at least 1")
    split = min(split, depth)
    loaded = game.load()
    frontier = [loaded.new_initial_state()]
    above = 0
    for _ in range(split):
        above += len(frontier)
        children = []
        for state in frontier:
            for move in state.legal_moves():
                child = state.clone()
                child.apply(move)
                children.append(child.serialize())
        frontier = [loaded.deserialize_state(data) for data in children]
    data = [s.serialize() for s in frontier]
    size = max(1, -(-len(data) // tasks))
    work = [(game, data[i : i + size], depth - split) for i in range(0, len(data), size)]
    counts = (backend or Local()).map(_perft_chunk, work, progress)
    return sum(c[0] for c in counts), above + sum(c[1] for c in counts)


# --------------------------------------------------------------------------------------------
# Monte Carlo (random playouts)


@dataclasses.dataclass
class McResult:
    """Random playouts summed over the tasks."""

    playouts: int
    plies: int
    score_sums: List[int]
    seconds: float

    @property
    def mean_scores(self) -> List[float]:
        return [s / self.playouts for s in self.score_sums] if self.playouts else []


def _mc_chunk(game: GameText, playouts: int, seed: int) -> Tuple[int, int, List[int]]:
    stats = game.load().random_playouts(playouts, threads=1, seed=seed)
    return stats.playouts, stats.plies, list(stats.score_sums)


def mc(
    game: "GameText | str | os.PathLike[str]",
    playouts: int,
    *,
    seed: int = 0,
    tasks: int = 16,
    backend: Optional[Backend] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> McResult:
    """``playouts`` random playouts in ``tasks`` tasks: task ``t`` plays its share (the first
    ``playouts % tasks`` one more) from the seed ``seed + t * 0x9E3779B97F4A7C15``, as thread
    ``t`` of ``Game.random_playouts(playouts, threads=tasks, seed=seed)`` does; so the sums
    are that call's."""
    game = _game_text(game)
    if playouts < 1 or tasks < 1:
        raise ValueError("playouts and tasks must be at least 1")
    tasks = min(tasks, playouts)
    work = [
        (game, playouts // tasks + (t < playouts % tasks), (seed + t * _MC_SEED_STEP) & _U64)
        for t in range(tasks)
    ]
    start = time.monotonic()
    parts = (backend or Local()).map(_mc_chunk, work, progress)
    sums = [sum(scores) for scores in zip(*(p[2] for p in parts))]
    return McResult(sum(p[0] for p in parts), sum(p[1] for p in parts), sums, time.monotonic() - start)


# --------------------------------------------------------------------------------------------
# Analysis runs


class Analysis(Protocol):
    """What ``analyze`` runs: per-game rows from self-play, merged into a summary.

    ``rows(game, first, count, seed)`` plays games ``first .. first + count`` of a run seeded
    ``seed`` (game ``i`` seeded from ``(seed, i)`` alone, never from the chunking) and returns
    one JSON-able dict per game, holding at least ``"index"``. ``summary(rows)`` merges the
    rows of all games, in game order. Instances go to the workers by pickle.
    """

    def rows(self, game: rbg.Game, first: int, count: int, seed: int) -> List[Dict[str, Any]]: ...

    def summary(self, rows: List[Dict[str, Any]]) -> Dict[str, Any]: ...


@dataclasses.dataclass(frozen=True)
class PlayoutAnalysis:
    """A built-in analysis: games between ``agents`` (random by default), one row per game
    (plies, scores, how it ended), summed up as game length and score statistics. It stands in
    until ``rbg.analyze`` is wired in (see docs/cluster.md)."""

    agents: Tuple[str, ...] = ()
    max_moves: Optional[int] = None

    def rows(self, game, first, count, seed):
        agents = list(self.agents) or ["random"] * game.num_players()
        rows = []
        for index in range(first, first + count):
            r = _rbg._play_match_game(game, agents, seed, index, max_moves=self.max_moves)
            rows.append(
                {"index": index, "seed": r["seed"], "plies": len(r["moves"]), "scores": r["scores"],
                 "termination": r["termination"]}
            )
        return rows

    def summary(self, rows):
        finished = [r for r in rows if r["termination"] == "finished"]
        plies = [r["plies"] for r in rows]
        players = len(rows[0]["scores"]) if rows else 0
        return {
            "games": len(rows),
            "finished": len(finished),
            "mean_plies": sum(plies) / len(plies) if plies else None,
            "min_plies": min(plies, default=None),
            "max_plies": max(plies, default=None),
            "mean_scores": [sum(r["scores"][p] for r in finished) / len(finished) for p in range(players)]
            if finished
            else None,
        }


def _analyze_chunk(game: GameText, analysis: Analysis, first: int, count: int, seed: int):
    return analysis.rows(game.load(), first, count, seed)


def analyze(
    game: "GameText | str | os.PathLike[str]",
    games: int,
    *,
    analysis: Optional[Analysis] = None,
    seed: int = 0,
    chunk: int = 8,
    backend: Optional[Backend] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
    """Runs ``analysis`` (default ``PlayoutAnalysis()``) on ``games`` games in chunks of
    ``chunk`` games a task; returns the rows in game order and their summary."""
    game = _game_text(game)
    if games < 1 or chunk < 1:
        raise ValueError("games and chunk must be at least 1")
    analysis = analysis or PlayoutAnalysis()
    work = [(game, analysis, first, min(chunk, games - first), seed) for first in range(0, games, chunk)]
    rows = [r for part in (backend or Local()).map(_analyze_chunk, work, progress) for r in part]
    rows.sort(key=lambda r: r["index"])
    return rows, analysis.summary(rows)



# --------------------------------------------------------------------------------------------
# The report of rbg analyze (rbg-metrics) in parts


@dataclasses.dataclass
class Report:
    """An analysis by rbg-metrics: ``json`` is the text ``rbg analyze --json`` prints for the
    same settings, ``html`` the page ``rbg analyze --html`` writes."""

    json: str
    html: str

    @property
    def data(self) -> Dict[str, Any]:
        return json.loads(self.json)


def _report_part(game: GameText, kind: str, options: Dict[str, Any], *args) -> List[str]:
    """A task: ``games`` (self-play games ``first, count``), ``strength`` (strength-test
    games ``first, count``) or ``sample`` (the estimates of one sample game); JSON records."""
    loaded = game.load()
    if kind == "games":
        return _rbg._analysis_games(loaded, options, *args)
    if kind == "strength":
        return _rbg._analysis_strength(loaded, options, *args)
    return [_rbg._analysis_sample(loaded, options, *args)]


def report(
    game: "GameText | str | os.PathLike[str]",
    games: Optional[int] = None,
    *,
    chunk: int = 4,
    backend: Optional[Backend] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    **settings: Any,
) -> Report:
    """``rbg analyze``'s analysis of ``game`` (``rbg.analyze``'s keywords: ``agents``,
    ``seed``, ``max_moves``, ``samples``, ``evaluator``, ``strength``, ``strength_games``) with
    its games as tasks: self-play and strength-test games in tasks of ``chunk`` games, then a
    task per sample game's value estimates. Every part depends on the settings and its game's
    number alone, and the parts are folded by the code that folds a single run's, so the
    report is ``rbg analyze``'s with the same settings, number for number."""
    game = _game_text(game)
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    options = dict(_rbg._analysis_defaults())
    unknown = sorted(set(settings) - set(options))
    if unknown:
        raise ValueError(f"unknown analysis setting(s): {', '.join(unknown)}")
    options.update({k: v for k, v in settings.items() if v is not None})
    if games is not None:
        options["games"] = games
    if options["strength"] is not None:
        options["strength"] = tuple(options["strength"])
    loaded = game.load()
    played, sampled, strength_games = _rbg._analysis_plan(loaded, options)
    backend = backend or Local()
    chunks = lambda total: [(first, min(chunk, total - first)) for first in range(0, total, chunk)]
    work = [(game, "games", options, first, count) for first, count in chunks(played)]
    work += [(game, "strength", options, first, count) for first, count in chunks(strength_games)]
    parts = backend.map(_report_part, work, progress)
    records = [r for part in parts[: len(chunks(played))] for r in part]
    strength = [r for part in parts[len(chunks(played)) :] for r in part]
    # The first games are the samples; rbg-metrics plays them in game order.
    samples = [(game, "sample", options, records[i]) for i in range(sampled)]
    estimates = [r for part in backend.map(_report_part, samples, progress) for r in part] if samples else []
    text, html = _rbg._analysis_assemble(loaded, options, records, estimates, strength)
    return Report(text, html)


# --------------------------------------------------------------------------------------------
# Evolution (rbg evolve)

#: ``rbg evolve``'s option names for the settings that differ from the fields of the run's
#: settings (rbg-evolve's ``EvolveConfig``); the others are the same with ``_`` for ``-``.
EVOLVE_OPTIONS = {"weak": "weak_pieces", "light": "light_pieces", "strong": "strong_pieces",
                  "branching": "expected_branching"}


def _fitness(config: str, generation: int, index: int, genome: str) -> str:
    """A task: the features (JSON) of candidate ``index`` of ``generation``."""
    return _rbg._evaluate_candidate(config, generation, index, genome)


def _evolve_settings(settings: Dict[str, Any]) -> str:
    """The run's settings (JSON): ``rbg evolve``'s defaults with ``settings`` (field names of
    ``EvolveConfig``, ``rbg evolve``'s option names, or ``nld_weight``) in their place."""
    config = json.loads(_rbg._evolve_defaults())
    for name, value in settings.items():
        if value is None:
            continue
        if name == "nld_weight":
            config["nld_term"], config["extra_weight"] = True, value
            continue
        field = EVOLVE_OPTIONS.get(name, name)
        if field not in config or field in ("nld_term", "extra_weight"):
            raise ValueError(f"unknown evolution setting {name!r}")
        config[field] = value
    return json.dumps(config)


def _evolve_generation(run, backend: Backend, progress) -> str:
    """Evaluates the run's next candidates as tasks, one each, and folds them into the run."""
    config = run.config()
    tasks = [(config, generation, index, genome) for generation, index, genome in run.candidates()]
    return run.complete(backend.map(_fitness, tasks, progress))


class SettingsError(ValueError):
    """Settings of a run that cannot be used (``rbg evolve`` refuses them as usage errors, exit
    code 2; so does ``python -m rbg.cluster evolve``)."""


def evolve(
    out: "str | os.PathLike[str]",
    *,
    resume: "str | os.PathLike[str] | None" = None,
    generations: Optional[int] = None,
    best: int = 3,
    backend: Optional[Backend] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    report: Optional[Callable[[str], None]] = None,
    **settings: Any,
) -> List[Path]:
    """``rbg evolve --out OUT``, with the fitness of each candidate a task: writes the same
    ``checkpoint.json`` and ``generations.csv`` after every generation and the same best games
    (``best-<rank>.sbg``, ``.rbg``, ``.json``) at the end; returns the paths of the SBG files.

    ``settings`` are ``rbg evolve``'s (``width=4, population=8, weak=1, seed=3, ...``; also as
    rbg-evolve's field names, ``weak_pieces=1``); ``resume`` continues the run of a checkpoint
    (then only ``generations`` may be given), as ``rbg evolve --resume``. ``report`` gets a
    line per generation. Candidate ``i`` of generation ``g`` is evaluated with the seed of
    ``(seed, g, i)`` alone, so the files are ``rbg evolve``'s whatever the backend (only the
    recorded wall times differ).
    """
    if best < 1:
        raise SettingsError("best must be at least 1")
    if resume is not None:
        given = sorted(name for name, value in settings.items() if value is not None)
        if given:
            raise SettingsError(f"{', '.join(given)} cannot change on resume: the checkpoint's settings are used")
        run = _rbg._Evolution.resume(os.fspath(resume), generations)
    else:
        try:
            run = _rbg._Evolution.begin(_evolve_settings(dict(settings, generations=generations)))
        except ValueError as e:
            raise SettingsError(str(e)) from None
    backend = backend or Local()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if run.generation() is None:
        line = _evolve_generation(run, backend, progress)
        if report:
            report(line)
    run.save(os.fspath(out))
    _pause_after_save()
    while not run.finished():
        line = _evolve_generation(run, backend, progress)
        if report:
            report(line)
        run.save(os.fspath(out))
        _pause_after_save()
    return [Path(p) for p in run.write_best(os.fspath(out), best)]


def _pause_after_save() -> None:
    """Tests only: ``RBG_CLUSTER_PAUSE_AFTER_SAVE=S`` waits ``S`` seconds after each checkpoint,
    so a test can kill the driver at a known point of the run."""
    pause = os.environ.get("RBG_CLUSTER_PAUSE_AFTER_SAVE")
    if pause:
        time.sleep(float(pause))
