"""A plain-text drawing of an LSD state (``str(state)``).

==================  ===========================================================
Item                Drawing
==================  ===========================================================
Area                the bounding box of the tiles, one cell beyond on each side
Cell                3 lines x 7 characters; y grows upwards, x to the right
Tile                ``o`` on each side with a half dot; in the middle the icon
                    (``B+``, ``Wx``) and the owner's key letter
Empty cell          ``.`` ; ``*`` where a tile can go (next to an open half dot)
Below               whose turn or the result, and per colour: shade, tiles on
                    the field, supply, captured tiles
==================  ===========================================================

Two facing half dots show as ``oo``: a whole dot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacru.lsd.tiles import ORIGIN, OWNER_SHIFT, decode_cell, encode_cell, face_text, icon_text

if TYPE_CHECKING:
    from pacru.lsd.state import LsdState

__all__ = ["owner_keys", "render", "render_spans"]


def owner_keys(colours: tuple[str, ...]) -> tuple[str, ...]:
    """One-character keys for the colours: initials if distinct, else seat digits."""
    initials = tuple(c[0].lower() for c in colours)
    return (
        initials
        if len(set(initials)) == len(initials)
        else tuple(str(i) for i in range(len(colours)))
    )


def _cell_lines(code: int | None, open_cell: bool, key: str) -> tuple[str, str, str]:
    if code is None:
        return ("       ", f"   {'*' if open_cell else '.'}   ", "       ")
    dot = ["o" if code >> side & 1 else " " for side in range(4)]
    return (
        f"   {dot[0]}   ",
        f"{dot[3]} {icon_text(code)}{key} {dot[1]}",
        f"   {dot[2]}   ",
    )


def _extent(state: LsdState) -> tuple[range, range]:
    """The x values left to right and the y values top to bottom that the drawing shows."""
    cells = [decode_cell(c) for c in state._field] or [(0, 0)]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return range(min(xs) - 1, max(xs) + 2), range(max(ys) + 1, min(ys) - 2, -1)


def _label_width(y_range: range) -> int:
    """The width of the y labels: that of the widest of the top and bottom rows' labels."""
    return max(len(str(y)) for y in (y_range.start, y_range.stop + 1))


def _board(state: LsdState, keys: tuple[str, ...]) -> list[str]:
    field, frontier = state._field, state._frontier
    x_range, y_range = _extent(state)
    width = _label_width(y_range)
    lines = [" " * (width + 1) + "".join(f"{x:^7}" for x in x_range)]
    for y in y_range:
        rows = ["", "", ""]
        for x in x_range:
            code = encode_cell(x, y)
            tile = field.get(code)
            key = keys[tile >> OWNER_SHIFT] if tile is not None else ""
            open_cell = code in frontier if field else code == ORIGIN
            for i, part in enumerate(_cell_lines(tile, open_cell, key)):
                rows[i] += part
        label = f"{y:>{width}}"
        lines += [" " * (width + 1) + rows[0], f"{label} {rows[1]}", " " * (width + 1) + rows[2]]
    return [line.rstrip() for line in lines]


def render(state: LsdState) -> str:
    """The drawing described in the module docstring."""
    rules = state.rules
    keys = owner_keys(rules.colours)
    if state.outcome is not None:
        status = f"game over: {state.outcome.result()} ({state.outcome.termination.value})"
    else:
        status = f"{state.current_player} to move"
    lines = [
        f"LSD, {len(rules.colours)} players, row of {rules.row_length}: {status}",
        *_board(state, keys),
    ]
    scores = state.scores
    for seat, colour in enumerate(rules.colours):
        supply = " ".join(
            face_text(face) + (f"*{count}" if count > 1 else "")
            for face, count in zip(rules.kinds[seat], state._supplies[seat], strict=True)
            if count
        )
        lines.append(
            f"{keys[seat]} = {colour} ({rules.shades[seat].value}): {scores[colour]} on the field, "
            f"{sum(state._captured[seat])} captured, supply {sum(state._supplies[seat])}: "
            f"{supply or '-'}"
        )
    return "\n".join(lines)


def render_spans(state: LsdState) -> list[tuple[int, int, int, int]]:
    """Where each placed tile's icon and owner key stand in ``str(state)``, for colouring it.

    Returns:
        ``(line, start, stop, seat)`` per tile on the field:
        ``str(state).splitlines()[line][start:stop]`` is its icon and key,
        such as ``B+r``; ``seat`` indexes the owner's colour
        (``state.rules.colours``). Each colour's ``key = colour`` under the
        board comes last.
    """
    x_range, y_range = _extent(state)
    width = _label_width(y_range)
    spans = []
    for code, tile in state._field.items():
        x, y = decode_cell(code)
        # The header line and the x labels, three lines per row above; the icon is in the
        # middle line, two characters into its 7-character cell.
        line = 2 + (y_range.start - y) * 3 + 1
        start = width + 1 + (x - x_range.start) * 7 + 2
        spans.append((line, start, start + 3, tile >> OWNER_SHIFT))
    below = 2 + 3 * len(y_range)  # the header, the x labels and three lines per row
    keys = owner_keys(state.rules.colours)
    for seat, colour in enumerate(state.rules.colours):
        spans.append((below + seat, 0, len(f"{keys[seat]} = {colour}"), seat))
    return spans
