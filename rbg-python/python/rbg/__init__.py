"""Regular Boardgames (RBG) from Python, with an OpenSpiel-shaped API.

Example::

    import rbg
    game = rbg.load("games/ticTacToe.rbg")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply(state.legal_moves()[0])
    print(state, state.returns())

``rbg.load`` reads ``.rbg`` files and Simplified Boardgames (``.sbg``, translated to RBG).
States are always keeper-completed: a real player is to move, or the game is over.
``Game.perft`` and ``Game.random_playouts`` run in Rust on all cores without the GIL;
``Agent.select_move`` searches without the GIL too. Ctrl-C stops all three
(KeyboardInterrupt).
``rbg.analyze`` measures a game by self-play (win rates with intervals, lengths, branching,
drama, strength gap) and returns a table: a list of dicts, one per measure.
``rbg.Session`` plays a game with checked moves, undo, redo and the result.
``rbg.openspiel`` adapts a game to OpenSpiel (``pyspiel``), one action per move step.
Games and states pickle (a game as its engine, path and text; a state as its game and
``serialize()`` bytes). Unpickling runs whatever code the data names: never unpickle data
from a source you do not trust (nor pass it to OpenSpiel's ``deserialize_state``, which
unpickles); ``State.serialize()`` bytes, read back by ``Game.deserialize_state`` without
pickle and checked, are the form to exchange.
"""

import os as _os
import weakref as _weakref

from ._rbg import (
    TERMINAL,
    Agent,
    Game,
    Move,
    ParseError,
    ParseWarning,
    PlayoutStats,
    SearchError,
    Session,
    State,
    analyze,
)
from ._rbg import load_library as _load_library
from ._rbg import _build_library, _load_source
from ._rbg import load as _load_interpreted

#: The live games by what their pickles hold, ``(engine, path, text)``: unpickling finds the
#: game here when it is loaded in this process, so that an unpickled state belongs to the
#: same game object as the original (states of two loads of one file do not mix). Weak, so
#: that a game no longer used is freed.
_games: "_weakref.WeakValueDictionary" = _weakref.WeakValueDictionary()


def _remember(game: Game) -> Game:
    """Enters a freshly loaded game in ``_games`` unless a live load of the same text is
    there: the first load stays the one pickles come back to, so that loading the file again
    elsewhere does not move later unpickled states away from the game (and agents) in use."""
    _games.setdefault(game.__reduce__()[1], game)
    return game


def _restore_game(engine: str, path: str, text: bytes) -> Game:
    """Unpickles a game: the live one of this engine, path and text, else a new load."""
    key = (engine, path, text)
    game = _games.get(key)
    if game is None:
        if engine == "interpreter":
            game = _load_source(path, text)
        elif engine == "compiled":
            game = load_library(path)
        else:
            raise ValueError(f"not a pickled rbg.Game: unknown engine {engine!r}")
        _games[key] = game
    return game


def _restore_state(game: Game, data: bytes) -> State:
    """Unpickles a state: ``game.deserialize_state(data)``."""
    if not isinstance(game, Game):
        raise TypeError(f"not a pickled rbg.State: {type(game).__name__} is not an rbg.Game")
    return game.deserialize_state(data)


def load(path: "str | _os.PathLike", engine: str = "interpreter") -> Game:
    """Loads the game described by the file at ``path`` (``.rbg``, or ``.sbg`` translated to RBG).

    ``engine`` is ``"interpreter"`` (the default) or ``"compiled"``. The compiled engine
    generates the game's reasoner crate and builds it with cargo (``$CARGO`` or on the PATH)
    in this process, keeping it in the compile cache that the ``rbg`` command uses too
    (``$RBG_CACHE_DIR``, else ``~/.cache/rbg``); the first load of a game takes a minute or
    more, later loads find it there. A file that cannot be read raises ``OSError``
    (``FileNotFoundError`` when it is missing); errors in the description raise
    ``ParseError`` with each diagnostic as ``file:line:col: error: ...`` and the first one's
    ``path``, ``line`` and ``column``; warnings are issued as ``ParseWarning``; a failed
    build raises ``RuntimeError`` with the end of cargo's output.
    """
    if engine == "compiled":
        return _remember(load_library(_build_library(path)))
    return _remember(_load_interpreted(path, engine))


def load_library(path: "str | _os.PathLike") -> Game:
    """Loads a compiled reasoner library (built by ``rbg compile`` and cargo)."""
    return _remember(_load_library(path))

__all__ = [
    "TERMINAL",
    "Agent",
    "Game",
    "Move",
    "ParseError",
    "ParseWarning",
    "PlayoutStats",
    "SearchError",
    "Session",
    "State",
    "analyze",
    "load",
    "load_library",
]
