"""The native engine behind :mod:`pacru.chevron.engine`: the Rust extension ``pacru._native``.

A :class:`~pacru.ChevronState` keeps the extension's copy of its position in
a private slot, made from its bitboards and chevron codes on first use (a
state made by the native engine gets it at once), so a ply crosses into the
extension once to list the moves and once to apply one. The move list is the
extension's class :data:`NativeLegalMoves`, registered as a virtual subclass
of :class:`~pacru.LegalMoves`: its length, indexing, iteration and
membership are C calls, with no Python frame in between; its families
(:attr:`~pacru.LegalMoves.steps`, ``reorientations``, ``families``,
``family_of``, ``from_field``) are those of the pure-Python engine, worked
out when first read, so they are the same objects either way. Moves are
:class:`~pacru.Move` values, shared as the Python engine shares them.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Final

from attrs.exceptions import FrozenInstanceError

from pacru import _native
from pacru.base import Outcome, Termination
from pacru.chevron.move import Move
from pacru.chevron.movegen import generate
from pacru.chevron.movelist import LegalMoves, _move_or_none
from pacru.chevron.rules import rules_of_key

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = [
    "NativeLegalMoves",
    "apply",
    "install",
    "legal_moves",
    "outcome",
    "position",
    "python_list",
]

_TERMINATIONS: Final = {t.value: t for t in Termination}


def outcome(termination: str, winners: int, players: tuple[str, ...]) -> Outcome:
    """The :class:`~pacru.Outcome` of a termination value and a bitmask of winning seats."""
    return Outcome(
        _TERMINATIONS[termination], tuple(p for i, p in enumerate(players) if winners >> i & 1)
    )


def position(state: ChevronState) -> _native.Position:
    """The extension's copy of ``state``'s position, made on first use and kept in the state."""
    pos = state._pos
    if pos is None:
        rules, result = state.rules, state.outcome
        winners = 0
        if result is not None:
            for i, p in enumerate(state.players):
                if p in result.winners:
                    winners |= 1 << i
        pos = _native.Position(
            rules.game,
            rules.meeting_rule,
            rules.move_cap,
            rules.idle_rounds,
            state.markers,
            state.chevrons,
            state.to_move,
            state.out,
            state.trigger,
            state.idle,
            state.ply,
            None if result is None else result.termination.value,
            winners,
            rules,
            state.players,
        )
        object.__setattr__(state, "_pos", pos)
    return pos  # type: ignore[return-value]


def python_list(pos: _native.Position) -> LegalMoves:
    """The pure-Python engine's list of a native position: the families of a native list."""
    return generate(rules_of_key(pos.options), *pos.generator_args())


#: The move list of the native engine: the extension's own class, a ``LegalMoves`` by
#: registration, so its length, indexing, iteration and membership are C calls.
NativeLegalMoves: Final = _native.NativeLegalMoves
LegalMoves.register(NativeLegalMoves)
_native.init(
    Move,
    LegalMoves,
    outcome,
    position,
    python_list,
    LegalMoves.empty(),
    _move_or_none,
    FrozenInstanceError,
)


def install(state_class: type[ChevronState]) -> None:
    """Give ``state_class`` the engine's C methods ``legal_moves`` and ``apply_move``.

    Every ply of a bot calls both: as method descriptors of the class the
    interpreter calls the engine with no Python frame in between. They behave
    as the Python methods they replace (same results, same errors, same
    docstrings); ``apply_move`` hands every call it does not take at once (a
    text, a move the state's list did not hand out last, keyword arguments) to
    the Python method, which checks the move.
    """
    python_methods = vars(state_class)
    legal, apply_move = _native.state_methods(
        state_class,
        python_methods["apply_move"],
        inspect.cleandoc(python_methods["legal_moves"].__doc__ or ""),
        inspect.cleandoc(python_methods["apply_move"].__doc__ or ""),
    )
    setattr(state_class, "legal_moves", legal)  # noqa: B010
    setattr(state_class, "apply_move", apply_move)  # noqa: B010


#: The legal moves of a state from the native engine (not cached: the state caches them).
legal_moves: Final = _native.legal_moves
#: The state after a legal move, from the native engine (checked by the state first).
apply: Final = _native.apply
