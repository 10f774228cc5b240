"""Pacru connections: {R8}, {R9}, rulings D9, D10, D11, D13; E.1-8."""

from __future__ import annotations

import pytest

from pacru import Chevron, Direction

from .helpers import error_of, family, land, pos

# E.1-8 (R8): red g9 facing S, R: g9 i9 i8 e7 -> power 3 in h8.
E1_8 = "pacru players=red,yellow markers=red:g9,i9,i8,e7 chevrons=red:g9S;yellow:a1N"


def test_e1_8_connection_or_crossing_choose_one() -> None:
    """E.1-8, R8, D13: g9-e7 is a connection and a crossing: '*' or one field of e8."""
    state = pos(E1_8)
    assert family(state, "g9-e7") == {"g9-e7*"} | {f"g9-e7+{f}" for f in land("e8") if f != "e7"}
    connection = state.apply_move("g9-e7*")
    assert connection.marker_map() == {
        "g9": "red", "i9": "red", "i8": "red", "e7": "red", "f8": "red"
    }  # fmt: skip
    assert connection.chevron_at("e7") == Chevron("red", Direction.SW)
    crossing = state.apply_move("g9-e7+d9")
    assert crossing.marker_map() == {
        "g9": "red", "i9": "red", "i8": "red", "e7": "red", "d9": "red"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        ("g9-e7", "R4", "marker-required"),
        ("g9-e7*+d9", "R8", "connection-and-crossing"),
        ("g9-e7+e7", "R6", "bad-marker-field"),  # own already
    ],
)
def test_e1_8_forbidden(move: str, rule: str, reason: str) -> None:
    err = error_of(pos(E1_8), move)
    assert (err.rule, err.reason) == (rule, reason)


# A connection inside e5: red e4 facing N, R: e4 d4 f4 e6 (power 4), yellow e5.
INSIDE = "pacru players=red,yellow markers=red:e4,d4,f4,e6;yellow:e5 chevrons=red:e4N;yellow:a9SE"


def test_d10_connection_change_is_compulsory() -> None:
    """D10: with no crossing the connection change is the only choice, written '*'."""
    state = pos(INSIDE)
    assert family(state, "e4-e6") == {"e4-e6*"}
    err = error_of(state, "e4-e6")
    assert (err.rule, err.reason) == ("R8", "connection-required")


def test_r8_connection_converts_opponent_fields_and_keeps_the_chevron() -> None:
    """R8: neutral and opponent fields between turn red; no self-removal (unlike A-R7)."""
    after = pos(INSIDE).apply_move("e4-e6*")
    assert after.marker_map() == {
        "e4": "red", "d4": "red", "f4": "red", "e5": "red", "e6": "red"
    }  # fmt: skip
    assert after.chevron_at("e6") == Chevron("red", Direction.N)
    assert after.supply == {"red": 37, "yellow": 42}  # D29: yellow's marker went back


def test_r8_crossing_connection_lands_on_own_field_in_new_land() -> None:
    """E.1-8 again: the connection over f8 changes exactly f8 (the start and end are red)."""
    after = pos(E1_8).apply_move("g9-e7*")
    assert set(after.marker_map()) - set(pos(E1_8).marker_map()) == {"f8"}


def test_d9_one_step_between_own_fields_is_no_connection() -> None:
    """D9: a connection is 2 fields or more."""
    state = pos("pacru players=red,yellow markers=red:e4,e5 chevrons=red:e4N;yellow:a9SE")
    assert family(state, "e4-e5") == {"e4-e5"}
    err = error_of(state, "e4-e5*")
    assert (err.rule, err.reason) == ("R8", "not-connection")


def test_d9_start_field_must_be_own_before_the_move() -> None:
    """D9: from a neutral field onto an own field is a long move, not a connection."""
    state = pos("pacru players=red,yellow markers=red:e6,d4,f4 chevrons=red:e4N;yellow:a9SE")
    assert family(state, "e4-e6") == {"e4-e6"}
    after = state.apply_move("e4-e6")
    assert after.marker_map() == state.marker_map()


def test_d9_crossing_marker_on_landing_field_does_not_make_a_connection() -> None:
    """D9: g9 (red) to e7 (neutral): marking e7 by the crossing leaves f8 neutral."""
    state = pos("pacru players=red,yellow markers=red:g9,i9,i8 chevrons=red:g9S;yellow:a1N")
    assert family(state, "g9-e7") == {f"g9-e7+{f}" for f in land("e8")}
    after = state.apply_move("g9-e7+e7")
    assert after.marker_map() == {"g9": "red", "i9": "red", "i8": "red", "e7": "red"}


def test_d11_connection_over_own_fields_is_still_written_with_star() -> None:
    """D11, AP: a connection over own fields changes nothing, but is a connection ('*')."""
    state = pos("pacru players=red,yellow markers=red:e4,e5,e6 chevrons=red:e4N;yellow:a9SE")
    assert family(state, "e4-e6") == {"e4-e6*"}
    after = state.apply_move("e4-e6*")
    assert after.marker_map() == state.marker_map()


@pytest.mark.parametrize("blocker", ["red:e4N,e5E;yellow:a9SE", "red:e4N;yellow:e5S,a9SE"])
def test_d11_jump_over_any_chevron_changes_nothing(blocker: str) -> None:
    """R9, D11: over an own or an opponent chevron the move is a jump: no '*', no change."""
    state = pos(f"pacru players=red,yellow markers=red:e4,e6,d4;yellow:e5 chevrons={blocker}")
    assert family(state, "e4-e6") == {"e4-e6"}
    after = state.apply_move("e4-e6")
    assert after.marker_map() == state.marker_map()
    err = error_of(state, "e4-e6*")
    assert (err.rule, err.reason) == ("R8", "not-connection")


def test_r9_jump_must_land_on_an_own_field() -> None:
    """R9: a jump is part of a connection, so it lands on an own field only."""
    state = pos("pacru players=red,yellow markers=red:e4,d4,f4 chevrons=red:e4N;yellow:e5S,a9SE")
    assert family(state, "e4-e") == set()
    err = error_of(state, "e4-e6")
    assert (err.rule, err.reason) == ("R7", "jump-not-connection")


def test_d13_connection_or_transformation() -> None:
    """D13: the crossing benefit competing with the connection may be a transformation (R10)."""
    yellow = [f for f in land("e8") if f not in {"e7", "f8"}]
    state = pos(
        f"pacru players=red,yellow markers=red:g9,i9,i8,e7;yellow:f8,{','.join(yellow)} "
        "chevrons=red:g9S;yellow:a1N"
    )
    # f8 (yellow) lies between: the connection converts it; the transformation takes one field.
    assert family(state, "g9-e7") == {"g9-e7*"} | {f"g9-e7+{f}" for f in ("f8", *yellow)}
    assert state.apply_move("g9-e7*").marker_at("f8") == "red"
    transformed = state.apply_move("g9-e7+d9")
    assert (transformed.marker_at("d9"), transformed.marker_at("f8")) == ("red", "yellow")
