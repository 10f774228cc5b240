"""Speed of :func:`pacru.bots.random_rollouts` against python-chess's random playouts.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/rollouts.py [--games pacru] [--players 2] [--seconds 10]
                                  [--rounds 5] [--batch 64] [--max-plies N]
                                  [--format text|rst]

For each game, player count and draw (``uniform="moves"``, a uniform draw
over the complete legal moves as ``rng.choice(state.legal_moves())``, and
``uniform="families"``, the default), rounds of ``random_rollouts(start,
--batch, seed=round)`` from the start position alternate with rounds of
python-chess random playouts in the same process (``chess_round`` of
``benchmarks/playouts.py``: ``rng.choice(list(board.legal_moves))``,
``board.push``, a new board at each game end). Each side gets ``--rounds``
rounds of ``--seconds / (2 * rounds)`` seconds of wall time; rates are plies
per CPU second of this process (the rollouts run in this thread, the GIL
released), so load from other processes hits both alike. The table gives the
median rate of each and the median of the per-round ratios pacru / chess.
``pacru.ENGINE`` says which engine plays the rollouts (``PACRU_ENGINE=python``
forces the pure-Python loop). Needs numpy and ``chess`` (the ``bench``
extra). This is a script, not a test: its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from typing import Any

from playouts import chess_round

import pacru
from pacru.bots import random_rollouts
from pacru.bots.base import Uniform

DRAWS: tuple[Uniform, ...] = ("moves", "families")


def rollout_round(
    state: pacru.GameState[Any],
    seconds: float,
    batch: int,
    seed: int,
    uniform: Uniform,
    max_plies: int | None,
) -> tuple[float, int]:
    """Plies per CPU second of batches of random rollouts, and the next seed."""
    plies = 0
    cpu_start = time.process_time()
    deadline = time.perf_counter() + seconds
    while True:
        # One thread: the rate per CPU second compares with python-chess's single thread.
        _, lengths = random_rollouts(
            state, batch, seed=seed, max_plies=max_plies, uniform=uniform, num_threads=1
        )
        plies += int(lengths.sum())
        seed += 1
        if time.perf_counter() >= deadline:
            return plies / (time.process_time() - cpu_start), seed


def versus_chess(
    state: pacru.GameState[Any], args: argparse.Namespace, uniform: Uniform
) -> tuple[float, float, float]:
    """Median pacru and chess plies per CPU second, and the median per-round ratio."""
    window = args.seconds / (2 * args.rounds)
    rng = random.Random(0)
    seed, board = 0, None
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(args.rounds):
        rate, seed = rollout_round(state, window, args.batch, seed, uniform, args.max_plies)
        mine.append(rate)
        chess_rate, board = chess_round(window, rng, board)
        theirs.append(chess_rate)
    ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
    return statistics.median(mine), statistics.median(theirs), statistics.median(ratios)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="pacru")
    parser.add_argument("--players", default="2")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--max-plies", type=int, default=None)
    parser.add_argument("--format", choices=("text", "rst"), default="text")
    args = parser.parse_args(argv)
    print(f"pacru {pacru.__version__}, engine {pacru.ENGINE}, Python {platform.python_version()}")
    header = ("game", "players", "draw", "pacru plies/s", "chess plies/s", "ratio")
    rows: list[tuple[str, ...]] = []
    for game in args.games.split(","):
        for players in (int(p) for p in args.players.split(",")):
            state = pacru.new_game(game, players)
            for uniform in DRAWS:
                mine, theirs, ratio = versus_chess(state, args, uniform)
                rows.append(
                    (game, str(players), uniform, f"{mine:,.0f}", f"{theirs:,.0f}", f"{ratio:.1f}x")
                )
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    line = "  ".join("=" * w for w in widths)
    if args.format == "rst":
        print(line)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    if args.format == "rst":
        print(line)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    if args.format == "rst":
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
