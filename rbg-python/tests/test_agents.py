"""Agents choose legal moves and play games to the end."""

import threading
import time

import pytest
import rbg


@pytest.mark.parametrize("spec", ["random", "mcts:iterations=200", "flatmc:iterations=50", "alphabeta:depth=2"])
def test_agents_play_legal_moves_to_the_end(tictactoe, spec):
    agents = [rbg.Agent(tictactoe, spec, seed=1), rbg.Agent(tictactoe, "random", seed=2)]
    state = tictactoe.new_initial_state()
    plies = 0
    while not state.is_terminal():
        chosen = agents[state.current_player()].select_move(state)
        assert chosen in state.legal_moves()
        state.apply(chosen)
        plies += 1
    assert 5 <= plies <= 9
    assert sum(state.scores()) == 100


def test_mcts_takes_a_winning_move(tictactoe):
    # Cross holds cells 0 and 1 of the top row, nought 3 and 4: cross wins at cell 2 at once.
    state = tictactoe.new_initial_state()
    for text in ["4@rx0y0 5@rx0y0", "10@rx0y1 11@rx0y1", "4@rx1y0 5@rx1y0", "10@rx1y1 11@rx1y1"]:
        state.apply(text)
    agent = rbg.Agent(tictactoe, "mcts:iterations=2000", seed=1)
    assert str(agent.select_move(state)) == "4@rx2y0 5@rx2y0"


def test_the_same_seed_gives_the_same_moves(breakthrough):
    state = breakthrough.new_initial_state()
    first = rbg.Agent(breakthrough, "mcts:iterations=100", seed=5).select_move(state)
    again = rbg.Agent(breakthrough, "mcts:iterations=100", seed=5).select_move(state)
    assert first == again


@pytest.mark.parametrize("spec", ["mcts:time=600ms", "split-mcts:time=600ms"])
def test_select_move_lets_other_threads_run(breakthrough, spec):
    """The search runs without the GIL: Python code in the main thread keeps running during
    it. Were the GIL held, no main-thread iteration could fall in the middle of the search
    (only within a switch interval, 5 ms, of its start or end)."""
    agent = rbg.Agent(breakthrough, spec, seed=1)
    state = breakthrough.new_initial_state()
    window = {}

    def search():
        window["start"] = time.perf_counter()
        window["move"] = agent.select_move(state)
        window["end"] = time.perf_counter()

    worker = threading.Thread(target=search)
    stamps = []
    count = 0
    worker.start()
    while worker.is_alive():
        count += 1
        if count % 256 == 0:
            stamps.append(time.perf_counter())
            # The state is not borrowed by the search: its methods work meanwhile.
            assert not state.is_terminal()
    worker.join()
    start, end = window["start"], window["end"]
    middle = [t for t in stamps if start + (end - start) / 4 < t < end - (end - start) / 4]
    assert end - start >= 0.5
    assert len(middle) > 10, (count, len(stamps))
    assert window["move"] in state.legal_moves()
