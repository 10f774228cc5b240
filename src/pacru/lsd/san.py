"""Short move text for LSD, as chess's SAN: the fewest letters that name a placement.

A complete LSD move text (:mod:`pacru.lsd.moves`) names the shade, the icon
shape, the sides as placed and the cell: ``B+NE@1,0``. The short text may
leave out the shade, the shape and the sides, each matching any value, when
only one legal placement on that cell fits::

    short    := [shade] [shape] [sides] "@" int "," int

``@1,0`` is the only legal placement on ``(1, 0)``; ``xS@1,0`` the only ``x``
tile showing one half dot to the south there. A text that is itself a
complete legal move is that move, so the complete text always reads back;
:func:`san` tries the shortest texts first and keeps the first that reads back:
``parse_san(state, san(state, m)) == m`` for every legal move.
"""

from __future__ import annotations

import re
from itertools import product
from typing import TYPE_CHECKING, Final

from pacru.errors import IllegalMoveError, NotationError, PacruError
from pacru.lsd.moves import MAX_MOVE_TEXT, LsdMove, parse_move_text
from pacru.lsd.tiles import MAX_COORD, Shade, coerce_shape, parse_sides

if TYPE_CHECKING:
    from pacru.lsd.state import LsdState

__all__ = ["parse_san", "san"]

_SHORT_RE: Final = re.compile(
    r"([BW]?)([+x]?)([NESW]+|0)?@(-?[0-9]{1,6}),(-?[0-9]{1,6})", re.IGNORECASE
)


def parse_san(state: LsdState, text: str) -> LsdMove:
    """The legal placement ``text`` names in ``state`` (module docstring).

    Raises:
        NotationError: text outside the grammar, or short text that fits more
            than one legal placement (the message lists them).
        IllegalMoveError: no legal placement fits; :class:`GameOverError` when over.
    """
    if isinstance(text, str) and len(text) > MAX_MOVE_TEXT:
        raise NotationError(f"move text longer than {MAX_MOVE_TEXT} characters", text)
    if isinstance(text, str):
        try:
            shade, _, _, _, _ = parse_move_text(text)
        except NotationError:
            shade = None
        if shade is not None:
            return state.parse_move(text)
    if not isinstance(text, str):
        return state.parse_move(text)
    match = _SHORT_RE.fullmatch(text.strip())
    if match is None:
        return state.parse_move(text)  # the NotationError of the full grammar
    shade_text, shape_text, sides_text, x_text, y_text = match.groups()
    cell = (int(x_text), int(y_text))
    if max(map(abs, cell)) > MAX_COORD:
        raise NotationError(f"cell coordinates lie within ±{MAX_COORD}: {text!r}", text)
    shade = Shade.parse(shade_text) if shade_text else None
    shape = coerce_shape(shape_text) if shape_text else None
    mask = parse_sides(sides_text) if sides_text else None
    fits = [
        m
        for m in state.legal_moves().from_field(cell)
        if (shade is None or m.shade is shade)
        and (shape is None or m.shape is shape)
        and (mask is None or m._face & 15 == mask)
    ]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        if shape is not None and mask is not None:
            return state.parse_move(text)  # the IllegalMoveError of the placement
        # Diagnosed as one placement the text could mean; the error names the text.
        example = f"{shade_text}{shape_text or '+'}{sides_text or 'N'}@{x_text},{y_text}"
        try:
            state.parse_move(example)
        except IllegalMoveError as err:
            raise IllegalMoveError(
                f"no legal placement fits {text.strip()[:40]}: {err.detail}",
                rule=err.rule,
                reason=err.reason,
                move=text,
            ) from None
        raise IllegalMoveError(  # pragma: no cover - a fitting example would be in fits
            f"no legal placement fits {text.strip()[:40]}",
            rule="LSD-2.2",
            reason="no-fit",
            move=text,
        )
    shown = ", ".join(str(m) for m in fits[:3]) + (", ..." if len(fits) > 3 else "")
    raise NotationError(f"{text.strip()[:40]!r} fits more than one legal placement: {shown}", text)


def san(state: LsdState, move: LsdMove | str) -> str:
    """The shortest text that names ``move`` (a legal move or its text) in ``state``.

    Raises:
        NotationError: unparseable move text.
        IllegalMoveError: not legal here; :class:`GameOverError` when over.
    """
    if isinstance(move, str):
        move = state.parse_move(move)
    else:
        state.parse_move(str(move))
    full = str(move)
    face, cell = full.split("@")
    parts = (face[0], face[1], face[2:])
    texts = {
        "".join(p if keep else "" for p, keep in zip(parts, mask, strict=True)) + "@" + cell
        for mask in product((False, True), repeat=3)
    }
    for text in sorted(texts, key=lambda t: (len(t), t != full)):
        try:
            if parse_san(state, text) == move:
                return text
        except PacruError:  # a shortening may read as another, illegal, move
            continue
    return full  # pragma: no cover - the complete text always reads back
