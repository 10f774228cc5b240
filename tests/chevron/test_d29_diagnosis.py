"""A refused choice after the marker supply ran out cites the empty supply (R16b, D29).

Once a move places the last marker of the supply the game is won at once and
the move ends (C.4.2, D29): no crossing marker, connection change or meeting
follows. The error names D29, not the rule a full board or a missing meeting
would break (D14, R8, R12), since neither is the reason.
"""

from __future__ import annotations

import pytest

import pacru
from pacru import ChevronState, IllegalMoveError

_ROWS = [c + r for r in "1234" for c in "abcdefghi"]


def _pacru(text: str) -> ChevronState:
    state = pacru.from_position(text)
    assert isinstance(state, ChevronState)
    return state


# red holds 41 of 42 markers; the pincer e6xe7 (d6 attacks e7 too) places the 42nd.
PINCER = _pacru(
    "pacru players=red,yellow markers=red:"
    + ",".join([*_ROWS, "a5", "b5", "c5", "g5", "h5"])
    + " chevrons=red:e6N,d6NE;yellow:e7S,a9E"
)
# red holds 41 markers with f8; the crossing marker +f7 is the 42nd, and f7/f8 would meet.
CROSSING = _pacru(
    "pacru players=red,yellow markers=red:"
    + ",".join([*_ROWS[:-1], "a5", "b5", "c5", "g5", "h5", "f8"])
    + ";yellow:a7,b7,c7,a8,b8,c8,a9,b9,c9 chevrons=red:f6N,f8S;yellow:h9S"
)


def test_positions_are_one_marker_short() -> None:
    assert PINCER.supply == {"red": 1, "yellow": 42}
    assert CROSSING.supply == {"red": 1, "yellow": 33}
    won = PINCER.apply_move("e6xe7")
    assert won.outcome == pacru.Outcome(pacru.Termination.SUPPLY_EXHAUSTED, ("red",))
    assert CROSSING.apply_move("f6-f7+f7").outcome == won.outcome


@pytest.mark.parametrize("text", ["e6xe7+e8", "e6xe7*", "e6xe7@a9"])
def test_choice_after_the_last_marker_of_a_pincer_cites_d29(text: str) -> None:
    """Not "every neutral field holds a chevron (D14)", "not a connection (D9)" or "no meeting"."""
    with pytest.raises(IllegalMoveError) as raised:
        PINCER.apply_move(text)
    err = raised.value
    assert (err.rule, err.reason, err.move) == ("D29", "supply-exhausted", text)
    assert str(err) == (
        f"D29: {text}: the pincer places the last marker of the supply, which wins at once "
        "(R16b): no '*', '+field' or '@field' follows (D29)"
    )


def test_meeting_after_the_last_crossing_marker_cites_d29() -> None:
    """The crossing marker empties the supply: no meeting follows (not R12's "no meeting")."""
    with pytest.raises(IllegalMoveError) as raised:
        CROSSING.apply_move("f6-f7+f7@e5")
    err = raised.value
    assert (err.rule, err.reason) == ("D29", "supply-exhausted")
    assert "the crossing marker places the last marker of the supply" in str(err)


def test_meeting_without_an_empty_supply_still_cites_r12() -> None:
    """With markers to spare the same missing meeting is R12's, as before."""
    state = pacru.from_position("pacru players=red,yellow chevrons=red:f6N;yellow:h9S")
    with pytest.raises(IllegalMoveError) as raised:
        state.apply_move("f6-f7+f7@e5")
    assert (raised.value.rule, raised.value.reason) == ("R12", "no-meeting")
