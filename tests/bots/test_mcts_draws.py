"""MCTS draws its candidates by move index: the same moves and searches as drawing moves.

The position below (a seeded random Pacru game after 14 plies) has 64 step
moves in 12 families, more than a node's room, and 8 reorientation families
{R14}, so a node samples both kinds. The pinned candidates and search are
those of the search that built every candidate move before expanding it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import pacru
from pacru.bots import GreedyBot, MCTSBot
from pacru.bots.mcts import _distinct, _shuffle
from pacru.chevron.movelist import LegalMoves

POSITION = (
    "pacru players=green,yellow turn=green markers=green:a4,g6;yellow:e5 "
    "chevrons=green:d3N,b4NE,g4NW,h7S;yellow:b2NE,e5SW,i7W,c8NE ply=14"
)

#: MCTSBot(seed=3).candidates of POSITION: 36 step moves, then 3 reorientations, shuffled.
CANDIDATES = [
    "h7-i6+h6",
    "h7-g6+i5",
    "b4-b5",
    "g4-f4+e4",
    "g4-f4+f6",
    "g4-f4+e6",
    "g4-f4+f4",
    "d3-e4+d6",
    "b4-c4",
    "h7-g6+h4",
    "h7-i6+i4",
    "g4<(a4,g6)",
    "g4-f5+f5",
    "d3-e4+d4",
    "b4-c5",
    "h7-g6+h6",
    "h7-g6+i6",
    "h7-i6+i6",
    "d3-d4+d4",
    "d3>(a4,g6)",
    "h7-i6+h4",
    "d3-c4+c5",
    "d3-e4+f6",
    "d3-d4+d6",
    "h7<(a4,g6)",
    "h7-g6+h5",
    "h7-h6+i6",
    "h7-h6+h6",
    "d3-c4+a6",
    "d3-c4+c4",
    "d3-c4+b5",
    "g4-g5",
    "d3-d4+f6",
    "d3-d4+f4",
    "h7-h6+h5",
    "d3-d4+e6",
    "d3-c4+a5",
    "h7-i6+g5",
    "g4-f5+e6",
]


def test_family_bounds_give_each_family_its_moves() -> None:
    moves = pacru.from_position(POSITION).legal_moves()
    assert isinstance(moves, LegalMoves)
    steps, turns = moves._family_bounds()
    assert steps == (
        (0, 7), (7, 8), (15, 8), (23, 1), (24, 1), (25, 1),
        (26, 8), (34, 8), (42, 1), (43, 7), (50, 7), (57, 7),
    )  # fmt: skip
    # Four chevrons, each turning 45 degrees either way for two fields (a4, g6) {R14}.
    assert turns == tuple((64 + k, 1) for k in range(8))
    assert len(moves) == 72
    for family, (start, size) in zip(moves.families, steps + turns, strict=True):
        assert list(family) == list(moves[start : start + size])
    assert LegalMoves.pass_only()._family_bounds() == ((), ())
    assert LegalMoves.empty()._family_bounds() == ((), ())


def test_candidates_and_search_of_a_sampled_node() -> None:
    state: pacru.GameState[Any] = pacru.from_position(POSITION)
    assert [str(m) for m in MCTSBot(seed=3, iterations=60).candidates(state)] == CANDIDATES
    result = MCTSBot(seed=3, iterations=60).search(state)
    # 60 iterations expand all 39 candidates, from the end of the shuffled list.
    assert [str(m) for m in result.moves] == CANDIDATES[::-1]
    assert result.visits == (
        2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 1,
        1, 2, 2, 2, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 2, 2,
    )  # fmt: skip
    assert str(result.best_move) == "d3-c4+b5"
    assert result.value == pytest.approx(0.1497674580308527)
    assert str(GreedyBot(seed=3).choose_move(state)) == "d3-c4+a5"


@pytest.mark.parametrize("seed", range(20))
def test_shuffle_swaps_as_random_shuffle(seed: int) -> None:
    for n in (0, 1, 2, 3, 7, 40, 41, 300):
        mine, theirs = random.Random(seed), random.Random(seed)
        ours, reference = list(range(n)), list(range(n))
        _shuffle(ours, mine)
        theirs.shuffle(reference)
        assert ours == reference
        assert mine.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", range(20))
def test_distinct_draws_as_randrange(seed: int) -> None:
    """A family by randrange(len(families)), a move in it by randrange(size), as
    pacru.bots.sample_move draws; at most 4 * room draws."""
    families = ((0, 7), (7, 1), (8, 3), (11, 12), (23, 1))
    for room in (1, 5, 20, 24, 30):
        mine, theirs = random.Random(seed), random.Random(seed)
        reference: dict[int, None] = {5: None}
        for _ in range(4 * room):
            if len(reference) >= room:
                break
            start, size = families[theirs.randrange(len(families))]
            reference[start + theirs.randrange(size)] = None
        ours = _distinct(families, {5: None}, room, mine)
        assert list(ours) == list(reference)
        assert mine.getstate() == theirs.getstate()
