"""Starting positions, colours and turn orders of the chevron games {L1, S-R1, A-R1, R1}.

Seats: each side's three chevrons stand on the edge pointing into the
board; in 2-player games each player adds a fourth in a corner on the
opponent's side, pointing diagonally inwards.

=======  =========================  ===============
seat     chevrons                   default colour
=======  =========================  ===============
S        e1 N, a3 E, i3 W           green
W        a5 E, c1 N, c9 S           black
N        e9 S, a7 E, i7 W           yellow
E        i5 W, g1 N, g9 S           red
=======  =========================  ===============

Layouts (option ``start_layout``; ruling D1, D2):

* ``"standard"``: 2 players S (+ i9 SW, first) and N (+ a1 NE), AbstractPlay's
  current layout; 3 players N (the middle player, first), E, W; 4 players S,
  W, N, E, clockwise from S.
* ``"ap-legacy-2p"``: AbstractPlay's layout before 14 Feb 2025: E (+ a9 SE,
  first) and W (+ i1 NW).
* ``"abstractplay"``: AbstractPlay's player numbering: 2 players as
  standard, 3 players E, W, N, 4 players E, W, N, S.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Unpack

from pacru._integers import integer
from pacru.base import MAX_COLOUR_NAME, player_count_error
from pacru.chevron.rules import ChevronOptions, rules_for
from pacru.chevron.state import ChevronState
from pacru.geometry import Direction, parse_field

_COLOUR_RE: Final = re.compile(r"[a-z][a-z0-9_-]*")

__all__ = ["LAYOUTS", "SEAT_CHEVRONS", "SEAT_COLOURS", "new_game"]

#: The three chevrons of each seat, as (field, facing).
SEAT_CHEVRONS: Final = {
    "S": (("e1", "N"), ("a3", "E"), ("i3", "W")),
    "W": (("a5", "E"), ("c1", "N"), ("c9", "S")),
    "N": (("e9", "S"), ("a7", "E"), ("i7", "W")),
    "E": (("i5", "W"), ("g1", "N"), ("g9", "S")),
}
#: Default colour of each seat: the 4-player labels of the booklet.
SEAT_COLOURS: Final = {"S": "green", "W": "black", "N": "yellow", "E": "red"}

#: Layout -> player count -> seats in turn order, each with its 2-player corner chevron.
LAYOUTS: Final[dict[str, dict[int, tuple[tuple[str, tuple[str, str] | None], ...]]]] = {
    "standard": {
        2: (("S", ("i9", "SW")), ("N", ("a1", "NE"))),
        3: (("N", None), ("E", None), ("W", None)),
        4: (("S", None), ("W", None), ("N", None), ("E", None)),
    },
    "ap-legacy-2p": {
        2: (("E", ("a9", "SE")), ("W", ("i1", "NW"))),
    },
    "abstractplay": {
        2: (("S", ("i9", "SW")), ("N", ("a1", "NE"))),
        3: (("E", None), ("W", None), ("N", None)),
        4: (("E", None), ("W", None), ("N", None), ("S", None)),
    },
}

_OPTIONS: Final = (
    "start_layout",
    "turn_order",
    "first_player",
    "colours",
    "meeting_rule",
    "move_cap",
    "idle_rounds",
)
#: The rule options each game has (D48 Pacru's meeting rule, D32 the move cap, D33 idle rounds);
#: an error for an unknown option lists these and the set-up options, not the others'.
_GAME_OPTIONS: Final = {
    "lilacru": ("idle_rounds",),
    "shacru": ("idle_rounds",),
    "azacru": ("move_cap",),
    "pacru": ("meeting_rule", "move_cap"),
}


def _check_colours(colours: Sequence[str], n: int, option: str = "colours") -> tuple[str, ...]:
    if (
        isinstance(colours, str)
        or not isinstance(colours, Sequence)
        or len(colours) != n
        or not all(isinstance(c, str) for c in colours)
    ):
        raise ValueError(f"{option} must list {n} colour names, one per seat")
    names = tuple(c.strip().lower() for c in colours)
    for name in names:
        # ASCII only, as the position string reads them (pacru.chevron.notation).
        if not _COLOUR_RE.fullmatch(name) or len(name) > MAX_COLOUR_NAME:
            raise ValueError(
                "colour names are words of letters, digits, - and _ (ASCII, a letter first), "
                f"at most {MAX_COLOUR_NAME} characters: {name[:40]!r}"
                + ("..." if len(name) > 40 else "")
            )
    if len(set(names)) != n:
        raise ValueError(f"colour names must be distinct: {', '.join(names)}")
    return names


def new_game(
    game: str, players: int = 2, **options: Unpack[ChevronOptions]
) -> ChevronState:
    """The starting position of a chevron game (ruling D1).

    One colour per player, the colours and the order of play chosen freely
    (``colours``, ``first_player``, ``turn_order``) {L1, S-R1, A-R1, R1}. Every
    field starts neutral; two players have four chevrons each, three or four
    players three each {L2, S-R1, A-R1, R1}. Lilacru starts from the same 302
    positions as the other games (ruling D44).

    Args:
        game: ``"lilacru"``, ``"shacru"``, ``"azacru"`` or ``"pacru"``.
        players: 2, 3 or 4.
        start_layout: ``"standard"`` (default), ``"ap-legacy-2p"`` or
            ``"abstractplay"`` (see the module docstring).
        colours: colour names for the layout's seats in its default order
            (default: the seat colours green, black, yellow, red): ASCII
            letters, digits, ``-`` and ``_``, a letter first, at most
            :data:`pacru.base.MAX_COLOUR_NAME` (32) characters, read in lower case.
        first_player: a colour; keeps the cyclic order and starts with it.
        turn_order: every colour, in the order they move (overrides
            ``first_player``); ruling D2 allows any order.
        meeting_rule: Pacru: ``"2011"`` (default) or ``"original"`` (D48).
        move_cap: Pacru and Azacru: non-official ply limit for engines (D32).
        idle_rounds: Lilacru/Shacru: non-official limit of rounds without an
            acquired field (D33, default 81).

    Raises:
        ValueError: an unknown game, player count, option or option value;
            the message names the valid ones.
    """
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        valid = (*_OPTIONS[:4], *_GAME_OPTIONS.get(str(game).lower(), _OPTIONS[4:]))
        raise ValueError(
            f"unknown option(s) {', '.join(unknown)} for {game}; valid options: {', '.join(valid)}"
        )
    count = integer(players)
    if count not in (2, 3, 4):
        raise player_count_error(str(game), players)
    players = count
    layout_name = options.get("start_layout", "standard")
    layout = LAYOUTS.get(layout_name)
    if layout is None:
        raise ValueError(f"unknown start_layout {layout_name!r}; valid: {', '.join(LAYOUTS)}")
    seats = layout.get(players)
    if seats is None:
        raise ValueError(
            f"start_layout {layout_name!r} is for "
            f"{', '.join(map(str, layout))} players, not {players}"
        )
    rules = rules_for(
        game,
        meeting_rule=options.get("meeting_rule", "2011"),
        move_cap=options.get("move_cap"),
        idle_rounds=options.get("idle_rounds", 81),
    )
    colours = options.get("colours")
    names = (
        _check_colours(colours, players)
        if colours is not None
        else tuple(SEAT_COLOURS[seat] for seat, _ in seats)
    )
    chevrons = []
    for seat, corner in seats:
        placed = [*SEAT_CHEVRONS[seat], *([corner] if corner else [])]
        chevrons.append(tuple(sorted(parse_field(f) * 8 + Direction[d] for f, d in placed)))
    order = list(range(players))
    turn_order = options.get("turn_order")
    if turn_order is not None:
        wanted = _check_colours(turn_order, players, "turn_order")
        if sorted(wanted) != sorted(names):
            raise ValueError(f"turn_order must list each of {', '.join(names)} once")
        order = [names.index(c) for c in wanted]
    elif options.get("first_player") is not None:
        first = str(options["first_player"]).lower()
        if first not in names:
            raise ValueError(f"first_player must be one of {', '.join(names)}, not {first!r}")
        i = names.index(first)
        order = order[i:] + order[:i]
    occupied = 0
    for codes in chevrons:
        for code in codes:
            occupied |= 1 << (code >> 3)
    return ChevronState(
        rules,
        tuple(names[i] for i in order),
        (0,) * players,
        tuple(chevrons[i] for i in order),
        0,
        occupied=occupied,
    )
