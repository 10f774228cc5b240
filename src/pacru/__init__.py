"""pacru: the rules of the Pacru family of games (Lilacru, Shacru, Azacru, Pacru) and LSD.

>>> import pacru
>>> state = pacru.new_game("shacru", players=2)
>>> state.current_player
'green'
>>> len(state.legal_moves())
16
>>> state = state.apply_move("a3-b4>")
>>> state.chevron_at("b4")
Chevron(owner='green', facing=Direction.E)
>>> state.marker_at("b4")
'green'

States are immutable: :meth:`~pacru.GameState.apply_move` returns a new state.
Fields are named ``"a1"`` to ``"i9"`` or indexed 0..80 (``a1 = 0``, row-major
from rank 1; constants :data:`pacru.geometry.E5` etc.).
"""

import typing as _typing
from typing import TYPE_CHECKING as _TYPE_CHECKING

from pacru._status import Status
from pacru.base import GameState, Outcome, Termination
from pacru.base import MoveT as _MoveT
from pacru.chevron import engine as _engine
from pacru.chevron.engine import EngineName as _EngineName
from pacru.chevron.move import MoveKind
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.state import Chevron, ChevronState
from pacru.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidPositionError,
    NotationError,
    PacruError,
)
from pacru.explanation import Explanation, explain
from pacru.game import Game
from pacru.games import CHEVRON_GAMES, GAMES, AnyState, from_position, new_game
from pacru.geometry import Direction, field_name, parse_field

if _typing.TYPE_CHECKING:  # the name type checkers see: one API, the Python class's
    from pacru.chevron.move import Move
else:
    #: The move class of the engine in use (``pacru.chevron.engine.OPS.move_class``): the
    #: native engine's ``pacru._native.Move`` or the Python :class:`pacru.chevron.move.Move`,
    #: one API; a move of either class is an instance of the Python one.
    Move = _engine.OPS.move_class

if _TYPE_CHECKING:
    from pacru._version import __version__
    from pacru.lsd import LsdMove, LsdState, Tile
    from pacru.lsd.movelist import LsdLegalMoves

# LSD's types are exported here too, but imported on first use: ``import pacru``
# stays as light as the chevron engine. So is ``__version__``, read from the installed
# metadata (importlib.metadata costs about as much to import as the chevron engine).
_LAZY = {
    "__version__": "pacru._version",
    "LsdLegalMoves": "pacru.lsd.movelist",
    "LsdMove": "pacru.lsd",
    "LsdState": "pacru.lsd",
    "Tile": "pacru.lsd",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pacru' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # The lazy names too, before their first use: tab completion offers pacru.LsdState.
    return sorted({*globals(), *_LAZY})


#: The engine in use (every game's): ``"native"`` (the Rust extension ``pacru._native``) or
#: ``"python"`` (the pure-Python engine: the package was built without the extension, or the
#: environment variable ``PACRU_ENGINE=python`` was set at import). Both give the same moves,
#: positions and outcomes (:mod:`pacru.chevron.engine`). ``pacru --version`` says which, and why.
ENGINE: _EngineName = _engine.ENGINE


def status(state: AnyState | GameState[_MoveT]) -> Status:
    """The named problems of ``state``'s position: ``state.status()`` (:class:`Status`).

    ``Status.VALID`` (no flag) for a position that play can reach; see
    :meth:`pacru.GameState.status`.

    >>> import pacru
    >>> pacru.status(pacru.new_game("shacru"))
    <Status.VALID: 0>
    """
    return state.status()


#: The version of the rules behaviour. It changes whenever a legal-move set or
#: an outcome changes for some position (as pgx versions its environments).
RULES_VERSION = 1


__all__ = [
    "CHEVRON_GAMES",
    "ENGINE",
    "GAMES",
    "RULES_VERSION",
    "AnyState",
    "Chevron",
    "ChevronState",
    "Direction",
    "Explanation",
    "Game",
    "GameOverError",
    "GameState",
    "IllegalMoveError",
    "InvalidPositionError",
    "LegalMoves",
    "LsdLegalMoves",
    "LsdMove",
    "LsdState",
    "Move",
    "MoveKind",
    "NotationError",
    "Outcome",
    "PacruError",
    "Status",
    "Termination",
    "Tile",
    "__version__",
    "explain",
    "field_name",
    "from_position",
    "new_game",
    "parse_field",
    "status",
]
