"""The command line of issue 16: play against bots and from positions, LSD positions in
show/replay, match path checks before playing, complete help texts."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pacru.cli import build_parser, main
from pacru.commands import COMMANDS


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_play_against_bots_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("play", "shacru", "--bot", "yellow=greedy", "--bot", "green=random", "--seed", "3")
    status, first, err = _run(capsys, *argv, "-q")
    assert (status, err) == (0, "")
    assert first.splitlines()[-2:] == [
        "Final scores (markers on the board): green 16, yellow 59",
        "Result: yellow wins (S-R6a, L7: no player can move)",
    ]
    assert _run(capsys, *argv, "-q")[1] == first


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("blue=greedy", "--bot blue=greedy: 'blue' is not a player; players: green, yellow"),
        ("yellow", "--bot yellow: expected COLOUR=SPEC, e.g. yellow=greedy"),
        ("yellow=chess", "unknown bot 'chess'"),
    ],
)
def test_play_bad_bot_exits_2(capsys: pytest.CaptureFixture[str], bot: str, message: str) -> None:
    status, _, err = _run(capsys, "play", "shacru", "--bot", bot)
    assert status == 2
    assert message in err


def test_play_from_a_position_text_or_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Lilacru position played out to its end {L7}, and an LSD one to a row {LSD 2.4}."""
    text = "lilacru players=red,yellow chevrons=red:e1N;yellow:e9S idle=0"
    status, out, err = _run(capsys, "play", "--position", text, "--seed", "1")
    assert (status, err) == (0, "")
    assert out.startswith("lilacru: 2 players (red, yellow), seed 1\n")
    assert out.splitlines()[-1] == "Result: yellow wins (S-R6a, L7: no player can move)"
    path = tmp_path / "position.txt"
    path.write_text("lsd red:B,yellow:W 0B+NESW@0,0 - yellow\n", encoding="utf-8")
    status, out, err = _run(capsys, "play", "lsd", "--position", str(path), "-q", "--seed", "2")
    assert (status, err) == (0, "")
    assert "Result: " in out
    assert out.splitlines()[-1] == "Result: yellow wins (LSD 2.4: a row of the mover's own tiles)"
    status, _, err = _run(capsys, "play", "pacru", "--position", str(path))
    assert status == 2
    assert err == "pacru: error: --position is a lsd position, not pacru\n"


@pytest.mark.parametrize("flag", [("--players", "3"), ("--move-cap", "50")])
def test_play_position_refuses_players_and_options(
    capsys: pytest.CaptureFixture[str], flag: tuple[str, str]
) -> None:
    """A position names its players and options: a flag that would be ignored is an error."""
    text = "lilacru players=red,yellow chevrons=red:e1N;yellow:e9S"
    status, out, err = _run(capsys, "play", "--position", text, *flag)
    assert (status, out) == (2, "")
    assert "--position fixes the players and the game options" in err


def test_show_and_replay_recognise_lsd_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lsd.txt"
    path.write_text("lsd red:B,yellow:W 0B+NESW@0,0 - yellow\n", encoding="utf-8")
    status, out, err = _run(capsys, "replay", str(path), "-q")
    assert (status, err) == (0, "")
    assert out == (
        "position: lsd, 2 players (red, yellow), 0 plies\n"
        "Scores (tiles on the field): red 1, yellow 0\n"
        "Result: unfinished (*), yellow to move\n"
    )
    status, out, err = _run(capsys, "show", str(path))
    assert (status, err) == (0, "")
    assert "yellow to move" in out


def test_match_checks_its_output_paths_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ("match", "-g", "shacru", "--bot", "random", "--bot", "random", "--games", "2")
    afile = tmp_path / "file"
    afile.write_text("", encoding="utf-8")
    missing = tmp_path / "no" / "such" / "dir"
    cases = [
        (("--json", str(tmp_path)), f"--json {tmp_path}: is a folder, not a file"),
        (("--json", str(missing / "m.json")), f"--json {missing / 'm.json'}: no writable folder"),
        (("--record", str(afile)), f"--record {afile}: is a file, not a folder"),
    ]
    for extra, message in cases:
        status, out, err = _run(capsys, *base, "--no-progress", *extra)
        assert status == 2
        assert out == ""  # nothing was played
        assert err.startswith(f"pacru: error: {message}")


#: A command line per command that takes --bot, the search bot in its seat.
_SEARCH_LINES = [
    ("play", "pacru", "--bot", "yellow=search"),
    ("engine", "--bot", "search"),
    ("match", "pacru", "--bot", "search", "--bot", "random", "--no-progress"),
    ("ladder", "pacru", "--bot", "search", "--bot", "random", "--no-progress"),
    ("selfplay", "pacru", "--bot", "search", "--games", "1", "--no-progress", "--out"),
]


def _search_line(argv: tuple[str, ...], tmp_path: Path, game: str = "pacru") -> list[str]:
    """The command line with GAME (and play's colour) for ``game``; selfplay's --out in tmp."""
    seat = "red=search" if game == "lsd" else "yellow=search"
    line = [seat if a == "yellow=search" else game if a == "pacru" else a for a in argv]
    return [*line, str(tmp_path / "out")] if argv[0] == "selfplay" else line


@pytest.mark.parametrize("argv", _SEARCH_LINES, ids=lambda argv: argv[0])
def test_every_command_refuses_the_search_bot_without_the_extension_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
) -> None:
    """A build without pacru._native cannot run ``search``: one error line, exit 2, nothing
    played (SearchUnavailableError no longer escapes as a traceback)."""
    import sys

    import pacru

    monkeypatch.setitem(sys.modules, "pacru._native", None)
    monkeypatch.delattr(pacru, "_native", raising=False)
    status, out, err = _run(capsys, *_search_line(argv, tmp_path))
    assert (status, out) == (2, "")
    given = "--bot yellow=search" if argv[0] == "play" else "--bot search"
    assert err.startswith(f"pacru: error: {given}: SearchBot needs pacru's native extension")
    assert err.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", _SEARCH_LINES[:1] + _SEARCH_LINES[2:], ids=lambda a: a[0])
def test_every_command_refuses_the_search_bot_in_lsd_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """``search`` plays the chevron games only: refused before the first move, not by a
    ValueError out of its first choose_move."""
    status, out, err = _run(capsys, *_search_line(argv, tmp_path, "lsd"))
    assert (status, out) == (2, "")
    given = "--bot red=search" if argv[0] == "play" else "--bot search"
    assert err == (
        f"pacru: error: {given}: this bot plays lilacru, shacru, azacru, pacru, not lsd\n"
    )


@pytest.mark.parametrize("command", ["play", "match", "ladder", "selfplay", "engine"])
def test_the_bot_help_lists_every_registered_bot(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """The --bot help names each kind of pacru.bots.BOTS, read from the registry when the
    parser is built (a kind registered later shows too)."""
    from pacru.bots import BOTS, RandomBot

    def bot_help() -> str:
        helps = [
            str(action.help)
            for name, action in _actions(build_parser(), "pacru")
            if name == f"pacru {command}" and "--bot" in action.option_strings
        ]
        assert len(helps) == 1
        return helps[0]

    assert "random, greedy, mcts, search, network" in bot_help()
    monkeypatch.setitem(BOTS, "uniform", RandomBot)
    assert "random, greedy, mcts, search, network, uniform" in bot_help()


def _actions(parser: argparse.ArgumentParser, name: str) -> list[tuple[str, argparse.Action]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                found.extend(_actions(subparser, f"{name} {sub}"))
        found.append((name, action))
    return found


def test_every_option_has_a_help_text() -> None:
    """Complete --help texts (no missing help, no literal "%%" left by argparse)."""
    parser = build_parser()
    for name, action in _actions(parser, "pacru"):
        if isinstance(action, argparse._SubParsersAction):
            continue
        assert action.help, f"{name} {action.option_strings or action.dest} has no help"
    for command in COMMANDS:
        with pytest.raises(SystemExit):
            main([command, "--help"])


def test_help_pages_have_no_doubled_percent(capsys: pytest.CaptureFixture[str]) -> None:
    for command in COMMANDS:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "%%" not in out
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    assert "95% confidence" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("body", "fmt", "message"),
    [
        ("[" * 100_000, "abstractplay", "not JSON that can be read: nested too deeply"),
        ("[" * 100_000, "auto", "malformed tag pair"),
        (
            '{"game": "pacru", "players": 2, "moves": [], "final": {"chevrons": [[]]}}',
            "auto",
            "the record's final position is malformed: 'chevrons' must be a list of "
            "[field, player, facing]",
        ),
    ],
)
def test_replay_of_fuzzed_abstractplay_input_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, fmt: str, message: str
) -> None:
    """Deeply nested JSON and a "final" with an empty chevron entry: exit 1 and one line on
    standard error, no RecursionError or IndexError traceback."""
    path = tmp_path / "game.json"
    path.write_text(body, encoding="utf-8")
    status, out, err = _run(capsys, "replay", str(path), "--format", fmt)
    assert (status, out) == (1, "")
    assert err.count("\n") == 1
    assert message in err
