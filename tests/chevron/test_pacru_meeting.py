"""Pacru meeting: {R12} (2011 amendment and the original), rulings D21-D23, D46-D48; E.1-13.

Meeting fields are checked as exact sets: every field that is unoccupied and
not the mover's after the move's other effects (D23). D23's "nothing if none
exists" cannot arise in a legal position: the mover owns at most target - 1
fields before the meeting (else the supply is spent, D29) and at most 8
fields hold chevrons, so at least 81 - 41 - 8 = 32 fields qualify.
"""

from __future__ import annotations

import pytest

from pacru import ChevronState

from .helpers import error_of, family, land, pos

ALL = [f"{c}{r}" for r in range(1, 10) for c in "abcdefghi"]


def targets(occupied: set[str], own: set[str]) -> list[str]:
    """D23: the fields a meeting may change, from the board after the move."""
    return [f for f in ALL if f not in occupied and f not in own]


YELLOW_9 = "yellow:" + ",".join(land("e5"))  # 9 yellow markers (the AP test fills d4-f6)
YELLOW_8 = "yellow:" + ",".join(land("e5")[:8])
YELLOW_B8 = "yellow:" + ",".join(land("b8"))


def e1_13(g8: str = "g8,", yellow: str = YELLOW_9, extra: str = "") -> ChevronState:
    """E.1-13: red g9 S on red, red g7 N on red; g9-g8 faces g7."""
    return pos(
        f"pacru players=red,yellow markers=red:g9,{g8}g7;{yellow} "
        f"chevrons=red:g9S,g7N;yellow:a1N{extra}"
    )


def test_e1_13_meeting_with_nine_opponent_markers() -> None:
    """E.1-13, R12, D23: red may change any unoccupied non-red field, a yellow one too."""
    state = e1_13()
    expected = targets({"g8", "g7", "a1"}, {"g9", "g8", "g7"})
    assert len(expected) == 77
    assert family(state, "g9-g8") == {f"g9-g8@{f}" for f in expected}
    after = state.apply_move("g9-g8@e5")  # drops yellow to 8: judged before the change (D22)
    assert after.marker_at("e5") == "red"
    assert after.scores == {"red": 4, "yellow": 8}


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        ("g9-g8", "D23", "meeting-required"),
        ("g9-g8@g7", "D23", "bad-meeting-field"),  # occupied and own
        ("g9-g8@g9", "D23", "bad-meeting-field"),  # own (just vacated, but red)
        ("g9-g8@a1", "D23", "bad-meeting-field"),  # occupied by yellow
    ],
)
def test_e1_13_forbidden(move: str, rule: str, reason: str) -> None:
    err = error_of(e1_13(), move)
    assert (err.rule, err.reason) == (rule, reason)


def test_e1_13_eight_opponent_markers_no_benefit() -> None:
    """R12 (2011): with yellow at 8 the meeting gives nothing."""
    state = e1_13(yellow=YELLOW_8)
    assert family(state, "g9-g8") == {"g9-g8"}
    err = error_of(state, "g9-g8@e5")
    assert (err.rule, err.reason) == ("R12", "no-meeting")


def test_d48_original_rule_has_no_threshold() -> None:
    """D48, R12 original text: meeting_rule=original gives the benefit with yellow at 8."""
    state = e1_13(yellow=YELLOW_8, extra=" meeting_rule=original")
    assert state.rules.meeting_rule == "original"
    expected = targets({"g8", "g7", "a1"}, {"g9", "g8", "g7"})
    assert family(state, "g9-g8") == {f"g9-g8@{f}" for f in expected}


def test_d48_original_with_a_single_opponent_marker() -> None:
    state = e1_13(yellow="yellow:a9", extra=" meeting_rule=original")
    expected = targets({"g8", "g7", "a1"}, {"g9", "g8", "g7"})
    assert "a9" in expected
    assert family(state, "g9-g8") == {f"g9-g8@{f}" for f in expected}


def test_e1_13_neutral_landing_field_no_meeting() -> None:
    """E.1-13, D21: g8 neutral: no crossing puts a marker there, so the pair is not on red."""
    state = e1_13(g8="")
    assert family(state, "g9-g8") == {"g9-g8"}


def test_d21_diagonal_meeting() -> None:
    """D21: NE meets SW. d4 moves to e5 (red) facing NE; f6 faces SW on red."""
    state = pos(
        f"pacru players=red,yellow markers=red:d4,e5,f6;{YELLOW_B8} "
        "chevrons=red:d4NE,f6SW;yellow:a1N"
    )
    expected = targets({"e5", "f6", "a1"}, {"d4", "e5", "f6"})
    assert family(state, "d4-e5") == {f"d4-e5@{f}" for f in expected}


def test_d21_partner_must_face_back() -> None:
    """D21: a partner facing elsewhere (g7 facing E), or an opponent's chevron, is no meeting."""
    sideways = pos(
        f"pacru players=red,yellow markers=red:g9,g8,g7;{YELLOW_9} chevrons=red:g9S,g7E;yellow:a1N"
    )
    assert family(sideways, "g9-g8") == {"g9-g8"}
    state = pos(
        f"pacru players=red,yellow markers=red:g9,g8,g7;{YELLOW_9} chevrons=red:g9S;yellow:g7N"
    )
    assert family(state, "g9-g8") == {"g9-g8"}


def test_d21_partner_must_stand_on_own_field() -> None:
    state = pos(
        f"pacru players=red,yellow markers=red:g9,g8;{YELLOW_9} chevrons=red:g9S,g7N;yellow:a1N"
    )
    assert family(state, "g9-g8") == {"g9-g8"}


def test_d21_pre_existing_pair_does_not_retrigger() -> None:
    """D21: g8 S and g7 N already meet; moving another chevron is no meeting."""
    state = pos(
        f"pacru players=red,yellow markers=red:g8,g7;{YELLOW_9} chevrons=red:g8S,g7N,c5N;yellow:a1N"
    )
    assert family(state, "c5-c6") == {"c5-c6"}
    assert all(m.meeting is None for m in state.legal_moves())


# D21 with a crossing: h3 W (power 2 from g1, i1) to f3, facing e3 (E, on red).
LANDING = (
    f"pacru players=red,yellow markers=red:g1,i1,e3;{YELLOW_9} chevrons=red:h3W,e3E;yellow:a9SE"
)


def test_d21_crossing_marker_on_landing_field_makes_the_meeting() -> None:
    """D21 (AP test "h3-f3(f3)"): only +f3 puts red under both chevrons."""
    state = pos(LANDING)
    plain = {f"h3-f3+{f}" for f in land("e2") if f not in {"e3", "f3"}}
    meet = {f"h3-f3+f3@{f}" for f in targets({"f3", "e3", "a9"}, {"g1", "i1", "e3", "f3"})}
    assert family(state, "h3-f3") == plain | meet
    err = error_of(state, "h3-f3+f3")
    assert (err.rule, err.reason) == ("D23", "meeting-required")


def test_d47_meeting_field_may_be_the_vacated_field() -> None:
    """D47: g9 (neutral) was just left and is unoccupied: a valid meeting field."""
    assert "g9-g8@g9" not in family(e1_13(), "g9-g8")  # red g9 is own
    neutral_start = pos(
        f"pacru players=red,yellow markers=red:g8,g7;{YELLOW_9} chevrons=red:g9S,g7N;yellow:a1N"
    )
    after = neutral_start.apply_move("g9-g8@g9")
    assert after.marker_at("g9") == "red"
    assert after.chevron_at("g9") is None


def test_d46_one_meeting_per_move() -> None:
    """D46: h9 faces g8 from behind the moved chevron: still one meeting, one field."""
    state = pos(
        f"pacru players=red,yellow markers=red:g9,g8,g7,h9;{YELLOW_9} "
        "chevrons=red:g9S,g7N,h9SW;yellow:a1N"
    )
    expected = targets({"g8", "g7", "h9", "a1"}, {"g9", "g8", "g7", "h9"})
    assert family(state, "g9-g8") == {f"g9-g8@{f}" for f in expected}


def test_d22_threshold_is_the_largest_opponent_not_the_sum() -> None:
    """D22: yellow 5 and black 5 make 10 together, but no single opponent has 9."""
    state = pos(
        "pacru players=red,yellow,black markers=red:g9,g8,g7;yellow:a1,a2,a3,a4,a5;"
        "black:b1,b2,b3,b4,b5 chevrons=red:g9S,g7N;yellow:e5N;black:c9S"
    )
    assert family(state, "g9-g8") == {"g9-g8"}


def test_d22_eliminated_players_markers_count() -> None:
    """D22: black is out, but its 9 markers stay and it is still an opponent."""
    state = pos(
        "pacru players=red,yellow,black out=black markers=red:g9,g8,g7;"
        f"black:{','.join(land('e5'))} chevrons=red:g9S,g7N;yellow:a1N"
    )
    assert state.eliminated == ("black",)
    expected = targets({"g8", "g7", "a1"}, {"g9", "g8", "g7"})
    assert family(state, "g9-g8") == {f"g9-g8@{f}" for f in expected}


# D22 timing: red g9 S crosses into e8 (no neutral field) onto red f8, facing SW to e7 (NE).
TIMING = (
    "pacru players=red,yellow markers=red:f8,e7;yellow:d7,f7,d8,e8,d9,e9,f9,a5{more} "
    "chevrons=red:g9S,e7NE;yellow:a1N{rule}"
)


def test_d22_threshold_judged_after_the_moves_other_effects() -> None:
    """D22: the transformation takes yellow from 9 to 8, so there is no meeting benefit.

    Known difference: AbstractPlay judges the threshold before the chosen
    fields and would give this meeting.
    """
    state = pos(TIMING.format(more=",a6", rule=""))
    assert state.scores["yellow"] == 9
    yellow_e8 = ("d7", "f7", "d8", "e8", "d9", "e9", "f9")
    assert family(state, "g9-f8") == {f"g9-f8+{f}" for f in yellow_e8}


def test_d22_ten_opponent_markers_leave_nine_after_the_transformation() -> None:
    state = pos(TIMING.format(more=",a6,a4", rule=""))
    yellow_e8 = ("d7", "f7", "d8", "e8", "d9", "e9", "f9")
    expected = {
        f"g9-f8+{t}@{f}" for t in yellow_e8 for f in targets({"f8", "e7", "a1"}, {"f8", "e7", t})
    }
    assert family(state, "g9-f8") == expected


def test_d22_original_rule_ignores_the_drop() -> None:
    state = pos(TIMING.format(more=",a6", rule=" meeting_rule=original"))
    assert len(family(state, "g9-f8")) == 7 * 77


def test_d22_connection_change_can_drop_the_threshold() -> None:
    """D22: the connection g9-g7 converts yellow g8 (9 -> 8): no meeting; a plain pair does."""
    base = (
        "pacru players=red,yellow markers=red:g9,h9,g7,g6;yellow:g8,{yellow} "
        "chevrons=red:g9S,g6N;yellow:a1N"
    )
    eight = ",".join(land("e5")[:8])
    assert family(pos(base.format(yellow=eight)), "g9-g7") == {"g9-g7*"}
    nine = ",".join(land("e5"))
    state = pos(base.format(yellow=nine))
    expected = targets({"g7", "g6", "a1"}, {"g9", "h9", "g8", "g7", "g6"})
    assert family(state, "g9-g7") == {f"g9-g7*@{f}" for f in expected}
