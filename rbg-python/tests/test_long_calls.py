"""The long calls (perft, random playouts, an agent's search): bounded arguments, thread
counts, and Ctrl-C (SIGINT) stopping them with KeyboardInterrupt."""

import os
import signal
import threading
import time

import pytest
import rbg
from conftest import reference_perft

# How long a stopped call may take to return after the signal: the native code polls every
# 20 ms and a stopped search fails at its next node.
PROMPT = 1.0


def test_perft_depth_is_bounded(tictactoe):
    # Used to allocate per-ply buffers for 2^31 plies and abort the process.
    for depth in (2**31, 2**32 - 1, 1001):
        with pytest.raises(ValueError, match="at most 1000"):
            tictactoe.perft(depth)
    # Depth 1000 is allowed and counts the whole game tree, since no tic-tac-toe game lasts
    # beyond 9 moves: no leaf at that depth, and the complete game tree of tic-tac-toe (play
    # stopping at a win) has 549,946 nodes, root included (a well-known count).
    assert tictactoe.perft(1000) == (0, 549946)


def test_thread_counts(tictactoe):
    for call in (lambda: tictactoe.perft(2, threads=0), lambda: tictactoe.random_playouts(10, threads=0)):
        with pytest.raises(ValueError, match="at least 1"):
            call()
    # Never more threads than playouts, nor than 4 per core.
    cores = os.cpu_count() or 1
    assert tictactoe.random_playouts(10, threads=10**6).threads == min(10, 4 * cores)
    assert tictactoe.random_playouts(10**4, threads=10**6).threads == min(10**4, 4 * cores, 256)
    assert tictactoe.random_playouts(1, threads=5).threads == 1
    assert tictactoe.random_playouts(3).threads == min(3, cores)
    assert tictactoe.random_playouts(seconds=0.01, threads=10**6).threads == min(4 * cores, 256)
    stats = tictactoe.random_playouts(10, threads=10**6)
    assert stats.playouts == 10


def interrupted_after(delay, call):
    """Runs `call` with a SIGINT sent to this process `delay` seconds in; returns the seconds
    from the signal to KeyboardInterrupt. The handler is the test's own (raising
    KeyboardInterrupt, as Python's default does) and is put back, with the timer cancelled, so
    that a late signal cannot hit the rest of the session."""
    raised = {}

    def on_sigint(signum, frame):
        raise KeyboardInterrupt

    def send():
        raised["at"] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, on_sigint)
    timer = threading.Timer(delay, send)
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.perf_counter() - raised["at"]
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("fast_subtrees", [None, False])
def test_ctrl_c_stops_perft(breakthrough, threads, fast_subtrees):
    # Breakthrough to depth 9 is about 10^13 leaves: hours, were it not stopped (by the stop
    # flag the interpreter's own count sees, the default, or by the per-node checks).
    run = lambda: breakthrough.perft(9, threads=threads, fast_subtrees=fast_subtrees)  # noqa: E731
    assert interrupted_after(0.3, run) < PROMPT
    # The game works on after a stopped run.
    assert breakthrough.perft(2) == reference_perft("breakthrough")[2]


def test_fast_subtrees_count_the_same(breakthrough):
    # The engine's own subtree counts (the interpreter's default) and the per-node stop checks agree with the
    # reference, on one thread (one subtree per root move) and two (the balanced split).
    reference = reference_perft("breakthrough")
    for threads in (1, 2):
        assert breakthrough.perft(4, threads=threads, fast_subtrees=True) == reference[4]
        assert breakthrough.perft(4, threads=threads, fast_subtrees=False) == reference[4]
        assert breakthrough.perft(4, threads=threads) == reference[4]


def test_ctrl_c_stops_random_playouts(breakthrough):
    assert interrupted_after(0.3, lambda: breakthrough.random_playouts(10**12, threads=2)) < PROMPT
    assert interrupted_after(0.3, lambda: breakthrough.random_playouts(seconds=10**6)) < PROMPT
    assert breakthrough.random_playouts(5).playouts == 5


@pytest.mark.parametrize("spec", ["mcts:iterations=1000000000", "alphabeta:depth=40", "flatmc:iterations=1000000000"])
def test_ctrl_c_stops_an_agents_search(breakthrough, spec):
    agent = rbg.Agent(breakthrough, spec, seed=1)
    state = breakthrough.new_initial_state()
    assert interrupted_after(0.3, lambda: agent.select_move(state)) < PROMPT
    # The agent searches again afterwards (a quick one: the stop flag is lowered).
    quick = rbg.Agent(breakthrough, "mcts:iterations=50", seed=1)
    assert quick.select_move(state) in state.legal_moves()
