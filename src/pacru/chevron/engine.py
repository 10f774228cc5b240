"""The engine boundary of the chevron games: every move list and every move applied.

:class:`~pacru.ChevronState` reaches its rules engine through this module
only, by two functions on its compact position (the marker bitboards, the
chevron codes ``field * 8 + facing`` and the counters):

* :func:`legal_moves` generates, counts and indexes the legal moves of the
  player to move (a :class:`~pacru.LegalMoves`, in the documented order of
  :mod:`pacru.chevron.movelist`), empty once the game is over;
* :func:`apply` applies a legal move with every side effect and judges the
  end of the game (:mod:`pacru.chevron.resolve`, :mod:`pacru.chevron.ending`).

Two engines implement them, with the same moves in the same order, the same
positions and the same outcomes:

* ``"python"``: the pure-Python engine (:mod:`pacru.chevron.movegen`,
  :mod:`~pacru.chevron.movelist`, :mod:`~pacru.chevron.resolve`,
  :mod:`~pacru.chevron.ending`), the readable reference;
* ``"native"``: the compiled Rust engine in the extension module
  ``pacru._native`` (:mod:`pacru.chevron.native`), used when the package was
  built with it and it supports every chevron game.

:data:`ENGINE` names the engine in use (also ``pacru.ENGINE``). The
environment variable ``PACRU_ENGINE``, read once at import, picks it:
``python`` forces the pure-Python engine, ``native`` the Rust one (an
``ImportError`` when the package was built without it), and an empty or unset
variable the native one when it was built, else the Python one; any other
value is a ``ValueError`` at import.

This module is the engine boundary: it is the only module that reads
``PACRU_ENGINE`` and the only one of the state's modules that imports
``pacru._native`` (``tests/test_architecture.py``); everyone else asks it
(:data:`ENGINE`, :func:`native_module`, :func:`legal_moves`, :func:`apply`).
No method of a class is replaced: ``ChevronState.legal_moves`` and
``apply_move`` call :func:`legal_moves` and :func:`apply`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Final

from pacru.chevron.movegen import generate
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.resolve import resolve

if TYPE_CHECKING:
    from pacru.chevron.move import Move
    from pacru.chevron.state import ChevronState

__all__ = [
    "ENGINE",
    "ENGINES",
    "apply",
    "legal_moves",
    "native_module",
    "perft",
    "python_legal_moves",
]

#: The values ``PACRU_ENGINE`` may take (empty or unset: the native engine if built).
ENGINES: Final = ("native", "python")


def native_module() -> ModuleType | None:
    """The extension module ``pacru._native``, or None when the package was built without it."""
    try:
        from pacru import _native
    except ImportError:
        return None
    return _native


def _choose() -> str:
    asked = os.environ.get("PACRU_ENGINE", "").strip().lower()
    if asked and asked not in ENGINES:
        raise ValueError(
            f"PACRU_ENGINE must be one of {', '.join(ENGINES)} or empty (the native engine "
            f"when built), not {asked!r}"
        )
    if asked == "python":
        return "python"
    native = native_module()
    if native is None or not native.COMPLETE:
        if asked == "native":
            raise ImportError(
                "PACRU_ENGINE=native, but pacru was built without its native engine "
                "(pacru._native); unset PACRU_ENGINE to use the Python engine"
            )
        return "python"
    return "native"


#: The engine in use: ``"native"`` (the Rust extension) or ``"python"``.
ENGINE: Final[str] = _choose()


def python_legal_moves(state: ChevronState) -> LegalMoves:
    """The legal moves of ``state`` from the pure-Python engine (not cached)."""
    if state.outcome is not None:
        return LegalMoves.empty()
    return generate(
        state.rules,
        state.markers,
        state.chevrons,
        state.to_move,
        state.occupied,
        state.trigger >= 0,
    )


#: The state after a legal move, from the pure-Python engine (the resolver itself, not a
#: wrapper: one Python frame less per ply).
python_apply: Final[Callable[[ChevronState, Move], ChevronState]] = resolve


def _engine_functions() -> tuple[
    Callable[[ChevronState], LegalMoves], Callable[[ChevronState, Move], ChevronState]
]:
    if ENGINE == "native":
        from pacru.chevron.native import apply, legal_moves

        return legal_moves, apply
    return python_legal_moves, python_apply


_EXTENSION: Final = native_module()
if _EXTENSION is not None:
    # The extension's list is a LegalMoves by registration (isinstance, type hints): no
    # method of either class is replaced.
    LegalMoves.register(_EXTENSION.NativeLegalMoves)
_FUNCTIONS: Final = _engine_functions()
#: The legal moves of a state (not cached: ChevronState.legal_moves caches them).
legal_moves: Final = _FUNCTIONS[0]
#: The state after a legal move (checked by ChevronState.apply_move).
apply: Final = _FUNCTIONS[1]


def perft(state: ChevronState, depth: int) -> int:
    """The number of move sequences of ``depth`` plies from ``state`` (a finished game: 0).

    ``depth`` 0 counts 1. Runs on the engine in use, through the public
    :meth:`~pacru.ChevronState.legal_moves` and ``apply_move``.

    Raises:
        ValueError: a negative ``depth``.
    """
    if depth < 0:
        raise ValueError(f"perft depth must not be negative, not {depth}")
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply_move(m), depth - 1) for m in moves)
