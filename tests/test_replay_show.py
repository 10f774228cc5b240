"""``pacru replay`` and ``pacru show``: records, AbstractPlay move lists and positions."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import pacru
from pacru.cli import main
from pacru.records import record_from_game, write_records

AP_DATA = Path(__file__).resolve().parent / "data" / "abstractplay"
SHACRU_BAD = '[Game "shacru"]\n\n1. e1-e2 e9-e8\n2. e2-e4 *\n'
TWO_GAMES = (
    '[Game "lilacru"]\n\n1. e1-e2 e9-e8 *\n\n'
    '[Game "pacru"]\n[Players "yellow,green"]\n\n1. e9-e8 *\n'
)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _play(state: Any, moves: list[str]) -> Any:
    for move in moves:
        state = state.apply_move(move)
    return state


# -- replay ---------------------------------------------------------------------------------------


def test_replay_two_games_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "replay", _write(tmp_path, "two.pgn", TWO_GAMES), "-q")
    assert (status, err) == (0, "")
    assert out == (
        "game 1: lilacru, 2 players (green, yellow), 2 plies\n"
        "Scores (markers on the board): green 1, yellow 1\n"
        "Result: unfinished (*), green to move\n"
        "\n"
        "game 2: pacru, 2 players (yellow, green), 1 ply\n"
        "Scores (markers on the board): yellow 0, green 0\n"
        "Result: unfinished (*), green to move\n"
    )


def test_replay_prints_the_final_board_and_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = pacru.Game.from_position(
        "pacru players=red,yellow markers=red:d9,d8,i9,i8 chevrons=red:e9S,g9S;yellow:e7N",
        ["e9xe7"],
    )
    final = line.state
    path = _write(tmp_path, "win.pgn", write_records([record_from_game(line)]))
    status, out, _ = _run(capsys, "replay", path, "--index", "1")
    assert status == 0
    assert out == (
        "game 1: pacru, 2 players (red, yellow), 1 ply\n"
        + str(final)
        + "\nScores (markers on the board): red 5, yellow 0\n"
        "Result: red wins (R16a: the last player with chevrons on the board)\n"
    )


def test_replay_bad_move_reports_ply_move_and_rule_s_r3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bad.pgn", SHACRU_BAD)
    status, out, err = _run(capsys, "replay", path)
    assert (status, out) == (1, "")
    assert err == (
        f"pacru: error: {path}: game 1, line 4, ply 3: e2-e4 (green) is illegal: S-R3: "
        "a chevron moves one field; e2 to e4 is 2\n"
    )


def test_replay_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.pgn")
    status, _, err = _run(capsys, "replay", missing)
    assert status == 2
    assert err == f"pacru: error: {missing}: No such file or directory\n"
    path = _write(tmp_path, "two.pgn", TWO_GAMES)
    status, _, err = _run(capsys, "replay", path, "--index", "3")
    assert (status, err) == (2, "pacru: error: --index 3: the file holds 2 game(s)\n")
    (tmp_path / "latin1.pgn").write_bytes(b'[Event "caf\xe9"]')
    status, _, err = _run(capsys, "replay", str(tmp_path / "latin1.pgn"))
    assert status == 1
    assert "not UTF-8 text" in err


def test_replay_position_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "azacru players=red,yellow markers=red:d4,e4 chevrons=red:e4N;yellow:a1N\n"
    status, out, _ = _run(capsys, "replay", _write(tmp_path, "pos.txt", text), "-q")
    assert status == 0
    assert out == (
        "position: azacru, 2 players (red, yellow), 0 plies\n"
        "Scores (markers on the board): red 2, yellow 0\n"
        "Result: unfinished (*), red to move\n"
    )
    status, _, err = _run(
        capsys, "replay", _write(tmp_path, "bad.txt", "pacru players=a"), "--format", "position"
    )
    assert status == 1
    assert err.startswith("pacru: error: ")
    assert "not a position" in err


# -- AbstractPlay input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "heading", "scores", "to_move"),
    [
        ("a", "pacru, 2 players (red, black), 44 plies", "red 7, black 10", "red"),
        ("b", "pacru, 2 players (green, yellow), 30 plies", "green 7, yellow 9", "green"),
    ],
)
def test_replay_shared_abstractplay_games_b3(
    name: str, heading: str, scores: str, to_move: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """a: the AP-legacy layout (seats E and W: red, black); b: the current one (B.3)."""
    path = AP_DATA / f"abstractplay-pacru-2p-{name}.json"
    status, out, err = _run(capsys, "replay", str(path), "-q")
    assert (status, err) == (0, "")
    assert out == (
        f"game 1: {heading}\nScores (markers on the board): {scores}\n"
        f"Result: unfinished (*), {to_move} to move\n"
    )


def test_replay_abstractplay_plain_list_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = _write(tmp_path, "moves.txt", "a3-b3\na1-a2\nb3-c3\n")
    status, out, _ = _run(
        capsys, "replay", plain, "--format", "abstractplay", "--game", "pacru", "-q"
    )
    assert status == 0
    assert out.splitlines()[0] == "game 1: pacru, 2 players (green, yellow), 3 plies"
    listed = _write(tmp_path, "list.json", json.dumps(["a3-b3", "a1-a2", "b3-c5"]))
    status, _, err = _run(capsys, "replay", listed, "--game", "pacru")
    assert status == 1
    assert f"{listed}: ply 3: b3-c5 is illegal: " in err
    garbage = _write(tmp_path, "g.json", json.dumps({"moves": ["a3-b3", "nonsense"]}))
    status, _, err = _run(capsys, "replay", garbage)
    assert status == 1
    assert "ply 2: nonsense is not an AbstractPlay move" in err


def test_replay_abstractplay_final_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((AP_DATA / "abstractplay-pacru-2p-b.json").read_text(encoding="utf-8"))
    data["final"]["to_move"] = 2
    status, _, err = _run(capsys, "replay", _write(tmp_path, "f.json", json.dumps(data)))
    assert status == 1
    assert "the final position differs from the record's: to_move: ours 1, record 2" in err


# -- show ----------------------------------------------------------------------------------------


def test_show_ply_text_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "two.pgn", TWO_GAMES)
    svg = tmp_path / "board.svg"
    status, out, err = _run(capsys, "show", path, "--ply", "1", "--svg", str(svg))
    assert (status, err) == (0, "")
    state = _play(pacru.new_game("lilacru"), ["e1-e2"])
    assert out == (
        "game 1, ply 1 of 2: green played e1-e2\n"
        + str(state)
        + "\nScores (markers on the board): green 1, yellow 0\n"
        + "Result: unfinished (*), yellow to move\n"
        + f"SVG written to {svg}\n"
    )
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    arrows = [e for e in root.iter() if e.get("class") == "arrow"]
    assert len(arrows) == 1


def test_show_defaults_to_the_end_and_ply_zero_is_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "two.pgn", TWO_GAMES)
    status, out, _ = _run(capsys, "show", path, "--index", "2")
    assert status == 0
    assert out.splitlines()[0] == "game 2, ply 1 of 1: yellow played e9-e8"
    status, out, _ = _run(capsys, "show", path, "--ply", "0")
    assert status == 0
    assert out.splitlines()[0] == "game 1, ply 0 of 2: the start"
    assert str(pacru.new_game("lilacru")) in out


def test_show_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "two.pgn", TWO_GAMES)
    status, _, err = _run(capsys, "show", path, "--ply", "3")
    assert (status, err) == (2, "pacru: error: --ply 3: the game has plies 0..2\n")
    # An unwritable --svg is refused before the board is printed.
    svg = tmp_path / "no" / "dir.svg"
    assert _run(capsys, "show", path, "--svg", str(svg)) == (
        2,
        "",
        f"pacru: error: --svg {svg}: no writable folder {svg.parent}\n",
    )
    status, _, err = _run(capsys, "show", path, "--svg", str(tmp_path / "x.svg"), "--size", "3")
    assert status == 2
    status, _, err = _run(capsys, "show", _write(tmp_path, "bad.pgn", SHACRU_BAD))
    assert status == 1
    assert "ply 3: e2-e4 (green) is illegal: S-R3" in err
    empty = _write(tmp_path, "empty.pgn", "")
    status, _, err = _run(capsys, "show", empty)
    assert (status, err) == (1, f"pacru: error: {empty}: no game in the file\n")
    # replay too (it printed nothing and exited 0): a file of blank lines is no game.
    blank = _write(tmp_path, "blank.pgn", "\n\n")
    assert _run(capsys, "replay", blank) == (1, "", f"pacru: error: {blank}: no game in the file\n")


def test_play_record_replays_to_the_same_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "game.pgn"
    status, played, _ = _run(
        capsys, "play", "shacru", "--seed", "5", "--quiet", "--record", str(out_file)
    )
    assert status == 0
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith('[Game "shacru"]\n[Event "pacru play"]\n[Players "green,yellow"]\n')
    assert '[Seed "5"]\n' in text
    status, replayed, _ = _run(capsys, "replay", str(out_file), "-q")
    assert status == 0
    assert replayed.splitlines()[1:] == [
        line.replace("Final scores", "Scores") for line in played.strip().splitlines()
    ]
    status, _, err = _run(
        capsys, "play", "lilacru", "--seed", "1", "-q", "--record", str(tmp_path / "no" / "x")
    )
    assert status == 2
    assert err.startswith(f"pacru: error: --record {tmp_path / 'no' / 'x'}: ")


def test_show_and_replay_take_a_position_text_as_play_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pacru show "<position>"`` draws it (it was "No such file or directory")."""
    monkeypatch.chdir(tmp_path)
    text = "shacru players=red,yellow chevrons=red:e4N;yellow:e6S"
    state = pacru.from_position(text)
    status, out, err = _run(capsys, "show", text)
    assert (status, err) == (0, "")
    assert out == (
        "position, ply 0 of 0: the start\n"
        + str(state)
        + "\nScores (markers on the board): red 0, yellow 0\n"
        "Result: unfinished (*), red to move\n"
    )
    status, out, err = _run(capsys, "replay", text, "-q")
    assert (status, err) == (0, "")
    assert out.splitlines()[0] == "position: shacru, 2 players (red, yellow), 0 plies"
    # A bad position text is reported as a position, not as a missing file.
    status, _, err = _run(capsys, "show", "shacru players=red")
    assert status == 1
    assert err.startswith("pacru: error: shacru players=red: not a position: ")
    # A file of that name still wins: the argument is a path first.
    _write(tmp_path, "pacru x", "lilacru players=red,yellow chevrons=red:e1N;yellow:e9S\n")
    status, out, _ = _run(capsys, "replay", "pacru x", "-q")
    heading = "position: lilacru, 2 players (red, yellow), 0 plies"
    assert (status, out.splitlines()[0]) == (0, heading)


def test_show_a_game_name_draws_its_start_position_as_play_sets_it_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pacru show pacru`` (it was "pacru: No such file or directory"): the start, with
    play's --players and game options (D1, D32); a file of that name still comes first."""
    monkeypatch.chdir(tmp_path)
    status, out, err = _run(capsys, "show", "pacru")
    assert (status, err) == (0, "")
    assert out == (
        "pacru, 2 players (green, yellow), ply 0 of 0: the start\n"
        + str(pacru.new_game("pacru"))
        + "\nScores (markers on the board): green 0, yellow 0\n"
        "Result: unfinished (*), green to move\n"
    )
    argv = ("show", "Pacru", "--players", "4", "--start-layout", "abstractplay")
    status, out, err = _run(capsys, *argv, "--move-cap", "9")
    assert (status, err) == (0, "")
    state = pacru.new_game("pacru", 4, start_layout="abstractplay", move_cap=9)
    assert out.startswith(f"pacru, 4 players ({', '.join(state.players)}), ply 0 of 0: the start\n")
    assert str(state) in out
    status, out, err = _run(capsys, "show", "lsd", "--players", "3")
    assert (status, err) == (0, "")
    assert str(pacru.new_game("lsd", 3)) in out
    assert _run(capsys, "show", "lsd", "-n", "3") == (0, out, "")  # -n as in pacru play
    # Bad usage is one line, exit 2, as for play.
    for bad, message in [
        (("shacru", "--meeting-rule", "original"), "--meeting-rule applies to Pacru only"),
        (("pacru", "--players", "5"), "pacru is played by 2, 3 or 4 players, not 5"),
        (("pacru", "--ply", "1"), "--ply 1: the game has plies 0..0"),
        (("lsd", "--start-layout", "standard"), "--start-layout: an option of the chevron "
         "games only, not of lsd"),
        (("chess",), "chess: no such file, nor a game name (lilacru, shacru, azacru, pacru, "
         "lsd) or position string"),
    ]:
        assert _run(capsys, "show", *bad) == (2, "", f"pacru: error: {message}\n")
    # A file named like a game is read as the file; its rules are its own.
    _write(tmp_path, "pacru", TWO_GAMES)
    status, out, err = _run(capsys, "show", "pacru")
    assert (status, err) == (0, "")
    assert out.splitlines()[0] == "game 1, ply 2 of 2: yellow played e9-e8"
    message = "pacru: error: --meeting-rule and --move-cap apply to a GAME's start position\n"
    assert _run(capsys, "show", "pacru", "--move-cap", "9") == (2, "", message)
