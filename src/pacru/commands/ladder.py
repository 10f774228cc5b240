"""``pacru ladder``: a round robin between bots, every game kept, Elo ratings.

The command of :mod:`pacru.bots.ladder`.

Usage::

    pacru ladder GAME --bot SPEC --bot SPEC [--bot SPEC ...] [--players N] [--games K]
                 [--workers W | --scheduler ADDRESS] [--seed S] [--max-plies P]
                 [--out DIR] [--json FILE] [--no-progress]
                 [--start-layout LAYOUT] [--meeting-rule RULE] [--move-cap PLIES]

Every table of N different bots (every pair with two players) plays K games
(default 10), seats rotated game by game. Bots are given as for ``pacru
match``: ``random``, ``greedy``, ``mcts:iterations=200``, ``engine:./mybot``
or ``package.module:ClassName``. The table, best first, gives each bot's Elo
rating (a Bradley-Terry fit of all games, ``random`` at 0, else the mean of
the bots; a line under the table says which) with its 95%
bootstrap interval, games, sole wins, shared wins, draws, losses and
openskill's rating ``mu - 3 * sigma`` (the ``ladder`` extra: ``pip install
"pacru[ladder]"``); then the head-to-head table, each pair's pairwise wins,
draws and losses. ``rich`` draws the tables on a terminal when installed
(piped, they are plain text). The same seed gives the same games and the
same tables. Without ``--seed`` a seed is drawn and printed.

``--out DIR`` writes ``DIR/games.jsonl`` (the ladder, then every game as it
finishes: seats, bots, winners, scores, end and its reason, plies, record),
``DIR/ladder.json`` (standings and head to head) and ``DIR/ratings.svg``
(the ratings drawn). Run the same command again with the same ``--out`` and
the ladder continues where it stopped (after Ctrl-C, a crash, or with more
``--games``), to the same result as one uninterrupted run; the seed is then
read from the games file when ``--seed`` is not given.

Exit status: 0 after the ladder, 2 on bad usage (an unknown bot, game or
option, fewer bots than players, openskill missing), 1 if a game failed, 130
on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs

from pacru.commands._bots import bot_kinds, check_bots
from pacru.commands._dask import add_executor_options, executor_problem, run_games
from pacru.commands._options import (
    add_game_and_players,
    add_max_plies_option,
    finish_batch_parser,
    game_options,
    json_path_problem,
    run_seed,
    setup_problem,
)
from pacru.commands._ui import CommandExit, Output, Progress

__all__ = ["format_head_to_head", "format_standings", "register", "run", "scale_note"]

_HEAD = ("bot", "elo", "[95%]", "games", "wins", "shared", "draws", "losses", "openskill")


def register(subparsers: Any) -> None:
    """Add the ``ladder`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "ladder",
        help="play a round robin between bots and rate them on the Elo scale",
        description=(
            "Play K games at every table of N different bots (every pair with two players), "
            "rate them on the Elo scale (random at 0, else the mean) and print the bots by "
            "rating and the head-to-head results; --out keeps every game and makes the "
            "ladder resumable."
        ),
    )
    add_game_and_players(parser)
    parser.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="SPEC",
        help=(
            f"a bot (at least N): {bot_kinds()}, with parameters as in mcts:iterations=200, "
            "or package.module:Class"
        ),
    )
    parser.add_argument(
        "--games", "-k", type=int, default=10, metavar="K", help="games per table (default 10)"
    )
    add_executor_options(parser, "games")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="ladder seed")
    add_max_plies_option(parser)
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help="write DIR/games.jsonl, ladder.json, ratings.svg; rerun to continue the ladder",
    )
    parser.add_argument("--json", metavar="FILE", default=None, help="write the table as JSON")
    finish_batch_parser(parser, run)


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
    problem = setup_problem(args) or executor_problem(args) or json_path_problem(args.json)
    if not problem and len(specs) < args.players:
        problem = f"a ladder of {args.players}-player games needs at least {args.players} bots"
    if not problem and args.out is not None and Path(args.out).is_file():
        problem = f"--out {args.out}: is a file, not a folder"
    if problem:  # before the heading: a usage error is one line
        out.error(problem)
        return 2
    try:
        check_bots(specs, args.game)
    except ValueError as err:
        out.error(str(err))
        return 2
    out_dir = None if args.out is None else Path(args.out)
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            out.error(f"--out {args.out}: {err.strerror or err}")
            return 2
    seed = _resumed_seed(out_dir) if args.seed is None and out_dir is not None else None
    seed = run_seed(args) if seed is None else seed
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

    def play(executor: Executor | None) -> Any:
        return run_ladder(
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
            games_file=None if out_dir is None else out_dir / "games.jsonl",
        )

    kept = " (the finished games are kept: run it again to continue)" if out_dir else ""
    try:
        ladder = run_games(
            play, args.scheduler, progress, out, interrupted=lambda: f"interrupted{kept}"
        )
    except CommandExit as stop:
        return stop.status
    standings = ladder.standings()
    _print_standings(standings, out)
    out.line(scale_note(ladder))
    out.line()
    out.line("Head to head: the row's pairwise wins-draws-losses against each column")
    for line in format_head_to_head(ladder, standings).splitlines():
        out.line(line)
    data = {
        "game": args.game,
        "players": args.players,
        "seed": seed,
        "games_per_table": args.games,
        "anchor": _anchor_label(ladder),
        "standings": [attrs.asdict(s) for s in standings],
        "head_to_head": [attrs.asdict(h) for h in ladder.head_to_head()],
    }
    text = json.dumps(data, indent=1) + "\n"
    targets = [] if args.json is None else [("--json", Path(args.json), text)]
    if out_dir is not None:
        from pacru.bots.ratings import EloRating, ratings_svg

        title = f"{args.game}, {args.players} players, {args.games} games per table, seed {seed}"
        elo = [EloRating(s.label, s.elo, s.elo_low, s.elo_high) for s in standings]
        picture = ratings_svg(elo, title, zero=_zero(ladder))
        targets += [
            ("--out", out_dir / "ladder.json", text),
            ("--out", out_dir / "ratings.svg", picture),
        ]
    for option, path, content in targets:
        try:
            path.write_text(content, encoding="utf-8")
        except OSError as err:
            out.error(f"{option} {path}: {err.strerror or err}")
            return 2
    if out_dir is not None:
        out.line()
        out.line(f"Games, standings and ratings picture written to {out_dir}/")
    return 0


def _anchor_label(ladder: Any) -> str | None:
    """The label of the bot rated 0, or None when the mean of the ratings is 0."""
    anchor = ladder.anchor()
    return None if anchor is None else str(ladder.labels[anchor])


def _zero(ladder: Any) -> str:
    anchor = _anchor_label(ladder)
    return "the mean of the bots = 0" if anchor is None else f"{anchor} = 0"


def scale_note(ladder: Any) -> str:
    """The line under the table that says what 0 is on the Elo scale: ``random`` (the
    first bot labelled so, :meth:`pacru.bots.ladder.LadderResult.anchor`), else the mean.

    >>> from pacru.bots.ladder import LadderResult
    >>> scale_note(LadderResult(("greedy", "random"), (), ()))
    'Elo relative to random = 0.'
    >>> scale_note(LadderResult(("greedy", "mcts"), (), ()))
    'Elo relative to the mean of the bots = 0 (no random bot to anchor the scale).'
    """
    if ladder.anchor() is None:
        return f"Elo relative to {_zero(ladder)} (no random bot to anchor the scale)."
    return f"Elo relative to {_zero(ladder)}."


def _resumed_seed(folder: Path) -> int | None:
    """The seed of the ladder in ``folder/games.jsonl``, if there is one."""
    try:
        with (folder / "games.jsonl").open(encoding="utf-8") as lines:
            seed = json.loads(lines.readline()).get("seed")
    except (OSError, ValueError, AttributeError):
        return None
    return seed if isinstance(seed, int) else None


def format_head_to_head(ladder: Any, standings: list[Any]) -> str:
    """The head-to-head table as text: rows and columns in ``standings`` order."""
    from pacru.commands.match import _table

    order = [s.label for s in standings]
    cells = {(h.label, h.opponent): f"{h.wins}-{h.draws}-{h.losses}" for h in ladder.head_to_head()}
    rows = [
        [f"{i + 1}. {a}", *(("-" if a == b else cells.get((a, b), "")) for b in order)]
        for i, a in enumerate(order)
    ]
    return _table(["bot", *(str(i + 1) for i in range(len(order)))], rows)


def _rows(standings: list[Any]) -> list[list[str]]:
    return [
        [
            s.label,
            f"{s.elo:.0f}",
            f"[{s.elo_low:.0f}, {s.elo_high:.0f}]",
            str(s.games),
            str(s.wins),
            str(s.shared),
            str(s.draws),
            str(s.losses),
            f"{s.rating:.2f}",
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
