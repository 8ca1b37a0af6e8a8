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
    game = openspiel.load_game("games/ticTacToe.rbg")   # registered as "rbg_ticTacToe"
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

Games and states pickle, and OpenSpiel's ``serialize``/``deserialize_state`` and
``serialize_game_and_state`` work (``random_sim_test(..., serialize=True)`` passes): a state's
serialisation holds its pickled ``rbg.State`` and steps so far; a game's pickle holds the RBG
game, and unpickling it in another process registers it.

Requires the ``open_spiel`` package (and numpy, which it depends on).
"""

from __future__ import annotations

import os
import weakref
from typing import Dict, List, Optional, Tuple, Union

import numpy as np
import pyspiel

import rbg

#: The length bound OpenSpiel asks for, in steps; RBG states no bound of its own. Override
#: with the ``max_game_length`` argument of ``load_game``.
DEFAULT_MAX_GAME_LENGTH = 10_000

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
) -> pyspiel.Game:
    """Loads an RBG (or SBG) file and returns it as a pyspiel game.

    The game is registered with ``pyspiel.register_game`` under the short name
    ``rbg_<file stem>``; loading a file of the same stem again reuses that registration.
    """
    return _spiel_game(rbg.load(path, engine=engine), max_game_length)


def _spiel_game(game: rbg.Game, max_game_length: int) -> pyspiel.Game:
    """The pyspiel game of `game`, registered under ``rbg_<name>`` unless that name is taken."""
    short_name = f"rbg_{game.name}"
    if short_name not in _registered:
        game_type, game_info = _describe(game, short_name, max_game_length)
        game_class = _game_class(game, game_type, game_info)
        pyspiel.register_game(game_type, game_class)
        _registered[short_name] = (game, game_class)
    return _registered[short_name][1]()


def _restore_game(game: rbg.Game, max_game_length: int) -> pyspiel.Game:
    """Unpickles a pyspiel game: registers `game` (itself unpickled) unless its name is taken
    already, by this very game (rbg's unpickling gives back a live game of the same text)."""
    registered = _registered.get(f"rbg_{game.name}")
    if registered is not None and registered[0] is not game:
        raise ValueError(f"cannot unpickle rbg_{game.name}: another game of that name is registered")
    return _spiel_game(game, max_game_length)


def _restore_state(spiel_game: pyspiel.Game, data: str):
    """Unpickles a pyspiel state: OpenSpiel's own ``deserialize_state`` of `spiel_game`."""
    return spiel_game.deserialize_state(data)


def encode_step(game: rbg.Game, step: Tuple[int, int]) -> int:
    """The OpenSpiel action number of the step ``(modifier index, vertex)``."""
    index, vertex = step
    return (index - 1) * len(_vertex_names(game)) + vertex


def decode_step(game: rbg.Game, action: int) -> Tuple[int, int]:
    """The step ``(modifier index, vertex)`` of an OpenSpiel action number."""
    index, vertex = divmod(action, len(_vertex_names(game)))
    return index + 1, vertex


def _describe(game: rbg.Game, short_name: str, max_game_length: int):
    """The pyspiel GameType and GameInfo of `game`."""
    players = game.num_players()
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"RBG {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        # RBG scores need not sum to a constant.
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
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
        max_game_length=max_game_length,
    )
    return game_type, game_info


def _game_class(game: rbg.Game, game_type, game_info) -> type:
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
            """The board observer (see BoardObserver)."""
            return BoardObserver(game)

        def __reduce__(self):
            """Pickled as the RBG game (engine, path, text) and the length bound, so that
            unpickling registers it in a process that has not loaded it (the class is made
            per game, so pickle cannot find it by name)."""
            return _restore_game, (game, game_info.max_game_length)

    RbgSpielGame.__name__ = f"RbgSpielGame_{game.name}"
    return RbgSpielGame


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
        """The step as index@vertex-name."""
        index, vertex = decode_step(self.rbg_state.game, action)
        vertices = _vertex_names(self.rbg_state.game)
        return f"{index}@{vertices[vertex]}" if vertex < len(vertices) else f"{index}@{vertex}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.rbg_state.is_terminal()

    def returns(self) -> List[float]:
        """Each player's score mapped from 0..bound to -1..1 at the end, else zeros."""
        return self.rbg_state.returns()

    def __reduce__(self):
        """Pickled as the game and OpenSpiel's serialisation of the state (history, move
        number, and the pickled ``rbg_state`` and ``prefix``): pybind11's own pickling of a
        Python state cannot rebuild this subclass."""
        return _restore_state, (self.get_game(), self.serialize())

    def clone(self):
        """An independent copy, with the steps taken so far."""
        copy = RbgSpielState(self.get_game(), self.rbg_state.clone(), self.prefix)
        copy._steps = self._steps  # never changed in place, only replaced
        return copy

    def __str__(self) -> str:
        """The board picture, and the steps of the current move so far."""
        text = str(self.rbg_state)
        if self.prefix:
            names = _vertex_names(self.rbg_state.game)
            text += "move so far: " + " ".join(f"{i}@{names[v]}" for i, v in self.prefix) + "\n"
        return text


class BoardObserver:
    """Observation: one plane per piece over the vertices, the player to move (one-hot), and
    a plane marking the vertices of the current move's steps so far. String: ``str(state)``."""

    def __init__(self, game: rbg.Game):
        """Buffers for `game`: `tensor` (flat) and `dict` (named views into it)."""
        pieces, vertices, players = len(game.pieces), len(game.vertices), game.num_players()
        self.tensor = np.zeros(pieces * vertices + players + vertices, np.float32)
        board = self.tensor[: pieces * vertices]
        self.dict = {
            "board": board.reshape(pieces, vertices),
            "player": self.tensor[pieces * vertices : pieces * vertices + players],
            "move_so_far": self.tensor[pieces * vertices + players :],
        }

    def set_from(self, state: RbgSpielState, player: int) -> None:
        """Fills the tensor from `state` (the same for every player: perfect information)."""
        self.tensor.fill(0)
        self.dict["board"][:] = np.asarray(state.rbg_state.board_tensor(), np.float32)
        mover = state.current_player()
        if mover >= 0:
            self.dict["player"][mover] = 1
        for _, vertex in state.prefix:
            self.dict["move_so_far"][vertex] = 1

    def string_from(self, state: RbgSpielState, player: int) -> str:
        """The state's text picture."""
        return str(state)
