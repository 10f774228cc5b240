"""Explanations of LSD moves: the rule that forbids one, or what a legal one does.

:meth:`pacru.GameState.explain` of an LSD state answers with :func:`explain_lsd` (see
:mod:`pacru.explanation` for the :class:`~pacru.Explanation` it returns).
"""

from __future__ import annotations

from typing import Any

from pacru.errors import IllegalMoveError, NotationError
from pacru.explanation import Explanation, limited
from pacru.lsd.moves import parse_move_text
from pacru.lsd.tiles import DIRECTIONS

__all__ = ["explain_lsd"]


def explain_lsd(state: Any, text: str) -> Explanation:
    """Why ``text`` is or is not legal in LSD ``state``, a game that goes on (never raises)."""
    try:
        move = state.parse_move(text)
    except IllegalMoveError as err:
        alternatives, subject = _lsd_alternatives(state, text)
        return Explanation(text, False, err.rule, err.reason, err.detail, alternatives, subject)
    except NotationError as err:
        try:
            parse_move_text(text)
        except NotationError:
            return Explanation(text, False, "notation", "not-a-move", str(err))
        alternatives, subject = _lsd_alternatives(state, text)
        return Explanation(text, False, "notation", "ambiguous", str(err), alternatives, subject)
    after = state.apply_move(move)
    me = state.current_player
    x, y = move.cell
    first = not state.field
    parts = [f"{me} places a {move.face} tile at ({x}, {y})"]
    if first:
        parts.append("the first tile starts the field at (0, 0) (LSD 1.4, RULING 20)")
    tile = after.tile_at(move.cell)
    whole = 0
    for side, (dx, dy) in enumerate(DIRECTIONS):
        other = state.tile_at((x + dx, y + dy))
        if (
            tile is not None
            and other is not None
            and tile.sides[side]
            and other.sides[(side + 2) % 4]
        ):
            whole += 1
    if whole:
        parts.append(f"it makes {whole} whole dot{'s' if whole > 1 else ''} (LSD 2.2)")
    taken = [cell for cell in state.field if after.tile_at(cell) is None]
    if taken:
        cells = ", ".join(f"({cx}, {cy})" for cx, cy in taken)
        parts.append(f"it captures the tile{'s' if len(taken) > 1 else ''} at {cells} (LSD 2.3)")
    if after.outcome is not None:
        parts.append(f"the game ends: {after.outcome.result()} ({after.outcome.termination.value})")
    rule = "LSD-1.4" if first else "LSD-2.2"
    return Explanation(text, True, rule, "legal", "; ".join(parts) + ".")


def _lsd_alternatives(state: Any, text: str) -> tuple[tuple[str, ...], str]:
    try:
        shade, shape, mask, x, y = parse_move_text(text)
    except NotationError:
        return (), ""
    legal = state.legal_moves()
    here = [str(m) for m in legal if m.cell == (x, y)]
    if here:
        return limited(here), f"on ({x}, {y})"
    icon = (shade.letter if shade is not None else "") + shape.value
    # The same tile: same icon and the same number of half dots (any turn).
    same = [
        str(m)
        for m in legal
        if m.shape is shape
        and (shade is None or m.shade is shade)
        and sum(m.sides) == mask.bit_count()
    ]
    if not same:
        return limited([str(m) for m in legal]), f"of {state.current_player}"
    dots = mask.bit_count()
    return limited(same), f"with a {icon} tile of {dots} half dot{'' if dots == 1 else 's'}"
