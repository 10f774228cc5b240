"""Every reader's memory is bounded by its input, not by the shape of a hostile text.

Each reader gets 10 MB texts of several shapes (one huge token, millions of
tiny tokens, ``"[\\n" * N``, deeply nested brackets, a number of millions of
digits, ...) after a prefix that puts them where a field is read (a tag value,
a comment, a colour list, a ``set=`` value). Each must raise its documented
error (or, for the tolerant record reader, return) while allocating less than
:data:`BUDGET` at its peak, measured with :mod:`tracemalloc` (allocations, not
time: nothing here depends on the machine's speed or load). Before the length
checks were moved onto the raw text, a 10 MB tag value took 1.9 GB and
``"[\\n" * 10**6`` read tolerantly about 1 GB.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any, Final

import pytest

from pacru import Move, new_game
from pacru.errors import IllegalMoveError, InvalidPositionError, NotationError
from pacru.games import from_position
from pacru.records import RecordError, read_records

#: Most memory a reader may allocate on a 10 MB text (the text itself not counted).
BUDGET: Final = 16 * 1024 * 1024
#: Characters in each hostile text.
SIZE: Final = 10_000_000

#: The shapes: a name and the unit repeated to SIZE characters.
SHAPES: Final = {
    "huge-token": "a",
    "tiny-tokens": "a ",
    "open-brackets": "[\n",
    "nested": "(",
    "nested-square": "[",
    "braces": "{",
    "huge-number": "9",
    "commas": ",",
    "semicolons": ";",
    "escapes": '\\"',
    "tile-words": "0B+N@0,0;",
}


def _peak(call: Callable[[], Any], errors: tuple[type[Exception], ...]) -> int:
    """The peak bytes ``call()`` allocates; it must return or raise one of ``errors``."""
    tracemalloc.start()
    try:
        call()
    except errors:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def _check(
    call: Callable[[str], Any],
    prefix: str,
    errors: tuple[type[Exception], ...],
    shapes: tuple[str, ...] = tuple(SHAPES),
) -> None:
    for shape in shapes:
        unit = SHAPES[shape]
        text = prefix + unit * (SIZE // len(unit))
        peak = _peak(lambda: call(text), errors)  # noqa: B023 - called at once
        assert peak < BUDGET, f"{shape} after {prefix!r}: {peak / 1e6:.0f} MB"


RECORD_PREFIXES: Final = ["", '[Game "pacru"]\n[Event "', '[Game "pacru"]\n\n', '[Game "lsd"]\n{']


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("prefix", RECORD_PREFIXES)
def test_strict_record_reader_memory(prefix: str, shape: str) -> None:
    """read_records: a RecordError within the budget, whatever the text's shape."""
    _check(read_records, prefix, (RecordError,), (shape,))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("prefix", RECORD_PREFIXES)
def test_tolerant_record_reader_memory(prefix: str, shape: str) -> None:
    """read_records(strict=False): records with errors within the budget."""
    _check(lambda text: read_records(text, strict=False), prefix, (RecordError,), (shape,))


def test_tolerant_reader_merges_unreadable_lines() -> None:
    """``"[\\n" * N`` is one unreadable game: lines that cannot start a tag pair are not
    games of their own, and reading resumes at the next tag pair's head."""
    good = '[Game "shacru"]\n\n1. e1-e2 *\n'
    records = read_records("[\n" * 1000 + good, strict=False)
    assert [r.errors[0].reason if r.errors else None for r in records] == ["syntax", None]
    assert records[1].moves == ("e1-e2",)
    assert records[1].tag("Game") == "shacru"


def test_tolerant_reader_stops_after_max_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_ERRORS games with errors the read stops with a too-long error record."""
    import pacru.records._tolerant

    monkeypatch.setattr(pacru.records._tolerant, "MAX_ERRORS", 3)
    records = read_records('[Game "shacru"]\n{\n' * 10, strict=False)
    assert len(records) == 4
    assert [r.errors[0].reason for r in records] == ["syntax"] * 3 + ["too-long"]
    assert str(records[3].errors[0]) == "game 4: more than 3 games with errors; reading stopped"


def test_record_field_lengths_are_checked_on_the_raw_text() -> None:
    """A long tag value, comment or move is a too-long RecordError naming its limit."""
    from pacru.records import MAX_COMMENT, MAX_TAG_VALUE, MAX_TOKEN

    cases = {
        f'[Game "pacru"]\n[Event "{"x" * (MAX_TAG_VALUE + 1)}"]\n*': "Event value is longer",
        f'[Game "pacru"]\n[Event "{"x" * SIZE}': "Event value is longer",
        f'[Game "pacru"]\n\n{{{"x" * (MAX_COMMENT + 1)}}} *': "comment longer",
        f'[Game "pacru"]\n\n{"e" * (MAX_TOKEN + 13)} *': "move longer",
        '[Game "pacru"]\n\n' + "{}" * (SIZE // 2): "more than 40002 comments",
    }
    for text, message in cases.items():
        with pytest.raises(RecordError, match=message) as err:
            read_records(text)
        assert err.value.reason == "too-long"
    at_limit = f'[Game "pacru"]\n[Event "{"x" * (MAX_TAG_VALUE - 2)}\\""]\n\n*\n'
    assert read_records(at_limit)[0].tag("Event") == "x" * (MAX_TAG_VALUE - 2) + '"'


@pytest.mark.parametrize("prefix", ["pacru players=", "pacru ", "", "shacru players=a,b turn="])
def test_chevron_position_reader_memory(prefix: str) -> None:
    """from_position on chevron positions: a NotationError within the budget."""
    _check(from_position, prefix, (NotationError, InvalidPositionError))


@pytest.mark.parametrize(
    "prefix",
    ["lsd ", "lsd red:B,yellow:W - - red set=", "lsd red:B,yellow:W ", "lsd a:B,b:W - - a "],
)
def test_lsd_position_reader_memory(prefix: str) -> None:
    """from_position on LSD positions: a NotationError within the budget."""
    _check(from_position, prefix, (NotationError, InvalidPositionError))


def test_lsd_position_and_tile_set_limits() -> None:
    """LSD positions longer than MAX_POSITION_TEXT and tile sets longer than
    MAX_TILE_SET_TEXT are NotationErrors at once; the longest position play can
    reach (every tile far out) is within the limit."""
    from pacru.lsd.position import MAX_POSITION_TEXT
    from pacru.lsd.tiles import MAX_TILE_SET_TEXT, MAX_TILES, parse_tile_set

    with pytest.raises(NotationError, match="longer than 131072"):
        from_position("lsd red:B,yellow:W - - red " + " " * MAX_POSITION_TEXT)
    with pytest.raises(NotationError, match="tile set longer than 16384"):
        parse_tile_set("+N," * (MAX_TILE_SET_TEXT // 3 + 1))
    with pytest.raises(NotationError, match="tile set longer"):
        from_position("lsd red:B,yellow:W - - red set=" + "+N," * 10**4)
    assert len("3W+NESW@-2047,-2047;") * MAX_TILES < MAX_POSITION_TEXT // 2


@pytest.mark.parametrize("reader", ["Move.parse", "parse_move", "parse_san"])
def test_chevron_move_readers_memory(reader: str) -> None:
    """Move.parse, parse_move and parse_san of a chevron game: NotationError in budget."""
    state = new_game("pacru", 2)
    call = Move.parse if reader == "Move.parse" else getattr(state, reader)
    _check(call, "", (NotationError, IllegalMoveError))
    _check(call, "e4-", (NotationError, IllegalMoveError))


@pytest.mark.parametrize("reader", ["LsdMove.from_text", "parse_move", "parse_san"])
def test_lsd_move_readers_memory(reader: str) -> None:
    """LsdMove.from_text, parse_move and parse_san of LSD: NotationError in budget."""
    from pacru.lsd import LsdMove

    state = new_game("lsd", 2)
    call = LsdMove.from_text if reader == "LsdMove.from_text" else getattr(state, reader)
    _check(call, "", (NotationError, IllegalMoveError))
    _check(call, "B+NESW@", (NotationError, IllegalMoveError))


def test_abstractplay_move_reader_memory() -> None:
    """abstractplay.parse_move: a NotationError within the budget."""
    from pacru import abstractplay as ap

    state = ap.new_game("pacru", 2)
    _check(lambda text: ap.parse_move(state, text), "", (NotationError, IllegalMoveError))
    _check(lambda text: ap.parse_move(state, text), "a3-b3(", (NotationError, IllegalMoveError))


def test_lsd_move_text_length_limit() -> None:
    """LSD move texts of MAX_MOVE_TEXT (64) characters are read; one more is a
    NotationError before the text is stripped or matched (move text, SAN)."""
    from pacru.lsd import LsdMove
    from pacru.lsd.moves import MAX_MOVE_TEXT

    state = new_game("lsd", 2)
    at_limit = "B+NESW@0,0".center(MAX_MOVE_TEXT)
    assert str(LsdMove.from_text(at_limit)) == "B+NESW@0,0"
    assert state.parse_san(at_limit) == state.parse_move("B+NESW@0,0")
    for call in (LsdMove.from_text, state.parse_move, state.parse_san):
        with pytest.raises(NotationError, match="longer than 64"):
            call(at_limit + " ")


def test_from_position_finds_the_game_name_without_copying() -> None:
    """The first word names the game after any blanks; a longer word is no game name."""
    text = "shacru players=green,yellow chevrons=green:e4N;yellow:e6S"
    assert from_position(" \n\t" + text) == from_position(text)
    for bad in ("shacruX" + " players=a,b", "x" * 10**6, "", "   "):
        with pytest.raises(NotationError, match="starts with the game name"):
            from_position(bad)
