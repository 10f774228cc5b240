"""The tolerant record reader: ``read_records(..., strict=False)`` (:mod:`pacru.records`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

from pacru.records import _text
from pacru.records._read import GameRecord, RecordError, _limits, _parse_game, _validated


def read_tolerant(text: str) -> list[GameRecord]:
    """Every game of ``text``, each with the problems found in it (see ``read_records``)."""
    return [_tolerant(number, item) for number, item in _tolerant_games(text)]


def _tolerant_games(text: str) -> Iterator[tuple[int, list[_text.Token] | RecordError]]:
    """Each game's tokens, or the RecordError of a game whose text cannot be scanned.

    After an error, reading resumes at the next line that starts with a tag pair,
    in the same text (no copy), with the games numbered and counted against
    ``MAX_GAMES`` as in a strict read.
    """
    limits = _limits()
    starts = [0, *(m.end() for m in re.finditer("\n", text))]  # where each line begins
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

