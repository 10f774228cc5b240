"""Pacru ending and supply: {R1}, {R15}, {R16}, rulings D27-D29, D31, D32, D45; E.1-16, E.1-17."""

from __future__ import annotations

import pytest

import pacru
from pacru import Chevron, Direction, InvalidPositionError, Outcome, Termination

from .helpers import pos, supply_of

ALL = [f"{c}{r}" for r in range(1, 10) for c in "abcdefghi"]


# E.1-16 (R15): yellow's c3-b2 leaves red's only chevron (a1 N; a2 yellow) without a move.
E1_16 = (
    "pacru players=red,yellow turn=yellow markers=red:e5,e6;yellow:a2 "
    "chevrons=red:a1N;yellow:c3SW,i9SW"
)


def test_e1_16_blocked_player_is_out_at_the_start_of_their_turn() -> None:
    """E.1-16, R15, D27: red cannot move (nor reorient, R14); its chevron goes, markers stay."""
    state = pos(E1_16)
    assert state.current_player == "yellow"
    after = state.apply_move("c3-b2")
    assert after.outcome == Outcome(Termination.LAST_PLAYER, ("yellow",))
    assert after.eliminated == ("red",)
    assert after.chevron_map() == {
        "b2": Chevron("yellow", Direction.SW),
        "i9": Chevron("yellow", Direction.SW),
    }
    assert after.marker_map() == {"e5": "red", "e6": "red", "a2": "yellow"}
    assert after.legal_moves() == []
    assert after.players[after.to_move] == "yellow"  # the winner, not the eliminated red


def test_e1_16_position_read_at_a_blocked_turn() -> None:
    """D27: a position string is at the start of the turn, so reading it eliminates red.

    The game is then over and ``to_move`` names the winner, yellow (R16a).
    """
    state = pos("pacru players=red,yellow markers=yellow:a2 chevrons=red:a1N;yellow:b2SW,i9SW")
    assert state.outcome == Outcome(Termination.LAST_PLAYER, ("yellow",))
    assert state.to_position() == (
        "pacru players=red,yellow turn=yellow markers=yellow:a2 chevrons=yellow:b2SW,i9SW out=red"
    )


def test_r15_a_pincer_counts_as_a_move() -> None:
    """R15 (E.1-16 "pincers included"): chevrons whose only moves are a pincer are not blocked."""
    # d5 E and f4 NW both attack e5; e6, e4 and f5 are yellow, so no other move exists.
    state = pos(
        "pacru players=red,yellow markers=yellow:e6,e4,f5 chevrons=red:d5E,f4NW;yellow:e5S,i9SW"
    )
    assert state.outcome is None
    assert {str(m) for m in state.legal_moves()} == {"d5xe5", "f4xe5"}


# D28: red, yellow, black; yellow's a1 N is stuck once red's c3 goes to b2 (a2 is black's).
THREE = "pacru players=red,yellow,black markers=black:a2 chevrons=red:c3SW,e9S;yellow:a1N;black:e5N"


def test_d28_three_players_blocked_player_is_skipped() -> None:
    """D28: yellow is out at the start of its turn and black moves; later yellow is skipped."""
    after = pos(THREE).apply_move("c3-b2")
    assert after.eliminated == ("yellow",)
    assert after.outcome is None
    assert after.current_player == "black"
    assert after.chevron_at("a1") is None
    after = after.apply_move("e5-e6")
    assert after.current_player == "red"
    after = after.apply_move("e9-e8")
    assert after.current_player == "black"


def test_d28_four_players_out_seat_is_skipped() -> None:
    state = pos(
        "pacru players=green,black,yellow,red turn=green out=black "
        "chevrons=green:e1N;yellow:e9S;red:i5W"
    )
    assert state.apply_move("e1-e2").current_player == "yellow"


def test_r16a_last_player_with_chevrons_wins_by_pincer() -> None:
    """R16a: taking the last opponent's last chevron wins at once."""
    state = pos("pacru players=red,yellow chevrons=red:d4NE,f6SW;yellow:e5N")
    after = state.apply_move("d4xe5")
    assert after.outcome == Outcome(Termination.LAST_PLAYER, ("red",))
    assert after.winners == ("red",)
    assert after.is_terminal


def test_r16a_lone_player_in_a_position_has_won() -> None:
    state = pos("pacru players=red,yellow markers=red:a1 chevrons=red:e5N")
    assert state.outcome == Outcome(Termination.LAST_PLAYER, ("red",))


def test_r16a_three_players_last_of_two_eliminations() -> None:
    """R16a, D28: black was out; yellow now loses its last chevron: red wins."""
    state = pos("pacru players=red,yellow,black out=black chevrons=red:d4NE,f6SW;yellow:e5N")
    assert state.apply_move("f6xe5").winners == ("red",)


# E.1-17 (R16b): red has 41 markers; a1-h1 is a connection over 6 neutral fields (b1..g1).
# A connection can change at most 6 fields: a path of 8 fields spans the board, so its start
# borderland holds 2 of the fields between and then at most 7 own fields (power 7).
RED_41 = ["a1", "a2", "a3", "b2", "b3", "c2", "c3", "h1"] + [
    f for f in ALL if f[1] in "789" or f in {"a6", "b6", "c6", "d6", "e6", "f6"}
]
E1_17 = f"pacru players=red,yellow markers=red:{','.join(RED_41)} chevrons=red:a1E;yellow:e4S"


def test_e1_17_supply_runs_out_part_way_through_a_connection() -> None:
    """E.1-17, R16b, D29: the first field of the connection is red's 42nd marker: red wins."""
    state = pos(E1_17)
    assert len(RED_41) == 41
    assert supply_of(state) == {"red": 1, "yellow": 42}
    assert state.power_of_movement("a1") == 7
    after = state.apply_move("a1-h1*")
    assert after.outcome == Outcome(Termination.SUPPLY_EXHAUSTED, ("red",))
    assert after.marker_map() == {**dict.fromkeys(RED_41, "red"), "b1": "red"}
    assert supply_of(after)["red"] == 0


def test_r16b_no_meeting_offered_once_the_supply_is_spent() -> None:
    """D29: the crossing marker is the 42nd; nothing more is placed or chosen."""
    state = pos(E1_17)
    # Only the step families: red's 33 free fields make millions of reorientations (R14).
    moves = {str(m) for f in state.legal_moves().steps for m in f}
    assert {m for m in moves if m.startswith("a1-h1")} == {"a1-h1*"} | {
        f"a1-h1+{f}" for f in ("g1", "i1", "g2", "h2", "i2", "g3", "h3", "i3")
    }
    after = state.apply_move("a1-h1+h2")
    assert after.winners == ("red",)
    assert after.outcome is not None
    assert after.outcome.termination is Termination.SUPPLY_EXHAUSTED


@pytest.mark.parametrize(("players", "target"), [(2, 42), (3, 28), (4, 24)])
def test_r16b_targets_by_player_count(players: int, target: int) -> None:
    """R1, R16b: the 42nd (2p), 28th (3p) or 24th (4p) marker on the board wins."""
    colours = ["red", "yellow", "black", "green"][:players]
    own = [f for f in ALL if f[1] in "56789"][: target - 1]
    others = ";".join(f"{c}:{'abcdefghi'[i]}4S" for i, c in enumerate(colours[1:], 1))
    state = pos(
        f"pacru players={','.join(colours)} markers=red:{','.join(own)} "
        f"chevrons=red:b2E,c1E;{others}"
    )
    assert supply_of(state)["red"] == 1
    assert state.apply_move("b2-c2").outcome is None  # D40: a plain move places nothing
    after = state.apply_move("c1-d1+e1")
    assert after.outcome == Outcome(Termination.SUPPLY_EXHAUSTED, ("red",))
    assert after.scores["red"] == target


def test_d31_supply_win_also_when_taking_the_last_opponent_chevron() -> None:
    """D31: the capture places the 42nd marker and empties yellow's chevrons: red wins by R16b."""
    red = [f for f in ALL if f[1] in "123"] + [f for f in ALL if f[1] in "789"][:14]
    state = pos(
        f"pacru players=red,yellow markers=red:{','.join(red)} chevrons=red:d4NE,f6SW;yellow:e5N"
    )
    assert supply_of(state)["red"] == 1
    after = state.apply_move("d4xe5")
    assert after.outcome == Outcome(Termination.SUPPLY_EXHAUSTED, ("red",))
    assert after.eliminated == ("yellow",)  # D28: out at once, though red won by R16b


def test_d29_returned_markers_go_back_to_thesupply_of() -> None:
    """D29, D45: a converted marker returns to its owner: supply = target - markers on board."""
    state = pos(
        "pacru players=red,yellow markers=red:e4,d4,f4,e6;yellow:e5 chevrons=red:e4N;yellow:a9SE"
    )
    assert supply_of(state) == {"red": 38, "yellow": 41}
    after = state.apply_move("e4-e6*")
    assert supply_of(after) == {"red": 37, "yellow": 42}


def test_r1_position_over_the_supply_is_invalid() -> None:
    with pytest.raises(InvalidPositionError):
        pos(f"pacru players=red,yellow markers=red:{','.join(ALL[:43])} chevrons=red:e9S")


def test_r16b_position_at_the_target_is_won() -> None:
    state = pos(
        f"pacru players=red,yellow markers=red:{','.join(ALL[:42])} chevrons=red:e9S;yellow:a9SE"
    )
    assert state.outcome == Outcome(Termination.SUPPLY_EXHAUSTED, ("red",))


def test_d32_move_cap_is_off_by_default_and_non_official() -> None:
    """D32: no draw rule by default; move_cap ends the game with no winner after N plies."""
    state = pacru.new_game("pacru", 2)
    assert state.rules.move_cap is None
    assert state.options() == {}
    capped = pacru.new_game("pacru", 2, move_cap=2)
    after = capped.apply_move("e1-e2").apply_move("e9-e8")
    assert after.outcome == Outcome(Termination.MOVE_CAP, ())
    assert after.winners == ()
    assert "move_cap=2" in after.to_position()
    with pytest.raises(ValueError, match="D32"):
        pacru.new_game("shacru", 2, move_cap=2)
