"""Every example of docs/engine-protocol.rst, checked against the engine and pacru's side of it.

The page shows two conversations (``>`` what pacru or the other program sends, ``<`` what the
engine answers), a forfeit line and some ``--bot`` specs. Each conversation is replayed: the
first by pacru's :class:`~pacru.bots.engine.EngineBot` driving the shell engine of
``tests/data/engines``, the second by :func:`pacru.commands.engine.serve`; both must give the
page's lines exactly, so a position string or an answer the engine no longer gives fails here.
"""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

import pacru
from pacru.bots import make_bot
from pacru.bots.arena import run_match
from pacru.bots.engine import EngineBot
from pacru.bots.spec import parse_spec
from pacru.commands.engine import serve

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "engine-protocol.rst"
ENGINES = ROOT / "tests" / "data" / "engines"
SH = pytest.mark.skipif(sys.platform == "win32", reason="the test engines are POSIX shell scripts")


def text_blocks() -> list[list[str]]:
    """The lines of each ``.. code-block:: text`` of the page, indentation removed."""
    blocks: list[list[str]] = []
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() != ".. code-block:: text":
            continue
        block: list[str] = []
        for body in lines[i + 2 :]:
            if body and not body.startswith("   "):
                break
            block.append(body[3:])
        while block and not block[-1]:
            block.pop()
        blocks.append(block)
    return blocks


def conversations() -> list[list[str]]:
    return [b for b in text_blocks() if b and all(line[:2] in {"> ", "< "} for line in b)]


def test_the_page_shows_two_conversations() -> None:
    # Each is replayed below: a third would need a replay of its own.
    assert [c[0] for c in conversations()] == ["> pacru 1", "> pacru 1"]


class Recording(EngineBot):
    """An engine bot that writes down the conversation, in the page's notation."""

    def __init__(self, argv: list[str], **kwargs: object) -> None:
        super().__init__(argv, **kwargs)  # type: ignore[arg-type]
        self.log: list[str] = []

    def _send(self, line: str) -> None:
        self.log.append("> " + line.rstrip())
        super()._send(line)

    def _wait(self, word: str, seconds: float, what: str) -> tuple[str, list[str]]:
        line, before = super()._wait(word, seconds, what)
        self.log.extend("< " + b for b in [*before, line])
        return line, before


@SH
def test_the_first_conversation_is_what_pacru_and_the_shell_engine_say() -> None:
    engine = Recording(["sh", str(ENGINES / "first_move.sh")], seed=1234, time_limit=0.5)
    greedy = make_bot("greedy", 7)
    state = pacru.new_game("shacru", players=2)
    state = state.apply_move(engine.choose_move(state))
    reply = greedy.choose_move(state)
    assert str(reply) == "a1-b2"  # as the page says yellow played
    state = state.apply_move(reply)
    state.apply_move(engine.choose_move(state))
    engine.close()  # sends quit, outside the recording
    assert [*engine.log, "> quit"] == conversations()[0]


def test_the_second_conversation_is_what_pacru_engine_answers() -> None:
    conversation = conversations()[1]
    sent = "".join(line[2:] + "\n" for line in conversation if line.startswith("> "))
    out = io.StringIO()
    assert serve("greedy", io.StringIO(sent), out) == 0
    answered = [line[2:] for line in conversation if line.startswith("< ")]
    assert out.getvalue().splitlines() == answered


@pytest.mark.parametrize("index", [0, 1])
def test_each_position_and_legalmoves_line_is_a_real_one(index: int) -> None:
    """A ``position`` line reads as a position (or is refused where the engine answers an
    error); ``legalmoves`` lists its moves in order; a ``bestmove`` is legal there."""
    lines = conversations()[index]
    start: pacru.GameState[Any] | None = None
    state: pacru.GameState[Any] | None = None
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        command, _, rest = line[2:].partition(" ")
        if command == "newgame":
            options = dict(word.split("=") for word in rest.split())
            start = pacru.new_game(options["game"], players=int(options["players"]))
        elif command == "position" and after.startswith("< info string error: "):
            with pytest.raises(pacru.NotationError) as refused:
                pacru.from_position(rest)
            assert after == f"< info string error: {refused.value}"
        elif command == "position":
            assert start is not None
            text, _, moves = rest.partition(" moves ")
            state = start if text == "startpos" else pacru.from_position(text)
            for move in moves.split():
                state = state.apply_move(move)
        elif command == "legalmoves":
            assert state is not None
            assert rest.split() == [str(m) for m in state.legal_moves()]
        elif command == "bestmove":
            assert state is not None
            assert state.is_legal(state.parse_move(rest))


@SH
def test_the_forfeit_line_is_what_pacru_match_prints() -> None:
    (line,) = [b[0] for b in text_blocks() if b and b[0].startswith("Game 1: ")]
    command = f"sh {shlex.quote(str(ENGINES / 'misbehaving.sh'))} illegal"
    result = run_match("lilacru", [f"engine:{command}", "random"], 1, seed=1)
    reason = result.games[0].reason
    assert reason is not None
    assert f"Game 1: {reason}".replace(f"engine:{command}", "engine:./mybot") == line


def test_the_bot_specs_of_the_page_parse() -> None:
    parsed = []
    for block in text_blocks():
        for line in block:
            if line.startswith("pacru "):
                words = shlex.split(line)
                parsed += [parse_spec(words[i + 1]) for i, w in enumerate(words) if w == "--bot"]
    assert parsed == [
        ("engine", {"command": "./mybot"}),
        ("mcts", {}),
        ("engine", {"command": "python3 my_bot.py --depth 3", "time_limit": 0.5}),
        ("greedy", {}),
        ("random", {}),
        ("engine", {"command": "pacru engine --bot greedy"}),
        ("mcts", {}),
    ]
