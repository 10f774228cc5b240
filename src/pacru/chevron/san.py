"""Short move text for the chevron games, as chess's SAN: the fewest choices that name a move.

A complete move text (:mod:`pacru.chevron.move`) writes every choice. In most
positions many of them are forced: a Pacru connection change with no crossing
to compete, the only field a border-crossing marker can go to, a meeting with
one field to change. The short text leaves out every choice that no other legal
move of the same chevron and target makes differently:

============================  ==============================================
written                       read as
============================  ==============================================
``g1-i3`` (only ``g1-i3*``)   the one legal move from g1 to i3, whatever its
                              twist, ``*``, ``+f`` and ``@f``
``e5>`` (one choice)          the only reorientation of e5 by ``>``
============================  ==============================================

Reading (:func:`parse_san`): a text that is itself a complete legal move is that
move, so the canonical text always reads back; otherwise each part left out
matches any value, and exactly one legal move must fit. Writing (:func:`san`)
tries the texts with parts left out, shortest first, and keeps the first that
reads back to the move: ``parse_san(state, san(state, m)) == m`` for every legal
move.
"""

from __future__ import annotations

import re
from itertools import product
from typing import TYPE_CHECKING, Final

from pacru.chevron.move import MAX_MOVE_TEXT, Move
from pacru.errors import NotationError, PacruError
from pacru.geometry import FIELD_NAMES, parse_field

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["parse_san", "san"]

_F = r"([a-i][1-9])"
_STEP_RE: Final = re.compile(rf"{_F}([-x]){_F}([<>]?)(\*?)(?:\+{_F})?(?:@{_F})?")
_SHORT_REORIENT_RE: Final = re.compile(rf"{_F}(<<|>>|<|>)")
_TURNS: Final = {"<<": -2, "<": -1, ">": 1, ">>": 2}


def parse_san(state: ChevronState, text: str) -> Move:
    """The legal move ``text`` names in ``state``: complete or short text (module docstring).

    Raises:
        NotationError: text outside the grammar, or short text that fits more
            than one legal move (the message lists them).
        IllegalMoveError: no legal move fits; the rule is that of the
            complete move the text reads as (:meth:`ChevronState.parse_move`).
        GameOverError: the game is over.
    """
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        return state.parse_move(text)  # raises the NotationError of the grammar
    s = text.strip().lower()
    short = _SHORT_REORIENT_RE.fullmatch(s)
    if short is not None:
        return _only(state, text, _reorientations(state, s))
    step = _STEP_RE.fullmatch(s)
    if step is None or (move := Move.parse(s)) in state.legal_moves():
        return state.parse_move(text)
    origin, sep, target, twist, star, marker, meeting = step.groups()
    family = state.legal_moves().family_of(
        Move(parse_field(origin), parse_field(target), capture=sep == "x")
    )
    fits = []
    if family is not None:
        for m in family:
            if (
                (not twist or m.twist == move.twist)
                and (not star or m.connection)
                and (marker is None or m.marker == move.marker)
                and (meeting is None or m.meeting == move.meeting)
            ):
                fits.append(m)
    if not fits:
        return state.parse_move(text)  # raises the IllegalMoveError of the complete text
    return _only(state, text, fits)


def _reorientations(state: ChevronState, s: str) -> list[Move]:
    turning = Move(parse_field(s[:2]), None, turn=_TURNS[s[2:]])  # no field given up yet
    family = state.legal_moves().family_of(turning)
    if family is None:  # not legal: diagnosed as that turn
        state._check(turning, s)
        return []  # pragma: no cover - _check raised
    return [family.get(i) for i in range(min(family.size, 4))]


def _only(state: ChevronState, text: str, fits: list[Move]) -> Move:
    if len(fits) == 1:
        return fits[0]
    shown = ", ".join(str(m) for m in fits[:3]) + (", ..." if len(fits) > 3 else "")
    raise NotationError(f"{text.strip()[:40]!r} fits more than one legal move: {shown}", text)


def san(state: ChevronState, move: Move | str) -> str:
    """The shortest text that names ``move`` (a legal Move or its text) in ``state``.

    Raises:
        NotationError: unparseable move text.
        IllegalMoveError: the move is not legal here.
        GameOverError: the game is over.
    """
    if isinstance(move, str):
        move = state.parse_move(move)
    else:
        state.parse_move(str(move))
    for text in _shortenings(move):
        try:
            if parse_san(state, text) == move:
                return text
        except PacruError:  # a shortening may read as another, illegal, move
            continue
    return str(move)  # pragma: no cover - the complete text always reads back


def _shortenings(move: Move) -> list[str]:
    """Texts naming ``move`` with parts left out, shortest first (ties: fewest left out)."""
    full = str(move)
    if move.origin is None:
        return [full]
    names = FIELD_NAMES
    if move.target is None:
        return [full[: full.index("(")], full]
    head = names[move.origin] + ("x" if move.capture else "-") + names[move.target]
    parts = [
        "<" if move.twist < 0 else ">" if move.twist else "",
        "*" if move.connection else "",
        "" if move.marker is None else "+" + names[move.marker],
        "" if move.meeting is None else "@" + names[move.meeting],
    ]
    texts = {
        head + "".join(p if keep else "" for p, keep in zip(parts, mask, strict=True))
        for mask in product((False, True), repeat=4)
    }
    return sorted(texts, key=lambda t: (len(t), t != full))
