"""Starting positions, colours and turn orders {B.2-B.5, S-R1, A-R1, R1, L2, D1, D2, D44}."""

from __future__ import annotations

from typing import Any

import pytest

import pacru
from pacru import CHEVRON_GAMES, ChevronState, Direction
from pacru.base import MAX_COLOUR_NAME
from pacru.chevron.notation import MAX_POSITION_TEXT
from pacru.chevron.rules import COUNTER_MAX
from pacru.geometry import FIELD_NAMES, borderland_of

from .helpers import moves_of, start


def layout(state: ChevronState) -> dict[str, set[str]]:
    """Colour -> {field + facing} of its chevrons."""
    out: dict[str, set[str]] = {p: set() for p in state.players}
    for field, chevron in state.chevron_map().items():
        out[chevron.owner].add(field + chevron.facing.name)
    return out


SEAT = {
    "S": {"e1N", "a3E", "i3W"},
    "W": {"a5E", "c1N", "c9S"},
    "N": {"e9S", "a7E", "i7W"},
    "E": {"i5W", "g1N", "g9S"},
}

# (layout, players) -> [(colour, chevrons)] in turn order (B.3, B.4, B.5).
EXPECTED = {
    ("standard", 2): [("green", SEAT["S"] | {"i9SW"}), ("yellow", SEAT["N"] | {"a1NE"})],
    ("standard", 3): [("yellow", SEAT["N"]), ("red", SEAT["E"]), ("black", SEAT["W"])],
    ("standard", 4): [
        ("green", SEAT["S"]),
        ("black", SEAT["W"]),
        ("yellow", SEAT["N"]),
        ("red", SEAT["E"]),
    ],
    ("ap-legacy-2p", 2): [("red", SEAT["E"] | {"a9SE"}), ("black", SEAT["W"] | {"i1NW"})],
    ("abstractplay", 2): [("green", SEAT["S"] | {"i9SW"}), ("yellow", SEAT["N"] | {"a1NE"})],
    ("abstractplay", 3): [("red", SEAT["E"]), ("black", SEAT["W"]), ("yellow", SEAT["N"])],
    ("abstractplay", 4): [
        ("red", SEAT["E"]),
        ("black", SEAT["W"]),
        ("yellow", SEAT["N"]),
        ("green", SEAT["S"]),
    ],
}


@pytest.mark.parametrize("game", CHEVRON_GAMES)
@pytest.mark.parametrize(("name", "players"), list(EXPECTED))
def test_b5_start_layouts_exactly(game: str, name: str, players: int) -> None:
    """B.5: chevrons, facings, colours and turn order of every layout; all fields neutral."""
    state = start(game, players, start_layout=name)
    expected = EXPECTED[(name, players)]
    assert state.players == tuple(c for c, _ in expected)
    assert state.current_player == expected[0][0]
    assert layout(state) == dict(expected)
    assert state.marker_map() == {}
    assert (state.ply, state.last_move) == (0, None)
    assert state.outcome is None
    assert dict(state.scores) == {c: 0 for c, _ in expected}


def test_default_layout_is_standard() -> None:
    assert pacru.new_game("shacru", 3) == pacru.new_game("shacru", 3, start_layout="standard")
    assert pacru.new_game("SHACRU").game == "shacru"


def test_b3_legacy_layout_is_the_current_one_rotated() -> None:
    """B.3 finding 1: AP-current is AP-old rotated 90 degrees clockwise, same players."""
    old = pacru.new_game("shacru", 2, start_layout="ap-legacy-2p")
    new = pacru.new_game("shacru", 2)

    def rotate(code: str) -> str:
        x, y = ord(code[0]) - 96, int(code[1])
        facing = Direction[code[2:]]
        return "abcdefghi"[y - 1] + str(10 - x) + facing.turned(2).name

    for (_, old_set), (_, new_set) in zip(layout(old).items(), layout(new).items(), strict=True):
        assert {rotate(c) for c in old_set} == new_set


def test_colours_option_renames_the_seats_in_layout_order() -> None:
    state = pacru.new_game("shacru", 2, colours=["Red", "blue"])
    assert state.players == ("red", "blue")
    assert layout(state)["red"] == SEAT["S"] | {"i9SW"}


def test_first_player_keeps_the_cyclic_order() -> None:
    """D2: the first player is configurable; the cycle S, W, N, E is kept."""
    state = pacru.new_game("azacru", 4, first_player="yellow")
    assert state.players == ("yellow", "red", "green", "black")
    assert state.current_player == "yellow"
    assert layout(state)["yellow"] == SEAT["N"]
    two = pacru.new_game("shacru", 2, colours=["red", "blue"], first_player="BLUE")
    assert two.players == ("blue", "red")
    assert layout(two)["blue"] == SEAT["N"] | {"a1NE"}


def test_turn_order_allows_any_order() -> None:
    """D2: any order of play may be chosen."""
    state = pacru.new_game("shacru", 4, turn_order=["red", "yellow", "black", "green"])
    assert state.players == ("red", "yellow", "black", "green")
    assert layout(state)["red"] == SEAT["E"]
    assert layout(state)["green"] == SEAT["S"]


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
        (("chess", 2), {}, "valid games: lilacru, shacru, azacru, pacru, lsd"),
        (("shacru", 5), {}, "2, 3 or 4 players, not 5"),
        (("shacru", 1), {}, "2, 3 or 4 players, not 1"),
        (("shacru", True), {}, "2, 3 or 4 players"),
        (
            ("shacru", 2),
            {"foo": 1},
            "unknown option.*foo.*valid options: start_layout, turn_order, first_player, "
            "colours, idle_rounds$",
        ),
        (
            ("pacru", 2),
            {"foo": 1},
            "foo for pacru; valid options: start_layout, turn_order, first_player, "
            "colours, meeting_rule, move_cap$",
        ),
        (
            ("azacru", 2),
            {"foo": 1},
            "valid options: start_layout, turn_order, first_player, colours, move_cap$",
        ),
        (
            ("shacru", 2),
            {"start_layout": "x"},
            "unknown start_layout 'x'; valid: standard, ap-legacy-2p, abstractplay",
        ),
        (("shacru", 3), {"start_layout": "ap-legacy-2p"}, "is for 2 players, not 3"),
        (("shacru", 2), {"first_player": "red"}, "first_player must be one of green, yellow"),
        (("shacru", 2), {"turn_order": ["green"]}, "turn_order must list 2 colour names"),
        (("shacru", 2), {"turn_order": ["green", "red"]}, "each of green, yellow once"),
        (("shacru", 2), {"colours": ["a", "a"]}, "must be distinct"),
        (("shacru", 2), {"colours": "ab"}, "colours must list 2 colour names"),
        (("shacru", 2), {"colours": ["a b", "c"]}, "letters, digits"),
        (("azacru", 2), {"idle_rounds": 3}, "Lilacru and Shacru only"),
        (("shacru", 2), {"idle_rounds": 0}, "positive whole number"),
        (("shacru", 2), {"move_cap": 3}, "Pacru and Azacru only"),
        (("shacru", 2), {"meeting_rule": "original"}, "Pacru only"),
        (("pacru", 2), {"meeting_rule": "x"}, "one of 2011, original"),
        (("pacru", 2), {"move_cap": 0}, "positive number of plies"),
    ],
)
def test_bad_setup_raises_value_error_naming_valid_values(
    args: tuple[Any, ...], options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        pacru.new_game(*args, **options)


def crossings(state: ChevronState) -> set[str]:
    return {m for m in moves_of(state) if borderland_of(m[:2]) != borderland_of(m[3:5])}


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru", "pacru"])
def test_b5_two_player_start_counts_for_both_players(game: str) -> None:
    """B.5: 12 one-step moves each; Shacru/Azacru 16 with twists; Pacru 28 with markers."""
    expected = {"lilacru": 12, "shacru": 16, "azacru": 16, "pacru": 28}[game]
    first = start(game, 2)
    assert len(first.legal_moves()) == expected
    assert {m[:5] for m in moves_of(first)} == {
        "a3-b4", "a3-b3", "a3-b2", "e1-d2", "e1-e2", "e1-f2",
        "i3-h2", "i3-h3", "i3-h4", "i9-h9", "i9-h8", "i9-i8",
    }  # fmt: skip
    # e1-e2 touches none of yellow's targets, so yellow sees its own start.
    second = first.apply_move("e1-e2")
    assert second.current_player == "yellow"
    assert len(second.legal_moves()) == expected
    assert {m[:5] for m in moves_of(second)} == {
        "a7-b8", "a7-b7", "a7-b6", "e9-d8", "e9-e8", "e9-f8",
        "i7-h6", "i7-h7", "i7-h8", "a1-a2", "a1-b2", "a1-b1",
    }  # fmt: skip
    if game in ("shacru", "azacru"):
        assert crossings(first) == {"a3-b4", "a3-b4<", "a3-b4>", "i3-h4", "i3-h4<", "i3-h4>"}
        assert crossings(second) == {"a7-b6", "a7-b6<", "a7-b6>", "i7-h6", "i7-h6<", "i7-h6>"}


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("game", ["lilacru", "shacru"])
def test_b5_every_seat_has_nine_steps_two_crossing(game: str, players: int) -> None:
    """B.5: in 3p/4p each seat has 9 one-step moves, two of which cross a border."""
    seats = start(game, players)
    for colour in seats.players:
        state = start(game, players, first_player=colour)
        steps = {m[:5] for m in moves_of(state)}
        assert len(steps) == 9, colour
        crossing = {m for m in steps if borderland_of(m[:2]) != borderland_of(m[3:])}
        assert len(crossing) == 2, colour
        assert len(state.legal_moves()) == (9 if game == "lilacru" else 13)


def test_b2_every_starting_chevron_has_three_moves() -> None:
    """E.3: every starting chevron has exactly 3 one-step moves."""
    state = pacru.new_game("lilacru", 4)
    for colour in state.players:
        s = pacru.new_game("lilacru", 4, first_player=colour)
        per_chevron: dict[str, int] = {}
        for m in moves_of(s):
            per_chevron[m[:2]] = per_chevron.get(m[:2], 0) + 1
        assert sorted(per_chevron.values()) == [3, 3, 3]
        assert {s.chevron_map()[f].owner for f in per_chevron} == {colour}


# -- colour names: bounded, so that every position string written reads back ------------------

LONGEST = [c * MAX_COLOUR_NAME for c in "abcd"]


@pytest.mark.parametrize("game", pacru.GAMES)
def test_colour_names_longer_than_the_maximum_are_refused(game: str) -> None:
    """A 1,400-character name used to make a position string the reader refused (over 4,096)."""
    with pytest.raises(ValueError, match=f"at most {MAX_COLOUR_NAME} characters"):
        pacru.new_game(game, 2, colours=["green", "y" * (MAX_COLOUR_NAME + 1)])
    state: pacru.GameState[Any] = pacru.new_game(game, 2, colours=["green", "y" * MAX_COLOUR_NAME])
    for _ in range(2):
        state = state.apply_move(state.legal_moves()[0])
    assert pacru.from_position(state.to_position()) == state


def test_the_reader_refuses_what_new_game_refuses() -> None:
    too_long = "y" * (MAX_COLOUR_NAME + 1)
    with pytest.raises(pacru.NotationError, match="players must be distinct colour words"):
        pacru.from_position(f"shacru players=green,{too_long}")
    with pytest.raises(pacru.InvalidPositionError, match=f"at most {MAX_COLOUR_NAME} characters"):
        pacru.from_position(f"lsd red:B,{too_long}:W - - red")


def test_the_longest_position_string_fits_the_reader() -> None:
    """Four longest names, a marker on every free field, chevrons, an eliminated colour, huge
    counters (the largest the engines hold) and every Pacru option: well under
    MAX_POSITION_TEXT, and it reads back."""
    free = [f for f in FIELD_NAMES if f not in {"e1", "a3", "i3", "c1"}]
    markers = ";".join(f"{c}:{','.join(free[i::3])}" for i, c in enumerate(LONGEST[:3]))
    chevrons = f"{LONGEST[0]}:e1N,a3E;{LONGEST[1]}:i3W;{LONGEST[2]}:c1N"
    text = (
        f"pacru players={','.join(LONGEST)} turn={LONGEST[1]} markers={markers} "
        f"chevrons={chevrons} out={LONGEST[3]} ply={COUNTER_MAX} meeting_rule=original "
        f"move_cap={COUNTER_MAX}"
    )
    state = pacru.from_position(text, adjudicate=False)
    written = state.to_position()
    assert len(written) < 1500 < MAX_POSITION_TEXT
    assert pacru.from_position(written, adjudicate=False) == state
