"""The engine boundary of the chevron games: which class a state is, and so which engine
lists and applies its moves.

Every :class:`~pacru.ChevronState` is an object of one engine's concrete
subclass, whose ``legal_moves()`` and ``apply_move()`` are that engine's:

* ``"python"``: :class:`pacru.chevron.pystate.PythonChevronState`, the
  pure-Python engine (:mod:`pacru.chevron.movegen`,
  :mod:`~pacru.chevron.movelist`, :mod:`~pacru.chevron.resolve`,
  :mod:`~pacru.chevron.ending`), the readable reference;
* ``"native"``: ``pacru.chevron.native.NativeChevronState``, the compiled Rust
  engine in the extension module ``pacru._native``, used when the package was
  built with it and it supports every chevron game.

Both give the same moves in the same order, the same positions and the same
outcomes. :data:`STATE_CLASS` is the class of the engine in use: what
:func:`pacru.new_game`, :func:`pacru.from_position`, ``ChevronState(...)`` and
unpickling build (a pickle loads on either engine).

:data:`ENGINE` names the engine in use (also ``pacru.ENGINE``), :data:`ENGINE_REASON`
why it is the Python one (``pacru --version`` prints both). The
environment variable ``PACRU_ENGINE``, read once at import, picks it:
``python`` forces the pure-Python engine, ``native`` the Rust one (an
``ImportError`` when the package was built without it), and an empty or unset
variable the native one when it was built, else the Python one; any other
value is a ``ValueError`` at import.

This module is the engine boundary: it is the only module that reads
``PACRU_ENGINE`` and the only one of the state's modules that imports
``pacru._native`` (``tests/test_architecture.py``); everyone else asks it
(:data:`ENGINE`, :data:`STATE_CLASS`, :data:`NATIVE`, :func:`native_module`); LSD's
states ask it through :mod:`pacru.lsd.native`. No method of a
class is replaced: each engine's class has its own ``legal_moves`` and
``apply_move``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from pacru.chevron.movelist import LegalMoves
from pacru.chevron.pystate import PythonChevronState, python_legal_moves
from pacru.chevron.resolve import resolve
from pacru.chevron.state import ENGINE_STATE, ChevronState

if TYPE_CHECKING:
    from pacru.chevron.move import Move

__all__ = [
    "ENGINE",
    "ENGINES",
    "ENGINE_REASON",
    "NATIVE",
    "STATE_CLASS",
    "EngineName",
    "describe",
    "native_module",
    "perft",
    "python_apply",
    "python_legal_moves",
]

#: The name of an engine, for type checkers: the values of :data:`ENGINE`.
EngineName: TypeAlias = Literal["native", "python"]
#: The values ``PACRU_ENGINE`` may take (empty or unset: the native engine if built).
ENGINES: Final[tuple[EngineName, ...]] = ("native", "python")


def native_module() -> ModuleType | None:
    """The extension module ``pacru._native``, or None when the package was built without it."""
    try:
        from pacru import _native
    except ImportError:
        return None
    return _native


def _choose() -> tuple[EngineName, str]:
    """The engine to use and why (empty for the native engine): PACRU_ENGINE, else the build."""
    asked = os.environ.get("PACRU_ENGINE", "").strip().lower()
    if asked and asked not in ENGINES:
        raise ValueError(
            f"PACRU_ENGINE must be one of {', '.join(ENGINES)} or empty (the native engine "
            f"when built), not {asked!r}"
        )
    if asked == "python":
        return "python", "PACRU_ENGINE=python"
    native = native_module()
    if native is None or not native.COMPLETE:
        if asked == "native":
            raise ImportError(
                "PACRU_ENGINE=native, but pacru was built without its native engine "
                "(pacru._native); unset PACRU_ENGINE to use the Python engine"
            )
        if native is None:
            # What the build backend does without cargo; a pure-Python wheel has none either.
            return "python", (
                "no native engine installed: pacru was built without a Rust toolchain, "
                "or is the pure-Python wheel"
            )
        return "python", "the installed native engine lacks a chevron game"
    return "native", ""


_CHOICE: Final = _choose()
#: The engine in use: ``"native"`` (the Rust extension) or ``"python"``.
ENGINE: Final[EngineName] = _CHOICE[0]
#: Why the engine in use is the Python one (``""`` for the native engine):
#: ``"PACRU_ENGINE=python"``, or that the package was installed without the extension.
ENGINE_REASON: Final[str] = _CHOICE[1]


def describe() -> str:
    """The engine in use and why, in the words of ``pacru --version``.

    ``"native"``, or ``"python (PACRU_ENGINE=python)"`` and the like (:data:`ENGINE_REASON`).
    """
    return f"{ENGINE} ({ENGINE_REASON})" if ENGINE_REASON else ENGINE


#: The state after a legal move, from the pure-Python engine (the resolver itself, not a
#: wrapper: one Python frame less per ply).
python_apply: Final[Callable[[ChevronState, Move], ChevronState]] = resolve


def _state_class() -> type[ChevronState]:
    if ENGINE == "native":
        from pacru.chevron.native import NativeChevronState

        native: type[ChevronState] = NativeChevronState
        return native
    return PythonChevronState


_EXTENSION: Final = native_module()
if _EXTENSION is not None:
    # The extension's list is a LegalMoves by registration (isinstance, type hints): no
    # method of either class is replaced.
    LegalMoves.register(_EXTENSION.NativeLegalMoves)
#: The state class of the engine in use (a subclass of :class:`~pacru.ChevronState`).
STATE_CLASS: Final = _state_class()
#: The extension module when the native engine is in use, else None: what LSD's side of
#: the boundary (:mod:`pacru.lsd.native`) plays on, so that one choice serves both families.
NATIVE: Final[ModuleType | None] = _EXTENSION if ENGINE == "native" else None
ENGINE_STATE.append(STATE_CLASS)


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
