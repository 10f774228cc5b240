"""Exact ValueError messages of ``new_game`` and the rules options, and the seat layouts.

Fast, deterministic tests written to kill mutants (``scripts/mutation.sh``) in
:mod:`pacru.chevron.setup` and :mod:`pacru.chevron.rules`: every message is
compared whole, since the option errors name the valid values (B.5, D2, D32,
D33, D48).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import pacru

#: The options an unknown one's error lists for Pacru: the set-up options and Pacru's own rule
#: options (not Lilacru's and Shacru's idle_rounds).
OPTIONS = "start_layout, turn_order, first_player, colours, meeting_rule, move_cap"


@pytest.mark.parametrize(
    ("game", "players", "options", "message"),
    [
        ("pacru", 2, {"foo": 1}, f"unknown option(s) foo for pacru; valid options: {OPTIONS}"),
        (
            "pacru",
            2,
            {"foo": 1, "bar": 2},
            f"unknown option(s) bar, foo for pacru; valid options: {OPTIONS}",
        ),
        ("pacru", 5, {}, "pacru is played by 2, 3 or 4 players, not 5"),
        ("pacru", 1, {}, "pacru is played by 2, 3 or 4 players, not 1"),
        ("pacru", True, {}, "pacru is played by 2, 3 or 4 players, not True"),
        # Colour names given as the count: the message says where they go.
        (
            "shacru",
            ["red", "blue"],
            {},
            "shacru is played by 2, 3 or 4 players, not ['red', 'blue']; "
            "players is their number: name them with colours=[...]",
        ),
        (
            "lsd",
            ("red", "blue"),
            {},
            "LSD is played by 2, 3 or 4 players (LSD 1.3), not ('red', 'blue'); "
            "players is their number: name them with colours=[...]",
        ),
        ("lsd", "2", {}, "LSD is played by 2, 3 or 4 players (LSD 1.3), not '2'"),
        (
            "pacru",
            2,
            {"start_layout": "x"},
            "unknown start_layout 'x'; valid: standard, ap-legacy-2p, abstractplay",
        ),
        (
            "pacru",
            3,
            {"start_layout": "ap-legacy-2p"},
            "start_layout 'ap-legacy-2p' is for 2 players, not 3",
        ),
        ("pacru", 2, {"meeting_rule": "x"}, "meeting_rule must be one of 2011, original, not 'x'"),
        ("shacru", 2, {"meeting_rule": "original"}, "meeting_rule applies to Pacru only"),
        ("pacru", 2, {"move_cap": 0}, "move_cap must be a positive number of plies, not 0"),
        ("pacru", 2, {"move_cap": "5"}, "move_cap must be a positive number of plies, not '5'"),
        ("shacru", 2, {"idle_rounds": 0}, "idle_rounds must be a positive whole number, not 0"),
        (
            "shacru",
            2,
            {"idle_rounds": "x"},
            "idle_rounds must be a positive whole number, not 'x'",
        ),
        (
            "pacru",
            2,
            {"idle_rounds": 5},
            "idle_rounds applies to Lilacru and Shacru only (ruling D33)",
        ),
        ("pacru", 2, {"colours": "ab"}, "colours must list 2 colour names, one per seat"),
        ("pacru", 2, {"colours": ("a",)}, "colours must list 2 colour names, one per seat"),
        (
            "pacru",
            2,
            {"turn_order": ("green", "red")},
            "turn_order must list each of green, yellow once",
        ),
        (
            "pacru",
            2,
            {"first_player": "red"},
            "first_player must be one of green, yellow, not 'red'",
        ),
    ],
)
def test_new_game_option_errors(
    game: str, players: int, options: dict[str, Any], message: str
) -> None:
    """A bad option is a ValueError naming the valid values exactly."""
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        pacru.new_game(game, players, **options)


def test_option_boundaries_are_accepted() -> None:
    """The smallest positive cap and idle limit are valid, and kept as options (D32, D33)."""
    assert pacru.new_game("pacru", 2, move_cap=1).options() == {"move_cap": 1}
    assert pacru.new_game("shacru", 2, idle_rounds=1).options() == {"idle_rounds": 1}
    assert pacru.new_game("lilacru", 2, idle_rounds=81).options() == {}


@pytest.mark.parametrize(
    ("layout", "players", "position"),
    [
        (
            "standard",
            2,
            "players=green,yellow turn=green markers=- "
            "chevrons=green:e1N,a3E,i3W,i9SW;yellow:a1NE,a7E,i7W,e9S",
        ),
        (
            "standard",
            3,
            "players=yellow,red,black turn=yellow markers=- "
            "chevrons=yellow:a7E,i7W,e9S;red:g1N,i5W,g9S;black:c1N,a5E,c9S",
        ),
        (
            "standard",
            4,
            "players=green,black,yellow,red turn=green markers=- "
            "chevrons=green:e1N,a3E,i3W;black:c1N,a5E,c9S;yellow:a7E,i7W,e9S;red:g1N,i5W,g9S",
        ),
        (
            "ap-legacy-2p",
            2,
            "players=red,black turn=red markers=- "
            "chevrons=red:g1N,i5W,a9SE,g9S;black:c1N,i1NW,a5E,c9S",
        ),
        (
            "abstractplay",
            3,
            "players=red,black,yellow turn=red markers=- "
            "chevrons=red:g1N,i5W,g9S;black:c1N,a5E,c9S;yellow:a7E,i7W,e9S",
        ),
        (
            "abstractplay",
            4,
            "players=red,black,yellow,green turn=red markers=- "
            "chevrons=red:g1N,i5W,g9S;black:c1N,a5E,c9S;yellow:a7E,i7W,e9S;green:e1N,a3E,i3W",
        ),
    ],
)
def test_start_layouts_b2_b5(layout: str, players: int, position: str) -> None:
    """Every layout's seats, corner chevrons, colours and turn order (B.2-B.5, D1, D2)."""
    state = pacru.new_game("shacru", players, start_layout=layout)
    assert state.to_position() == f"shacru {position}"


def test_turn_order_and_first_player_d2() -> None:
    """first_player keeps the cyclic order; turn_order sets any order (D2)."""
    first = pacru.new_game("azacru", 4, first_player="Yellow")
    assert first.players == ("yellow", "red", "green", "black")
    order = pacru.new_game("azacru", 4, turn_order=("red", "green", "yellow", "black"))
    assert order.players == ("red", "green", "yellow", "black")
    assert order.chevron_at("i5") == pacru.Chevron("red", pacru.Direction.W)
    renamed = pacru.new_game("pacru", 2, colours=("Blue", "white"), first_player="white")
    assert renamed.players == ("white", "blue")
    assert renamed.chevron_at("e9") == pacru.Chevron("white", pacru.Direction.S)
