"""rbg.load's errors and warnings: a missing file is FileNotFoundError with errno and the path;
ParseError carries the first error's path, line and column; warnings of a valid game reach
Python's warnings machinery as rbg.ParseWarning with their place."""

import errno
import warnings

import pytest
import rbg
from conftest import GAMES

# Line 5 is `#rules = ->a [zz]`: the undeclared piece `zz` starts at column 15.
UNDECLARED = "#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n#rules = ->a [zz]\n"


def test_a_missing_file_is_file_not_found_with_its_path(tmp_path):
    missing = tmp_path / "no-such-game.rbg"
    with pytest.raises(FileNotFoundError) as caught:
        rbg.load(missing)
    assert caught.value.errno == errno.ENOENT
    assert caught.value.filename == str(missing)
    assert caught.value.strerror and "os error" not in caught.value.strerror


def test_parse_errors_carry_their_place(tmp_path):
    bad = tmp_path / "bad.rbg"
    bad.write_text(UNDECLARED)
    with pytest.raises(rbg.ParseError) as caught:
        rbg.load(bad)
    error = caught.value
    assert (error.path, error.line, error.column) == (str(bad), 5, 15)
    assert str(error).startswith(f"{bad}:5:15: error: ")
    assert isinstance(error, ValueError)


def test_an_sbg_error_points_into_the_sbg_file(tmp_path):
    text = (GAMES / "sbg" / "duel.sbg").read_text()
    broken = tmp_path / "duel.sbg"
    # The header's closing >> is lost: an error on the line of the header.
    header_line = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("<<"))
    broken.write_text(text.replace(">>", "", 1))
    with pytest.raises(rbg.ParseError) as caught:
        rbg.load(broken)
    assert caught.value.path == str(broken)
    assert caught.value.line is not None and caught.value.line >= header_line


def test_warnings_are_issued_with_their_place(tmp_path):
    text = (GAMES / "ticTacToe.rbg").read_text()
    stray_line = text.count("\n") + 2
    warned = tmp_path / "warned.rbg"
    warned.write_text(text + "\n`\n")
    with pytest.warns(rbg.ParseWarning) as caught:
        game = rbg.load(warned)
    assert [str(w.message) for w in caught] == [f"{warned}:{stray_line}:1: warning: Stray '`' character in file"]
    assert issubclass(rbg.ParseWarning, UserWarning)
    assert game.perft(2) == (72, 82)


def test_a_warnings_filter_can_make_them_errors(tmp_path):
    warned = tmp_path / "warned.rbg"
    warned.write_text((GAMES / "ticTacToe.rbg").read_text() + "\n`\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", rbg.ParseWarning)
        with pytest.raises(rbg.ParseWarning):
            rbg.load(warned)


def test_a_valid_game_loads_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game = rbg.load(GAMES / "ticTacToe.rbg")
    assert game.name == "ticTacToe"
