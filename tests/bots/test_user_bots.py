"""Users' own bots in matches: objects, factories, classes and ``package.module:ClassName``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pacru.base import GameState
from pacru.bots import Bot, RandomBot
from pacru.bots.arena import MatchResult, default_labels, run_match
from pacru.bots.spec import build_bot, load_bot_class, make_bot, parse_spec
from pacru.cli import main

USER_MODULE = '''
class FirstMove:
    """Plays the first legal move; counts its moves."""

    def __init__(self, seed=None, *, offset=0):
        self.name = f"first(offset={offset})" if offset else "first"
        self.offset = offset

    def choose_move(self, state):
        moves = state.legal_moves()
        return moves[min(self.offset, len(moves) - 1)]
'''


class FirstMove:
    """A user's bot without the Bot base: it only has the two members."""

    def __init__(self) -> None:
        self.name = "first"
        self.calls = 0

    def choose_move(self, state: GameState[Any]) -> Any:
        self.calls += 1
        return state.legal_moves()[0]


def _summary(result: MatchResult) -> list[tuple[Any, ...]]:
    return [(g.seats, g.winners, g.scores, g.plies, g.termination) for g in result.games]


def test_a_bot_object_plays_every_game_itself() -> None:
    bot = FirstMove()
    assert isinstance(bot, Bot)
    result = run_match("lilacru", [bot, "random"], 2, seed=4)
    assert result.labels == ("first", "random")
    # Its moves are the first legal ones: the bot object itself chose every one of them.
    plies = [g.plies for g in result.games]
    first_seat_moves = sum((p + 1) // 2 if g.seats[0] == 0 else p // 2 for g, p in
                           zip(result.games, plies, strict=True))  # fmt: skip
    assert bot.calls == first_seat_moves > 0


def test_factories_and_classes_match_the_spec() -> None:
    """A factory or class is seeded like a spec: the same match, game for game."""
    by_spec = run_match("shacru", ["random", "greedy"], 4, seed=3)
    by_class = run_match("shacru", [RandomBot, "greedy"], 4, seed=3)
    by_factory = run_match(
        "shacru", [lambda seed: RandomBot(seed, name="random"), "greedy"], 4, seed=3
    )
    by_path = run_match("shacru", ["pacru.bots:RandomBot", "greedy"], 4, seed=3)
    assert _summary(by_spec) == _summary(by_class) == _summary(by_factory) == _summary(by_path)
    # A class by its import path is labelled by its bot's name, as the class itself is.
    assert by_class.labels == by_factory.labels == by_path.labels == ("random", "greedy")


def test_factories_run_in_worker_processes() -> None:
    one = run_match("lsd", [RandomBot, "random"], 2, seed=8, workers=1)
    two = run_match("lsd", [RandomBot, "random"], 2, seed=8, workers=2)
    assert _summary(one) == _summary(two)


def test_labels_of_objects_and_factories() -> None:
    assert default_labels([FirstMove(), RandomBot, "random"]) == ("first", "random#1", "random#2")


def test_a_class_named_by_its_spec_is_labelled_by_its_bots_name() -> None:
    """Your own class is labelled by the name its bot chose, not by its import path; specs
    whose bots share a name keep the specs, so that the tables tell them apart."""
    spec = "pacru.bots:GreedyBot:name=sampled-greedy"
    assert default_labels([spec, "mcts:iterations=2"]) == ("sampled-greedy", "mcts:iterations=2")
    assert default_labels([spec, spec]) == ("sampled-greedy#1", "sampled-greedy#2")
    other = "pacru.bots:RandomBot:name=sampled-greedy"
    assert default_labels([spec, other, "greedy"]) == (spec, other, "greedy")
    assert default_labels(["pacru.bots:GreedyBot", "greedy"]) == ("pacru.bots:GreedyBot", "greedy")
    assert default_labels(["engine:./mybot", "random"]) == ("engine:./mybot", "random")


def test_specs_name_classes_by_import_path() -> None:
    assert parse_spec("pacru.bots.mcts:MCTSBot:iterations=3") == (
        "pacru.bots.mcts:MCTSBot",
        {"iterations": 3},
    )
    assert make_bot("pacru.bots:RandomBot:uniform=moves", seed=1).name == "random(uniform=moves)"
    assert load_bot_class("pacru.bots:GreedyBot").__name__ == "GreedyBot"
    with pytest.raises(ValueError, match="cannot import 'no_such_module'"):
        make_bot("no_such_module:Bot")
    with pytest.raises(ValueError, match=r"'pacru\.bots' has no class 'Nope'"):
        make_bot("pacru.bots:Nope")
    with pytest.raises(ValueError, match=r"pacru\.bots:RandomBot has no parameter 'x'"):
        make_bot("pacru.bots:RandomBot:x=1")
    with pytest.raises(ValueError, match="did not make a bot"):
        build_bot(lambda seed: 42, 0)  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="a bot entry is"):
        build_bot(3, 0)  # type: ignore[arg-type]


def _work_beside(folder: Path, module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work in ``folder``, which holds the user's bots as ``module``; the folder is not yet on
    ``sys.path`` (the command line puts it there)."""
    (folder / f"{module}.py").write_text(USER_MODULE, encoding="utf-8")
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(folder))])


def test_cli_match_with_a_user_bot_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _work_beside(tmp_path, "my_pacru_bots", monkeypatch)
    out_json = tmp_path / "match.json"
    status = main(
        [
            "match", "--game", "lilacru", "--bot", "my_pacru_bots:FirstMove:offset=1",
            "--bot", "random", "--games", "2", "--seed", "1", "--no-progress",
            "--json", str(out_json),
        ]
    )  # fmt: skip
    assert status == 0, capsys.readouterr().err
    data = json.loads(out_json.read_text())
    assert data["bots"] == ["first(offset=1)", "random"]  # the bot's name, not its spec
    assert [e["games"] for e in data["entries"]] == [2, 2]
    assert main(["match", "--game", "lilacru", "--bot", "nowhere:Bot", "--bot", "random"]) == 2
    assert "cannot import 'nowhere'" in capsys.readouterr().err


def test_cli_selfplay_with_a_user_bot_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pacru selfplay`` finds the bot's module in the current directory, as ``match`` does."""
    pytest.importorskip("pyarrow", reason="pacru selfplay needs the selfplay extra")
    _work_beside(tmp_path, "my_pacru_selfplay_bots", monkeypatch)
    argv = ["selfplay", "lilacru", "--bot", "my_pacru_selfplay_bots:FirstMove:offset=1"]
    argv += ["--games", "1", "--out", str(tmp_path / "data"), "--seed", "3", "--no-progress"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "1 shards written (1 games, " in capsys.readouterr().out
    assert sys.path[0] == str(tmp_path)


def test_cli_play_with_a_user_bot_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pacru play --bot COLOUR=module:Class`` finds the module in the current directory."""
    _work_beside(tmp_path, "my_pacru_play_bots", monkeypatch)
    argv = ["play", "lilacru", "--players", "2", "--seed", "1", "--verbose"]
    argv += ["--bot", "yellow=my_pacru_play_bots:FirstMove:offset=1"]
    assert main(argv) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "ply 2: yellow plays a1-b2" in out  # the user bot's first move, offset 1
    assert out.rstrip().splitlines()[-2:] == [
        "Final scores (markers on the board): green 35, yellow 19",
        "Result: green wins (S-R6a, L7: no player can move)",
    ]
    assert sys.path[0] == str(tmp_path)
