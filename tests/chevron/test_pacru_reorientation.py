"""Pacru reorientation: {R14}, rulings D24, D25, D26, D45; E.1-15."""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

import pytest

from pacru import Chevron, ChevronState, Direction, NotationError, from_position
from pacru.explanation import explain

from .helpers import error_of, pos, supply_of


def reorientations(state: ChevronState) -> set[str]:
    return {str(m) for m in state.legal_moves() if m.target is None}


# E.1-15: red a1 faces SW and cannot move; red e5 can; exactly 3 unoccupied red fields.
E1_15 = "pacru players=red,yellow markers=red:c5,c6,d7 chevrons=red:a1SW,e5N;yellow:i9S"


def test_e1_15_stuck_chevron_may_turn_45_degrees() -> None:
    """E.1-15, R14, D25, D26: each chevron (a1 too) turns 45 degrees for 2 of the 3 fields."""
    state = pos(E1_15)
    assert not any(m.origin == 0 for m in state.legal_moves() if m.target is not None)
    pairs = ("c5,c6", "c5,d7", "c6,d7")
    assert reorientations(state) == {
        f"{c}{t}({p})" for c in ("a1", "e5") for t in "<>" for p in pairs
    }


def test_e1_15_turn_and_payment() -> None:
    """R14, D45: a1 < turns SW -> S; c5 and c6 become neutral and go back to the supply."""
    state = pos(E1_15)
    after = state.apply_move("a1<(c5,c6)")
    assert after.chevron_at("a1") == Chevron("red", Direction.S)
    assert after.marker_map() == {"d7": "red"}
    assert supply_of(after)["red"] == supply_of(state)["red"] + 2
    assert after.current_player == "yellow"
    assert state.apply_move("a1>(c5,d7)").chevron_at("a1") == Chevron("red", Direction.W)


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        ("a1>>(c5,c6,d7,e5)", "D25", "too-few-fields"),  # only 3 red fields: no 90 degrees
        ("a1>>(c5,c6)", "D25", "too-few-fields"),
        ("a1>(c5)", "R14", "wrong-payment"),
        ("a1>(c5,c6,d7)", "R14", "wrong-payment"),
        ("a1>(c5,e4)", "D25", "relinquish-not-own"),
        ("i9>(c5,c6)", "R3", "not-your-chevron"),
        ("b2>(c5,c6)", "R3", "no-chevron"),
    ],
)
def test_e1_15_forbidden(move: str, rule: str, reason: str) -> None:
    err = error_of(pos(E1_15), move)
    assert (err.rule, err.reason) == (rule, reason)


def test_d25_only_unoccupied_own_fields_pay() -> None:
    """D25, R7: e5 is red but under a chevron, so it cannot be given up."""
    state = pos("pacru players=red,yellow markers=red:c5,c6,e5 chevrons=red:a1SW,e5N;yellow:i9S")
    assert reorientations(state) == {f"{c}{t}(c5,c6)" for c in ("a1", "e5") for t in "<>"}
    err = error_of(state, "a1>(c5,e5)")
    assert (err.rule, err.reason) == ("D25", "relinquish-occupied")


def test_d25_fewer_than_two_fields_no_reorientation() -> None:
    state = pos("pacru players=red,yellow markers=red:c5 chevrons=red:a1SW,e5N;yellow:i9S")
    assert reorientations(state) == set()


@pytest.mark.parametrize("move", ["a1>(c5,c6)", "a1<(c5,e5)", "a1>(c5)"])
def test_d25_too_few_own_fields_is_named(move: str) -> None:
    """D25: with one unoccupied red field, no 45-degree turn; the error and explain say why
    (they said "not legal here" or blamed a field given up)."""
    state = pos("pacru players=red,yellow markers=red:c5,e5 chevrons=red:a1SW,e5N;yellow:i9S")
    message = "red has 1 unoccupied field of their own, and a 45-degree turn gives up 2 (R14)"
    err = error_of(state, move)
    assert (err.rule, err.reason, err.detail) == ("D25", "too-few-fields", message)
    explained = explain(state, move)
    assert (explained.legal, explained.rule, explained.reason) == (False, "D25", "too-few-fields")
    assert explained.message == message


def test_d25_too_few_own_fields_for_a_90_degree_turn() -> None:
    err = error_of(pos(E1_15), "a1>>(c5,c6,d7,e5)")
    assert err.detail == (
        "red has 3 unoccupied fields of their own, and a 90-degree turn gives up 4 (R14)"
    )


def test_r14_no_reorientation_when_no_chevron_can_move() -> None:
    """R14, D26: red's only chevron a1 (facing SW) cannot move, so red may not reorient, even
    with fields to give up (a diagram: play would have eliminated red, R15)."""
    text = "pacru players=red,yellow markers=red:c5,c6,d7,e5 chevrons=red:a1SW;yellow:i9S"
    state: Any = from_position(text, adjudicate=False)
    assert len(state.legal_moves()) == 0
    message = (
        "red may reorient only if one of their chevrons can move this turn, and none can (D26)"
    )
    for move in ("a1>(c5,c6)", "a1<<(c5,c6,d7,e5)"):
        err = error_of(state, move)
        assert (err.rule, err.reason, err.detail) == ("R14", "no-movable-chevron", message)
        explained = explain(state, move)
        assert (explained.rule, explained.reason, explained.message) == (
            "R14",
            "no-movable-chevron",
            message,
        )


def test_d25_no_135_or_180_degree_turn_in_the_grammar() -> None:
    state = pos(E1_15)
    for text in ("a1>>>(c5,c6,d7)", "a1<<<<(c5,c6)", "a1(c5,c6)"):
        with pytest.raises(NotationError):
            state.apply_move(text)


def test_r14_ninety_degrees_for_four_fields_anywhere() -> None:
    """R14, D25: 90 degrees costs 4 fields, which may lie anywhere on the board."""
    fields = ("a1", "i1", "e5", "a9", "i9")
    state = pos(
        f"pacru players=red,yellow markers=red:{','.join(fields)} chevrons=red:c3N;yellow:g7S"
    )
    quads = {",".join(q) for q in combinations(fields, 4)}
    pairs = {",".join(p) for p in combinations(fields, 2)}
    assert reorientations(state) == {f"c3{t}({p})" for t in "<>" for p in pairs} | {
        f"c3{t}({q})" for t in ("<<", ">>") for q in quads
    }
    after = state.apply_move("c3>>(a1,i1,e5,a9)")
    assert after.chevron_at("c3") == Chevron("red", Direction.E)
    assert after.marker_map() == {"i9": "red"}
    assert state.apply_move("c3<<(a1,i1,e5,i9)").chevron_at("c3") == Chevron("red", Direction.W)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6, 9])
def test_r14_number_of_reorientations(n: int) -> None:
    """R14: 4 chevrons x (2 * C(n, 2) + 2 * C(n, 4)) with n unoccupied own fields."""
    own = [f"{c}{r}" for r in (4, 5, 6) for c in "def"][:n]
    markers = f"red:{','.join(own)}" if own else "-"
    state = pos(
        f"pacru players=red,yellow markers={markers} "
        "chevrons=red:a3E,e1N,i3W,i9SW;yellow:a7E,e9S,i7W,a1NE"
    )
    count = len(state.legal_moves()) - sum(f.size for f in state.legal_moves().steps)
    assert count == 4 * (2 * comb(n, 2) + 2 * comb(n, 4))
    assert len(reorientations(state)) == count


def test_d26_no_reorientation_when_no_chevron_can_move() -> None:
    """D26, R14, R15: with every chevron stuck red is out before it could reorient."""
    state = pos("pacru players=red,yellow markers=red:c5,c6,d7 chevrons=red:a1SW;yellow:i9S")
    assert state.eliminated == ("red",)
    assert state.winners == ("yellow",)
    assert state.legal_moves() == []


def test_d24_a_reorientation_makes_no_meeting() -> None:
    """D24: turning g9 to face g8's N chevron on red gives no meeting field (yellow has 9)."""
    yellow = ",".join(f"{c}{r}" for r in (4, 5, 6) for c in "def")
    state = pos(
        f"pacru players=red,yellow markers=red:g9,g8,a1,a2,a3;yellow:{yellow} "
        "chevrons=red:g9SE,g8N;yellow:i1N"
    )
    move = state.parse_move("g9>(a1,a2)")
    assert move.meeting is None
    after = state.apply_move(move)
    assert after.chevron_at("g9") == Chevron("red", Direction.S)
    assert after.marker_map() == {
        "g9": "red", "g8": "red", "a3": "red", **dict.fromkeys(yellow.split(","), "yellow")
    }  # fmt: skip
    # The pair now faces each other, but it was formed by no move: moving on is no meeting.
    assert all(m.meeting is None for m in after.apply_move("i1-i2").legal_moves())
