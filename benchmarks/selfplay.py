"""Self-play throughput on a Dask ``LocalCluster``: decisions per second with 1 and 2 workers.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/selfplay.py [--game shacru] [--players 2] [--bot random]
                                  [--games 48] [--shard-games 4] [--max-plies 200]
                                  [--workers 1,2] [--repeat 3] [--seed 0]

For each worker count it starts a ``distributed.LocalCluster`` of that many
worker processes (one thread each, loopback, no dashboard), imports pacru on
every worker, then times :func:`pacru.selfplay.run_selfplay` of the same run
(same seed: the same games and rows) into a fresh temporary directory, from
the first shard submitted to the last shard written. It prints, per worker
count, the decisions (Parquet rows) per second of wall-clock time (best of
``--repeat`` runs: other processes on a shared machine only slow a run down)
and the speed-up over the first worker count, how busy the workers were
(the shards' playing time over the run's time and the workers), and the load
average (``/proc/loadavg``) before and after. This is a script, not a test: it
asserts nothing and its figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from typing import Any

from distributed import Client, LocalCluster

import pacru
from pacru.selfplay import SelfPlayRun, run_selfplay


def _loadavg() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "n/a"


def _warm(_: Any) -> int:
    """Import what a shard needs (run once on every worker before timing)."""
    import pacru.encoding
    import pacru.selfplay

    return len(pacru.encoding.__name__) + len(pacru.selfplay.__name__)


def measure(run: SelfPlayRun, workers: int, repeat: int) -> tuple[float, int, float, float]:
    """(best decisions per second, decisions, best seconds, play seconds) with ``workers``.

    The play seconds are the wall-clock seconds the workers spent playing the
    shards of the best run, summed (``ShardResult.seconds``): divided by the
    run's seconds and the workers, how busy the workers were.
    """
    start: Any = LocalCluster
    connect: Any = Client
    best = float("inf")
    decisions = 0
    played = 0.0
    with (
        start(
            n_workers=workers,
            processes=True,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        connect(cluster) as client,
    ):
        client.wait_for_workers(workers)
        client.run(_warm, None)
        executor = client.get_executor()
        for _ in range(repeat):
            rows = 0
            busy = 0.0

            def count(shard: Any) -> None:
                nonlocal rows, busy
                rows += shard.decisions
                busy += shard.seconds

            with tempfile.TemporaryDirectory() as directory:
                began = time.perf_counter()
                run_selfplay(run, directory, executor=executor, progress=count)
                seconds = time.perf_counter() - began
            if seconds < best:
                best, played = seconds, busy
            decisions = rows
    return decisions / best, decisions, best, played


def main() -> None:
    """Parse the arguments, measure every worker count and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="shacru")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--shard-games", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    run = SelfPlayRun(
        args.game,
        args.players,
        args.bot,
        args.games,
        args.seed,
        shard_games=args.shard_games,
        max_plies=args.max_plies,
    )
    print(
        f"pacru {pacru.__version__}, CPython {platform.python_version()}, "
        f"{os.cpu_count()} CPUs; {run.game}, {run.players} players, bot {run.bot}, "
        f"{run.games} games in {run.shards} shards, max {run.max_plies} plies, seed {run.seed}"
    )
    print(f"load average before: {_loadavg()}")
    base = None
    for workers in (int(w) for w in args.workers.split(",")):
        rate, decisions, seconds, played = measure(run, workers, args.repeat)
        base = base or rate
        print(
            f"{workers} worker(s): {rate:8.0f} decisions/s ({decisions} decisions in "
            f"{seconds:.2f} s, best of {args.repeat}), x{rate / base:.2f}; workers busy "
            f"{100 * played / (seconds * workers):.0f}%; load average {_loadavg()}"
        )


if __name__ == "__main__":
    main()
