"""rbg.openspiel as a user meets it: observations that tell states apart, clones with their
history, one registration per game text and arguments, declared utilities (alpha-beta), and
the edges of the State API. Skipped without open_spiel (run-tests.sh with RBG_OPENSPIEL=1)."""

import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel")

import rbg  # noqa: E402
from conftest import GAMES  # noqa: E402
from rbg import openspiel  # noqa: E402

# The phase of this game lives in a variable: player a's first move sets `phase` to 1 and
# changes nothing on the board; b answers by passing (its move is the switch alone); then a,
# at the same place in the rules, on the same board, may only place a piece.
PHASE_IN_A_VARIABLE = """
#players = a(1), b(1)
#pieces = e, p
#variables = phase(1)
#board = rectangle(up, down, left, right, [e])
#rules = ( ->a ( {$ phase == 0} [$ phase = 1] + {$ phase == 1} {e} [p] ) ->b )*
"""

# Here the phase is a place in the rules: a passes, b passes, then a may only place a piece.
PHASE_IN_THE_RULES = """
#players = a(1), b(1)
#pieces = e, p
#variables =
#board = rectangle(up, down, left, right, [e])
#rules = ->a ->b ->a {e} [p] ->b
"""


def spiel_game(tmp_path, name, text, **arguments):
    path = tmp_path / f"{name}.rbg"
    path.write_text(text)
    return openspiel.load_game(path, **arguments)


def play_whole_moves(state, moves):
    """Plays `moves` whole moves of the player to move, each its first legal step and then the
    first of each following step until the player changes."""
    for _ in range(moves):
        mover = state.current_player()
        state.apply_action(state.legal_actions()[0])
        while not state.is_terminal() and state.current_player() == mover and state.prefix:
            state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize("name, text", [("phaseVariable", PHASE_IN_A_VARIABLE), ("phaseRules", PHASE_IN_THE_RULES)])
def test_observations_tell_apart_states_with_different_legal_actions(tmp_path, name, text):
    game = spiel_game(tmp_path, name, text)
    first = game.new_initial_state()
    later = first.clone()
    play_whole_moves(later, 2)
    # Same player to move on the same board, with different legal actions.
    assert first.current_player() == later.current_player() == 0
    assert first.rbg_state.board() == later.rbg_state.board() == ["e"]
    assert first.legal_actions() != later.legal_actions()
    # The observation tensor's board and player parts alone are the same; the whole differs.
    from open_spiel.python.observation import make_observation

    observation = make_observation(game)
    observation.set_from(first, 0)
    first_parts = {k: v.copy() for k, v in observation.dict.items()}
    first_tensor = observation.tensor.copy()
    observation.set_from(later, 0)
    assert (first_parts["board"] == observation.dict["board"]).all()
    assert (first_parts["player"] == observation.dict["player"]).all()
    assert (first_tensor != observation.tensor).any()
    assert first.observation_tensor(0) != later.observation_tensor(0)
    assert first.observation_string(0) != later.observation_string(0)
    assert first.information_state_string(0) != later.information_state_string(0)


def test_the_variables_are_in_the_observation(tmp_path):
    game = spiel_game(tmp_path, "phaseVariable", PHASE_IN_A_VARIABLE)
    state = game.new_initial_state()
    play_whole_moves(state, 1)
    from open_spiel.python.observation import make_observation

    observation = make_observation(game)
    observation.set_from(state, 0)
    # Variables a, b (the scores, bound 1) and phase (bound 1), now 1.
    assert game.rbg_game.variables == ["a", "b", "phase"]
    assert observation.dict["variables"].tolist() == [0.0, 0.0, 1.0]
    assert "phase=1" in state.observation_string(0)


def test_the_information_state_string_holds_the_history():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = game.new_initial_state()
    play_whole_moves(state, 2)
    text = state.information_state_string(0)
    assert text.endswith("history: " + " ".join(map(str, state.history())) + "\n")
    assert len(state.history()) == 4
    # The observation string is the state's text, without the history.
    assert "history" not in state.observation_string(0)
    assert state.observation_string(0) == str(state)


def test_clone_keeps_the_history_and_move_number():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = game.new_initial_state()
    play_whole_moves(state, 2)
    state.apply_action(state.legal_actions()[0])  # inside cross's second move
    copy = state.clone()
    assert len(state.history()) == 5
    assert copy.history() == state.history()
    assert copy.move_number() == state.move_number() == 5
    assert copy.prefix == state.prefix and copy.rbg_state == state.rbg_state
    # Independent: playing on in the copy changes neither the original's history nor state.
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == 6 and len(state.history()) == 5
    assert copy.rbg_state != state.rbg_state


TICTACTOE = (GAMES / "ticTacToe.rbg").read_text()
# Tic-tac-toe with a fourth column: 12 cells, so 12 vertices per modifier in the actions.
WIDE_TICTACTOE = TICTACTOE.replace("[free, free, free]", "[free, free, free, free]")


def test_a_file_of_the_same_stem_elsewhere_is_another_game(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    narrow = spiel_game(tmp_path / "a", "ticTacToe", TICTACTOE)
    wide = spiel_game(tmp_path / "b", "ticTacToe", WIDE_TICTACTOE)
    modifiers = narrow.rbg_game.modifiers
    assert narrow.num_distinct_actions() == modifiers * 9
    assert wide.num_distinct_actions() == modifiers * 12
    assert narrow.get_type().short_name != wide.get_type().short_name
    # Both names stay loadable by pyspiel, each giving its own game.
    assert pyspiel.load_game(wide.get_type().short_name).num_distinct_actions() == modifiers * 12
    assert pyspiel.load_game(narrow.get_type().short_name).num_distinct_actions() == modifiers * 9


def test_an_edited_file_is_loaded_again(tmp_path):
    first = spiel_game(tmp_path, "edited", TICTACTOE)
    edited = spiel_game(tmp_path, "edited", WIDE_TICTACTOE)
    assert first.num_distinct_actions() == first.rbg_game.modifiers * 9
    assert edited.num_distinct_actions() == edited.rbg_game.modifiers * 12
    # The same text again is the same registration.
    again = spiel_game(tmp_path, "edited", WIDE_TICTACTOE)
    assert again.get_type().short_name == edited.get_type().short_name


def test_other_arguments_are_another_game():
    default = openspiel.load_game(GAMES / "ticTacToe.rbg")
    short = openspiel.load_game(GAMES / "ticTacToe.rbg", max_game_length=40)
    general = openspiel.load_game(GAMES / "ticTacToe.rbg", utility="general_sum")
    zero_sum = openspiel.load_game(GAMES / "ticTacToe.rbg", utility="zero_sum")
    assert default.max_game_length() == openspiel.DEFAULT_MAX_GAME_LENGTH
    assert short.max_game_length() == 40
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # Tic-tac-toe is proved zero-sum (tests/test_utility.py): the default is that.
    assert default.get_type().utility == zero_sum.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert default.get_type().short_name == zero_sum.get_type().short_name
    names = {g.get_type().short_name for g in (default, short, general)}
    assert len(names) == 3
    assert all(name.startswith("rbg_ticTacToe_") for name in names)
    # Pickles keep the arguments.
    restored = pickle.loads(pickle.dumps(zero_sum))
    assert restored.get_type().short_name == zero_sum.get_type().short_name
    assert restored.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    for bad in ({"utility": "zero-sum"}, {"max_game_length": 0}):
        with pytest.raises(ValueError):
            openspiel.load_game(GAMES / "ticTacToe.rbg", **bad)


class CompiledStandIn:
    """What `registration_name` reads of a compiled game (`rbg.load(..., engine="compiled")`
    gives a game whose pickle holds its engine and library path, with no text), without
    building the library, which takes minutes (tests/test_compiled.py builds one)."""

    def __init__(self, name, library):
        self.name = name
        self.library = library

    def __reduce__(self):
        return rbg._restore_game, ("compiled", self.library, b"")


def test_a_compiled_load_after_an_interpreter_load_is_another_game(tmp_path):
    interpreted = rbg.load(GAMES / "ticTacToe.rbg")
    library = str(tmp_path / "ticTacToe-0123456789abcdef" / "reasoner-0123456789abcdef.so")
    compiled = CompiledStandIn("ticTacToe", library)
    other_build = CompiledStandIn("ticTacToe", library.replace("0123456789abcdef", "fedcba9876543210"))
    names = {
        openspiel.registration_name(game, openspiel.DEFAULT_MAX_GAME_LENGTH, "general_sum")
        for game in (interpreted, compiled, other_build)
    }
    assert len(names) == 3
    # And the name is a function of the game and arguments only.
    assert openspiel.registration_name(
        interpreted, openspiel.DEFAULT_MAX_GAME_LENGTH, "general_sum"
    ) == openspiel.registration_name(rbg.load(GAMES / "ticTacToe.rbg"), openspiel.DEFAULT_MAX_GAME_LENGTH, "general_sum")


def tictactoe_after(game, cells):
    """The pyspiel tic-tac-toe state after marks on `cells` (vertex numbers), in turn."""
    state = game.new_initial_state()
    for cell in cells:
        mark = next(a for a in state.legal_actions() if openspiel.decode_step(game.rbg_game, a)[1] == cell)
        state.apply_action(mark)
        (switch,) = state.legal_actions()
        state.apply_action(switch)
    return state


def test_alpha_beta_runs_on_a_game_declared_zero_sum():
    from open_spiel.python.algorithms import minimax

    general = openspiel.load_game(GAMES / "ticTacToe.rbg", utility="general_sum")
    zero_sum = openspiel.load_game(GAMES / "ticTacToe.rbg", utility="zero_sum")
    # Cross holds cells 0 and 1 (the top row's left), nought 3 and 4: cross to move wins by
    # marking cell 2, so the value for cross is 1.
    # OpenSpiel refuses a general-sum game: ValueError("The game must be 0-sum, ..."), or in
    # open_spiel 2.0.2 an AttributeError from formatting that message (it reads
    # `game.utility`, which pyspiel games do not have).
    with pytest.raises((ValueError, AttributeError), match="0-sum|utility"):
        minimax.alpha_beta_search(general, tictactoe_after(general, [0, 3, 1, 4]), maximizing_player_id=0)
    state = tictactoe_after(zero_sum, [0, 3, 1, 4])
    value, action = minimax.alpha_beta_search(zero_sum, state, maximizing_player_id=0)
    assert value == 1.0
    assert action in state.legal_actions()
    # From nought's side: nought loses.
    value, _ = minimax.alpha_beta_search(zero_sum, state, maximizing_player_id=1)
    assert value == -1.0
    # Nought holds 0 and 1, cross 3, 4 and 8, nought to move: nought wins at 2 (value 1 for
    # nought), and cross cannot be stopped at 5 otherwise.
    state = tictactoe_after(zero_sum, [3, 0, 4, 1, 8])
    value, _ = minimax.alpha_beta_search(zero_sum, state, maximizing_player_id=1)
    assert value == 1.0
    # Proved, not declared: the default load of tic-tac-toe is zero-sum too.
    proved = openspiel.load_game(GAMES / "ticTacToe.rbg")
    value, _ = minimax.alpha_beta_search(proved, tictactoe_after(proved, [0, 3, 1, 4]), maximizing_player_id=0)
    assert value == 1.0


def test_a_wrong_declaration_is_caught_at_the_end(tmp_path):
    # Both players score 1 at once: the scores sum to 2, the returns (1, 1) to 2, not 0.
    text = """
#players = a(1), b(1)
#pieces = e
#variables =
#board = rectangle(up, down, left, right, [e])
#rules = ->a [$ a = 1, b = 1] ->b
"""
    game = spiel_game(tmp_path, "bothWin", text, utility="zero_sum")
    state = game.new_initial_state()
    play_whole_moves(state, 1)
    assert state.is_terminal()
    with pytest.raises(ValueError, match="declared zero_sum"):
        state.returns()
    assert spiel_game(tmp_path, "bothWin", text, utility="constant_sum").new_initial_state().returns() == [0.0, 0.0]
    # Not proved, so general-sum by default, and then nothing is checked.
    general = spiel_game(tmp_path, "bothWin", text)
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = general.new_initial_state()
    play_whole_moves(state, 1)
    assert state.returns() == [1.0, 1.0]


def test_a_proved_constant_sum_reaches_openspiel(tmp_path):
    text = """
#players = a(2), b(2)
#pieces = e
#variables =
#board = rectangle(up, down, left, right, [e])
#rules = [$ a = 2, b = 2] ->a [$ b = 2] ->b
"""
    game = spiel_game(tmp_path, "bothFull", text)
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == 2.0
    state = game.new_initial_state()
    play_whole_moves(state, 1)
    assert state.is_terminal() and state.returns() == [1.0, 1.0]


def test_action_to_string_rejects_out_of_range_actions():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = game.new_initial_state()
    last = game.num_distinct_actions() - 1
    assert state.action_to_string(0, 0) == "1@rx0y0"
    assert state.action_to_string(0, last).endswith("@rx2y2")
    for bad in (-1, last + 1, 2**40):
        with pytest.raises(ValueError, match="out of range"):
            state.action_to_string(0, bad)


def test_chance_outcomes_of_a_player_node_are_empty():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = game.new_initial_state()
    assert state.chance_outcomes() == []
    assert not state.is_chance_node()


def test_a_state_is_restored_from_its_history_without_pickle():
    game = openspiel.load_game(GAMES / "ticTacToe.rbg")
    state = game.new_initial_state()
    play_whole_moves(state, 3)
    state.apply_action(state.legal_actions()[-1])  # inside nought's second move
    restored = openspiel.state_from_history(game, state.history())
    assert restored.history() == state.history()
    assert restored.rbg_state == state.rbg_state and restored.prefix == state.prefix
    assert restored.legal_actions() == state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    for bad in (state.history() + [illegal], [-1], [game.num_distinct_actions()]):
        with pytest.raises(ValueError):
            openspiel.state_from_history(game, bad)
