"""Shacru {S-R1..S-R6} with rulings D3, D4, D6, D7, D33-D35, D37, D42."""

from __future__ import annotations

import pytest

import pacru
from pacru import Chevron, Direction, Outcome, Termination

from .helpers import error_of, moves_of, pos


def test_e1_1_three_options_no_twist() -> None:
    """E.1-1, S-R3: e5 facing N reaches d6, e6, f6; facing NE e6, f6, f5; no crossing."""
    north = pos("shacru players=red,yellow chevrons=red:e5N;yellow:a9E")
    assert moves_of(north) == {"e5-d6", "e5-e6", "e5-f6"}
    facings = {m: north.apply_move(m).chevron_at(m[3:]) for m in moves_of(north)}
    assert facings == {
        "e5-d6": Chevron("red", Direction.NW),
        "e5-e6": Chevron("red", Direction.N),
        "e5-f6": Chevron("red", Direction.NE),
    }
    north_east = pos("shacru players=red,yellow chevrons=red:e5NE;yellow:a9E")
    assert moves_of(north_east) == {"e5-e6", "e5-f6", "e5-f5"}


E1_2 = "shacru players=red,yellow markers=yellow:e6 chevrons=red:f5N;yellow:f6N"


def test_e1_2_only_move_is_across_the_border_with_three_facings() -> None:
    """E.1-2, S-R4/S-R5: f5-g6 is the only move; it may end facing NE, N or E."""
    state = pos(E1_2)
    assert moves_of(state) == {"f5-g6", "f5-g6<", "f5-g6>"}
    ends = {m: state.apply_move(m).chevron_at("g6") for m in moves_of(state)}
    assert ends == {
        "f5-g6": Chevron("red", Direction.NE),
        "f5-g6<": Chevron("red", Direction.N),
        "f5-g6>": Chevron("red", Direction.E),
    }
    for m in moves_of(state):
        assert state.apply_move(m).marker_map() == {"e6": "yellow", "g6": "red"}


@pytest.mark.parametrize(
    ("move", "reason", "message"),
    [
        ("f5-e6", "opponent-field", "e6 belongs to yellow"),
        ("f5-f6", "occupied", "f6 holds yellow's chevron"),
    ],
)
def test_s_r5_forbidden(move: str, reason: str, message: str) -> None:
    err = error_of(pos(E1_2), move)
    assert (err.rule, err.reason) == ("S-R5", reason)
    assert message in str(err)


def test_s_r5_message_d6_belongs_to_yellow() -> None:
    state = pos("shacru players=red,yellow markers=yellow:d6 chevrons=red:e5N;yellow:a9E")
    err = error_of(state, "e5-d6")
    assert (err.rule, err.reason) == ("S-R5", "opponent-field")
    assert str(err) == "S-R5: e5-d6: d6 belongs to yellow"


@pytest.mark.parametrize(
    ("chevron", "move", "travel"),
    [
        ("c5E", "c5-d5", Direction.E),  # G6 orthogonal one-step crossing
        ("c3NE", "c3-d4", Direction.NE),  # G6 diagonal step through a corner point
        ("c3N", "c3-c4", Direction.N),
        ("d4W", "d4-c3", Direction.SW),
    ],
)
def test_d3_d4_twist_on_every_crossing_step(chevron: str, move: str, travel: Direction) -> None:
    """D3: one-step crossings twist too; D4: exactly 3 variants, travel and +-45 degrees."""
    state = pos(f"shacru players=red,yellow chevrons=red:{chevron};yellow:i9N")
    variants = {m for m in moves_of(state) if m.startswith(move)}
    assert variants == {move, move + "<", move + ">"}
    for suffix, turn in (("", 0), ("<", -1), (">", 1)):
        after = state.apply_move(move + suffix)
        assert after.chevron_at(move[3:]) == Chevron("red", travel.turned(turn))
        assert after.marker_at(move[3:]) == "red"
        assert after.marker_at(move[:2]) is None  # S-R3, D7


def test_twist_without_crossing_is_illegal() -> None:
    state = pos("shacru players=red,yellow chevrons=red:e5N;yellow:i9N")
    err = error_of(state, "e5-e6>")
    assert (err.rule, err.reason) == ("S-R4", "twist-without-crossing")


def test_s_r3_one_field_only() -> None:
    state = pos("shacru players=red,yellow chevrons=red:e5N;yellow:i9N")
    err = error_of(state, "e5-e7")
    assert (err.rule, err.reason) == ("S-R3", "beyond-power")


def test_d6_own_colour_allowed_gains_nothing() -> None:
    state = pos("shacru players=red,yellow markers=red:e6 chevrons=red:e5N;yellow:i9N")
    after = state.apply_move("e5-e6")
    assert dict(after.scores) == {"red": 1, "yellow": 0}
    assert after.marker_map() == {"e6": "red"}


def test_s_r2_d34_pass_rechecked_each_turn() -> None:
    """S-R2, D34: red is blocked and passes; yellow moves away; red can move again."""
    state = pos("shacru players=red,yellow markers=yellow:b2 chevrons=red:a1N;yellow:a2N")
    assert moves_of(state) == {"pass"}
    err = error_of(state, "a1-a2")
    assert (err.rule, err.reason) == ("S-R2", "must-pass")
    yellow = state.apply_move("pass")
    assert yellow.outcome is None
    err = error_of(yellow, "pass")
    assert (err.rule, err.reason) == ("S-R2", "pass-not-allowed")
    red = yellow.apply_move("a2-a3")
    assert red.current_player == "red"
    assert moves_of(red) == {"a1-a2"}
    assert red.apply_move("a1-a2").marker_at("a2") == "red"


def test_s_r6a_nobody_can_move() -> None:
    state = pos("shacru players=red,yellow markers=yellow:a1,b1 chevrons=red:c2SW;yellow:i9N")
    end = state.apply_move("c2-c1")
    assert end.outcome == Outcome(Termination.NO_MOVES, ("yellow",))


# Red c1 facing SE can only step onto its own d1 (E, into e2). Facing E there, it sees
# yellow e2/e1; only a twist to NE opens the neutral d2 (D33: twist at a crossing).
TWIST_OPENS = "players=red,yellow markers=red:d1;yellow:e1,e2 chevrons=red:c1SE;yellow:i9N"


def test_s_r6b_twist_at_crossing_keeps_the_game_going() -> None:
    """S-R6b, D33: the look-ahead adds the +-45 facings at a crossing (Shacru, not Lilacru)."""
    lilacru = pos("lilacru " + TWIST_OPENS)
    assert lilacru.outcome == Outcome(Termination.NO_ACQUISITION, ("yellow",))
    shacru = pos("shacru " + TWIST_OPENS)
    assert shacru.outcome is None
    assert moves_of(shacru) == {"c1-d1", "c1-d1<", "c1-d1>"}
    twisted = shacru.apply_move("c1-d1<")
    assert twisted.outcome is None
    assert twisted.chevron_at("d1") == Chevron("red", Direction.NE)
    # Without the twist the chevron faces yellow e2/e1 and the board edge: nobody can move.
    straight = shacru.apply_move("c1-d1")
    assert straight.outcome == Outcome(Termination.NO_MOVES, ("yellow",))
    gained = twisted.apply_move("pass").apply_move("d1-d2")
    assert dict(gained.scores) == {"red": 2, "yellow": 2}


# Red h1 facing E can only step onto its own i1. Red e5 facing N sees yellow d6/f6 and
# the neutral e6, which holds a yellow chevron facing N onto red d7/e7/f7: statically
# stuck, so e6 is a wall and no one can ever acquire (D33).
WALL = (
    "shacru players=red,yellow markers=red:i1,d7,e7,f7;yellow:d6,f6,i2 "
    "chevrons=red:e5N,h1E;yellow:e6N"
)


def test_s_r6b_statically_stuck_chevron_is_a_wall() -> None:
    state = pos(WALL)
    assert state.outcome == Outcome(Termination.NO_ACQUISITION, ("red",))
    assert dict(state.scores) == {"red": 4, "yellow": 3}


def test_s_r6b_mobile_blocker_is_not_a_wall() -> None:
    """D33: a neutral field under a chevron that can still move counts as reachable."""
    # Yellow's e6 chevron can step onto its own e7 (and is stuck there): not a wall.
    text = WALL.replace(
        "red:i1,d7,e7,f7;yellow:d6,f6,i2", "red:i1,d7,f7,d8,e8,f8;yellow:d6,f6,i2,e7"
    )
    state = pos(text)
    assert state.outcome is None
    assert moves_of(state) == {"h1-i1"}
    after_red = state.apply_move("h1-i1")
    assert after_red.outcome is None
    assert moves_of(after_red) == {"e6-e7", "e6-e7<", "e6-e7>"}
    after_yellow = after_red.apply_move("e6-e7")
    assert after_yellow.outcome is None
    assert moves_of(after_yellow) == {"e5-e6"}
    gained = after_yellow.apply_move("e5-e6")
    assert gained.marker_at("e6") == "red"


def test_s_r6_winner_most_markers_and_ties_shared() -> None:
    """S-R6, D35: the most markers wins; equal top scores share the win."""
    win = pos("shacru players=red,yellow markers=red:a1,a2;yellow:b1 chevrons=red:a1S;yellow:b1S")
    assert win.outcome == Outcome(Termination.NO_MOVES, ("red",))
    tie = pos("shacru players=red,yellow markers=red:a1;yellow:b1 chevrons=red:a1S;yellow:b1S")
    assert tie.outcome == Outcome(Termination.NO_MOVES, ("red", "yellow"))
    assert tie.winners == ("red", "yellow")


def test_s_r1_chevron_counts() -> None:
    """S-R1: 4 chevrons each with 2 players, 3 each with 3 or 4."""
    for players, count in ((2, 4), (3, 3), (4, 3)):
        state = pacru.new_game("shacru", players)
        for colour in state.players:
            owned = [c for c in state.chevron_map().values() if c.owner == colour]
            assert len(owned) == count
