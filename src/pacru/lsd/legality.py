"""Why a move is illegal: the IllegalMoveError for each rule {LSD 1.5, 2.2; RULINGS 4, 5, 20}.

==================  ===========================================================
Item                Value
==================  ===========================================================
Entry               :func:`explain_illegal`, called only after the fast
                    legality check of :class:`~pacru.lsd.LsdState` failed
Errors              :class:`~pacru.errors.IllegalMoveError`; the reason codes
                    are listed in :mod:`pacru.lsd.state`
Order               supply and rotation, first tile, occupied cell, then the
                    sides: obstruction, strict matching, no whole dot
==================  ===========================================================
"""

from __future__ import annotations

from pacru.errors import IllegalMoveError
from pacru.lsd.engine import constraint
from pacru.lsd.moves import LsdMove
from pacru.lsd.rules import LsdRules
from pacru.lsd.tiles import DOT_BITS, SIDE_NAMES, face_text

__all__ = ["explain_illegal"]


def explain_illegal(
    rules: LsdRules,
    seat: int,
    field: dict[int, int],
    supply: tuple[int, ...],
    move: LsdMove,
    text: str,
) -> IllegalMoveError:
    """The error that says why ``seat`` may not play ``move`` (known to be illegal).

    Args:
        rules: the game's rules.
        seat: the mover's seat.
        field: cell code -> tile code (see :mod:`pacru.lsd.engine`).
        supply: the mover's counts by kind.
        move: the rejected move.
        text: the move as the caller wrote it, kept in the error.
    """
    colour = rules.colours[seat]
    kind = rules.kind_of[seat].get(move._face)
    if kind is None or not supply[kind]:
        other = rules.rotation_of(seat, move._face)
        if kind is None and other is not None and supply[other]:
            return IllegalMoveError(
                f"{colour}'s {face_text(rules.kinds[seat][other])} tile cannot be turned "
                f"to {move.face}: rotation is off",
                rule="LSD-R4",
                reason="rotation-not-allowed",
                move=text,
            )
        return IllegalMoveError(
            f"{colour} has no {move.face} tile in the supply",
            rule="LSD-1.5",
            reason="not-in-supply",
            move=text,
        )
    if not field:
        return IllegalMoveError(
            f"the first tile goes to (0, 0), not {move.cell}",
            rule="LSD-R20",
            reason="first-tile-not-origin",
            move=text,
        )
    if move._code in field:
        return IllegalMoveError(
            f"{move.cell} is occupied", rule="LSD-2.2", reason="occupied", move=text
        )
    code = constraint(field, move._code)
    need, forbid, dots = code & DOT_BITS, code >> 4, move._face & DOT_BITS
    if need & ~dots:
        side = SIDE_NAMES[(need & ~dots).bit_length() - 1]
        return IllegalMoveError(
            f"the empty {side} side at {move.cell} would obstruct a half dot",
            rule="LSD-2.2",
            reason="obstructs-dot",
            move=text,
        )
    if rules.strict_dot_matching and forbid & dots:
        side = SIDE_NAMES[(forbid & dots).bit_length() - 1]
        return IllegalMoveError(
            f"the half dot on the {side} side at {move.cell} would face an empty side",
            rule="LSD-R5",
            reason="dot-against-empty",
            move=text,
        )
    return IllegalMoveError(
        f"a tile at {move.cell} would make no whole dot"
        + ("" if code else " (it does not touch the field)"),
        rule="LSD-2.2",
        reason="no-whole-dot",
        move=text,
    )
