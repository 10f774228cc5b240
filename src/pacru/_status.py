"""What :meth:`pacru.GameState.status` reports: the named problems of a position.

A rulebook diagram often shows a position that play cannot reach (one side's
chevrons only, a count that was never possible), yet one may still want to ask
the rules about it. :func:`pacru.from_position` with ``adjudicate=False``
loads such a diagram, and ``state.status()`` says what about it is impossible
or unusual, as python-chess's ``Board.status()`` does: a :class:`Status` flag
set, ``Status.VALID`` (no flag) for a position that play can reach.

>>> import pacru
>>> pacru.new_game("pacru").status()
<Status.VALID: 0>
>>> diagram = pacru.from_position(
...     "pacru players=red,yellow chevrons=red:e4N,e5N,e6N,e7N,e8N", adjudicate=False
... )
>>> diagram.status()
<Status.TOO_MANY_CHEVRONS|UNADJUDICATED_END: 33>
"""

from __future__ import annotations

import enum

__all__ = ["Status"]


class Status(enum.Flag):
    """Named problems of a position; combine with ``|``, test with ``in``."""

    #: Nothing wrong: a position that play can reach, as far as the checks go.
    VALID = 0
    #: A player has more chevrons than a seat starts with (3; 4 in 2-player games) {R1}.
    TOO_MANY_CHEVRONS = enum.auto()
    #: Pacru: a player has more markers on the board than the supply holds (R1, D29).
    MARKERS_ABOVE_SUPPLY = enum.auto()
    #: Lilacru/Shacru: more idle plies than plies played (D33).
    IDLE_ABOVE_PLY = enum.auto()
    #: The player to move has no chevron (play would have passed or eliminated them).
    NO_CHEVRONS_TO_MOVE = enum.auto()
    #: Lilacru/Shacru: a chevron stands on another player's marker (L5, L6, S-R5).
    CHEVRON_ON_OPPONENT_MARKER = enum.auto()
    #: Loaded with ``adjudicate=False``: the rules would have ended the game here.
    UNADJUDICATED_END = enum.auto()
    #: Loaded with ``adjudicate=False``: the game goes on, but the player to
    #: move has no legal move (play would have skipped or ended it).
    NO_LEGAL_MOVE = enum.auto()
    #: LSD: tiles lie apart from the others in a way play cannot leave them
    #: (every tile is placed against a tile on the field; only captures can
    #: break the field into pieces, and only within the span of the tiles
    #: ever placed).
    DISCONNECTED_TILES = enum.auto()
