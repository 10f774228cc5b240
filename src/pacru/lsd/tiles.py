"""LSD tiles, their sides and the grid they lie on {LSD 1.2, 2.1, 3.1}.

==================  ===========================================================
Item                Value
==================  ===========================================================
Tile                four sides (half dot or empty), an icon, an owner colour
Icon                shape ``+`` (:attr:`Shape.PLUS`) or ``x`` (:attr:`Shape.CROSS`)
                    and shade :attr:`Shade.BLACK` or :attr:`Shade.WHITE`
Sides               ``(N, E, S, W)`` booleans, ``True`` = half dot
Rotation            quarter turns clockwise: ``rotated(1)`` moves N's dot to E
Cell                ``(x, y)`` ints; first tile at ``(0, 0)``; x east, y north (up)
Default tile set    :data:`DEFAULT_TILE_SET`, 20 tiles per colour (LSD 3.1)
==================  ===========================================================

Text forms (shared by moves, positions and the ``tile_set`` option):

* **icon**: shade letter ``B``/``W`` then shape ``+``/``x``, e.g. ``B+``, ``Wx``
  (the notation of the diagrams in LSD 2.3).
* **sides**: the letters of the sides that carry a half dot, in the order
  ``N E S W`` (``NE``, ``NESW``), or ``0`` for a tile without dots.
* **face**: icon then sides, e.g. ``B+NE`` -- a tile as it lies, without owner.

Internally a face is a 6-bit ``int`` (bits 0-3 the dots on N, E, S, W, bit 4
the shape, bit 5 the shade) and a cell an ``int`` (see :func:`encode_cell`),
so move generation only indexes tables; the classes here are the public view.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

import attrs

from pacru._integers import integer
from pacru.errors import NotationError

__all__ = [
    "DEFAULT_TILE_SET",
    "DIRECTIONS",
    "SIDE_NAMES",
    "Cell",
    "Shade",
    "Shape",
    "Sides",
    "Tile",
    "TileSet",
    "TileSpec",
    "normalize_tile_set",
    "parse_tile_set",
]

#: ``(x, y)``: x grows east, y grows north; the first tile lies at ``(0, 0)``.
Cell: TypeAlias = tuple[int, int]
#: Half dots on the ``(N, E, S, W)`` sides; ``True`` = half dot, ``False`` = empty side.
Sides: TypeAlias = tuple[bool, bool, bool, bool]

#: Side letters by side index: N=0, E=1, S=2, W=3, clockwise {LSD 2.1}.
SIDE_NAMES: Final = "NESW"
#: ``(dx, dy)`` of the neighbour across each side, by side index {LSD 2.1}.
DIRECTIONS: Final[tuple[Cell, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))


class Shape(enum.Enum):
    """An icon shape {LSD 1.2}: ``+`` captures orthogonally, ``x`` diagonally (2.3)."""

    PLUS = "+"
    CROSS = "x"

    def __repr__(self) -> str:
        return f"Shape.{self.name}"


class Shade(enum.Enum):
    """An icon shade {LSD 1.2}; a shade captures only the other shade (2.3)."""

    BLACK = "black"
    WHITE = "white"

    @property
    def letter(self) -> str:
        """``"B"`` or ``"W"``, as in the icon text ``B+``."""
        return "B" if self is Shade.BLACK else "W"

    @property
    def opposite(self) -> Shade:
        """The shade this one captures and is captured by."""
        return Shade.WHITE if self is Shade.BLACK else Shade.BLACK

    @classmethod
    def parse(cls, value: Shade | str) -> Shade:
        """``Shade`` from a member, ``"black"``/``"white"`` or ``"B"``/``"W"`` (any case).

        Raises:
            ValueError: any other value.
        """
        if isinstance(value, Shade):
            return value
        if isinstance(value, str):
            key = value.strip().lower()
            if key in ("b", "black"):
                return cls.BLACK
            if key in ("w", "white"):
                return cls.WHITE
        raise ValueError(f"a shade is 'black' or 'white' (or 'B'/'W'), not {value!r}")

    def __repr__(self) -> str:
        return f"Shade.{self.name}"


# --- integer encodings (the hot path sees only these) -------------------------

SHAPE_BIT: Final = 0x10
SHADE_BIT: Final = 0x20
#: Bits of a face that make its icon; two captors must agree on all of them (RULING 12).
ICON_BITS: Final = SHAPE_BIT | SHADE_BIT
DOT_BITS: Final = 0x0F
FACE_BITS: Final = 0x3F
#: A field entry is ``face | seat << OWNER_SHIFT``.
OWNER_SHIFT: Final = 6

#: ``ROTATE[k][mask]``: the dot mask turned ``k`` quarter turns clockwise.
ROTATE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(((m << k) | (m >> (4 - k))) & DOT_BITS for m in range(16)) for k in range(4)
)


def _display_key(mask: int) -> tuple[bool, ...]:
    return tuple(bool(mask >> s & 1) for s in range(4))


#: ``CANONICAL[mask]``: the rotation printed first in LSD 3.1 (dots from N
#: clockwise, e.g. ``N``, ``NE``, ``NS``, ``NES``): the one with the largest
#: ``(N, E, S, W)`` tuple.
CANONICAL: Final[tuple[int, ...]] = tuple(
    max((ROTATE[k][m] for k in range(4)), key=_display_key) for m in range(16)
)


def sides_to_mask(sides: Sides) -> int:
    """The 4-bit dot mask (bit ``s`` = side ``s``) of a sides tuple."""
    return sum(1 << s for s in range(4) if sides[s])


def mask_to_sides(mask: int) -> Sides:
    """The sides tuple of a 4-bit dot mask."""
    return (bool(mask & 1), bool(mask & 2), bool(mask & 4), bool(mask & 8))


def sides_text(mask: int) -> str:
    """``"NE"`` for a mask with dots on N and E; ``"0"`` for no dots."""
    return "".join(SIDE_NAMES[s] for s in range(4) if mask >> s & 1) or "0"


def parse_sides(text: str) -> int:
    """The dot mask of a sides text (letters from ``NESW`` in any order, or ``0``).

    Raises:
        NotationError: an unknown or repeated letter, or an empty text.
    """
    if text == "0":
        return 0
    mask = 0
    for char in text.upper():
        side = SIDE_NAMES.find(char)
        if side < 0 or mask >> side & 1:
            raise NotationError(f"sides are distinct letters from NESW (or 0), not {text!r}", text)
        mask |= 1 << side
    if not mask:
        raise NotationError("sides are letters from NESW, or 0 for a tile without dots", text)
    return mask


def face_code(shape: Shape, shade: Shade, mask: int) -> int:
    """The 6-bit face of a tile as it lies."""
    return (
        mask
        | (SHAPE_BIT if shape is Shape.CROSS else 0)
        | (SHADE_BIT if shade is Shade.WHITE else 0)
    )


def face_shape(face: int) -> Shape:
    """The shape of a 6-bit face."""
    return Shape.CROSS if face & SHAPE_BIT else Shape.PLUS


def face_shade(face: int) -> Shade:
    """The shade of a 6-bit face."""
    return Shade.WHITE if face & SHADE_BIT else Shade.BLACK


def icon_text(face: int) -> str:
    """``"B+"``, ``"Bx"``, ``"W+"`` or ``"Wx"``."""
    return ("W" if face & SHADE_BIT else "B") + ("x" if face & SHAPE_BIT else "+")


def face_text(face: int) -> str:
    """Icon then sides, e.g. ``"B+NE"``."""
    return icon_text(face) + sides_text(face & DOT_BITS)


#: Cells are encoded as ``(x + CELL_OFFSET) * CELL_STRIDE + (y + CELL_OFFSET)``,
#: so a neighbour is one addition. Every tile is placed next to the field, so
#: no coordinate can exceed the number of tiles in the game; :data:`MAX_TILES`
#: keeps that inside the encoding.
CELL_STRIDE: Final = 1 << 12
CELL_OFFSET: Final = CELL_STRIDE // 2
MAX_COORD: Final = CELL_OFFSET - 1
MAX_TILES: Final = 2000
#: Longest tile-set text :func:`parse_tile_set` reads (room for ``MAX_TILES`` entries).
MAX_TILE_SET_TEXT: Final = 16_384
#: Cell-code offset of the neighbour across side N, E, S, W.
STEP: Final[tuple[int, int, int, int]] = (1, CELL_STRIDE, -1, -CELL_STRIDE)
ORIGIN: Final = CELL_OFFSET * CELL_STRIDE + CELL_OFFSET


def encode_cell(x: int, y: int) -> int:
    """The cell code of ``(x, y)``; coordinates must lie within ``±MAX_COORD``."""
    return (x + CELL_OFFSET) * CELL_STRIDE + y + CELL_OFFSET


def decode_cell(code: int) -> Cell:
    """The ``(x, y)`` of a cell code."""
    x, y = divmod(code, CELL_STRIDE)
    return (x - CELL_OFFSET, y - CELL_OFFSET)


# --- the public tile values ---------------------------------------------------


def coerce_sides(value: Sides | Sequence[bool] | Sequence[int] | str) -> Sides:
    if isinstance(value, str):
        return mask_to_sides(parse_sides(value))
    items = tuple(value)
    if len(items) != 4 or not all(isinstance(v, bool | int) and v in (0, 1) for v in items):
        raise ValueError(f"sides are four booleans (N, E, S, W), not {value!r}")
    return (bool(items[0]), bool(items[1]), bool(items[2]), bool(items[3]))


def coerce_shape(value: Shape | str) -> Shape:
    if isinstance(value, Shape):
        return value
    if isinstance(value, str) and value.strip().lower() in ("+", "x"):
        return Shape(value.strip().lower())
    raise ValueError(f"a shape is '+' or 'x', not {value!r}")


def coerce_shade(value: Shade | str) -> Shade:
    """``Shade.parse`` as a plain function (attrs converters must be functions)."""
    return Shade.parse(value)


def _coerce_optional_shade(value: Shade | str | None) -> Shade | None:
    return None if value is None else Shade.parse(value)


@attrs.frozen
class Tile:
    """One tile, as it lies on the field or waits in a supply {LSD 1.2, 2.1}.

    Attributes:
        owner: the colour that owns it (counts for rows, 1.7).
        shape: the icon shape (:class:`Shape`).
        shade: the icon shade (:class:`Shade`; per colour by default, RULING 2).
        sides: ``(N, E, S, W)``, ``True`` where a half dot sits. In a supply the
            tile is in its canonical orientation; on the field as placed.
    """

    owner: str
    shape: Shape = attrs.field(converter=coerce_shape)
    shade: Shade = attrs.field(converter=coerce_shade)
    sides: Sides = attrs.field(converter=coerce_sides)

    @property
    def icon(self) -> str:
        """``"B+"``, ``"Bx"``, ``"W+"`` or ``"Wx"``."""
        return self.shade.letter + self.shape.value

    @property
    def dots(self) -> int:
        """The number of half dots, 0..4."""
        return sum(self.sides)

    @property
    def face(self) -> str:
        """Icon and sides, e.g. ``"B+NE"`` (no owner)."""
        return self.icon + sides_text(sides_to_mask(self.sides))

    def rotated(self, quarter_turns: int) -> Tile:
        """This tile turned ``quarter_turns`` × 90° clockwise (RULING 4): N's dot goes to E."""
        mask = ROTATE[quarter_turns % 4][sides_to_mask(self.sides)]
        return attrs.evolve(self, sides=mask_to_sides(mask))

    def __str__(self) -> str:
        return f"{self.owner} {self.face}"


def _tile_count(value: object) -> int:
    count = integer(value)
    if count is None or count < 1:
        raise ValueError(f"a tile count is an int >= 1, not {value!r}")
    return count


@attrs.frozen
class TileSpec:
    """``count`` identical tiles of one kind in each colour's supply {LSD 3.1}.

    Attributes:
        sides: ``(N, E, S, W)`` half dots; also accepted as side letters (``"NE"``).
        shape: ``Shape.PLUS``/``Shape.CROSS`` or ``"+"``/``"x"``.
        count: how many, >= 1.
        shade: ``None`` (the default) takes the shade of the colour that owns
            the tile (RULING 2); a shade here overrides it for this kind.

    Raises:
        ValueError: malformed sides, shape, shade or count.
    """

    sides: Sides = attrs.field(converter=coerce_sides)
    shape: Shape = attrs.field(converter=coerce_shape)
    count: int = attrs.field(converter=_tile_count)
    shade: Shade | None = attrs.field(default=None, converter=_coerce_optional_shade)

    def __str__(self) -> str:
        shade = self.shade.letter if self.shade is not None else ""
        return f"{shade}{self.shape.value}{sides_text(sides_to_mask(self.sides))}*{self.count}"


#: A tile set: the kinds and counts every colour starts with (see :func:`normalize_tile_set`).
TileSet: TypeAlias = tuple[TileSpec, ...]


def _sort_key(spec: TileSpec) -> tuple[int, int, int, int]:
    mask = sides_to_mask(spec.sides)
    shade = -1 if spec.shade is None else (0 if spec.shade is Shade.BLACK else 1)
    display = sum(8 >> s for s in range(4) if mask >> s & 1)
    return (shade, spec.shape is Shape.CROSS, bin(mask).count("1"), -display)


def normalize_tile_set(
    specs: Iterable[TileSpec | tuple[object, ...]] | str, *, allow_rotation: bool = True
) -> TileSet:
    """The canonical form of a tile set: sorted, one entry per kind.

    ``specs`` holds :class:`TileSpec` values or tuples ``(sides, shape, count)``
    / ``(sides, shape, count, shade)``, or is the text form of
    :func:`parse_tile_set`. With ``allow_rotation`` tiles that are rotations of
    each other are one kind (RULING 4), so sides are turned to the canonical
    orientation of LSD 3.1 (``N``, ``NE``, ``NS``, ``NES``, ``NESW``) and
    their counts added.

    Raises:
        ValueError: an empty set, a malformed entry, or more than
            ``MAX_TILES`` tiles per colour.
    """
    if isinstance(specs, str):
        specs = parse_tile_set(specs)
    merged: dict[tuple[int, Shape, Shade | None], int] = {}
    for item in specs:
        spec = item if isinstance(item, TileSpec) else _spec_from_tuple(item)
        mask = sides_to_mask(spec.sides)
        if allow_rotation:
            mask = CANONICAL[mask]
        key = (mask, spec.shape, spec.shade)
        merged[key] = merged.get(key, 0) + spec.count
    if not merged:
        raise ValueError("a tile set needs at least one tile")
    if sum(merged.values()) > MAX_TILES:
        raise ValueError(f"a tile set holds at most {MAX_TILES} tiles per colour")
    result = [
        TileSpec(mask_to_sides(m), shape, n, shade) for (m, shape, shade), n in merged.items()
    ]
    return tuple(sorted(result, key=_sort_key))


def _spec_from_tuple(item: tuple[object, ...]) -> TileSpec:
    if not isinstance(item, tuple) or len(item) not in (3, 4):
        raise ValueError(
            f"a tile-set entry is a TileSpec or (sides, shape, count[, shade]), not {item!r}"
        )
    return TileSpec(*item)  # type: ignore[arg-type]


_SPEC_RE: Final = re.compile(r"([BW]?)([+x])([NESW]+|0)(?:\*([0-9]{1,4}))?", re.IGNORECASE)


def parse_tile_set(text: str) -> TileSet:
    """A tile set from its text: comma-separated ``[shade]shape sides[*count]``.

    Example: ``"+N*2,xNESW*2,W+NS*1"``; the count defaults to 1 and a missing
    shade means the owner's (RULING 2). The result is not normalised.

    Raises:
        NotationError: text outside that grammar, or longer than
            :data:`MAX_TILE_SET_TEXT` characters (checked first).
    """
    if len(text) > MAX_TILE_SET_TEXT:
        raise NotationError(f"a tile set longer than {MAX_TILE_SET_TEXT} characters", text)
    specs = []
    for part in text.split(","):
        match = _SPEC_RE.fullmatch(part.strip())
        if match is None:
            raise NotationError(
                f"a tile-set entry is [B|W](+|x)(sides)[*count], e.g. +NE*2, not {part!r}", text
            )
        shade, shape, sides, count = match.groups()
        if count is not None and int(count) < 1:
            raise NotationError(f"a tile count is at least 1: {part!r}", text)
        specs.append(
            TileSpec(
                mask_to_sides(parse_sides(sides)),
                coerce_shape(shape),
                int(count) if count is not None else 1,
                Shade.parse(shade) if shade else None,
            )
        )
    return tuple(specs)


#: The default tile set of LSD 3.1 (RULING 1): per colour, two '+' and two
#: 'x' tiles of each dot pattern 1, 2 adjacent, 2 opposite, 3 and 4 -- 20 tiles,
#: all with the colour's shade.
DEFAULT_TILE_SET: Final[TileSet] = normalize_tile_set(
    TileSpec(sides, shape, 2)
    for shape in (Shape.PLUS, Shape.CROSS)
    for sides in ("N", "NE", "NS", "NES", "NESW")
)
