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
``PACRU_ENGINE`` and branches on the engine's name, and one of the three that
import ``pacru._native`` (with the native engine's side,
:mod:`pacru.chevron.native`, and the batch loops of :mod:`pacru.vector`;
``tests/test_architecture.py`` holds them to it). Everyone else asks it:
:data:`ENGINE` and :data:`STATE_CLASS`, and :data:`OPS`, the :class:`Engine`
object of the engine in use, with the operations that the layers above need of
an engine (random rollouts, the native decisions of the encodings, whether the
vector loops step batches natively, LSD's native rules, the search). The
native engine's object is ``pacru.chevron.native.NativeEngine``, the Python
engine's :class:`PythonEngine`. No method of a class is replaced: each
engine's class has its own ``legal_moves`` and ``apply_move``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, TypeAlias

from pacru.chevron.families import ReorientationFamily, StepFamily
from pacru.chevron.move import Move, MoveKind
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.pystate import PythonChevronState, python_legal_moves
from pacru.chevron.resolve import resolve
from pacru.chevron.state import ENGINE_STATE, ChevronState

if TYPE_CHECKING:
    from pacru import _native
    from pacru.chevron.rules import Rules

__all__ = [
    "ENGINE",
    "ENGINES",
    "ENGINE_REASON",
    "OPS",
    "SEARCH",
    "STATE_CLASS",
    "Engine",
    "EngineName",
    "ExtensionSearch",
    "PythonEngine",
    "RawRollouts",
    "SearchMove",
    "SelfPlayGame",
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


#: The native search's entry (``pacru._native.search_move``): a position's fields
#: (:func:`pacru.bots.search.position_fields`), weights, the nodes, seconds and depth
#: budgets and a seed give ``(move fields, value, depth, nodes)``, or None for a player
#: without a move.
SearchMove: TypeAlias = Callable[
    [tuple[Any, ...], list[float], int | None, float | None, int | None, int, Any],
    tuple[tuple[Any, ...], int, int, int] | None,
]
#: The native search's self-play game (``pacru._native.search_selfplay``): game, players,
#: seed, nodes, epsilon, weights, sample every k-th ply, the ply limit, a network (or
#: None) and the first sampled ply (taken modulo k) give (features, the network's active
#: inputs, results per sample, plies, termination).
SelfPlayGame: TypeAlias = Callable[
    [str, int, int, int, float, list[float], int, int, Any, int],
    tuple[list[list[float]], list[list[int]], list[float], list[float], int, str],
]
#: What :meth:`Engine.random_rollouts` gives: the returns (float32), the plies (int32) and,
#: when recorded, the index of every move played (uint64), as the bytes of C arrays.
RawRollouts: TypeAlias = tuple[bytes, bytes, bytes | None]


class Engine(Protocol):
    """What the layers above the boundary ask of an engine: :data:`OPS` is the one in use.

    The native engine's object (``pacru.chevron.native.NativeEngine``) runs each
    operation in the extension; the Python engine's (:class:`PythonEngine`) has
    no native code, and its operations answer None: the caller then plays,
    decides or steps with the Python reference itself, as the Python engine does.
    """

    @property
    def name(self) -> EngineName:
        """The engine's name, as :data:`ENGINE`."""
        ...

    @property
    def state_class(self) -> type[ChevronState]:
        """Its state class (a subclass of :class:`~pacru.ChevronState`)."""
        ...

    @property
    def move_class(self) -> type[Move]:
        """Its move class: the class of the moves its lists hand out, and ``pacru.Move``
        (the Python engine's :class:`pacru.chevron.move.Move`; the native engine's
        ``pacru._native.Move``, a virtual subclass of it)."""
        ...

    @property
    def batches(self) -> bool:
        """Whether :mod:`pacru.vector`'s batches of games are stepped inside the engine
        (``pacru.vector.native``'s loops), not by the Python loop."""
        ...

    @property
    def decision_class(self) -> type | None:
        """The class of its native decisions (a :class:`pacru.encoding.Decision` by
        registration), None on an engine without them."""
        ...

    def decision_layout(
        self,
        players: int,
        game: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
        rules: Rules,
    ) -> _native.DecisionLayout | None:
        """The native decisions of a chevron encoding (``pacru_batch::decision``), or None.

        ``game`` is the index of the game in ``("lilacru", "shacru", "azacru", "pacru")``,
        the scales those of the encoding's observation, ``supply`` Pacru's marker supply,
        ``rules`` the encoding's (its states are those of these rules).
        """
        ...

    def lsd_rules(
        self,
        kinds: list[list[int]],
        initial: list[list[int]],
        allow_rotation: bool,
        strict: bool,
        row_length: int,
    ) -> _native.LsdRules | None:
        """The native rules of an LSD game (:func:`pacru.lsd.native.rules_args`), or None."""
        ...

    def random_rollouts(
        self,
        state: ChevronState,
        n: int,
        seed: int,
        cap: int | None,
        families: bool,
        record: bool,
        threads: int,
    ) -> RawRollouts | None:
        """``n`` uniform random games from ``state`` played in the engine, or None.

        ``seed`` is in ``0 .. 2**64 - 1`` (the caller reduces it), ``cap`` the plies a
        game may play (None: no limit), ``families`` draws a move family first,
        ``record`` keeps each move's index, ``threads`` is the number of threads.

        Raises:
            InvalidPositionError: values of ``state`` the engine refuses.
            MemoryError: the arrays of ``n`` games do not fit.
        """
        ...


class PythonEngine:
    """The pure-Python engine's :class:`Engine`: no native operation (each answers None)."""

    name: Final[EngineName] = "python"
    state_class: Final[type[ChevronState]] = PythonChevronState
    move_class: Final[type[Move]] = Move
    batches: Final = False
    decision_class: Final = None

    def decision_layout(
        self,
        players: int,
        game: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
        rules: Rules,
    ) -> None:
        """None: the Python cursors decide (:class:`pacru.encoding.ChevronEncoding`)."""
        return None

    def lsd_rules(
        self,
        kinds: list[list[int]],
        initial: list[list[int]],
        allow_rotation: bool,
        strict: bool,
        row_length: int,
    ) -> None:
        """None: LSD's Python rules play (:mod:`pacru.lsd.engine`)."""
        return None

    def random_rollouts(
        self,
        state: ChevronState,
        n: int,
        seed: int,
        cap: int | None,
        families: bool,
        record: bool,
        threads: int,
    ) -> None:
        """None: :func:`pacru.bots.random_rollouts` plays the games one by one."""
        return None


class ExtensionSearch:
    """The search's operations (:data:`SEARCH`): one object whatever the engine, since the
    search, its self-play and its network run in the extension whenever pacru was built
    with it. The extension is imported when asked (:func:`native_module`): a process that
    has hidden it since (``sys.modules``) gets None, as a build without it."""

    def searcher(self) -> SearchMove | None:
        """The extension's search when it can be imported (whatever the engine), else None."""
        extension = native_module()
        if extension is None:
            return None
        search: SearchMove = extension.search_move
        return search

    def self_player(self) -> SelfPlayGame | None:
        """The extension's self-play game when it can be imported, else None."""
        extension = native_module()
        if extension is None:
            return None
        play: SelfPlayGame = extension.search_selfplay
        return play

    def network(self, data: bytes) -> Any | None:
        """The extension's network of ``data`` when it can be imported, else None.

        Raises:
            ValueError: bytes that are not a network of this version.
        """
        extension = native_module()
        return None if extension is None else extension.Network.from_bytes(data)


#: The search's operations, on either engine.
SEARCH: Final = ExtensionSearch()


def _engine() -> Engine:
    """The engine object of :data:`ENGINE` (imports the native side only when it is used)."""
    if ENGINE == "native":
        from pacru.chevron.native import NativeEngine

        return NativeEngine()
    return PythonEngine()


_EXTENSION: Final = native_module()
if _EXTENSION is not None:
    # The extension's list, move and families are a LegalMoves, a Move and families by
    # registration (isinstance, type hints): no method of any class is replaced.
    LegalMoves.register(_EXTENSION.NativeLegalMoves)
    Move.register(_EXTENSION.Move)
    StepFamily.register(_EXTENSION.StepFamily)
    ReorientationFamily.register(_EXTENSION.ReorientationFamily)
#: The engine object in use: the operations of :data:`ENGINE` that the layers above use.
OPS: Final[Engine] = _engine()
if _EXTENSION is not None:
    # The classes the extension compares with and hands out (it imports no module of
    # pacru's), and the class its moves pickle as: the engine's, ``pacru.Move``.
    _EXTENSION.use_python_types(
        Move,
        (MoveKind.STEP, MoveKind.PINCER, MoveKind.REORIENTATION, MoveKind.PASS),
        LegalMoves,
        OPS.move_class,
    )
#: The state class of the engine in use (a subclass of :class:`~pacru.ChevronState`).
STATE_CLASS: Final = OPS.state_class
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
