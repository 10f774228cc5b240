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
import inspect
import re
import sys
from typing import IO, Any

from pacru.base import GameState
from pacru.bots._budget import UINT64_MAX, count
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
    gives the bot the ``time_limit`` ``MS / 1000`` and ``go nodes N`` its
    ``nodes`` (``iterations`` for MCTS), when the bot takes them: the
    spec's bot built with these parameters too (and the same seed), one
    per budget and game, so a budget sent with every ``go`` plays the moves
    the bot with that budget plays in process; a plain ``go`` keeps the
    spec's budget. ``MS`` and ``N`` are whole numbers from 1 to 2**64 - 1.
    Unknown commands are ignored, as UCI engines do; a command that cannot
    be obeyed (a malformed ``go`` included, checked before any bot is
    touched) answers ``info string error: ...`` and the engine goes on.

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
        self.seed: int | None = None
        #: The bots of this game, by their ``go`` parameters (() for a plain ``go``).
        self.bots: dict[tuple[tuple[str, Any], ...], Any] = {}
        self.state: GameState[Any] | None = None

    def handle(self, command: str, args: list[str]) -> str | None:
        if command == "newgame":
            pairs = dict(a.partition("=")[::2] for a in args)
            self.game = pairs.pop("game", "pacru")
            self.players = int(pairs.pop("players", "2"))
            seed = pairs.pop("seed", None)
            self.options = {k: spec_value(v) for k, v in pairs.items()}
            self.seed = None if seed is None else int(seed)
            self.bots = {(): make_bot(self.spec, self.seed)}
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
        limits = _go_limits(args)  # before anything else: a malformed go touches nothing
        if self.state is None:
            raise ValueError("go before position")
        if () not in self.bots:
            self.bots[()] = make_bot(self.spec, self.seed)
        overrides = _overrides(self.bots[()], limits)
        key = tuple(sorted(overrides.items()))
        if key not in self.bots:
            # A bot of its own per budget: the game's bot is never changed past its checks.
            self.bots[key] = make_bot(self.spec, self.seed, overrides=overrides)
        move = self.bots[key].choose_move(self.state)
        return f"bestmove {move}"


def _go_limits(args: list[str]) -> dict[str, int]:
    """The limits of ``go [movetime MS] [nodes N]`` (the words after ``go``), by word.

    Raises:
        ValueError: a word other than ``movetime`` and ``nodes``, one given
            twice or without its number, or a number that is not a whole
            number from 1 to 2**64 - 1.
    """
    usage = "go [movetime MS] [nodes N]"
    if len(args) % 2:
        raise ValueError(f"{' '.join(['go', *args])!r} lacks a number; usage: {usage}")
    limits: dict[str, int] = {}
    for word, text in zip(args[::2], args[1::2], strict=True):
        if word not in ("movetime", "nodes") or word in limits:
            raise ValueError(f"go: unknown or repeated {word!r}; usage: {usage}")
        if not re.fullmatch(r"-?[0-9]+", text):
            raise ValueError(f"go: {word} must be a whole number, not {text!r}")
        limits[word] = count(word, int(text), 1, UINT64_MAX)
    return limits


def _overrides(bot: Any, limits: dict[str, int]) -> dict[str, Any]:
    """The constructor parameters of ``bot``'s class that ``limits`` set (those it takes)."""
    taken = inspect.signature(type(bot)).parameters
    out: dict[str, Any] = {}
    if "movetime" in limits and "time_limit" in taken:
        out["time_limit"] = limits["movetime"] / 1000
    for name in ("nodes", "iterations"):
        if "nodes" in limits and name in taken:
            out[name] = limits["nodes"]
            break
    return out
