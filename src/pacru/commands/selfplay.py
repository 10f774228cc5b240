"""``pacru selfplay``: self-play games written as a Parquet dataset (:mod:`pacru.selfplay`).

Usage::

    pacru selfplay GAME --players N --bot SPEC --games G --out DIR [--seed S]
                   [--workers W | --scheduler ADDRESS] [--shard-games K]
                   [--max-plies P] [--no-progress]
                   [--start-layout LAYOUT] [--meeting-rule RULE] [--move-cap PLIES]

Every seat plays the bot ``SPEC`` (``mcts:iterations=200``: the policy column
holds the search's visit shares; other bots: one-hot), or your own bot class
as ``package.module:ClassName[:key=value,...]`` (imported from the current
directory or ``PYTHONPATH``, as for ``pacru match``). The games go in shards
of ``K`` games (default 16) under ``DIR``: ``DIR/shards/*.parquet`` (one row
per decision of :mod:`pacru.encoding`), ``DIR/records/*.pgn`` (the games,
:mod:`pacru.records`) and ``DIR/manifest.json``. The shards run in this
process, in ``W`` local worker processes, or on the workers of a Dask
scheduler (``--scheduler tcp://host:8786``); the data is the same for the same
seed whatever runs it. Without ``--seed``, a run into a directory that holds
a manifest takes its seed, and a new run draws one and prints it.

Running the same command again resumes: shards already written are skipped,
so an interrupted run (Ctrl-C, a lost machine) loses at most the shards that
were being played. Needs the ``selfplay`` extra (pyarrow, distributed).

Exit status: 0 when every shard is written, 2 on bad usage (a bad bot, game,
option or count; a directory holding a different run; the extra missing; a
scheduler that does not answer), 1 if a game failed, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from pacru.commands._bots import bot_kinds, check_bots
from pacru.commands._dask import add_executor_options, executor_problem, run_games
from pacru.commands._options import (
    add_game_and_players,
    add_max_plies_option,
    finish_batch_parser,
    game_options,
    setup_problem,
)
from pacru.commands._ui import CommandExit, Output, Progress

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``selfplay`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "selfplay",
        help="play a bot against itself and write a Parquet training dataset",
        description=(
            "Play G games with every seat played by one bot, and write one Parquet row per "
            "decision (observation, legal actions, action, policy, returns) and the game "
            "records under DIR. Resumes an interrupted run in the same DIR."
        ),
    )
    add_game_and_players(parser)
    parser.add_argument(
        "--bot",
        required=True,
        metavar="SPEC",
        help=f"the bot of every seat: {bot_kinds()}, e.g. mcts:iterations=200",
    )
    parser.add_argument("--games", "-k", type=int, required=True, metavar="G", help="games to play")
    parser.add_argument("--out", "-o", required=True, metavar="DIR", help="the dataset directory")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="run seed")
    add_executor_options(parser, "shards")
    parser.add_argument(
        "--shard-games", type=int, default=16, metavar="K", help="games per shard (default 16)"
    )
    add_max_plies_option(parser, "stop a game after P plies (default 2000)")
    finish_batch_parser(parser, run)


def _seed(args: argparse.Namespace, folder: Path) -> int:
    """``--seed``, else the seed of the run already in ``folder``, else a fresh one."""
    if args.seed is not None:
        return int(args.seed)
    from pacru.selfplay import read_manifest

    try:
        return int(read_manifest(folder)["seed"])
    except (OSError, ValueError, KeyError):
        return random.SystemRandom().randrange(2**32)


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Run the self-play described by the parsed ``args``; returns the exit status."""
    out = out or Output()
    try:
        from pacru.selfplay import SelfPlayRun, run_selfplay, shard_path
    except ImportError as err:
        out.error(f"pacru selfplay needs pyarrow and numpy ({err}): pip install 'pacru[selfplay]'")
        return 2
    folder = Path(args.out)
    problem = setup_problem(args) or executor_problem(args)
    if not problem and folder.exists() and not folder.is_dir():  # found before the heading
        problem = f"--out {args.out}: is a file, not a folder"
    if problem:
        out.error(problem)
        return 2
    spec = SelfPlayRun(
        game=args.game,
        players=args.players,
        bot=args.bot,
        games=args.games,
        seed=_seed(args, folder),
        options=game_options(args),
        shard_games=args.shard_games,
        max_plies=args.max_plies,
    )
    try:
        check_bots([spec.bot], spec.game)
        spec.check()
    except ValueError as err:
        out.error(str(err))
        return 2
    out.heading(
        f"{spec.game}, {spec.players} players, {spec.bot}, {spec.games} games in "
        f"{spec.shards} shards, seed {spec.seed} -> {folder}"
    )
    there = sum(
        len(spec.shard_range(k)) for k in range(spec.shards) if shard_path(folder, k).exists()
    )
    progress = _Progress(spec.games, there, enabled=not args.no_progress)

    def play(executor: Executor | None) -> Any:
        return run_selfplay(
            spec, folder, executor=executor, workers=args.workers, progress=progress.advance
        )

    def interrupted() -> str:
        return (
            f"interrupted: {progress.done} shards written by this run; "
            "run the same command again to resume"
        )

    try:
        written = run_games(
            play, args.scheduler, progress, out, interrupted=interrupted, passing=(OSError,)
        )
    except CommandExit as stop:
        return stop.status
    except OSError as err:
        out.error(f"--out {folder}: {err.strerror or err}")
        return 2
    skipped = spec.shards - len(written)
    out.line(
        f"{len(written)} shards written ({progress.games} games, {progress.decisions} "
        f"decisions), {skipped} already there; load with pacru.selfplay.load({str(folder)!r})"
    )
    if progress.endings:
        ends = ", ".join(f"{k} {v}" for k, v in sorted(progress.endings.items()))
        out.line(f"Endings of the games written: {ends}")
    return 0


class _Progress(Progress):
    """Games written: a rich bar on a terminal, else one plain line per shard written."""

    def __init__(self, total: int, there: int, *, enabled: bool) -> None:
        super().__init__(total, "games", completed=there, enabled=enabled)
        self.done = self.games = self.decisions = 0
        self.endings: dict[str, int] = {}

    def advance(self, shard: Any) -> None:
        """Count a written shard's games (a :class:`pacru.selfplay.ShardResult`)."""
        self.done += 1
        self.games += shard.games
        self.decisions += shard.decisions
        for ending, count in shard.endings:
            self.endings[ending] = self.endings.get(ending, 0) + count
        self.step(
            f"shard {shard.index}: {shard.games} games, {shard.decisions} decisions "
            f"({self.completed + self.games}/{self.total} games there)",
            advance=shard.games,
        )
