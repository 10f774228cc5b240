"""Internals of :mod:`pacru.records`: the record tokenizer and the set-up tags.

Nothing here is public. The errors raised here (:class:`TextError`,
:class:`SetupError`) are turned into :class:`pacru.records.RecordError` by
:mod:`pacru.records`, which also passes in its size limits.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pacru.base import GameState
    from pacru.records._read import GameRecord

__all__ = [
    "CHEVRON_OPTIONS",
    "LINE_WIDTH",
    "Limits",
    "SetupError",
    "TextError",
    "Token",
    "game_of",
    "games",
    "setup_tags",
    "start_state",
    "write_record",
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

# The scanner reads one token at a time with these, each match bounded by the limit of its
# token (a window end, or a class without backtracking): its memory never grows with the text.
_SPACE_RE: Final = re.compile(r"\s+")
_TAG_HEAD_RE: Final = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_-]*)[ \t]+"')
_VALUE_RE: Final = re.compile(r'(?:[^"\\\n]|\\.)*')
_TAG_TAIL_RE: Final = re.compile(r'"[ \t]*\]')
_BRACE_RE: Final = re.compile(r"[{}]")
_WORD_RE: Final = re.compile(r"[^\s{}\[\]]+")
#: A line that starts with a tag pair, where a tolerant read resumes after an error.
_RESUME_RE: Final = re.compile(r'\n[ \t\r]*(?=\[[ \t]*[A-Za-z][A-Za-z0-9_-]*[ \t]+")')
#: Longest tag name read, beyond the longest tag value (the match window of a tag's head).
_NAME_WINDOW: Final = 256


class TextError(Exception):
    """Record text that cannot be read: a message, a reason code, the line and game.

    ``fatal``: reading cannot go on past it, even tolerantly (the game-count limit);
    ``index``: where in the text the token it is about starts.
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
        self.index = 0


class SetupError(Exception):
    """Set-up tags that give no starting state; ``reason`` is ``no-game`` or ``bad-setup``."""

    def __init__(self, message: str, reason: str = "bad-setup") -> None:
        super().__init__(message)
        self.message, self.reason = message, reason


# -- reading text ---------------------------------------------------------------------------------


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _scan(
    text: str, limits: Limits, start: int = 0, line: int = 1, where: list[int] | None = None
) -> Iterator[Token]:
    """The tags, comments and words of ``text`` from index ``start`` (on ``line``), with
    their lines; ``where[0]`` is set to the index of each token before it is given.

    Every length is checked on the text before a token is copied out of it.
    """
    where = where if where is not None else [start]
    i, n = start, len(text)
    while i < n:
        where[0] = i
        c = text[i]
        if c.isspace():
            end = _SPACE_RE.match(text, i).end()  # type: ignore[union-attr]
            line += text.count("\n", i, end)
            i = end
        elif c == "[":
            token, i = _tag(text, i, line, limits[4])
            yield token
        elif c == "{":
            token, i = _comment(text, i, line, limits[3])
            yield token
            line += token[1].count("\n")
        elif c in "}]":
            raise _error(f"unexpected {c!r}", "syntax", line, i)
        else:
            # One character past the longest word read is enough to know it is too long.
            longest = limits[5] + 12
            end = _WORD_RE.match(text, i, i + longest + 1).end()  # type: ignore[union-attr]
            if end - i > longest:
                word = text[i : i + 40]
                message = f"a move longer than {limits[5]} characters: {word!r}..."
                raise _error(message, "too-long", line, i)
            yield ("word", text[i:end], line, "")
            i = end


def _error(message: str, reason: str, line: int, index: int) -> TextError:
    err = TextError(message, reason, line)
    err.index = index
    return err


def _tag(text: str, i: int, line: int, max_value: int) -> tuple[Token, int]:
    """The tag pair at ``text[i]`` and the index after it."""
    malformed = f'malformed tag pair {text[i : i + 40]!r}: expected [Name "value"]'
    head = _TAG_HEAD_RE.match(text, i, i + _NAME_WINDOW + max_value)
    if head is None:
        raise _error(malformed, "syntax", line, i)
    name, start = head.group(1), head.end()
    # A window one past the longest value: the escape-aware pattern backtracks per character.
    end = _VALUE_RE.match(text, start, start + max_value + 1).end()  # type: ignore[union-attr]
    tail = _TAG_TAIL_RE.match(text, end)
    if end - start > max_value or (tail is None and end - start >= max_value - 1):
        message = f"the {name} value is longer than {max_value} characters"
        raise _error(message, "too-long", line, i)
    if tail is None:
        raise _error(malformed, "syntax", line, i)
    # Tags repeat from game to game: one string per distinct name and value.
    value = sys.intern(_unescape(text[start:end]))
    return ("tag", value, line, sys.intern(name)), tail.end()


def _comment(text: str, i: int, line: int, max_comment: int) -> tuple[Token, int]:
    """The comment at ``text[i]`` (``{``) and the index after it."""
    brace = _BRACE_RE.search(text, i + 1)
    if brace is None:
        raise _error("a comment '{' is never closed with '}'", "syntax", line, i)
    end = brace.start()
    if brace.group() == "{":
        closed = _BRACE_RE.search(text, end + 1)
        if closed is None or closed.group() == "{":
            raise _error("a comment '{' is never closed with '}'", "syntax", line, i)
        raise _error("comments do not nest: '{' inside a comment", "syntax", line, i)
    if end - i - 1 > max_comment:
        raise _error(f"a comment longer than {max_comment} characters", "too-long", line, i)
    return ("comment", text[i + 1 : end], line, ""), end + 1


def resume(text: str, index: int) -> int | None:
    """The index of the first line after the one holding ``text[index]`` that starts
    (after blanks) with a tag pair's head, or ``None``."""
    found = _RESUME_RE.search(text, index)
    return None if found is None else found.start() + 1


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
    number, in_body, tags, words, comments = before, False, 0, 0, 0
    where = [start]
    try:
        for token in _scan(text, limits, start, line, where):
            kind, line = token[0], token[2]
            if kind == "tag" and (in_body or not current):
                if current:
                    yield number, current
                number += 1
                if number > max_games:
                    raise TextError(f"more than {max_games} games", "too-long", line, fatal=True)
                current, in_body, tags, words, comments = [], False, 0, 0, 0
            if kind == "tag":
                tags += 1
                if tags > max_tags:
                    raise TextError(f"more than {max_tags} tags", "too-long", line)
            else:
                number = max(number, before + 1)
                in_body = True
                words += kind == "word"
                comments += kind == "comment"
                # Round numbers are words too: at most one per move.
                if words > 2 * max_plies + 2:
                    raise TextError(f"more than {max_plies} moves", "too-long", line)
                # Two comments at a ply are joined: allow two per ply, no more.
                if comments > 2 * max_plies + 2:
                    raise TextError(f"more than {2 * max_plies + 2} comments", "too-long", line)
            current.append(token)
    except TextError as err:
        err.game = max(number, before + 1)
        if not err.index:
            err.index = where[0]
        raise
    if current:
        yield number, current


# -- set-up tags ----------------------------------------------------------------------------------


def game_of(tags: Mapping[str, str]) -> str:
    """The game a record plays: its ``Game`` tag, else the first word of ``Position``.

    Raises:
        SetupError: neither is there (reason ``no-game``).
    """
    return _typed_game(tags).strip().lower()


def _typed_game(tags: Mapping[str, str]) -> str:
    """The game as the record names it (the Game tag, else the Position's first word)."""
    game = tags.get("Game")
    if game is None:
        words = tags.get("Position", "").split()
        if not words:
            raise SetupError("a record needs a Game tag", "no-game")
        game = words[0]
    return game


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
        typed = _typed_game(tags).strip()
        raise SetupError(f"unknown game {typed[:20]!r}; games: {', '.join(GAMES)}", "no-game")
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


def _count(tag: str, value: str) -> int:
    """The number a MoveCap or IdleRounds tag gives (``value`` as typed).

    Raises:
        SetupError: not written in ASCII digits, or larger than the engines count
            (:data:`pacru.chevron.rules.COUNTER_MAX`).
    """
    from pacru.chevron.rules import COUNTER_MAX

    shown = repr(value) if len(value) <= 40 else f"{value[:20]!r}... ({len(value)} characters)"
    if not (value.isascii() and value.isdigit()):
        raise SetupError(f"{tag} must be a whole number, not {shown}")
    digits = value.lstrip("0") or "0"
    if len(digits) > len(str(COUNTER_MAX)) or int(digits) > COUNTER_MAX:
        raise SetupError(f"{tag} is too large: at most {COUNTER_MAX}, not {shown}")
    return int(digits)


def _chevron_start(tags: Mapping[str, str], game: str, players: tuple[str, ...]) -> GameState[Any]:
    from pacru.chevron.setup import LAYOUTS, SEAT_COLOURS, new_game

    options: dict[str, Any] = {}
    for tag, option in CHEVRON_OPTIONS.items():
        value = tags.get(tag)
        if value is not None:
            if option in _INT_OPTIONS:
                options[option] = _count(tag, value)
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


#: Width the move text is wrapped to by :func:`write_record`.
LINE_WIDTH: Final = 79


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(units: Sequence[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for unit in units:
        if current and len(current) + 1 + len(unit) > LINE_WIDTH:
            lines.append(current)
            current = unit
        else:
            current = f"{current} {unit}" if current else unit
    if current:
        lines.append(current)
    return lines


def write_record(record: GameRecord) -> str:
    """The text of ``record``: tag pairs, a blank line, the wrapped moves and a newline.

    Round numbers are written before every ``n``-th move (``n`` players, from
    ``Players``, else 2). ``read_record(write_record(r)) == r`` for every
    record of a legal game with canonical move texts.
    """
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags]
    n = len(record.players) or 2
    comments = dict(record.comments)
    units: list[str] = []

    def comment(ply: int) -> None:
        text = comments.get(ply)
        if text is not None:
            words = text.split(" ")
            words[0] = "{" + words[0]
            words[-1] += "}"
            units.extend(words)

    comment(0)
    for i, move in enumerate(record.moves):
        # The round number stays on the line of its move.
        units.append(f"{i // n + 1}. {move}" if i % n == 0 else move)
        comment(i + 1)
    units.append(record.result)
    return "\n".join([*lines, "", *_wrap(units)]) + "\n"
