"""The tolerant record reader: ``read_records(..., strict=False)`` (:mod:`pacru.records`)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from pacru.records import _text
from pacru.records._read import (
    MAX_ERRORS,
    GameRecord,
    RecordError,
    _limits,
    _parse_game,
    _validated,
)


def read_tolerant(text: str) -> list[GameRecord]:
    """Every game of ``text``, each with the problems found in it (see ``read_records``).

    After ``MAX_ERRORS`` games with errors the read stops with one more record,
    holding only a ``too-long`` error: each error record costs memory, and a small
    text can hold very many unreadable games.
    """
    records, errors = [], 0
    for number, item in _tolerant_games(text):
        record = _tolerant(number, item)
        errors += bool(record.errors)
        if errors > MAX_ERRORS:
            message = f"more than {MAX_ERRORS} games with errors; reading stopped"
            stop = RecordError(message, reason="too-long", game=number)
            records.append(GameRecord((), errors=(stop,)))
            break
        records.append(record)
    return records


def _tolerant_games(text: str) -> Iterator[tuple[int, list[_text.Token] | RecordError]]:
    """Each game's tokens, or the RecordError of a game whose text cannot be scanned.

    After an error, reading resumes at the next line that starts with a tag pair's
    head (``[Name "``), in the same text (no copy), with the games numbered and counted against
    ``MAX_GAMES`` as in a strict read.
    """
    limits = _limits()
    start, line, before = 0, 1, 0
    while True:
        last = before
        try:
            for number, tokens in _text.games(text, limits, start, line, before):
                last = number
                yield number, tokens
            return
        except _text.TextError as err:
            game = max(err.game, last + 1)
            if game > limits[0]:  # the unreadable texts count as games too
                message = f"more than {limits[0]} games"
                yield game, RecordError(message, reason="too-long", line=err.line, game=game)
                return
            yield game, RecordError(err.message, reason=err.reason, line=err.line, game=game)
            if err.fatal:
                return
            # Resume at the next line after the error's that starts with a tag pair's
            # head: lines that cannot start a game are part of the unreadable text.
            found = _text.resume(text, err.index)
            if found is None:
                return
            start, line, before = found, err.line + text.count("\n", err.index, found), game


def _tolerant(number: int, item: list[_text.Token] | RecordError) -> GameRecord:
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
