"""Pacru pincer: {R11}, {R13}, rulings D17-D20, D28; E.1-11, E.1-12."""

from __future__ import annotations

import pytest

from pacru import Chevron, ChevronState, Direction

from .helpers import error_of, land, pos


def pincers(state: ChevronState) -> set[str]:
    return {str(m) for m in state.legal_moves() if m.capture}


# E.1-11: red e9 S and g9 S, R: d9 d8 i9 i8 (power 2 each), yellow chevron e7; yellow a1 as
# well, so that taking e7 does not end the game (R16a).
E1_11 = "pacru players=red,yellow markers=red:d9,d8,i9,i8 chevrons=red:e9S,g9S;yellow:e7N,a1N"


def test_e1_11_two_attackers_either_may_take() -> None:
    """E.1-11, R11: e9 attacks S (e8, e7), g9 SW (f8, e7); g9xe7 also crosses h8 -> e8."""
    state = pos(E1_11)
    assert state.power_of_movement("e9") == 2
    assert state.power_of_movement("g9") == 2
    # e8 after the capture: e7 red, d8/d9 red, e9 occupied -> d7 e8 f7 f8 f9 (R6, D17).
    assert pincers(state) == {"e9xe7"} | {f"g9xe7+{f}" for f in ("d7", "e8", "f7", "f8", "f9")}


def test_e1_11_after_e9xe7() -> None:
    """R11: the victim goes, its field turns red, the attacker stands there facing S."""
    after = pos(E1_11).apply_move("e9xe7")
    assert after.chevron_map() == {
        "e7": Chevron("red", Direction.S),
        "g9": Chevron("red", Direction.S),
        "a1": Chevron("yellow", Direction.N),
    }
    assert after.marker_map() == dict.fromkeys(("d9", "d8", "i9", "i8", "e7"), "red")
    assert after.current_player == "yellow"


def test_e1_11_g9xe7_with_crossing() -> None:
    after = pos(E1_11).apply_move("g9xe7+f8")
    assert after.chevron_at("e7") == Chevron("red", Direction.SW)
    assert after.marker_map() == dict.fromkeys(("d9", "d8", "i9", "i8", "e7", "f8"), "red")


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        ("g9xe7", "R4", "marker-required"),
        ("g9xe7+e9", "R6", "bad-marker-field"),  # e9 holds a chevron
        ("g9xe7+e7", "R6", "bad-marker-field"),  # the captured field is red already (D17)
        ("e9xe7+e8", "R4", "marker-without-crossing"),
        ("e9xe7*", "R8", "not-connection"),  # D20: a pincer is never a connection
        ("e9-e7", "R7", "occupied"),
        ("e9xe8", "R11", "no-victim"),
        ("e9xd9", "R3", "not-forward"),
    ],
)
def test_e1_11_forbidden(move: str, rule: str, reason: str) -> None:
    err = error_of(pos(E1_11), move)
    assert (err.rule, err.reason) == (rule, reason)


# E.1-12: red d9 S with R: e9 e8 e7 (power 3), red g9 S with R: i9 i8 i7 (power 3), yellow d6.
E1_12 = "pacru players=red,yellow markers=red:e9,e8,e7,i9,i8,i7 chevrons=red:d9S,g9S;yellow:d6N,a1N"


def test_e1_12_pincer_at_range_three_with_crossing() -> None:
    """E.1-12, R11, R13: d9 via d8 d7 d6, g9 via f8 e7 d6; both cross into e5."""
    state = pos(E1_12)
    e5_after = [f for f in land("e5") if f != "d6"]
    assert pincers(state) == {f"{a}xd6+{f}" for a in ("d9", "g9") for f in e5_after}
    after = state.apply_move("g9xd6+e5")
    assert after.marker_at("d6") == "red"
    assert after.marker_at("e5") == "red"
    assert after.chevron_at("d6") == Chevron("red", Direction.SW)


def test_e1_12_variant_transformation_after_capture() -> None:
    """E.1-12 variant, R10, D17: e5 all yellow -> transformation; d6 (taken) is no target."""
    yellow = ",".join(land("e5"))
    state = pos(
        f"pacru players=red,yellow markers=red:e9,e8,e7,i9,i8,i7;yellow:{yellow} "
        "chevrons=red:d9S,g9S;yellow:d6N,a1N"
    )
    others = [f for f in land("e5") if f != "d6"]
    assert pincers(state) == {f"{a}xd6+{f}" for a in ("d9", "g9") for f in others}
    after = state.apply_move("d9xd6+f4")
    assert after.scores == {"red": 8, "yellow": 7}  # d6 and f4 converted (R11, R10)


def test_r11_victim_on_its_own_colour() -> None:
    """R11: the victim may stand on its own colour; its field turns red."""
    state = pos(
        "pacru players=red,yellow markers=yellow:e5 chevrons=red:e3N,d4NE,f6SW;yellow:e5E,a1N"
    )
    # d4 (NE) and f6 (SW) are adjacent attackers; e3 is 2 away with power 1.
    assert pincers(state) == {"d4xe5", "f6xe5"}
    after = state.apply_move("f6xe5")
    assert after.marker_map() == {"e5": "red"}
    assert after.scores == {"red": 1, "yellow": 0}
    err = error_of(state, "e3xe5")
    assert (err.rule, err.reason) == ("R5", "beyond-power")


def test_r11_one_attacker_is_no_pincer() -> None:
    state = pos("pacru players=red,yellow chevrons=red:e3N,d4NE;yellow:e5E,a1N")
    assert pincers(state) == set()
    err = error_of(state, "d4xe5")
    assert (err.rule, err.reason) == ("R11", "single-attacker")


def test_d18_first_chevron_only_no_attack_through_a_jump() -> None:
    """D18: e3 (power 3) sees its own e4 first, so it does not attack e5 behind it."""
    state = pos(
        "pacru players=red,yellow markers=red:e3,d3,f3 chevrons=red:e3N,e4W,d6SE;yellow:e5N,a1N"
    )
    assert state.power_of_movement("e3") == 3
    assert pincers(state) == set()
    err = error_of(state, "e3xe5")
    assert (err.rule, err.reason) == ("D18", "no-victim")


def test_d18_only_forward_rays_and_within_power() -> None:
    """D18: e3 facing S does not attack e5; g5 facing W reaches e5 only with power 2."""
    base = "pacru players=red,yellow markers={m} chevrons=red:e3S,d6SE,g5W;yellow:e5N,a1N"
    assert pincers(pos(base.format(m="-"))) == set()
    with_power = pos(base.format(m="red:g5,h5"))
    assert with_power.power_of_movement("g5") == 2
    assert pincers(with_power) == {"d6xe5", "g5xe5+d4", "g5xe5+e4"} | {
        f"g5xe5+{f}" for f in ("f4", "d5", "f5", "d6", "e6", "f6") if f != "d6"
    }


def test_d19_attackers_must_be_the_movers() -> None:
    """D19: a red and a black attacker are no pincer; in 3p any opponent may be the victim."""
    state = pos(
        "pacru players=red,black,yellow chevrons=red:d4NE,e3N;black:f6SW,i1N;yellow:e5N,a9SE"
    )
    # Red d4 and black f6 attack e5; red e3 (power 1) attacks nothing: no pair of red.
    assert pincers(state) == set()
    both_red = pos(
        "pacru players=red,black,yellow chevrons=red:d4NE,f6SW;black:i1N;yellow:e5N,a9SE"
    )
    assert pincers(both_red) == {"d4xe5", "f6xe5"}
    black_victim = pos(
        "pacru players=red,black,yellow chevrons=red:d4NE,f6SW;black:e5N,i1N;yellow:a9SE"
    )
    assert pincers(black_victim) == {"d4xe5", "f6xe5"}


def test_d28_pincer_on_a_last_chevron_eliminates_at_once() -> None:
    """D28: black loses its last chevron and is out; the game goes on for red and yellow."""
    state = pos("pacru players=red,black,yellow chevrons=red:d4NE,f6SW;black:e5N;yellow:a9SE")
    after = state.apply_move("d4xe5")
    assert after.eliminated == ("black",)
    assert after.outcome is None
    assert after.current_player == "yellow"
    assert after.marker_map() == {"e5": "red"}
