"""The compiled engine (rbg.load(..., engine="compiled")): generates the game's reasoner crate and
builds it with cargo in this process, a minute or more, so it runs only with
RBG_PYTHON_COMPILED=1. The cache is $RBG_CACHE_DIR if set (run-tests.sh can point it at the
rbg binary's cache, whose dependencies are built), else a fresh temporary directory."""

import os
import pickle
import random

import pytest
import rbg
from conftest import corpus_game, reference_perft

if os.environ.get("RBG_PYTHON_COMPILED") != "1":
    pytest.skip("set RBG_PYTHON_COMPILED=1 to build and test a compiled reasoner", allow_module_level=True)


@pytest.fixture(scope="module")
def connect4_compiled(tmp_path_factory):
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RBG_CACHE_DIR", os.environ.get("RBG_CACHE_DIR") or str(tmp_path_factory.mktemp("rbg-cache")))
        return rbg.load(corpus_game("connect4"), engine="compiled")


def test_a_failed_build_raises_with_cargo_output(tmp_path):
    failing = tmp_path / "cargo"
    failing.write_text("#!/bin/sh\necho 'error: this cargo fails on purpose' >&2\nexit 101\n")
    failing.chmod(0o755)
    # A game text of its own: the cache cannot hold it already.
    game = tmp_path / "ticTacToe.rbg"
    game.write_text(corpus_game("ticTacToe").read_text() + f"\n// {tmp_path}\n")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CARGO", str(failing))
        env.setenv("RBG_CACHE_DIR", str(tmp_path / "cache"))
        with pytest.raises(RuntimeError, match="fails on purpose"):
            rbg.load(game, engine="compiled")


def test_errors_of_the_description_come_before_any_build(tmp_path):
    bad = tmp_path / "bad.rbg"
    bad.write_text("#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n#rules = ->a [zz]\n")
    with pytest.raises(rbg.ParseError) as caught:
        rbg.load(bad, engine="compiled")
    assert (caught.value.line, caught.value.column) == (5, 15)
    with pytest.raises(FileNotFoundError):
        rbg.load(tmp_path / "missing.rbg", engine="compiled")


def test_compiled_perft_matches_the_reference(connect4_compiled):
    assert connect4_compiled.engine == "compiled"
    reference = reference_perft("connect4")
    for depth in (1, 2, 3, 4, 5):
        assert connect4_compiled.perft(depth, threads=2) == reference[depth]


def test_compiled_and_interpreted_games_agree(connect4_compiled):
    interpreted = rbg.load(corpus_game("connect4"))
    rng = random.Random(3)
    for _ in range(20):
        a, b = connect4_compiled.new_initial_state(), interpreted.new_initial_state()
        while not a.is_terminal():
            moves = a.legal_moves()
            assert [m.actions for m in moves] == [m.actions for m in b.legal_moves()]
            move = rng.choice(moves)
            a.apply(move)
            b.apply(str(move))
        assert b.is_terminal() and a.scores() == b.scores()
        assert connect4_compiled.deserialize_state(a.serialize()) == a
        # A compiled game pickles as its library path and comes back as the same game.
        assert pickle.loads(pickle.dumps(a)) == a


def test_compiled_playouts_and_agents(connect4_compiled):
    assert connect4_compiled.random_playouts(100, threads=2).playouts == 100
    state = connect4_compiled.new_initial_state()
    move = rbg.Agent(connect4_compiled, "mcts:iterations=50", seed=1).select_move(state)
    assert move in state.legal_moves()
