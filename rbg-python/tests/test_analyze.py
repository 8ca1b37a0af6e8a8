"""rbg.analyze: a game measured by self-play, returned as a table (a list of dicts)."""

import pytest

import rbg
from conftest import GAMES


def table(rows):
    return {row["measure"]: row for row in rows}


def test_tic_tac_toe_under_alpha_beta_is_all_draws_as_a_table():
    game = rbg.load(str(GAMES / "ticTacToe.rbg"))
    rows = rbg.analyze(game, agents="alphabeta:depth=9", games=4, samples=0, threads=2)
    assert all(set(r) == {"measure", "value", "low", "high", "n"} for r in rows)
    t = table(rows)
    # Perfect play draws tic-tac-toe, after 9 moves that fill the board.
    assert t["draws"]["value"] == 1.0 and t["draws"]["n"] == 4
    assert t["completion"]["value"] == 1.0
    assert t["win rate: cross"]["value"] == 0.0 and t["win rate: cross"]["low"] == 0.0
    assert t["duration: mean plies"]["value"] == 9.0
    assert t["coverage"]["value"] == 1.0
    # Both players given, the same agent: the same numbers; a table converts to columns.
    again = rbg.analyze(game, agents=["alphabeta:depth=9"] * 2, games=4, samples=0, threads=1)
    assert again == rows
    columns = {key: [r[key] for r in rows] for key in rows[0]}
    assert len(columns["measure"]) == len(rows)


def test_bad_arguments_raise_value_error_naming_them():
    game = rbg.load(str(GAMES / "ticTacToe.rbg"))
    with pytest.raises(ValueError, match="agents"):
        rbg.analyze(game, agents="bogus", games=1)
    with pytest.raises(ValueError, match="agents"):
        rbg.analyze(game, agents=["random"] * 3, games=1)
    with pytest.raises(ValueError, match="evaluator"):
        rbg.analyze(game, agents="random", games=1, evaluator="random")
    with pytest.raises(ValueError, match="threads"):
        rbg.analyze(game, agents="random", games=1, threads=0)
    with pytest.raises(OverflowError):
        rbg.analyze(game, games=-1)
