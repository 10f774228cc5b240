"""The immutable, lazy sequence returned by ``legal_moves()``.

A Pacru position can have hundreds of thousands of complete moves: every
reorientation with every set of relinquished fields is its own move {R14},
and every meeting field multiplies a move {R12}. Building a :class:`Move` for
each would cost far more than bots need, so legal moves are kept as
*families*: one per chevron step or reorientation, holding the choices
compactly (bitboards and field tuples). :class:`LegalMoves` is a read-only
``Sequence[Move]``: ``len`` and ``in`` are O(families), indexing decodes one
move (combinations are unranked, not enumerated) and iteration yields moves
one at a time in the documented order:

1. steps and pincers, by chevron (ascending field), then direction of travel
   (left, straight, right of the facing), then distance; within a step, the
   choices in order (twist -, 0, +; connection before crossing fields; fields
   ascending), then meeting fields ascending;
2. reorientations, by chevron, then turn (-2, -1, +1, +2), then relinquished
   sets in lexicographic order;
3. or the single ``pass``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import Final, overload

import attrs

from pacru.chevron.move import Move

__all__ = ["LegalMoves", "ReorientationFamily", "StepFamily"]

_new = object.__new__


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
    """Build a Move from trusted, already-validated parts (skips the converters)."""
    m = _new(Move)
    _origin(m, origin)
    _target(m, target)
    _capture(m, capture)
    _twist(m, twist)
    _turn(m, turn)
    _connection(m, connection)
    _marker(m, marker)
    _meeting(m, meeting)
    _relinquished(m, relinquished)
    _cached_hash(m, None)
    return m


# The slot setters of the frozen Move, looked up once: faster than object.__setattr__.
(
    _origin,
    _target,
    _capture,
    _twist,
    _turn,
    _connection,
    _marker,
    _meeting,
    _relinquished,
    _cached_hash,
) = (getattr(Move, name).__set__ for name in (*attrs.fields_dict(Move), "_attrs_cached_hash"))


def _nth_bit(mask: int, n: int) -> int:
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _bit_fields(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: One choice of a step: (twist, connection, marker field or -1, meeting bitboard or 0).
Option = tuple[int, bool, int, int]


class StepFamily:
    """Every complete move of one chevron step or pincer, differing only in choices.

    A subclass may leave ``options`` out and work them out on first use
    (:meth:`_compute_options`): a random playout looks at the choices of one
    family per ply, so Pacru's benefit and meeting fields are only worked out
    for the family that is asked (see :mod:`pacru.chevron.movegen`).
    """

    __slots__ = ("_options", "_size", "capture", "origin", "target")

    def __init__(
        self, origin: int, target: int, capture: bool, options: tuple[Option, ...] | None = None
    ) -> None:
        self.origin = origin
        self.target = target
        self.capture = capture
        self._options = options
        self._size = -1

    @property
    def options(self) -> tuple[Option, ...]:
        """The choices: (twist, connection, marker field or -1, meeting bitboard or 0)."""
        options = self._options
        if options is None:
            options = self._options = self._compute_options()
        return options

    def _compute_options(self) -> tuple[Option, ...]:
        raise TypeError("this StepFamily was built without its options")

    @property
    def size(self) -> int:
        """The number of complete moves in this family (at least 1)."""
        size = self._size
        if size < 0:
            size = self._size = sum(m.bit_count() or 1 for _, _, _, m in self.options)
        return size

    def get(self, index: int) -> Move:
        for twist, conn, marker, meet in self.options:
            n = meet.bit_count() or 1
            if index < n:
                return make_move(
                    self.origin,
                    self.target,
                    self.capture,
                    twist,
                    0,
                    conn,
                    None if marker < 0 else marker,
                    _nth_bit(meet, index) if meet else None,
                )
            index -= n
        raise IndexError(index)

    def __iter__(self) -> Iterator[Move]:
        o, t, c = self.origin, self.target, self.capture
        for twist, conn, marker, meet in self.options:
            mk = None if marker < 0 else marker
            if meet:
                for f in _bit_fields(meet):
                    yield make_move(o, t, c, twist, 0, conn, mk, f)
            else:
                yield make_move(o, t, c, twist, 0, conn, mk, None)

    def contains(self, move: Move) -> bool:
        if move.turn or move.relinquished:
            return False
        marker = -1 if move.marker is None else move.marker
        for twist, conn, mk, meet in self.options:
            if twist == move.twist and conn == move.connection and mk == marker:
                if meet:
                    return move.meeting is not None and bool(meet >> move.meeting & 1)
                return move.meeting is None
        return False


class ReorientationFamily:
    """Every reorientation of one chevron by one turn: each set of ``cost`` fields {R14}."""

    __slots__ = ("cost", "fields", "mask", "origin", "size", "turn")

    def __init__(
        self,
        origin: int,
        turn: int,
        fields: tuple[int, ...],
        mask: int | None = None,
        size: int | None = None,
    ) -> None:
        # The generator passes mask and size, shared by every family of the position.
        self.origin = origin
        self.turn = turn
        self.fields = fields
        self.mask = sum(1 << f for f in fields) if mask is None else mask
        self.cost = cost = 2 * abs(turn)
        self.size = comb(len(fields), cost) if size is None else size

    def get(self, index: int) -> Move:
        # Unrank the index-th combination in lexicographic order.
        chosen: list[int] = []
        n, k, start = len(self.fields), self.cost, 0
        while k:
            for i in range(start, n):
                count = comb(n - i - 1, k - 1)
                if index < count:
                    chosen.append(self.fields[i])
                    start, k = i + 1, k - 1
                    break
                index -= count
        return make_move(self.origin, None, turn=self.turn, relinquished=tuple(chosen))

    def __iter__(self) -> Iterator[Move]:
        for chosen in combinations(self.fields, self.cost):
            yield make_move(self.origin, None, turn=self.turn, relinquished=chosen)

    def contains(self, move: Move) -> bool:
        rel = move.relinquished
        if len(rel) != self.cost or len(set(rel)) != self.cost:
            return False
        return all(self.mask >> f & 1 for f in rel) and move.target is None


def _move_or_none(text: str) -> Move | None:
    """The move ``text`` writes, or None for text outside the grammar (``in`` never raises)."""
    from pacru.errors import NotationError

    try:
        return Move.parse(text)
    except NotationError:
        return None


Family = StepFamily | ReorientationFamily
_PASS_ONLY: Final = (Move.pass_move(),)


class LegalMoves(Sequence[Move]):
    """An immutable, lazily decoded sequence of complete legal moves.

    Supports ``len``, indexing (also negative), slicing (returns a tuple),
    iteration and ``in`` (with a :class:`Move` or its text: ``"e1-e2" in
    moves``). :meth:`from_field` gives the moves of one chevron. ``steps``
    lists the step and pincer families, ``reorientations`` the reorientation
    families, for bots that want to sample by action first and by choice second.
    """

    __slots__ = ("_offsets", "_passes", "families", "reorientations", "steps")

    def __init__(
        self,
        steps: tuple[StepFamily, ...],
        reorientations: tuple[ReorientationFamily, ...] = (),
        passes: bool = False,
    ) -> None:
        self.steps = steps
        self.reorientations = reorientations
        self.families: tuple[Family, ...] = (*steps, *reorientations)
        self._passes = passes
        # Offsets need every family's size, so they wait for the first len() or index.
        self._offsets: list[int] | None = None

    def _family_offsets(self) -> list[int]:
        offsets = self._offsets
        if offsets is None:
            offsets = []
            total = 0
            for fam in self.families:
                offsets.append(total)
                total += fam.size
            offsets.append(total)
            self._offsets = offsets
        return offsets

    def __len__(self) -> int:
        return 1 if self._passes else self._family_offsets()[-1]

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Move, ...]: ...
    def __getitem__(self, index: int | slice) -> Move | tuple[Move, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("legal move index out of range")
        if self._passes:
            return _PASS_ONLY[0]
        offsets = self._family_offsets()
        lo, hi = 0, len(self.families) - 1
        while lo < hi:  # the last family whose offset is <= index
            mid = (lo + hi + 1) // 2
            if offsets[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return self.families[lo].get(index - offsets[lo])

    def __iter__(self) -> Iterator[Move]:
        if self._passes:
            yield from _PASS_ONLY
            return
        for fam in self.families:
            yield from fam

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            move = _move_or_none(move)
        if not isinstance(move, Move):
            return False
        if move.origin is None:
            return self._passes  # Move refuses a pass with fields or choices
        family = self.family_of(move)
        return family is not None and family.contains(move)

    def family_of(self, move: Move) -> Family | None:
        """The family a move would belong to (same chevron, target/turn, capture), if any."""
        # A scan of the few families is cheaper than building an index for each position.
        origin = move.origin or 0
        target = move.target
        if target is None:
            if not move.capture:
                turn = move.turn
                for r in self.reorientations:
                    if r.origin == origin and r.turn == turn:
                        return r
            return None
        if not move.turn:
            capture = move.capture
            for s in self.steps:
                if s.target == target and s.origin == origin and s.capture == capture:
                    return s
        return None

    def from_field(self, field: int | str) -> LegalMoves:
        """The legal moves of the chevron on ``field`` (name or index), in list order.

        A :class:`LegalMoves` of that chevron's families only (empty when no
        chevron of the player to move stands there, or the only move is a pass).

        Raises:
            NotationError: an unknown field name.
            ValueError: an index outside 0..80.
        """
        from pacru.geometry import field_index

        f = field_index(field)
        return LegalMoves(
            tuple(s for s in self.steps if s.origin == f),
            tuple(r for r in self.reorientations if r.origin == f),
        )

    @property
    def is_pass(self) -> bool:
        """True when the only legal move is ``pass``."""
        return self._passes

    def __repr__(self) -> str:
        n = len(self)
        shown = ", ".join(str(m) for m in self[:8])
        more = f", ... ({n} moves)" if n > 8 else ""
        return f"<LegalMoves [{shown}{more}]>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        if isinstance(other, tuple | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        # Every family holds at least one move, so no size is needed.
        return self._passes or bool(self.families)

    @classmethod
    def empty(cls) -> LegalMoves:
        """No legal moves (a finished game)."""
        return cls(())

    @classmethod
    def pass_only(cls) -> LegalMoves:
        """Only ``pass`` {S-R2, A-R10}."""
        return cls((), (), passes=True)
