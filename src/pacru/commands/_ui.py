"""Terminal output shared by the ``pacru`` subcommands.

:class:`Output` writes through ``rich`` when it is importable (the
``pacru[cli]`` extra) and with plain :func:`print` otherwise, so every
subcommand works on a bare install. Text is always written verbatim: no rich
markup or highlighting is applied to boards or moves (a move such as
``e5>(a1,a2)`` or a board line must come out exactly as the engine wrote it),
and long lines are never re-wrapped. Styles colour headings and errors, and
:meth:`Output.board` colours each player's markers, chevrons and tiles and
adds a legend; colour is used only when standard output is a terminal,
``NO_COLOR`` is unset or empty (https://no-color.org) and ``--no-color`` is
not given, so piped output is identical with and without ``rich``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pacru.base import GameState

__all__ = [
    "CommandExit",
    "Output",
    "Progress",
    "add_colour_option",
    "colour_choice",
    "have_rich",
]


class CommandExit(Exception):
    """Ends a subcommand with exit status :attr:`status`, its error line already written.

    Raised by the helpers a subcommand's ``run`` shares with others; ``run``
    returns the status.
    """

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def have_rich() -> bool:
    """Whether ``rich`` can be imported (the ``pacru[cli]`` extra is installed)."""
    try:
        import rich.console  # noqa: F401
    except ImportError:
        return False
    return True


def add_colour_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-color`` (colour is also off when ``NO_COLOR`` is set and not empty)."""
    parser.add_argument(
        "--no-color",
        "--no-colour",
        dest="no_color",
        action="store_true",
        help="no colour, even at a terminal (as a non-empty NO_COLOR environment variable)",
    )


def colour_choice(args: argparse.Namespace) -> bool | None:
    """``False`` when ``--no-color`` was given, else ``None`` (decide by the terminal)."""
    return False if getattr(args, "no_color", False) else None


def _no_color_env() -> bool:
    # https://no-color.org: any non-empty value turns colour off; an empty one does not.
    return bool(os.environ.get("NO_COLOR", ""))


class Output:
    """Where a subcommand writes: standard output for play, standard error for errors.

    Args:
        plain: never use ``rich``, even if it is installed.
        colour: ``None`` (default) colours when ``rich`` is installed, standard
            output is a terminal and ``NO_COLOR`` is unset or empty; ``False``
            never colours (``--no-color``); ``True`` always does when ``rich``
            is installed, with the 16 standard colours (tests, demos).

    Attributes:
        rich: True when output goes through ``rich`` consoles.
        colour: True when boards and headings are coloured.
    """

    def __init__(self, *, plain: bool = False, colour: bool | None = None) -> None:
        self.rich = not plain and have_rich()
        self.colour = False
        self._out: Any = None
        self._err: Any = None
        if self.rich:
            from rich.console import Console

            off = colour is False or (colour is None and _no_color_env())
            forced: dict[str, Any] = (
                {"force_terminal": True, "color_system": "standard"} if colour else {}
            )
            # Verbatim text (no markup, highlighting or re-wrapping) on both consoles.
            verbatim: dict[str, Any] = {
                "highlight": False,
                "markup": False,
                "emoji": False,
                "soft_wrap": True,
                "no_color": off,
            }
            # No file= argument: the consoles look up sys.stdout/sys.stderr at
            # each write, so redirection (and pytest's capsys) keeps working.
            self._out = Console(**verbatim, **forced)
            self._err = Console(stderr=True, **verbatim)
            self.colour = not off and bool(self._out.is_terminal)

    def line(self, text: str = "", style: str | None = None) -> None:
        """Write ``text`` and a newline to standard output; ``style`` is a rich style."""
        if self.rich:
            self._out.print(text, style=style)
        else:
            print(text, flush=True)

    def renderable(self, thing: Any) -> None:
        """Write a rich renderable (a table) to standard output; needs :attr:`rich`."""
        self._out.print(thing)

    def heading(self, text: str) -> None:
        """Write ``text`` as a bold heading line."""
        self.line(text, style="bold")

    def block(self, text: str) -> None:
        """Write a multi-line block (a board) exactly as given."""
        for row in text.splitlines():
            self.line(row)

    def board(self, state: GameState[Any]) -> None:
        """Write ``str(state)``; in colour, and with a legend under it, when :attr:`colour`."""
        if not self.colour:
            self.block(str(state))
            return
        from pacru.commands._board import legend, styled_board

        self._out.print(styled_board(state))
        note = legend(state)
        if note:
            self.line(note, "dim")

    def error(self, message: str) -> None:
        """Write ``pacru: error: <message>`` as one line to standard error."""
        text = "pacru: error: " + " ".join(message.split())
        if self.rich:
            self._err.print(text, style="bold red")
        else:
            print(text, file=sys.stderr, flush=True)

    def ask(self, prompt: str) -> str | None:
        """Read one line from standard input after showing ``prompt``.

        Returns:
            The line without surrounding white space, or ``None`` at end of
            input or on Ctrl-C (the caller then stops cleanly).
        """
        try:
            return input(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            self.line()
            return None


class Progress:
    """Progress on standard error: a transient rich bar on a terminal, else one line per step.

    Use as a context manager; :meth:`step` counts one unit of work and, when
    no bar is shown, prints the line it is given. ``enabled=False`` shows
    nothing at all.

    Args:
        total: units of work in all (games, shards).
        label: the bar's label.
        completed: units already done before this run (a resumed run).
        enabled: False for ``--no-progress``.
    """

    def __init__(self, total: int, label: str, *, completed: int = 0, enabled: bool) -> None:
        self.total = total
        self.label = label
        self.completed = completed
        self.enabled = enabled
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        if self.enabled and have_rich() and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(console=Console(stderr=True), transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total, completed=self.completed)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)

    def step(self, line: str, advance: int = 1) -> None:
        """Count ``advance`` units of work; print ``line`` when there is no bar (and progress
        is on)."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(self._task, advance=advance)
        else:
            print(line, file=sys.stderr, flush=True)
