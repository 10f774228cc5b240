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

:data:`ENGINE` names the engine in use (also ``pacru.ENGINE``); setting the
environment variable ``PACRU_ENGINE=python`` before ``import pacru`` forces
the pure-Python engine. The choice is made once, at import.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Final

from pacru.chevron.movegen import generate
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.resolve import resolve

if TYPE_CHECKING:
    from pacru.chevron.move import Move
    from pacru.chevron.state import ChevronState

__all__ = [
    "ENGINE",
    "REPLACED_METHODS",
    "apply",
    "install",
    "legal_moves",
    "native_module",
    "perft",
    "python_legal_moves",
]


def native_module() -> ModuleType | None:
    """The extension module ``pacru._native``, or None when the package was built without it."""
    try:
        from pacru import _native
    except ImportError:
        return None
    return _native


def _choose() -> str:
    if os.environ.get("PACRU_ENGINE", "").strip().lower() == "python":
        return "python"
    native = native_module()
    if native is None or not native.COMPLETE:
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


_FUNCTIONS: Final = _engine_functions()
#: The legal moves of a state (not cached: ChevronState.legal_moves caches them).
legal_moves: Final = _FUNCTIONS[0]
#: The state after a legal move (checked by ChevronState.apply_move).
apply: Final = _FUNCTIONS[1]


_replaced: dict[str, Callable[..., Any]] = {}
#: The Python methods of ``ChevronState`` that the engine in use replaced by its own, by
#: name (empty under the Python engine): their signatures and docstrings are the API's.
REPLACED_METHODS: Final[Mapping[str, Callable[..., Any]]] = MappingProxyType(_replaced)


def install(state_class: type[ChevronState]) -> None:
    """Put the engine's own ``legal_moves`` and ``apply_move`` on the state class.

    The native engine replaces the two Python methods by C methods that call
    it directly (:func:`pacru.chevron.native.install`); the Python engine keeps
    them. Called once, by :mod:`pacru.chevron.state`.
    """
    if ENGINE == "native" and not _replaced:
        from pacru.chevron.native import install as install_native

        methods = vars(state_class)
        _replaced.update((name, methods[name]) for name in ("legal_moves", "apply_move"))
        install_native(state_class)


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
