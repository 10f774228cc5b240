"""The sequence returned by :meth:`pacru.lsd.LsdState.legal_moves`.

:class:`LsdLegalMoves` is an immutable ``Sequence[LsdMove]`` in the order of
``legal_moves()`` (by cell, x then y, then tile kind, then orientation), as
:class:`pacru.LegalMoves` is for the chevron games: it supports ``len``,
indexing, slicing (a tuple), iteration, ``in`` with a move *or its text*, and
:meth:`~LsdLegalMoves.from_field` for the placements on one cell. It compares
equal to a tuple or list of the same moves.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, SupportsIndex, overload

from pacru._integers import integer_pair
from pacru.errors import NotationError
from pacru.lsd.moves import _MOVES, LsdMove, _move, _move_key, parse_move_text
from pacru.lsd.tiles import Cell, Shade, encode_cell, face_code

if TYPE_CHECKING:
    from pacru._native import LsdMoves

__all__ = ["LsdLegalMoves", "native_list", "parse_cell"]


def parse_cell(cell: Cell | str) -> Cell:
    """``(x, y)`` from a cell tuple or its text ``"x,y"`` (as in move texts).

    Raises:
        NotationError: neither an ``(x, y)`` tuple of ints nor ``"x,y"`` text.
    """
    if isinstance(cell, str):
        try:
            _, _, _, x, y = parse_move_text("B+N@" + cell.strip())
        except NotationError:
            raise NotationError(f"a cell is written x,y such as 1,-2; not {cell[:40]!r}") from None
        return (x, y)
    pair = integer_pair(cell)
    if pair is not None:
        return pair
    raise NotationError(f"a cell is an (x, y) tuple of ints or 'x,y' text, not {cell!r}")


class LsdLegalMoves(Sequence[LsdMove]):
    """Every legal placement of a position, in order; read-only.

    ``move in moves`` takes an :class:`LsdMove` or a move text (the shade may
    be left out, as in :meth:`pacru.lsd.LsdState.parse_move`); text outside
    the grammar is simply not in the list.
    """

    __slots__ = ("_by_cell", "_keys", "_moves", "_set")

    def __init__(self, moves: tuple[LsdMove, ...] = (), keys: LsdMoves | None = None) -> None:
        # The native engine's list is its move keys (cell << 6 | face): a move is made when
        # read, the whole tuple only when something needs every move (_all).
        self._moves = moves
        self._keys = keys
        self._set: frozenset[LsdMove] | None = None
        self._by_cell: dict[Cell, tuple[LsdMove, ...]] | None = None

    def _all(self) -> tuple[LsdMove, ...]:
        keys = self._keys
        if keys is not None:
            self._moves = tuple(map(_move_key, keys.keys()))
            self._keys = None
        return self._moves

    def _move_keys(self) -> list[int] | None:
        """The native engine's move keys (``cell code << 6 | face``, in list order) while
        the moves are not made yet, else None: read by the LSD decisions
        (:mod:`pacru.encoding.lsd`), which make only the moves of the chosen cell."""
        keys = self._keys
        return None if keys is None else keys.keys()

    def _native_keys(self) -> LsdMoves | None:
        """The native engine's list of move keys while the moves are not made yet, else
        None: the LSD decisions (:mod:`pacru.encoding.lsd`) ask it for the cells and one
        cell's moves without a Python int per move."""
        return self._keys

    def __len__(self) -> int:
        keys = self._keys
        return len(self._moves) if keys is None else len(keys)

    @overload
    def __getitem__(self, index: int) -> LsdMove: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[LsdMove, ...]: ...
    def __getitem__(self, index: int | slice) -> LsdMove | tuple[LsdMove, ...]:
        keys = self._keys
        if keys is None:
            return self._moves[index]
        if type(index) is int:
            key = keys[index]
            return _MOVES.get(key) or _move_key(key)  # a lookup, mostly
        return self._all()[index]

    def __iter__(self) -> Iterator[LsdMove]:
        return iter(self._moves if self._keys is None else self._all())

    def __bool__(self) -> bool:
        return len(self) != 0

    def index(
        self, value: object, start: SupportsIndex = 0, stop: SupportsIndex = sys.maxsize, /
    ) -> int:
        """The index of ``value`` in the list, from ``start`` up to ``stop``, as :meth:`list.index`
        (as the chevron games' :meth:`pacru.LegalMoves.index`).

        ``start`` and ``stop`` are integers (any type :func:`operator.index` takes;
        negative counts from the end), given by position only; a move text is no item.

        Raises:
            ValueError: ``value`` is not in the list (within the bounds).
            TypeError: a bound that is not an integer (None included).
        """
        try:
            return self._all().index(value, start, stop)
        except ValueError:
            raise ValueError(f"{value!r} is not in list") from None

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            return any(m in self._lookup() for m in _candidates(move))
        return isinstance(move, LsdMove) and move in self._lookup()

    def _lookup(self) -> frozenset[LsdMove]:
        found = self._set
        if found is None:
            found = self._set = frozenset(self._all())
        return found

    def from_field(self, cell: Cell | str) -> tuple[LsdMove, ...]:
        """The placements on ``cell`` (``(x, y)`` or ``"x,y"``), in list order.

        Raises:
            NotationError: ``cell`` is not a cell.
        """
        cell = parse_cell(cell)
        by_cell = self._by_cell
        if by_cell is None:
            lists: dict[Cell, list[LsdMove]] = {}
            for m in self._all():
                lists.setdefault(m.cell, []).append(m)
            by_cell = self._by_cell = {c: tuple(ms) for c, ms in lists.items()}
        return by_cell.get(cell, ())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LsdLegalMoves):
            return self._all() == other._all()
        if isinstance(other, tuple | list):
            return list(self._all()) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type[LsdLegalMoves], tuple[tuple[LsdMove, ...]]]:
        # The moves themselves: the native engine's keys are not pickled (either engine loads).
        return (LsdLegalMoves, (self._all(),))

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in self[:8])
        more = f", ... ({len(self)} moves)" if len(self) > 8 else ""
        return f"<LsdLegalMoves [{shown}{more}]>"


def native_list(keys: LsdMoves) -> LsdLegalMoves:
    """The list of the native engine's move keys, each move made when read: the object
    made without ``__init__``'s call (a ply of a random player makes one)."""
    moves = _new(LsdLegalMoves)
    moves._moves = ()
    moves._keys = keys
    moves._set = None
    moves._by_cell = None
    return moves


_new = object.__new__


def _candidates(text: str) -> tuple[LsdMove, ...]:
    """The moves a text may name: one, or both shades when it leaves the shade out."""
    try:
        shade, shape, mask, x, y = parse_move_text(text)
    except NotationError:
        return ()
    cell = encode_cell(x, y)
    shades = (shade,) if shade is not None else (Shade.BLACK, Shade.WHITE)
    return tuple(_move(face_code(shape, s, mask), cell) for s in shades)
