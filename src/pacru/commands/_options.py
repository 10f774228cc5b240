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
import re
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
    "flag_message",
    "game_options",
    "output_path_problem",
    "run_seed",
    "setup_problem",
]

_NAMES = ("start_layout", "meeting_rule", "move_cap")
# The flag of each option, for messages: `pacru` users type flags, not keyword arguments.
_FLAGS = {name: "--" + name.replace("_", "-") for name in _NAMES}
_OPTION_WORD = re.compile(r"\b(" + "|".join(_NAMES) + r")\b")
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
    """Add the positional ``GAME`` (one of :data:`pacru.games.GAMES`, in any case; left out
    as None when ``optional``) and ``--players N`` (``-n``, default 2)."""
    more: dict[str, Any] = {"nargs": "?"} if optional else {}
    games = ", ".join(GAMES)
    # str.lower: the name as new_game reads it (Shacru is shacru).
    parser.add_argument(
        "game", type=str.lower, choices=GAMES, metavar="GAME", help=f"one of {games}", **more
    )
    parser.add_argument("--players", "-n", type=int, default=2, metavar="N", help="2, 3 or 4")


def finish_batch_parser(parser: argparse.ArgumentParser, run: Callable[..., int]) -> None:
    """The last options of a command that plays many games (``--no-progress``, the game
    options), and ``run`` as the function the command line calls."""
    add_no_progress_option(parser)
    add_game_options(parser)
    parser.set_defaults(func=run)


def game_options(args: argparse.Namespace, game: str | None = None) -> dict[str, Any]:
    """The game options given on the command line, as ``new_game`` keywords, for
    ``game`` (default: the ``GAME`` argument, ``args.game``).

    Raises:
        ValueError: an option given for LSD, which takes none of them; the
            message names the flags.
    """
    given = {name: getattr(args, name, None) for name in _NAMES}
    options = {name: value for name, value in given.items() if value is not None}
    game = game if game is not None else getattr(args, "game", None)
    if options and str(game).lower() == "lsd":
        flags = ", ".join(_FLAGS[name] for name in options)
        kind = "options" if len(options) > 1 else "an option"
        raise ValueError(f"{flags}: {kind} of the chevron games only, not of lsd")
    return options


def flag_message(err: Exception) -> str:
    """The message of ``err`` (from :func:`pacru.new_game`) with the option names as the
    flags that set them: ``move_cap must be ...`` reads ``--move-cap must be ...``."""
    return _OPTION_WORD.sub(lambda found: _FLAGS[found.group()], str(err))


def setup_problem(args: argparse.Namespace) -> str:
    """Why ``GAME``, ``--players`` and the game options make no game, or ``""``.

    The commands that play many games check it before they print their heading,
    so that a bad count or option is one line of error, not a started run.
    """
    from pacru.games import new_game

    try:
        new_game(args.game, args.players, **game_options(args))
    except ValueError as err:
        return flag_message(err)
    return ""


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
    return output_path_problem("--json", path)


def output_path_problem(flag: str, path: str | None) -> str:
    """Why the output file ``path`` of option ``flag`` could not be written, or ``""``
    (also for ``None``, the option not given); checked before the work that fills it."""
    if path is None:
        return ""
    target = Path(path)
    if target.is_dir():
        return f"{flag} {path}: is a folder, not a file"
    if target.exists() and not os.access(target, os.W_OK):
        return f"{flag} {path}: the file cannot be written"
    if not target.parent.is_dir() or not os.access(target.parent, os.W_OK):
        return f"{flag} {path}: no writable folder {target.parent}"
    return ""
