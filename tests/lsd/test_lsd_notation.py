"""Move text, position strings and the text drawing (pacru.lsd.moves, .position, .render)."""

from __future__ import annotations

import re

import pytest

import pacru
from pacru import lsd
from pacru.errors import InvalidPositionError, NotationError
from pacru.lsd import LsdMove, Shade, Shape

from .helpers import pos

# --- moves -------------------------------------------------------------------------------


def test_move_fields_text_and_repr() -> None:
    move = LsdMove(Shape.CROSS, Shade.WHITE, (False, False, True, True), (1, -2))
    assert str(move) == "WxSW@1,-2"
    assert repr(move) == "LsdMove.from_text('WxSW@1,-2')"
    assert eval(repr(move), {"LsdMove": LsdMove}) == move
    assert (move.x, move.y, move.icon, move.face) == (1, -2, "Wx", "WxSW")
    assert move == LsdMove("x", "W", "WS", (1, -2))
    assert hash(move) == hash(LsdMove.from_text("WxSW@1,-2"))
    assert move != LsdMove.from_text("WxSW@1,-1")
    assert str(LsdMove.from_text("B+0@0,0")) == "B+0@0,0"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "B+@0,0",
        "B+N",
        "B+N@0",
        "B+N@0,0,0",
        "B+NN@0,0",
        "B+Q@0,0",
        "Bo N@0,0",
        "G+N@0,0",
        "B+N@a,b",
        "B+N@ 0,0",
        "B+N@0,99999",
        "pass",
        "B+N0@0,0",
    ],
)
def test_malformed_move_texts(text: str) -> None:
    with pytest.raises(NotationError):
        LsdMove.from_text(text)
    with pytest.raises(NotationError):
        lsd.new_game(2).parse_move(text)


def test_from_text_needs_the_shade() -> None:
    with pytest.raises(NotationError, match="shade"):
        LsdMove.from_text("+N@0,0")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"shape": "o", "shade": "B", "sides": "N", "cell": (0, 0)},
        {"shape": "+", "shade": "grey", "sides": "N", "cell": (0, 0)},
        {"shape": "+", "shade": "B", "sides": (1, 0, 0), "cell": (0, 0)},
        {"shape": "+", "shade": "B", "sides": "N", "cell": (0, 0, 0)},
        {"shape": "+", "shade": "B", "sides": "N", "cell": (0.5, 0)},
        {"shape": "+", "shade": "B", "sides": "N", "cell": (5000, 0)},
    ],
)
def test_invalid_move_values(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 -- each field has its own message
        LsdMove(**kwargs)  # type: ignore[arg-type]


def test_parse_move_is_lenient_and_str_is_canonical() -> None:
    """Letters in any case and order; the shade may be omitted when the supply decides it."""
    state = lsd.new_game(2)
    for text in ("B+NESW@0,0", "b+wsen@0,0", " +NESW@0,0 ", "+nesw@0,0"):
        assert str(state.parse_move(text)) == "B+NESW@0,0"


def test_missing_shade_is_ambiguous_when_the_supply_has_both() -> None:
    state = lsd.new_game(
        2, tile_set=[lsd.TileSpec("N", "+", 1, "black"), lsd.TileSpec("N", "+", 1, "white")]
    )
    with pytest.raises(NotationError, match="say which shade"):
        state.parse_move("+N@0,0")
    assert str(state.parse_move("W+N@0,0")) == "W+N@0,0"


# --- positions ------------------------------------------------------------------------------


def test_position_strings() -> None:
    """The documented grammar, with only non-default options written."""
    state = lsd.new_game(2)
    assert state.to_position() == "lsd red:B,yellow:W - - red"
    state = state.apply_move("B+NE@0,0").apply_move("WxSW@1,0")
    assert state.to_position() == "lsd red:B,yellow:W 0B+NE@0,0;1WxSW@1,0 - red"
    state = lsd.new_game(
        4, first_player="blue", allow_rotation=False, tile_set="+NESW*3,xN", row_length=4
    )
    assert state.to_position() == (
        "lsd blue:W,red:B,yellow:W,green:B - - blue row=4 rotation=off set=+NESW*3,xN*1"
    )
    state = lsd.new_game(
        2, shades=("black", "black"), enforce_shade_alternation=False, strict_dot_matching=False
    )
    assert state.to_position() == "lsd red:B,yellow:B - - red strict=off alternation=off"


def test_position_with_captures_and_a_finished_game() -> None:
    state = pos("0B+E@0,0;1W+EW@1,0", "red").apply_move("B+W@2,0")
    assert state.to_position() == "lsd red:B,yellow:W 0B+E@0,0;0B+W@2,0 1W+NS yellow"
    state = pos("0B+E@0,0;0B+EW@1,0;0BxEW@2,0", "red").apply_move("BxW@3,0")
    assert state.to_position() == "lsd red:B,yellow:W 0B+E@0,0;0B+EW@1,0;0BxEW@2,0;0BxW@3,0 - -"
    assert lsd.from_position(state.to_position()).winners == ("red",)


def test_position_round_trip_and_repr() -> None:
    state = pos("0B+E@0,0;1W+EW@1,0", "red", captured="1WxN*2,0BxNESW")
    assert lsd.from_position(state.to_position()) == state
    assert eval(repr(state), {"pacru": pacru}) == state
    assert state.to_position() == ("lsd red:B,yellow:W 0B+E@0,0;1W+EW@1,0 0BxNESW,1WxN*2 red")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "lsd",
        "chess - - - red",
        "lsd red:B,yellow:W - - red extra",
        "lsd red:B,yellow - - red",
        "lsd red:B,yellow:W B+N@0,0 - red",
        "lsd red:B,yellow:W 0+N@0,0 - red",
        "lsd red:B,yellow:W - 0B+N** red",
        "lsd red:B,yellow:W - - red row=x",
        "lsd red:B,yellow:W - - red strict=maybe",
        "lsd red:B,yellow:W - - red row=3 row=3",
        "lsd red:B,yellow:W - - red set=?",
    ],
)
def test_malformed_positions(text: str) -> None:
    with pytest.raises(NotationError):
        lsd.from_position(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lsd red:B - - red", "2, 3 or 4 players"),
        ("lsd red:B,yellow:B - - red", "2.5"),
        ("lsd red:B,yellow:W - - green", "not a colour"),
        ("lsd red:B,yellow:W - - yellow", "places the first tile"),
        ("lsd red:B,yellow:W - - -", "not over"),
        ("lsd red:B,yellow:W - 0B+N red", "before the first placement"),
        ("lsd red:B,yellow:W 0B+N@0,0;0B+N@0,0 - yellow", "two tiles"),
        ("lsd red:B,yellow:W 5B+N@0,0 - yellow", "no seat 5"),
        ("lsd red:B,yellow:W 0W+N@0,0 - yellow", "no tile W+N"),
        ("lsd red:B,yellow:W 0B+N@0,0;0B+N@5,0;0B+N@9,0 - yellow", "more red B+N tiles"),
        ("lsd red:B,yellow:W 0B+N@0,0;1W+N@0,1 - yellow", "RULING 5"),
        ("lsd red:B,yellow:W 0B+N@0,0 - red set=+N*1", "would have been skipped"),
        ("lsd red:B,yellow:W 0B+N@0,0;1W+S@0,1 - red", "game is over"),
        ("lsd red:B,yellow:W 0B+N@0,0 1BxNE yellow", "yellow has no tile BxNE"),
        ("lsd red:B,yellow:W 0B+N@0,0 0B+NE*3 yellow", "more red B+NE"),
    ],
)
def test_impossible_positions(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(message)):
        lsd.from_position(text)


def test_two_colours_with_rows_is_impossible() -> None:
    field = (
        ";".join(f"0B+EW@{x},0" for x in range(4))
        + ";"
        + ";".join(f"1W+EW@{x},5" for x in range(4))
    )
    with pytest.raises(InvalidPositionError, match="more than one colour"):
        pos(field, "-", options="set=+NS*4")


# --- the drawing ---------------------------------------------------------------------------------


def test_str_draws_the_field_turn_and_supplies() -> None:
    state = lsd.new_game(2).apply_move("B+NE@0,0").apply_move("WxSW@1,0")
    assert str(state) == "\n".join(
        [
            "LSD, 2 players, row of 4: red to move",
            "     -1      0      1      2",
            "",
            " 1    .      *      .      .",
            "",
            "             o",
            " 0    .     B+r oo Wxy     .",
            "                    o",
            "",
            "-1    .      .      *      .",
            "",
            "r = red (black): 1 on the field, 0 captured, supply 19: B+N*2 B+NE B+NS*2 "
            "B+NES*2 B+NESW*2 BxN*2 BxNE*2 BxNS*2 BxNES*2 BxNESW*2",
            "y = yellow (white): 1 on the field, 0 captured, supply 19: W+N*2 W+NE*2 W+NS*2 "
            "W+NES*2 W+NESW*2 WxN*2 WxNE WxNS*2 WxNES*2 WxNESW*2",
        ]
    )


def test_str_of_a_finished_game_and_clashing_initials() -> None:
    state = lsd.new_game(2, colours=("red", "rose"), tile_set="+N*2")
    state = state.apply_move("B+N@0,0").apply_move("W+S@0,1")
    text = str(state)
    assert text.splitlines()[0] == "LSD, 2 players, row of 4: game over: draw (blocked)"
    assert " 1    .     W+1     ." in text.splitlines()
    assert "0 = red (black): 1 on the field, 0 captured, supply 1: B+N" in text.splitlines()
