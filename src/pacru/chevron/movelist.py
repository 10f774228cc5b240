"""The immutable, lazy sequence returned by ``legal_moves()``.

A Pacru position can have hundreds of thousands of complete moves: every
reorientation with every set of relinquished fields is its own move {R14},
and every meeting field multiplies a move {R12}. Building a :class:`Move` for
each would cost far more than bots need, so legal moves are kept as
*families*: one per chevron step or reorientation, holding the choices
compactly (bitboards and field tuples). :class:`LegalMoves` is a read-only
``Sequence[Move]``: ``len`` and ``in`` are O(families), indexing decodes one
move (a binary search over the family offsets, then combinations are unranked,
not enumerated) and iteration yields moves one at a time in the documented
order:

1. steps and pincers, by chevron (ascending field), then direction of travel
   (left, straight, right of the facing), then distance; within a step, the
   choices in order (twist -, 0, +; connection before crossing fields; fields
   ascending), then meeting fields ascending;
2. reorientations, by chevron, then turn (-2, -1, +1, +2), then relinquished
   sets in lexicographic order;
3. or the single ``pass``.

The list is lazy all the way down: the generator hands over its raw chevron
steps and a :class:`~pacru.chevron.families.Choices` that works out a step's
choices; ``len`` counts each step's choices without building them
(:meth:`~pacru.chevron.families.Choices.size`), family objects are only made
when :attr:`LegalMoves.steps`, ``reorientations`` or ``families`` is read,
and indexing decodes the one move asked for
(:meth:`~pacru.chevron.families.Choices.move`). The families and the
building of moves are in :mod:`pacru.chevron.families`.

Every public object here is immutable: assigning or deleting an attribute of
a :class:`LegalMoves` raises :class:`attrs.exceptions.FrozenInstanceError`
(an ``AttributeError``), and the families' attributes are read-only
properties (``AttributeError``). The private working objects behind a list
(its choices and its caches) are plain objects that nothing changes after
construction but the caches, which never change what the list holds. Moves
are values: a move without relinquished fields is built once and shared
(:func:`~pacru.chevron.families.make_move`).
"""

from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, pairwise
from math import comb
from operator import index as _index
from operator import itemgetter
from typing import TYPE_CHECKING, Final, NoReturn, Self, SupportsIndex, overload

from attrs.exceptions import FrozenInstanceError

from pacru.chevron.families import (
    Choices,
    Family,
    FixedChoices,
    Option,
    ReorientationFamily,
    Step,
    StepFamily,
    make_move,
    option_moves,
    options_contain,
    unrank,
)
from pacru.chevron.move import Move
from pacru.geometry import bits

__all__ = ["Choices", "LegalMoves", "Option", "ReorientationFamily", "Step", "StepFamily"]

_new: Final = object.__new__

#: ``(steps, reorientations)``: ``(start, size)`` in the list of each family of each kind.
FamilyBounds = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


#: Why a move list does not pickle (the same message from both engines' lists).
NO_PICKLE: Final = (
    "a LegalMoves does not pickle: pickle its state, whose legal_moves() makes the list again"
)


def _move_or_none(text: str) -> Move | None:
    """The move ``text`` writes, or None for text outside the grammar (``in`` never raises)."""
    from pacru.errors import NotationError

    try:
        return Move.parse(text)
    except NotationError:
        return None


_PASS_ONLY: Final = (Move.pass_move(),)
_STEP_ORIGIN: Final = itemgetter(0)
_STEP_TARGET: Final = itemgetter(1)
#: The turns of a reorientation in list order, for fewer than 4 and for 4+ free own fields.
_TURNS_FEW: Final = (-1, 1)
_TURNS: Final = (-2, -1, 1, 2)


def _turn_sizes(free: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The turns a chevron may make with ``free`` own unoccupied fields, and each turn's
    number of relinquished sets: 45 degrees costs 2 fields, 90 degrees 4 (D25)."""
    n = free.bit_count()
    if n < 2:
        return (), ()
    half = n * (n - 1) // 2
    if n < 4:
        return _TURNS_FEW, (half, half)
    quarter = comb(n, 4)
    return _TURNS, (quarter, half, half, quarter)


#: Offsets of the step families (from 0, one more than the steps), the total number of
#: moves, the reorientation turns and the size of each turn's family.
_Layout = tuple[list[int], int, tuple[int, ...], tuple[int, ...]]


class _MoveList:
    """The working of a :class:`LegalMoves` of the Python engine, in a plain class.

    Private: reached only through its LegalMoves. The inputs never change; the
    layout, the family tuples and the last move handed out are caches filled
    on first use, which never change what the list holds.
    """

    __slots__ = (
        "choices",
        "codes",
        "free",
        "issued",
        "layout",
        "passes",
        "reorients",
        "step_families",
    )

    def __init__(
        self, choices: Choices | None, codes: tuple[int, ...], free: int, passes: bool
    ) -> None:
        self.choices = choices
        self.codes = codes  # the chevrons that may reorient {R14}
        self.free = free  # the own unoccupied fields they may give up (D25)
        self.passes = passes
        self.layout: _Layout | None = None
        self.step_families: tuple[StepFamily, ...] | None = None
        self.reorients: tuple[ReorientationFamily, ...] | None = None
        # The move last handed out by indexing: apply_move need not check it again.
        self.issued: Move | None = None

    def get_layout(self) -> _Layout:
        layout = self.layout
        if layout is None:
            choices = self.choices
            codes = self.codes
            offsets = [0] if choices is None else choices.offsets()
            if codes:
                turns, sizes = _turn_sizes(self.free)
                total = offsets[-1] + len(codes) * sum(sizes)
            else:
                turns = sizes = ()
                total = offsets[-1]
            layout = self.layout = (offsets, 1 if self.passes else total, turns, sizes)
        return layout

    def length(self) -> int:
        layout = self.layout
        if layout is None:
            layout = self.get_layout()
        return layout[1]

    def fields(self) -> tuple[int, ...]:
        return tuple(bits(self.free))

    def turns(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return _turn_sizes(self.free) if self.codes else ((), ())

    def steps(self) -> tuple[StepFamily, ...]:
        families = self.step_families
        if families is None:
            choices = self.choices
            if choices is None:
                families = ()
            else:
                # Sizes are passed on when len() has counted them, else counted when asked.
                layout = self.layout
                built: list[StepFamily] = []
                for i, (f, t, _d, _k, _j, capture) in enumerate(choices.steps):
                    size = -1 if layout is None else layout[0][i + 1] - layout[0][i]
                    built.append(StepFamily(f, t, capture, None, choices, i, size))
                families = tuple(built)
            self.step_families = families
        return families

    def origins(self) -> tuple[int, ...]:
        """The fields of the chevrons with a family, ascending (``sorted`` of every
        family's origin), without building the families."""
        choices = self.choices
        fields = set() if choices is None else set(map(_STEP_ORIGIN, choices.steps))
        if self.codes and self.turns()[0]:
            fields.update(code >> 3 for code in self.codes)
        return tuple(sorted(fields))

    def origin_families(self, origin: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The families of the chevron on ``origin`` without building them: the targets
        of its steps and pincers {R11} and the turns of its reorientations {R14}, in list
        order."""
        choices = self.choices
        targets: tuple[int, ...] = ()
        if choices is not None:
            # The steps come by chevron, ascending field: this chevron's are one run.
            steps = choices.steps
            lo = bisect_left(steps, origin, key=_STEP_ORIGIN)
            hi = bisect_right(steps, origin, lo, key=_STEP_ORIGIN)
            targets = tuple(map(_STEP_TARGET, steps[lo:hi]))
        codes = self.codes
        turns = self.turns()[0] if codes and origin in {c >> 3 for c in codes} else ()
        return targets, turns

    def origin_family(self, origin: int, k: int) -> StepFamily | ReorientationFamily:
        """The ``k``-th family of the chevron on ``origin`` (``origin_families`` order)."""
        choices = self.choices
        if choices is not None:
            steps = choices.steps
            i = bisect_left(steps, origin, key=_STEP_ORIGIN) + k
            if i < len(steps) and steps[i][0] == origin:
                f, t, _d, _k, _j, capture = steps[i]
                layout = self.layout
                size = -1 if layout is None else layout[0][i + 1] - layout[0][i]
                return StepFamily(f, t, capture, None, choices, i, size)
            k = i - bisect_right(steps, origin, key=_STEP_ORIGIN)
        turns, sizes = self.turns()
        return ReorientationFamily(origin, turns[k], self.fields(), self.free, sizes[k])

    def reorientations(self) -> tuple[ReorientationFamily, ...]:
        families = self.reorients
        if families is None:
            turns, sizes = self.turns()
            fields, free = self.fields(), self.free
            families = tuple(
                ReorientationFamily(code >> 3, turn, fields, free, size)
                for code in self.codes
                for turn, size in zip(turns, sizes, strict=True)
            )
            self.reorients = families
        return families

    def get(self, index: int) -> Move:
        layout = self.layout
        if layout is None:
            layout = self.get_layout()
        offsets, n = layout[0], layout[1]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("legal move index out of range")
        if self.passes:
            return _PASS_ONLY[0]
        if index < offsets[-1]:
            i = bisect_right(offsets, index) - 1
            choices = self.choices
            assert choices is not None
            move = choices.move(i, index - offsets[i])
        else:
            move = self.reorientation(index - offsets[-1], layout[2], layout[3])
        self.issued = move
        return move

    def reorientation(self, index: int, turns: tuple[int, ...], sizes: tuple[int, ...]) -> Move:
        chevron, index = divmod(index, sum(sizes))
        for i, size in enumerate(sizes):
            if index < size:
                turn = turns[i]
                chosen = unrank(self.fields(), 2 * abs(turn), index)
                return make_move(
                    self.codes[chevron] >> 3, None, False, 0, turn, False, None, None, chosen
                )
            index -= size
        raise AssertionError("unreachable: index < len(self)")

    def iterate(self) -> Iterator[Move]:
        if self.passes:
            yield _PASS_ONLY[0]
            return
        choices = self.choices
        if choices is not None:
            for i, (f, t, _d, _k, _j, c) in enumerate(choices.steps):
                yield from option_moves(f, t, c, choices.options(i))
        if self.codes:
            fields, turns = self.fields(), self.turns()[0]
            for code in self.codes:
                for turn in turns:
                    for chosen in combinations(fields, 2 * abs(turn)):
                        yield make_move(code >> 3, None, turn=turn, relinquished=chosen)

    def contains(self, move: object) -> bool:
        if move is self.issued and move is not None:
            return True
        if not isinstance(move, Move):
            return False
        if move.origin is None:
            return self.passes  # Move refuses a pass with fields or choices
        if move.target is None:
            return self.has_reorientation(move)
        i = self.step_index(move)
        if i < 0:
            return False
        families = self.step_families
        if families is not None:  # their options are cached
            return options_contain(families[i].options, move)
        choices = self.choices
        assert choices is not None
        return options_contain(choices.options(i), move)

    def step_index(self, move: Move) -> int:
        choices = self.choices
        if choices is None or move.turn:
            return -1
        origin, target, capture = move.origin, move.target, move.capture
        for i, step in enumerate(choices.steps):
            if step[1] == target and step[0] == origin and step[5] == capture:
                return i
        return -1

    def reorientation_index(self, move: Move) -> int:
        """The index in :meth:`reorientations` of ``move``'s family, or -1."""
        turns = self.turns()[0]
        if move.capture or move.turn not in turns:
            return -1
        for i, code in enumerate(self.codes):
            if code >> 3 == move.origin:
                return i * len(turns) + turns.index(move.turn)
        return -1

    def has_reorientation(self, move: Move) -> bool:
        if self.reorientation_index(move) < 0:
            return False
        rel = move.relinquished
        cost = 2 * abs(move.turn)
        if len(rel) != cost:
            return False
        free = self.free
        return all(free >> f & 1 for f in rel)

    def family_of(self, move: Move) -> Family | None:
        if move.origin is None:
            return None
        if move.target is None:
            k = self.reorientation_index(move)
            return self.reorientations()[k] if k >= 0 else None
        i = self.step_index(move)
        return self.steps()[i] if i >= 0 else None


class LegalMoves(Sequence[Move]):
    """An immutable, lazily decoded sequence of complete legal moves.

    Supports ``len``, indexing (also negative), slicing (returns a tuple),
    iteration and ``in`` (with a :class:`Move` or its text: ``"e1-e2" in
    moves``). :meth:`from_field` gives the moves of one chevron. ``steps``
    lists the step and pincer families, ``reorientations`` the reorientation
    families, for bots that want to sample by action first and by choice
    second. Its attributes are read-only properties, and the families are
    frozen.

    Built by the move generator (:func:`pacru.chevron.movegen.generate`):
    ``choices`` holds the raw steps and works out their choices (None for no
    step); ``reorienting`` are the codes (``field * 8 + facing``) of the
    chevrons that may reorient and ``free`` the bitboard of the own
    unoccupied fields they may give up {R14}.
    """

    __slots__ = ("_impl",)

    _impl: _MoveList

    def __init__(
        self,
        choices: Choices | None = None,
        reorienting: tuple[int, ...] = (),
        free: int = 0,
        passes: bool = False,
    ) -> None:
        _set_impl(self, _MoveList(choices, reorienting, free, passes))

    @classmethod
    def from_families(
        cls, steps: Sequence[StepFamily], reorienting: tuple[int, ...] = (), free: int = 0
    ) -> LegalMoves:
        """A list of given step families (for tests and tools), with optional reorientations."""
        raw = tuple((s.origin, s.target, 0, 0, False, s.capture) for s in steps)
        choices = FixedChoices(raw, tuple(s.options for s in steps)) if raw else None
        return cls(choices, reorienting, free)

    @property
    def steps(self) -> tuple[StepFamily, ...]:
        """The step and pincer families, in list order."""
        return self._impl.steps()

    @property
    def reorientations(self) -> tuple[ReorientationFamily, ...]:
        """The reorientation families {R14}: by chevron, then turn (-2, -1, +1, +2)."""
        return self._impl.reorientations()

    @property
    def families(self) -> tuple[Family, ...]:
        """Every family: the steps, then the reorientations."""
        impl = self._impl
        return (*impl.steps(), *impl.reorientations())

    def _family_draw(self, randrange: Callable[[int], int]) -> Move | None:
        """A family drawn by ``randrange(len(families))``, then its move drawn by
        ``randrange(family.size)``; None when there is no family (a pass, or no move).
        The native list draws the same move from the same numbers without building
        the families (:func:`pacru.bots.sample_move`)."""
        families = self.families
        if not families:
            return None
        family = families[randrange(len(families))]
        return family.get(randrange(family.size))

    def _family_bounds(self) -> FamilyBounds:
        """``(steps, reorientations)``: ``(start, size)`` of each step family and each
        reorientation family, in list order, so that ``families[i].get(k)`` is
        ``self[start + k]``; both empty for a pass. Bots draw moves by index with them
        without building the families (:class:`pacru.bots.MCTSBot`)."""
        impl = self._impl
        layout = impl.layout
        offsets, _n, _turns, sizes = impl.get_layout() if layout is None else layout
        if impl.passes:
            return (), ()
        steps = tuple((a, b - a) for a, b in pairwise(offsets))
        turns: list[tuple[int, int]] = []
        start = offsets[-1]
        for _code in impl.codes:
            for size in sizes:
                turns.append((start, size))
                start += size
        return steps, tuple(turns)

    def __len__(self) -> int:
        layout = self._impl.layout
        return (self._impl.get_layout() if layout is None else layout)[1]

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Move, ...]: ...
    def __getitem__(self, index: int | slice) -> Move | tuple[Move, ...]:
        if isinstance(index, slice):
            get = self._impl.get
            return tuple(get(i) for i in range(*index.indices(self._impl.length())))
        return self._impl.get(_index(index))  # any integer operator.index accepts, as a list

    def __iter__(self) -> Iterator[Move]:
        return self._impl.iterate()

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            move = _move_or_none(move)
        return self._impl.contains(move)

    def index(
        self, value: object, start: SupportsIndex = 0, stop: SupportsIndex = sys.maxsize, /
    ) -> int:
        """The index of ``value`` in the list, from ``start`` up to ``stop``, as :meth:`list.index`.

        ``start`` and ``stop`` are integers (any type :func:`operator.index` takes;
        negative counts from the end), given by position only.

        Raises:
            ValueError: ``value`` is not in the list (within the bounds).
            TypeError: a bound that is not an integer (None included).
        """
        low, high, _ = slice(_slice_bound(start), _slice_bound(stop)).indices(len(self))
        for i in range(low, high):
            item = self[i]
            if item is value or item == value:
                return i
        raise ValueError(f"{value!r} is not in list")

    def family_of(self, move: Move) -> Family | None:
        """The family a move would belong to (same chevron, target/turn, capture), if any."""
        return self._impl.family_of(move)

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
        impl = self._impl
        return LegalMoves.from_families(
            tuple(s for s in self.steps if s.origin == f),
            tuple(code for code in impl.codes if code >> 3 == f),
            impl.free,
        )

    @property
    def is_pass(self) -> bool:
        """True when the only legal move is ``pass``."""
        return self._impl.passes

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

    if not TYPE_CHECKING:  # for type checkers, as for any class, an unknown name is an error

        def __setattr__(self, name: str, value: object) -> NoReturn:
            raise FrozenInstanceError()

        def __delattr__(self, name: str) -> NoReturn:
            raise FrozenInstanceError()

    # An immutable value: a copy is the list itself. It does not pickle (it holds the
    # engine's working, not a position): pickle the state, whose legal_moves() makes it.
    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self

    def __reduce__(self) -> NoReturn:
        raise TypeError(NO_PICKLE)

    def __bool__(self) -> bool:
        # Every step holds at least one move. A generated list has reorientations only with
        # steps (R14, D26), but from_field() may keep one chevron's reorientations alone.
        impl = self._impl
        return impl.passes or impl.choices is not None or bool(impl.codes and impl.turns()[0])

    @classmethod
    def empty(cls) -> LegalMoves:
        """No legal moves (a finished game)."""
        return _EMPTY

    @classmethod
    def pass_only(cls) -> LegalMoves:
        """Only ``pass`` {S-R2, A-R10}."""
        return _PASS_LIST


def _slice_bound(value: SupportsIndex) -> int:
    """A bound of :meth:`LegalMoves.index`, as :meth:`list.index` takes it (None refused)."""
    try:
        return _index(value)
    except TypeError:
        raise TypeError("slice indices must be integers or have an __index__ method") from None


# The setter of the slot LegalMoves._impl, looked up once: it goes around the frozen
# __setattr__ (LegalMoves.__init__, new_legal_moves).
_set_impl: Final[Callable[[LegalMoves, _MoveList], None]] = vars(LegalMoves)["_impl"].__set__

_EMPTY: Final = LegalMoves()
_PASS_LIST: Final = LegalMoves(passes=True)


def new_legal_moves(
    choices: Choices, reorienting: tuple[int, ...] = (), free: int = 0
) -> LegalMoves:
    """``LegalMoves(choices, reorienting, free)``, built without the class call.

    The move generator makes one list per position; calling the class (its
    ``__init__`` and the frozen ``__setattr__`` it must go around) costs more
    than the rest of the list's construction.
    """
    moves: LegalMoves = _new(LegalMoves)
    _set_impl(moves, _MoveList(choices, reorienting, free, False))
    return moves
