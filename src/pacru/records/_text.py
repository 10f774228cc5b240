"""Internals of :mod:`pacru.records`: the record tokenizer and the set-up tags.

Nothing here is public. The errors raised here (:class:`TextError`,
:class:`SetupError`) are turned into :class:`pacru.records.RecordError` by
:mod:`pacru.records`, which also passes in its size limits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pacru.base import GameState

__all__ = [
    "CHEVRON_OPTIONS",
    "Limits",
    "SetupError",
    "TextError",
    "Token",
    "game_of",
    "games",
    "setup_tags",
    "start_state",
]

#: Record tag -> ``new_game`` option of the chevron games (R12/D48, D32, D33).
CHEVRON_OPTIONS: Final = {
    "MeetingRule": "meeting_rule",
    "MoveCap": "move_cap",
    "IdleRounds": "idle_rounds",
}
_INT_OPTIONS: Final = frozenset({"move_cap", "idle_rounds"})
#: A token: kind ("tag", "comment" or "word"), text, line, tag name.
Token = tuple[str, str, int, str]
#: The size limits: games, tags, plies, comment, tag value, move (see pacru.records).
Limits = tuple[int, int, int, int, int, int]

_SCAN_RE: Final = re.compile(
    r"""
      (?P<space>\s+)
    | \[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_-]*)[ \t]+"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\]
    | (?P<comment>\{[^{}]*\})
    | (?P<word>[^\s{}\[\]]+)
    """,
    re.VERBOSE,
)


class TextError(Exception):
    """Record text that cannot be read: a message, a reason code, the line and game.

    ``fatal``: reading cannot go on past it, even tolerantly (the game-count limit).
    """

    def __init__(
        self,
        message: str,
        reason: str = "syntax",
        line: int = 1,
        game: int = 1,
        *,
        fatal: bool = False,
    ) -> None:
        super().__init__(message)
        self.message, self.reason, self.line, self.game = message, reason, line, game
        self.fatal = fatal


class SetupError(Exception):
    """Set-up tags that give no starting state; ``reason`` is ``no-game`` or ``bad-setup``."""

    def __init__(self, message: str, reason: str = "bad-setup") -> None:
        super().__init__(message)
        self.message, self.reason = message, reason


# -- reading text ---------------------------------------------------------------------------------


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _scan(text: str, limits: Limits, start: int = 0, line: int = 1) -> Iterator[Token]:
    """The tags, comments and words of ``text`` from index ``start`` (on ``line``), with
    their lines."""
    max_comment, max_value, max_token = limits[3:]
    i, n = start, len(text)
    while i < n:
        m = _SCAN_RE.match(text, i)
        if m is None:
            c = text[i]
            if c == "[":
                message = f'malformed tag pair {text[i : i + 40]!r}: expected [Name "value"]'
            elif c == "{":
                end = text.find("}", i + 1)
                nested = end >= 0 and "{" in text[i + 1 : end]
                message = (
                    "comments do not nest: '{' inside a comment"
                    if nested
                    else "a comment '{' is never closed with '}'"
                )
            else:
                message = f"unexpected {c!r}"
            raise TextError(message, line=line)
        i = m.end()
        kind = m.lastgroup
        if kind == "space":
            line += m.group().count("\n")
        elif kind == "comment":
            body = m.group()[1:-1]
            if len(body) > max_comment:
                raise TextError(f"a comment longer than {max_comment} characters", "too-long", line)
            yield ("comment", body, line, "")
            line += body.count("\n")
        elif kind == "word":
            word = m.group()
            if len(word) > max_token + 12:
                raise TextError(
                    f"a move longer than {max_token} characters: {word[:40]!r}...", "too-long", line
                )
            yield ("word", word, line, "")
        else:
            value = m.group("value")
            if len(value) > max_value:
                raise TextError(
                    f"the {m.group('name')} value is longer than {max_value} characters",
                    "too-long",
                    line,
                )
            yield ("tag", _unescape(value), line, m.group("name"))


def games(
    text: str, limits: Limits, start: int = 0, line: int = 1, before: int = 0
) -> Iterator[tuple[int, list[Token]]]:
    """The tokens of each game, numbered from 1; the limits are checked while reading.

    ``start``, ``line`` and ``before``: resume reading at index ``start`` of
    ``text`` (on ``line``) after ``before`` games, numbering and limiting the
    games as if read from the start.

    Raises:
        TextError: malformed text or a limit passed (with line and game).
    """
    max_games, max_tags, max_plies = limits[:3]
    current: list[Token] = []
    number, in_body, tags, words = before, False, 0, 0
    try:
        for token in _scan(text, limits, start, line):
            kind, line = token[0], token[2]
            if kind == "tag" and (in_body or not current):
                if current:
                    yield number, current
                number += 1
                if number > max_games:
                    raise TextError(f"more than {max_games} games", "too-long", line, fatal=True)
                current, in_body, tags, words = [], False, 0, 0
            if kind == "tag":
                tags += 1
                if tags > max_tags:
                    raise TextError(f"more than {max_tags} tags", "too-long", line)
            else:
                number = max(number, before + 1)
                in_body = True
                words += kind == "word"
                # Round numbers are words too: at most one per move.
                if words > 2 * max_plies + 2:
                    raise TextError(f"more than {max_plies} moves", "too-long", line)
            current.append(token)
    except TextError as err:
        err.game = max(number, before + 1)
        raise
    if current:
        yield number, current


# -- set-up tags ----------------------------------------------------------------------------------


def game_of(tags: Mapping[str, str]) -> str:
    """The game a record plays: its ``Game`` tag, else the first word of ``Position``.

    Raises:
        SetupError: neither is there (reason ``no-game``).
    """
    game = tags.get("Game")
    if game is None:
        words = tags.get("Position", "").split()
        if not words:
            raise SetupError("a record needs a Game tag", "no-game")
        game = words[0]
    return game.strip().lower()


def _players(tags: Mapping[str, str]) -> tuple[str, ...]:
    value = tags.get("Players")
    return tuple(p.strip() for p in value.split(",")) if value else ()


def start_state(tags: Mapping[str, str]) -> GameState[Any]:
    """The starting state the set-up tags describe (see :mod:`pacru.records`).

    Raises:
        SetupError: an unknown or unavailable game, or set-up tags that
            :func:`pacru.new_game` or :func:`pacru.from_position` refuse.
    """
    from pacru.games import CHEVRON_GAMES, GAMES, from_position, new_game

    game = game_of(tags)
    if game not in GAMES:
        raise SetupError(f"unknown game {game[:20]!r}; games: {', '.join(GAMES)}", "no-game")
    players = _players(tags)
    position = tags.get("Position")
    try:
        if position is not None:
            state = from_position(position)
            if state.game != game:
                raise SetupError(f"the Position is a {state.game} position, not {game}")
            if players and players != state.players:
                raise SetupError("the Players tag does not match the Position")
            return state
        if game in CHEVRON_GAMES:
            return _chevron_start(tags, game, players)
        options: dict[str, Any] = {}
        if players:
            options["colours"] = players
        if "FirstPlayer" in tags:
            options["first_player"] = tags["FirstPlayer"]
        return new_game(game, len(players) or 2, **options)
    except ImportError as err:
        raise SetupError(f"{game} is not available here: {err}") from None
    except ValueError as err:
        raise SetupError(str(err)) from None


def _chevron_start(tags: Mapping[str, str], game: str, players: tuple[str, ...]) -> GameState[Any]:
    from pacru.chevron.setup import LAYOUTS, SEAT_COLOURS, new_game

    options: dict[str, Any] = {}
    for tag, option in CHEVRON_OPTIONS.items():
        value = tags.get(tag)
        if value is not None:
            if option in _INT_OPTIONS:
                if not (value.isascii() and value.isdigit()) or len(value) > 9:
                    raise SetupError(f"{tag} must be a whole number, not {value[:20]!r}")
                options[option] = int(value)
            else:
                options[option] = value
    layout = tags.get("StartLayout", "standard")
    n = len(players) or 2
    colours = tags.get("Colours")
    if colours is not None:
        options["colours"] = tuple(c.strip() for c in colours.split(","))
        if players:
            options["turn_order"] = players
    elif players:
        # Default seat colours in another order are a turn order (D2); others colour the seats.
        seats = LAYOUTS.get(layout, {}).get(n, ())
        defaults = [SEAT_COLOURS[seat] for seat, _ in seats]
        if sorted(players) == sorted(defaults):
            options["turn_order"] = players
        else:
            options["colours"] = players
    return new_game(game, n, start_layout=layout, **options)


def setup_tags(root: GameState[Any]) -> list[tuple[str, str]]:
    """Tags that set up ``root``: a standard set-up if one gives it, else its ``Position``."""
    from pacru.games import CHEVRON_GAMES

    game, players = root.game, root.players
    candidates: list[list[tuple[str, str]]] = []
    base = [("Game", game), ("Players", ",".join(players))]
    if game in CHEVRON_GAMES:
        candidates.extend(_chevron_setups(root, base))
    elif game == "lsd":
        candidates.append(list(base))
        # players[0] moved first; the seats it was rotated from give the shades (RULING 20).
        for k in range(1, len(players)):
            seats = players[k:] + players[:k]
            candidates.append(
                [("Game", game), ("Players", ",".join(seats)), ("FirstPlayer", players[0])]
            )
    for tags in candidates:
        try:
            if start_state(dict(tags)) == root:
                return tags
        except SetupError:
            continue
    return [*base, ("Position", root.to_position())]


def _chevron_setups(root: Any, base: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Candidate set-up tags: each layout whose seats hold exactly ``root``'s chevrons."""
    from pacru.chevron.setup import LAYOUTS, new_game

    options = root.options()
    option_tags = [
        (tag, str(options[option])) for tag, option in CHEVRON_OPTIONS.items() if option in options
    ]
    found = []
    n = len(root.players)
    for layout, table in LAYOUTS.items():
        if n not in table:
            continue
        default = new_game(root.game, n, start_layout=layout)
        seats = []
        for codes in default.chevrons:
            if codes not in root.chevrons:
                break
            seats.append(root.players[root.chevrons.index(codes)])
        else:
            tags = list(base)
            if layout != "standard":
                tags.append(("StartLayout", layout))
            if tuple(seats) != default.players:
                tags.append(("Colours", ",".join(seats)))
            found.append(tags + option_tags)
    return found
