"""Tree iterations per second of the default ``mcts`` bot against python-chess's random playouts.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/mcts.py [--players 2] [--seconds 20] [--rounds 5]
                              [--plies 0,10,20,40] [--seed 0] [--format text|rst]

The positions are the Pacru start and the positions after ``--plies`` plies
of a seeded random game (:func:`pacru.bots.sample_move`, the draw of
:class:`pacru.bots.RandomBot`, generator seeded with ``--seed``; a game that
ends sooner is replayed with the next seed). Rounds of searches alternate
with rounds of python-chess random playouts in the same process
(``chess_round`` of ``benchmarks/playouts.py``: ``rng.choice(list(
board.legal_moves))``, ``board.push``, a new board at each game end). A
search round runs, position after position, ``MCTSBot(seed=k).search(state)``
with the bot's defaults (the ``mcts`` of ``pacru match``: 400 iterations,
leaves valued by :func:`pacru.bots.evaluate`) until its share of the time is
up, and counts the iterations the bot reports (``last_iterations``). Each
side gets ``--rounds`` rounds of ``--seconds / (2 * rounds)`` seconds of wall
time; rates are per CPU second of this process, so load from other
processes hits both alike. Printed: per position, the median iterations per
CPU second over the rounds; and over all positions the median iterations
per second, the median chess plies per second, and the median of the
per-round ratios as **iterations per 1,000 chess plies**. Needs ``chess``
(the ``bench`` extra). This is a script, not a test: its figures depend on
the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from playouts import chess_round, print_heading

import pacru
from pacru.bots import MCTSBot, sample_move


def positions(players: int, plies: Sequence[int], seed: int) -> list[pacru.GameState[Any]]:
    """The Pacru positions after each of ``plies`` plies of one seeded random game."""
    longest = max(plies)
    while True:
        rng = random.Random(seed)
        game = [pacru.new_game("pacru", players)]
        while len(game) <= longest and game[-1].outcome is None:
            game.append(game[-1].apply_move(sample_move(game[-1], rng)))
        if len(game) > longest:
            return [game[p] for p in plies]
        seed += 1


def search_round(
    states: Sequence[pacru.GameState[Any]], seconds: float, seed: int, counts: list[list[float]]
) -> tuple[float, int]:
    """Iterations per CPU second of default searches over ``states``, and the next seed.

    Appends each position's own rate to ``counts`` (one list per position).
    """
    iterations = 0
    cpu = 0.0
    done = [0] * len(states)
    spent = [0.0] * len(states)
    deadline = time.perf_counter() + seconds
    i = 0
    while True:
        bot = MCTSBot(seed=seed)
        start = time.process_time()
        bot.search(states[i])
        used = time.process_time() - start
        done[i] += bot.last_iterations
        spent[i] += used
        iterations += bot.last_iterations
        cpu += used
        seed += 1
        i = (i + 1) % len(states)
        if i == 0 and time.perf_counter() >= deadline:
            break
    for k in range(len(states)):
        counts[k].append(done[k] / spent[k])
    return iterations / cpu, seed


def versus_chess(
    states: Sequence[pacru.GameState[Any]], args: argparse.Namespace
) -> tuple[float, float, float, list[float]]:
    """Median iterations/s, chess plies/s, per-round ratio, and each position's median rate."""
    window = args.seconds / (2 * args.rounds)
    rng = random.Random(args.seed)
    seed, board = args.seed, None
    mine: list[float] = []
    theirs: list[float] = []
    counts: list[list[float]] = [[] for _ in states]
    for _ in range(args.rounds):
        rate, seed = search_round(states, window, seed, counts)
        mine.append(rate)
        chess_rate, board = chess_round(window, rng, board)
        theirs.append(chess_rate)
    ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
    each = [statistics.median(c) for c in counts]
    return statistics.median(mine), statistics.median(theirs), statistics.median(ratios), each


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--plies",
        type=lambda v: [int(p) for p in v.split(",")],
        default=[0, 10, 20, 40],
        help="plies of the seeded random game before each position (default 0,10,20,40)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", choices=("text", "rst"), default="text")
    args = parser.parse_args(argv)
    print_heading(
        f"engine {getattr(pacru, 'ENGINE', 'python')}",
        f"Pacru {args.players} players",
        f"--seconds {args.seconds}",
        f"--rounds {args.rounds}",
        when="%Y-%m-%d %H:%M %Z",
    )
    states = positions(args.players, args.plies, args.seed)
    mine, theirs, ratio, each = versus_chess(states, args)
    rows = [(f"ply {p}", f"{r:,.0f}", "", "") for p, r in zip(args.plies, each, strict=True)]
    rows.append(("all", f"{mine:,.0f}", f"{theirs:,.0f}", f"{1000 * ratio:,.0f}"))
    header = ("position", "iterations/s", "chess plies/s", "per 1,000 chess plies")
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    line = "  ".join("=" * w for w in widths)
    out = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    head = "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()
    print("\n".join([line, head, line, *out, line] if args.format == "rst" else [head, *out]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
