"""RBG games as OpenSpiel (pyspiel) games, one action per step of a move.

An RBG move is a sequence of actions ``(modifier index, vertex)``. OpenSpiel wants moves from
a fixed, numbered set, so here one OpenSpiel action is one step: action number
``(index - 1) * len(game.vertices) + vertex``. A player makes a move as several consecutive
actions and stays the current player until the move's last step (a switch) is taken. Only
steps that some legal move continues are legal (``State.next_actions``), so no sequence of
legal actions leads to a dead end.

Example::

    import pyspiel
    from rbg import openspiel
    game = openspiel.load_game("games/ticTacToe.rbg", utility="zero_sum")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

Each load is registered with ``pyspiel.register_game`` under a short name of its own,
``rbg_<file stem>_<key>``, where the key is a hash of the engine, the game text (a compiled
game: its library, whose path holds a hash of the text) and the arguments of ``load_game``;
the same text loaded with the same arguments gets the same name (``game.get_type().short_name``),
which ``pyspiel.load_game`` then accepts.

Games and states pickle, and OpenSpiel's ``serialize``/``deserialize_state`` and
``serialize_game_and_state`` work (``random_sim_test(..., serialize=True)`` passes): a state's
serialisation holds its pickled ``rbg.State`` (which holds the game's text) and steps so far;
a game's pickle holds the RBG game, and unpickling it in another process registers it.

Security: OpenSpiel's ``deserialize_state`` and ``deserialize_game_and_state`` of a Python
game unpickle the text they are given (that is how OpenSpiel stores a Python state's
attributes), and unpickling runs whatever code the data names. Never deserialize or unpickle
states or games from a source you do not trust; exchange a state's ``history()`` instead
(``state_from_history`` replays it, checking every action) or ``rbg.State.serialize()`` bytes
(a checked format that ``rbg.Game.deserialize_state`` reads without pickle).

Requires the ``open_spiel`` package (and numpy, which it depends on).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import weakref
from typing import Dict, Iterable, List, Optional, Tuple, Union

import numpy as np
import pyspiel

import rbg

#: The length bound OpenSpiel asks for, in steps; RBG states no bound of its own. Override
#: with the ``max_game_length`` argument of ``load_game``.
DEFAULT_MAX_GAME_LENGTH = 10_000

#: The utilities ``load_game`` accepts, as OpenSpiel names them.
UTILITIES = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
}

#: The registered games by short name: the RBG game and the pyspiel class made for it.
_registered: Dict[str, Tuple[rbg.Game, type]] = {}

#: Each game's vertex names, read once: ``rbg.Game.vertices`` makes a new list of them per
#: call, which the action numbering and the texts would otherwise pay on every step.
_vertex_names_of: "weakref.WeakKeyDictionary[rbg.Game, Tuple[str, ...]]" = weakref.WeakKeyDictionary()


def _vertex_names(game: rbg.Game) -> Tuple[str, ...]:
    """`game.vertices`, cached."""
    names = _vertex_names_of.get(game)
    if names is None:
        names = _vertex_names_of[game] = tuple(game.vertices)
    return names


def load_game(
    path: Union[str, os.PathLike],
    engine: str = "interpreter",
    max_game_length: int = DEFAULT_MAX_GAME_LENGTH,
    utility: Optional[str] = None,
) -> pyspiel.Game:
    """Loads an RBG (or SBG) file and returns it as a pyspiel game.

    ``utility`` declares how the players' returns relate: ``"zero_sum"`` (they sum to 0 in
    every terminal state; OpenSpiel's alpha-beta and minimax need this), ``"constant_sum"`` or
    ``"general_sum"``. By default (None) it is what the rules prove, ``rbg.Game.utility``: a
    game whose scores are only ever assigned constants, summing to one value wherever a turn
    changes (a game of winner 100, loser 0, draw 50/50 for two players, such as
    ``games/ticTacToe.rbg``, is zero-sum in returns: see ``rbg.State.returns``), else
    general-sum. The proof is conservative (a game whose scores stay 0 until the end, for
    instance, is not proved zero-sum), so a game may be declared zero- or constant-sum here;
    a declaration is checked at every terminal state whose returns are read: returns that
    break it raise ValueError. A constant sum that is not proved is not known before a game
    ends, so OpenSpiel's ``utility_sum`` is then left at its default.

    The game is registered with ``pyspiel.register_game`` under ``rbg_<file stem>_<key>``
    (see the module documentation): another text, engine or argument gives another game.
    """
    if utility is not None and utility not in UTILITIES:
        raise ValueError(f"utility must be one of {sorted(UTILITIES)}, not {utility!r}")
    if not isinstance(max_game_length, int) or max_game_length < 1:
        raise ValueError(f"max_game_length must be a positive integer, not {max_game_length!r}")
    game = rbg.load(path, engine=engine)
    return _spiel_game(game, max_game_length, game.utility if utility is None else utility)


def registration_name(game: rbg.Game, max_game_length: int, utility: str) -> str:
    """The short name `game` is registered under with these arguments of ``load_game``: the
    file stem (as a name pyspiel parses) and a hash of everything that makes the game what it
    is (its engine, file name and text, or its library; the arguments)."""
    engine, path, text = game.__reduce__()[1]
    key = hashlib.sha256()
    # A loaded text is named by its file name (which tells RBG from SBG) and the text; a
    # compiled game by its library's whole path, which holds a hash of the game text.
    library = os.fsdecode(path) if not text else ""
    for part in (engine, os.path.basename(os.fsdecode(path)), library, text, str(max_game_length), utility):
        data = part if isinstance(part, bytes) else part.encode()
        key.update(len(data).to_bytes(8, "little") + data)
    stem = re.sub(r"[^A-Za-z0-9_]", "_", game.name)
    return f"rbg_{stem}_{key.hexdigest()[:16]}"


def _spiel_game(game: rbg.Game, max_game_length: int, utility: str) -> pyspiel.Game:
    """The pyspiel game of `game` with these arguments, registered on first use."""
    short_name = registration_name(game, max_game_length, utility)
    if short_name not in _registered:
        game_type, game_info = _describe(game, short_name, max_game_length, utility)
        game_class = _game_class(game, game_type, game_info, utility)
        pyspiel.register_game(game_type, game_class)
        _registered[short_name] = (game, game_class)
    return _registered[short_name][1]()


def _restore_game(game: rbg.Game, max_game_length: int, utility: str = "general_sum") -> pyspiel.Game:
    """Unpickles a pyspiel game: registers `game` (itself unpickled) unless it is registered
    already (rbg's unpickling gives back the live game of the same text if there is one)."""
    if utility not in UTILITIES:
        raise ValueError(f"not a pickled rbg pyspiel game: unknown utility {utility!r}")
    return _spiel_game(game, max_game_length, utility)


def _restore_state(spiel_game: pyspiel.Game, data: str):
    """Unpickles a pyspiel state: OpenSpiel's own ``deserialize_state`` of `spiel_game`."""
    return spiel_game.deserialize_state(data)


def state_from_history(spiel_game: pyspiel.Game, actions: Iterable[int]):
    """The state of `spiel_game` that the actions `actions` (a state's ``history()``) reach
    from the initial state, each checked as it is played (an illegal one raises ValueError):
    the way to store and exchange a state without pickle, which OpenSpiel's own
    ``deserialize_state`` uses."""
    state = spiel_game.new_initial_state()
    for action in actions:
        if action not in state.legal_actions():
            raise ValueError(f"action {action} is not legal after {state.history()}")
        state.apply_action(int(action))
    return state


def encode_step(game: rbg.Game, step: Tuple[int, int]) -> int:
    """The OpenSpiel action number of the step ``(modifier index, vertex)``."""
    index, vertex = step
    return (index - 1) * len(_vertex_names(game)) + vertex


def decode_step(game: rbg.Game, action: int) -> Tuple[int, int]:
    """The step ``(modifier index, vertex)`` of an OpenSpiel action number."""
    index, vertex = divmod(action, len(_vertex_names(game)))
    return index + 1, vertex


def _describe(game: rbg.Game, short_name: str, max_game_length: int, utility: str):
    """The pyspiel GameType and GameInfo of `game`."""
    players = game.num_players()
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"RBG {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        # RBG scores need not sum to a constant: the caller says (load_game).
        utility=UTILITIES[utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=game.modifiers * len(game.vertices),
        max_chance_outcomes=0,
        num_players=players,
        # rbg.State.returns maps each score from 0..bound to -1..1.
        min_utility=-1.0,
        max_utility=1.0,
        # The sum of a zero-sum game, or of a constant-sum game whose rules prove it; None
        # (unknown) otherwise, as OpenSpiel wants for a general-sum game.
        utility_sum=_utility_sum(game, utility),
        max_game_length=max_game_length,
    )
    return game_type, game_info


def _game_class(game: rbg.Game, game_type, game_info, utility: str) -> type:
    """A pyspiel.Game subclass for this one RBG game (pyspiel constructs it with params)."""

    class RbgSpielGame(pyspiel.Game):
        def __init__(self, params=None):
            """The game; it takes no parameters."""
            super().__init__(game_type, game_info, params or {})
            self.rbg_game = game

        def new_initial_state(self):
            """The initial state (keeper moves made), with no step taken."""
            return RbgSpielState(self, game.new_initial_state())

        def make_py_observer(self, iig_obs_type=None, params=None):
            """The observer (see BoardObserver): with perfect recall (the information state)
            its string holds the history of actions too."""
            perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return BoardObserver(game, perfect_recall)

        def __reduce__(self):
            """Pickled as the RBG game (engine, path, text) and the arguments of load_game,
            so that unpickling registers it in a process that has not loaded it (the class is
            made per game, so pickle cannot find it by name)."""
            return _restore_game, (game, game_info.max_game_length, utility)

    RbgSpielGame.__name__ = f"RbgSpielGame_{game.name}"
    RbgSpielGame.rbg_utility = utility
    # The sum every terminal state's returns must have: promised, proved, or else (None) that
    # of the first terminal state checked.
    RbgSpielGame.rbg_returns_sum = _utility_sum(game, utility)
    return RbgSpielGame


def _utility_sum(game: rbg.Game, utility: str) -> Optional[float]:
    """The sum of the returns at the end that `utility` promises, when it is known."""
    if utility == "zero_sum":
        return 0.0
    if utility == "constant_sum":
        return game.returns_sum
    return None


class RbgSpielState(pyspiel.State):
    """A pyspiel state: an rbg.State and the steps taken so far of the current move."""

    def __init__(self, spiel_game, state: rbg.State, prefix: Optional[List[Tuple[int, int]]] = None):
        """Wraps `state`, with `prefix` the steps of the current move taken so far."""
        super().__init__(spiel_game)
        self.rbg_state = state
        self.prefix: List[Tuple[int, int]] = list(prefix or [])
        # The next steps of `prefix`, once `_legal_actions` found them, until a step is
        # taken: OpenSpiel asks for the legal actions and then checks the chosen one.
        self._steps: Optional[List[Tuple[int, int]]] = None

    def current_player(self) -> int:
        """The mover (0-based) until the last step of their move; TERMINAL at the end."""
        player = self.rbg_state.current_player()
        return pyspiel.PlayerId.TERMINAL if player == rbg.TERMINAL else player

    def _next_steps(self) -> List[Tuple[int, int]]:
        """The steps that extend `prefix` towards a legal move (found by the reasoner's
        move-by-move search, which costs about one completion per step offered)."""
        if self._steps is None:
            self._steps = self.rbg_state.next_actions(self.prefix)
        return self._steps

    def _legal_actions(self, player) -> List[int]:
        """The sorted action numbers of the next steps that some legal move continues."""
        if player != self.current_player():
            return []
        width = len(_vertex_names(self.rbg_state.game))
        return sorted((index - 1) * width + vertex for index, vertex in self._next_steps())

    def _apply_action(self, action: int) -> None:
        """Takes one step; the move is played on the RBG state when its switch is taken."""
        step = decode_step(self.rbg_state.game, action)
        if step not in self._next_steps():
            raise ValueError(f"action {action} ({step[0]}@{step[1]}) is not legal here")
        self.prefix.append(step)
        self._steps = None
        # A move ends with its switch; nothing can follow one. Its steps were each offered by
        # next_actions, so `apply` checks it by one search along it, not against every move.
        if self.rbg_state.game.is_switch(step[0]):
            move, self.prefix = self.prefix, []
            self.rbg_state.apply(move)

    def _action_to_string(self, player, action) -> str:
        """The step as index@vertex-name. An action number outside the game's range raises
        ValueError."""
        game = self.rbg_state.game
        vertices = _vertex_names(game)
        if not 0 <= action < game.modifiers * len(vertices):
            last = game.modifiers * len(vertices) - 1
            raise ValueError(f"action {action} is out of range: this game's actions are 0..{last}")
        index, vertex = decode_step(game, action)
        return f"{index}@{vertices[vertex]}"

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """No outcomes (an empty list): RBG games have no chance nodes."""
        return []

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.rbg_state.is_terminal()

    def returns(self) -> List[float]:
        """Each player's score mapped from 0..bound to -1..1 at the end, else zeros. At the end
        of a game declared zero- or constant-sum, returns that break the declaration raise
        ValueError."""
        returns = self.rbg_state.returns()
        if self.rbg_state.is_terminal():
            _check_utility(type(self.get_game()), returns)
        return returns

    def __reduce__(self):
        """Pickled as the game and OpenSpiel's serialisation of the state (history, move
        number, and the pickled ``rbg_state`` and ``prefix``): pybind11's own pickling of a
        Python state cannot rebuild this subclass. Unpickle only data you trust (see the
        module documentation); ``state_from_history`` restores a state without pickle."""
        return _restore_state, (self.get_game(), self.serialize())

    # No `clone` here: OpenSpiel's own (a new initial state with this one's attributes
    # deep-copied into it, `rbg.State.__deepcopy__` being a cheap copy) also copies the history
    # and move number, which a Python override cannot reach.

    def __str__(self) -> str:
        """The board picture, the variables and the rules position, and the steps of the
        current move so far: everything the legal actions depend on."""
        return _state_text(self)


def _check_utility(game_class: type, returns: List[float]) -> None:
    """Raises ValueError if the terminal `returns` break the declared utility of the game."""
    if game_class.rbg_utility == "general_sum":
        return
    total = math.fsum(returns)
    if game_class.rbg_returns_sum is None:
        game_class.rbg_returns_sum = total
    if not math.isclose(total, game_class.rbg_returns_sum, abs_tol=1e-9):
        raise ValueError(
            f"the game was declared {game_class.rbg_utility} (returns summing to {game_class.rbg_returns_sum}) but "
            f"these terminal returns {returns} sum to {total}: load it with another utility"
        )


def _state_text(state: RbgSpielState) -> str:
    """`state`'s text: the rbg board picture, the variables, rules position and current
    vertex, and the steps of the current move so far."""
    rbg_state = state.rbg_state
    game = rbg_state.game
    names = _vertex_names(game)
    text = str(rbg_state)
    values = rbg_state.variable_values()
    if values:
        text += "variables: " + " ".join(f"{n}={v}" for n, v in zip(game.variables, values)) + "\n"
    text += f"rules position: {rbg_state.rules_position()} at {names[rbg_state.current_vertex()]}\n"
    if state.prefix:
        text += "move so far: " + " ".join(f"{i}@{names[v]}" for i, v in state.prefix) + "\n"
    return text


class BoardObserver:
    """Observation tensor, in named parts: ``board`` (one plane per piece over the vertices),
    ``player`` (the player to move, one-hot), ``variables`` (each variable divided by its
    bound, or as it is when the bound is 0), ``rules_position`` (the engine's number of the
    rules position, one value), ``vertex`` (the current vertex, one-hot) and ``move_so_far``
    (the vertices of the current move's steps so far). With the board, the variables and the
    rules position the tensor holds the whole RBG state, so states with different legal
    actions differ in it (the order of the current move's steps excepted).

    String: the state's text (``str(state)``); with ``perfect_recall`` (OpenSpiel's
    information state) followed by the history of actions, as a perfect-information game's
    information state is its history."""

    def __init__(self, game: rbg.Game, perfect_recall: bool = False):
        """Buffers for `game`: `tensor` (flat) and `dict` (named views into it)."""
        self.perfect_recall = perfect_recall
        pieces, vertices, players = len(game.pieces), len(game.vertices), game.num_players()
        sizes = [
            ("board", (pieces, vertices)),
            ("player", (players,)),
            ("variables", (len(game.variables),)),
            ("rules_position", (1,)),
            ("vertex", (vertices,)),
            ("move_so_far", (vertices,)),
        ]
        self.tensor = np.zeros(sum(math.prod(shape) for _, shape in sizes), np.float32)
        self.dict = {}
        start = 0
        for name, shape in sizes:
            size = math.prod(shape)
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size
        # Divisors of the variables: each bound, or 1 for a bound of 0 (a variable that is
        # always 0 then, or a score without a declared bound).
        self._scales = np.array([bound if bound > 0 else 1 for bound in game.bounds], np.float32)

    def set_from(self, state: RbgSpielState, player: int) -> None:
        """Fills the tensor from `state` (the same for every player: perfect information)."""
        rbg_state = state.rbg_state
        self.tensor.fill(0)
        self.dict["board"][:] = np.asarray(rbg_state.board_tensor(), np.float32)
        mover = state.current_player()
        if mover >= 0:
            self.dict["player"][mover] = 1
        if len(self._scales):
            self.dict["variables"][:] = np.asarray(rbg_state.variable_values(), np.float32) / self._scales
        self.dict["rules_position"][0] = rbg_state.rules_position()
        self.dict["vertex"][rbg_state.current_vertex()] = 1
        for _, vertex in state.prefix:
            self.dict["move_so_far"][vertex] = 1

    def string_from(self, state: RbgSpielState, player: int) -> str:
        """The state's text, and with perfect recall the history of actions."""
        text = str(state)
        if self.perfect_recall:
            text += "history: " + " ".join(str(action) for action in state.history()) + "\n"
        return text
