"""Pacru combined actions: {R13}, rulings D20, D30, D47; E.1-14 (AP test "Cell validation
edge cases")."""

from __future__ import annotations

import pytest

from pacru import Chevron, Direction, IllegalMoveError, NotationError
from pacru import abstractplay as ap

from .helpers import error_of, pos

ALL = [f"{c}{r}" for r in range(1, 10) for c in "abcdefghi"]
YELLOW = ("a4", "b4", "c4", "a5", "b5", "c5", "a6", "b6", "c6")
E5_NEUTRAL_AFTER = ("d4", "f4", "d5", "f5", "d6", "e6", "f6")

# E.1-14: Y: a4-c6 (9 yellow); red d3 N, red e3 N, yellow e4 N, red e5 S on red, R: i8.
# Yellow's a9 chevron (facing SE) keeps yellow in the game after e4 is taken (R16a).
E1_14 = (
    f"pacru players=red,yellow markers=red:e5,i8;yellow:{','.join(YELLOW)} "
    "chevrons=red:d3N,e3N,e5S;yellow:e4N,a9SE"
)


def meeting_targets(marker: str) -> list[str]:
    occupied = {"d3", "e4", "e5", "a9"}
    own = {"e5", "i8", "e4", marker}
    return [f for f in ALL if f not in occupied and f not in own]


def test_e1_14_all_pincers_exactly() -> None:
    """E.1-14, R11, R13, D20: attackers d3 (NE), e3 (N), e5 (S).

    * e3xe4 crosses e2 -> e5 (marker on an unoccupied neutral field of e5) and
      meets e5 (e4 N faces e5 S on red; yellow has 9): 7 x 75 moves;
    * d3xe4 crosses too but faces NE, towards an empty f5: no meeting;
    * e5xe4 stays in e5 and faces e3, whose field is neutral: nothing else.
    """
    state = pos(E1_14)
    expected = {"e5xe4"} | {f"d3xe4+{f}" for f in E5_NEUTRAL_AFTER}
    expected |= {f"e3xe4+{f}@{m}" for f in E5_NEUTRAL_AFTER for m in meeting_targets(f)}
    assert len(meeting_targets("e6")) == 75
    assert {str(m) for m in state.legal_moves() if m.capture} == expected


def test_e1_14_resolution_order() -> None:
    """D30: capture, move, crossing marker, then the meeting field (e3 is just vacated, D47)."""
    after = pos(E1_14).apply_move("e3xe4+e6@i9")
    assert after.marker_map() == {
        **dict.fromkeys(YELLOW, "yellow"),
        **dict.fromkeys(("e5", "i8", "e4", "e6", "i9"), "red"),
    }
    assert after.chevron_map() == {
        "d3": Chevron("red", Direction.N),
        "e4": Chevron("red", Direction.N),
        "e5": Chevron("red", Direction.S),
        "a9": Chevron("yellow", Direction.SE),
    }
    assert after.current_player == "yellow"
    vacated = pos(E1_14).apply_move("e3xe4+e6@e3")
    assert vacated.marker_at("e3") == "red"


def test_e1_14_meeting_may_take_an_opponent_field() -> None:
    after = pos(E1_14).apply_move("e3xe4+d4@a4")
    assert after.scores == {"red": 5, "yellow": 8}


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        ("e3xe4+e7@i9", "R6", "bad-marker-field"),  # the borderland marker outside e5
        ("e3xe4+e4@i9", "R6", "bad-marker-field"),  # the captured field
        ("e3xe4+e5@i9", "R6", "bad-marker-field"),  # a field with a chevron
        ("e3xe4+e6@d3", "D23", "bad-meeting-field"),  # a field with a chevron
        ("e3xe4+e6@a9", "D23", "bad-meeting-field"),  # an opponent's chevron
        ("e3xe4+e6@e6", "D23", "bad-meeting-field"),  # own once the crossing marker is down
        ("e3xe4+i8@i9", "R6", "bad-marker-field"),  # an own field
        ("e3xe4+e6@i8", "D23", "bad-meeting-field"),  # an own field
        ("e3xe4+e6", "D23", "meeting-required"),
        ("e3xe4@i9", "R4", "marker-required"),
        ("e3xe4*@i9", "R8", "not-connection"),
        ("d3xe4+e6@i9", "R12", "no-meeting"),
        ("e5xe4+e6", "R4", "marker-without-crossing"),
    ],
)
def test_e1_14_must_reject(move: str, rule: str, reason: str) -> None:
    """E.1-14 "must reject" list, each as an IllegalMoveError naming the rule."""
    err = error_of(pos(E1_14), move)
    assert (err.rule, err.reason) == (rule, reason)


def test_e1_14_third_extra_field() -> None:
    """E.1-14: a third field is not expressible in our grammar; in AP's it is illegal (R13)."""
    state = pos(E1_14)
    with pytest.raises(NotationError):
        state.apply_move("e3xe4+e6@i9@a1")
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(state, "e3xe4(e6,i9,a1)")
    assert (info.value.rule, info.value.reason) == ("R13", "too-many-fields")


YELLOW_E5 = ("d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6")  # e5 is red, under red's chevron
TRANSFORM = (
    "pacru players=red,yellow markers=red:e5;yellow:{yellow} "
    "chevrons=red:d3N,e3N,e5S;yellow:e4N,a9SE"
)


def test_r13_pincer_transformation_then_no_meeting_below_threshold() -> None:
    """R13, D20, D22: capture (10 -> 9) and transformation (9 -> 8) leave no meeting benefit."""
    state = pos(TRANSFORM.format(yellow=",".join((*YELLOW_E5, "a1", "a2"))))
    assert state.scores["yellow"] == 10
    expected = {f"e3xe4+{f}" for f in YELLOW_E5 if f != "e4"}
    assert {str(m) for m in state.legal_moves() if str(m).startswith("e3xe4")} == expected
    after = state.apply_move("e3xe4+f6")
    assert after.scores == {"red": 3, "yellow": 8}


def test_r13_pincer_transformation_and_meeting() -> None:
    """R13, D20: with 11 yellow markers 9 remain, so the meeting follows the transformation."""
    state = pos(TRANSFORM.format(yellow=",".join((*YELLOW_E5, "a1", "a2", "a3"))))
    expected = {
        f"e3xe4+{t}@{f}"
        for t in YELLOW_E5
        if t != "e4"
        for f in ALL
        if f not in {"d3", "e4", "e5", "a9", t}
    }
    assert {str(m) for m in state.legal_moves() if str(m).startswith("e3xe4")} == expected
    after = state.apply_move("e3xe4+f6@a1")
    assert after.scores == {"red": 4, "yellow": 8}


def test_d22_capture_of_a_victim_on_its_own_colour_drops_the_threshold() -> None:
    """D22: yellow has 9 with e4 under its chevron; e3xe4 leaves 8, so e3xe4 meets for nothing."""
    yellow = (*YELLOW[:8], "e4")
    state = pos(
        f"pacru players=red,yellow markers=red:e5,i8;yellow:{','.join(yellow)} "
        "chevrons=red:d3N,e3N,e5S;yellow:e4N,a9SE"
    )
    assert state.scores["yellow"] == 9
    assert {str(m) for m in state.legal_moves() if str(m).startswith("e3xe4")} == {
        f"e3xe4+{f}" for f in E5_NEUTRAL_AFTER
    }
