"""Bad input of every kind raises a Python exception; nothing crashes the interpreter."""

import os

import pytest
import rbg
from conftest import GAMES


def test_load_rejects_bad_arguments(tmp_path):
    with pytest.raises(TypeError):
        rbg.load(None)
    with pytest.raises(TypeError):
        rbg.load(12)
    with pytest.raises(OSError):
        rbg.load(tmp_path / "missing.rbg")
    with pytest.raises(OSError):
        rbg.load(tmp_path)  # a directory
    junk = tmp_path / "junk.rbg"
    junk.write_bytes(os.urandom(4096) + b"\x00\xff(((([[[[")
    with pytest.raises(rbg.ParseError):
        rbg.load(junk)
    empty = tmp_path / "empty.rbg"
    empty.write_bytes(b"")
    with pytest.raises(rbg.ParseError):
        rbg.load(empty)
    with pytest.raises(TypeError):
        rbg.load(GAMES / "ticTacToe.rbg", engine=None)
    with pytest.raises(OSError):
        rbg.load_library(tmp_path / "missing.so")
    with pytest.raises(ValueError):
        rbg.load_library(junk)


@pytest.mark.parametrize(
    "move, error",
    [
        (None, TypeError),
        (12, TypeError),
        (3.5, TypeError),
        ("", ValueError),
        ("   ", ValueError),
        ("999@rx0y0", ValueError),
        ("4@nowhere 5@nowhere", ValueError),
        ("4@rx0y0 5@", ValueError),
        ("\x00\udcff", ValueError),
        ([], ValueError),
        ([(1,)], (TypeError, ValueError)),  # pyo3 calls a short tuple a ValueError
        ([(2**40, 0)], OverflowError),
        ([(-1, 0)], OverflowError),
        ([(4, 2**32 - 1), (5, 2**32 - 1)], ValueError),
        ([(4, 0)] * 100_000, ValueError),
    ],
)
def test_apply_rejects_garbage(tictactoe, move, error):
    state = tictactoe.new_initial_state()
    before = state.serialize()
    with pytest.raises(error):
        state.apply(move)
    assert state.serialize() == before


def test_numbers_out_of_range_raise(tictactoe):
    for bad in (-1, 2**64, 2**200):
        with pytest.raises(OverflowError):
            tictactoe.perft(bad)
        with pytest.raises(OverflowError):
            tictactoe.random_playouts(bad)
        with pytest.raises(OverflowError):
            tictactoe.random_playouts(10, seed=bad)
    with pytest.raises(OverflowError):
        tictactoe.perft(1, threads=-1)
    with pytest.raises(TypeError):
        tictactoe.perft("2")
    with pytest.raises(TypeError):
        tictactoe.perft(None)
    # Absurd thread counts are clamped, not obeyed.
    assert tictactoe.perft(1, threads=10**6) == (9, 10)
    assert tictactoe.perft(0) == (1, 1)
    for seconds in (float("nan"), float("inf"), -1.0, 1e300):
        with pytest.raises(ValueError):
            tictactoe.random_playouts(seconds=seconds)
    with pytest.raises(ValueError):
        tictactoe.random_playouts()
    with pytest.raises(ValueError):
        tictactoe.random_playouts(10, seconds=1.0)
    assert tictactoe.random_playouts(0).playouts == 0


def test_deserialize_rejects_bad_bytes(tictactoe, breakthrough):
    good = tictactoe.new_initial_state().serialize()
    for bad in [b"", b"\x00", b"\xff" * 10_000, os.urandom(len(good)), good[:-1], good + b"\x00"]:
        with pytest.raises(ValueError):
            tictactoe.deserialize_state(bad)
    # Every single flipped bit is caught (the format has a checksum).
    for i in range(len(good)):
        for bit in range(8):
            flipped = bytearray(good)
            flipped[i] ^= 1 << bit
            with pytest.raises(ValueError):
                tictactoe.deserialize_state(bytes(flipped))
    # A state of another game.
    with pytest.raises(ValueError):
        tictactoe.deserialize_state(breakthrough.new_initial_state().serialize())
    for wrong in (None, "text", 5, [1, 2]):
        with pytest.raises(TypeError):
            tictactoe.deserialize_state(wrong)


def test_next_actions_rejects_garbage(tictactoe):
    state = tictactoe.new_initial_state()
    with pytest.raises(TypeError):
        state.next_actions("4@rx0y0")
    with pytest.raises(TypeError):
        state.next_actions(None)
    with pytest.raises(OverflowError):
        state.next_actions([(2**33, 0)])
    assert state.next_actions([(4, 0), (5, 0), (4, 1)]) == []


def test_agents_reject_bad_specs_and_states(tictactoe, breakthrough):
    for spec in ["", "nonsense", "mcts:iterations=-1", "mcts:bogus=1", "mcts:iterations", "alphabeta:tt=99"]:
        with pytest.raises(ValueError):
            rbg.Agent(tictactoe, spec)
    with pytest.raises(TypeError):
        rbg.Agent(None, "random")
    with pytest.raises(TypeError):
        rbg.Agent(tictactoe, None)
    with pytest.raises(OverflowError):
        rbg.Agent(tictactoe, "random", seed=-1)
    agent = rbg.Agent(tictactoe, "random", seed=1)
    with pytest.raises(ValueError):
        agent.select_move(breakthrough.new_initial_state())
    with pytest.raises(TypeError):
        agent.select_move(None)
    finished = tictactoe.new_initial_state()
    for text in ["4@rx0y0 5@rx0y0", "10@rx0y1 11@rx0y1", "4@rx1y0 5@rx1y0", "10@rx1y1 11@rx1y1"]:
        finished.apply(text)
    finished.apply("4@rx2y0 5@rx2y0")
    with pytest.raises(ValueError):
        agent.select_move(finished)
    with pytest.raises(ValueError):
        finished.apply("10@rx2y2 11@rx2y2")


def test_states_of_other_games_do_not_mix(tictactoe):
    # Two loads of one file are two games; an agent of one refuses the other's states.
    other = rbg.load(GAMES / "ticTacToe.rbg")
    agent = rbg.Agent(other, "random", seed=1)
    with pytest.raises(ValueError):
        agent.select_move(tictactoe.new_initial_state())
