"""Setup and options {LSD.md 1.2-1.4, 2.5, 3.1; RULINGS 1-3, 16, 17, 20}."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest

import pacru
from pacru import lsd
from pacru.lsd import DEFAULT_TILE_SET, Shade, Shape, Tile, TileSpec

DEFAULT_FACES = ("N", "NE", "NS", "NES", "NESW")


def test_ruling1_default_tile_set_is_the_table_of_3_1() -> None:
    """RULING 1, 3.1: per colour two '+' and two 'x' of each of five dot patterns: 20 tiles."""
    assert (
        tuple(TileSpec(sides, shape, 2) for shape in "+x" for sides in DEFAULT_FACES)
        == DEFAULT_TILE_SET
    )
    assert sum(spec.count for spec in DEFAULT_TILE_SET) == 20
    assert lsd.new_game(2).supply_tiles("red") == {
        Tile("red", shape, "black", sides): 2 for shape in "+x" for sides in DEFAULT_FACES
    }


def test_ruling1_tile_set_option_in_each_form() -> None:
    """RULING 1: tile_set takes TileSpecs, tuples or text; each colour gets the same set."""
    forms: list[Iterable[TileSpec | tuple[object, ...]] | str] = [
        [TileSpec("NESW", Shape.PLUS, 3), TileSpec("N", Shape.CROSS, 1)],
        [((1, 1, 1, 1), "+", 3), ("N", "x", 1)],
        "+NESW*3,xN",
    ]
    for form in forms:
        state = lsd.new_game(2, tile_set=form)
        assert state.supply_tiles("yellow") == {
            Tile("yellow", "+", "white", "NESW"): 3,
            Tile("yellow", "x", "white", "N"): 1,
        }
        assert state.options()["tile_set"] == (
            TileSpec("NESW", "+", 3),
            TileSpec("N", "x", 1),
        )


def test_ruling4_tile_set_merges_rotations_only_when_rotation_is_on() -> None:
    """RULING 4: with rotation, E and N one-dot tiles are one kind; without, two kinds."""
    assert lsd.normalize_tile_set([("E", "+", 1), ("N", "+", 2)]) == (TileSpec("N", "+", 3),)
    assert lsd.normalize_tile_set([("E", "+", 1), ("N", "+", 2)], allow_rotation=False) == (
        TileSpec("N", "+", 2),
        TileSpec("E", "+", 1),
    )


def test_ruling2_shade_is_per_colour_and_may_be_set_per_tile() -> None:
    """RULING 2: a colour's tiles take its shade unless a TileSpec names one."""
    state = lsd.new_game(2, tile_set=[TileSpec("N", "+", 1, shade="white"), TileSpec("N", "x", 1)])
    assert state.supply_tiles("red") == {
        Tile("red", "x", "black", "N"): 1,
        Tile("red", "+", "white", "N"): 1,
    }


def test_ruling3_default_colours_and_shades() -> None:
    """RULING 3, 3.1: placeholder colours red, yellow, green, blue; seats 0, 2 black, 1, 3 white."""
    assert lsd.new_game(2).players == ("red", "yellow")
    assert lsd.new_game(3).players == ("red", "yellow", "green")
    state = lsd.new_game(4)
    assert state.players == ("red", "yellow", "green", "blue")
    assert state.rules.shades == (Shade.BLACK, Shade.WHITE, Shade.BLACK, Shade.WHITE)
    assert state.game == "lsd"
    assert state.current_player == "red"
    assert dict(state.scores) == {"red": 0, "yellow": 0, "green": 0, "blue": 0}
    assert list(state.scores) == ["red", "yellow", "green", "blue"]


def test_colours_and_shades_options() -> None:
    """RULING 3: colours and shades are configurable."""
    state = lsd.new_game(2, colours=("white", "black"), shades=("white", "black"))
    assert state.players == ("white", "black")
    assert state.legal_moves()[0].shade is Shade.WHITE


def test_ruling20_first_player_option() -> None:
    """RULING 20: the starting player ("the most confused") is configurable; default seat 0.
    As in the chevron games, ``players`` then starts with it (the cyclic order is kept) and
    each colour keeps its shade."""
    state = lsd.new_game(3, first_player="green")
    assert state.current_player == "green"
    assert state.players == ("green", "red", "yellow")
    assert state.to_move == 0
    assert state.rules.shades == (Shade.BLACK, Shade.BLACK, Shade.WHITE)
    assert state.apply_move("B+N@0,0").current_player == "red"
    chevron = pacru.new_game("shacru", 3, first_player="red")
    assert (chevron.players[0], chevron.to_move) == ("red", 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ruling16_default_row_length(players: int) -> None:
    """1.7, RULING 16: 4 in a row, or 3 with four players."""
    assert lsd.new_game(players).rules.row_length == (3 if players == 4 else 4)


@pytest.mark.parametrize(
    ("shades", "ok"),
    [
        (("black", "white"), True),
        (("white", "black"), True),
        (("black", "black"), False),
        (("black", "white", "black"), True),
        (("black", "black", "white"), True),
        (("white", "white", "white"), False),
        (("black", "white", "black", "white"), True),
        (("white", "black", "white", "black"), True),
        (("black", "black", "white", "white"), False),
        (("black", "white", "white", "black"), False),
    ],
)
def test_2_5_shade_alternation_check(shades: tuple[str, ...], ok: bool) -> None:
    """{LSD.md 1.3, 2.5}, RULING 17: 2 players differ, 4 alternate, 3 may split 2+1; or off."""
    players = len(shades)
    if ok:
        assert lsd.new_game(players, shades=shades).rules.shades == tuple(map(Shade, shades))
    else:
        with pytest.raises(ValueError, match=r"2\.5"):
            lsd.new_game(players, shades=shades)
    state = lsd.new_game(players, shades=shades, enforce_shade_alternation=False)
    assert state.options()["enforce_shade_alternation"] is False


@pytest.mark.parametrize("players", [2, 3, 4])
def test_3_2_defaults_are_the_recommended_rulings(players: int) -> None:
    """LSD.md 3.2: every option defaults to its ruling (RULINGS 1, 3-5, 16, 17, 20)."""
    assert lsd.new_game(players).options() == {
        "colours": ("red", "yellow", "green", "blue")[:players],
        "shades": ("black", "white", "black", "white")[:players],
        "tile_set": DEFAULT_TILE_SET,
        "allow_rotation": True,
        "strict_dot_matching": True,
        "row_length": 3 if players == 4 else 4,
        "enforce_shade_alternation": True,
        "first_player": "red",
    }


def test_unknown_option_names_the_valid_ones() -> None:
    with pytest.raises(ValueError, match=re.escape("valid options: allow_rotation, colours")):
        lsd.new_game(2, rotation=True)  # type: ignore[call-arg]


@pytest.mark.parametrize("players", [0, 1, 5, True, "2", 2.0])
def test_invalid_player_count(players: object) -> None:
    """LSD.md 1.3: 2 to 4 players."""
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        lsd.new_game(players)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"colours": ("red",)},
        {"colours": ("red", "red")},
        {"colours": "ry"},
        {"colours": ("red", "two words")},
        {"shades": ("black",)},
        {"shades": ("black", "grey")},
        {"tile_set": []},
        {"tile_set": [("N", "+", 0)]},
        {"tile_set": [("NX", "+", 1)]},
        {"tile_set": [("N", "o", 1)]},
        {"tile_set": 5},
        {"tile_set": "+N*2,?"},
        {"row_length": 1},
        {"row_length": "4"},
        {"allow_rotation": 1},
        {"strict_dot_matching": None},
        {"first_player": "blue"},
    ],
)
def test_invalid_option_values(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 -- the message differs per option
        lsd.new_game(2, **options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_options_rebuild_the_game(players: int) -> None:
    """options() returns keyword arguments that rebuild the same starting state."""
    state = lsd.new_game(
        players, allow_rotation=False, strict_dot_matching=False, first_player="yellow"
    )
    assert lsd.new_game(players, **state.options()) == state
    assert state.options() == {
        "colours": state.players,
        # first_player="yellow" is seat 0: the seats and their shades rotate (RULING 20).
        "shades": (*("black", "white", "black", "white")[1:players], "black"),
        "tile_set": DEFAULT_TILE_SET,
        "allow_rotation": False,
        "strict_dot_matching": False,
        "row_length": 3 if players == 4 else 4,
        "enforce_shade_alternation": True,
        "first_player": "yellow",
    }


def test_pacru_entry_points_reach_lsd() -> None:
    """pacru.games.new_game("lsd") and from_position("lsd ...") use pacru.lsd."""
    from pacru.games import from_position, new_game

    state = new_game("lsd", 3, row_length=5)
    assert isinstance(state, lsd.LsdState)
    assert state.rules.row_length == 5
    assert from_position(state.to_position()) == state
