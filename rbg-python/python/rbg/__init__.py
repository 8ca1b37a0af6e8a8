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

from ._rbg import (
    TERMINAL,
    Agent,
    Game,
    Move,
    ParseError,
    PlayoutStats,
    SearchError,
    State,
    load,
    load_library,
)

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
