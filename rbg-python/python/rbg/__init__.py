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
``Game.perft`` and ``Game.random_playouts`` run in Rust on all cores without the GIL.
``rbg.openspiel`` adapts a game to OpenSpiel (``pyspiel``), one action per move step.
"""

import os as _os

from ._rbg import (
    TERMINAL,
    Agent,
    Game,
    Move,
    ParseError,
    PlayoutStats,
    SearchError,
    State,
    load_library,
)
from ._rbg import load as _load_interpreted


def load(path: "str | _os.PathLike", engine: str = "interpreter") -> Game:
    """Loads the game described by the file at ``path`` (``.rbg``, or ``.sbg`` translated to RBG).

    ``engine`` is ``"interpreter"`` (the default) or ``"compiled"``. The compiled engine runs
    the ``rbg`` command (``$RBG`` or on the PATH) and cargo to build the game's reasoner
    library, cached under ``$RBG_CACHE_DIR/python`` or ``~/.cache/rbg/python``; the first
    load of a game takes a minute or more. Errors in the description raise ``ParseError``
    with each diagnostic as ``file:line:col: error: ...``.
    """
    if engine == "compiled":
        _load_interpreted(path)  # the description's errors, as ParseError, before any build
        from ._compiled import build_library

        return load_library(build_library(path))
    return _load_interpreted(path, engine)

__all__ = [
    "TERMINAL",
    "Agent",
    "Game",
    "Move",
    "ParseError",
    "PlayoutStats",
    "SearchError",
    "State",
    "load",
    "load_library",
]
