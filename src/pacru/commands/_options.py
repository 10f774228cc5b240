"""Options shared by the commands that play games.

The chevron games' rule options (``play``, ``match``, ``ladder``, ``selfplay``)
each map to a keyword argument of :func:`pacru.new_game`; an option left out
keeps the game's default, so the same flags serve every game. ``--max-plies``
and ``--no-progress`` serve the commands that play many games.
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pacru.games import GAMES

__all__ = [
    "add_game_and_players",
    "add_game_options",
    "add_max_plies_option",
    "add_no_progress_option",
    "add_rule_options",
    "finish_batch_parser",
    "game_options",
    "run_seed",
]

_NAMES = ("start_layout", "meeting_rule", "move_cap")
_MAX_PLIES_HELP = "stop a game after P plies and count it as a draw (default 2000)"


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--start-layout``, ``--meeting-rule`` and ``--move-cap`` in their own group."""
    group = parser.add_argument_group("game options (chevron games)")
    group.add_argument(
        "--start-layout",
        metavar="LAYOUT",
        default=None,
        help="standard (default), ap-legacy-2p or abstractplay",
    )
    add_rule_options(group)


def add_rule_options(group: Any) -> None:
    """Add ``--meeting-rule`` and ``--move-cap`` to ``group`` (a parser or argument group;
    ``pacru show`` has its own ``--start-layout``)."""
    group.add_argument(
        "--meeting-rule",
        metavar="RULE",
        default=None,
        help="Pacru: 2011 (default) or original (ruling D48)",
    )
    group.add_argument(
        "--move-cap",
        metavar="PLIES",
        type=int,
        default=None,
        help="Pacru, Azacru: end without a winner after this many plies (ruling D32)",
    )


def add_game_and_players(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    """Add the positional ``GAME`` (one of :data:`pacru.games.GAMES`; left out as None when
    ``optional``) and ``--players N`` (``-n``, default 2)."""
    more: dict[str, Any] = {"nargs": "?"} if optional else {}
    games = ", ".join(GAMES)
    parser.add_argument("game", choices=GAMES, metavar="GAME", help=f"one of {games}", **more)
    parser.add_argument("--players", "-n", type=int, default=2, metavar="N", help="2, 3 or 4")


def finish_batch_parser(parser: argparse.ArgumentParser, run: Callable[..., int]) -> None:
    """The last options of a command that plays many games (``--no-progress``, the game
    options), and ``run`` as the function the command line calls."""
    add_no_progress_option(parser)
    add_game_options(parser)
    parser.set_defaults(func=run)


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line, as ``new_game`` keywords."""
    return {name: getattr(args, name) for name in _NAMES if getattr(args, name, None) is not None}


def add_max_plies_option(parser: argparse.ArgumentParser, help_text: str = _MAX_PLIES_HELP) -> None:
    """Add ``--max-plies P`` (default 2000), the length at which a game is cut off."""
    parser.add_argument("--max-plies", type=int, default=2000, metavar="P", help=help_text)


def add_no_progress_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-progress``, which turns the progress bar off."""
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run_seed(args: argparse.Namespace) -> int:
    """``--seed``, else a fresh seed below ``2**32`` (the commands print it, to redo a run)."""
    return int(args.seed) if args.seed is not None else random.SystemRandom().randrange(2**32)


def json_path_problem(path: str | None) -> str:
    """Why the ``--json FILE`` output could not be written, or ``""`` (also for no
    ``--json``): checked before any game is played, so that a long run never ends on an
    unwritable path."""
    if path is None:
        return ""
    target = Path(path)
    if target.is_dir():
        return f"--json {path}: is a folder, not a file"
    if target.exists() and not os.access(target, os.W_OK):
        return f"--json {path}: the file cannot be written"
    if not target.parent.is_dir() or not os.access(target.parent, os.W_OK):
        return f"--json {path}: no writable folder {target.parent}"
    return ""
