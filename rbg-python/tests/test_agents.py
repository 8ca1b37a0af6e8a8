"""Agents choose legal moves and play games to the end."""

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
