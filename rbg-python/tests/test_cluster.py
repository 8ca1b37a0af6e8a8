"""rbg.cluster on a Ray cluster of two nodes on loopback (one CPU each): tournaments, perft,
Monte Carlo and analysis give exactly the answers of the same runs without Ray (and of the
engine's own drivers and the reference perft table); a worker killed mid-run costs only a
retry; an unreachable address, a game that does not parse on a worker and a worker without
the package are clear errors.

Skipped when Ray is not installed, unless RBG_RAY=1 (run-tests.sh then installs it, and CI
sets it): there a missing Ray fails. Every test has a timeout (SIGALRM) and the cluster is
shut down at the end.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
import rbg
from conftest import GAMES, WORKSPACE, corpus_game, reference_perft

# Ray on loopback only (Ray otherwise swaps 127.0.0.1 for the network address): before Ray is
# imported, so that the nodes started below inherit it.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
# No usage report to Ray's servers from a test.
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
if os.environ.get("RBG_RAY") == "1":
    import ray  # noqa: F401  (RBG_RAY=1: Ray must be there; an ImportError fails the run)
else:
    pytest.importorskip("ray")

from rbg import cluster  # noqa: E402

TICTACTOE = GAMES / "ticTacToe.rbg"
#: Line 5, column 15 is the undeclared piece `zz`.
UNDECLARED = "#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n#rules = ->a [zz]\n"
TEST_SECONDS = 60


@pytest.fixture(autouse=True)
def time_limit():
    """Fails a test that runs over TEST_SECONDS instead of letting it hang the run."""

    def expire(signum, frame):
        raise TimeoutError(f"the test ran over {TEST_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(TEST_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def two_nodes():
    """A Ray cluster of two one-CPU nodes bound to 127.0.0.1, and this process connected."""
    import ray
    from ray.cluster_utils import Cluster

    loopback = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False}
    nodes = Cluster(initialize_head=True, head_node_args=loopback)
    try:
        nodes.add_node(**loopback)
        backend = cluster.Ray(nodes.address)
        yield nodes, backend
    finally:
        ray.shutdown()
        nodes.shutdown()


def splitmix(x):
    """SplitMix64's finaliser, as rbg-agents seeds games (computed here independently)."""
    mask = (1 << 64) - 1
    x = (x + 0x9E3779B97F4A7C15) & mask
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
    return x ^ (x >> 31)


def test_the_cluster_binds_to_loopback_and_has_two_nodes(two_nodes):
    import ray

    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 2
    assert {n["NodeManagerAddress"] for n in alive} == {"127.0.0.1"}
    hosts = cluster.check_workers()
    assert len(hosts) == 2 and all(file and file.endswith("__init__.py") for _, file in hosts)


def test_a_tournament_is_the_same_on_two_nodes_as_in_this_process(two_nodes):
    _, backend = two_nodes
    # Shipped by content: the name points nowhere, so no worker could read a file.
    game = cluster.GameText("/nowhere/ticTacToe.rbg", TICTACTOE.read_bytes())
    args = dict(seed=7, iterations=40, max_moves=6)
    here = cluster.play(game, "mcts:c=1.0,flatmc", 10, **args)
    there = cluster.play(game, "mcts:c=1.0,flatmc", 10, backend=backend, **args)
    assert there.records == here.records and there.table == here.table
    assert there.log_lines() == here.log_lines()
    records = [json.loads(line) for line in there.log_lines()]
    assert [r["index"] for r in records] == list(range(10))
    labels = records[0]["agents"]  # game 0 seats the agents in order
    assert labels[0].startswith("mcts:") and "iterations=40" in labels[0] and labels[1].startswith("flatmc:")
    for r in records:
        i = r["index"]
        # rbg play's seeds and seats: game i seeded splitmix(splitmix(seed) ^ i), agents rotated.
        assert r["seed"] == splitmix(splitmix(7) ^ i)
        assert r["agents"] == [labels[i % 2], labels[(i + 1) % 2]]
        assert r["file"] == "/nowhere/ticTacToe.rbg" and r["engine"] == "interp"
        # The moves replay legally to the logged scores; the limit of 6 moves stops games.
        session = rbg.Session(rbg.load(TICTACTOE))
        for move in r["moves"]:
            session.play(move)
        assert session.state().scores() == r["scores"]
        assert r["termination"] == ("finished" if session.outcomes() else "move-limit")
        assert (r["termination"] == "move-limit") == (len(r["moves"]) == 6 and session.outcomes() is None)
    counted = sum(r["termination"] == "finished" for r in records)
    assert f"ticTacToe: 10 games, {counted} finished" in there.table


def test_tasks_of_many_games_give_the_same_games_as_tasks_of_one(two_nodes):
    _, backend = two_nodes
    one = cluster.play(TICTACTOE, ["random", "random"], 12, seed=3)
    five = cluster.play(TICTACTOE, ["random", "random"], 12, seed=3, chunk=5, backend=backend)
    assert five.records == one.records and five.table == one.table


@pytest.mark.parametrize("split", [1, 2])
def test_perft_split_into_tasks_sums_to_the_reference(two_nodes, split):
    _, backend = two_nodes
    breakthrough = corpus_game("breakthrough")
    assert cluster.perft(breakthrough, 3, split=split, tasks=7, backend=backend) == reference_perft("breakthrough")[3]
    # ticTacToe at depth 3: 9 * 8 * 7 leaves, 1 + 9 + 72 + 504 nodes.
    assert cluster.perft(TICTACTOE, 3, split=split, backend=backend) == (504, 586)
    assert cluster.perft(TICTACTOE, 3, split=split) == rbg.load(TICTACTOE).perft(3)


def test_monte_carlo_tasks_play_the_threads_of_random_playouts(two_nodes):
    _, backend = two_nodes
    result = cluster.mc(TICTACTOE, 1003, seed=11, tasks=5, backend=backend)
    threads = rbg.load(TICTACTOE).random_playouts(1003, threads=5, seed=11)
    assert (result.playouts, result.plies, result.score_sums) == (threads.playouts, threads.plies, threads.score_sums)


def test_analysis_rows_do_not_depend_on_the_chunks(two_nodes):
    _, backend = two_nodes
    rows, summary = cluster.analyze(TICTACTOE, 20, seed=5, chunk=3)
    ray_rows, ray_summary = cluster.analyze(TICTACTOE, 20, seed=5, chunk=8, backend=backend)
    assert ray_rows == rows and ray_summary == summary
    assert [r["index"] for r in rows] == list(range(20))
    assert summary["games"] == 20 and 5 <= summary["min_plies"] <= summary["max_plies"] <= 9


def test_a_killed_worker_costs_a_retry_not_a_result(two_nodes, tmp_path):
    nodes, _ = two_nodes
    marker = tmp_path / "exit-once"
    marker.touch()
    killer = cluster.Ray(nodes.address, check_nodes=False, _exit_once=str(marker))
    expected = cluster.play(TICTACTOE, "random,mcts:iterations=20", 6, seed=1)
    played = cluster.play(TICTACTOE, "random,mcts:iterations=20", 6, seed=1, backend=killer)
    assert not marker.exists(), "no worker was killed"
    assert played.records == expected.records and played.table == expected.table


def test_an_unreachable_address_fails_fast():
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="cannot reach the Ray cluster at 127.0.0.1:9"):
        cluster.Ray("127.0.0.1:9", timeout=2.0)
    assert time.monotonic() - start < 10
    with pytest.raises(ValueError, match="bad Ray address"):
        cluster.Ray("nowhere", timeout=2.0)


def test_a_parse_error_on_a_worker_reaches_the_driver_with_its_place(two_nodes):
    _, backend = two_nodes
    game = cluster.GameText("bad.rbg", UNDECLARED.encode())
    with pytest.raises(rbg.ParseError) as caught:
        cluster.play(game, "random", 2, backend=backend)
    assert str(caught.value).startswith("bad.rbg:5:15: error: ")
    assert (caught.value.line, caught.value.column) == (5, 15)


def test_a_worker_without_the_package_is_named(two_nodes):
    with pytest.raises(RuntimeError, match="the Python package 'rbg_not_installed' is not installed on the Ray worker"):
        cluster.check_workers(package="rbg_not_installed", timeout=30)


def test_the_command_line_starts_a_local_ray_and_writes_rbg_plays_log(tmp_path):
    log = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "rbg.cluster", "play", str(TICTACTOE), "--agents", "random,mcts:iterations=30",
               "--games", "4", "--seed", "2", "--num-cpus", "1", "--log", str(log)]
    env = dict(os.environ, RAY_ADDRESS="")
    done = subprocess.run(command, capture_output=True, text=True, timeout=TEST_SECONDS - 5, env=env, cwd=WORKSPACE)
    assert done.returncode == 0, done.stderr
    expected = cluster.play(cluster.GameText.read(TICTACTOE), "random,mcts:iterations=30", 4, seed=2)
    assert done.stdout == expected.table
    assert log.read_text().splitlines() == expected.log_lines()
    assert "play: 4/4 tasks" in done.stderr or "4/4" in done.stderr


def test_the_command_line_reports_bad_input_with_rbgs_exit_codes(tmp_path):
    bad = tmp_path / "bad.rbg"
    bad.write_text(UNDECLARED)
    run = lambda *a: subprocess.run([sys.executable, "-m", "rbg.cluster", *a], capture_output=True, text=True,
                                    timeout=30)
    done = run("perft", str(bad), "2", "--local")
    assert done.returncode == 1 and f"{bad}:5:15: error: " in done.stderr
    done = run("play", str(TICTACTOE), "--agents", "random,random", "--address", "127.0.0.1:9", "--timeout", "1")
    assert done.returncode == 1 and "cannot reach the Ray cluster" in done.stderr
    assert run("play", str(TICTACTOE)).returncode == 2
    done = run("evolve")
    assert done.returncode == 2 and "--out" in done.stderr
    done = run("evolve", "--out", str(tmp_path / "run"), "--width", "1", "--local")
    assert done.returncode == 2 and "the board width must be between 2 and 26" in done.stderr  # as rbg evolve
    done = run("evolve", "--out", str(tmp_path / "run"), "--resume", str(bad), "--local")
    assert done.returncode == 1 and "is not a checkpoint" in done.stderr


def rbg_binary():
    """The `rbg` command built by the workspace's release build (CI builds it before these
    tests), or None."""
    target = os.environ.get("CARGO_TARGET_DIR") or str(WORKSPACE / "target")
    path = os.path.join(target, "release", "rbg")
    return path if os.access(path, os.X_OK) else None


def test_a_tournament_on_two_nodes_writes_what_rbg_play_writes(two_nodes, tmp_path):
    binary = rbg_binary()
    if binary is None:
        pytest.skip("the rbg command is not built (cargo build --release -p rbg-cli)")
    _, backend = two_nodes
    breakthrough = str(corpus_game("breakthrough"))
    options = ["--agents", "mcts,flatmc", "--iterations", "30", "--games", "4", "--seed", "9", "--max-moves", "30"]
    log = tmp_path / "rbg-play.jsonl"
    done = subprocess.run([binary, "play", breakthrough, *options, "--log", str(log)], capture_output=True,
                          text=True, timeout=TEST_SECONDS - 10)
    assert done.returncode == 0, done.stderr
    ours = cluster.play(breakthrough, "mcts,flatmc", 4, iterations=30, seed=9, max_moves=30, backend=backend)
    assert log.read_text().splitlines() == ours.log_lines()
    assert done.stdout == ours.table


#: A tiny evolution (a few seconds): 4x4 boards, two piece types, 4 individuals, 2 generations.
EVOLVE = dict(width=4, height=4, weak=1, light=1, strong=0, population=4, generations=2, playouts=2,
              turn_limit=12, depth=1, nodes_per_move=200, seed=5)


def evolve_options(settings):
    """``rbg evolve``'s options for ``settings``."""
    return [part for name, value in settings.items() for part in (f"--{name.replace('_', '-')}", str(value))]


def run_files(directory):
    """A run's output files by name, with the recorded wall times (the one thing two runs of
    the same settings do not share) cut out of the checkpoint and the CSV."""
    files = {}
    for path in sorted(directory.iterdir()):
        text = path.read_text()
        if path.name == "checkpoint.json":
            text = re.sub(r'"seconds":[-+0-9.eE]+', '"seconds":-', text)
        elif path.name == "generations.csv":
            text = "\n".join(line.rsplit(",", 1)[0] for line in text.splitlines())
        files[path.name] = text
    return files


def test_an_evolution_writes_the_same_files_here_on_two_nodes_and_by_rbg_evolve(two_nodes, tmp_path):
    _, backend = two_nodes
    here, there = tmp_path / "here", tmp_path / "there"
    lines = []
    written = cluster.evolve(here, best=2, report=lines.append, **EVOLVE)
    cluster.evolve(there, best=2, backend=backend, **EVOLVE)
    files = run_files(here)
    assert run_files(there) == files
    assert written == [here / "best-1.sbg", here / "best-2.sbg"]
    assert {"checkpoint.json", "generations.csv", "best-1.sbg", "best-1.rbg", "best-1.json"} <= set(files)
    # A line per generation: the initial population and two more.
    assert [line.split(":")[0] for line in lines] == ["generation 0", "generation 1", "generation 2"]
    checkpoint = json.loads((here / "checkpoint.json").read_text())
    assert checkpoint["generation"] == 2 and len(checkpoint["population"]) == 4
    assert checkpoint["config"]["seed"] == 5 and checkpoint["config"]["width"] == 4
    # Ranked best first by fitness, in [0, 1].
    fitness = [i["features"]["fitness"] for i in checkpoint["population"]]
    assert fitness == sorted(fitness, reverse=True) and all(0 <= f <= 1 for f in fitness)
    binary = rbg_binary()
    if binary is None:
        pytest.skip("the rbg command is not built (cargo build --release -p rbg-cli)")
    theirs = tmp_path / "rbg-evolve"
    done = subprocess.run([binary, "evolve", "--out", str(theirs), "--best", "2", *evolve_options(EVOLVE)],
                          capture_output=True, text=True, timeout=TEST_SECONDS - 15)
    assert done.returncode == 0, done.stderr
    assert run_files(theirs) == files


def test_a_killed_evolution_driver_resumes_from_its_checkpoint_to_the_same_result(two_nodes, tmp_path):
    _, backend = two_nodes
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    cluster.evolve(whole, **EVOLVE)
    # The driver waits after each checkpoint (a test hook), so it is killed between generations.
    env = dict(os.environ, RBG_CLUSTER_PAUSE_AFTER_SAVE="60")
    command = [sys.executable, "-m", "rbg.cluster", "evolve", "--local", "--quiet", "--out", str(killed),
               *evolve_options(EVOLVE)]
    driver = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    checkpoint = killed / "checkpoint.json"
    try:
        while not checkpoint.exists() and driver.poll() is None:
            time.sleep(0.05)
    finally:
        driver.kill()
        stderr = driver.communicate()[1].decode()
    assert driver.returncode == -signal.SIGKILL, stderr
    assert json.loads(checkpoint.read_text())["generation"] == 0
    assert not (killed / "best-1.sbg").exists()
    cluster.evolve(killed, resume=checkpoint, backend=backend)
    assert run_files(killed) == run_files(whole)


#: A small analysis: 6 self-play games, 2 of them sample games, 4 strength-test games.
ANALYSIS = dict(agents="mcts:iterations=30", seed=3, samples=2, evaluator="mcts:iterations=20", strength_games=4)


def test_an_analysis_in_tasks_gives_rbg_analyzes_report(two_nodes, tmp_path):
    _, backend = two_nodes
    here = cluster.report(TICTACTOE, 6, chunk=4, **ANALYSIS)
    there = cluster.report(TICTACTOE, 6, chunk=1, backend=backend, **ANALYSIS)
    assert there.json == here.json and there.html == here.html
    data = here.data
    assert data["games"] == 6 and data["seed"] == 3 and len(data["samples"]) == 2
    assert data["strength"]["games"] == 4 and data["measures"]["games"] == 6
    # The histogram of lengths counts the six games; tic-tac-toe lasts 5 to 9 plies.
    duration = data["measures"]["duration"]
    assert sum(count for _, _, count in duration["histogram"]) == 6 and 5 <= duration["min"] <= duration["max"] <= 9
    # The rows of rbg.analyze (one run on this machine's cores) say the same.
    rows = {r["measure"]: r for r in rbg.analyze(rbg.load(TICTACTOE), games=6, **ANALYSIS)}
    first_mover = data["measures"]["first_mover"]
    assert (rows["first-mover score"]["value"], rows["first-mover score"]["low"]) == (first_mover["rate"], first_mover["low"])
    assert rows["duration: mean plies"]["value"] == duration["mean"]
    binary = rbg_binary()
    if binary is None:
        pytest.skip("the rbg command is not built (cargo build --release -p rbg-cli)")
    options = ["--games", "6", "--agents", "mcts:iterations=30", "--seed", "3", "--samples", "2", "--evaluator",
               "mcts:iterations=20", "--strength-games", "4", "--json"]
    done = subprocess.run([binary, "analyze", str(TICTACTOE), *options], capture_output=True, text=True,
                          timeout=TEST_SECONDS - 15)
    assert done.returncode == 0, done.stderr
    assert done.stdout == here.json + "\n"


def test_the_command_line_prints_the_report_and_writes_it_as_html(tmp_path):
    html = tmp_path / "report.html"
    command = [sys.executable, "-m", "rbg.cluster", "analyze", str(TICTACTOE), "--local", "--quiet", "--games", "3",
               "--agents", "random,mcts:iterations=10", "--samples", "1", "--evaluator", "flatmc:iterations=10",
               "--strength-games", "2", "--html", str(html)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=TEST_SECONDS - 5)
    assert done.returncode == 0, done.stderr
    expected = cluster.report(TICTACTOE, 3, agents=["random", "mcts:iterations=10"], samples=1,
                              evaluator="flatmc:iterations=10", strength_games=2)
    assert done.stdout == expected.json + "\n"
    assert html.read_text() == expected.html and "<svg" in expected.html
    bad = subprocess.run([*command[:5], "--local", "--evaluator", "random"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1 and "gives no value estimates" in bad.stderr
