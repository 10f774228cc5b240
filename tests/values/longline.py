"""A legal Shacru line of any length, cheap to play.

Green's chevron walks a cycle of seven own fields (``e5-d6 d6-c6< c6-c5 c5-c4
c4-d3< d3-e4 e4-e5``, the twists at the border crossings {S-R4} turning it
round) while yellow's chevron faces the board edge on a1 and must pass {S-R2}.
Neutral fields stay reachable, so the look-ahead end never comes {S-R6b}, and
``idle_rounds`` is raised far above the line's length (D33).
"""

from __future__ import annotations

from pacru import ChevronState, Move

__all__ = ["CYCLE", "CYCLE_START", "cycle_moves", "play_cycle"]

CYCLE_START = (
    "shacru players=green,yellow markers=green:c4,c5,c6,d3,d6,e4,e5 "
    "chevrons=green:e5N;yellow:a1S idle_rounds=1000000"
)
#: One turn of the cycle: 14 plies, back to the start position (ply and idle aside).
CYCLE = tuple(
    Move.parse(text)
    for pair in zip(
        ["e5-d6", "d6-c6<", "c6-c5", "c5-c4", "c4-d3<", "d3-e4", "e4-e5"], ["pass"] * 7, strict=True
    )
    for text in pair
)


def cycle_moves(plies: int) -> list[Move]:
    """The first ``plies`` moves of the line."""
    return [CYCLE[i % len(CYCLE)] for i in range(plies)]


def play_cycle(state: ChevronState, plies: int) -> ChevronState:
    """``state`` (the start of the line, or a whole number of cycles on) after ``plies`` moves."""
    for move in cycle_moves(plies):
        state = state.apply_move(move)
    return state
