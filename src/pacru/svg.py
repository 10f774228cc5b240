"""SVG drawings of positions, for notebooks, documents and the ``pacru show`` command.

=================  ==========================================================
entry point        :func:`board` (``state._repr_svg_()`` calls it)
chevron games      the 9x9 board: light and dark fields, thin field lines,
                   thick borderland lines {G1, G2}, markers as coloured
                   squares, chevrons as arrowheads turned to their facing {G4}
LSD                the tiles in a box around them: owner colour, half dots
                   on their sides, the icon (``+`` or ``x``) in its shade
output             one ``<svg>`` element as text; no dependency, no scripts
=================  ==========================================================

Colour names map to CSS colours through :data:`DEFAULT_COLOURS` (override
with ``colours=``); a name not in the table is used as a CSS colour as it is
(``"teal"``, ``"#336699"``). Elements carry ``class`` and ``data-*``
attributes (``class="marker" data-field="e4" data-owner="green"``,
``class="chevron" data-facing="N"``, ``class="tile" data-cell="1,0"``), and a
``<title>`` each, so drawings can be styled, tested and read by screen
readers.

As in python-chess's ``chess.svg``, ``arrows=`` draws arrows between fields
(or LSD cells) and ``fill=`` tints fields, to mark a move or a rule's fields:

>>> import pacru
>>> from pacru.svg import Arrow, board
>>> state = pacru.new_game("shacru")
>>> text = board(state, arrows=[("a3", "b4"), Arrow("e1", "e2", colour="red")],
...              fill={"b4": "#cc000080"})
>>> text.count('class="arrow"'), text.count('class="fill"')
(2, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar, cast
from xml.sax.saxutils import escape, quoteattr

import attrs

from pacru._integers import integer, integer_pair
from pacru.geometry import FIELD_NAMES, FILES, field_index

if TYPE_CHECKING:
    from pacru.base import GameState
    from pacru.drawable import ChevronBoard, LsdField

__all__ = ["DEFAULT_COLOURS", "Arrow", "Square", "board", "css_colour"]

#: A place on a drawing: a field name (``"e4"``) or index (0..80) of the chevron
#: board, or an ``(x, y)`` cell of the LSD field.
Square: TypeAlias = str | int | tuple[int, int]
_K = TypeVar("_K")

#: CSS colours for the usual colour names (the booklet's four, LSD's and a few more).
DEFAULT_COLOURS: Final = {
    "green": "#2f9e44",
    "yellow": "#f2c230",
    "red": "#d63a2f",
    "black": "#2b2b2b",
    "blue": "#2f6fd6",
    "white": "#f6f6f2",
    "orange": "#f08c1a",
    "purple": "#7d45b8",
    "brown": "#8b5a2b",
    "grey": "#8a8a8a",
    "gray": "#8a8a8a",
    "pink": "#e8749c",
    "cyan": "#22b8cf",
}

_LIGHT: Final = "#f4ead3"
_DARK: Final = "#e2d0a8"
_FRAME: Final = "#f9f5ea"
_GRID: Final = "#a08b63"
_BORDER: Final = "#4b3b22"
_TEXT: Final = "#5a4a2f"
_ARROW: Final = "#1f6fd9"
_LAST: Final = "#f7dc4a"
_HIGHLIGHT: Final = "#e8402a"
# A chevron pointing north in a unit field centred on (0, 0): two arms at 45 degrees
# with square-cut ends, so every facing (orthogonal or diagonal) reads as an arrowhead.
_CHEVRON: Final = (
    (0.0, -0.3),
    (0.38, 0.08),
    (0.2, 0.26),
    (0.0, 0.06),
    (-0.2, 0.26),
    (-0.38, 0.08),
)


@attrs.frozen
class Arrow:
    """An arrow from ``tail`` to ``head`` (python-chess's ``chess.svg.Arrow``).

    Attributes:
        tail: where the arrow starts: a field (``"e4"`` or an index) or an
            LSD cell ``(x, y)``.
        head: where its point is; the same as ``tail`` draws a ring
            around that field instead.
        colour: a colour name (:data:`DEFAULT_COLOURS`) or any CSS colour;
            the default is the blue of the last-move arrow.
    """

    tail: Square
    head: Square
    colour: str = _ARROW

    @classmethod
    def of(cls, value: Arrow | tuple[Square, Square]) -> Arrow:
        """``value`` as an :class:`Arrow` (a ``(tail, head)`` pair gets the default colour).

        Raises:
            ValueError: ``value`` is neither an :class:`Arrow` nor a pair.
        """
        if isinstance(value, Arrow):
            return value
        if isinstance(value, tuple) and len(value) == 2:
            return cls(value[0], value[1])
        raise ValueError(f"an arrow is an Arrow or a (tail, head) pair, not {value!r}")


def css_colour(name: str, colours: Mapping[str, str] | None = None) -> str:
    """The CSS colour of ``name``: from ``colours``, :data:`DEFAULT_COLOURS`, else ``name``."""
    if colours is not None and name in colours:
        return colours[name]
    return DEFAULT_COLOURS.get(name.lower(), name)


def _luminance(css: str) -> float | None:
    """Relative luminance 0..1 of a ``#rgb``/``#rrggbb`` colour, ``None`` for other CSS."""
    text = css.strip()
    if not text.startswith("#") or len(text) not in (4, 7):
        return None
    digits = text[1:] if len(text) == 7 else "".join(c * 2 for c in text[1:])
    try:
        r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return None
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(css: str) -> str:
    """An outline colour that stands out against ``css``: near-black, or white on dark colours."""
    lum = _luminance(css)
    return "#ffffff" if lum is not None and lum < 0.3 else "#1c1c1c"


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attr(value: str) -> str:
    return quoteattr(value)


class _Svg:
    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self) -> str:
        w, h = _n(self.width), _n(self.height)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
            f'width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
        )
        return "\n".join([head, *self.parts, "</svg>"]) + "\n"


def _arrow(
    svg: _Svg,
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    width: float,
    colour: str = _ARROW,
    data: str = "",
) -> None:
    """A straight arrow from (x1, y1) to (x2, y2) with a solid head (drawn, not a <marker>)."""
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = width * 3.2
    bx, by = x2 - ux * head, y2 - uy * head
    px, py = -uy * width * 1.8, ux * width * 1.8
    points = f"{_n(x2)},{_n(y2)} {_n(bx + px)},{_n(by + py)} {_n(bx - px)},{_n(by - py)}"
    paint = _attr(colour)
    svg.add(
        f'<g class="arrow"{data} opacity="0.7"><line x1="{_n(x1)}" y1="{_n(y1)}" '
        f'x2="{_n(bx)}" y2="{_n(by)}" stroke={paint} stroke-width="{_n(width)}" '
        f'stroke-linecap="round"/><polygon points="{points}" fill={paint}/></g>'
    )


def _user_arrows(
    svg: _Svg,
    arrows: Iterable[Arrow | tuple[Square, Square]],
    centre: Any,
    key: Any,
    name: Any,
    c: float,
    colours: Mapping[str, str] | None,
) -> None:
    """The ``arrows=`` of :func:`board`: ``key`` turns a square into a place, ``centre`` to x, y."""
    for item in arrows:
        arrow = Arrow.of(item)
        tail, head = key(arrow.tail), key(arrow.head)
        paint = css_colour(arrow.colour, colours)
        data = f' data-tail="{name(tail)}" data-head="{name(head)}"'
        (x1, y1), (x2, y2) = centre(tail), centre(head)
        if tail == head:
            svg.add(
                f'<circle class="arrow"{data} cx="{_n(x1)}" cy="{_n(y1)}" r="{_n(c * 0.42)}" '
                f'fill="none" stroke={_attr(paint)} stroke-width="{_n(c * 0.07)}" '
                'opacity="0.7"/>'
            )
            continue
        # Start a little off the tail's centre so the arrow does not hide the piece there.
        length = math.hypot(x2 - x1, y2 - y1)
        shift = min(c * 0.25, length / 4)
        x1 += (x2 - x1) / length * shift
        y1 += (y2 - y1) / length * shift
        _arrow(svg, x1, y1, x2, y2, c * 0.1, paint, data)


def _fill(svg: _Svg, data: str, x: float, y: float, c: float, colour: str) -> None:
    svg.add(
        f'<rect class="fill" {data} x="{_n(x)}" y="{_n(y)}" width="{_n(c)}" height="{_n(c)}" '
        f"fill={_attr(colour)}/>"
    )


def _ring(data: str, x: float, y: float, side: float, c: float) -> str:
    """A highlight: a red square ring on a white one, visible on any colour."""
    box = f'x="{_n(x)}" y="{_n(y)}" width="{_n(side)}" height="{_n(side)}" fill="none"'
    return (
        f'<g class="highlight" {data}><rect {box} stroke="#ffffff" '
        f'stroke-width="{_n(c * 0.11)}"/><rect {box} stroke="{_HIGHLIGHT}" '
        f'stroke-width="{_n(c * 0.06)}"/></g>'
    )


def board(
    state: GameState[Any],
    *,
    size: int = 400,
    last_move: object = None,
    highlight: Iterable[Any] = (),
    coordinates: bool = True,
    colours: Mapping[str, str] | None = None,
    arrows: Iterable[Arrow | tuple[Square, Square]] = (),
    fill: Mapping[Any, str] | None = None,
) -> str:
    """An SVG drawing of ``state`` as text (one ``<svg>`` element).

    Args:
        state: a chevron-game or LSD state.
        size: pixels. The chevron board is ``size`` square. An LSD field
            keeps its proportions, its longer side counting at least three
            cells: its longer side is ``size`` pixels when it spans three
            cells or more, so the start (one cell) is drawn smaller.
        last_move: a move (object or text) to mark: an arrow from the
            chevron's field to its target and both fields tinted; a
            reorientation tints its field; an LSD placement rings its cell.
            ``None`` marks nothing (pass ``state.last_move`` for the last one).
        highlight: fields (``"e4"`` or indices) or LSD cells (``(x, y)``) to
            outline in red.
        coordinates: write the file letters and rank numbers (LSD: x and y).
        colours: colour name -> CSS colour, overriding :data:`DEFAULT_COLOURS`.
        arrows: :class:`Arrow` values or ``(tail, head)`` pairs of fields
            (LSD: cells), drawn over the pieces; an arrow whose tail is its
            head is a ring. Each is ``class="arrow"`` with ``data-tail`` and
            ``data-head``.
        fill: field (LSD: cell) -> colour name or CSS colour, such as
            ``{"e5": "#cc000080"}``. Chevron board: the field is painted
            under its marker and chevron; LSD: over the tile, so use a
            translucent colour there. Each is ``class="fill"``.

    Raises:
        ValueError: ``size`` below 50, an unknown field or cell (in
            ``highlight``, ``arrows`` or ``fill``), an arrow that is not an
            :class:`Arrow` or a pair, or a move text that does not parse.
    """
    pixels = integer(size)
    if pixels is None or pixels < 50:
        raise ValueError(f"size is a whole number of pixels >= 50, not {size!r}")
    drawing = _Drawing(
        pixels, last_move, highlight, coordinates, colours, tuple(arrows), dict(fill or {})
    )
    # The drawing reads the state only through the interfaces of pacru.drawable.
    if state.game == "lsd":
        return _lsd_board(cast("LsdField", state), drawing)
    return _chevron_board(cast("ChevronBoard", state), drawing)


@attrs.frozen
class _Drawing:
    """The arguments of :func:`board`, checked: what either game's drawing is asked for."""

    size: int
    last_move: object
    highlight: Iterable[Any]
    coordinates: bool
    colours: Mapping[str, str] | None
    arrows: tuple[Any, ...]
    fills: dict[Any, str]

    def margin(self) -> float:
        """The frame around the board: room for the coordinates when they are written."""
        return self.size * (0.06 if self.coordinates else 0.02)

    def painted(self, key: Callable[[Any], _K]) -> dict[_K, str]:
        """The ``fill`` argument: CSS colour by field or cell, each named by ``key``."""
        return {
            key(place): css_colour(colour, self.colours) for place, colour in self.fills.items()
        }


# -- chevron games -------------------------------------------------------------------------------


def _chevron_board(state: ChevronBoard, drawing: _Drawing) -> str:
    from pacru.chevron.move import Move

    size, last_move, highlight, coordinates, colours, arrows, _ = attrs.astuple(
        drawing, recurse=False
    )
    painted = drawing.painted(field_index)

    margin = drawing.margin()
    c = (size - 2 * margin) / 9
    svg = _Svg(size, size)

    def corner(f: int) -> tuple[float, float]:
        return margin + (f % 9) * c, margin + (8 - f // 9) * c

    def centre(f: int) -> tuple[float, float]:
        x, y = corner(f)
        return x + c / 2, y + c / 2

    svg.add(f'<rect class="background" width="{size}" height="{size}" fill="{_FRAME}"/>')
    fields = []
    for f in range(81):
        x, y = corner(f)
        fill = _DARK if (f % 9 + f // 9) % 2 == 0 else _LIGHT
        fields.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(c)}" height="{_n(c)}" fill="{fill}"/>'
        )
    svg.add('<g class="fields">' + "".join(fields) + "</g>")

    move = Move.parse(last_move) if isinstance(last_move, str) else last_move
    if isinstance(move, Move) and move.origin is not None:
        tinted = [move.origin] if move.target is None else [move.origin, move.target]
        for f in tinted:
            x, y = corner(f)
            svg.add(
                f'<rect class="last-move" data-field="{FIELD_NAMES[f]}" x="{_n(x)}" '
                f'y="{_n(y)}" width="{_n(c)}" height="{_n(c)}" fill="{_LAST}" '
                'fill-opacity="0.55"/>'
            )
    for f, colour in sorted(painted.items()):
        _fill(svg, f'data-field="{FIELD_NAMES[f]}"', *corner(f), c, colour)

    lines = []
    for i in range(10):
        pos = margin + i * c
        thick = i % 3 == 0
        stroke = _BORDER if thick else _GRID
        width = c * (0.07 if thick else 0.015)
        end = margin + 9 * c
        for x1, y1, x2, y2 in ((pos, margin, pos, end), (margin, pos, end, pos)):
            lines.append(
                f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                f'stroke="{stroke}" stroke-width="{_n(width)}" stroke-linecap="square"/>'
            )
    svg.add('<g class="grid">' + "".join(lines) + "</g>")

    for name, owner in sorted(state.marker_map().items(), key=lambda i: field_index(i[0])):
        x, y = corner(field_index(name))
        fill = css_colour(owner, colours)
        inset = c * 0.12
        svg.add(
            f'<rect class="marker" data-field="{name}" data-owner={_attr(owner)} '
            f'x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(c - 2 * inset)}" '
            f'height="{_n(c - 2 * inset)}" rx="{_n(c * 0.08)}" fill={_attr(fill)} '
            f'stroke="#000000" stroke-opacity="0.35" stroke-width="{_n(c * 0.03)}">'
            f"<title>{escape(owner)} marker on {name}</title></rect>"
        )

    for f in sorted({field_index(h) for h in highlight}):
        x, y = corner(f)
        inset = c * 0.05
        svg.add(_ring(f'data-field="{FIELD_NAMES[f]}"', x + inset, y + inset, c - 2 * inset, c))

    for name, chevron in sorted(state.chevron_map().items(), key=lambda i: field_index(i[0])):
        cx, cy = centre(field_index(name))
        fill = css_colour(chevron.owner, colours)
        points = " ".join(f"{_n(px * c)},{_n(py * c)}" for px, py in _CHEVRON)
        facing = chevron.facing
        outline = _contrast(fill)
        # A halo in the other tone keeps the chevron readable on a marker of its own colour.
        halo = "#ffffff" if outline != "#ffffff" else "#000000"
        transform = f"translate({_n(cx)},{_n(cy)}) rotate({45 * int(facing)})"
        svg.add(
            f'<g class="chevron" data-field="{name}" data-owner={_attr(chevron.owner)} '
            f'data-facing="{facing.name}" transform="{transform}">'
            f"<title>{escape(chevron.owner)} chevron on {name} facing {facing.name}</title>"
            f'<polygon points="{points}" fill="none" stroke="{halo}" stroke-opacity="0.8" '
            f'stroke-width="{_n(c * 0.13)}" stroke-linejoin="round"/>'
            f'<polygon points="{points}" fill={_attr(fill)} stroke="{outline}" '
            f'stroke-width="{_n(c * 0.05)}" stroke-linejoin="round"/></g>'
        )

    if isinstance(move, Move) and move.origin is not None and move.target is not None:
        (x1, y1), (x2, y2) = centre(move.origin), centre(move.target)
        _arrow(svg, x1, y1, x2, y2, c * 0.1)
    _user_arrows(svg, arrows, centre, field_index, FIELD_NAMES.__getitem__, c, colours)

    if coordinates:
        columns = [(margin + (i + 0.5) * c, letter) for i, letter in enumerate(FILES)]
        rows = [(margin + (8 - rank + 0.5) * c, str(rank + 1)) for rank in range(9)]
        svg.add(_coordinates(columns, rows, margin, size, size, margin * 0.62))
    return svg.text()


def _coordinates(
    columns: list[tuple[float, str]],
    rows: list[tuple[float, str]],
    margin: float,
    width: float,
    height: float,
    font: float,
) -> str:
    """The label group: each column's label above and below, each row's left and right."""
    labels = []
    for x, text in columns:
        for y in (margin * 0.5, height - margin * 0.5):
            labels.append(
                f'<text x="{_n(x)}" y="{_n(y)}" dominant-baseline="central">{text}</text>'
            )
    for y, text in rows:
        for x in (margin * 0.5, width - margin * 0.5):
            labels.append(
                f'<text x="{_n(x)}" y="{_n(y)}" dominant-baseline="central">{text}</text>'
            )
    return (
        f'<g class="coordinates" font-family="sans-serif" font-size="{_n(font)}" '
        f'fill="{_TEXT}" text-anchor="middle">' + "".join(labels) + "</g>"
    )


# -- LSD ------------------------------------------------------------------------------------------

_DOT: Final = "#1d1d1d"
_SIDE_XY: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W in screen coordinates


def _lsd_board(state: LsdField, drawing: _Drawing) -> str:
    size, last_move, highlight, coordinates, colours, arrows, _ = attrs.astuple(
        drawing, recurse=False
    )
    painted = drawing.painted(_cell)
    field = state.field
    open_cells = tuple(state.open_cells) if field else ((0, 0),)
    cells = [*field, *open_cells]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    margin = drawing.margin()
    c = (size - 2 * margin) / max(cols, rows, 3)
    width = 2 * margin + cols * c
    height = 2 * margin + rows * c
    svg = _Svg(width, height)

    def corner(cell: tuple[int, int]) -> tuple[float, float]:
        x, y = cell
        return margin + (x - min_x) * c, margin + (max_y - y) * c

    svg.add(f'<rect class="background" width="{_n(width)}" height="{_n(height)}" fill="{_FRAME}"/>')
    svg.add(
        f'<rect class="bounds" x="{_n(margin)}" y="{_n(margin)}" width="{_n(cols * c)}" '
        f'height="{_n(rows * c)}" fill="{_LIGHT}" stroke="{_GRID}" '
        f'stroke-width="{_n(c * 0.02)}"/>'
    )
    for cell in open_cells:
        x, y = corner(cell)
        svg.add(
            f'<rect class="open" data-cell="{cell[0]},{cell[1]}" x="{_n(x + c * 0.08)}" '
            f'y="{_n(y + c * 0.08)}" width="{_n(c * 0.84)}" height="{_n(c * 0.84)}" '
            f'rx="{_n(c * 0.08)}" fill="none" stroke="{_GRID}" stroke-width="{_n(c * 0.02)}" '
            f'stroke-dasharray="{_n(c * 0.08)},{_n(c * 0.06)}"/>'
        )
    last_cell = _lsd_cell(last_move)
    for cell, tile in field.items():
        x, y = corner(cell)
        svg.add(_tile(tile, cell, x, y, c, colours, cell == last_cell))
    for cell, colour in sorted(painted.items()):
        _fill(svg, f'data-cell="{cell[0]},{cell[1]}"', *corner(cell), c, colour)
    for cell in highlight:
        x, y = corner(tuple(cell))
        svg.add(_ring(f'data-cell="{cell[0]},{cell[1]}"', x + c * 0.04, y + c * 0.04, c * 0.92, c))

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        x, y = corner(cell)
        return x + c / 2, y + c / 2

    _user_arrows(svg, arrows, centre, _cell, lambda cell: f"{cell[0]},{cell[1]}", c, colours)
    if coordinates:
        columns = [(margin + (x - min_x + 0.5) * c, str(x)) for x in range(min_x, max_x + 1)]
        ranks = [(margin + (max_y - y + 0.5) * c, str(y)) for y in range(min_y, max_y + 1)]
        font = min(margin * 0.55, c * 0.35)
        svg.add(_coordinates(columns, ranks, margin, width, height, font))
    return svg.text()


def _cell(value: Any) -> tuple[int, int]:
    """An LSD cell ``(x, y)`` of whole numbers, or ``ValueError``."""
    cell = integer_pair(value)
    if cell is not None:
        return cell
    raise ValueError(f"an LSD cell is an (x, y) pair of whole numbers, not {value!r}")


def _lsd_cell(move: object) -> tuple[int, int] | None:
    """The cell of an LSD move (object or text), or ``None``."""
    if isinstance(move, str):
        from pacru.lsd.moves import parse_move_text

        _, _, _, x, y = parse_move_text(move)
        return (x, y)
    cell = getattr(move, "cell", None)
    return (int(cell[0]), int(cell[1])) if cell is not None else None


def _tile(
    tile: Any,
    cell: tuple[int, int],
    x: float,
    y: float,
    c: float,
    colours: Mapping[str, str] | None,
    last: bool,
) -> str:
    fill = css_colour(tile.owner, colours)
    inset = c * 0.03
    shade = tile.shade.value
    parts = [
        f'<g class="tile" data-cell="{cell[0]},{cell[1]}" data-owner={_attr(tile.owner)} '
        f'data-icon="{escape(tile.icon)}">'
        f"<title>{escape(tile.owner)} tile {escape(str(tile.face))} at {cell[0]},{cell[1]}"
        "</title>",
        f'<rect x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(c - 2 * inset)}" '
        f'height="{_n(c - 2 * inset)}" rx="{_n(c * 0.1)}" fill={_attr(fill)} '
        f'stroke="{_LAST if last else "#000000"}" stroke-opacity="{1 if last else 0.4}" '
        f'stroke-width="{_n(c * (0.08 if last else 0.03))}"/>',
    ]
    cx, cy = x + c / 2, y + c / 2
    r = c * 0.15
    for side, has_dot in enumerate(tile.sides):
        if not has_dot:
            continue
        dx, dy = _SIDE_XY[side]
        ex, ey = cx + dx * (c / 2 - inset), cy + dy * (c / 2 - inset)
        # The half disc: from one end of the diameter along the side, round into the tile.
        ax, ay = ex - dy * r, ey + dx * r
        bx, by = ex + dy * r, ey - dx * r
        parts.append(
            f'<path class="dot" d="M{_n(ax)},{_n(ay)} A{_n(r)},{_n(r)} 0 0 1 {_n(bx)},{_n(by)} Z" '
            f'fill="{_DOT}" stroke="#ffffff" stroke-width="{_n(c * 0.015)}"/>'
        )
    badge, ink = ("#fbf8f0", "#111111") if shade == "black" else ("#222222", "#ffffff")
    parts.append(
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(c * 0.22)}" fill="{badge}" '
        f'stroke="#000000" stroke-opacity="0.3" stroke-width="{_n(c * 0.015)}"/>'
    )
    arm = c * 0.13
    angle = 45 if tile.shape.value == "x" else 0
    parts.append(
        f'<g class="icon" data-shade="{shade}" transform="translate({_n(cx)},{_n(cy)}) '
        f'rotate({angle})" stroke="{ink}" stroke-width="{_n(c * 0.06)}" stroke-linecap="round">'
        f'<line x1="{_n(-arm)}" y1="0" x2="{_n(arm)}" y2="0"/>'
        f'<line x1="0" y1="{_n(-arm)}" x2="0" y2="{_n(arm)}"/></g>'
    )
    parts.append("</g>")
    return "".join(parts)
