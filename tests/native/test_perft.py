"""Perft of the native engine against the Python engine and the documented counts."""

from __future__ import annotations

import random

import pytest

from chevron.test_perft import PERFT
from pacru import ChevronState
from pacru.chevron.engine import python_apply, python_legal_moves

from .support import CONFIGS, fresh, native, start


def python_perft(state: ChevronState, depth: int) -> int:
    moves = python_legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(python_perft(python_apply(state, m), depth - 1) for m in moves)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_native_perft_from_the_start_is_the_documented_count(game: str, players: int) -> None:
    pos = native.position(start(game, players))
    assert tuple(pos.perft(d) for d in (1, 2, 3, 4)) == PERFT[game, players]
    assert pos.perft(0) == 1


def _random_position(game: str, players: int, seed: int) -> ChevronState:
    rng = random.Random(seed)
    state = start(game, players)
    for _ in range(rng.randrange(10, 60)):
        moves = python_legal_moves(state)
        if not moves:
            break
        state = python_apply(state, moves[rng.randrange(len(moves))])
    return fresh(state)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
@pytest.mark.parametrize("seed", range(3))
def test_native_perft_from_random_positions(game: str, players: int, seed: int) -> None:
    state = _random_position(game, players, seed)
    pos = native.position(state)
    assert pos.perft(1) == python_perft(state, 1)
    assert pos.perft(2) == python_perft(state, 2)
    if game != "pacru":  # a Pacru middle game has too many reorientations for depth 3 here
        assert pos.perft(3) == python_perft(state, 3)
