"""Winning, skipping and the draw {LSD.md 1.7, 2.4; RULINGS 15, 16, 18, 19, 22, 23}."""

from __future__ import annotations

import pytest

from pacru import lsd
from pacru.base import Outcome, Termination
from pacru.errors import GameOverError, NotationError

from .helpers import pos

ROW = Termination.ROW


def test_row_of_four_horizontal_two_players() -> None:
    """1.7, 3.3: four own tiles in a horizontal line win (2 players)."""
    state = pos("0B+E@0,0;0B+EW@1,0;0BxEW@2,0", "red")
    after = state.apply_move("BxW@3,0")
    assert after.outcome == Outcome(ROW, ("red",))
    assert after.winners == ("red",)
    assert after.current_player is None
    assert after.legal_moves() == ()


def test_row_of_four_vertical_two_players() -> None:
    """1.7, 3.3: four own tiles in a vertical line win (2 players)."""
    state = pos("0B+N@0,0;0B+NS@0,1;0BxNS@0,2", "red")
    assert state.apply_move("BxS@0,3").outcome == Outcome(ROW, ("red",))


@pytest.mark.parametrize(
    ("field", "move"),
    [("0B+E@0,0;0B+EW@1,0;0BxEW@2,0", "BxW@3,0"), ("0B+N@0,0;0B+NS@0,1;0BxNS@0,2", "BxS@0,3")],
    ids=["horizontal", "vertical"],
)
def test_ruling16_row_of_four_with_three_players(field: str, move: str) -> None:
    """RULING 16: with three players the row is 4, as with two; three in a row is not enough."""
    state = pos(field, "red", players=3)
    assert state.apply_move(move).outcome == Outcome(ROW, ("red",))
    three = pos("0B+E@0,0;0B+EW@1,0", "red", players=3).apply_move("B+EW@2,0")
    assert three.outcome is None
    assert three.current_player == "yellow"


@pytest.mark.parametrize(
    ("field", "move"),
    [("0B+E@0,0;0B+EW@1,0", "B+EW@2,0"), ("0B+N@0,0;0B+NS@0,1", "B+NS@0,2")],
    ids=["horizontal", "vertical"],
)
def test_row_of_three_with_four_players(field: str, move: str) -> None:
    """1.7, 3.3: "With 4 players, the object is to have 3 tiles in a row"."""
    state = pos(field, "red", players=4)
    assert state.apply_move(move).outcome == Outcome(ROW, ("red",))
    two = pos(field, "red", players=2).apply_move(move)
    assert two.outcome is None
    assert two.current_player == "yellow"


def test_row_length_option() -> None:
    """1.7, RULING 16: row_length is an option (default 4, or 3 with four players)."""
    state = pos("0B+E@0,0;0B+EW@1,0", "red", options="row=3")
    assert state.apply_move("B+W@2,0").outcome == Outcome(ROW, ("red",))


def test_ruling16_a_longer_row_also_wins() -> None:
    """RULING 16: filling the gap of red-red-_-red-red makes five in a row: a win."""
    state = pos("0B+E@0,0;0B+EW@1,0;0BxEW@3,0;0BxW@4,0", "red")
    assert state.apply_move("B+EW@2,0").outcome == Outcome(ROW, ("red",))


def test_diagonal_line_does_not_win() -> None:
    """1.7, 3.3: rows are "either horizontal or vertical"; four on a diagonal do not win."""
    state = pos("0B+N@0,0;0BxE@1,1;0BxN@2,2;1W+N@3,2", "red")
    after = state.apply_move("B+S@3,3")
    assert {c for c, t in after.field.items() if t.owner == "red"} == {
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 3),
    }
    assert after.outcome is None
    assert after.current_player == "yellow"


def test_mixed_colour_line_does_not_win() -> None:
    """1.7, 3.3: only the colour counts; red-red-yellow-red is no row."""
    state = pos("0B+E@0,0;0BxEW@1,0;1W+EW@2,0", "red")
    after = state.apply_move("BxEW@3,0")
    assert after.outcome is None
    assert after.current_player == "yellow"
    assert after.tile_at((2, 0)) == lsd.Tile("yellow", "+", "white", "EW")


def test_ruling15_row_tiles_need_not_be_joined_by_dots() -> None:
    """RULING 15: "connected" means adjacent in line; (1,0)-(2,0)-(3,0) touch with empty sides."""
    state = pos("0B+E@0,0;0BxNW@1,0;1W+ES@1,1;1WxSW@2,1;0BxE@3,0", "red")
    after = state.apply_move("B+N@2,0")
    assert after.outcome == Outcome(ROW, ("red",))


def test_ruling18_win_checked_after_captures_and_game_ends_at_once() -> None:
    """RULING 18: the placing tile captures and completes a row; the game ends immediately."""
    state = pos("0B+E@0,0;0B+EW@1,0;0BxEW@2,0;1W+NS@3,1;0B+S@3,2", "red")
    after = state.apply_move("B+NW@3,0")
    assert after.outcome == Outcome(ROW, ("red",))
    assert after.captured("yellow") == {lsd.Tile("yellow", "+", "white", "NS"): 1}
    assert after.legal_moves() == ()
    with pytest.raises(GameOverError) as info:
        after.apply_move("W+N@3,1")
    assert (info.value.rule, info.value.reason) == ("end", "game-over")
    # The message gives the result, as in the chevron games.
    assert str(info.value) == "end: W+N@3,1: the game is over (red wins)"
    with pytest.raises(GameOverError, match=r"^end: W\+N@3,1: the game is over \(red wins\)$"):
        after.parse_move("W+N@3,1")
    with pytest.raises(GameOverError, match=r"^end: W\+N@3,1: the game is over \(red wins\)$"):
        after.apply_move(lsd.LsdMove.from_text("W+N@3,1"))


def test_ruling19_player_with_empty_supply_is_skipped() -> None:
    """RULING 19, 3.3: red has no tiles left, so yellow moves again."""
    state = pos("0B+NESW@0,0;0B+NESW@1,0;0B+NESW@2,0;1W+NESW@0,1", "yellow", options="set=+NESW*3")
    after = state.apply_move("W+NESW@1,1")
    assert after.supply_size("red") == 0
    assert not after.can_place("red")
    assert after.current_player == "yellow"


def test_ruling19_player_without_a_fitting_tile_is_skipped() -> None:
    """RULING 19, 1.5: yellow holds only 1-dot tiles and the only open cell needs two dots."""
    state = pos(
        "2B+N@0,0;2B+S@0,2;0B+E@3,0",
        "red",
        players=3,
        captured="1W+NS",
        options="set=+N*2,+NS*1",
    )
    after = state.apply_move("B+W@4,0")
    assert after.open_cells == ((0, 1),)
    assert after.supply_tiles("yellow") == {lsd.Tile("yellow", "+", "white", "N"): 2}
    assert not after.can_place("yellow")
    assert after.current_player == "green"
    assert [str(m) for m in after.legal_moves()] == ["B+NS@0,1"]


def test_ruling19_draw_when_nobody_can_place() -> None:
    """2.4, 3.3: the last open half dot is closed and nobody can place: a draw."""
    state = lsd.new_game(2, tile_set="+N*2")
    state = state.apply_move("B+N@0,0").apply_move("W+S@0,1")
    assert state.outcome == Outcome(Termination.BLOCKED, ())
    assert state.winners == ()
    assert state.current_player is None
    assert dict(state.scores) == {"red": 1, "yellow": 1}
    assert (state.supply_size("red"), state.supply_size("yellow")) == (1, 1)


def test_ruling19_no_voluntary_pass() -> None:
    """RULING 19: there is no pass move in the notation or in the move list."""
    state = lsd.new_game(2)
    for text in ("pass", "-", ""):
        with pytest.raises(NotationError):
            state.parse_move(text)


def test_ruling22_field_is_unbounded() -> None:
    """RULING 22: no edge; tiles go to any coordinates, negative too."""
    state = pos("0B+W@-30,7", "yellow")
    after = state.apply_move("W+E@-31,7")
    assert after.tile_at((-31, 7)) == lsd.Tile("yellow", "+", "white", "E")
    assert after.bounds == ((-31, 7), (-30, 7))


def test_ruling23_supplies_are_public() -> None:
    """RULING 23, 1.4: every supply is visible, whoever is to move."""
    state = lsd.new_game(2)
    assert state.current_player == "red"
    assert state.supply_tiles("yellow") == {
        lsd.Tile("yellow", shape, "white", sides): 2
        for shape in "+x"
        for sides in ("N", "NE", "NS", "NES", "NESW")
    }
