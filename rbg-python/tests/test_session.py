"""rbg.Session: checked play with undo and redo, step-by-step moves, the bounded history, the
result, the log record and the text picture, on tic-tac-toe (cross's moves are `4@cell 5@cell`,
nought's `10@cell 11@cell`; cells are rx{column}y{row}, row 0 at the top)."""

import pytest

import rbg


def cross(cell):
    return f"4@{cell} 5@{cell}"


def nought(cell):
    return f"10@{cell} 11@{cell}"


def test_play_undo_redo_and_the_history(tictactoe):
    session = rbg.Session(tictactoe)
    start = session.state()
    assert len(session) == 0 and session.current_player() == 0
    session.play(cross("rx1y1"))
    after_one = session.state()
    session.play(nought("rx0y0"))
    assert [str(m) for m in session.history()] == [cross("rx1y1"), nought("rx0y0")]
    session.undo()
    assert session.state() == after_one
    assert [str(m) for m in session.redoable()] == [nought("rx0y0")]
    session.undo()
    assert session.state() == start
    with pytest.raises(ValueError, match="nothing to undo"):
        session.undo()
    session.redo()
    assert session.state() == after_one
    # A new move drops the undone one.
    session.play(nought("rx2y2"))
    assert session.redoable() == []
    with pytest.raises(ValueError, match="nothing to redo"):
        session.redo()
    assert len(session) == 2


def test_an_illegal_move_raises_and_changes_nothing(tictactoe):
    session = rbg.Session(tictactoe)
    session.play(cross("rx1y1"))
    before = session.state()
    for illegal in [cross("rx0y0"), nought("rx1y1"), "10@rx0y0", [(10, 0), (11, 0), (11, 0)]]:
        with pytest.raises(ValueError):
            session.play(illegal)
        assert session.state() == before
        assert len(session) == 1
    # The message says how many moves nought had: the 8 free cells.
    with pytest.raises(ValueError, match="8 legal moves of player 2"):
        session.play(nought("rx1y1"))


def test_a_move_built_step_by_step(tictactoe):
    session = rbg.Session(tictactoe)
    # Nine cells, one first action each.
    first = session.next_actions()
    assert len(first) == 9 and all(index == 4 for index, _ in first)
    centre = (4, 4)
    session.step(centre)
    assert session.partial == [centre]
    assert session.next_actions() == [(5, 4)]
    with pytest.raises(ValueError, match="cannot follow"):
        session.step((5, 0))
    assert session.partial == [centre]
    session.step((5, 4))
    assert session.partial == []
    assert [str(m) for m in session.history()] == [cross("rx1y1")]
    # Undo first drops a partial move, then the move.
    session.step((10, 0))
    session.undo()
    assert session.partial == [] and len(session) == 1
    assert session.clear_partial() is False


def test_the_history_is_bounded(tictactoe):
    session = rbg.Session(tictactoe, max_history=1)
    session.play(cross("rx1y1"))
    with pytest.raises(ValueError, match="history is full"):
        session.play(nought("rx0y0"))
    session.undo()
    session.play(cross("rx0y0"))
    assert len(session) == 1


def test_a_win_the_result_and_the_log(tictactoe):
    session = rbg.Session(tictactoe)
    for move in [cross("rx0y0"), nought("rx0y1"), cross("rx1y0"), nought("rx1y1")]:
        session.play(move)
        assert not session.is_terminal() and session.outcomes() is None
    session.play(cross("rx2y0"))
    # The top row is cross's: by the game's rules the winner gets 100 and the loser 0.
    assert session.is_terminal()
    assert session.current_player() == rbg.TERMINAL
    assert session.scores() == [100, 0]
    assert session.outcomes() == ["win", "loss"]
    with pytest.raises(ValueError, match="game is over"):
        session.play(nought("rx2y2"))
    log = session.log(file="ticTacToe.rbg", agents=["human", "human"])
    assert log == {
        "game": tictactoe.name,
        "file": "ticTacToe.rbg",
        "index": 0,
        "seed": 0,
        "agents": ["human", "human"],
        "players": ["cross", "nought"],
        "moves": [cross("rx0y0"), nought("rx0y1"), cross("rx1y0"), nought("rx1y1"), cross("rx2y0")],
        "scores": [100, 0],
        "termination": "finished",
        "result": ["win", "loss"],
        "error": None,
        "engine": None,
        "notation": None,
    }
    session.undo()
    assert session.log()["termination"] == "unfinished"
    assert session.log()["result"] is None


def test_the_text_picture(tictactoe):
    session = rbg.Session(tictactoe)
    for move in [cross("rx1y1"), nought("rx0y0"), cross("rx2y0")]:
        session.play(move)
    # Files a-c from the left, rank 3 at the top; free cells are dots.
    expected = "nought to move\n   a b c\n3  O . X\n2  . X .\n1  . . .\nscores: cross=50 nought=50\n"
    assert str(session) == expected
    assert str(session.state()) == expected
