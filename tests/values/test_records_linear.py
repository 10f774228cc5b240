"""Reading a record takes time linear in its length (issue 12).

Two checks, neither a clock: the engine calls made per move are counted
exactly, and every function call made to read a record of 4N plies (Python and
C functions alike, counted with ``sys.setprofile``) is compared with those for
N plies: linear reading makes about 4 times as many, the quadratic reader this
replaced (which walked the chain of states twice per move) N times more.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import pacru
from pacru import ChevronState, Game
from pacru.chevron.engine import STATE_CLASS
from pacru.records import read_record, read_records, record_from_game, write_record

from .longline import CYCLE_START, cycle_moves

#: The ``parse_move`` calls of one ``apply_move`` of a move's text: the Python engine's
#: parses with it, the native engine's reads the text in Rust.
PARSES = 0 if pacru.ENGINE == "native" else 1


def _record_text(plies: int) -> str:
    return write_record(
        record_from_game(Game(pacru.from_position(CYCLE_START), cycle_moves(plies)))
    )


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    for name in ("parse_move", "apply_move"):
        # The engine's own class: its apply_move is the engine's, not the shared base's.
        original = getattr(STATE_CLASS, name)

        def counted(self: ChevronState, *args: Any, _f: Any = original, _n: str = name) -> Any:
            calls[_n] += 1
            return _f(self, *args)

        monkeypatch.setattr(STATE_CLASS, name, counted)
    return calls


@pytest.mark.parametrize("plies", [1, 100, 1000])
def test_reading_parses_and_applies_each_move_once(
    plies: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _record_text(plies)
    calls = _counting(monkeypatch)
    (record,) = read_records(text)
    assert len(record.moves) == plies
    assert (calls["parse_move"], calls["apply_move"]) == (plies * PARSES, plies)
    calls.clear()
    game = record.to_game()
    assert len(game) == plies
    assert (calls["parse_move"], calls["apply_move"]) == (plies * PARSES, plies)


def _function_calls(call: Callable[[], object]) -> int:
    """How many Python and C function calls ``call()`` makes: the same on every run."""
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return count


def test_reading_4n_plies_makes_about_4_times_the_calls_of_n_plies() -> None:
    short, long = _record_text(500), _record_text(2000)
    assert read_record(long).moves[:500] == read_record(short).moves
    read_record(short)  # caches filled and modules imported before counting
    ratio = _function_calls(lambda: read_record(long)) / _function_calls(lambda: read_record(short))
    assert 3.5 < ratio < 4.5, ratio
