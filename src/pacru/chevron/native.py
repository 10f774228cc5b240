"""The native engine behind :mod:`pacru.chevron.engine`: the Rust extension ``pacru._native``.

A :class:`~pacru.ChevronState` keeps the extension's copy of its position in
a private slot, made from its bitboards and chevron codes on first use (a
state made by the native engine gets it at once), so a ply crosses into the
extension once to list the moves and once to apply one. The move list is a
:class:`NativeLegalMoves`, a :class:`~pacru.LegalMoves` whose length,
indexing, iteration and membership are the extension's; its families
(:attr:`~pacru.LegalMoves.steps`, ``reorientations``, ``families``,
``family_of``, ``from_field``) are those of the pure-Python engine, worked
out when first read, so they are the same objects either way. Moves are
:class:`~pacru.Move` values, shared as the Python engine shares them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Final, overload

from pacru import _native
from pacru.base import Outcome, Termination
from pacru.chevron.families import Family, ReorientationFamily, StepFamily, make_move
from pacru.chevron.move import Move
from pacru.chevron.movegen import generate
from pacru.chevron.movelist import FamilyBounds, LegalMoves, _move_or_none
from pacru.chevron.rules import rules_of_key

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["NativeLegalMoves", "apply", "legal_moves", "outcome", "position"]

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
        )
        object.__setattr__(state, "_pos", pos)
    return pos  # type: ignore[return-value]


class NativeLegalMoves(LegalMoves):
    """A :class:`~pacru.LegalMoves` of the native engine (see the module docstring).

    ``_impl`` is the extension's move list (set by the extension, which makes
    these objects); ``_py`` the Python engine's list of the same position,
    made when the families are first read.
    """

    __slots__ = ("_py",)

    _impl: _native.Moves  # type: ignore[assignment]
    _py: LegalMoves

    def _python(self) -> LegalMoves:
        try:
            return self._py
        except AttributeError:
            pos = self._impl.position
            py = generate(rules_of_key(pos.options), *pos.generator_args())
            _set_py(self, py)
            return py

    @property
    def steps(self) -> tuple[StepFamily, ...]:
        """The step and pincer families, in list order."""
        return self._python().steps

    @property
    def reorientations(self) -> tuple[ReorientationFamily, ...]:
        """The reorientation families {R14}: by chevron, then turn (-2, -1, +1, +2)."""
        return self._python().reorientations

    @property
    def families(self) -> tuple[Family, ...]:
        """Every family: the steps, then the reorientations."""
        return self._python().families

    def _family_draw(self, randrange: Callable[[int], int]) -> Move | None:
        # The families' bounds come from the extension: the same numbers draw the same
        # move as LegalMoves._family_draw, without the Python engine's families.
        impl = self._impl
        count = impl.family_count()
        if not count:
            return None
        start, size = impl.family_range(randrange(count))
        return self[start + randrange(size)]

    def _family_bounds(self) -> FamilyBounds:
        # The extension's bounds, without the Python engine's families. The steps come
        # first; a family is a reorientation when its first move has no target {R14}.
        impl = self._impl
        count = impl.family_count()
        bounds = tuple(impl.family_range(i) for i in range(count))
        lo, hi = 0, count
        get = impl.get
        while lo < hi:
            mid = (lo + hi) // 2
            if get(bounds[mid][0]).target is None:
                hi = mid
            else:
                lo = mid + 1
        return bounds[:lo], bounds[lo:]

    def family_of(self, move: Move) -> Family | None:
        """The family a move would belong to (same chevron, target/turn, capture), if any."""
        return self._python().family_of(move)

    def from_field(self, field: int | str) -> LegalMoves:
        """The legal moves of the chevron on ``field`` (see :meth:`LegalMoves.from_field`)."""
        return self._python().from_field(field)

    def __len__(self) -> int:
        return len(self._impl)

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Move, ...]: ...
    def __getitem__(self, index: int | slice) -> Move | tuple[Move, ...]:
        if isinstance(index, slice):
            get = self._impl.get
            return tuple(get(i) for i in range(*index.indices(len(self._impl))))
        return self._impl.get(index)

    def __iter__(self) -> Iterator[Move]:
        return iter(self._impl)

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            move = _move_or_none(move)
        return isinstance(move, Move) and self._impl.contains(move)

    @property
    def is_pass(self) -> bool:
        """True when the only legal move is ``pass``."""
        return self._impl.is_pass

    def __bool__(self) -> bool:
        return len(self._impl) > 0


_set_py: Final[Callable[[NativeLegalMoves, LegalMoves], None]] = vars(NativeLegalMoves)[
    "_py"
].__set__
_native.init(make_move, NativeLegalMoves, outcome, position, LegalMoves.empty())

#: The legal moves of a state from the native engine (not cached: the state caches them).
legal_moves: Final = _native.legal_moves
#: The state after a legal move, from the native engine (checked by the state first).
apply: Final = _native.apply
