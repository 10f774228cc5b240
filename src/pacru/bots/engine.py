"""Bots as separate programs: the pacru engine protocol, both sides.

The protocol is line-based text over an engine's standard input and output,
in the spirit of UCI; ``docs/engine-protocol.rst`` is its specification.
:class:`EngineBot` runs a program (any language) and plays its answers:
it is the bot of the spec ``engine:./mybot`` (:func:`pacru.bots.spec.parse_engine_spec`).
:func:`pacru.commands.engine.serve` is the other side: it answers the
protocol with one of pacru's bots (``pacru engine --bot mcts``), so other
programs can play against them.

A program that misbehaves (answers a move that is not legal, stays silent
past its deadline, exits, or does not speak the protocol) makes
:meth:`EngineBot.choose_move` raise :class:`pacru.bots.base.Forfeit` with
the reason; :func:`pacru.bots.arena.play_task` scores the game as lost for
that seat instead of stopping the match.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any, TypeVar

from pacru.base import GameState
from pacru.bots._budget import optional_count, optional_seconds
from pacru.bots.base import Bot, Forfeit

__all__ = ["ENGINE_PARAMETERS", "PROTOCOL_VERSION", "EngineBot"]

MoveT = TypeVar("MoveT")

#: The protocol version sent in the greeting ``pacru 1``.
PROTOCOL_VERSION = 1

#: The keywords an ``engine:`` spec may give before the command
#: (:func:`pacru.bots.spec.parse_engine_spec`).
ENGINE_PARAMETERS = ("time_limit", "nodes", "timeout", "name")

#: Seconds a program has to start and answer the greeting and ``isready`` (or its
#: ``timeout``, if longer).
STARTUP_SECONDS = 10.0


class _Closed:
    """What the reader thread queues when the program's output ends."""


def _reader(stream: IO[str], lines: queue.Queue[str | _Closed]) -> None:
    for line in stream:
        lines.put(line.rstrip("\r\n"))
    lines.put(_Closed())


def _stop(proc: subprocess.Popen[str]) -> None:
    """End the program and everything it started (its own process group on POSIX)."""
    if proc.poll() is None:
        try:
            if os.name == "posix":
                os.killpg(proc.pid, signal.SIGKILL)
            else:  # pragma: no cover
                proc.kill()
        except (ProcessLookupError, PermissionError):
            pass
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class EngineBot(Bot):
    """A bot that is a separate program speaking the pacru engine protocol.

    The program is started on the first move (one process per bot, so one
    per game in a match), greeted, told the game with ``newgame`` (its seed
    included, so a seeded engine replays its games), and asked each move
    with ``position`` and ``go``; it is ended by :meth:`close` (the arena
    calls it after each game) or when the bot is garbage collected.

    Args:
        command: the program's command line, split as a POSIX shell does
            (:func:`shlex.split`; quote a path with spaces), e.g.
            ``"./mybot --depth 3"`` or ``"python -m pacru engine --bot mcts"``;
            or the argument list itself.
        seed: sent to the engine in ``newgame`` (``seed=S``); ``None`` sends
            none.
        time_limit: seconds per move, sent as ``go movetime MS``; ``None``
            sends no time (the engine uses its own budget).
        nodes: nodes (iterations, positions, whatever the engine counts) per
            move, sent as ``go nodes N``.
        timeout: seconds to wait for each ``bestmove`` before the engine
            forfeits; default ``2 * time_limit + 1``, or 60 without a time
            limit.
        name: the label in tables (default ``engine:COMMAND``).

    A bot object used for several games (a match's entry given as an
    object) starts the program again for the game after :meth:`close`.

    Raises:
        ValueError: an empty command (or one with an unclosed quote), or a
            budget out of range.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        *,
        time_limit: float | None = None,
        nodes: int | None = None,
        timeout: float | None = None,
        name: str | None = None,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise ValueError("an engine needs a command line")
        time_limit = optional_seconds("time_limit", time_limit)
        nodes = optional_count("nodes", nodes)
        timeout = optional_seconds("timeout", timeout)
        self.argv = argv
        self.seed = seed
        self.time_limit = time_limit
        self.nodes = nodes
        if timeout is None:
            timeout = 60.0 if time_limit is None else 2 * time_limit + 1
        self.timeout = timeout
        text = command if isinstance(command, str) else shlex.join(argv)
        self.name = name or f"engine:{text}"
        #: What the engine called itself (``id name``, ``id author``), after it started.
        self.identity: dict[str, str] = {}
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | _Closed] = queue.Queue()
        self._wants_legal = False
        self._game: tuple[str, int] | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # -- the program -------------------------------------------------------------------------

    def _start(self, state: GameState[Any]) -> None:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=os.name == "posix",
            )
        except OSError as err:
            raise Forfeit(f"cannot start {shlex.join(self.argv)}: {err.strerror or err}") from None
        self._proc = proc
        self._finalizer = weakref.finalize(self, _stop, proc)
        self._lines = queue.Queue()  # nothing left from an earlier program
        self._wants_legal = False
        self.identity = {}
        assert proc.stdout is not None
        threading.Thread(target=_reader, args=(proc.stdout, self._lines), daemon=True).start()
        self._send(f"pacru {PROTOCOL_VERSION}")
        _, before = self._wait("pacruok", self._startup, "the greeting 'pacru'")
        for line in before:
            words = line.split(maxsplit=2)
            if len(words) == 3 and words[0] == "id":
                self.identity[words[1]] = words[2]
            elif words[:2] == ["option", "legalmoves"]:
                self._wants_legal = True
        options = " ".join(f"{k}={v}" for k, v in sorted(_options(state).items()))
        seed = "" if self.seed is None else f" seed={self.seed}"
        self._send(f"newgame game={state.game} players={len(state.players)}{seed} {options}")
        self._sync()
        self._game = (state.game, len(state.players))

    @property
    def _startup(self) -> float:
        return max(STARTUP_SECONDS, self.timeout)

    def _send(self, line: str) -> None:
        proc = self._proc
        assert proc is not None
        assert proc.stdin is not None
        try:
            proc.stdin.write(line.rstrip() + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise Forfeit(self._exited("while being sent a command")) from None

    def _sync(self) -> None:
        self._send("isready")
        self._wait("readyok", self._startup, "'isready'")

    def _wait(self, word: str, seconds: float, what: str) -> tuple[str, list[str]]:
        """The first line whose first word is ``word``, within ``seconds``, and the lines before."""
        deadline = time.monotonic() + seconds
        before: list[str] = []
        while True:
            left = deadline - time.monotonic()
            try:
                # A wait past TIMEOUT_MAX (a time_limit of 1e300) is an OverflowError.
                line = self._lines.get(timeout=min(max(left, 0.0), threading.TIMEOUT_MAX))
            except queue.Empty:
                raise Forfeit(f"no {word!r} within {seconds:g} s of {what}") from None
            if isinstance(line, _Closed):
                raise Forfeit(self._exited(f"before answering {what}"))
            if line.split()[:1] == [word]:
                return line, before
            before.append(line)

    def _exited(self, when: str) -> str:
        proc = self._proc
        code = None if proc is None else proc.poll()
        if code is None and proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                return f"the engine closed its output {when}"
        return f"the engine exited (status {code}) {when}"

    # -- playing -----------------------------------------------------------------------------

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """The engine's answer to ``position`` and ``go`` for ``state``.

        Raises:
            GameOverError: ``state`` is over.
            Forfeit: the engine could not be started, exited, stayed silent
                past :attr:`timeout`, or answered something that is not a
                legal move of ``state`` (the reason says which).
        """
        moves = state.legal_moves()
        if not moves:
            from pacru.errors import GameOverError

            raise GameOverError("no legal move: the game is over")
        if self._proc is None:
            self._start(state)
        elif self._game != (state.game, len(state.players)):
            raise Forfeit(f"one engine bot plays one game, not {state.game} after {self._game}")
        self._send(f"position {state.to_position()}")
        if self._wants_legal:
            self._send("legalmoves " + " ".join(str(m) for m in moves))
        # At least 1 ms: a movetime of 0 is no budget the protocol accepts.
        millis = None if self.time_limit is None else max(1, round(self.time_limit * 1000))
        budget = "" if millis is None else f" movetime {millis}"
        budget += "" if self.nodes is None else f" nodes {self.nodes}"
        self._send("go" + budget)
        line, _ = self._wait("bestmove", self.timeout, "'go'")
        answer = line.split()[1] if len(line.split()) > 1 else ""
        try:
            move = state.parse_move(answer)
        except ValueError as err:
            raise Forfeit(f"answered {answer!r}, which is not a move: {err}") from None
        if not state.is_legal(move):
            raise Forfeit(f"answered the illegal move {answer!r}")
        return move

    def close(self) -> None:
        """Send ``quit`` and end the program (at once if it does not exit within a second)."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        if proc.poll() is None and proc.stdin is not None:
            try:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait(timeout=1.0)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if self._finalizer is not None:
            self._finalizer()

    def __repr__(self) -> str:
        return f"EngineBot({shlex.join(self.argv)!r}, seed={self.seed!r})"


def _options(state: GameState[Any]) -> dict[str, Any]:
    """The game's options that one ``key=value`` word can carry (the position string has all)."""
    return {
        k: v
        for k, v in state.options().items()
        if isinstance(v, str | int | float) and " " not in str(v)
    }
