"""Loading games, their description, perft and random playouts."""

from pathlib import Path

import pytest
import rbg
from conftest import GAMES, corpus_game, reference_perft


def test_tictactoe_description(tictactoe):
    # games/ticTacToe.rbg: players cross then nought, pieces free/X/O (sorted by name), a 3x3
    # rectangle whose vertices are named rx{x}y{y} in row-major order.
    assert tictactoe.players == ["cross", "nought"]
    assert tictactoe.pieces == ["O", "X", "free"]
    assert len(tictactoe.vertices) == 9
    assert tictactoe.vertices[0] == "rx0y0" and tictactoe.vertices[5] == "rx2y1"
    assert tictactoe.positions[5] == (2.0, 1.0)
    assert tictactoe.labels == ["e", "n", "s", "w"]
    # Each cell has an edge per neighbour: 4 corners x 2 + 4 sides x 3 + centre 4 = 24.
    assert len(tictactoe.edges) == 24
    assert (4, tictactoe.labels.index("n"), 1) in tictactoe.edges
    assert tictactoe.engine == "interpreter" and tictactoe.name == "ticTacToe"


def test_tictactoe_perft(tictactoe):
    # No line of three exists before cross's third mark (ply 5), so the first four plies are
    # unconstrained: 9, 9*8 = 72, 72*7 = 504, 504*6 = 3024 leaves. Nodes add the root and the
    # leaves of every shallower depth: 1 + 9 = 10, 10 + 72 = 82, 82 + 504 = 586, 586 + 3024 = 3610.
    expected = {1: (9, 10), 2: (72, 82), 3: (504, 586), 4: (3024, 3610)}
    for depth, counts in expected.items():
        assert tictactoe.perft(depth) == counts
        assert tictactoe.perft(depth, threads=2) == counts


def test_breakthrough_perft_matches_the_reference(breakthrough):
    reference = reference_perft("breakthrough")
    for depth in (1, 2, 3, 4):
        assert breakthrough.perft(depth) == reference[depth], depth


def test_connect4_perft_matches_the_reference():
    game = rbg.load(corpus_game("connect4"))
    reference = reference_perft("connect4")
    for depth in (1, 2, 3, 4, 5):
        assert game.perft(depth) == reference[depth], depth


def test_sbg_files_are_translated():
    # games/sbg/breakthrough5.sbg is breakthrough on 5x5, the corpus's breakthrough_5x5.
    game = rbg.load(GAMES / "sbg" / "breakthrough5.sbg")
    reference = reference_perft("breakthrough_5x5")
    for depth in (1, 2, 3):
        assert game.perft(depth) == reference[depth], depth


def test_a_parse_error_names_file_line_and_column(tmp_path: Path):
    bad = tmp_path / "bad.rbg"
    # Line 4: the cells of a board line need commas; "#board = rectangle(up,down,left,right,[e"
    # is 40 characters, then a space, so the second "e" is at column 42.
    bad.write_text(
        "#players = a(1), b(1)\n#pieces = e\n#variables =\n"
        "#board = rectangle(up,down,left,right,[e e])\n#rules = ->a ->b\n"
    )
    with pytest.raises(rbg.ParseError) as error:
        rbg.load(bad)
    assert f"{bad}:4:42: error:" in str(error.value)
    assert isinstance(error.value, ValueError)


def test_an_sbg_parse_error_points_at_the_sbg_source(tmp_path: Path):
    bad = tmp_path / "bad.sbg"
    # "<BOARD> 2 x": the height "x" is the 11th character of line 2.
    bad.write_text("<<Bad>>\n<BOARD> 2 x\n")
    with pytest.raises(rbg.ParseError, match=rf"{bad}:2:11: error:"):
        rbg.load(bad)


def test_random_playouts_count_and_split_over_threads(tictactoe):
    for threads in (1, 2, 3):
        stats = tictactoe.random_playouts(1000, threads=threads, seed=7)
        assert stats.playouts == 1000
        assert stats.threads == threads
        # A game lasts 5 to 9 plies; every ending scores 100 in all (100/0 or 50/50).
        assert 5 * 1000 <= stats.plies <= 9 * 1000
        assert sum(stats.score_sums) == 100 * 1000
        assert stats.seconds > 0 and stats.playouts_per_second > 0


def test_random_playouts_are_reproducible(breakthrough):
    first = breakthrough.random_playouts(200, threads=2, seed=3)
    again = breakthrough.random_playouts(200, threads=2, seed=3)
    other = breakthrough.random_playouts(200, threads=2, seed=4)
    assert (first.plies, first.score_sums) == (again.plies, again.score_sums)
    assert first.plies != other.plies


def test_random_playouts_for_a_time():
    game = rbg.load(corpus_game("connect4"))
    stats = game.random_playouts(seconds=0.2, threads=2)
    assert stats.playouts > 0 and 0.2 <= stats.seconds < 5


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="unknown engine"):
        rbg.load(GAMES / "ticTacToe.rbg", engine="quantum")


def test_the_compiled_engine_reports_description_errors_before_building(tmp_path: Path):
    broken = tmp_path / "broken.rbg"
    broken.write_text("#players = a(1)\n")  # no other section
    with pytest.raises(rbg.ParseError, match="broken.rbg"):
        rbg.load(broken, engine="compiled")
