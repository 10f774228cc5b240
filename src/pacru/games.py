"""``new_game`` and ``from_position``: the entry points for every game.

The chevron games (Lilacru, Shacru, Azacru, Pacru) share one engine,
:mod:`pacru.chevron`; LSD has its own, :mod:`pacru.lsd`. Both are imported on
first use, so ``import pacru`` stays cheap.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, Unpack, cast, overload

from pacru.errors import NotationError

if TYPE_CHECKING:
    from pacru.chevron.rules import ChevronOptions
    from pacru.chevron.state import ChevronState
    from pacru.lsd.rules import LsdOptions
    from pacru.lsd.state import LsdState

    class GameOptions(ChevronOptions, LsdOptions, total=False):
        """Any game's options, for a game named at run time: the keys of both (the game
        refuses, with a ``ValueError``, those it does not have)."""

__all__ = [
    "CHEVRON_GAMES",
    "GAMES",
    "AnyState",
    "ChevronGame",
    "from_position",
    "new_game",
]

_HEAD_RE: Final = re.compile(r"\S{1,20}")

#: The games of the chevron family, in historical order.
CHEVRON_GAMES = ("lilacru", "shacru", "azacru", "pacru")
#: Every game name accepted by :func:`new_game`.
GAMES = (*CHEVRON_GAMES, "lsd")

#: The name of a chevron game, for type checkers: ``new_game`` of one gives a ``ChevronState``.
ChevronGame: TypeAlias = Literal["lilacru", "shacru", "azacru", "pacru"]
#: The state of any game: what :func:`from_position`, and :func:`new_game` of a name
#: not known before run time, return. Narrow it with ``isinstance`` or ``state.game``.
AnyState: TypeAlias = "ChevronState | LsdState"


@overload
def new_game(
    game: ChevronGame, players: int = 2, **options: Unpack[ChevronOptions]
) -> ChevronState: ...
@overload
def new_game(game: Literal["lsd"], players: int = 2, **options: Unpack[LsdOptions]) -> LsdState: ...
@overload
def new_game(game: str, players: int = 2, **options: Unpack[GameOptions]) -> AnyState: ...
def new_game(game: str, players: int = 2, **options: Unpack[GameOptions]) -> AnyState:
    """The starting position of ``game`` for ``players`` players.

    For type checkers the result is a :class:`~pacru.ChevronState` for a literal
    chevron game name, an :class:`~pacru.LsdState` for ``"lsd"`` and
    :data:`AnyState` (their union) for any other ``str``; the options are those of
    :class:`~pacru.chevron.rules.ChevronOptions` and :class:`~pacru.lsd.rules.LsdOptions`
    (each a ``TypedDict``: a misspelt option or a value of the wrong type is a type error).

    Args:
        game: ``"lilacru"``, ``"shacru"``, ``"azacru"``, ``"pacru"`` or ``"lsd"``.
        players: 2, 3 or 4.
        **options: game options, keyword only. Chevron games:
            ``start_layout`` (``"standard"``, ``"ap-legacy-2p"``,
            ``"abstractplay"``), ``turn_order`` (colours in the order they move),
            ``first_player``, ``colours``; Pacru also ``meeting_rule``
            (``"2011"``/``"original"``) and ``move_cap``; Lilacru and Shacru
            ``idle_rounds``. See :func:`pacru.chevron.setup.new_game` and
            :func:`pacru.lsd.new_game`.

    Raises:
        ValueError: an unknown game, player count or option; the message lists
            the valid ones.
    """
    name = game.lower() if isinstance(game, str) else game
    # Each game refuses (ValueError) the options of the other: the casts check nothing.
    if name in CHEVRON_GAMES:
        from pacru.chevron.setup import new_game as new_chevron_game

        return new_chevron_game(name, players, **cast("ChevronOptions", options))
    if name == "lsd":
        from pacru.lsd import new_game as new_lsd_game

        return new_lsd_game(players, **cast("LsdOptions", options))
    raise ValueError(f"unknown game {game!r}; valid games: {', '.join(GAMES)}")


def from_position(text: str, adjudicate: bool = True) -> AnyState:
    """The state described by a position string (see :meth:`GameState.to_position`).

    The game is known only at run time, so the result is typed :data:`AnyState`:
    ``ChevronState | LsdState``.

    The first word names the game. Chevron games: see
    :func:`pacru.chevron.notation.parse_position`; LSD: :func:`pacru.lsd.from_position`.

    Args:
        text: the position string.
        adjudicate: ``True`` (the default) decides the position as play would:
            a finished game loads finished, Pacru players without a move are
            eliminated. ``False`` loads a rulebook diagram as typed, without
            deciding its end, so the player to move's moves can be listed,
            explained and applied; :meth:`GameState.status` then names what
            about it play could not reach. ``from_position(s.to_position(),
            adjudicate=False) == s`` for every state ``s`` that is not over.

    Raises:
        NotationError: the text is not a position string.
        InvalidPositionError: well-formed, but not a possible state.
    """
    if not isinstance(text, str):
        raise NotationError("a position must be a string")
    # The first word, found without copying the text (it may be huge: the readers bound it).
    found = _HEAD_RE.search(text)
    typed = found.group() if found else ""
    if found and found.end() < len(text) and not text[found.end()].isspace():
        typed += "..."  # a longer word: no game name
    head = typed.lower()
    if head in CHEVRON_GAMES:
        from pacru.chevron.notation import parse_position

        return parse_position(text, adjudicate=adjudicate)
    if head == "lsd":
        from pacru.lsd import from_position as lsd_from_position

        return lsd_from_position(text, adjudicate=adjudicate)
    raise NotationError(
        f"a position string starts with the game name ({', '.join(GAMES)}), not {typed[:20]!r}",
        text,
    )
