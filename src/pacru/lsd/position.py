"""The LSD position string {LSD 2.1}.

==================  ===========================================================
Item                Value
==================  ===========================================================
Form                one line, words separated by blanks, starting ``lsd``
Round trip          ``from_position(state.to_position()) == state``
Supplies            not written: tile set - field - captured (tiles are conserved)
Outcome             not written: derived from the field (2.4)
==================  ===========================================================

Grammar::

    position := "lsd" seats field captured turn option*
    seats    := colour ":" shade ("," colour ":" shade)*    turn order; shade B|W
    field    := "-" | tile (";" tile)*                       sorted by x, then y
    tile     := seat move                                    e.g. 0B+NESW@0,0
    captured := "-" | item ("," item)*                       the tiles out of play
    item     := seat shade shape sides ["*" count]           e.g. 1WxN*2
    turn     := colour | "-"                                 "-" once the game is over
    option   := "row=" int | "rotation=" onoff | "strict=" onoff
              | "alternation=" onoff | "first=" colour | "set=" tileset
    onoff    := "on" | "off"

``seat`` is the 0-based index of the owner in ``seats``; ``move`` and
``sides`` follow :mod:`pacru.lsd.moves`; ``tileset`` is the text of
:func:`pacru.lsd.tiles.parse_tile_set`. Options name ``row_length``,
``allow_rotation``, ``strict_dot_matching``, ``enforce_shade_alternation``,
``first_player`` and ``tile_set``; only those that differ from the default are
written, in that order. ``seats`` list the colours in turn order from the
first player, so ``first=`` is never written; when read, it rotates the seats
so that colour is first (as ``new_game(first_player=...)`` does), and seat
numbers refer to the order written.

Example, after ``B+NESW@0,0`` and ``WxW@1,0`` in a two-player game::

    lsd red:B,yellow:W 0B+NESW@0,0;1WxW@1,0 - red
"""

from __future__ import annotations

from pacru.lsd.position_text import MAX_POSITION_TEXT, format_position
from pacru.lsd.state import LsdState

__all__ = ["MAX_POSITION_TEXT", "format_position", "parse_position"]


def parse_position(text: str, adjudicate: bool = True) -> LsdState:
    """The state a position string describes (grammar in the module docstring).

    Raises:
        NotationError: text outside the grammar, or longer than
            :data:`MAX_POSITION_TEXT` (checked first).
        InvalidPositionError: well-formed, but not a possible state (invalid
            options, tiles the tile set cannot supply, a turn that does not
            fit the field; see ``LsdState._from_parts``).
    """
    return LsdState.from_position(text, adjudicate=adjudicate)
