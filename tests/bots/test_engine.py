"""The pacru engine protocol: engines in other languages play matches; misbehaving ones forfeit.

The engines of ``tests/data/engines`` are POSIX shell scripts. None of these
tests depends on timing: the silent engine never answers (its 1.4 s deadline
always passes), the others answer at once or exit.
"""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

import pacru
from pacru.bots import MCTSBot, RandomBot, SearchBot
from pacru.bots.arena import run_match
from pacru.bots.base import Forfeit
from pacru.bots.engine import EngineBot
from pacru.bots.spec import make_bot, parse_engine_spec, parse_spec
from pacru.cli import main
from pacru.commands.engine import serve

ENGINES = Path(__file__).parent.parent / "data" / "engines"
SH = pytest.mark.skipif(sys.platform == "win32", reason="the test engines are POSIX shell scripts")
FIRST = f"engine:sh {shlex.quote(str(ENGINES / 'first_move.sh'))}"


def bad(mode: str) -> str:
    """The spec of the misbehaving engine in ``mode``: a 0.2 s budget (a 1.4 s deadline) for
    the engine that never answers, 20 s (41 s) for those that answer or exit at once."""
    budget = 0.2 if mode == "silent" else 20
    return f"engine:time_limit={budget}:sh {shlex.quote(str(ENGINES / 'misbehaving.sh'))} {mode}"


class FirstMove:
    """The shell engine's play in Python: the first legal move."""

    name = "first"

    def choose_move(self, state: pacru.GameState[object]) -> object:
        return state.legal_moves()[0]


def outcomes(specs: list[object], game: str = "lilacru") -> list[tuple[object, ...]]:
    result = run_match(game, specs, 2, seed=1)  # type: ignore[arg-type]
    return [(g.seats, g.winners, g.plies, g.termination, g.reason) for g in result.games]


def test_engine_specs_split_the_parameters_from_the_command() -> None:
    assert parse_spec("engine:./mybot --depth 3") == ("engine", {"command": "./mybot --depth 3"})
    assert parse_spec("engine:time_limit=0.5,nodes=100:./a:b") == (
        "engine",
        {"command": "./a:b", "time_limit": 0.5, "nodes": 100},
    )
    assert parse_engine_spec("depth=3:./mybot") == ("depth=3:./mybot", {})
    with pytest.raises(ValueError, match="needs a command line"):
        parse_engine_spec("time_limit=1:")
    bot = make_bot("engine:'./my bot' --fast", seed=5)
    assert isinstance(bot, EngineBot)
    assert (bot.argv, bot.seed, bot.timeout) == (["./my bot", "--fast"], 5, 60.0)


@SH
def test_a_shell_engine_plays_the_first_legal_move_it_is_given() -> None:
    assert outcomes([FIRST, "random"]) == outcomes([FirstMove(), "random"])
    assert [o[3] for o in outcomes([FIRST, "random"])] == ["no-moves", "no-moves"]


@SH
@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("illegal", "answered 'e5-e6', which is not a move: L4: e5-e6: there is no chevron on e5"),
        ("crash", "the engine exited (status 3) before answering 'go'"),
        ("silent", "no 'bestmove' within 1.4 s of 'go'"),
    ],
)
def test_a_misbehaving_engine_forfeits_and_the_match_goes_on(mode: str, why: str) -> None:
    label = bad(mode)
    assert outcomes([label, "random"]) == [
        ((0, 1), (1,), 0, "forfeit", f"{label} (green, seat 1) forfeits at ply 0: {why}"),
        ((1, 0), (0,), 1, "forfeit", f"{label} (yellow, seat 2) forfeits at ply 1: {why}"),
    ]


@SH
def test_an_engine_that_cannot_start_forfeits() -> None:
    bot = EngineBot([str(ENGINES / "no-such-engine")], seed=1)
    with pytest.raises(Forfeit, match="cannot start"):
        bot.choose_move(pacru.new_game("shacru"))


def test_pacru_engine_plays_the_bots_moves_for_the_same_seed() -> None:
    command = f"{shlex.quote(sys.executable)} -m pacru engine --bot mcts:iterations=20"
    through = outcomes([f"engine:{command}", "greedy"], "shacru")
    direct = outcomes(["mcts:iterations=20", "greedy"], "shacru")
    assert through == direct
    assert [o[3] for o in direct] == ["no-acquisition", "no-acquisition"]


USAGE = "usage: go [movetime MS] [nodes N]"


def test_serve_answers_the_protocol() -> None:
    state = pacru.new_game("shacru").apply_move("a3-b4>")
    expected = RandomBot(seed=7).choose_move(state)
    script = "\n".join(
        [
            "pacru 1",
            "isready",
            "newgame game=shacru players=2 seed=7",
            "position startpos moves a3-b4>",
            "go movetime 1000 nodes 10",
            "position " + state.to_position(),
            "frobnicate",  # unknown commands are ignored
            "go",
            "go nodes",  # malformed: an error line, and the engine goes on
            "position nonsense",
            "quit",
            "isready",  # after quit: never read
        ]
    )
    out = io.StringIO()
    assert serve("random", io.StringIO(script + "\n"), out, name="r") == 0
    lines = out.getvalue().splitlines()
    assert lines[:4] == ["id name r", "id author pacru", "pacruok", "readyok"]
    assert lines[4] == f"bestmove {expected}"
    assert lines[5].startswith("bestmove ")
    assert lines[6] == f"info string error: 'go nodes' lacks a number; {USAGE}"
    assert lines[7].startswith("info string error: ")
    assert len(lines) == 8


def test_serve_answers_an_error_to_every_malformed_go_and_goes_on() -> None:
    state = pacru.new_game("shacru")
    malformed = {
        "go nodes 0": "nodes must be at least 1, not 0",
        "go nodes -5": "nodes must be at least 1, not -5",
        "go movetime 0": "movetime must be at least 1, not 0",
        "go nodes 18446744073709551616": (
            "nodes must be at most 18446744073709551615, not 18446744073709551616"
        ),
        "go movetime 1.5": "go: movetime must be a whole number, not '1.5'",
        "go nodes ten": "go: nodes must be a whole number, not 'ten'",
        "go movetime": f"'go movetime' lacks a number; {USAGE}",
        "go depth 3": f"go: unknown or repeated 'depth'; {USAGE}",
        "go nodes 5 nodes 6": f"go: unknown or repeated 'nodes'; {USAGE}",
    }
    script = [
        "newgame game=shacru players=2 seed=7",
        "position startpos",
        *malformed,
        "go nodes 3",
        "go",
    ]
    out = io.StringIO()
    assert serve("mcts:iterations=10", io.StringIO("\n".join(script) + "\n"), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[: len(malformed)] == [f"info string error: {m}" for m in malformed.values()]
    # Each budget plays as the bot built with it (and the game's seed) plays in process.
    three = MCTSBot(seed=7, iterations=3).choose_move(state)
    ten = MCTSBot(seed=7, iterations=10).choose_move(state)
    assert lines[len(malformed) :] == [f"bestmove {three}", f"bestmove {ten}"]


def test_go_nodes_is_the_search_bots_node_budget() -> None:
    state = pacru.new_game("pacru")
    script = "newgame game=pacru players=2 seed=3\nposition startpos\ngo nodes 300\n"
    out = io.StringIO()
    assert serve("search:nodes=5", io.StringIO(script), out) == 0
    assert out.getvalue() == f"bestmove {SearchBot(seed=3, nodes=300).choose_move(state)}\n"


def test_pacru_engine_refuses_a_bad_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["engine", "--bot", "deep-blue"]) == 2
    assert "unknown bot 'deep-blue'" in capsys.readouterr().err


@SH
def test_pacru_match_prints_the_forfeits(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "lilacru", "--bot", bad("crash"), "--bot", "random", "--games", "2"]
    assert main([*argv, "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "endings: forfeit 2;" in out
    assert (
        f"Game 1: {bad('crash')} (green, seat 1) forfeits at ply 0: "
        "the engine exited (status 3) before answering 'go'"
    ) in out.splitlines()


@SH
def test_an_engine_bot_object_plays_on_after_close() -> None:
    bot = EngineBot(["sh", str(ENGINES / "first_move.sh")], seed=1)
    state = pacru.new_game("lilacru")
    first = bot.choose_move(state)
    assert first == state.legal_moves()[0]
    assert bot.identity == {"name": "first-move", "author": "pacru tests"}
    bot.close()
    assert bot.choose_move(state) == first  # a fresh program
    bot.close()
    bot.close()  # closing twice is harmless
