"""The ``pacru`` command line program.

``pacru play GAME`` plays a game between random players (or you, with
``--human``); see ``pacru --help`` for every subcommand. Argument parsing uses
:mod:`argparse`; terminal output uses ``rich`` when it is installed (the
``pacru[cli]`` extra) and plain text otherwise.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from pacru._version import __version__
from pacru.commands import COMMANDS
from pacru.commands._bots import find_bots_in_cwd

__all__ = ["build_parser", "main"]


class _Version(argparse.Action):
    """``--version``: the version, then the chevron games' engine and why it is the Python one.

    argparse's own version action would rewrap the two lines into one.
    """

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from pacru.chevron.engine import describe

        sys.stdout.write(f"pacru {__version__}\nengine: {describe()}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="pacru",
        description="Play, replay and check games of Lilacru, Shacru, Azacru, Pacru and LSD.",
    )
    parser.add_argument(
        "--version", action=_Version, help="print the version and the engine in use, and exit"
    )
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", help="what to do; 'pacru COMMAND --help' for its options"
    )
    for name in COMMANDS:
        module = importlib.import_module(f"pacru.commands.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the program; returns the exit status (0 ok, 1 a game error, 2 bad usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    # A bot given as package.module:ClassName (play, match, selfplay) is found in the
    # current directory, as `python -m` would find it.
    find_bots_in_cwd()
    try:
        status: int = func(args)
    except BrokenPipeError:
        # The reader went away (`pacru show game.txt | head`): stop quietly, as rich does,
        # whichever command was writing.
        _silence_stdout()
        return 1
    return status


def _silence_stdout() -> None:
    """Point standard output at /dev/null so the interpreter's final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
