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
game, :data:`MAX_TAGS` tags per game, :data:`MAX_TAG_VALUE` characters per tag
value and :data:`MAX_COMMENT` per comment, :data:`MAX_TOKEN` per move.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, TextIO

import attrs

from pacru import _records
from pacru.base import GameState
from pacru.errors import GameOverError, IllegalMoveError, NotationError
from pacru.game import Game

__all__ = [
    "LINE_WIDTH",
    "MAX_COMMENT",
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

#: Longest text :func:`read_records` reads, in characters (16 MiB).
MAX_RECORD_TEXT: Final = 16 * 1024 * 1024
#: Most games in one text.
MAX_GAMES: Final = 100_000
#: Most moves in one game.
MAX_PLIES: Final = 20_000
#: Most tag pairs in one game.
MAX_TAGS: Final = 100
#: Longest tag value (a position string fits).
MAX_TAG_VALUE: Final = 16_384
#: Longest comment.
MAX_COMMENT: Final = 16_384
#: Longest move text.
MAX_TOKEN: Final = 64
#: Width the move text is wrapped to by :func:`write_record`.
LINE_WIDTH: Final = 79

_TAG_NAME_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_NUMBER_RE: Final = re.compile(r"(\d+)\.+(.*)", re.DOTALL)
_COLOUR: Final = r"[a-z][a-z0-9_-]*"
_RESULT_RE: Final = re.compile(rf"\*|draw|{_COLOUR}(?:,{_COLOUR})*")
_WORD_END: Final = re.compile(r"[\s{}\[\]]")
#: Tags written first, in this order, by :func:`record_from_game`; names follow Players.
_ORDER: Final = (
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "Players",
    "StartLayout",
    "Colours",
    "Position",
    "MeetingRule",
    "MoveCap",
    "IdleRounds",
    "FirstPlayer",
    "Result",
    "Termination",
)


class RecordError(NotationError):
    """A game record that cannot be read, or whose moves cannot be replayed.

    A :class:`~pacru.errors.NotationError` (so a ``ValueError``).

    Attributes:
        game: the game's number in the text, from 1 (``None`` if unknown).
        ply: the move's number in the game, from 1 (``None`` when the error
            is not about one move).
        move: the move text (``""`` if none).
        rule: the rule that forbids the move, from
            :attr:`IllegalMoveError.rule <pacru.errors.IllegalMoveError>`
            (e.g. ``"R7"``); ``"notation"`` for text that is not a move,
            ``"end"`` for a move after the end, ``"record"`` for a malformed
            record, ``"setup"`` for bad set-up tags, ``"result"`` for a wrong
            result.
        reason: the machine-readable reason code (e.g. ``"jump-not-connection"``,
            ``"game-over"``, ``"syntax"``, ``"too-long"``, ``"wrong-result"``).
        line: the line of the text where the problem is, from 1, if known.
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str = "record",
        reason: str = "syntax",
        game: int | None = None,
        ply: int | None = None,
        move: str = "",
        line: int | None = None,
    ) -> None:
        where = []
        if game is not None:
            where.append(f"game {game}")
        if line is not None:
            where.append(f"line {line}")
        if ply is not None:
            where.append(f"ply {ply}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message, move)
        self.game = game
        self.ply = ply
        self.move = move
        self.rule = rule
        self.reason = reason
        self.line = line
        self.detail = message

    def in_game(self, game: int) -> RecordError:
        """A copy of this error that names the game number."""
        return RecordError(
            self.detail,
            rule=self.rule,
            reason=self.reason,
            game=game,
            ply=self.ply,
            move=self.move,
            line=self.line,
        )


# -- the record value ---------------------------------------------------------------------------


def _tags(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    pairs = tuple(value.items()) if isinstance(value, Mapping) else tuple(value)
    seen = set()
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise ValueError(f"a tag is a (name, value) pair, not {pair!r}")
        name, text = pair
        if not isinstance(name, str) or not _TAG_NAME_RE.fullmatch(name):
            raise ValueError(f"a tag name is a letter then letters, digits, _ or -: {name!r}")
        if not isinstance(text, str) or "\n" in text or "\r" in text:
            raise ValueError(f"the value of tag {name} must be a one-line string")
        if len(text) > MAX_TAG_VALUE:
            raise ValueError(f"the value of tag {name} is longer than {MAX_TAG_VALUE} characters")
        if name in seen:
            raise ValueError(f"tag {name} is given twice")
        seen.add(name)
    if len(pairs) > MAX_TAGS:
        raise ValueError(f"more than {MAX_TAGS} tags")
    return pairs


def _moves(value: Iterable[str]) -> tuple[str, ...]:
    moves = tuple(value)
    for move in moves:
        if (
            not isinstance(move, str)
            or not move
            or move == "*"
            or len(move) > MAX_TOKEN
            or _WORD_END.search(move)
            or _NUMBER_RE.fullmatch(move)
        ):
            raise ValueError(f"not a move text for a record: {move!r}")
    if len(moves) > MAX_PLIES:
        raise ValueError(f"more than {MAX_PLIES} moves")
    return moves


def _comments(value: Mapping[int, str] | Iterable[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    pairs = value.items() if isinstance(value, Mapping) else value
    merged: dict[int, str] = {}
    for ply, text in pairs:
        if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
            raise ValueError(f"a comment's ply is a whole number >= 0, not {ply!r}")
        if not isinstance(text, str) or "{" in text or "}" in text:
            raise ValueError("a comment is a string without braces")
        words = " ".join(text.split())
        if words:
            merged[ply] = f"{merged[ply]} {words}" if ply in merged else words
            if len(merged[ply]) > MAX_COMMENT:
                raise ValueError(f"a comment is longer than {MAX_COMMENT} characters")
    return tuple(sorted(merged.items()))


@attrs.frozen
class GameRecord:
    """One recorded game: tag pairs, moves and comments. Frozen and hashable.

    Attributes:
        tags: ``(name, value)`` pairs in order (a mapping is accepted and
            converted); unknown tags are kept. See the module docstring.
        moves: the move texts, one per ply.
        comments: ``(ply, text)`` pairs, ascending: ply 0 is a comment before
            the first move, ply ``k`` one after the ``k``-th move. A mapping
            is accepted; white space runs are collapsed, empty comments
            dropped and two comments at one ply joined by a space.

    Raises:
        ValueError: a malformed tag (name, duplicate, multi-line or too long
            value), move text (empty, with white space or braces) or comment
            (with a brace, a ply after the last move).
    """

    tags: tuple[tuple[str, str], ...] = attrs.field(converter=_tags)
    moves: tuple[str, ...] = attrs.field(default=(), converter=_moves)
    comments: tuple[tuple[int, str], ...] = attrs.field(default=(), converter=_comments)
    #: What a tolerant read (``read_records(..., strict=False)``) found wrong
    #: with this game, as python-chess's ``Game.errors``; empty for a good game.
    #: Not part of equality: it says how the record was read, not what it holds.
    errors: tuple[RecordError, ...] = attrs.field(default=(), eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.comments and self.comments[-1][0] > len(self.moves):
            raise ValueError(f"a comment after ply {self.comments[-1][0]}, past the last move")
        result = self.tag("Result")
        if result is not None and not _RESULT_RE.fullmatch(result):
            raise ValueError(f"Result is a colour list, 'draw' or '*', not {result[:40]!r}")

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of tag ``name``, or ``default`` if the record has none."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    def comment(self, ply: int) -> str | None:
        """The comment after move ``ply`` (0: before the first move), or ``None``."""
        return dict(self.comments).get(ply)

    @property
    def game(self) -> str:
        """The game name: the ``Game`` tag, else the first word of ``Position``.

        Raises:
            RecordError: the record names no game.
        """
        try:
            return _records.game_of(dict(self.tags))
        except _records.SetupError as err:
            raise RecordError(err.message, rule="setup", reason=err.reason) from None

    @property
    def players(self) -> tuple[str, ...]:
        """The colours in turn order (the ``Players`` tag; empty if absent)."""
        value = self.tag("Players")
        return tuple(p.strip() for p in value.split(",")) if value else ()

    @property
    def names(self) -> dict[str, str]:
        """Colour -> player name, from the per-colour tags (``[Green "Alice"]``)."""
        wanted = {_colour_tag(colour): colour for colour in self.players}
        return {wanted[key]: value for key, value in self.tags if key in wanted}

    @property
    def result(self) -> str:
        """The ``Result`` tag, or ``"*"``."""
        return self.tag("Result") or "*"

    def start(self) -> GameState[Any]:
        """The starting state the tags describe (before the first move).

        Raises:
            RecordError: unknown game, bad set-up tags or position (rule ``"setup"``).
        """
        try:
            return _records.start_state(dict(self.tags))
        except _records.SetupError as err:
            raise RecordError(err.message, rule="setup", reason=err.reason) from None

    def states(self) -> tuple[GameState[Any], ...]:
        """Every state of the game: ``len(moves) + 1`` of them, the start first.

        Raises:
            RecordError: bad set-up tags, or a move that is not legal (with its ply).
        """
        return tuple(_replay(self))

    def replay(self) -> GameState[Any]:
        """The state after the last move (:meth:`to_game` keeps the moves too).

        Raises:
            RecordError: bad set-up tags, or a move that is not legal (with its ply).
        """
        return _replay(self)[-1]

    def to_game(self) -> Game[Any]:
        """The recorded line of play as a :class:`pacru.Game`: the start and the moves.

        Raises:
            RecordError: bad set-up tags, or a move that is not legal (with its ply).
        """
        game: Game[Any] = Game(self.start())
        for ply, text in enumerate(self.moves, 1):
            state = game.state
            try:
                game.push(text)
            except (IllegalMoveError, NotationError) as err:
                raise _record_error(err, state, text, ply) from None
        _check_result(self, game.state)
        return game

    def __str__(self) -> str:
        return write_record(self)


def _colour_tag(colour: str) -> str:
    return colour[:1].upper() + colour[1:]


# -- setting up and replaying -------------------------------------------------------------------


def _replay(record: GameRecord) -> list[GameState[Any]]:
    state = record.start()
    states = [state]
    for ply, text in enumerate(record.moves, 1):
        state = _apply(state, text, ply)[1]
        states.append(state)
    _check_result(record, state)
    return states


def _apply(state: GameState[Any], text: str, ply: int) -> tuple[Any, GameState[Any]]:
    """The move ``text`` names and the state after it; a RecordError at ``ply`` if illegal."""
    try:
        # One parse and one legality check: the new state knows the move it was made by.
        after = state.apply_move(text)
        return after.last_move, after
    except (IllegalMoveError, NotationError) as err:
        raise _record_error(err, state, text, ply) from None


def _record_error(
    err: IllegalMoveError | NotationError, state: GameState[Any], text: str, ply: int
) -> RecordError:
    """The RecordError for move ``text`` at ``ply``, refused by ``state`` with ``err``."""
    mover = state.current_player
    who = f" ({mover})" if mover else ""
    if isinstance(err, GameOverError):
        return RecordError(
            f"{text}: the game is already over ({err.detail})",
            rule=err.rule,
            reason=err.reason,
            ply=ply,
            move=text,
        )
    if isinstance(err, IllegalMoveError):
        return RecordError(
            f"{text}{who} is illegal: {err.rule}: {err.detail}",
            rule=err.rule,
            reason=err.reason,
            ply=ply,
            move=text,
        )
    return RecordError(
        f"{text[:40]!r}{who} is not a move: {err}",
        rule="notation",
        reason="not-a-move",
        ply=ply,
        move=text,
    )


def _result_of(state: GameState[Any]) -> str:
    outcome = state.outcome
    if outcome is None:
        return "*"
    return ",".join(outcome.winners) or "draw"


def _check_result(record: GameRecord, final: GameState[Any]) -> None:
    outcome = final.outcome
    if outcome is None:
        result = record.tag("Result")
        if result is not None and result not in ("*", "draw"):
            unknown = [c for c in result.split(",") if c not in final.players]
            if unknown:
                raise RecordError(
                    f"Result names {', '.join(unknown)}, who is not a player",
                    rule="result",
                    reason="wrong-result",
                )
        return
    actual = _result_of(final)
    result = record.tag("Result")
    if result is not None and result != actual:
        raise RecordError(
            f"the Result tag says {result!r}, but the game ended {actual!r} "
            f"({outcome.result()}, {outcome.termination.value})",
            rule="result",
            reason="wrong-result",
        )
    termination = record.tag("Termination")
    if termination is not None and termination != outcome.termination.value:
        raise RecordError(
            f"the Termination tag says {termination!r}, but the game ended by "
            f"{outcome.termination.value!r}",
            rule="result",
            reason="wrong-result",
        )


# -- reading ------------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _games(text: str) -> Iterator[tuple[int, list[_records.Token]]]:
    limits = (MAX_GAMES, MAX_TAGS, MAX_PLIES, MAX_COMMENT, MAX_TAG_VALUE, MAX_TOKEN)
    try:
        yield from _records.games(text, limits)
    except _records.TextError as err:
        raise RecordError(err.message, reason=err.reason, line=err.line, game=err.game) from None


def _parse_game(tokens: list[_records.Token]) -> tuple[GameRecord, list[int]]:
    tags: list[tuple[str, str]] = []
    names: set[str] = set()
    body = 0
    for kind, text, line, name in tokens:
        if kind != "tag":
            break
        if name in names:
            raise RecordError(f"tag {name} is given twice", line=line)
        names.add(name)
        tags.append((name, text))
        body += 1
    if not tags:
        raise RecordError('a game starts with its tag pairs, e.g. [Game "pacru"]', line=1)
    rest = tokens[body:]
    words = [i for i, t in enumerate(rest) if t[0] == "word"]
    result = dict(tags).get("Result")
    if words and rest[words[-1]][1] in ("*", result):
        rest = rest[: words[-1]] + rest[words[-1] + 1 :]
    moves: list[str] = []
    lines: list[int] = []
    comments: list[tuple[int, str]] = []
    for kind, text, line, _ in rest:
        if kind == "comment":
            comments.append((len(moves), text))
            continue
        word = text
        m = _NUMBER_RE.fullmatch(word)
        if m:
            word = m.group(2)
            if not word:
                continue
        if len(word) > MAX_TOKEN or word == "*" or _NUMBER_RE.fullmatch(word):
            raise RecordError(f"{word[:40]!r} is not a move", line=line, move=word[:40])
        moves.append(word)
        lines.append(line)
        if len(moves) > MAX_PLIES:
            raise RecordError(f"more than {MAX_PLIES} moves", reason="too-long", line=line)
    try:
        record = GameRecord(tuple(tags), tuple(moves), tuple(comments))
    except ValueError as err:
        raise RecordError(str(err), line=tokens[0][2]) from None
    return record, lines


def _validated(record: GameRecord, lines: list[int]) -> GameRecord:
    # One parse and one apply per move: reading is linear in the number of plies.
    state = record.start()
    canonical = []
    for ply, text in enumerate(record.moves, 1):
        try:
            move, state = _apply(state, text, ply)
        except RecordError as err:
            raise RecordError(
                err.detail,
                rule=err.rule,
                reason=err.reason,
                ply=ply,
                move=text,
                line=lines[ply - 1],
            ) from None
        canonical.append(str(move))
    _check_result(record, state)
    return attrs.evolve(record, moves=tuple(canonical))


def _text_of(source: str | TextIO) -> str:
    """The text of a string or a text stream (read up to one character past the limit)."""
    if not isinstance(source, str):
        read = getattr(source, "read", None)
        if read is None:
            raise RecordError("a record must be given as a string or a text stream")
        try:
            source = read(MAX_RECORD_TEXT + 1)
        except UnicodeDecodeError as err:
            raise RecordError(f"not UTF-8 text ({err.reason})") from None
        if not isinstance(source, str):
            raise RecordError("a record stream must give text (open the file in text mode)")
    if len(source) > MAX_RECORD_TEXT:
        raise RecordError(
            f"record text longer than {MAX_RECORD_TEXT} characters", reason="too-long"
        )
    return source


def read_records(source: str | TextIO, *, strict: bool = True) -> list[GameRecord]:
    """Every game in ``source`` (a string or a text stream), replayed and checked.

    ``[]`` for a text without games. Move texts are stored canonically (as
    ``str`` of the parsed move).

    Args:
        source: the record text, or an open text file (read to its end).
        strict: ``True`` (the default) raises at the first problem. ``False``
            reads on, as python-chess's PGN reader does: each game keeps its
            problems in :attr:`GameRecord.errors` and the moves up to the first
            illegal one; a game whose text cannot be read at all is a record
            with no tags or moves, only its error, and reading resumes at the
            next line that starts a tag pair (``[``).

    Raises:
        RecordError: the text is too large, or not text; in strict mode also
            a malformed text (line given), a bad set-up, a move that is not
            legal (game, ply, move, rule and reason given), or a
            ``Result``/``Termination`` contradicting the end.
    """
    text = _text_of(source)
    if not strict:
        return [_tolerant(number, item) for number, item in _tolerant_games(text)]
    records = []
    for number, tokens in _games(text):
        try:
            record, lines = _parse_game(tokens)
            records.append(_validated(record, lines))
        except RecordError as err:
            raise err.in_game(number) from None
    return records


def read_record(source: str | TextIO, *, strict: bool = True) -> GameRecord:
    """The one game in ``source`` (a string or text stream), replayed and checked.

    See :func:`read_records`; with ``strict=False`` problems are in the
    record's :attr:`~GameRecord.errors` instead of raised.

    Raises:
        RecordError: as :func:`read_records`, or the text holds no game or
            more than one (use :func:`read_records` for those).
    """
    records = read_records(source, strict=strict)
    if len(records) != 1:
        raise RecordError(
            f"expected one game, found {len(records)}; read_records reads many",
            reason="game-count",
        )
    return records[0]


def _tolerant_games(text: str) -> Iterator[tuple[int, list[_records.Token] | RecordError]]:
    """Each game's tokens, or the RecordError of a game whose text cannot be scanned.

    After an error, reading resumes at the next line that starts with a tag pair,
    in the same text (no copy), with the games numbered and counted against
    ``MAX_GAMES`` as in a strict read.
    """
    limits = (MAX_GAMES, MAX_TAGS, MAX_PLIES, MAX_COMMENT, MAX_TAG_VALUE, MAX_TOKEN)
    starts = [0, *(m.end() for m in re.finditer("\n", text))]  # where each line begins
    start, line, before = 0, 1, 0
    while True:
        last = before
        try:
            for number, tokens in _records.games(text, limits, start, line, before):
                last = number
                yield number, tokens
            return
        except _records.TextError as err:
            game = max(err.game, last + 1)
            yield game, RecordError(err.message, reason=err.reason, line=err.line, game=game)
            if err.fatal:
                return
            # Resume at the next tag pair that starts a line after the error (line
            # numbers count from 1, so index err.line is the line after it).
            resume = next(
                (
                    i
                    for i in range(err.line, len(starts))
                    if text.startswith("[", _first_char(text, starts[i]))
                ),
                None,
            )
            if resume is None:
                return
            start, line, before = starts[resume], resume + 1, game


def _first_char(text: str, start: int) -> int:
    """The index of the first character at or after ``start`` that is not a space or tab."""
    i = start
    while i < len(text) and text[i] in " \t\r":
        i += 1
    return i


def _tolerant(number: int, item: list[_records.Token] | RecordError) -> GameRecord:
    """One game read tolerantly: the record with its errors (see :func:`read_records`)."""
    if isinstance(item, RecordError):
        return GameRecord((), errors=(item,))
    try:
        record, lines = _parse_game(item)
    except RecordError as err:
        return GameRecord((), errors=(err.in_game(number),))
    try:
        return _validated(record, lines)
    except RecordError as err:
        error = err.in_game(number)
    # Keep the moves that replay; past a bad set-up, keep the text as it was.
    if error.ply is None:
        return attrs.evolve(record, errors=(error,))
    good = record.moves[: error.ply - 1]
    partial = attrs.evolve(record, moves=good, comments=_upto(record, good))
    try:
        return attrs.evolve(_validated(partial, lines), errors=(error,))
    except RecordError as also:  # e.g. a Termination tag the shorter game contradicts
        return attrs.evolve(partial, errors=(error, also.in_game(number)))


def _upto(record: GameRecord, moves: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    return tuple((ply, text) for ply, text in record.comments if ply <= len(moves))


# -- writing ------------------------------------------------------------------------------------


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


def write_records(records: Iterable[GameRecord]) -> str:
    """Many records, separated by blank lines (:func:`read_records` reads them back)."""
    return "\n".join(write_record(r) for r in records)


def record_from_game(
    game: Game[Any],
    *,
    names: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | Iterable[tuple[int, str]] = (),
    **tags: str,
) -> GameRecord:
    """The record of ``game``: its root as set-up tags, then its moves.

    The set-up tags describe :attr:`pacru.Game.root`: the ``Players``,
    ``StartLayout``, ``Colours`` and option tags when a standard set-up gives
    it, else a ``Position`` tag. ``Result`` and ``Termination`` are set from
    the outcome of :attr:`pacru.Game.state` (``*`` while the game goes on).

    Args:
        game: the line of play to record.
        names: colour -> player name, written as ``[Green "Alice"]`` tags.
        comments: ``(ply, text)`` pairs or a mapping, as :attr:`GameRecord.comments`.
        **tags: more tags, e.g. ``Event="Club night"``, ``Date="2025.03.01"``;
            a ``Result`` given here overrides the computed one for an
            unfinished game (a resignation).

    Raises:
        ValueError: a name for a colour that does not play, or a malformed tag.
    """
    state = game.state
    pairs = dict(_records.setup_tags(game.root))
    for colour, name in (names or {}).items():
        if colour not in state.players:
            raise ValueError(f"{colour!r} is not a player; players: {', '.join(state.players)}")
        if _colour_tag(colour) in _ORDER:
            raise ValueError(f"the name tag of colour {colour!r} would clash with a tag")
        pairs[_colour_tag(colour)] = name
    outcome = state.outcome
    if outcome is not None:
        pairs["Result"] = _result_of(state)
        pairs["Termination"] = outcome.termination.value
    else:
        pairs["Result"] = "*"
    for key, value in tags.items():
        if outcome is not None and key in ("Result", "Termination"):
            continue
        pairs[key] = value
    split = _ORDER.index("Players") + 1
    order = [*_ORDER[:split], *(_colour_tag(c) for c in state.players), *_ORDER[split:]]
    ordered = [(k, pairs.pop(k)) for k in order if k in pairs]
    ordered.extend(pairs.items())
    moves = tuple(str(m) for m in game.moves)
    return GameRecord(tuple(ordered), moves, comments)


def record_from_state(
    state: GameState[Any] | Game[Any],
    *,
    names: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | Iterable[tuple[int, str]] = (),
    **tags: str,
) -> GameRecord:
    """The record of a :class:`pacru.Game`, or of a state as a start without moves.

    A state holds no earlier state, so it records as its own set-up (a
    ``Position`` tag unless a standard set-up gives it) with no moves; to
    record the moves that led to it, play them in a :class:`pacru.Game` and
    pass that (or call :func:`record_from_game`). Arguments and errors as
    :func:`record_from_game`.

    Warns:
        UserWarning: ``state`` is a state produced by a move (it has a
            ``last_move``): before states became values this recorded the
            moves that led to it, now it records its position only.
    """
    if isinstance(state, Game):
        game = state
    else:
        if state.last_move is not None:
            warnings.warn(
                "record_from_state(state) records the position only, without the moves that "
                "led to it (states no longer keep them); play in a pacru.Game and pass it, "
                "or call record_from_game",
                stacklevel=2,
            )
        game = Game(state)
    return record_from_game(game, names=names, comments=comments, **tags)
