"""Reading a record takes time linear in its length (issue 12).

Two checks, neither a wall-clock limit: the engine calls made per move are
counted exactly, and the time to read a record of 4N plies is compared with
the time for N plies (linear: about 4x; the quadratic reader this replaced,
which walked the chain of states twice per move, took 12x at these sizes).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import pacru
from pacru import ChevronState, Game
from pacru.records import read_record, read_records, record_from_game, write_record

from .longline import CYCLE_START, cycle_moves


def _record_text(plies: int) -> str:
    return write_record(
        record_from_game(Game(pacru.from_position(CYCLE_START), cycle_moves(plies)))
    )


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    for name in ("parse_move", "apply_move"):
        original = getattr(ChevronState, name)

        def counted(self: ChevronState, *args: Any, _f: Any = original, _n: str = name) -> Any:
            calls[_n] += 1
            return _f(self, *args)

        monkeypatch.setattr(ChevronState, name, counted)
    return calls


@pytest.mark.parametrize("plies", [1, 100, 1000])
def test_reading_parses_and_applies_each_move_once(
    plies: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _record_text(plies)
    calls = _counting(monkeypatch)
    (record,) = read_records(text)
    assert len(record.moves) == plies
    assert (calls["parse_move"], calls["apply_move"]) == (plies, plies)
    calls.clear()
    game = record.to_game()
    assert len(game) == plies
    assert (calls["parse_move"], calls["apply_move"]) == (plies, plies)


def _seconds(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def test_reading_4n_plies_takes_well_under_8_times_n_plies() -> None:
    """Best of 5 runs each, the two sizes alternated so that a burst of load on a shared
    machine hits both; linear reading gives a ratio near 4, quadratic reading above 12."""
    short, long = _record_text(500), _record_text(2000)
    assert read_record(long).moves[:500] == read_record(short).moves
    best_short = best_long = float("inf")
    for _ in range(5):
        best_short = min(best_short, _seconds(lambda: read_record(short)))
        best_long = min(best_long, _seconds(lambda: read_record(long)))
    assert best_long / best_short < 8, (best_short, best_long)
