"""Azacru {A-R1..A-R10} with rulings D3-D12, D35-D39, D50 and scenarios E.1-3/4/5/18."""

from __future__ import annotations

import pytest

from pacru import Chevron, Direction, Outcome, Termination

from .helpers import error_of, moves_of, pos, start

E1_3 = "players=red,yellow markers=red:e4,d4 chevrons=red:e4N;yellow:a9E"


def test_e1_3_power_of_two_gives_ten_options() -> None:
    """E.1-3, A-R4: PoM 2 from e4/d4; c6 and g6 cross and twist (A-R6): 4 + 2x3 = 10."""
    state = pos("azacru " + E1_3)
    assert state.power_of_movement("e4") == 2
    assert moves_of(state) == {
        "e4-e5", "e4-e6", "e4-d5", "e4-f5",
        "e4-c6", "e4-c6<", "e4-c6>", "e4-g6", "e4-g6<", "e4-g6>",
    }  # fmt: skip
    assert len(state.legal_moves()) == 10


def test_e1_3_shacru_has_power_one() -> None:
    """D39: in Shacru the same chevron has PoM 1."""
    state = pos("shacru " + E1_3)
    assert state.power_of_movement("e4") == 1
    assert moves_of(state) == {"e4-e5", "e4-d5", "e4-f5"}


E1_4 = "azacru players=red,yellow markers=red:e4,d4,f4,e7;yellow:e6 chevrons=red:e4N;yellow:a9E"


def test_e1_4_connection_over_opposition_field_removes_the_chevron() -> None:
    """E.1-4, A-R7, D12: e5/e6 become red, the chevron leaves e7, e7 stays red."""
    state = pos(E1_4)
    assert state.power_of_movement("e4") == 3
    before = dict(state.scores)
    after = state.apply_move("e4-e7")
    assert after.marker_map() == {
        "d4": "red", "e4": "red", "f4": "red", "e5": "red", "e6": "red", "e7": "red"
    }  # fmt: skip
    assert after.chevron_map() == {"a9": Chevron("yellow", Direction.SE.turned(-1))}
    assert after.chevron_at("e7") is None
    assert after.scores["red"] == before["red"] + 2
    assert after.scores["yellow"] == before["yellow"] - 1


def test_e1_4_removal_move_has_no_twist_variants() -> None:
    """D5: a chevron removed by its own connection change gets no twist."""
    state = pos(E1_4)
    assert {m for m in moves_of(state) if m.startswith("e4-e7")} == {"e4-e7"}
    err = error_of(state, "e4-e7>")
    assert (err.rule, err.reason) == ("D5", "twist-removed")
    assert "e4-e6" not in moves_of(state)
    err = error_of(state, "e4-e6")
    assert (err.rule, err.reason) == ("A-R9", "opponent-field")
    assert str(err) == "A-R9: e4-e6: e6 belongs to yellow"


def test_e1_4_with_e6_neutral_the_chevron_stays_and_twists() -> None:
    """E.1-4 variant, D10, D12: over neutral fields the connection keeps the chevron."""
    state = pos(E1_4.replace(";yellow:e6", ""))
    assert {m for m in moves_of(state) if m.startswith("e4-e7")} == {"e4-e7", "e4-e7<", "e4-e7>"}
    for suffix, facing in (("", Direction.N), ("<", Direction.NW), (">", Direction.NE)):
        after = state.apply_move("e4-e7" + suffix)
        assert after.chevron_at("e7") == Chevron("red", facing)
        assert after.marker_map() == {
            "d4": "red", "e4": "red", "f4": "red", "e5": "red", "e6": "red", "e7": "red"
        }  # fmt: skip


E1_5 = "azacru players=red,yellow markers=red:e4,d4,f4,e7;yellow:e6 chevrons=red:e4N;yellow:e5S"


def test_e1_5_connection_jump_changes_nothing_and_never_removes() -> None:
    """E.1-5, A-R8, D11, D12: the jump is legal, e6 stays yellow, the chevron stays."""
    state = pos(E1_5)
    jumps = {m for m in moves_of(state) if m.startswith("e4-e7")}
    assert jumps == {"e4-e7", "e4-e7<", "e4-e7>"}  # D3: a crossing jump twists too
    after = state.apply_move("e4-e7>")
    assert after.marker_map() == {
        "d4": "red",
        "e4": "red",
        "f4": "red",
        "e7": "red",
        "e6": "yellow",
    }
    assert after.chevron_map() == {
        "e7": Chevron("red", Direction.NE),
        "e5": Chevron("yellow", Direction.S),
    }
    assert dict(after.scores) == {"red": 4, "yellow": 1}


def test_e1_5_other_moves_are_blocked_by_the_chevron() -> None:
    """A-R9, D8: chevrons block long moves except the connection jump."""
    state = pos(E1_5)
    assert {m[:5] for m in moves_of(state) if m.startswith("e4-e")} == {"e4-e7"}
    err = error_of(state, "e4-e5")
    assert (err.rule, err.reason) == ("A-R9", "occupied")


def test_jump_to_a_neutral_field_is_not_a_connection() -> None:
    """A-R8, A-R9: only a connection (own to own) may jump over a chevron."""
    state = pos("azacru players=red,yellow markers=red:e4,d4,f4 chevrons=red:e4N;yellow:e5S")
    err = error_of(state, "e4-e6")
    assert (err.rule, err.reason) == ("A-R9", "jump-not-connection")


def test_beyond_power_names_a_r4() -> None:
    state = pos("azacru " + E1_3)
    err = error_of(state, "e4-e7")
    assert (err.rule, err.reason) == ("A-R4", "beyond-power")
    assert "power of movement on e4 is 2" in str(err)


@pytest.mark.parametrize(
    ("markers", "field", "power"),
    [
        ("-", "e4", 1),  # D39: at least 1
        ("red:e4", "e4", 1),  # the field under the chevron counts
        ("red:d6", "e4", 1),  # one own field in e5, not under the chevron
        ("red:d6,f4", "e4", 2),  # neutral e4, two own fields in e5
        ("red:e4,d4,f4,d5,e5,f5,d6,e6,f6", "e4", 9),
        ("red:d3,e3,f3,c4,g4", "e4", 1),  # other borderlands do not count
        ("red:e4;yellow:d4,f4", "e4", 1),
    ],
)
def test_d39_power_of_movement(markers: str, field: str, power: int) -> None:
    """A-R4, D39: own fields in the starting borderland, the field under the chevron included."""
    state = pos(f"azacru players=red,yellow markers={markers} chevrons=red:{field}N;yellow:a9E")
    assert state.power_of_movement(field) == power
    longest = max(int(m[4]) - int(m[1]) for m in moves_of(state) if m[3] == "e")
    assert longest == min(power, 5)  # e4 to e9 is 5 fields


def test_d8_long_moves_pass_over_markers_of_any_colour() -> None:
    """D8: yellow e5/e6 do not block e4-e7 onto neutral e7; not a connection, no change."""
    state = pos(
        "azacru players=red,yellow markers=red:e4,d4,f4;yellow:e5,e6 chevrons=red:e4N;yellow:a9E"
    )
    assert {m for m in moves_of(state) if m.startswith("e4-e")} == {"e4-e7", "e4-e7<", "e4-e7>"}
    after = state.apply_move("e4-e7")
    assert after.marker_map() == {
        "d4": "red", "e4": "red", "f4": "red", "e5": "yellow", "e6": "yellow", "e7": "red"
    }  # fmt: skip
    assert after.chevron_at("e7") == Chevron("red", Direction.N)


def test_d9_connection_judged_before_the_move() -> None:
    """D9: own e4 to neutral e6 is no connection, though e6 is red after the move."""
    state = pos("azacru players=red,yellow markers=red:e4,d4;yellow:e5 chevrons=red:e4N;yellow:a9E")
    after = state.apply_move("e4-e6")
    assert after.marker_map() == {"d4": "red", "e4": "red", "e5": "yellow", "e6": "red"}
    assert after.chevron_at("e6") == Chevron("red", Direction.N)


def test_d9_neutral_start_is_no_connection() -> None:
    """D9: from a neutral field to an own field changes nothing in between."""
    state = pos(
        "azacru players=red,yellow markers=red:d4,f4,e6;yellow:e5 chevrons=red:e4N;yellow:a9E"
    )
    assert state.power_of_movement("e4") == 3
    after = state.apply_move("e4-e6")
    assert after.marker_map() == {"d4": "red", "f4": "red", "e6": "red", "e5": "yellow"}
    assert after.chevron_at("e6") == Chevron("red", Direction.N)


def test_d9_one_step_onto_own_is_no_connection() -> None:
    state = pos("azacru players=red,yellow markers=red:e4,e5 chevrons=red:e4N;yellow:a9E")
    after = state.apply_move("e4-e5")
    assert after.marker_map() == {"e4": "red", "e5": "red"}
    assert after.chevron_at("e5") == Chevron("red", Direction.N)


def test_d12_three_players_both_opponents_lose_fields() -> None:
    """A-R7, D12: every other colour in between is changed; the chevron is removed."""
    state = pos(
        "azacru players=red,yellow,black markers=red:e4,d4,f4,d5,e8;yellow:e5;black:e7 "
        "chevrons=red:e4N;yellow:a9E;black:i1N"
    )
    assert state.power_of_movement("e4") == 4
    after = state.apply_move("e4-e8")
    assert dict(after.scores) == {"red": 8, "yellow": 0, "black": 0}
    assert after.chevron_at("e8") is None
    assert {f for f, c in after.marker_map().items() if c == "red"} == {
        "e4", "d4", "f4", "d5", "e5", "e6", "e7", "e8"
    }  # fmt: skip


def test_a_r6_long_crossing_move_twists() -> None:
    """A-R6, D3: long moves twist when they cross (e4-c6 into b5)."""
    state = pos("azacru " + E1_3)
    for suffix, facing in (("", Direction.NW), ("<", Direction.W), (">", Direction.N)):
        assert state.apply_move("e4-c6" + suffix).chevron_at("c6") == Chevron("red", facing)


def test_a_r10_pass_rules() -> None:
    """A-R2, A-R10, D37: pass only when no chevron can move."""
    state = pos("azacru " + E1_3)
    err = error_of(state, "pass")
    assert (err.rule, err.reason) == ("A-R10", "pass-not-allowed")
    stuck = pos("azacru players=red,yellow chevrons=red:a1S;yellow:e5N")
    err = error_of(stuck, "a1-a2")
    assert (err.rule, err.reason) == ("A-R10", "must-pass")


def test_e1_18_end_of_game_order_from_the_booklet() -> None:
    """E.1-18, A-R10, D36, D50, D5, D35: the booklet's red, green, yellow example."""
    state = pos(
        "azacru players=red,green,yellow markers=green:e4,e6;yellow:e5 "
        "chevrons=red:e1N;green:e4N;yellow:i5W"
    )
    state = state.apply_move("e1-e2")
    # Green's own connection over yellow e5 removes its last chevron (A-R7).
    state = state.apply_move("e4-e6")
    assert [c.owner for c in state.chevron_map().values()].count("green") == 0
    assert dict(state.scores) == {"red": 1, "green": 3, "yellow": 0}
    state = state.apply_move("i5-h5")
    state = state.apply_move("e2-e3")
    assert state.current_player == "green"
    assert moves_of(state) == {"pass"}  # D50: no chevrons, green passes
    state = state.apply_move("pass")  # the trigger
    assert state.end_triggered_by == "green"
    assert state.outcome is None
    assert state.current_player == "yellow"
    state = state.apply_move("h5-g5")
    assert state.outcome is None
    assert state.current_player == "red"
    # D5: after the trigger the crossing moves into e5/b5 come without twist variants.
    assert moves_of(state) == {"e3-d4", "e3-c5", "e3-f4"}
    err = error_of(state, "e3-d4<")
    assert (err.rule, err.reason) == ("D5", "twist-after-trigger")
    state = state.apply_move("e3-d4")
    # The game ends just before green's next turn; green's markers still count (D50).
    assert state.outcome == Outcome(Termination.END_TRIGGERED, ("red", "green"))
    assert state.current_player is None
    assert dict(state.scores) == {"red": 3, "green": 3, "yellow": 2}
    assert (state.ply, str(state.last_move)) == (7, "e3-d4")


def test_d36_trigger_player_never_moves_again() -> None:
    """D36: red passes (trigger); yellow's move frees red, but the game ends first."""
    state = pos("azacru players=red,yellow markers=yellow:b2 chevrons=red:a1N;yellow:a2N")
    assert moves_of(state) == {"pass"}
    state = state.apply_move("pass")
    end = state.apply_move("a2-a3")
    assert end.outcome == Outcome(Termination.END_TRIGGERED, ("yellow",))
    assert dict(end.scores) == {"red": 0, "yellow": 2}
    freed = pos(end.to_position().replace(" trigger=red", ""))
    assert moves_of(freed) == {"a1-a2"}  # the move that opened up, never played


def test_d36_blocked_players_pass_in_the_final_round() -> None:
    """D36: after the trigger, a player unable to move passes; the trigger stays with red."""
    state = pos(
        "azacru players=red,green,yellow markers=yellow:e5 chevrons=red:a1S;green:i1S;yellow:e4N"
    )
    state = state.apply_move("pass")
    assert moves_of(state) == {"pass"}
    state = state.apply_move("pass")
    assert state.end_triggered_by == "red"
    assert state.outcome is None
    end = state.apply_move("e4-d5")
    assert end.outcome == Outcome(Termination.END_TRIGGERED, ("yellow",))


def test_d35_tie_is_shared() -> None:
    state = pos("azacru players=red,yellow markers=red:a1;yellow:i9 chevrons=red:a1S;yellow:e4N")
    state = state.apply_move("pass")
    end = state.apply_move("e4-e5")
    assert end.outcome == Outcome(Termination.END_TRIGGERED, ("yellow",))
    tie = pos("azacru players=red,yellow markers=red:a1,a2;yellow:i9 chevrons=red:a1S;yellow:e4N")
    end = tie.apply_move("pass").apply_move("e4-e5")
    assert end.outcome == Outcome(Termination.END_TRIGGERED, ("red", "yellow"))
    assert end.outcome.result() == "red, yellow share the win"


def test_move_cap_ends_an_azacru_game_without_winner_d32() -> None:
    """D32 (non-official, also offered for Azacru): the cap ends play with no winner."""
    state = start("azacru", 2, move_cap=2)
    state = state.apply_move(state.legal_moves()[0])
    assert not state.is_terminal
    state = state.apply_move(state.legal_moves()[0])
    assert state.outcome == Outcome(Termination.MOVE_CAP, ())
    assert state.legal_moves() == ()
    assert pos(state.to_position()) == state
    assert "move_cap=2" in state.to_position()
