"""LSD -- Linearity, Simplicity, Duality: the tile game (van Oostrum & Vermeer, Symbiose 2005).

==================  ===========================================================
Item                Value
==================  ===========================================================
Players             2, 3 or 4, each with one colour of 20 tiles (LSD 1.2, 1.3)
Board               none: an unbounded square grid of tiles, ``(x, y)`` ints,
                    first tile at ``(0, 0)``, y up (RULING 20, 22)
Move                place one own tile so it makes at least one whole dot and
                    obstructs no half dot (2.2); no passing (RULING 19)
Captures            by the placed tile with a partner of the same icon:
                    ``+`` orthogonally at distance 2, ``x`` corner to corner (2.3)
Goal                a horizontal or vertical row of 4 own tiles (3 with four
                    players) (1.7); draw when nobody can place (2.4)
Information         perfect, deterministic
Rules               the LSD page of the docs: its sections (``2.2``) and
                    rulings (``RULING 5``), error rules ``LSD-2.2`` / ``LSD-R5``
==================  ===========================================================

Quick start::

    >>> import pacru.lsd as lsd
    >>> state = lsd.new_game(2)
    >>> state = state.apply_move("B+NESW@0,0")
    >>> state.current_player
    'yellow'
    >>> len(state.legal_moves())
    64
    >>> lsd.from_position(state.to_position()) == state
    True

Modules: :mod:`.tiles` (tiles, tile sets), :mod:`.moves` (the move and its
notation), :mod:`.rules` (options), :mod:`.state` (the game),
:mod:`.position` (position strings), :mod:`.render` (text drawing).
"""

from __future__ import annotations

from typing import Unpack

from pacru.lsd.moves import LsdMove
from pacru.lsd.rules import DEFAULT_COLOURS, OPTION_NAMES, LsdOptions, LsdRules, make_rules
from pacru.lsd.state import LsdState
from pacru.lsd.tiles import (
    DEFAULT_TILE_SET,
    Cell,
    Shade,
    Shape,
    Sides,
    Tile,
    TileSet,
    TileSpec,
    normalize_tile_set,
    parse_tile_set,
)

__all__ = [
    "DEFAULT_COLOURS",
    "DEFAULT_TILE_SET",
    "OPTION_NAMES",
    "Cell",
    "LsdMove",
    "LsdRules",
    "LsdState",
    "Shade",
    "Shape",
    "Sides",
    "Tile",
    "TileSet",
    "TileSpec",
    "from_position",
    "new_game",
    "normalize_tile_set",
    "parse_tile_set",
]


def new_game(players: int = 2, **options: Unpack[LsdOptions]) -> LsdState:
    """The starting position: an empty field, full supplies, ``first_player`` to move.

    Args:
        players: 2, 3 or 4 (LSD 1.3).
        **options: keyword only (details in :mod:`pacru.lsd.rules`):

            * ``colours``: names in turn order (a letter, then letters, digits or
              ``_``; at most 32 characters); default ``red, yellow, green, blue``
              cut to ``players`` (RULING 3).
            * ``shades``: each colour's icon shade, ``"black"``/``"white"``;
              default black, white, black, white (3.1).
            * ``tile_set``: the tiles each colour starts with: :class:`TileSpec`
              values, ``(sides, shape, count[, shade])`` tuples, or text such as
              ``"+NESW*3,xN*2"``; default :data:`DEFAULT_TILE_SET` (3.1, RULING 1).
            * ``allow_rotation=True``: tiles may be turned (RULING 4).
            * ``strict_dot_matching=True``: a new half dot may not face an old
              empty side either (RULING 5).
            * ``row_length``: default 4, or 3 with four players (1.7, RULING 16).
            * ``enforce_shade_alternation=True``: the setup check of 2.5.
            * ``first_player``: the colour that starts; default the first (RULING 20).

    Raises:
        ValueError: an invalid player count, an unknown option (the message
            names the valid ones) or an invalid value.
    """
    plain = not options and type(players) is int
    start = _STARTS.get(players) if plain else None
    if start is None:
        rules = make_rules(players, options)
        empty = tuple((0,) * len(kinds) for kinds in rules.kinds)
        seat = rules.colours.index(rules.first_player)
        start = LsdState._from_parts(rules, {}, empty, seat)
        if plain:
            _STARTS[players] = start
    return start


# The start of a game with the default options, by player count: states are immutable, and
# a bot starts thousands of games.
_STARTS: dict[int, LsdState] = {}


def from_position(text: str, adjudicate: bool = True) -> LsdState:
    """The state a position string describes (``state.to_position()``; grammar in
    :mod:`pacru.lsd.position`). ``adjudicate=False`` loads a diagram as typed,
    without deciding its end (:func:`pacru.from_position`).

    Raises:
        NotationError: not an LSD position string.
        InvalidPositionError: well-formed, but not a possible state.
    """
    return LsdState.from_position(text, adjudicate=adjudicate)
