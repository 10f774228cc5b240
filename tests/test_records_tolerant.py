"""Records from text streams, and the tolerant reader (issue 16).

``read_records``/``read_record`` take a string or a text stream. Strict mode
(the default) raises at the first problem; ``strict=False`` reads on past a
bad game, as python-chess's PGN reader does, and gives each game its
``errors``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pacru.records import GameRecord, RecordError, read_record, read_records, write_record

GOOD = '[Game "lilacru"]\n[Result "green"]\n\n1. e1-e2 e9-e8 *\n'
ILLEGAL = '[Game "shacru"]\n\n1. e1-e2 e9-e8 2. e2-e4 *\n'
UNREADABLE = '[Game "shacru"]\n\n1. e1-e2 {open *\n'
UNKNOWN = '[Game "nosuch"]\n\n1. e1-e2 *\n'


def test_streams_read_like_strings(tmp_path: Path) -> None:
    assert read_records(io.StringIO(GOOD + "\n" + GOOD)) == read_records(GOOD + "\n" + GOOD)
    path = tmp_path / "games.txt"
    path.write_text(GOOD, encoding="utf-8")
    with path.open(encoding="utf-8") as handle:
        assert read_record(handle) == read_record(GOOD)
    with pytest.raises(RecordError, match="text mode"):
        read_records(io.BytesIO(GOOD.encode()))  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="must be given as a string or a text stream"):
        read_records(5)  # type: ignore[arg-type]


def test_strict_mode_raises_as_before() -> None:
    with pytest.raises(RecordError) as raised:
        read_records(GOOD + "\n" + ILLEGAL)
    assert (raised.value.game, raised.value.ply, raised.value.rule) == (2, 3, "S-R3")


def test_tolerant_mode_reads_on_and_gives_each_game_its_errors() -> None:
    text = ILLEGAL + "\n" + UNREADABLE + "\n" + GOOD + "\n" + UNKNOWN
    records = read_records(io.StringIO(text), strict=False)
    assert [r.moves for r in records] == [("e1-e2", "e9-e8"), (), ("e1-e2", "e9-e8"), ("e1-e2",)]
    assert [[str(e) for e in r.errors] for r in records] == [
        [
            "game 1, line 3, ply 3: e2-e4 (green) is illegal: "
            "S-R3: a chevron moves one field; e2 to e4 is 2"
        ],
        ["game 2, line 7: a comment '{' is never closed with '}'"],
        [],
        ["game 4: unknown game 'nosuch'; games: lilacru, shacru, azacru, pacru, lsd"],
    ]
    first = records[0]
    assert (first.errors[0].ply, first.errors[0].rule, first.errors[0].reason) == (
        3,
        "S-R3",
        "beyond-power",
    )
    assert len(first.states()) == 3  # the two moves kept replay
    assert records[1] == GameRecord(())
    assert records[2] == read_record(GOOD)


def test_tolerant_records_write_back_what_they_kept() -> None:
    """Anything a reader gives, the writer writes and the strict reader reads back."""
    kept = read_record(ILLEGAL, strict=False)
    assert kept.errors
    assert read_record(write_record(kept)) == kept
    assert read_record(write_record(kept)).errors == ()


def test_a_bad_game_whose_text_says_games_does_not_end_the_tolerant_read() -> None:
    """Only the game-count limit ends a tolerant read, not a message that reads like it."""
    from pacru.records import MAX_TOKEN

    long_move = '[Game "shacru"]\n\n1. ' + "games" * (MAX_TOKEN // 5 + 4) + " *\n"
    records = read_records(GOOD + "\n" + long_move + "\n" + GOOD, strict=False)
    assert len(records) == 3
    assert [r.errors[0].reason if r.errors else None for r in records] == [None, "too-long", None]
    assert records[2].moves == records[0].moves


def test_the_game_limit_counts_every_game_of_a_tolerant_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tolerant read resumes after a bad game without starting the game count afresh."""
    import pacru.records._read  # where the limits are defined

    monkeypatch.setattr(pacru.records._read, "MAX_GAMES", 3)
    text = "\n".join([GOOD, UNREADABLE, GOOD, GOOD, GOOD])
    records = read_records(text, strict=False)
    assert len(records) == 4
    assert [bool(r.errors) for r in records] == [False, True, False, True]
    assert str(records[3].errors[0]) == "game 4, line 15: more than 3 games"
    with pytest.raises(RecordError, match="more than 3 games"):
        read_records("\n".join([GOOD] * 4))
