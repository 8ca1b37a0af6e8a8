"""Game.utility: zero- and constant-sum games proved from their rules (conservatively)."""

import pytest
import rbg
from conftest import corpus_game


def load_text(tmp_path, name, text):
    path = tmp_path / f"{name}.rbg"
    path.write_text(text)
    return rbg.load(path)


def test_tictactoe_is_proved_zero_sum(tictactoe):
    # Scores start at 50/50 (returns 0, 0) before the first turn, and a win sets 100/0
    # (returns 1, -1) with both assignments between the same two switches.
    assert tictactoe.utility == "zero_sum"
    assert tictactoe.returns_sum == 0.0


def test_a_constant_sum_is_proved(tmp_path):
    # Both players always hold 2 of 2: returns 1 and 1, sum 2, at every switch.
    game = load_text(
        tmp_path,
        "bothFull",
        """
#players = a(2), b(2)
#pieces = e
#variables =
#board = rectangle(up, down, left, right, [e])
#rules = [$ a = 2, b = 2] ->a [$ b = 2] ->b
""",
    )
    assert game.utility == "constant_sum"
    assert game.returns_sum == 2.0


@pytest.mark.parametrize(
    "rules, why",
    [
        # The scores are 0/0 (returns -1, -1) at the first switch, 1/1 (1, 1) at the second.
        ("->a [$ a = 1, b = 1] ->b", "different sums at two switches"),
        # A score assigned an expression.
        ("[$ a = 1, b = 0] ->a [$ a = a] ->b", "a score assigned other than a constant"),
        # A switch between the two assignments sees 1/1.
        ("[$ a = 1, b = 0] ->a [$ b = 1] ->b [$ a = 0] ->a", "a switch between two assignments"),
        # The keeper cannot move at the start ({$ a == 0} fails after a = 1): the initial state
        # ends the game with 0/0 (returns -1, -1), though the one switch would see 1/0 (sum 0).
        ("[$ a = 1] {$ a == 0} ->a", "the initial state is terminal"),
    ],
)
def test_no_proof_means_general_sum(tmp_path, rules, why):
    game = load_text(
        tmp_path,
        "noProof",
        f"""
#players = a(1), b(1)
#pieces = e
#variables =
#board = rectangle(up, down, left, right, [e])
#rules = {rules}
""",
    )
    assert game.utility == "general_sum", why
    assert game.returns_sum is None


def test_the_keeper_stuck_at_the_start_really_ends_the_game(tmp_path):
    game = load_text(
        tmp_path,
        "stuck",
        """
#players = a(1), b(1)
#pieces = e
#variables =
#board = rectangle(up, down, left, right, [e])
#rules = [$ a = 1] {$ a == 0} ->a
""",
    )
    state = game.new_initial_state()
    assert state.is_terminal() and state.returns() == [-1.0, -1.0]


def test_corpus_games_proved_agree_with_random_games():
    """Every terminal state of random games of a game proved zero- or constant-sum has returns
    of the proved sum (an independent check of the proof by play)."""
    proved = 0
    for name in ["ticTacToe", "connect4", "breakthrough", "reversi", "englishDraughts", "theMillGame", "hex_5x5"]:
        game = rbg.load(corpus_game(name))
        if game.returns_sum is None:
            continue
        proved += 1
        for seed in range(20):
            agent = rbg.Agent(game, "random", seed=seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply(agent.select_move(state))
            assert sum(state.returns()) == pytest.approx(game.returns_sum), (name, seed)
    assert proved >= 1

