"""Reading game records (:mod:`pacru.records`): the record value, its limits and the strict reader.

The tokenizer and the set-up tags are in :mod:`pacru.records._text`, the
tolerant reader in :mod:`pacru.records._tolerant` and the writer in
:mod:`pacru.records._write`. Nothing here is public except through
:mod:`pacru.records`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, TextIO

import attrs

from pacru.base import GameState
from pacru.errors import GameOverError, IllegalMoveError, NotationError
from pacru.game import Game
from pacru.records import _text

#: Longest text :func:`read_records` reads, in characters (16 MiB).
MAX_RECORD_TEXT: Final = 16 * 1024 * 1024
#: Most games in one text.
MAX_GAMES: Final = 100_000
#: Most moves in one game.
MAX_PLIES: Final = 20_000
#: Most games with errors a tolerant read (``strict=False``) gives before it stops.
MAX_ERRORS: Final = 10_000
#: Most tag pairs in one game.
MAX_TAGS: Final = 100
#: Longest tag value (a position string fits).
MAX_TAG_VALUE: Final = 16_384
#: Longest comment.
MAX_COMMENT: Final = 16_384
#: Longest move text.
MAX_TOKEN: Final = 64

_TAG_NAME_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_NUMBER_RE: Final = re.compile(r"(\d+)\.+(.*)", re.DOTALL)
_COLOUR: Final = r"[a-z][a-z0-9_-]*"
_RESULT_RE: Final = re.compile(rf"\*|draw|{_COLOUR}(?:,{_COLOUR})*")
_WORD_END: Final = re.compile(r"[\s{}\[\]]")


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
            return _text.game_of(dict(self.tags))
        except _text.SetupError as err:
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
            return _text.start_state(dict(self.tags))
        except _text.SetupError as err:
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
        return _text.write_record(self)


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
    if isinstance(err, IllegalMoveError):
        if isinstance(err, GameOverError):
            message = f"{text}: the game is already over ({err.detail})"
        else:
            message = f"{text}{who} is illegal: {err.rule}: {err.detail}"
        return RecordError(message, rule=err.rule, reason=err.reason, ply=ply, move=text)
    message = f"{text[:40]!r}{who} is not a move: {err}"
    return RecordError(message, rule="notation", reason="not-a-move", ply=ply, move=text)


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


def _limits() -> _text.Limits:
    """The limits the tokenizer checks, read when a text is read (tests lower them)."""
    return (MAX_GAMES, MAX_TAGS, MAX_PLIES, MAX_COMMENT, MAX_TAG_VALUE, MAX_TOKEN)


def _games(text: str) -> Iterator[tuple[int, list[_text.Token]]]:
    try:
        yield from _text.games(text, _limits())
    except _text.TextError as err:
        raise RecordError(err.message, reason=err.reason, line=err.line, game=err.game) from None


def _parse_game(tokens: list[_text.Token]) -> tuple[GameRecord, list[int]]:
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
        # Games repeat their moves: one string per distinct move keeps 100,000 records small.
        canonical.append(sys.intern(str(move)))
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


def read_strict(text: str) -> list[GameRecord]:
    """Every game of ``text`` (already checked by ``_text_of``), raising at the first problem."""
    records = []
    for number, tokens in _games(text):
        try:
            record, lines = _parse_game(tokens)
            records.append(_validated(record, lines))
        except RecordError as err:
            raise err.in_game(number) from None
    return records
