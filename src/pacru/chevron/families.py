"""The move families of a legal move list, and the building of moves.

:class:`~pacru.chevron.movelist.LegalMoves` keeps the legal moves of a
position as families: a :class:`StepFamily` per chevron step or pincer (its
choices: twist, connection change or crossing field, meeting field) and a
:class:`ReorientationFamily` per chevron and turn (its sets of relinquished
fields) {R14}. The move generator hands the list its raw steps (:data:`Step`)
and a :class:`Choices` that works out, counts and decodes each step's choices
(:mod:`pacru.chevron.movegen`). Families are immutable: their attributes are
read-only properties. :func:`make_move` builds moves from trusted parts; a
move without relinquished fields is built once and shared.
"""

from __future__ import annotations

from abc import ABCMeta
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Final

import attrs

from pacru.chevron.move import Move
from pacru.geometry import bits

__all__ = [
    "Choices",
    "Family",
    "Option",
    "ReorientationFamily",
    "Step",
    "StepFamily",
    "make_move",
    "nth_field",
    "option_move",
    "option_moves",
    "options_size",
]

_new: Final = object.__new__


# _build_move sets every field: a field added to Move must be added there too.
assert tuple(attrs.fields_dict(Move)) == (
    "origin",
    "target",
    "capture",
    "twist",
    "turn",
    "connection",
    "marker",
    "meeting",
    "relinquished",
    "_cached_key",
)
# Move is frozen (its __setattr__ refuses): _build_move stores each slot through the slot's
# own descriptor, as object.__setattr__ does after looking the name up; the cheapest store
# found that retypes nothing (measured: docs/performance.rst).
(
    _set_origin,
    _set_target,
    _set_capture,
    _set_twist,
    _set_turn,
    _set_connection,
    _set_marker,
    _set_meeting,
    _set_relinquished,
    _set_cached_key,
) = (Move.__dict__[name].__set__ for name in attrs.fields_dict(Move))


def make_move(
    origin: int | None,
    target: int | None,
    capture: bool = False,
    twist: int = 0,
    turn: int = 0,
    connection: bool = False,
    marker: int | None = None,
    meeting: int | None = None,
    relinquished: tuple[int, ...] = (),
) -> Move:
    """Build a Move from trusted, already-validated parts (skips the converters).

    Moves are immutable values, so a move without relinquished fields (every step,
    pincer and pass) is built once and then shared: bots decode the same few
    thousand moves over and over, and setting a frozen object's ten slots costs
    ten times a dictionary lookup. The memo is bounded (see :data:`_MEMO_SIZE`).
    """
    if relinquished:
        return _build_move(
            origin, target, capture, twist, turn, connection, marker, meeting, relinquished
        )
    key = (
        (81 if origin is None else origin)
        + 82 * (81 if target is None else target)
        + 6724 * (81 if marker is None else marker)
        + 551368 * (81 if meeting is None else meeting)
        + 45212176 * ((twist + 1) + 3 * (turn + 2) + 15 * capture + 30 * connection)
    )
    move = _MEMO.get(key)
    if move is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        move = _MEMO[key] = _build_move(
            origin, target, capture, twist, turn, connection, marker, meeting, ()
        )
    return move


#: How many moves :func:`make_move` keeps before starting afresh.
_MEMO_SIZE: Final = 1 << 16
#: Moves without relinquished fields, by a key packing their parts (below 2^62).
_MEMO: Final[dict[int, Move]] = {}


def _build_move(
    origin: int | None,
    target: int | None,
    capture: bool,
    twist: int,
    turn: int,
    connection: bool,
    marker: int | None,
    meeting: int | None,
    relinquished: tuple[int, ...],
) -> Move:
    # The parts are trusted: no converters, no checks (Move's own __init__ runs both).
    m = _new(Move)
    _set_origin(m, origin)
    _set_target(m, target)
    _set_capture(m, capture)
    _set_twist(m, twist)
    _set_turn(m, turn)
    _set_connection(m, connection)
    _set_marker(m, marker)
    _set_meeting(m, meeting)
    _set_relinquished(m, relinquished)
    _set_cached_key(m, None)
    return m


def nth_field(mask: int, n: int) -> int:
    """The ``n``-th set bit of ``mask`` (from 0, ascending): the ``n``-th field it holds."""
    low = (mask & -mask).bit_length() - 1
    mask >>= low  # the fields of a borderland then fit a small int: cheap to step through
    for _ in range(n):
        mask &= mask - 1
    return low + (mask & -mask).bit_length() - 1


#: One choice of a step: (twist, connection, marker field or -1, meeting bitboard or 0).
Option = tuple[int, bool, int, int]
#: A chevron step before choices: (origin, target, direction, distance, jumped, capture).
Step = tuple[int, int, int, int, bool, bool]


def options_size(options: tuple[Option, ...]) -> int:
    """The number of complete moves a step's choices make: a meeting field each, else 1."""
    n = 0
    for option in options:
        n += option[3].bit_count() or 1
    return n


def option_move(
    origin: int, target: int, capture: bool, options: tuple[Option, ...], index: int
) -> Move:
    """The ``index``-th complete move of a step with these choices."""
    for twist, conn, marker, meet in options:
        n = meet.bit_count() or 1
        if index < n:
            return make_move(
                origin,
                target,
                capture,
                twist,
                0,
                conn,
                None if marker < 0 else marker,
                nth_field(meet, index) if meet else None,
            )
        index -= n
    raise IndexError(index)


def option_moves(
    origin: int, target: int, capture: bool, options: tuple[Option, ...]
) -> Iterator[Move]:
    """Every complete move of a step with these choices, in list order (meeting fields
    ascending within a choice)."""
    for twist, conn, marker, meet in options:
        mk = None if marker < 0 else marker
        if meet:
            for field in bits(meet):
                yield make_move(origin, target, capture, twist, 0, conn, mk, field)
        else:
            yield make_move(origin, target, capture, twist, 0, conn, mk, None)


def options_contain(options: tuple[Option, ...], move: Move) -> bool:
    """Whether ``move``'s choices are among ``options`` (origin, target, capture already match)."""
    if move.turn or move.relinquished:
        return False
    marker = -1 if move.marker is None else move.marker
    for twist, conn, mk, meet in options:
        if twist == move.twist and conn == move.connection and mk == marker:
            if meet:
                return move.meeting is not None and bool(meet >> move.meeting & 1)
            return move.meeting is None
    return False


class Choices:
    """The step choices of one position, worked out step by step when asked for.

    The move generator (:mod:`pacru.chevron.movegen`) subclasses this for each
    kind of game. ``steps`` are the raw steps in list order; :meth:`options`
    gives a step's choices, :meth:`size` their number of complete moves,
    which a subclass may count without building the choices.
    """

    __slots__ = ("steps",)

    steps: tuple[Step, ...]

    def __init__(self, steps: tuple[Step, ...]) -> None:
        # Plain assignments: one of these is built per position, so no frozen __setattr__
        # (private, like _MoveList; nothing assigns to it after construction).
        self.steps = steps

    def options(self, index: int) -> tuple[Option, ...]:
        """The choices of ``steps[index]``."""
        raise NotImplementedError

    def move(self, index: int, choice: int) -> Move:
        """The ``choice``-th complete move of ``steps[index]`` (``0 <= choice < size``).

        A subclass may decode it without building every choice of the step.
        """
        f, t, _d, _k, _j, capture = self.steps[index]
        return option_move(f, t, capture, self.options(index), choice)

    def size(self, index: int) -> int:
        """The number of complete moves of ``steps[index]``: :func:`options_size` of its options."""
        return options_size(self.options(index))

    def offsets(self) -> list[int]:
        """Where each step's moves start in the list, from 0, and where the last one ends."""
        out = [0]
        total = 0
        for i in range(len(self.steps)):
            total += self.size(i)
            out.append(total)
        return out


class FixedChoices(Choices):
    """Choices given outright, one tuple per step (a list built from families)."""

    __slots__ = ("_options",)

    _options: tuple[tuple[Option, ...], ...]

    def __init__(self, steps: tuple[Step, ...], options: tuple[tuple[Option, ...], ...]) -> None:
        self.steps = steps
        self._options = options

    def options(self, index: int) -> tuple[Option, ...]:
        return self._options[index]


class StepFamily(metaclass=ABCMeta):  # noqa: B024 - for the native class's registration
    """Every complete move of one chevron step or pincer, differing only in choices.

    Built with its ``options``, or by :class:`LegalMoves` from the generator's
    :class:`Choices`, which then works the options out on first use: a random
    playout looks at the choices of one family per ply, so Pacru's benefit and
    meeting fields are only worked out for the family that is asked (see
    :mod:`pacru.chevron.movegen`). Immutable: its attributes are read-only
    properties. The native engine's family (``pacru._native.StepFamily``) is one by
    registration (hence the ``ABCMeta``).
    """

    __slots__ = ("_capture", "_choices", "_index", "_options", "_origin", "_size", "_target")

    def __init__(
        self,
        origin: int,
        target: int,
        capture: bool,
        options: tuple[Option, ...] | None = None,
        choices: Choices | None = None,
        index: int = -1,
        size: int = -1,
    ) -> None:
        # Either the options, or the position's choices and the step's index (and size).
        if options is None and choices is None:
            raise TypeError("a StepFamily needs its options")
        self._origin = origin
        self._target = target
        self._capture = capture
        self._options = options
        self._size = size
        self._choices = choices
        self._index = index

    @property
    def origin(self) -> int:
        """The chevron's field."""
        return self._origin

    @property
    def target(self) -> int:
        """The destination field (a pincer's victim's field)."""
        return self._target

    @property
    def capture(self) -> bool:
        """True for a Pacru pincer {R11}."""
        return self._capture

    @property
    def options(self) -> tuple[Option, ...]:
        """The choices: (twist, connection, marker field or -1, meeting bitboard or 0)."""
        options = self._options
        if options is None:
            assert self._choices is not None
            options = self._options = self._choices.options(self._index)  # a cache
        return options

    @property
    def size(self) -> int:
        """The number of complete moves in this family (at least 1)."""
        size = self._size
        if size < 0:
            size = self._size = options_size(self.options)
        return size

    def get(self, index: int) -> Move:
        """The ``index``-th move of this family, in list order (``0 <= index < size``).

        Raises:
            IndexError: ``index`` is out of range.
        """
        if index < 0:
            raise IndexError(index)
        return option_move(self.origin, self.target, self.capture, self.options, index)

    def __iter__(self) -> Iterator[Move]:
        return option_moves(self.origin, self.target, self.capture, self.options)

    def contains(self, move: Move) -> bool:
        """Whether ``move`` is one of this family's moves."""
        if move.origin != self.origin or move.target != self.target:
            return False
        return move.capture == self.capture and options_contain(self.options, move)

    def __repr__(self) -> str:
        return (
            f"<StepFamily {self.origin}->{self.target}"
            f"{' capture' if self.capture else ''}, {self.size} moves>"
        )


#: ``_COMB[n][k]``: C(n, k) for the sizes a reorientation needs (n <= 81, k <= 4).
_COMB: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(comb(n, k) for k in range(5)) for n in range(82)
)


def unrank(fields: tuple[int, ...], cost: int, index: int) -> tuple[int, ...]:
    """The ``index``-th ``cost``-subset of ``fields`` in lexicographic order (cost <= 4)."""
    chosen: list[int] = []
    n, k, start = len(fields), cost, 0
    while k:
        for i in range(start, n):
            count = _COMB[n - i - 1][k - 1]
            if index < count:
                chosen.append(fields[i])
                start, k = i + 1, k - 1
                break
            index -= count
    return tuple(chosen)


class ReorientationFamily(metaclass=ABCMeta):  # noqa: B024 - as StepFamily
    """Every reorientation of one chevron by one turn: each set of ``cost`` fields {R14}.

    ``fields`` are the own unoccupied fields that may be given up, ascending;
    ``mask`` their bitboard; ``cost`` is 2 for a 45-degree turn and 4 for 90
    degrees (D25); ``size`` is C(len(fields), cost). Immutable: its attributes
    are read-only properties. The native engine's family
    (``pacru._native.ReorientationFamily``) is one by registration.
    """

    __slots__ = ("_cost", "_fields", "_mask", "_origin", "_size", "_turn")

    def __init__(
        self,
        origin: int,
        turn: int,
        fields: tuple[int, ...],
        mask: int | None = None,
        size: int | None = None,
    ) -> None:
        # The list passes mask and size, shared by every family of the position.
        cost = 2 * abs(turn)
        self._origin = origin
        self._turn = turn
        self._fields = fields
        self._mask = sum(1 << f for f in fields) if mask is None else mask
        self._cost = cost
        self._size = comb(len(fields), cost) if size is None else size

    @property
    def origin(self) -> int:
        """The chevron's field."""
        return self._origin

    @property
    def turn(self) -> int:
        """45-degree steps, clockwise positive: -2, -1, 1 or 2."""
        return self._turn

    @property
    def fields(self) -> tuple[int, ...]:
        """The own unoccupied fields that may be given up, ascending (D25)."""
        return self._fields

    @property
    def mask(self) -> int:
        """The bitboard of :attr:`fields`."""
        return self._mask

    @property
    def cost(self) -> int:
        """The number of fields given up: 2 for 45 degrees, 4 for 90 (D25)."""
        return self._cost

    @property
    def size(self) -> int:
        """The number of moves: C(len(fields), cost)."""
        return self._size

    def get(self, index: int) -> Move:
        """The ``index``-th move: relinquished sets in lexicographic order.

        Raises:
            IndexError: ``index`` is out of range.
        """
        if not 0 <= index < self.size:
            raise IndexError(index)
        return make_move(
            self.origin, None, turn=self.turn, relinquished=unrank(self.fields, self.cost, index)
        )

    def __iter__(self) -> Iterator[Move]:
        for chosen in combinations(self.fields, self.cost):
            yield make_move(self.origin, None, turn=self.turn, relinquished=chosen)

    def contains(self, move: Move) -> bool:
        """Whether ``move`` is one of this family's moves."""
        if move.origin != self.origin or move.turn != self.turn or move.target is not None:
            return False
        rel = move.relinquished
        if len(rel) != self.cost:
            return False
        return all(self.mask >> f & 1 for f in rel)

    def __repr__(self) -> str:
        return f"<ReorientationFamily {self.origin} turn {self.turn:+d}, {self.size} moves>"


#: A family of a legal move list: one chevron step or pincer, or one reorientation turn.
Family = StepFamily | ReorientationFamily
