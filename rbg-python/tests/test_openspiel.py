"""rbg.openspiel: RBG games as pyspiel games, one action per step of a move.

Skipped when open_spiel is not installed (run-tests.sh installs it only with RBG_OPENSPIEL=1).
"""

import pickle
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

import rbg  # noqa: E402
from conftest import GAMES, corpus_game, reference_perft  # noqa: E402
from rbg import openspiel  # noqa: E402


def count_moves(state, depth, mover=None):
    """Leaves of the move tree `depth` whole moves deep, walked step by step through pyspiel:
    a move is over when the player changes or the game ends (in these games a move never
    gives the turn back to its own player). With `mover`, the state is inside a move of that
    player, which is finished first."""
    if mover is None:
        if depth == 0 or state.is_terminal():
            return 1 if depth == 0 else 0
        mover = state.current_player()
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.current_player() == mover and not child.is_terminal():
            total += count_moves(child, depth, mover)
        else:
            total += count_moves(child, depth - 1)
    return total


def test_tictactoe_steps_give_the_move_tree():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    assert game.num_players() == 2
    # One action number per (modifier, vertex) pair.
    assert game.num_distinct_actions() == rbg.load(GAMES / "ticTacToe.rbg").modifiers * 9
    # As in test_game.py: 9, 72, 504 leaves at 1, 2, 3 moves.
    assert [count_moves(game.new_initial_state(), d) for d in (1, 2, 3)] == [9, 72, 504]


def test_breakthrough_steps_give_the_reference_move_tree():
    game = openspiel.load_game(corpus_game("breakthrough"))
    reference = reference_perft("breakthrough")
    assert count_moves(game.new_initial_state(), 2) == reference[2][0]


def test_registered_by_name():
    loaded = openspiel.load_game(GAMES / "ticTacToe.rbg")
    name = loaded.get_type().short_name
    assert name.startswith("rbg_ticTacToe_")
    game = pyspiel.load_game(name)
    assert game.get_type().short_name == name
    assert game.new_initial_state().current_player() == 0


def test_random_games_end_with_returns():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    rng = random.Random(1)
    for _ in range(50):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            state.apply_action(rng.choice(legal))
            steps += 1
        # Two steps per move, 5 to 9 moves; a win is (1, -1) or (-1, 1), a draw (0, 0).
        assert 10 <= steps <= 18
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert sum(state.returns()) == 0.0
        assert state.legal_actions() == []


def test_illegal_steps_raise():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = game.new_initial_state()
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(Exception):
        state.apply_action(illegal)
    assert set(state.legal_actions()) == legal


def test_observation_tensor():
    from open_spiel.python.observation import make_observation

    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    observation = make_observation(game)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[4])  # the first step of marking the centre
    observation.set_from(state, 0)
    # 3 pieces x 9 cells, 2 players, 2 variables (the scores), the rules position, 9 cells
    # of the current vertex and 9 of the move so far.
    assert observation.tensor.shape == (3 * 9 + 2 + 2 + 1 + 9 + 9,)
    assert observation.dict["player"].tolist() == [1, 0]
    # Both start at 50 of 100.
    assert observation.dict["variables"].tolist() == [0.5, 0.5]
    assert observation.dict["move_so_far"].tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 0]
    assert "move so far: 4@rx1y1" in observation.string_from(state, 0)


def test_openspiel_mcts_plays_legal_steps():
    from open_spiel.python.algorithms import mcts

    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bot = mcts.MCTSBot(game, 1.4, 50, evaluator)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0.0


# OpenSpiel's own random-simulation check (legal actions, apply, clone, returns, the game's
# declared sizes, and with serialize=True serialize_game_and_state and back, which pickles
# the states' Python attributes) on corpus games of every kind: placement, moves with
# captures, multi-step moves (amazons, draughts, paper soccer's bounces), asymmetric sides.
SIMULATED_GAMES = [
    "ticTacToe",
    "connect4",
    "breakthrough",
    "reversi",
    "hex_5x5",
    "amazons",
    "englishDraughts",
    "pentago",
    "foxAndHounds",
    "theMillGame",
    "knightthrough",
    "yavalath",
    "paperSoccer",
]


@pytest.mark.parametrize("name", SIMULATED_GAMES)
def test_openspiels_random_simulation_check(name):
    game = openspiel.load_game(corpus_game(name))
    # Paper soccer's board has 1147 vertices, which OpenSpiel's check draws and observes at
    # every step: one game is enough there.
    pyspiel.random_sim_test(game, num_sims=1 if name == "paperSoccer" else 2, serialize=True, verbose=False)


def test_paper_soccer_plays_step_by_step():
    """Whole random games of paper soccer through the adapter, ending in a win; the steps of
    each of a game's first moves, joined, are one of that state's legal moves. (Applying a
    move used to list legal moves until it turned up, which is hundreds of thousands of moves
    or more once the bounces chain: a regression shows as this test taking minutes.)"""
    game = openspiel.load_game(corpus_game("paperSoccer"))
    rng = random.Random(11)
    checked = 0
    for _ in range(5):
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            mover = state.current_player()
            before = state.rbg_state.clone()
            steps = []
            while not state.is_terminal() and state.current_player() == mover and (not steps or state.prefix):
                action = rng.choice(state.legal_actions())
                steps.append(openspiel.decode_step(game.rbg_game, action))
                state.apply_action(action)
            # The bounces multiply the moves as a game goes on (thousands by move 10, more
            # than a list may hold by move 20): the oracle lists only the first moves' states.
            if moves < 8:
                assert steps in [m.actions for m in before.legal_moves()]
                checked += 1
            moves += 1
        assert moves > 0
        assert sorted(state.returns()) == [-1.0, 1.0]
    assert checked >= 20


def spiel_state_after(game, steps, seed):
    """A state of the pyspiel `game` after `steps` random steps (fewer if the game ends)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_pickle_and_serialize_round_trips():
    game = openspiel.load_game(corpus_game("amazons"))
    # Amazons moves take three steps (queen, destination, arrow): 7 steps end inside a move.
    state = spiel_state_after(game, 7, seed=2)
    assert state.prefix
    for restored in (
        pickle.loads(pickle.dumps(state)),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
        game.deserialize_state(state.serialize()),
    ):
        assert type(restored) is type(state)
        assert str(restored) == str(state)
        assert restored.history() == state.history()
        assert restored.prefix == state.prefix
        assert restored.legal_actions() == state.legal_actions()
        assert restored.rbg_state == state.rbg_state
        # It plays on like the original.
        action = state.legal_actions()[-1]
        after, restored_after = state.clone(), restored.clone()
        after.apply_action(action)
        restored_after.apply_action(action)
        assert str(after) == str(restored_after)
    assert str(pickle.loads(pickle.dumps(game))) == str(game) == f"{game.get_type().short_name}()"
    assert str(game).startswith("rbg_amazons_")


def test_unpickling_in_a_fresh_process_registers_the_game(tmp_path):
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = spiel_state_after(game, 3, seed=5)  # cross's move, then nought's first step
    data = tmp_path / "state.pickle"
    data.write_bytes(pickle.dumps(state))
    script = (
        "import pickle, sys\n"
        "state = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(state.get_game(), state.history(), state.legal_actions())\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(data)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"{game} {state.history()} {state.legal_actions()}"


def test_corrupted_serialisations_raise():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = spiel_state_after(game, 3, seed=5)
    text = state.serialize()
    for bad in ["", "garbage", text[:-8], text.replace("history=", "history=x"), text + "!!"]:
        with pytest.raises(Exception):
            game.deserialize_state(bad)
    both = pyspiel.serialize_game_and_state(game, state)
    for bad in ["", "garbage", both[:-8]]:
        with pytest.raises(Exception):
            pyspiel.deserialize_game_and_state(bad)
    data = pickle.dumps(state)
    for bad in [data[:-1], data[: len(data) // 2]]:
        with pytest.raises(Exception):
            pickle.loads(bad)


def play_bots(game, bots):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


@pytest.mark.parametrize("name, games, least", [("ticTacToe", 10, 8), ("connect4", 6, 5)])
def test_openspiels_mcts_bot_beats_its_random_bot(name, games, least):
    """OpenSpiel's MCTS (200 simulations, random rollouts) against its uniform random bot,
    seats alternating, fixed seeds: it wins at least `least` of `games` (with these seeds it
    won every game when this was written; the margin allows for other OpenSpiel versions)."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    game = openspiel.load_game(corpus_game(name))
    wins = 0
    for i in range(games):
        rng = np.random.RandomState(i)
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        searcher = mcts.MCTSBot(game, 2.0, 200, evaluator, random_state=rng)
        seat = i % 2
        random_bot = uniform_random.UniformRandomBot(1 - seat, rng)
        bots = [searcher, random_bot] if seat == 0 else [random_bot, searcher]
        wins += play_bots(game, bots)[seat] > 0
    assert wins >= least, f"{wins} wins of {games}"
