"""The LSD move and its text notation {LSD 1.5, 2.2}.

==================  ===========================================================
Item                Value
==================  ===========================================================
A move              place one tile of the mover's supply on one cell (1.5);
                    there is no pass move (RULING 19)
Move class          :class:`LsdMove` (frozen, hashable): icon, sides as placed, cell
Text                ``<shade><shape><sides>@<x>,<y>``, e.g. ``B+NE@1,0``
==================  ===========================================================

Grammar (context-free: the text alone names the move; the mover is whoever is
to move)::

    move   := shade shape sides "@" int "," int
    shade  := "B" | "W"                  black or white icon
    shape  := "+" | "x"                  the icon shape
    sides  := side+ | "0"                half-dot sides *as placed*, N E S W
    side   := "N" | "E" | "S" | "W"
    int    := ["-"] digit+               x east, y north; first tile at 0,0

Examples: ``B+NESW@0,0`` (black '+' with four half dots on the origin),
``WxW@1,0`` (white 'x' with one half dot, turned to face west, east of it).

The sides are those of the tile *as it lies*, so the rotation is part of the
text without a separate number, and rotations that look the same (a four-dot
tile) are one move. :meth:`LsdState.parse_move` also accepts letters in any
case and order, and the shade left out when the mover's supply leaves only
one; ``str(move)`` always writes the canonical form above.
"""

from __future__ import annotations

import re
from typing import Final

import attrs

from pacru._integers import integer_pair
from pacru.errors import NotationError
from pacru.lsd.tiles import (
    DOT_BITS,
    FACE_BITS,
    MAX_COORD,
    Cell,
    Shade,
    Shape,
    Sides,
    coerce_shade,
    coerce_shape,
    coerce_sides,
    decode_cell,
    encode_cell,
    face_code,
    face_shade,
    face_shape,
    face_text,
    mask_to_sides,
    parse_sides,
    sides_to_mask,
)

__all__ = ["MAX_MOVE_TEXT", "LsdMove", "parse_move_text"]

#: Longest move text read, surrounding blanks included (as the chevron games' move text).
MAX_MOVE_TEXT: Final = 64


def _to_cell(value: Cell) -> Cell:
    cell = integer_pair(value)
    if cell is None:
        raise ValueError(f"a cell is an (x, y) tuple of ints, not {value!r}")
    if abs(cell[0]) > MAX_COORD or abs(cell[1]) > MAX_COORD:
        raise ValueError(f"cell coordinates lie within ±{MAX_COORD}, not {value!r}")
    return cell


@attrs.frozen(eq=False, repr=False)
class LsdMove:
    """Place a tile with this icon, turned so its half dots face ``sides``, on ``cell``.

    Attributes:
        shape: the icon shape.
        shade: the icon shade.
        sides: ``(N, E, S, W)`` half dots of the tile *as placed* (after any
            rotation, RULING 4); also accepted as side letters (``"NE"``).
        cell: ``(x, y)`` ints, x east, y north, first tile at ``(0, 0)``.

    Equal moves have equal text; ``str(move)`` is the notation of the module
    docstring and ``repr`` evaluates back to the move.

    Raises:
        ValueError: a malformed shape, shade, sides or cell.
    """

    shape: Shape = attrs.field(converter=coerce_shape)
    shade: Shade = attrs.field(converter=coerce_shade)
    sides: Sides = attrs.field(converter=coerce_sides)
    cell: Cell = attrs.field(converter=_to_cell)
    # Integer forms for the engine: the 6-bit face and the cell code.
    _face: int = attrs.field(init=False)
    _code: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(
            self, "_face", face_code(self.shape, self.shade, sides_to_mask(self.sides))
        )
        object.__setattr__(self, "_code", encode_cell(*self.cell))

    @classmethod
    def parse(cls, text: str) -> LsdMove:
        """The move a canonical-grammar text names, as :meth:`pacru.Move.parse` (syntax only).

        Raises:
            NotationError: text outside the grammar, or without the shade letter.
        """
        return cls.from_text(text)

    @classmethod
    def from_text(cls, text: str) -> LsdMove:
        """The move a canonical-grammar text names (the shade is required here).

        Raises:
            NotationError: text outside the grammar.
        """
        shade, shape, mask, x, y = parse_move_text(text)
        if shade is None:
            raise NotationError("LsdMove.from_text needs the shade letter (B or W)", text)
        return _move(face_code(shape, shade, mask), encode_cell(x, y))

    @property
    def x(self) -> int:
        """The cell's x (east is positive)."""
        return self.cell[0]

    @property
    def y(self) -> int:
        """The cell's y (north is positive)."""
        return self.cell[1]

    @property
    def icon(self) -> str:
        """``"B+"``, ``"Bx"``, ``"W+"`` or ``"Wx"``."""
        return self.shade.letter + self.shape.value

    @property
    def face(self) -> str:
        """The tile as placed, without cell: ``"B+NE"``."""
        return face_text(self._face)

    def __str__(self) -> str:
        return f"{face_text(self._face)}@{self.cell[0]},{self.cell[1]}"

    def __repr__(self) -> str:
        return f"LsdMove.from_text({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LsdMove):
            return NotImplemented
        return self._face == other._face and self._code == other._code

    def __hash__(self) -> int:
        return hash((self._face, self._code))


# Moves are values, so the engine hands out one shared object per (face, cell):
# bots compare and hash them millions of times, and building attrs objects is
# the slowest step of move generation. The cap bounds memory in long sessions.
_MOVES: dict[int, LsdMove] = {}
_MOVE_CACHE_LIMIT: Final = 200_000


def _move(face: int, code: int) -> LsdMove:
    key = code << 6 | face
    move = _MOVES.get(key)
    if move is None:
        if len(_MOVES) >= _MOVE_CACHE_LIMIT:
            _MOVES.clear()
        move = LsdMove(
            face_shape(face), face_shade(face), mask_to_sides(face & DOT_BITS), decode_cell(code)
        )
        _MOVES[key] = move
    return move


def _move_key(key: int) -> LsdMove:
    """The move of a move key, ``cell code << 6 | face`` (the native engine's move lists)."""
    move = _MOVES.get(key)
    return _move(key & FACE_BITS, key >> 6) if move is None else move


_MOVE_RE: Final = re.compile(
    r"([BW]?)([+x])([NESW]+|0)@(-?[0-9]{1,6}),(-?[0-9]{1,6})", re.IGNORECASE
)


def parse_move_text(text: str) -> tuple[Shade | None, Shape, int, int, int]:
    """``(shade or None, shape, dot mask, x, y)`` of a move text (syntax only).

    Surrounding blanks are ignored; letters may be in any case, sides in any order.

    Raises:
        NotationError: text outside the grammar of the module docstring, a
            coordinate beyond ``±MAX_COORD``, or a text longer than
            :data:`MAX_MOVE_TEXT` (checked first).
    """
    if not isinstance(text, str):
        raise NotationError(f"a move text is a str, not {type(text).__name__}")
    if len(text) > MAX_MOVE_TEXT:
        raise NotationError(f"move text longer than {MAX_MOVE_TEXT} characters", text)
    match = _MOVE_RE.fullmatch(text.strip())
    if match is None:
        raise NotationError(
            "an LSD move is <shade B|W><shape +|x><sides NESW or 0>@<x>,<y>, "
            f"e.g. B+NE@1,0; not {text[:40]!r}",
            text,
        )
    shade_text, shape_text, sides, x_text, y_text = match.groups()
    x, y = int(x_text), int(y_text)
    if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
        raise NotationError(f"cell coordinates lie within ±{MAX_COORD}: {text!r}", text)
    shade = Shade.parse(shade_text) if shade_text else None
    return shade, coerce_shape(shape_text), parse_sides(sides), x, y
