"""The targets of the search bot (issue 32): matches and ladders, and its nodes per second.

Usage (from the repository root, after ``pip install -e .``; no network)::

    python benchmarks/search_strength.py [--jobs 16] [--games 200] [--ladder-games 100]
                                         [--time 0.1] [--seed 1] [--only two|many|nps]
                                         [--two-games pacru,shacru]

``two``: at Pacru-2p and Shacru-2p, ``search`` against the default ``mcts``
with the same ``time_limit`` per move (``--time`` seconds) and against
``greedy``, ``--games`` games each, seats alternating (``--two-games``: which
games, in order). ``many``: at Pacru with
3 and 4 players, a ladder of ``random``, ``greedy``, ``mcts`` and ``search``
(the last two with ``--time``): every set of ``players`` of the four bots
(four tables of three, one of four), ``--ladder-games`` games each, seats
rotated game by game; then
each bot's games, sole wins, shared wins, and win share (a shared win counts
1/k). ``nps``: nodes per second of the search from each start position.

Each match prints one line: the first bot's wins, shared wins, draws and
losses, the games ended by a rule before 1,000 plies (the Lilacru/Shacru idle
limit, D33, counts as a rule, its games also given apart; the optional move cap
and the match's ply limit do not), the end reasons and the mean plies. Games
run in ``--jobs`` worker processes (:func:`pacru.bots.arena.run_match`). The
outcomes are exact for a seed only with node budgets: with ``--time`` they
depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import itertools
import time
from typing import Any

import pacru
from pacru.bots import SearchBot
from pacru.bots.arena import MatchResult, run_match

#: Ends that are no rule of the game: the optional move cap (D32) and the match's ply
#: limit. The Lilacru/Shacru idle limit (D33, on by default) is a rule: its most
#: markers win; its games are also counted apart.
_LIMITS = ("move-cap", "max-plies")


def _ends(result: MatchResult) -> str:
    ends: dict[str, int] = {}
    for g in result.games:
        ends[g.termination] = ends.get(g.termination, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))


def _by_rule(result: MatchResult) -> str:
    ruled = sum(g.termination not in _LIMITS and g.plies < 1000 for g in result.games)
    idle = sum(g.termination == "idle-limit" for g in result.games)
    return f"{ruled}/{len(result.games)}" + (f" ({idle} at the idle limit)" if idle else "")


def _two(args: argparse.Namespace) -> None:
    t = args.time
    for game in args.two_games.split(","):
        for other in (f"mcts:time_limit={t}", "greedy"):
            start = time.perf_counter()
            result = run_match(
                game,
                [f"search:time_limit={t}", other],
                args.games,
                seed=args.seed,
                workers=args.jobs,
            )
            s = result.entry_stats()[0]
            plies = sum(g.plies for g in result.games) / len(result.games)
            print(
                f"{game}-2p search vs {other}: {s.wins}W {s.shared}S {s.draws}D {s.losses}L "
                f"of {s.games} ({100 * s.wins / s.games:.1f}%); by rule <1000 plies "
                f"{_by_rule(result)}; ends: {_ends(result)}; {plies:.0f} plies; "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )


def _many(args: argparse.Namespace) -> None:
    t = args.time
    kinds = ["random", "greedy", f"mcts:time_limit={t}", f"search:time_limit={t}"]
    for players in (3, 4):
        tally = {k: [0, 0, 0, 0.0] for k in kinds}  # games, sole, shared, share
        start = time.perf_counter()
        lines = []
        for combo in itertools.combinations(kinds, players):
            table = list(combo)
            result = run_match("pacru", table, args.ladder_games, seed=args.seed, workers=args.jobs)
            for g in result.games:
                for entry in set(g.seats):
                    tally[table[entry]][0] += 1
                for w in g.winners:
                    rec = tally[table[g.seats[w]]]
                    rec[1 if len(g.winners) == 1 else 2] += 1
                    rec[3] += 1 / len(g.winners)
            lines.append(
                f"  {' / '.join(table)}: ends {_ends(result)}; by rule <1000 plies "
                f"{_by_rule(result)}"
            )
        print(f"pacru-{players}p ladder ({time.perf_counter() - start:.0f} s)")
        print("\n".join(lines))
        ranked = sorted(tally.items(), key=lambda kv: -kv[1][3] / max(kv[1][0], 1))
        for rank, (kind, (games, sole, shared, share)) in enumerate(ranked, 1):
            print(
                f"  {rank}. {kind:24} games {games:5}  sole wins {sole:5}  shared {shared:4}  "
                f"win share {share / max(games, 1):.3f}"
            )
        print(flush=True)


def _nps(args: argparse.Namespace) -> None:
    for game, players in (("pacru", 2), ("shacru", 2), ("pacru", 3), ("pacru", 4)):
        state: pacru.GameState[Any] = pacru.new_game(game, players=players)
        best = 0.0
        for _ in range(3):
            bot = SearchBot(seed=1, time_limit=1.0)
            t0 = time.perf_counter()
            bot.choose_move(state)
            seconds = time.perf_counter() - t0
            best = max(best, bot.last_search[2] / seconds)
        print(f"{game}-{players}p start: {best:,.0f} nodes/s (best of 3, 1 s searches)", flush=True)


def main() -> None:
    """Run the selected parts and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--ladder-games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--two-games", default="pacru,shacru", help="the games of `two`, in order")
    parser.add_argument("--only", choices=("two", "many", "nps"), default=None)
    args = parser.parse_args()
    if args.only in (None, "nps"):
        _nps(args)
    if args.only in (None, "two"):
        _two(args)
    if args.only in (None, "many"):
        _many(args)


if __name__ == "__main__":
    main()
