"""``pacru engine``: one of pacru's bots as an engine program (:func:`serve`).

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
import sys
from typing import IO, Any

from pacru.base import GameState
from pacru.bots.spec import make_bot, spec_value
from pacru.commands._bots import bot_kinds, check_bots
from pacru.commands._ui import Output

__all__ = ["register", "run", "serve"]


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
        help=(
            f"the bot that plays: {bot_kinds()}, with parameters as in mcts:iterations=400, "
            "or package.module:Class"
        ),
    )
    parser.add_argument("--name", default=None, help="the name to give in 'id name'")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Serve the protocol until ``quit``; returns the exit status."""
    try:
        return serve(args.bot, name=args.name)
    except ValueError as err:
        (out or Output()).error(str(err))
        return 2


def serve(
    spec: str,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    *,
    name: str | None = None,
) -> int:
    """Answer the engine protocol on ``stdin``/``stdout`` with the bot ``spec``.

    The bot is built afresh by :func:`pacru.bots.make_bot` at each
    ``newgame``, with its ``seed=`` (else a fresh seed). ``go movetime MS``
    sets the bot's ``time_limit`` and ``go nodes N`` its ``iterations``
    for that move, when the bot has them; a plain ``go`` keeps the spec's
    budget, so the engine plays the moves the bot plays in process for the
    same seed. Unknown commands are ignored, as UCI engines do; a command
    that cannot be obeyed answers ``info string error: ...``.

    Returns:
        0 after ``quit`` or the end of the input.

    Raises:
        ValueError: a bad spec, or a bot this pacru cannot run
            (:func:`pacru.commands._bots.check_bots`; checked before the greeting).
    """
    check_bots([spec])
    src = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    session = _Session(spec)

    def say(*lines: str) -> None:
        for line in lines:
            out.write(line + "\n")
        out.flush()

    for raw in src:
        words = raw.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "quit":
            break
        if command == "pacru":
            say(f"id name {name or spec}", "id author pacru", "pacruok")
        elif command == "isready":
            say("readyok")
        else:
            try:
                answer = session.handle(command, args)
            except (ValueError, LookupError) as err:
                say(f"info string error: {err}")
                continue
            if answer is not None:
                say(answer)
    return 0


class _Session:
    """The engine side's game: the bot, the rules' options and the position to search."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.game = "pacru"
        self.players = 2
        self.options: dict[str, Any] = {}
        self.bot: Any = None
        self.state: GameState[Any] | None = None

    def handle(self, command: str, args: list[str]) -> str | None:
        if command == "newgame":
            pairs = dict(a.partition("=")[::2] for a in args)
            self.game = pairs.pop("game", "pacru")
            self.players = int(pairs.pop("players", "2"))
            seed = pairs.pop("seed", None)
            self.options = {k: spec_value(v) for k, v in pairs.items()}
            self.bot = make_bot(self.spec, None if seed is None else int(seed))
            self.state = None
        elif command == "position":
            self.state = self._position(args)
        elif command == "go":
            return self._go(args)
        return None

    def _position(self, args: list[str]) -> GameState[Any]:
        from pacru.games import from_position, new_game

        cut = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:cut], args[cut + 1 :]
        if head == ["startpos"]:
            state = new_game(self.game, self.players, **self.options)
        else:
            state = from_position(" ".join(head))
        for text in moves:
            state = state.apply_move(text)
        return state

    def _go(self, args: list[str]) -> str:
        if self.state is None:
            raise ValueError("go before position")
        if self.bot is None:
            self.bot = make_bot(self.spec, None)
        limits = dict(zip(args[::2], args[1::2], strict=False))
        bot = self.bot
        saved = {k: getattr(bot, k) for k in ("time_limit", "iterations") if hasattr(bot, k)}
        try:
            if "movetime" in limits and "time_limit" in saved:
                bot.time_limit = int(limits["movetime"]) / 1000
            if "nodes" in limits and "iterations" in saved:
                bot.iterations = int(limits["nodes"])
            move = bot.choose_move(self.state)
        finally:
            for key, value in saved.items():
                setattr(bot, key, value)
        return f"bestmove {move}"
