"""The terminal of ``pacru play`` for a person: short move text, refusals that say what is
wrong, ``--no-adjudicate``, finished positions in words, coloured boards with a legend,
``NO_COLOR``; ``pacru match GAME`` with the old ``--game`` alias."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import pacru
from pacru.base import Outcome, Termination
from pacru.bots import RandomBot
from pacru.cli import main
from pacru.commands import _prompt
from pacru.commands._board import legend, player_styles
from pacru.commands._ui import Output

#: yellow to move; a1< is the short text of yellow's only 45-degree turn of a1 {R14}.
PACRU_SHORT = (
    "pacru players=green,yellow turn=yellow markers=green:d2,c3,g3,d5;yellow:a5,d6 "
    "chevrons=green:e1SE,g3SW,d5NE,i9SW;yellow:a1SE,f4SW,f5SW,b6SE ply=21"
)
#: red's chevron on a1 faces south: no step; in Shacru red must pass {S-R2}.
BLOCKED = "players=red,yellow chevrons=red:a1S;yellow:e5N"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: An escape that sets a foreground colour (bold and dim headings are not colour).
COLOUR = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-7]|9[0-7])m")


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def _human(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    status = main(["play", *argv, "--human", "-q"])
    out, err = capsys.readouterr()
    return status, out, err


def _replies(out: str, player: str) -> list[str]:
    """What the prompt answered to each typed line (the text after ``player> ``)."""
    return [line.split("> ", 1)[1] for line in out.splitlines() if line.startswith(f"{player}> ")]


# -- the human prompt ------------------------------------------------------------------------


def test_prompt_takes_short_move_text_r14(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``a1<`` names the one 45-degree turn of a1, giving up a5 and d6 {R14}."""
    argv = ("--position", PACRU_SHORT, "--seat", "yellow")
    status, out, err = _human(monkeypatch, capsys, "a1<\n", *argv)
    assert (status, err) == (0, "")
    assert "\nply 1: yellow plays a1<(a5,d6)\n" in out
    assert "Type a number or a move (short text is fine when it fits one move)," in out


def test_prompt_refusals_in_pacru_say_what_is_wrong_and_never_offer_a_pass_r2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "pass\ne2>>\nzz\ne1-e3\na3-b4\nquit\n"
    status, out, err = _human(monkeypatch, capsys, typed, "pacru", "--seed", "1")
    assert (status, err) == (0, "")
    assert "'pass'" not in out
    written = "Moves here are written like e1-d2 or a3-b4+a4. Type 'help' to list them."
    assert _replies(out, "green") == [
        "pass is not legal here (R2): Pacru has no passing; move or reorient",
        "e2>> is not legal here (R3): there is no chevron on e2",
        "'zz' is not a move: a move begins with a field (a1 to i9)",
        "e1-e3 is not legal here (R5): the power of movement on e1 is 1 (own fields in the e2 "
        "borderland), so it cannot move 2 fields (D39)",
        "'a3-b4' fits more than one legal move: a3-b4+a4, a3-b4+b4, a3-b4+c4, ...",
        "green quits; the game is left unfinished at ply 0.",
    ]
    lines = out.splitlines()
    refused = "green> 'zz' is not a move: a move begins with a field (a1 to i9)"
    assert lines[lines.index(refused) + 1] == written
    assert lines.count(written) == 2  # after 'zz' and after the ambiguous short text


def test_examples_come_from_the_legal_moves_a_pass_only_where_it_is_legal_s_r2() -> None:
    blocked = pacru.from_position("shacru " + BLOCKED)
    assert _prompt.examples(blocked) == ["pass"]
    assert _prompt.examples(pacru.new_game("shacru")) == ["e1-d2", "a3-b4<"]
    assert _prompt.examples(pacru.new_game("lsd")) == ["B+N@0,0", "BxN@0,0"]
    # A step, a step with a marker field, a reorientation {R14}.
    assert _prompt.examples(pacru.from_position(PACRU_SHORT)) == [
        "a1-b1",
        "f4-f3+d1",
        "a1<(a5,d6)",
    ]
    with pytest.raises(pacru.NotationError) as caught:
        _prompt.read_move(blocked, "zz")
    assert _prompt.refusal(blocked, "zz", caught.value) == [
        "'zz' is not a move: a move begins with a field (a1 to i9)",
        "Moves here are written like pass. Type 'help' to list them.",
    ]


def test_lsd_refusal_keeps_its_grammar_and_gives_a_short_text_example() -> None:
    state = pacru.new_game("lsd")
    with pytest.raises(pacru.NotationError) as caught:
        _prompt.read_move(state, "pass")
    assert _prompt.refusal(state, "pass", caught.value) == [
        "an LSD move is <shade B|W><shape +|x><sides NESW or 0>@<x>,<y>, e.g. B+NE@1,0; not 'pass'",
        "Moves here are written like B+N@0,0 or BxN@0,0; short text is fine when it fits one "
        "move (+N@0,0 for B+N@0,0). Type 'help' to list them.",
    ]


# -- positions: --no-adjudicate, a finished game in words -------------------------------------


def test_outcome_describe_names_the_rule_in_words() -> None:
    assert Outcome(Termination.LAST_PLAYER, ("green",)).describe() == (
        "green wins (R16a: the last player with chevrons on the board)"
    )
    assert Outcome(Termination.MOVE_CAP, ()).describe() == (
        "draw (D32: the move cap was reached; no winner)"
    )
    assert Outcome(Termination.NO_MOVES, ("red", "yellow")).describe() == (
        "red, yellow share the win (S-R6a, L7: no player can move)"
    )
    described = {Outcome(t, ("red",)).describe() for t in Termination}
    assert len(described) == len(Termination)


def test_a_finished_position_is_shown_with_its_result_in_words_r16a(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Adjudicated, red is blocked and out {R15}: yellow is the last player {R16a}."""
    assert main(["play", "-q", "--position", "pacru " + BLOCKED]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out == (
        "Game over: yellow wins (R16a: the last player with chevrons on the board)\n"
        "Nothing to play; --no-adjudicate loads the position as typed.\n"
    )
    assert main(["play", "--position", "pacru " + BLOCKED]) == 0
    out = capsys.readouterr().out
    state = pacru.from_position("pacru " + BLOCKED)
    assert out.startswith("pacru: 2 players (red, yellow)\n" + str(state) + "\nGame over: ")
    assert "Outcome(" not in out


def test_no_adjudicate_plays_a_diagram_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    """Five red chevrons alone: adjudicated the game is over {R16a}; as typed red moves first."""
    text = "pacru players=red,yellow chevrons=red:e4N,e5N,e6N,e7N,e8N"
    assert main(["play", "-q", "--position", text]) == 0
    assert capsys.readouterr().out.startswith("Game over: red wins (R16a: ")
    assert main(["play", "--no-adjudicate", "--position", text, "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    diagram: pacru.GameState[Any] = pacru.from_position(text, adjudicate=False)
    move = RandomBot(seed=3).choose_move(diagram)
    assert f"\n  1. {move}\n" in out
    last = "Result: red wins (R16a: the last player with chevrons on the board)"
    assert out.splitlines()[-1] == last


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["shacru", "--no-adjudicate"], "--no-adjudicate applies to a --position"),
        (
            ["--no-adjudicate", "--position", "pacru " + BLOCKED],
            "--position: red is to move but has no legal move; drop --no-adjudicate to let "
            "the rules decide the position",
        ),
    ],
)
def test_no_adjudicate_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    assert capsys.readouterr() == ("", f"pacru: error: {message}\n")


# -- colour ----------------------------------------------------------------------------------


def _random_states() -> list[pacru.GameState[Any]]:
    states: list[pacru.GameState[Any]] = []
    for game in pacru.GAMES:
        for players in (2, 3, 4):
            state: pacru.GameState[Any] = pacru.new_game(game, players)
            bot = RandomBot(seed=players)
            for _ in range(25):
                if state.outcome is not None:
                    break
                state = state.apply_move(bot.choose_move(state))
            states.append(state)
    return states


def test_render_spans_point_at_each_piece_of_the_plain_board() -> None:
    from pacru.chevron.render import player_letters, render_spans
    from pacru.lsd.render import owner_keys
    from pacru.lsd.render import render_spans as lsd_spans
    from pacru.lsd.state import LsdState

    for state in _random_states():
        lines = str(state).splitlines()
        if isinstance(state, pacru.ChevronState):
            letters = player_letters(state.players)
            spans = render_spans(state)
            markers = sum(m.bit_count() for m in state.markers)
            chevrons = sum(len(c) for c in state.chevrons)
            assert len(spans) == markers + chevrons + len(state.players)
            for line, start, stop, seat, chevron in spans[:markers]:
                assert (lines[line][start:stop], chevron) == (letters[seat].lower(), False)
            for line, start, stop, seat, _ in spans[markers : markers + chevrons]:
                assert lines[line][start] == letters[seat]
                assert lines[line][start + 1] in "↑↗→↘↓↙←↖"
                assert stop == start + 2
            for line, start, stop, seat, _ in spans[markers + chevrons :]:
                assert lines[line][start:stop] == f"{letters[seat]} {state.players[seat]}"
        else:
            assert isinstance(state, LsdState)
            colours = state.rules.colours
            keys = owner_keys(colours)
            tiles = lsd_spans(state)
            assert len(tiles) == len(state._field) + len(colours)
            for line, start, stop, seat in tiles[: len(state._field)]:
                assert re.fullmatch(r"[BW][+x]", lines[line][start : stop - 1])
                assert lines[line][stop - 1] == keys[seat]
            for line, start, stop, seat in tiles[len(state._field) :]:
                assert lines[line][start:stop] == f"{keys[seat]} = {colours[seat]}"


def test_lsd_spans_and_labels_of_a_board_reaching_row_minus_8() -> None:
    """The y labels are as wide as the top and bottom rows' (here -9: two characters), and
    the spans point at the tiles (a label one character too wide shifted both)."""
    from pacru.lsd.render import render_spans as lsd_spans
    from pacru.lsd.state import LsdState

    red = ["B+NS", "BxNS", "B+NESW", "BxNESW", "B+NES"]
    yellow = ["W+NS", "WxNS", "W+NESW", "WxNESW"]
    faces = [red[i // 2] if i % 2 == 0 else yellow[i // 2] for i in range(9)]
    field = ";".join(f"{i % 2}{face}@0,{-i}" for i, face in enumerate(faces))
    state = pacru.from_position(f"lsd red:B,yellow:W {field} - red", adjudicate=False)
    assert isinstance(state, LsdState)
    lines = str(state).splitlines()
    assert lines[1] == "     -1      0      1"
    assert "-9    .      *      ." in lines
    spans = lsd_spans(state)[:9]
    assert [lines[line][start:stop] for line, start, stop, _ in spans] == [
        f"{face[:2]}{'ry'[i % 2]}" for i, face in enumerate(faces)
    ]


def test_coloured_board_has_the_plain_text_styles_and_a_legend(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("rich")
    text = "lilacru players=red,yellow markers=red:e2 chevrons=red:e1N;yellow:e9S"
    state = pacru.from_position(text)
    Output(colour=True).board(state)
    out = capsys.readouterr().out
    legend_line = (
        "Legend: r/R red, y/Y yellow; lower case = marker, upper case = chevron, "
        "arrow = its facing; · = neutral field"
    )
    assert ANSI.sub("", out) == f"{state}\n{legend_line}\n"
    assert "| ·   \x1b[31mr\x1b[0m   ·   |" in out  # the marker on e2
    assert "·\x1b[1;31mR↑\x1b[0m" in out  # the chevron on e1
    assert "·\x1b[1;33mY↓\x1b[0m" in out  # the chevron on e9
    assert "  \x1b[1;31mR red\x1b[0m: 1 marker" in out
    assert f"\x1b[2m{legend_line}\x1b[0m\n" in out


def test_lsd_legend_and_player_styles() -> None:
    assert legend(pacru.new_game("lsd", 3)) == (
        "Legend: tile owner r red, y yellow, g green; B/W = black/white tile, + or x = its "
        "icon; o = half dot, oo = whole dot; * = a tile can go here"
    )
    assert legend(pacru.new_game("shacru", 4)) == (
        "Legend: g/G green, b/B black, y/Y yellow, r/R red; lower case = marker, upper case = "
        "chevron, arrow = its facing; · = neutral field"
    )
    assert player_styles(("green", "black", "yellow", "red", "teal")) == (
        "green", "bright_black", "yellow", "red", "cyan",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("no_color", "argv", "coloured"),
    [
        (None, [], True),
        ("", [], True),  # https://no-color.org: an empty NO_COLOR does not turn colour off
        ("1", [], False),
        (None, ["--no-color"], False),
        (None, ["--no-colour"], False),
    ],
)
def test_colour_at_a_terminal_unless_no_color(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_color: str | None,
    argv: list[str],
    coloured: bool,
) -> None:
    pytest.importorskip("rich")
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich: standard output counts as a terminal
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert main(["play", "--position", "pacru " + BLOCKED, *argv]) == 0
    out = capsys.readouterr().out
    assert (COLOUR.search(out) is not None) is coloured
    assert ("Legend: r/R red, y/Y yellow;" in out) is coloured
    state = pacru.from_position("pacru " + BLOCKED)
    assert str(state) in ANSI.sub("", out)


def test_piped_output_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--position", "pacru " + BLOCKED]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out
    assert "Legend" not in out


# -- match GAME ------------------------------------------------------------------------------


def test_match_takes_game_as_an_argument_and_the_old_option_alike(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rest = ["--bot", "random", "--bot", "greedy", "--games", "2", "--seed", "4", "--no-progress"]
    tables = []
    for game in (["lilacru"], ["--game", "lilacru"], ["-g", "lilacru"]):
        assert main(["match", *game, *rest]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        assert out.startswith("lilacru, 2 players, 2 games, seed 4: random vs greedy\n")
        tables.append([line for line in out.splitlines() if " s of play in total" not in line])
    assert tables[0] == tables[1] == tables[2]


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (["shacru", "--game", "lsd"], "GAME is shacru but --game is lsd: give one of them"),
        ([], "name the GAME to play: one of lilacru, shacru, azacru, pacru, lsd"),
    ],
)
def test_match_game_errors(
    game: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", *game, "--bot", "random", "--bot", "random"]) == 2
    assert capsys.readouterr() == ("", f"pacru: error: {message}\n")


@pytest.mark.parametrize("command", ["show", "replay"])
def test_show_and_replay_colour_their_boards_too(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("rich")
    path = tmp_path / "position.txt"
    path.write_text("shacru players=red,yellow chevrons=red:e1N;yellow:e9S\n", encoding="utf-8")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main([command, str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b[1;31mR↑\x1b[0m" in out
    assert "Legend: r/R red, y/Y yellow;" in out
    assert main([command, str(path), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert COLOUR.search(out) is None
    assert "Legend" not in out
