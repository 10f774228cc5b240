"""``pacru ladder``: a round robin between bots, rated with openskill (:mod:`pacru.bots.ladder`).

Usage::

    pacru ladder GAME --bot SPEC --bot SPEC [--bot SPEC ...] [--players N] [--games K]
                 [--workers W | --scheduler ADDRESS] [--seed S] [--max-plies P]
                 [--json FILE] [--no-progress]
                 [--start-layout LAYOUT] [--meeting-rule RULE] [--move-cap PLIES]

Every table of N different bots (every pair with two players) plays K games
(default 10), seats rotated game by game, and the games are rated with
openskill's Plackett-Luce model (the ``ladder`` extra: ``pip install
"pacru[ladder]"``). Bots are given as for ``pacru match``: ``random``,
``greedy``, ``mcts:iterations=200``, or ``package.module:ClassName``. The
table, best first, gives each bot's rating (openskill's ordinal ``mu - 3 *
sigma``), ``mu`` and ``sigma``, games, sole wins, shared wins, draws and
losses; ``rich`` draws it on a terminal when installed (piped, it is plain
text). The same seed gives the same games
and the same table. Without ``--seed`` a seed is drawn and printed.

Exit status: 0 after the ladder, 2 on bad usage (an unknown bot, game or
option, fewer bots than players, openskill missing), 1 if a game failed, 130
on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import attrs

from pacru.commands._dask import (
    SchedulerError,
    add_executor_options,
    dask_executor,
    executor_problem,
)
from pacru.commands._options import (
    add_game_options,
    add_max_plies_option,
    add_no_progress_option,
    game_options,
    json_path_problem,
    run_seed,
)
from pacru.commands._ui import Output, Progress
from pacru.games import GAMES

__all__ = ["format_standings", "register", "run"]

_HEAD = ("bot", "rating", "mu", "sigma", "games", "wins", "shared", "draws", "losses")


def register(subparsers: Any) -> None:
    """Add the ``ladder`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "ladder",
        help="play a round robin between bots and rate them with openskill",
        description=(
            "Play K games at every table of N different bots (every pair with two players), "
            "rate the games with openskill and print the bots by rating."
        ),
    )
    parser.add_argument("game", choices=GAMES, metavar="GAME", help=f"one of {', '.join(GAMES)}")
    parser.add_argument("--players", "-n", type=int, default=2, metavar="N", help="2, 3 or 4")
    parser.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="SPEC",
        help="a bot (at least N): random, greedy, mcts:iterations=200, or package.module:Class",
    )
    parser.add_argument(
        "--games", "-k", type=int, default=10, metavar="K", help="games per table (default 10)"
    )
    add_executor_options(parser, "games")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="ladder seed")
    add_max_plies_option(parser)
    parser.add_argument("--json", metavar="FILE", default=None, help="write the table as JSON")
    add_no_progress_option(parser)
    add_game_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Run the ladder described by the parsed ``args``; returns the exit status."""
    from math import comb

    from pacru.bots.arena import default_labels
    from pacru.bots.ladder import run_ladder

    out = out or Output()
    try:
        import openskill  # noqa: F401
    except ImportError:
        out.error("pacru ladder needs openskill: pip install 'pacru[ladder]'")
        return 2
    specs = list(args.bot)
    if args.games < 1 or args.max_plies < 1:
        out.error("--games and --max-plies must be positive")
        return 2
    problem = executor_problem(args) or json_path_problem(args.json)
    if problem:
        out.error(problem)
        return 2
    seed = run_seed(args)
    labels = default_labels(specs)
    total = comb(len(specs), args.players) * args.games
    out.heading(
        f"{args.game}, {args.players} players, {args.games} games per table, {total} games, "
        f"seed {seed}: " + ", ".join(labels)
    )
    progress = Progress(total, "games", enabled=not args.no_progress)
    done = [0]

    def advance(result: Any) -> None:
        done[0] += 1
        progress.step(f"game {done[0]}/{total}: {result.termination} ({result.plies} plies)")

    try:
        with progress, dask_executor(args.scheduler) as executor:
            ladder = run_ladder(
                args.game,
                specs,
                args.games,
                players=args.players,
                seed=seed,
                workers=args.workers,
                executor=executor,
                options=game_options(args),
                max_plies=args.max_plies,
                labels=labels,
                progress=advance,
            )
    except (SchedulerError, ValueError) as err:
        out.error(str(err))
        return 2
    except KeyboardInterrupt:
        out.error("interrupted")
        return 130
    except Exception as err:  # a game failed in a worker: report it in one line
        out.error(f"a game failed: {type(err).__name__}: {err}")
        return 1
    standings = ladder.standings()
    _print_standings(standings, out)
    if args.json is not None:
        data = {
            "game": args.game,
            "players": args.players,
            "seed": seed,
            "games_per_table": args.games,
            "standings": [attrs.asdict(s) for s in standings],
        }
        try:
            Path(args.json).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        except OSError as err:
            out.error(f"--json {args.json}: {err.strerror or err}")
            return 2
    return 0


def _rows(standings: list[Any]) -> list[list[str]]:
    return [
        [
            s.label,
            f"{s.rating:.2f}",
            f"{s.mu:.2f}",
            f"{s.sigma:.2f}",
            str(s.games),
            str(s.wins),
            str(s.shared),
            str(s.draws),
            str(s.losses),
        ]
        for s in standings
    ]


def format_standings(standings: list[Any]) -> str:
    """The ladder table as plain text: one line per bot, best first."""
    from pacru.commands.match import _table

    return _table(list(_HEAD), _rows(standings))


def _print_standings(standings: list[Any], out: Output) -> None:
    # Piped output stays plain text, the same with and without rich.
    if not out.rich or not sys.stdout.isatty():
        out.line()
        for line in format_standings(standings).splitlines():
            out.line(line)
        return
    from rich.table import Table

    table = Table(*_HEAD)
    for column in table.columns[1:]:
        column.justify = "right"
    for row in _rows(standings):
        table.add_row(*row)
    out.renderable(table)
