"""Pacru border crossing: {R4}, {R6}, {R9}, {R10}, rulings D14, D15, D16, D42; E.1-9, E.1-10."""

from __future__ import annotations

import pacru
from pacru import Chevron, Direction

from .helpers import error_of, family, land, pos, supply_of


def test_r4_first_crossing_marker_on_any_neutral_field_of_the_new_land() -> None:
    """R4, R6, D15: a3-b4 crosses b2 -> b5; the marker may go on b4 itself."""
    state = pacru.new_game("pacru", 2)
    assert family(state, "a3-b4") == {f"a3-b4+{f}" for f in land("b5")}
    after = state.apply_move("a3-b4+b4")
    assert after.marker_map() == {"b4": "green"}
    assert after.chevron_at("b4") == Chevron("green", Direction.NE)
    assert supply_of(after)["green"] == 41
    other = state.apply_move("a3-b4+c6")
    assert other.marker_map() == {"c6": "green"}


def test_d15_crossing_is_compulsory() -> None:
    err = error_of(pacru.new_game("pacru", 2), "a3-b4")
    assert (err.rule, err.reason) == ("R4", "marker-required")


def test_d15_landing_on_the_last_neutral_field_marks_it() -> None:
    """D15, D49 (AP test "blChange triggers even when you move into last neutral cell")."""
    others = ",".join(f for f in land("e5") if f != "e4")
    state = pos(f"pacru players=red,yellow markers=yellow:{others} chevrons=red:e3N;yellow:a9SE")
    assert family(state, "e3-e4") == {"e3-e4+e4"}
    assert state.apply_move("e3-e4+e4").marker_at("e4") == "red"


def test_r6_unoccupied_only_but_landing_field_counts() -> None:
    """R6: the marker goes on an unoccupied neutral field; a chevron's neutral field is not one."""
    state = pos("pacru players=red,yellow chevrons=red:e3N;yellow:d5S,f6S,a9SE")
    expected = {f"e3-e4+{f}" for f in land("e5") if f not in {"d5", "f6"}}
    assert family(state, "e3-e4") == expected
    err = error_of(state, "e3-e4+d5")
    assert (err.rule, err.reason) == ("R6", "bad-marker-field")


def test_d14_every_neutral_field_holds_a_chevron_no_benefit_no_transformation() -> None:
    """D14: d4 is the only neutral field of e5 and holds a chevron; e4 is red already.

    R6 finds no unoccupied neutral field, and R10 needs a borderland with no
    neutral field at all, so the move gets nothing.
    """
    yellow = ",".join(f for f in land("e5") if f not in {"d4", "e4"})
    state = pos(
        f"pacru players=red,yellow markers=red:e4;yellow:{yellow} chevrons=red:e3N;yellow:d4S,a9SE"
    )
    assert family(state, "e3-e4") == {"e3-e4"}
    err = error_of(state, "e3-e4+f4")
    assert (err.rule, err.reason) == ("R4", "marker-without-crossing")
    after = state.apply_move("e3-e4")
    assert after.marker_map() == state.marker_map()


# E.1-10 (R10): every field of e8 yellow except f8, which is red; red g9 facing S.
YELLOW_E8 = ",".join(f for f in land("e8") if f != "f8")
E1_10 = f"pacru players=red,yellow markers=red:f8;yellow:{YELLOW_E8} chevrons=red:g9S;yellow:a1N"


def test_e1_10_transformation() -> None:
    """E.1-10, R10, D16: no neutral field in e8, so red converts one unoccupied yellow field."""
    state = pos(E1_10)
    assert family(state, "g9") == {"g9-g8", "g9-h8"} | {
        f"g9-f8+{f}" for f in land("e8") if f != "f8"
    }
    after = state.apply_move("g9-f8+e8")
    assert after.marker_at("e8") == "red"
    assert after.scores == {"red": 2, "yellow": 7}
    assert supply_of(after) == {"red": 40, "yellow": 35}  # D29: yellow's marker went back
    assert after.chevron_at("f8") == Chevron("red", Direction.SW)


def test_e1_10_variant_neutral_landing_field_is_a_borderland_change() -> None:
    """E.1-10 variant (AP test g9-f8(f8)): f8 neutral -> the marker must go on f8 itself."""
    state = pos(f"pacru players=red,yellow markers=yellow:{YELLOW_E8} chevrons=red:g9S;yellow:a1N")
    assert family(state, "g9-f8") == {"g9-f8+f8"}
    err = error_of(state, "g9-f8+e8")
    assert (err.rule, err.reason) == ("R6", "bad-marker-field")


def test_d16_transformation_skips_occupied_and_own_fields() -> None:
    """D16: targets are unoccupied fields of another colour; own fields gain nothing."""
    state = pos(
        "pacru players=red,yellow,black markers=red:f8,e8,f9;yellow:d7,e7,f7,d8;black:d9,e9 "
        "chevrons=red:g9S;yellow:e7S,a1N;black:i1N"
    )
    assert family(state, "g9-f8") == {f"g9-f8+{f}" for f in ("d7", "f7", "d8", "d9", "e9")}
    err = error_of(state, "g9-f8+e8")
    assert (err.rule, err.reason) == ("R10", "bad-marker-field")


def test_d16_no_target_no_benefit() -> None:
    """D16: the only non-own field of e8 holds a chevron, so the crossing gives nothing."""
    red = ",".join(f for f in land("e8") if f != "d9")
    state = pos(
        f"pacru players=red,yellow markers=red:{red};yellow:d9 chevrons=red:g9S;yellow:d9E,a1N"
    )
    assert family(state, "g9-f8") == {"g9-f8"}


def test_d42_multi_border_move_benefits_only_the_destination() -> None:
    """G6, D42: c1-g1 crosses c|d and f|g; only h2 gets a marker, e2 (passed through) nothing."""
    state = pos("pacru players=red,yellow markers=red:a1,b1,c1,a2 chevrons=red:c1E;yellow:a9SE")
    assert state.power_of_movement("c1") == 4
    assert family(state, "c1-g1") == {f"c1-g1+{f}" for f in land("h2")}
    for target in ("d1", "e1", "f1"):
        assert family(state, f"c1-{target}") == {f"c1-{target}+{f}" for f in land("e2")}
    after = state.apply_move("c1-g1+h2")
    assert after.marker_map() == {"a1": "red", "b1": "red", "c1": "red", "a2": "red", "h2": "red"}


def test_g6_diagonal_step_through_a_corner_point_is_a_crossing() -> None:
    """G6: c3-d4 goes from b2 to e5."""
    state = pos("pacru players=red,yellow chevrons=red:c3NE;yellow:a9SE")
    assert family(state, "c3-d4") == {f"c3-d4+{f}" for f in land("e5")}


# E.1-9 (R9): a connection jump into another borderland takes the crossing benefit.
E1_9 = "pacru players=red,yellow markers=red:g9,i9,i8,e7 chevrons=red:g9S;yellow:f8N,a1N"


def test_e1_9_connection_jump_takes_crossing_benefit() -> None:
    """E.1-9, R9, D13: g9-e7 jumps the chevron on f8: no connection change, a crossing marker."""
    state = pos(E1_9)
    assert family(state, "g9-e7") == {f"g9-e7+{f}" for f in land("e8") if f not in {"e7", "f8"}}
    err = error_of(state, "g9-e7*")
    assert (err.rule, err.reason) == ("R8", "not-connection")
    after = state.apply_move("g9-e7+d9")
    assert after.marker_map() == {"g9": "red", "i9": "red", "i8": "red", "e7": "red", "d9": "red"}
    assert after.marker_at("f8") is None  # a jump changes no intervening field


def test_r9_jump_within_a_borderland_gains_nothing() -> None:
    state = pos("pacru players=red,yellow markers=red:e4,e6,d4 chevrons=red:e4N;yellow:e5S,a9SE")
    assert family(state, "e4-e6") == {"e4-e6"}
    after = state.apply_move("e4-e6")
    assert after.marker_map() == state.marker_map()
    assert after.chevron_at("e6") == Chevron("red", Direction.N)


def test_d43_moving_along_a_border_is_no_crossing() -> None:
    """D43: c4 runs north along the b5/e5 border: c5 and c6 stay in b5; only c7 crosses."""
    state = pos("pacru players=red,yellow markers=red:c4,a4,b4 chevrons=red:c4N;yellow:i9SW")
    assert {str(m) for m in state.legal_moves() if str(m).startswith("c4-c")} == {
        "c4-c5",
        "c4-c6",
    } | {f"c4-c7+{f}" for f in land("b8")}


def test_d17_bad_marker_after_a_pincer_on_the_last_neutral_field_names_r10() -> None:
    """D17: the crossing benefit is judged after the capture, in legality errors too.

    The victim on e7 stands on the e8 borderland's only neutral field. Once
    g9xe7 has changed e7 to red there is no neutral field left, so the benefit
    is a transformation of a yellow field {R10}, and a marker on red d8 is
    refused under R10, not R6.
    """
    state = pos(
        "pacru players=red,yellow markers=red:d8,d9,e9,i9,i8;yellow:d7,e8,f7,f8,f9 "
        "chevrons=red:e9S,g9S;yellow:e7N,a1NE"
    )
    assert {str(m) for m in state.legal_moves() if m.capture} == {
        "e9xe7",
        "g9xe7+d7",
        "g9xe7+e8",
        "g9xe7+f7",
        "g9xe7+f8",
        "g9xe7+f9",
    }
    err = error_of(state, "g9xe7+d8")
    assert (err.rule, err.reason) == ("R10", "bad-marker-field")
    assert (
        str(err)
        == "R10: g9xe7+d8: the crossing marker may go on d7, f7, e8, f8, f9, not d8 (D15, D16)"
    )
