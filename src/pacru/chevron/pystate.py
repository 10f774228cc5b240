"""The Python engine's state class: :class:`pacru.ChevronState` as a frozen attrs class.

The readable reference of the native engine's state (``pacru.chevron.native``):
the values are attrs fields, the legal moves come from
:mod:`pacru.chevron.movegen` and a move is applied by
:mod:`pacru.chevron.resolve`, which builds the next state of this class
(:data:`pacru.chevron.resolve.STATE_CLASSES`). Everything else, and every
docstring, is the shared :class:`~pacru.chevron.state.ChevronState`'s.
:mod:`pacru.chevron.engine` picks this class when the Python engine is in use.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from pacru.base import Outcome
from pacru.chevron.move import Move
from pacru.chevron.movegen import generate
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.resolve import STATE_CLASSES, resolve
from pacru.chevron.rules import Rules
from pacru.chevron.state import ChevronState, occupancy

__all__ = ["PythonChevronState", "python_legal_moves"]


def python_legal_moves(state: ChevronState) -> LegalMoves:
    """The legal moves of ``state`` (of either engine) from the pure-Python engine (not
    cached)."""
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


@attrs.frozen(eq=False, repr=False)
class PythonChevronState(ChevronState):
    # No docstring of its own: the shared class's (inspect.getdoc, the API docs).
    rules: Rules
    players: tuple[str, ...]
    markers: tuple[int, ...]
    chevrons: tuple[tuple[int, ...], ...]
    to_move: int
    out: int = 0
    trigger: int = -1
    idle: int = 0
    ply: int = 0
    outcome: Outcome | None = None
    occupied: int = -1  # -1: derived from the chevrons
    _last: Move | None = None
    _moves: LegalMoves | None = None

    _concrete: ClassVar[bool] = True

    def __attrs_post_init__(self) -> None:
        if self.occupied < 0:
            object.__setattr__(self, "occupied", occupancy(self.chevrons))

    def legal_moves(self) -> LegalMoves:
        moves = self._moves
        if moves is None:
            moves = python_legal_moves(self)
            object.__setattr__(self, "_moves", moves)
        return moves

    def apply_move(self, move: Move | str) -> ChevronState:
        moves = self._moves
        if move is not None and moves is not None and moves._impl.issued is move:
            # The move this state's own list last handed out by index is legal as it
            # stands (the bot's hot path: rng.choice(state.legal_moves())).
            return resolve(self, move)
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise TypeError(f"apply_move takes a Move or a string, not {type(move).__name__}")
        else:
            self._check(move, None)
        return resolve(self, move)


# resolve.successor sets every slot of a new state by name: a field added to the class
# must be added there too.
assert tuple(attrs.fields_dict(PythonChevronState)) == (
    "rules",
    "players",
    "markers",
    "chevrons",
    "to_move",
    "out",
    "trigger",
    "idle",
    "ply",
    "outcome",
    "occupied",
    "_last",
    "_moves",
)


class _Draft(PythonChevronState):
    """A state being built by ``resolve.successor``, which then turns it into a
    :class:`PythonChevronState` by ``__class__`` assignment: the same slots (none added),
    but the plain attribute assignment of ``object`` instead of the frozen refusal."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


STATE_CLASSES.extend((_Draft, PythonChevronState))
