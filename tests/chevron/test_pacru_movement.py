"""Pacru movement: {R1}-{R3}, {R5}-{R7}, rulings D8, D39, D40, D41; E.1-6, E.1-7, E.3.

Every position has an opponent chevron somewhere harmless: a player alone on
the board has already won {R16a}.
"""

from __future__ import annotations

import pytest

import pacru
from pacru import Chevron, Direction

from .helpers import error_of, land, moves_of, pos, supply_of


def steps(state: pacru.ChevronState) -> set[str]:
    return {str(m) for m in state.legal_moves() if m.target is not None}


def test_r1_supply_by_player_count() -> None:
    """R1: 42 markers each with 2 players, 28 with 3, 24 with 4; none on the board at first."""
    for players, supply in ((2, 42), (3, 28), (4, 24)):
        state = pacru.new_game("pacru", players)
        assert set(supply_of(state).values()) == {supply}
        assert len(supply_of(state)) == players
        assert state.marker_map() == {}


def test_d40_a_plain_move_places_no_marker() -> None:
    """R3, D40: arriving on a neutral field places no marker; the supply is unchanged."""
    state = pacru.new_game("pacru", 2).apply_move("e1-e2")
    assert state.marker_map() == {}
    assert state.chevron_at("e2") == Chevron("green", Direction.N)
    assert state.chevron_at("e1") is None
    assert dict(supply_of(state)) == {"green": 42, "yellow": 42}


def test_d40_moving_onto_own_field_gains_nothing() -> None:
    state = pos("pacru players=red,yellow markers=red:e6 chevrons=red:e5N;yellow:a9SE")
    after = state.apply_move("e5-e6")
    assert after.marker_map() == {"e6": "red"}
    assert after.chevron_at("e6") == Chevron("red", Direction.N)


# E.1-6 (R5): red b2 facing NE on a neutral field, R: a1 c1 a3 -> power 3.
E1_6 = "pacru players=red,yellow markers=red:a1,c1,a3 chevrons=red:b2NE;yellow:i9SW"


def test_e1_6_corner_borderland_power_three() -> None:
    """E.1-6, R5, R6: nine destinations; the five crossings each need a marker of the new land."""
    state = pos(E1_6)
    assert state.power_of_movement("b2") == 3
    expected = {"b2-b3", "b2-c3", "b2-c2"}
    for target, centre in (("b4", "b5"), ("b5", "b5"), ("d4", "e5"), ("e5", "e5")):
        expected |= {f"b2-{target}+{f}" for f in land(centre)}
    expected |= {f"b2-{t}+{f}" for t in ("d2", "e2") for f in land("e2")}
    assert steps(state) == expected
    # R14: the three own fields also pay for a 45-degree reorientation of b2 (D25).
    assert moves_of(state) - expected == {
        f"b2{turn}({pair})" for turn in "<>" for pair in ("a1,c1", "a1,a3", "c1,a3")
    }


def test_r6_long_move_ends_facing_the_direction_of_travel() -> None:
    state = pos(E1_6)
    assert state.apply_move("b2-e5+e5").chevron_at("e5") == Chevron("red", Direction.NE)
    assert state.apply_move("b2-b4+a4").chevron_at("b4") == Chevron("red", Direction.N)
    assert state.apply_move("b2-e2+f3").chevron_at("e2") == Chevron("red", Direction.E)


# E.1-7 (R7): E.1-6 plus a chevron on d4 and Y: b3 b5.
E1_7 = (
    "pacru players=red,yellow markers=red:a1,c1,a3;yellow:b3,b5 chevrons=red:b2NE;yellow:d4E,i9SW"
)


def test_e1_7_fewer_moves() -> None:
    """E.1-7, R7, D8: c3 (d4 blocks, b2 is not red: no jump), b4 over yellow b3, c2, d2, e2."""
    state = pos(E1_7)
    b5_neutral = [f for f in land("b5") if f != "b5"]
    assert steps(state) == (
        {"b2-c3", "b2-c2"}
        | {f"b2-b4+{f}" for f in b5_neutral}
        | {f"b2-{t}+{f}" for t in ("d2", "e2") for f in land("e2")}
    )


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        ("b2-b3", "R7", "opponent-field"),  # may pass over yellow b3, not stop on it
        ("b2-b5", "R7", "opponent-field"),
        ("b2-d4", "R7", "occupied"),  # D41: no move onto a chevron without a pincer
        ("b2-e5", "R7", "jump-not-connection"),  # b2 is not red: no connection jump
        ("b2-b6", "R5", "beyond-power"),
        ("b2-a3", "R3", "not-forward"),
        ("b2-a2", "R3", "not-forward"),
        ("b2-d3", "R3", "not-straight"),
        ("b2-b4", "R4", "marker-required"),  # a crossing must place its marker (R6)
        ("b2-c3+c3", "R4", "marker-without-crossing"),
        ("b2-b4+b5", "R6", "bad-marker-field"),  # b5 is yellow
        ("b2-b4+d4", "R6", "bad-marker-field"),  # not in the new borderland
        ("i9-h8", "R3", "not-your-chevron"),
        ("e5-e6", "R3", "no-chevron"),
        ("pass", "R2", "pass-not-allowed"),
    ],
)
def test_e1_7_forbidden(move: str, rule: str, reason: str) -> None:
    err = error_of(pos(E1_7), move)
    assert (err.rule, err.reason) == (rule, reason)


def test_r7_moving_onto_own_chevron_is_forbidden() -> None:
    """D41: neither onto an own chevron."""
    state = pos("pacru players=red,yellow chevrons=red:e5N,e6N;yellow:a9SE")
    assert (error_of(state, "e5-e6").rule, error_of(state, "e5-e6").reason) == ("R7", "occupied")
    assert steps(state) == {"e5-d6", "e5-f6"} | {
        f"e6-{t}+{f}" for t in ("d7", "e7", "f7") for f in land("e8")
    }


@pytest.mark.parametrize(
    ("markers", "power"),
    [
        ("-", 1),  # minimum 1
        ("red:e5", 1),  # the field under the chevron counts
        ("red:e5,d4,f6", 3),
        ("red:d4,f6", 2),  # the chevron's own field need not be red
        ("red:d4,e3,g5,e7", 1),  # only the starting borderland counts (e3, g5, e7 are outside)
        ("red:d4;yellow:e4,f4,d5", 1),  # opponents' fields do not count
        ("red:d4,e4,f4,d5,e5,f5,d6,e6,f6", 9),
    ],
)
def test_r5_power_of_movement(markers: str, power: int) -> None:
    """R5, D39: own fields of the borderland where the move starts, the chevron's own included."""
    state = pos(f"pacru players=red,yellow markers={markers} chevrons=red:e5N;yellow:a9SE")
    assert state.power_of_movement("e5") == power
    north = {str(m)[3:5] for m in state.legal_moves() if str(m)[:4] == "e5-e"}
    assert north == {f"e{5 + k}" for k in range(1, min(power, 4) + 1)}


def test_d8_markers_never_block_long_moves() -> None:
    """D8, R7 caption: a long move passes over own, opponent and neutral fields alike."""
    state = pos(
        "pacru players=red,yellow markers=red:e5,d5,f5;yellow:e6,e7 chevrons=red:e5N;yellow:a9SE"
    )
    assert {str(m) for m in state.legal_moves() if str(m).startswith("e5-e")} == {
        "e5-e8+" + f for f in land("e8") if f != "e7"
    }


def test_r7_a_chevron_blocks_the_ray() -> None:
    """R7: no jump over a chevron except in a connection jump (R9)."""
    state = pos("pacru players=red,yellow markers=red:d5,f5 chevrons=red:e5N;yellow:e6S,a9SE")
    assert {str(m)[:5] for m in state.legal_moves() if str(m).startswith("e5-e")} == set()
    assert error_of(state, "e5-e7").reason == "jump-not-connection"


@pytest.mark.parametrize(
    ("facing", "targets"),
    [
        ("SW", set()),
        ("S", set()),
        ("W", set()),
        ("SE", {"b1"}),
        ("NW", {"a2"}),
        ("N", {"a2", "b2"}),
        ("E", {"b1", "b2"}),
        ("NE", {"a2", "b2", "b1"}),
    ],
)
def test_e3_corner_chevron_moves(facing: str, targets: set[str]) -> None:
    """E.3: at a1, facing SW, S or W gives no move; SE one; NW one; N and E two; NE three."""
    state = pos(f"pacru players=red,yellow chevrons=red:a1{facing},e5N;yellow:i9SW")
    assert {m.target for m in state.legal_moves() if m.origin == 0} == {
        pacru.parse_field(t) for t in targets
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_e3_every_starting_chevron_has_three_one_step_moves(players: int) -> None:
    """E.3, B.2: at the start every chevron of the player to move has three destinations."""
    state = pacru.new_game("pacru", players)
    seat = state.chevrons[state.to_move]
    targets: dict[int, set[int | None]] = {code >> 3: set() for code in seat}
    for move in state.legal_moves():
        assert move.origin is not None
        targets[move.origin].add(move.target)
    assert all(len(t) == 3 for t in targets.values())
