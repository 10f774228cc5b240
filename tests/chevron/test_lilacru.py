"""Lilacru {L1-L7} with rulings D6, D7, D33-D35, D37, D44."""

from __future__ import annotations

import pytest

import pacru
from pacru import Chevron, Direction, Termination

from .helpers import error_of, moves_of, pos, reference_moves


def test_l4_one_field_three_directions_no_twist() -> None:
    """L4: one field straight or 45 degrees; a crossing gives no twist variants."""
    state = pos("lilacru players=red,yellow chevrons=red:c5E;yellow:i9N")
    assert moves_of(state) == {"c5-d6", "c5-d5", "c5-d4"}
    after = state.apply_move("c5-d6")
    assert after.chevron_at("d6") == Chevron("red", Direction.NE)
    assert after.chevron_at("c5") is None


def test_l4_twist_is_illegal() -> None:
    state = pos("lilacru players=red,yellow chevrons=red:c5E;yellow:i9N")
    err = error_of(state, "c5-d5>")
    assert (err.rule, err.reason) == ("L4", "no-twist")


def test_l5_arrival_marked_start_unchanged() -> None:
    """L5: the arrival field becomes the mover's colour; D7: the start field is not marked."""
    state = pos("lilacru players=red,yellow chevrons=red:e5N;yellow:i9N")
    after = state.apply_move("e5-f6")
    assert after.marker_map() == {"f6": "red"}
    assert after.marker_at("e5") is None
    assert dict(after.scores) == {"red": 1, "yellow": 0}
    assert after.idle == 0


def test_d6_moving_onto_own_colour_is_legal_and_gains_nothing() -> None:
    state = pos("lilacru players=red,yellow markers=red:e6 chevrons=red:e5N;yellow:i9N")
    assert moves_of(state) == {"e5-d6", "e5-e6", "e5-f6"}
    after = state.apply_move("e5-e6")
    assert after.marker_map() == {"e6": "red"}
    assert dict(after.scores) == {"red": 1, "yellow": 0}
    assert after.idle == 1  # nothing acquired (D33)


BLOCKED = "lilacru players=red,yellow markers=yellow:d6 chevrons=red:e5N,d4N;yellow:f6S"


@pytest.mark.parametrize(
    ("move", "reason", "message"),
    [
        ("e5-d6", "opponent-field", "d6 belongs to yellow"),
        ("e5-f6", "occupied", "f6 holds yellow's chevron"),
        ("d4-e5", "occupied", "e5 holds red's chevron"),
    ],
)
def test_l6_forbidden_moves(move: str, reason: str, message: str) -> None:
    """L6: not onto another player's colour, not onto any chevron (own included, D41)."""
    state = pos(BLOCKED)
    assert moves_of(state) == {"e5-e6", "d4-c5", "d4-d5"}
    err = error_of(state, move)
    assert (err.rule, err.reason) == ("L6", reason)
    assert message in str(err)
    assert err.move == move


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        ("e5-e7", "L4", "beyond-power"),
        ("e5-e4", "L4", "not-forward"),
        ("e5-f7", "L4", "not-straight"),
        ("a1-a2", "L4", "no-chevron"),
        ("f6-f5", "L4", "not-your-chevron"),
        ("e5xe6", "L4", "no-pincer"),
        ("e5-e6*", "L4", "pacru-only"),
        ("e5-e6+e7", "L4", "pacru-only"),
        ("e5>(a1,a2)", "L4", "no-reorientation"),
        ("pass", "L3", "pass-not-allowed"),
    ],
)
def test_illegal_move_errors_name_the_rule(move: str, rule: str, reason: str) -> None:
    state = pos(BLOCKED)
    err = error_of(state, move)
    assert (err.rule, err.reason) == (rule, reason)
    assert str(err).startswith(rule + ": ")
    assert not state.is_legal(move)


def test_l3_pass_only_when_no_move() -> None:
    """L3, D34, D37: a player who cannot move passes; a move is then refused."""
    state = pos("lilacru players=red,yellow chevrons=red:a1S;yellow:e5N")
    assert moves_of(state) == {"pass"}
    assert state.legal_moves().is_pass
    err = error_of(state, "a1-a2")
    assert (err.rule, err.reason) == ("L3", "must-pass")
    after = state.apply_move("pass")
    assert after.current_player == "yellow"
    assert after.outcome is None
    assert after.marker_map() == {}
    assert after.idle == 1


def test_l7_ends_when_nobody_can_move() -> None:
    """L7 (S-R6a): the last mover gets stuck and the other is stuck already; most fields wins."""
    state = pos("lilacru players=red,yellow markers=yellow:b1,i9 chevrons=red:a2S;yellow:i9N")
    assert state.outcome is None
    assert moves_of(state) == {"a2-a1"}
    end = state.apply_move("a2-a1")
    assert end.outcome == pacru.Outcome(Termination.NO_MOVES, ("yellow",))
    assert end.is_terminal
    assert end.current_player is None
    assert dict(end.scores) == {"red": 1, "yellow": 2}
    assert len(end.legal_moves()) == 0
    err = error_of(end, "pass")
    assert (err.rule, err.reason) == ("end", "game-over")


def test_l7_ends_when_nobody_can_acquire_and_ties_are_shared() -> None:
    """L7, D33: red can still move (h1-i1) but only onto its own field; D35: 2-2 is shared."""
    state = pos(
        "lilacru players=red,yellow markers=red:i1;yellow:h2,i2 chevrons=red:g1E;yellow:a9N"
    )
    assert state.outcome is None
    end = state.apply_move("g1-h1")
    assert end.outcome == pacru.Outcome(Termination.NO_ACQUISITION, ("red", "yellow"))
    assert end.outcome.result() == "red, yellow share the win"
    assert reference_moves(pos(end.to_position().replace(" turn=yellow", " turn=red"))) == {"h1-i1"}


def test_l7_three_players_tie_between_two() -> None:
    """D35: every player with the top score is a winner (here red and black with 2)."""
    state = pos(
        "lilacru players=red,yellow,black turn=black markers=red:a1,b2;yellow:b1;black:i9 "
        "chevrons=red:a1S;yellow:b1S;black:c2SW"
    )
    assert state.outcome is None
    assert moves_of(state) == {"c2-c1"}
    end = state.apply_move("c2-c1")
    assert end.outcome == pacru.Outcome(Termination.NO_MOVES, ("red", "black"))
    assert dict(end.scores) == {"red": 2, "yellow": 1, "black": 2}


def test_d33_idle_rounds_valve() -> None:
    """D33: idle_rounds full rounds without an acquisition end the game (non-official)."""
    text = (
        "lilacru players=red,yellow markers=red:d6,e6,f6 chevrons=red:e5N;yellow:a1N "
        "idle=1 idle_rounds=1"
    )
    state = pos(text)
    assert state.outcome is None
    own = state.apply_move("e5-e6")
    assert own.idle == 2
    assert own.outcome == pacru.Outcome(Termination.IDLE_LIMIT, ("red",))
    gain = pos(text.replace("red:d6,e6,f6", "red:d6,f6")).apply_move("e5-e6")
    assert gain.idle == 0
    assert gain.outcome is None


def test_d33_default_valve_is_81_rounds() -> None:
    text = "lilacru players=red,yellow markers=red:d6,e6,f6 chevrons=red:e5N;yellow:a1N idle={}"
    assert pos(text.format(160)).apply_move("e5-e6").outcome is None
    end = pos(text.format(161)).apply_move("e5-e6")
    assert end.outcome is not None
    assert end.outcome.termination is Termination.IDLE_LIMIT


def test_l2_d44_lilacru_uses_the_302_start() -> None:
    """L2, D44: the 302 starting positions, all fields neutral."""
    assert pacru.new_game("lilacru", 3).chevron_map() == pacru.new_game("shacru", 3).chevron_map()
    assert pacru.new_game("lilacru").supply is None  # unlimited markers (D38)
