"""Game records: a PGN-like text format for games of every pacru game.

=================  ==========================================================
what               a whole game, or many, as text: tag pairs, then the moves
games              Lilacru, Shacru, Azacru, Pacru and LSD
moves              each game's own move notation (:mod:`pacru.chevron.move`,
                   :mod:`pacru.lsd.moves`), canonical text
read               :func:`read_records`, :func:`read_record` (replays and
                   checks every move; errors are :class:`RecordError`)
write              :func:`write_record`, :func:`write_records`,
                   :func:`record_from_game`, :func:`record_from_state`
=================  ==========================================================

A record looks like this::

    [Game "pacru"]
    [Event "Club night"]
    [Date "2025.03.01"]
    [Players "green,yellow"]
    [Green "Alice"]
    [Yellow "Bob"]
    [StartLayout "ap-legacy-2p"]
    [MeetingRule "2011"]
    [Result "green"]
    [Termination "last-player"]

    {A quiet opening.} 1. g9-f8+d9 c9-d8+e7 2. f8-e8 d8-e7 {Yellow mirrors.}
    3. a9-b9 ... green

**Tag pairs** ``[Name "value"]`` come first, one per line by convention. A
name is a letter then letters, digits, ``_`` or ``-``; a value is one line in double
quotes, with ``\\"`` and ``\\\\`` escaping a quote and a backslash. Tags keep
their order and unknown tags are kept. The tags pacru reads:

=================  ==========================================================
tag                meaning
=================  ==========================================================
``Game``           ``lilacru``, ``shacru``, ``azacru``, ``pacru`` or ``lsd``
``Players``        the colours in turn order, comma-separated; the player
                   count. Without it: the game's 2-player default
``<Colour>``       the name of a player: the tag is the colour with a capital
                   first letter, e.g. ``[Green "Alice"]`` (as PGN's ``White``)
``StartLayout``    chevron games: ``standard`` (default), ``ap-legacy-2p``,
                   ``abstractplay`` (:mod:`pacru.chevron.setup`)
``Colours``        chevron games: the colours of the layout's seats in seat
                   order, when they are not the default colours; ``Players``
                   then gives the turn order (rulings D1, D2)
``MeetingRule``    Pacru ``2011`` (default) or ``original`` (R12, D22, D48)
``MoveCap``        Pacru non-official ply cap (D32)
``IdleRounds``     Lilacru/Shacru non-official idle limit (D33)
``FirstPlayer``    LSD: the colour that places the first tile (RULING 20);
                   ``Players`` then gives the seats it is rotated from
``Position``       the starting position string, for a game that does not
                   start from a standard set-up (:func:`pacru.from_position`);
                   it replaces the set-up tags above
``Result``         ``green``; ``green,red`` for a shared win (D35); ``draw``
                   for a game without winner; ``*`` for an unfinished game
``Termination``    how the game ended (:class:`pacru.Termination` values)
``Event`` ...      anything else (``Event``, ``Site``, ``Date``, ``Round``,
                   ``Annotator``, ...) is kept as it is
=================  ==========================================================

**The moves** follow after a blank line: move texts separated by white space,
with round numbers (``12.``, written before each round's first move, counting
one move per player per round) that readers ignore, comments in braces
(``{...}``, not nested; white space inside is collapsed to single spaces) and,
last, the termination marker: the ``Result`` value, or ``*``. A file may
hold many games, each starting with its tag pairs.

**Reading replays.** Each move is checked in its position; a move the rules
forbid is a :class:`RecordError` giving the game, ply, move text, rule and
reason of the :class:`~pacru.errors.IllegalMoveError`, never a traceback. A
``Result`` or ``Termination`` tag that contradicts a finished game is an error
too; an unfinished game may carry any result (a resignation or adjudication).
Moves are stored in canonical text (``E4-E6`` reads as ``e4-e6``).

**Size limits** (against hostile input; a larger input is a
:class:`RecordError` before anything else is read): :data:`MAX_RECORD_TEXT`
characters per text, :data:`MAX_GAMES` games, :data:`MAX_PLIES` moves per
game (and twice as many comments), :data:`MAX_TAGS` tags per game,
:data:`MAX_TAG_VALUE` characters per tag value and :data:`MAX_COMMENT` per
comment, :data:`MAX_TOKEN` per move; a tolerant read stops after
:data:`MAX_ERRORS` games with errors. Each length is checked on the text
before the field is copied out of it, so reading a text of up to 10 MB takes
a few MB of memory beyond the records it gives.
"""

from __future__ import annotations

from pacru.records._entry import read_record, read_records
from pacru.records._read import (
    MAX_COMMENT,
    MAX_ERRORS,
    MAX_GAMES,
    MAX_PLIES,
    MAX_RECORD_TEXT,
    MAX_TAG_VALUE,
    MAX_TAGS,
    MAX_TOKEN,
    GameRecord,
    RecordError,
)
from pacru.records._text import LINE_WIDTH, write_record
from pacru.records._write import record_from_game, record_from_state, write_records

__all__ = [
    "LINE_WIDTH",
    "MAX_COMMENT",
    "MAX_ERRORS",
    "MAX_GAMES",
    "MAX_PLIES",
    "MAX_RECORD_TEXT",
    "MAX_TAGS",
    "MAX_TAG_VALUE",
    "MAX_TOKEN",
    "GameRecord",
    "RecordError",
    "read_record",
    "read_records",
    "record_from_game",
    "record_from_state",
    "write_record",
    "write_records",
]

# The public names are defined in submodules; pickles and reprs name this module.
for _name in __all__:
    _value = globals()[_name]
    if hasattr(_value, "__module__") and not isinstance(_value, int):
        _value.__module__ = __name__
del _name, _value
