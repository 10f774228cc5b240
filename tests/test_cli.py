"""The ``pacru`` command line: ``pacru play``, ``--version`` and usage errors."""

from __future__ import annotations

import io
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pacru
from pacru.cli import main
from pacru.commands import _ui, play
from pacru.commands.play import random_move
from scripted_random import ScriptedRandom

SRC = Path(__file__).resolve().parent.parent / "src"


GAMES = pacru.GAMES


@pytest.fixture(autouse=True)
def _no_forced_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich writes plain text to a non-terminal unless told otherwise by the environment."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


def _expected_game(game: str, players: int, seed: int, **options: Any) -> pacru.GameState[Any]:
    """The final state of the game ``pacru play`` plays with this seed."""
    state: pacru.GameState[Any] = pacru.new_game(game, players, **options)
    rng = random.Random(seed)
    while state.outcome is None:
        state = state.apply_move(random_move(state, rng))
    return state


def _final_lines(state: pacru.GameState[Any]) -> list[str]:
    assert state.outcome is not None
    scores = ", ".join(f"{p} {n}" for p, n in state.scores.items())
    unit = "tiles on the field" if state.game == "lsd" else "markers on the board"
    return [f"Final scores ({unit}): {scores}", f"Result: {state.outcome.describe()}"]


# -- random games ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_random_game_prints_the_moves_the_final_board_and_the_result(
    game: str, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """By default: a heading, the moves by ply number, the final board (once) and the result."""
    assert main(["play", game, "--players", str(players), "--seed", "7"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    final = _expected_game(game, players, 7)
    lines = out.splitlines()
    assert lines[0] == (f"{final.game}: {players} players ({', '.join(final.players)}), seed 7")
    assert lines[-2:] == _final_lines(final)
    plies = final.ply
    assert lines[2] == f"Moves ({plies} plies; --verbose shows every board):"
    cells = " ".join(lines[3 : lines.index("", 3)]).split()
    assert cells[0::2] == [f"{n}." for n in range(1, plies + 1)]
    assert cells[-1] == str(final.last_move)
    assert f"Final position (ply {plies}):" in lines
    assert out.count(str(final)) == 1
    assert not any(line.startswith("ply ") for line in lines)


def test_play_readme_command_is_short(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's first command prints a readable game: 40 lines, one board (not 81)."""
    assert main(["play", "shacru", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    final = _expected_game("shacru", 2, 1)
    assert len(out.splitlines()) == 40
    assert out.count("    +---") == 4  # one board: four frame lines
    assert out.endswith("\n".join(["", *_final_lines(final), ""]))


@pytest.mark.parametrize("game", GAMES)
def test_play_verbose_prints_every_ply_and_board(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--verbose: the board at the start and after each ply, each move as ``ply N: ...``."""
    assert main(["play", game, "--seed", "7", "--verbose"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    final = _expected_game(game, 2, 7)
    lines = out.splitlines()
    assert lines[-2:] == _final_lines(final)
    ply_lines = [line for line in lines if line.startswith("ply ") and " plays " in line]
    assert len(ply_lines) == final.ply
    assert ply_lines[-1].endswith(f" plays {final.last_move}")
    assert str(pacru.new_game(game)) in out
    assert str(final) in out


def test_play_quiet_and_verbose_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "shacru", "-q", "-v"])
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("game", GAMES)
def test_play_quiet_prints_only_the_result(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--quiet prints the two result lines and nothing else, no leading blank line."""
    assert main(["play", game, "--seed", "3", "--quiet"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == _final_lines(_expected_game(game, 2, 3))


def test_play_pacru_result_names_the_rule_not_the_scores_r16a(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Pacru win by R16a goes to the last player with chevrons, not to the most markers:
    the scores say they count markers, the result says which rule decided."""
    assert main(["play", "pacru", "--players", "3", "--seed", "3", "-q"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Final scores (markers on the board): yellow 1, red 0, black 1",
        "Result: yellow wins (R16a: the last player with chevrons on the board)",
    ]


def test_play_move_cap_ends_in_a_draw_d32(capsys: pytest.CaptureFixture[str]) -> None:
    """--move-cap reaches the non-official engine cap: no winner (ruling D32)."""
    assert main(["play", "pacru", "--seed", "2", "--move-cap", "10", "-q"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[-1] == "Result: draw (D32: the move cap was reached; no winner)"
    assert _expected_game("pacru", 2, 2, move_cap=10).ply == 10


def test_play_start_layout_ap_legacy_seats_red_and_black_d1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--start-layout ap-legacy-2p seats E (red, first) and W (black) (ruling D1, B.5)."""
    assert main(["play", "shacru", "--seed", "1", "--start-layout", "ap-legacy-2p"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[0] == "shacru: 2 players (red, black), seed 1"


def test_play_without_seed_prints_the_seed_it_drew(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "lilacru"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    seed = int(first.rsplit("seed ", 1)[1])
    assert main(["play", "lilacru", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == first


def test_plain_output_matches_rich_output(capsys: pytest.CaptureFixture[str]) -> None:
    """Without rich (no pacru[cli] extra) the text is the same, written with print."""
    args = play_args("azacru", "--seed", "5")
    assert play.run(args, _ui.Output(plain=True)) == 0
    plain = capsys.readouterr().out
    assert play.run(args, _ui.Output()) == 0
    assert capsys.readouterr().out == plain


def test_output_falls_back_to_print_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rich.console", None)
    assert not _ui.have_rich()
    assert not _ui.Output().rich


def play_args(*argv: str) -> Any:
    return pacru.cli.build_parser().parse_args(["play", *argv])


# -- the random player ----------------------------------------------------------------------


def _chevron_state(text: str) -> pacru.ChevronState:
    state = pacru.from_position(text)
    assert isinstance(state, pacru.ChevronState)
    return state


REORIENT_POSITION = (
    "pacru players=green,yellow turn=yellow markers=yellow:e1,g1,e2,a5,d6 "
    "chevrons=green:f1SW,e6SW,a7SW,h7N;yellow:d2S,g3E,f4E,f9N ply=49"
)


def test_random_move_picks_a_family_then_a_move_within_it_r14() -> None:
    """Pacru: uniform over steps + reorientations families, then within the family {R14}."""
    state = _chevron_state(REORIENT_POSITION)
    moves = state.legal_moves()
    assert (len(moves.steps), len(moves.reorientations), len(moves)) == (8, 16, 160)
    rng = ScriptedRandom([8, 3])
    move = random_move(state, rng)
    assert rng.bounds == [24, 5]
    assert str(move) == "d2<<(e1,e2,a5,d6)"
    assert move == moves.reorientations[0].get(3)


def test_random_move_pass_only_returns_pass_s_r2() -> None:
    """A Shacru player who cannot move may only pass {S-R2, D34}."""
    state: pacru.GameState[Any] = pacru.from_position(
        "shacru players=green,yellow markers=yellow:e2,d2,f2 chevrons=green:e1N;yellow:a9E"
    )
    assert str(random_move(state, random.Random(0))) == "pass"


def test_random_move_on_a_finished_game_raises() -> None:
    state = _expected_game("lilacru", 2, 1)
    with pytest.raises(ValueError, match="game is over"):
        random_move(state, random.Random(0))


# -- the human player -----------------------------------------------------------------------


def test_human_bad_move_names_the_rule_and_reprompts_s_r3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """e1-e3 is two fields: the S-R3 error is shown, then "2" (e1-e2) is played; EOF quits."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("e1-e3\n99\nnonsense\n2\n"))
    assert main(["play", "shacru", "--seed", "1", "--human"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "Your move, green (16 legal moves):" in out
    assert " 2. e1-e2 " in out
    assert (
        "green> e1-e3 is not legal here (S-R3): a chevron moves one field; e1 to e3 is 2\n"
        "green> No move numbered 99: choose 1..16 or type a move.\n"
        "green> 'nonsense' is not a move: a move begins with a field (a1 to i9)\n"
        "Moves here are written like e1-d2 or a3-b4<. Type 'help' to list them.\n"
    ) in out
    assert "ply 1: green plays e1-e2\n" in out
    assert "ply 2: yellow plays " in out
    assert out.endswith("green> \ngreen quits; the game is left unfinished at ply 2.\n")


def test_human_quit_at_the_first_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "pacru", "--human", "--seat", "Yellow", "--seed", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "ply 1: green plays " in out
    assert "Your move, yellow (28 legal moves):" in out
    assert out.endswith("yellow> yellow quits; the game is left unfinished at ply 1.\n")


@pytest.mark.parametrize("game", GAMES)
def test_human_plays_a_whole_game_by_numbers(
    game: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 2000))
    assert main(["play", game, "--human", "--seed", "4", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("Final scores (")
    assert lines[-1].startswith("Result: ")


def test_human_large_move_sets_are_summarised_by_family_r14(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over LIST_LIMIT moves: step families one per line, reorientations per chevron {R14}."""
    state = _chevron_state(REORIENT_POSITION)
    numbered, lines = play._menu(state)
    assert [str(m) for m in numbered] == [str(m) for f in state.legal_moves().steps for m in f]
    assert lines[-4:] == [
        f"  {o} << < > >>: 30 moves, fields e1,g1,e2,a5,d6; e.g. {o}<<(e1,g1,e2,a5)"
        for o in ("d2", "g3", "f4", "f9")
    ]
    monkeypatch.setattr(play, "LIST_LIMIT", 10)
    numbered, lines = play._menu(state)
    assert numbered == []
    assert lines[0] == "Steps (type the move text):"
    assert "  d2-c1+a1  (9 moves, e.g. d2-c1+a1 .. d2-c1+c3)" in lines


def test_human_typed_reorientation_is_played_r14(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _chevron_state(REORIENT_POSITION)
    monkeypatch.setattr(sys, "stdin", io.StringIO("d2>(a5,e1)\n"))
    assert str(play._ask_move(state, _ui.Output(), show_board=False)) == "d2>(e1,a5)"


# -- version and usage ----------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """The version, then the engine in use (on the Python engine: why)."""
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    version, engine = capsys.readouterr().out.splitlines()
    assert version == f"pacru {pacru.__version__}"
    if pacru.ENGINE == "native":
        assert engine == "engine: native"
    else:
        assert engine.startswith("engine: python (")


_NO_EXTENSION = (
    "no native engine installed: pacru was built without a Rust toolchain, "
    "or is the pure-Python wheel"
)


@pytest.mark.parametrize(
    ("engine", "hide_extension", "expected"),
    [
        ("python", False, "python (PACRU_ENGINE=python)"),
        ("", True, f"python ({_NO_EXTENSION})"),
        ("python", True, "python (PACRU_ENGINE=python)"),
    ],
)
def test_version_says_why_the_engine_is_python(
    engine: str, hide_extension: bool, expected: str
) -> None:
    """``python -m pacru --version`` names the Python engine's cause: PACRU_ENGINE, or an
    install without the extension (hidden here as a pure-Python wheel lacks it)."""
    hide = "import sys; sys.modules['pacru._native'] = None; " if hide_extension else ""
    code = f"{hide}import runpy, sys; sys.argv = ['pacru', '--version']; "
    code += "runpy.run_module('pacru', run_name='__main__')"
    env = {**os.environ, "PYTHONPATH": str(SRC), "PACRU_ENGINE": engine}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout == f"pacru {pacru.__version__}\nengine: {expected}\n"
    assert out.stderr == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "chess"],
        ["play", "shacru", "--players", "two"],
        ["play", "shacru", "--bogus"],
        ["frobnicate"],
    ],
)
def test_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "usage: pacru" in capsys.readouterr().err


def test_play_needs_a_game_or_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play"]) == 2
    assert capsys.readouterr().err == "pacru: error: name the GAME to play, or give --position\n"


def test_no_command_prints_help_and_returns_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: pacru" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pacru", "--players", "5"], "pacru is played by 2, 3 or 4 players, not 5"),
        # The messages name the flags, not new_game's keywords.
        (["shacru", "--meeting-rule", "original"], "--meeting-rule applies to Pacru only"),
        (["pacru", "--meeting-rule", "2012"], "--meeting-rule must be one of 2011, original"),
        (["pacru", "--move-cap", "0"], "--move-cap must be a positive number of plies, not 0"),
        (["shacru", "--start-layout", "x"], "unknown --start-layout 'x'"),
        (["lsd", "--move-cap", "9"], "--move-cap: an option of the chevron games only, not of lsd"),
        (
            ["lsd", "--start-layout", "standard", "--meeting-rule", "2011"],
            "--start-layout, --meeting-rule: options of the chevron games only, not of lsd\n",
        ),
        (
            ["--position", "games/start.txt"],
            "--position games/start.txt: no such file, nor a position string (which starts "
            "with the game name: lilacru, shacru, azacru, pacru, lsd)\n",
        ),
        (["--position", " "], "--position is empty: give a position string or a file\n"),
        (["--position", "."], "--position .: is a folder, not a file\n"),
        (
            ["shacru", "--bot", "yellow=engine:no-such-program --fast"],
            "--bot yellow=engine:no-such-program --fast: no program no-such-program to run "
            "(not found or not executable)\n",
        ),
        (
            ["shacru", "--bot", "yellow=network:network=no.bin"],
            "--bot yellow=network:network=no.bin: no.bin: No such file or directory\n",
        ),
        (
            ["shacru", "--record", "no-such-folder/game.txt"],
            "--record no-such-folder/game.txt: no writable folder no-such-folder\n",
        ),
        (["shacru", "--human", "--seat", "red"], "--seat red: not a player here"),
        (["shacru", "--seat", "green"], "--seat needs --human"),
    ],
)
def test_bad_option_values_give_one_error_line_and_exit_2(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)  # the relative paths above name nothing
    assert main(["play", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("pacru: error: " + message)
    assert err.count("\n") == 1


def test_a_bot_that_forfeits_ends_play_with_one_error_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An engine that exits unanswered gives the game up: one line and status 1, no traceback."""
    program = shlex.join([sys.executable, "-c", "import sys; sys.stdin.readline()"])
    assert main(["play", "shacru", "--quiet", "--bot", f"yellow=engine:{program}"]) == 1
    assert capsys.readouterr() == (
        "",
        "pacru: error: yellow's bot forfeits at ply 1: "
        "the engine exited (status 0) before answering the greeting 'pacru'\n",
    )


def test_game_names_are_read_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    """``pacru play Shacru`` as ``new_game("Shacru")``: the name in any case."""
    assert main(["play", "shacru", "--seed", "3", "--quiet"]) == 0
    lower = capsys.readouterr()
    assert main(["play", "Shacru", "--seed", "3", "--quiet"]) == 0
    assert capsys.readouterr() == lower
    assert main(["match", "LSD", "--bot", "random", "--bot", "random", "-k", "1", "--seed", "3",
                 "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("lsd, 2 players, 1 games, seed 3: ")


def test_python_m_pacru_runs_a_game() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "pacru", "play", "lilacru", "--seed", "1", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.splitlines() == _final_lines(_expected_game("lilacru", 2, 1))


def test_ctrl_c_during_play_exits_130_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(play, "random_move", interrupt)
    assert main(["play", "shacru", "--seed", "1", "-q"]) == 130
    assert capsys.readouterr().err == "pacru: error: interrupted\n"


@pytest.mark.parametrize(
    "argv",
    [["play", "shacru", "--seed", "1"], ["show", "pacru"], ["show", "lsd", "--players", "3"]],
)
def test_closed_output_pipe_stops_quietly(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pacru play ... | head``, ``pacru show ... | head``: the reader left; no traceback,
    exit status 1, whichever command was writing."""

    def broken(*_: object, **__: object) -> None:
        raise BrokenPipeError

    monkeypatch.setattr(_ui.Output, "line", broken)
    assert main(argv) == 1
    assert capsys.readouterr().err == ""


def test_match_usage_shows_game_as_required(capsys: pytest.CaptureFixture[str]) -> None:
    """``pacru match`` needs GAME: its usage must not show it as optional ``[GAME]``."""
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert usage == "usage: pacru match GAME --bot SPEC [--bot SPEC ...] [options]"
    assert main(["match", "--bot", "random", "--bot", "random"]) == 2
    assert capsys.readouterr().err == (
        "pacru: error: name the GAME to play: one of lilacru, shacru, azacru, pacru, lsd\n"
    )


@pytest.mark.parametrize(
    ("game", "valid"),
    [
        ("shacru", "idle_rounds"),
        ("lilacru", "idle_rounds"),
        ("azacru", "move_cap"),
        ("pacru", "meeting_rule, move_cap"),
    ],
)
def test_new_game_lists_only_the_options_of_its_game(game: str, valid: str) -> None:
    """A bad option's message lists the game's own options (Shacru has no meeting_rule)."""
    message = (
        f"unknown option(s) bogus for {game}; "
        f"valid options: start_layout, turn_order, first_player, colours, {valid}"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        pacru.new_game(game, bogus=1)  # type: ignore[call-overload]
