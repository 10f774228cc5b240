"""States as values: pickle and copy costs at ply 1,000, and record reading against play.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/state_values.py [--plies 20000] [--repeat 5]

Part 1, for a state at ply 1,000 of each game (targets of issue 12: a pickle
under 16 KB, ``copy.deepcopy`` under 10 microseconds):

* Shacru: a genuine game 1,000 plies long, the legal Shacru line below;
* the other chevron games: a random 2-player game's state at a third of its
  length, loaded from its position string with the ply count set to 1,000;
* LSD, whose 2-player games end within 40 plies: the final state of a random
  game (its ply count is the number of tiles placed).

and reports the ``pickle.dumps`` size in bytes and the microseconds per call
of ``pickle.dumps``, ``pickle.loads`` and ``copy.deepcopy`` (the mean of 2,000
calls, the best of ``--repeat`` runs).

Part 2, the case of issue 12: a legal Shacru record of ``--plies`` plies
(green's chevron walks a cycle of its own fields while yellow, facing the board
edge on a1, passes; ``IdleRounds`` raised so that the D33 safety valve does not
end it). It reports the seconds to read it with
:func:`pacru.records.read_record` against the seconds to play its moves from
their text (``state.apply_move(text)`` each ply, no record), best of
``--repeat``, and their ratio (target: at most 2).

This is a script, not a test: it asserts nothing and its figures depend on the
machine.
"""

from __future__ import annotations

import argparse
import copy
import os
import pickle
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pacru
from pacru.records import read_record, record_from_game, write_record

#: The Shacru line of tests/values/longline.py: 14 plies per cycle, back to the start.
LINE_START = (
    "shacru players=green,yellow markers=green:c4,c5,c6,d3,d6,e4,e5 "
    "chevrons=green:e5N;yellow:a1S idle_rounds=1000000"
)
LINE = [
    text
    for step in ["e5-d6", "d6-c6<", "c6-c5", "c5-c4", "c4-d3<", "d3-e4", "e4-e5"]
    for text in (step, "pass")
]
CHEVRON_KEYS = ("players", "turn", "markers", "chevrons", "out", "trigger", "idle")


def line_texts(plies: int) -> list[str]:
    """The first ``plies`` move texts of the Shacru line."""
    return [LINE[i % len(LINE)] for i in range(plies)]


def at_ply(state: pacru.GameState[Any], ply: int) -> pacru.GameState[Any]:
    """A chevron state's position loaded with its ply count set to ``ply``."""
    words = [w for w in state.to_position().split() if not w.startswith("ply=")]
    at = max(i for i, w in enumerate(words) if i == 0 or w.split("=")[0] in CHEVRON_KEYS)
    words.insert(at + 1, f"ply={ply}")
    return pacru.from_position(" ".join(words))


def states_at_1000() -> dict[str, pacru.GameState[Any]]:
    """One state per game, as the module docstring says."""
    states: dict[str, pacru.GameState[Any]] = {}
    for game in pacru.GAMES:
        if game == "shacru":
            state = pacru.from_position(LINE_START)
            for text in line_texts(1000):
                state = state.apply_move(text)
            states[game] = state
            continue
        rng = random.Random(1)
        line: list[pacru.GameState[Any]] = [pacru.new_game(game, 2)]
        while not line[-1].is_terminal:
            line.append(line[-1].apply_move(rng.choice(line[-1].legal_moves())))
        states[game] = line[-1] if game == "lsd" else at_ply(line[len(line) // 3], 1000)
    return states


def best_mean_us(call: Callable[[], object], calls: int, repeat: int) -> float:
    """The lowest (over ``repeat`` runs) mean microseconds per call of ``calls`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def best_seconds(call: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=20_000, help="record length (part 2)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best is reported")
    args = parser.parse_args(argv)
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )

    print("\nA state at ply 1,000 (targets: pickle < 16 KB, deepcopy < 10 us)")
    print(f"{'game':8} {'ply':>5} {'bytes':>6} {'dumps us':>9} {'loads us':>9} {'deepcopy us':>12}")
    for game, state in states_at_1000().items():
        data = pickle.dumps(state)
        assert pickle.loads(data) == state
        dumps = best_mean_us(partial(pickle.dumps, state), 2000, args.repeat)
        loads = best_mean_us(partial(pickle.loads, data), 2000, args.repeat)
        deep = best_mean_us(partial(copy.deepcopy, state), 2000, args.repeat)
        print(f"{game:8} {state.ply:5} {len(data):6} {dumps:9.2f} {loads:9.2f} {deep:12.2f}")

    print(f"\nA legal {args.plies}-ply Shacru record (target: read <= 2 x play)")
    texts = line_texts(args.plies)
    start = pacru.from_position(LINE_START)
    text = write_record(record_from_game(pacru.Game(start, texts)))

    def play() -> None:
        state = start
        for move in texts:
            state = state.apply_move(move)

    read = best_seconds(lambda: read_record(text), args.repeat)
    played = best_seconds(play, args.repeat)
    print(f"record text {len(text)} characters")
    print(f"read_record  {read:8.3f} s")
    print(f"play moves   {played:8.3f} s")
    print(f"ratio        {read / played:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
