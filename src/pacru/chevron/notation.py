"""The one-line position string of the chevron games.

A position is the game name followed by ``key=value`` words, separated by
spaces, in this order (optional keys are left out when they have their
default)::

    pacru players=green,yellow turn=green markers=green:e2,f3;yellow:d7
          chevrons=green:a3E,e1N,i3W,i9SW;yellow:a1NE,a7E,e9S,i7W ply=2

====================  =========================================================
key                   value
====================  =========================================================
``players``           colours in turn order (required)
``turn``              the colour to move (default: the first player)
``markers``           ``colour:field,field;colour:...``, or ``-`` for none
``chevrons``          ``colour:`` then field and facing (``e4N``, ``i9SW``), ``;``-separated
``out``               Pacru: eliminated colours {R15}
``trigger``           Azacru: the colour whose pass triggered the end {A-R10}
``idle``              Lilacru/Shacru: plies since a field was acquired (D33)
``ply``               plies played since the start
``meeting_rule``      Pacru option ``original`` (D48)
``move_cap``          Pacru and Azacru option (D32)
``idle_rounds``       Lilacru/Shacru option (D33)
====================  =========================================================

So any rulebook diagram can be typed: ``from_position("azacru
players=red,yellow markers=red:d4,e4 chevrons=red:e4N")``. A Pacru position is
taken to be at the start of the player's turn: a player without chevrons or
without a chevron step is eliminated on reading {R15, D27}, and the end of the
game is decided; ``parse_position(text, adjudicate=False)`` loads a diagram as
typed instead (see :meth:`pacru.ChevronState.status`).
"""

from __future__ import annotations

import re
from typing import Final

from pacru.base import MAX_COLOUR_NAME, Outcome
from pacru.chevron.position import adjudication, format_position
from pacru.chevron.rules import (
    COUNTER_MAX,
    GAMES,
    MEETING_RULES,
    SUPPLY,
    Rules,
    rules_for,
)
from pacru.chevron.state import ChevronState
from pacru.errors import InvalidPositionError, NotationError
from pacru.geometry import Direction, parse_field

__all__ = [
    "MAX_NUMBER_DIGITS",
    "MAX_POSITION_TEXT",
    "adjudication",
    "format_position",
    "parse_position",
]

#: Longest position string the parser reads. Every position pacru writes is far
#: shorter: colour names are at most 32 characters (``pacru.base.MAX_COLOUR_NAME``),
#: so even four such names, a marker on every free field and every option stay
#: under 1,500 characters (a test builds that position).
MAX_POSITION_TEXT: Final = 4096
#: Most digits of a number (``ply``, ``idle``, ...), leading zeros aside: those of
#: :data:`~pacru.chevron.rules.COUNTER_MAX`, the most any engine counts.
MAX_NUMBER_DIGITS: Final = len(str(COUNTER_MAX))
#: Characters of a long typed value an error quotes (its start).
_SHOWN: Final = 20
_KEYS: Final = (
    "players",
    "turn",
    "markers",
    "chevrons",
    "out",
    "trigger",
    "idle",
    "ply",
    "meeting_rule",
    "move_cap",
    "idle_rounds",
)
_COLOUR_RE: Final = re.compile(r"[a-z][a-z0-9_-]*")
_CHEVRON_RE: Final = re.compile(r"([a-i][1-9])(ne|nw|se|sw|n|e|s|w)")


def _groups(value: str, key: str, players: tuple[str, ...]) -> dict[int, list[str]]:
    # ``value`` as typed: the colours are matched lower-cased, the items are returned as
    # typed (each reader lower-cases what it matches), so that errors quote the text.
    out: dict[int, list[str]] = {}
    if value == "-":
        return out
    for group in value.split(";"):
        colour, sep, items = group.partition(":")
        if not sep or not items:
            raise NotationError(f"{key}: expected colour:item,item;..., got {group[:30]!r}", value)
        if colour.lower() not in players:
            raise InvalidPositionError(
                f"{key}: {colour!r} is not one of the players ({', '.join(players)})"
            )
        seat = players.index(colour.lower())
        if seat in out:
            raise InvalidPositionError(f"{key}: {colour} is listed twice")
        out[seat] = items.split(",")
    return out


def _shown(value: str) -> str:
    """``value`` quoted as typed, its start only when it is long."""
    if len(value) <= 2 * _SHOWN:
        return repr(value)
    return f"{value[:_SHOWN]!r}... ({len(value)} characters)"


def _int(value: str, key: str) -> int:
    """The count ``key=value`` gives (``value`` as typed).

    Raises:
        NotationError: ``value`` is not written in ASCII digits.
        InvalidPositionError: it is larger than :data:`COUNTER_MAX`, the most any
            engine counts (leading zeros aside, a number of more than
            :data:`MAX_NUMBER_DIGITS` digits is not read).
    """
    # ASCII only: str.isdigit() accepts "²" (int() then fails) and other scripts' digits.
    if not (value.isascii() and value.isdigit()):
        raise NotationError(f"{key} must be a whole number, not {_shown(value)}", value)
    digits = value.lstrip("0")
    if len(digits) > MAX_NUMBER_DIGITS or int(digits or "0") > COUNTER_MAX:
        raise InvalidPositionError(
            f"{key} is too large: at most {COUNTER_MAX}, not {_shown(value)}"
        )
    return int(digits or "0")


def _rules(typed_game: str, values: dict[str, str]) -> Rules:
    """The rules of the game named ``typed_game`` with the options of ``values`` (as typed).

    Raises:
        NotationError: a count not written in digits.
        InvalidPositionError: an unknown game or meeting rule, an option the game
            does not have, a count out of range.
    """
    game = typed_game.lower()
    if game not in GAMES:
        raise InvalidPositionError(
            f"unknown chevron game {typed_game[:20]!r}; valid: {', '.join(GAMES)}"
        )
    meeting_rule = values.get("meeting_rule", "2011")
    if meeting_rule.lower() not in MEETING_RULES:
        raise InvalidPositionError(
            f"meeting_rule must be one of {', '.join(MEETING_RULES)}, not {_shown(meeting_rule)}"
        )
    move_cap = _int(values["move_cap"], "move_cap") if "move_cap" in values else None
    idle_rounds = _int(values.get("idle_rounds", "81"), "idle_rounds")
    try:
        return rules_for(
            game, meeting_rule=meeting_rule.lower(), move_cap=move_cap, idle_rounds=idle_rounds
        )
    except ValueError as err:
        raise InvalidPositionError(str(err)) from None


def parse_position(text: str, adjudicate: bool = True) -> ChevronState:
    """The state described by a chevron-game position string.

    Args:
        text: the position string (module docstring).
        adjudicate: decide the end and the eliminations of the position, as
            play would at the start of the turn (:func:`adjudication`). With
            ``False`` a rulebook diagram loads as typed: nobody is eliminated,
            no end is decided, a Pacru player may hold more markers than the
            supply, and the player to move moves (if they can);
            :meth:`ChevronState.status` names what play could not reach.

    Raises:
        NotationError: the text does not follow the format.
        InvalidPositionError: well-formed but impossible: a field with two
            chevrons or two markers, an unknown colour, a wrong number of
            players, a Pacru player over the supply.
    """
    if len(text) > MAX_POSITION_TEXT:
        raise NotationError(f"position longer than {MAX_POSITION_TEXT} characters", text)
    # The words as typed: each part is lower-cased where it is matched, and an error
    # quotes it as the user wrote it ("'z9N' is not a field").
    words = text.split()
    if not words:
        raise NotationError("empty position", text)
    game, values = words[0].lower(), {}
    for word in words[1:]:
        typed_key, sep, value = word.partition("=")
        key = typed_key.lower()
        if not sep or key not in _KEYS:
            raise NotationError(
                f"unknown position key {typed_key[:20]!r}; keys: {', '.join(_KEYS)}", text
            )
        if key in values:
            raise NotationError(f"position key {key} given twice", text)
        values[key] = value
    if "players" not in values:
        raise NotationError("a position needs players=colour,colour,...", text)
    players = tuple(values["players"].lower().split(","))
    if not 2 <= len(players) <= 4:
        raise InvalidPositionError(f"{game} is played by 2, 3 or 4 players, not {len(players)}")
    if len(set(players)) != len(players) or not all(
        _COLOUR_RE.fullmatch(p) and len(p) <= MAX_COLOUR_NAME for p in players
    ):
        raise NotationError(
            f"players must be distinct colour words: {values['players'][:40]!r}", text
        )
    rules = _rules(words[0], values)

    def seat_of(key: str) -> int:
        colour = values[key]
        if colour.lower() not in players:
            raise InvalidPositionError(f"{key}: {colour!r} is not a player")
        return players.index(colour.lower())

    n = len(players)
    to_move = seat_of("turn") if "turn" in values else 0
    markers = [0] * n
    for seat, items in _groups(values.get("markers", "-"), "markers", players).items():
        for item in items:
            f = parse_field(item)
            if any(m >> f & 1 for m in markers):
                raise InvalidPositionError(f"markers: {item} is marked twice")
            markers[seat] |= 1 << f
    chevrons: list[tuple[int, ...]] = [()] * n
    occupied = 0
    for seat, items in _groups(values.get("chevrons", "-"), "chevrons", players).items():
        codes = []
        for item in items:
            m = _CHEVRON_RE.fullmatch(item.lower())
            if not m:
                raise NotationError(
                    f"chevrons: {item[:20]!r} is not a field and facing such as e4N or i9SW", text
                )
            f = parse_field(m.group(1))
            if occupied >> f & 1:
                raise InvalidPositionError(f"chevrons: two chevrons on {item[:2]}")
            occupied |= 1 << f
            codes.append(f * 8 + Direction[m.group(2).upper()])
        chevrons[seat] = tuple(sorted(codes))
    out = 0
    for colour in values.get("out", "").split(",") if values.get("out") else ():
        if not rules.pacru:
            raise InvalidPositionError("only Pacru eliminates players (out=)")
        if colour.lower() not in players:
            raise InvalidPositionError(f"out: {colour!r} is not a player")
        if chevrons[players.index(colour.lower())]:
            raise InvalidPositionError(f"out: {colour} still has chevrons")
        out |= 1 << players.index(colour.lower())
    trigger = -1
    if "trigger" in values:
        if not rules.azacru:
            raise InvalidPositionError("only Azacru has an end trigger (trigger=)")
        trigger = seat_of("trigger")
    idle = _int(values.get("idle", "0"), "idle")
    if idle and not rules.lookahead_end:
        raise InvalidPositionError("only Lilacru and Shacru count idle plies (idle=, D33)")
    ply = _int(values.get("ply", "0"), "ply")
    marks = tuple(markers)
    chevs = tuple(chevrons)
    outcome: Outcome | None = None
    if adjudicate:
        if rules.pacru:
            target = SUPPLY[n]
            full = [s for s in range(n) if marks[s].bit_count() >= target]
            if any(marks[s].bit_count() > target for s in range(n)) or len(full) > 1:
                raise InvalidPositionError(f"a Pacru player has at most {target} markers (R1)")
        chevs, out, to_move, occupied, outcome = adjudication(
            rules, players, marks, chevs, out, to_move, occupied, trigger, idle, ply
        )
    return ChevronState(
        rules, players, marks, chevs, to_move, out, trigger, idle, ply, outcome, occupied
    )
