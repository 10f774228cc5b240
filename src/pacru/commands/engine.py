"""``pacru engine``: one of pacru's bots as an engine program (:func:`pacru.bots.engine.serve`).

Usage::

    pacru engine [--bot SPEC] [--name NAME]

Reads commands of the pacru engine protocol (``docs/engine-protocol.rst``)
from standard input and answers on standard output, with the bot ``SPEC``
(default ``mcts``; any spec of ``pacru match``, e.g.
``mcts:iterations=800``), built afresh with the seed of each ``newgame``.
Other programs (a GUI, a tournament manager, a bot in another language)
can then play against pacru's bots. ``pacru match --bot "engine:pacru
engine --bot greedy"`` plays through the protocol, the same moves as
``--bot greedy`` for the same seed.

Exit status: 0 after ``quit`` or the end of the input, 2 on a bad spec.
"""

from __future__ import annotations

import argparse
from typing import Any

from pacru.commands._ui import Output

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``engine`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "engine",
        help="answer the pacru engine protocol on stdin/stdout with a bot",
        description=(
            "Speak the pacru engine protocol (a UCI-like text protocol) on standard input "
            "and output, choosing moves with the bot SPEC."
        ),
    )
    parser.add_argument(
        "--bot",
        default="mcts",
        metavar="SPEC",
        help="the bot that plays: random, greedy, mcts:iterations=400, package.module:Class",
    )
    parser.add_argument("--name", default=None, help="the name to give in 'id name'")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Serve the protocol until ``quit``; returns the exit status."""
    from pacru.bots.engine import serve

    try:
        return serve(args.bot, name=args.name)
    except ValueError as err:
        (out or Output()).error(str(err))
        return 2
