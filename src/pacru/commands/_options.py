"""The chevron games' rule options on the command line: ``play``, ``match``, ``selfplay``.

Each option maps to a keyword argument of :func:`pacru.new_game`; an option
left out keeps the game's default, so the same flags serve every game.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_game_options", "game_options"]

_NAMES = ("start_layout", "meeting_rule", "move_cap")


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--start-layout``, ``--meeting-rule`` and ``--move-cap`` in their own group."""
    group = parser.add_argument_group("game options (chevron games)")
    group.add_argument(
        "--start-layout",
        metavar="LAYOUT",
        default=None,
        help="standard (default), ap-legacy-2p or abstractplay",
    )
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


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line, as ``new_game`` keywords."""
    return {name: getattr(args, name) for name in _NAMES if getattr(args, name, None) is not None}
