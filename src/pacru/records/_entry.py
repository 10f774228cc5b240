"""Reading game records (:mod:`pacru.records`): the public readers, strict or tolerant."""

from __future__ import annotations

from typing import TextIO

from pacru.records._read import GameRecord, RecordError, _text_of, read_strict
from pacru.records._tolerant import read_tolerant

__all__ = ["read_record", "read_records"]


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
    return read_strict(text) if strict else read_tolerant(text)


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
