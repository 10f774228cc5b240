"""Board geometry shared by the four chevron games {G1, G2, G3, G4, G5, G6}.

Conventions:

* A **field** is an ``int`` 0..80: ``a1 = 0``, row-major from rank 1, so
  ``index = (rank - 1) * 9 + file`` with files a..i = 0..8 west to east and
  ranks 1..9 south to north. ``i9 = 80``. Module constants ``A1`` .. ``I9``
  hold these indices, as ``chess.E4`` does in python-chess.
* A **direction** (also a chevron's **facing**) is a :class:`Direction`:
  N, NE, E, SE, S, SW, W, NW = 0..7, clockwise {G3}. Turning ``k`` steps of
  45 degrees clockwise is ``Direction((d + k) % 8)``.
* A **borderland** is an ``int`` 0..8, ``(rank0 // 3) * 3 + file0 // 3``, named
  by its centre field as AbstractPlay does: b2 e2 h2 / b5 e5 h5 / b8 e8 h8
  {G2}.
* A **bitboard** is an ``int`` whose bit ``f`` stands for field ``f``.

Everything here is computed once at import; move generation only indexes
these tables and never does coordinate arithmetic {G5}.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from pacru._integers import integer
from pacru.errors import NotationError

__all__ = [
    "ALL_FIELDS",
    "BETWEEN",
    "BIT",
    "BORDERLAND",
    "BORDERLAND_FIELDS",
    "BORDERLAND_MASK",
    "BORDERLAND_NAMES",
    "FIELD_NAMES",
    "FORWARD",
    "LINE",
    "NEIGHBOUR",
    "RAYS",
    "Direction",
    "bits",
    "borderland_of",
    "field_index",
    "field_name",
    "forward_directions",
    "parse_field",
]

FILES: Final = "abcdefghi"
RANKS: Final = "123456789"

#: Every field index, 0..80.
ALL_FIELDS: Final = range(81)
#: Bitboard with all 81 bits set.
FULL_BOARD: Final = (1 << 81) - 1

(A1, B1, C1, D1, E1, F1, G1, H1, I1) = range(9)
(A2, B2, C2, D2, E2, F2, G2, H2, I2) = range(9, 18)
(A3, B3, C3, D3, E3, F3, G3, H3, I3) = range(18, 27)
(A4, B4, C4, D4, E4, F4, G4, H4, I4) = range(27, 36)
(A5, B5, C5, D5, E5, F5, G5, H5, I5) = range(36, 45)
(A6, B6, C6, D6, E6, F6, G6, H6, I6) = range(45, 54)
(A7, B7, C7, D7, E7, F7, G7, H7, I7) = range(54, 63)
(A8, B8, C8, D8, E8, F8, G8, H8, I8) = range(63, 72)
(A9, B9, C9, D9, E9, F9, G9, H9, I9) = range(72, 81)


class Direction(enum.IntEnum):
    """One of the eight compass directions, clockwise from north {G3}.

    Used both for the direction of travel and for a chevron's facing. The
    ``name`` is the compass abbreviation (``"N"``, ``"NE"``, ...).
    """

    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7

    @property
    def delta(self) -> tuple[int, int]:
        """(dx, dy) of one step: file change and rank change."""
        return _DELTAS[self]

    def turned(self, steps: int) -> Direction:
        """This direction turned ``steps`` times 45 degrees clockwise (negative: anticlockwise)."""
        return Direction((self + steps) % 8)

    @property
    def opposite(self) -> Direction:
        """The direction 180 degrees away."""
        return Direction((self + 4) % 8)

    @property
    def arrow(self) -> str:
        """A one-character arrow pointing this way, for board drawings."""
        return "↑↗→↘↓↙←↖"[self]

    def __repr__(self) -> str:
        return f"Direction.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Direction:
        """The direction named ``text`` (``"N"``, ``"sw"``, ...).

        Raises:
            NotationError: ``text`` is not one of N NE E SE S SW W NW.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise NotationError(
                f"{text!r} is not a direction; expected one of N NE E SE S SW W NW", text
            ) from None


_DELTAS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

#: Field names, indexed by field: ``FIELD_NAMES[0] == "a1"``.
FIELD_NAMES: Final[tuple[str, ...]] = tuple(f + r for r in RANKS for f in FILES)
_FIELD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(FIELD_NAMES)}

#: Borderland of each field (0..8), indexed by field {G2}.
BORDERLAND: Final[tuple[int, ...]] = tuple((f // 27) * 3 + (f % 9) // 3 for f in ALL_FIELDS)
#: AbstractPlay-style names of the borderlands, by their centre field.
BORDERLAND_NAMES: Final = ("b2", "e2", "h2", "b5", "e5", "h5", "b8", "e8", "h8")
#: The fields of each borderland, ascending.
BORDERLAND_FIELDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(f for f in ALL_FIELDS if BORDERLAND[f] == b) for b in range(9)
)
#: ``BIT[field]``: the bitboard of that one field, ``1 << field`` (a lookup, not a shift,
#: in the move generator's inner loops).
BIT: Final[tuple[int, ...]] = tuple(1 << f for f in ALL_FIELDS)
#: Bitboard of each borderland.
BORDERLAND_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << f for f in fields) for fields in BORDERLAND_FIELDS
)


def _step(field: int, direction: int) -> int:
    dx, dy = _DELTAS[direction]
    x, y = field % 9 + dx, field // 9 + dy
    return y * 9 + x if 0 <= x < 9 and 0 <= y < 9 else -1


#: ``NEIGHBOUR[field][direction]``: the adjacent field that way, or -1 off the board.
NEIGHBOUR: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_step(f, d) for d in range(8)) for f in ALL_FIELDS
)


def _ray(field: int, direction: int) -> tuple[int, ...]:
    out = []
    f = NEIGHBOUR[field][direction]
    while f >= 0:
        out.append(f)
        f = NEIGHBOUR[f][direction]
    return tuple(out)


#: ``RAYS[field][direction]``: the fields from ``field`` to the edge, nearest first {G5}.
RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_ray(f, d) for d in range(8)) for f in ALL_FIELDS
)

#: ``FORWARD[facing]``: the three forward directions (left 45, straight, right 45) {G4}.
FORWARD: Final[tuple[tuple[int, int, int], ...]] = tuple(
    ((d - 1) % 8, d, (d + 1) % 8) for d in range(8)
)


def _lines() -> tuple[dict[int, tuple[int, int]], dict[int, int]]:
    line: dict[int, tuple[int, int]] = {}
    between: dict[int, int] = {}
    for f in ALL_FIELDS:
        for d in range(8):
            mask = 0
            for k, t in enumerate(RAYS[f][d], start=1):
                line[f * 81 + t] = (d, k)
                between[f * 81 + t] = mask
                mask |= 1 << t
    return line, between


_LINE, _BETWEEN = _lines()
#: ``LINE[origin * 81 + target]``: (direction, distance) when the two fields lie on one
#: straight line; missing otherwise. A read-only mapping.
LINE: Final[Mapping[int, tuple[int, int]]] = MappingProxyType(_LINE)
#: ``BETWEEN[origin * 81 + target]``: bitboard of the intervening fields of that line.
#: A read-only mapping.
BETWEEN: Final[Mapping[int, int]] = MappingProxyType(_BETWEEN)


def field_name(field: int) -> str:
    """The name (``"a1"`` .. ``"i9"``) of field index 0..80.

    Raises:
        ValueError: ``field`` is not in 0..80.
    """
    if not 0 <= field < 81:
        raise ValueError(f"field index must be 0..80, not {field}")
    return FIELD_NAMES[field]


def parse_field(text: str) -> int:
    """The field index of a name such as ``"e5"`` (case-insensitive) {G1}.

    Raises:
        NotationError: ``text`` is not a field name a1..i9.
    """
    index = _FIELD_INDEX.get(text.strip().lower()) if len(text) < 8 else None
    if index is None:
        raise NotationError(f"{text[:20]!r} is not a field; fields are a1..i9", text)
    return index


def field_index(field: int | str) -> int:
    """A field given as index or name, as an index 0..80.

    An index is an ``int`` or any integer type :func:`operator.index` accepts
    (a numpy integer); a ``bool`` is not an index.

    Raises:
        NotationError: an unknown field name.
        ValueError: an index outside 0..80, or a value that is neither an
            integer nor a string.
    """
    if isinstance(field, str):
        return parse_field(field)
    index = integer(field)
    if index is not None and 0 <= index < 81:
        return index
    raise ValueError(f"field index must be 0..80, not {field!r}")


def borderland_of(field: int | str) -> int:
    """The borderland index 0..8 of a field {G2}; see :data:`BORDERLAND_NAMES`."""
    return BORDERLAND[field_index(field)]


def forward_directions(facing: int) -> tuple[Direction, Direction, Direction]:
    """The three directions a chevron with this facing may move in {G4}."""
    left, straight, right = FORWARD[facing % 8]
    return Direction(left), Direction(straight), Direction(right)


def bits(board: int) -> list[int]:
    """The set bits of a bitboard, ascending: the fields it contains."""
    out = []
    while board:
        low = board & -board
        out.append(low.bit_length() - 1)
        board ^= low
    return out
