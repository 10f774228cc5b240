"""Strength of the reference bots: seeded matches through :func:`pacru.bots.arena.run_match`.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/bot_strength.py [--games 100] [--search-games 40] [--mirror-games 6]
                                      [--seed 1] [--players 2] [--only greedy|mcts|mirror]

It plays, at every chevron game, ``greedy`` against ``random`` (``--games``
games), and at Pacru the default ``mcts`` against ``random`` and against
``greedy`` (``--search-games`` games each) and against itself
(``--mirror-games``), seats alternated (game ``g``
rotates the seats by ``g``), every bot seeded from the match seed, with the
arena's limit of 2,000 plies. For each match it prints the first bot's sole
wins, shared wins, draws and losses, how the games ended (the
:class:`pacru.Termination` values, ``max-plies`` for the arena's limit), how
many games ended by a rule before 1,000 plies, the mean plies and the time.
The figures in the documentation page "Bots" come from this script. It is a
script, not a test: the outcomes are exact for a seed, the times depend on
the machine and its load.
"""

from __future__ import annotations

import argparse
import time

from pacru.bots.arena import MatchResult, run_match
from pacru.games import CHEVRON_GAMES

# Ends that are a limit, not a rule.
_LIMITS = ("move-cap", "idle-limit", "max-plies")


def _line(game: str, result: MatchResult, seconds: float) -> str:
    first = result.entry_stats()[0]
    ends: dict[str, int] = {}
    for g in result.games:
        ends[g.termination] = ends.get(g.termination, 0) + 1
    by_rule = sum(g.termination not in _LIMITS and g.plies < 1000 for g in result.games)
    plies = sum(g.plies for g in result.games) / len(result.games)
    a, b = result.labels
    return (
        f"{game:8} {a} vs {b}: {first.wins} wins, {first.shared} shared, {first.draws} draws, "
        f"{first.losses} losses of {first.games} ({100 * first.wins / first.games:.0f}%); "
        f"by a rule before 1000 plies: {by_rule}; ends: "
        + ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
        + f"; {plies:.0f} plies per game; {seconds:.0f} s"
    )


def _match(game: str, bots: list[str], games: int, seed: int, players: int) -> None:
    specs = bots + ["random"] * (players - len(bots))
    start = time.perf_counter()
    result = run_match(game, specs, games, seed=seed)
    print(_line(game, result, time.perf_counter() - start), flush=True)


def main() -> None:
    """Run the matches and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--search-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--mirror-games", type=int, default=6)
    parser.add_argument("--only", choices=("greedy", "mcts", "mirror"), default=None)
    args = parser.parse_args()
    if args.only in (None, "greedy"):
        for game in CHEVRON_GAMES:
            _match(game, ["greedy", "random"], args.games, args.seed, args.players)
    if args.only in (None, "mcts"):
        _match("pacru", ["mcts", "random"], args.search_games, args.seed, args.players)
        _match("pacru", ["mcts", "greedy"], args.search_games, args.seed, args.players)
    if args.only in (None, "mirror"):
        _match("pacru", ["mcts", "mcts"], args.mirror_games, args.seed, args.players)


if __name__ == "__main__":
    main()
