"""A busy machine for the ``--busy`` mode of the benchmarks, and rounds taken in alternation.

``busy_cores()`` starts one process per core this process may run on
(``os.sched_getaffinity``), each spinning in pure Python (``while True: pass``)
at the normal priority, and kills them on leaving: every core is then kept
100% busy by other work, as a learner's own process keeps them in training.
``alternate`` runs windows of several ways of doing the same work in turn (one
window of each, then the next round), so that the load, which changes from
second to second on a shared machine, falls on each alike; ``report`` prints
each round's ratio to the first way's window of the same round and their
median. This is a helper of scripts, not a test: it asserts nothing.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on macOS and Windows
        return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def busy_cores(count: int | None = None) -> Iterator[int]:
    """``count`` (default: one a core) busy processes for the ``with`` block: yields how many."""
    n = cores() if count is None else count
    spin = "while True: pass"
    procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(n)]
    try:
        yield n
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()


def alternate(
    ways: dict[str, Callable[[float], float]], rounds: int, seconds: float
) -> dict[str, list[float]]:
    """Each way's rate (its window's return) in every round, the ways taken in turn."""
    rates: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(rounds):
        for name, window in ways.items():
            rates[name].append(window(seconds))
    return rates


def default_against_one(
    windows: Callable[[int | None], Callable[[float], tuple[float, ...]]],
    busy_procs: int | None,
    rounds: int,
    seconds: float,
) -> tuple[int, dict[str, list[float]]]:
    """``--busy``: rounds of one thread then the default (``windows(num_threads)`` makes a
    way's window, whose first value is its rate), each warmed first, beside the busy
    processes; how many there were, and each way's rates."""
    one, default = windows(1), windows(None)
    ways: dict[str, Callable[[float], float]] = {
        "num_threads=1": lambda s: one(s)[0],
        "default": lambda s: default(s)[0],
    }
    for window in ways.values():  # warm: the pool started, the caches filled
        window(0.2)
    with busy_cores(busy_procs) as n:
        return n, alternate(ways, rounds, seconds)


def report(what: str, rates: dict[str, list[float]], unit: str) -> None:
    """Print each way's rates against the first way's, round by round, and the medians."""
    names = list(rates)
    base = rates[names[0]]
    for name in names[1:]:
        ratios = [r / b for r, b in zip(rates[name], base, strict=True)]
        by_round = " ".join(f"{x:.2f}" for x in ratios)
        print(
            f"{what}: {name} / {names[0]} by round: {by_round}; median "
            f"{statistics.median(ratios):.2f}x (median {statistics.median(rates[name]):,.0f} "
            f"against {statistics.median(base):,.0f} {unit})"
        )
