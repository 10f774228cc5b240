"""Instructions per uniform-random ply through the public API, counted by callgrind.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``; needs
valgrind)::

    python benchmarks/ply_instructions.py [--games pacru,shacru] [--plies 2000]
        [--engine native|python] [--chess]

For each game (2 players) it runs this script's own ``--play N GAME`` under
``valgrind --tool=callgrind`` twice, with N plies and with none, and prints the
difference over N: the instructions of a ply of the loop below, start-up and
imports left out. The loop runs in a function (as a bot's or a benchmark's
code does) and draws with ``random.Random(1)``; ``PYTHONHASHSEED=0`` is set
so that the counts repeat to a few dozen instructions. ``--chess`` counts a
ply of python-chess's random playouts in the same way (the loop of
``benchmarks/playouts.py``).

Instruction counts do not depend on the machine's load, unlike wall-clock
figures. This is a script, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from typing import Any


def play(plies: int, game: str) -> None:
    """``plies`` uniform-random plies of ``game``, a new game at each end."""
    import pacru

    rng = random.Random(1)
    start: Any = pacru.new_game(game, players=2)
    start.legal_moves()
    n = 0
    while n < plies:
        state = start
        while not state.is_terminal and n < plies:
            state = state.apply_move(rng.choice(state.legal_moves()))
            n += 1


def play_chess(plies: int) -> None:
    """``plies`` uniform-random python-chess plies (the loop of benchmarks/playouts.py)."""
    import chess

    rng = random.Random(1)
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.halfmove_clock >= 150 or board.is_insufficient_material():
            board = chess.Board()
            moves = list(board.legal_moves)
        board.push(rng.choice(moves))


def count(plies: int, game: str, engine: str) -> int:
    """The instructions callgrind counts for ``--play plies game``."""
    env = dict(os.environ, PYTHONHASHSEED="0", PACRU_ENGINE=engine)
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--play",
            str(plies),
            game,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no callgrind total in:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="pacru,shacru,lilacru,azacru")
    parser.add_argument("--plies", type=int, default=2000)
    parser.add_argument("--engine", default="native", choices=("native", "python"))
    parser.add_argument("--chess", action="store_true", help="also python-chess")
    parser.add_argument("--play", nargs=2, metavar=("N", "GAME"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        plies, game = int(args.play[0]), args.play[1]
        play_chess(plies) if game == "chess" else play(plies, game)
        return
    games = args.games.split(",") + (["chess"] if args.chess else [])
    for game in games:
        per_ply = (count(args.plies, game, args.engine) - count(0, game, args.engine)) / args.plies
        engine = "python-chess" if game == "chess" else args.engine
        print(f"{game:8} {engine:12} {per_ply:10,.0f} instructions a ply", flush=True)


if __name__ == "__main__":
    main()
