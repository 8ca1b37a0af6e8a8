"""States: moves, turns, scores, serialisation, the board picture and tensor."""

import copy
import pickle
import random
import shutil
import subprocess
import sys

import pytest
import rbg
from conftest import GAMES, corpus_game


def play(state, texts):
    for text in texts:
        state.apply(text)
    return state


def test_initial_state(tictactoe):
    state = tictactoe.new_initial_state()
    assert state.current_player() == 0
    assert not state.is_terminal()
    assert state.scores() == [50, 50]
    assert state.returns() == [0.0, 0.0]
    moves = state.legal_moves()
    assert len(moves) == 9
    # Each move marks one cell: the piece change (4) and the switch to nought (5) on that cell.
    assert moves[0].actions == [(4, 0), (5, 0)]
    assert str(moves[0]) == "4@rx0y0 5@rx0y0"
    assert len(set(moves)) == 9


def test_a_won_game_ends_with_returns(tictactoe):
    # Cross takes the top row (cells 0, 1, 2) while nought plays 3 and 4.
    state = tictactoe.new_initial_state()
    cross = lambda v: f"4@{tictactoe.vertices[v]} 5@{tictactoe.vertices[v]}"
    nought = lambda v: f"10@{tictactoe.vertices[v]} 11@{tictactoe.vertices[v]}"
    play(state, [cross(0), nought(3), cross(1), nought(4)])
    assert state.current_player() == 0
    state.apply(cross(2))
    assert state.is_terminal()
    assert state.current_player() == rbg.TERMINAL == -4
    assert state.legal_moves() == []
    assert state.scores() == [100, 0]
    assert state.returns() == [1.0, -1.0]
    assert "game over" in str(state)


def test_moves_given_as_text_pairs_or_move_agree(tictactoe):
    by_move = tictactoe.new_initial_state()
    by_move.apply(by_move.legal_moves()[4])
    by_text = tictactoe.new_initial_state()
    by_text.apply("4@rx1y1 5@rx1y1")
    by_pairs = tictactoe.new_initial_state()
    by_pairs.apply([(4, 4), (5, 4)])
    assert by_move == by_text == by_pairs
    assert by_move.current_player() == 1
    assert by_move.board()[4] == "X"


def test_an_illegal_move_raises_and_changes_nothing(tictactoe):
    state = tictactoe.new_initial_state()
    state.apply("4@rx1y1 5@rx1y1")
    before = state.serialize()
    before_moves = state.legal_moves()
    for illegal in [
        "10@rx1y1 11@rx1y1",  # the centre is taken
        "4@rx0y0 5@rx0y0",  # cross's move, but nought is to move
        "10@rx0y0",  # a prefix, not a whole move
        [(10, 0), (11, 0), (11, 0)],  # a legal move with an action too many
    ]:
        with pytest.raises(ValueError):
            state.apply(illegal)
        assert state.serialize() == before
        assert state.legal_moves() == before_moves
        assert state.current_player() == 1


def test_clone_is_independent(tictactoe):
    state = tictactoe.new_initial_state()
    other = state.clone()
    other.apply(other.legal_moves()[0])
    assert state.current_player() == 0 and other.current_player() == 1
    assert len(state.legal_moves()) == 9 and len(other.legal_moves()) == 8
    assert copy.deepcopy(other) == other and copy.copy(state) == state


def test_serialize_round_trip(breakthrough):
    state = breakthrough.new_initial_state()
    for _ in range(6):
        state.apply(state.legal_moves()[-1])
    data = state.serialize()
    assert isinstance(data, bytes)
    restored = breakthrough.deserialize_state(data)
    assert restored == state
    assert restored.legal_moves() == state.legal_moves()
    assert str(restored) == str(state)
    # Another load of the same file reads the bytes too.
    reloaded = rbg.load(corpus_game("breakthrough")).deserialize_state(data)
    assert reloaded.legal_moves() == state.legal_moves()
    # The restored state plays on like the original.
    for s in (state, restored):
        s.apply(s.legal_moves()[0])
    assert restored == state


def test_next_actions_walk_a_move_step_by_step(breakthrough):
    state = breakthrough.new_initial_state()
    moves = state.legal_moves()
    # Every legal move is reached by taking next actions one by one, and nothing else is.
    reached = []

    def walk(prefix):
        steps = state.next_actions(prefix)
        if not steps:
            reached.append(prefix)
        for step in steps:
            walk(prefix + [step])

    walk([])
    assert sorted(reached) == sorted(m.actions for m in moves)
    assert state.next_actions(moves[0].actions) == []
    assert state.next_actions([(10**9, 10**9)]) == []


def test_board_tensor_has_a_plane_per_piece(tictactoe):
    state = tictactoe.new_initial_state()
    state.apply("4@rx2y0 5@rx2y0")
    tensor = state.board_tensor()
    assert len(tensor) == 3 and all(len(plane) == 9 for plane in tensor)
    x, free = tictactoe.pieces.index("X"), tictactoe.pieces.index("free")
    assert tensor[x] == [0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert sum(tensor[free]) == 8
    # One piece per vertex.
    assert [sum(column) for column in zip(*tensor)] == [1] * 9


def test_str_draws_the_board(tictactoe):
    state = tictactoe.new_initial_state()
    state.apply("4@rx2y0 5@rx2y0")
    lines = str(state).splitlines()
    assert lines[0] == "nought to move"
    # Under the files a-c, the top row (rank 3) holds the X in its third column; the other
    # rows are empty.
    assert lines[1].split() == ["a", "b", "c"]
    assert lines[2].split() == ["3", ".", ".", "X"]
    assert lines[3].split() == ["2", ".", ".", "."]


def test_variables_by_name(tictactoe):
    state = tictactoe.new_initial_state()
    assert state.variable("cross") == 50
    with pytest.raises(ValueError):
        state.variable("nobody")


def played(game, plies, pick=-1):
    """A state of `game` after `plies` moves, each the `pick`-th legal move."""
    state = game.new_initial_state()
    for _ in range(plies):
        state.apply(state.legal_moves()[pick])
    return state


def test_pickle_round_trip_in_this_process(tmp_path):
    # A game file of its own: unpickling returns the first live load of a text, and other
    # tests load the corpus breakthrough too.
    path = tmp_path / "breakthrough.rbg"
    shutil.copyfile(corpus_game("breakthrough"), path)
    breakthrough = rbg.load(path)
    assert rbg.load(path) is not breakthrough  # a second load is another game...
    state = played(breakthrough, 6)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        restored = pickle.loads(pickle.dumps(state, protocol))
        # Unpickling finds the live game of the same text: the same Game object, so the
        # states compare equal and work with each other's game and agents.
        assert restored.game is breakthrough
        assert restored == state
        assert restored.serialize() == state.serialize()
        assert restored.legal_moves() == state.legal_moves()
        # ...but unpickling comes back to the first.
        assert pickle.loads(pickle.dumps(breakthrough, protocol)) is breakthrough
    # One pickle of several states holds their game once and gives them one game back.
    states = [played(breakthrough, n) for n in (0, 1, 2)]
    restored = pickle.loads(pickle.dumps(states))
    assert all(r.game is breakthrough for r in restored) and restored == states
    # The restored state plays on like the original.
    restored = pickle.loads(pickle.dumps(state))
    for s in (state, restored):
        s.apply(s.legal_moves()[0])
    assert restored == state


def test_unpickling_in_a_fresh_process_needs_no_file(tmp_path):
    # The game is pickled with its text: another process rebuilds it though the file is gone.
    path = tmp_path / "ttt.rbg"
    shutil.copyfile(GAMES / "ticTacToe.rbg", path)
    game = rbg.load(path)
    state = game.new_initial_state()
    state.apply("4@rx1y1 5@rx1y1")
    data = tmp_path / "state.pickle"
    data.write_bytes(pickle.dumps(state))
    path.unlink()
    script = (
        "import pickle, sys\n"
        "state = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(state.game.name, state.current_player(), state.serialize().hex())\n"
        "print(' | '.join(str(m) for m in state.legal_moves()))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(data)], capture_output=True, text=True, check=True)
    name_line, moves_line = done.stdout.splitlines()
    # Nought is to move after cross took the centre: 8 moves, one per free cell.
    assert name_line == f"ttt 1 {state.serialize().hex()}"
    assert moves_line.split(" | ") == [str(m) for m in state.legal_moves()]
    assert len(moves_line.split(" | ")) == 8


def test_corrupted_pickles_raise(tictactoe, breakthrough):
    state = played(tictactoe, 2)
    data = pickle.dumps(state)
    for bad in [data[:-1], data[: len(data) // 2], b"", b"\x80\x04junk"]:
        with pytest.raises(Exception):
            pickle.loads(bad)
    # Every flipped bit gives an exception or a state (a flip inside a comment of the game
    # text still parses); never a crash.
    for i in range(len(data)):
        flipped = bytearray(data)
        flipped[i] ^= 0x10
        try:
            assert isinstance(pickle.loads(bytes(flipped)), rbg.State)
        except Exception:
            pass
    # What a pickle holds, corrupted by hand.
    good = state.serialize()
    _, (engine, path, text) = tictactoe.__reduce__()
    with pytest.raises(ValueError):
        rbg._restore_state(tictactoe, good[:-1])
    with pytest.raises(ValueError):
        rbg._restore_state(breakthrough, good)
    with pytest.raises(TypeError):
        rbg._restore_state("tictactoe", good)
    with pytest.raises(ValueError):
        rbg._restore_game("quantum", path, text)
    with pytest.raises(rbg.ParseError):
        rbg._restore_game(engine, path, text[: len(text) // 2] + b"(((")
    with pytest.raises(TypeError):
        rbg._restore_game(engine, path, text.decode())
    with pytest.raises(TypeError):
        rbg._restore_game(engine, None, text)
    with pytest.raises(OSError):
        rbg._restore_game("compiled", path + ".missing.so", b"")


@pytest.mark.parametrize("name", ["paperSoccer", "amazons", "englishDraughts", "theMillGame", "breakthrough"])
def test_apply_accepts_exactly_the_legal_moves(name):
    """`apply` on a state that has not listed its moves checks a move by one search along it;
    the oracle here is the full list of legal moves. Candidates: legal moves and near misses
    (one action short or too many, one action's vertex or index changed)."""
    game = rbg.load(corpus_game(name))
    rng = random.Random(4)
    state = game.new_initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        # Listed on a copy, so that `state` itself keeps no list for `apply` to look in.
        legal = {tuple(m.actions) for m in state.clone().legal_moves()}
        candidates = set()
        for move in rng.sample(sorted(legal), min(20, len(legal))):
            candidates.update([move, move[:-1], move + move[-1:]])
            for i, (index, vertex) in enumerate(move):
                for changed in [(index, (vertex + 1) % len(game.vertices)), (index % game.modifiers + 1, vertex)]:
                    candidates.add(move[:i] + (changed,) + move[i + 1 :])
        accepted = rejected = 0
        for candidate in candidates:
            fresh = game.deserialize_state(state.serialize())
            if candidate in legal:
                fresh.apply(list(candidate))
                accepted += 1
            else:
                with pytest.raises(ValueError):
                    fresh.apply(list(candidate))
                assert fresh == state
                rejected += 1
        assert accepted and rejected
        state.apply(list(rng.choice(sorted(legal))))
