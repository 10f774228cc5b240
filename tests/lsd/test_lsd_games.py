"""Whole random games for 2, 3 and 4 players, checked against the naive reference
implementation in :mod:`.helpers` {LSD.md 1.5, 2.2-2.4; RULINGS 8-9, 18-19, 21}."""

from __future__ import annotations

import random

import pytest

from pacru import lsd
from pacru.base import Termination
from pacru.lsd import LsdMove, LsdState

from .helpers import reference_captures, reference_moves, reference_row_owners, texts


def _check_final(start: LsdState, state: LsdState, moves: list[LsdMove]) -> None:
    players = state.players
    outcome = state.outcome
    assert outcome is not None
    assert state.current_player is None
    assert state.legal_moves() == ()
    if outcome.termination is Termination.ROW:
        last = state.last_move
        assert last is not None
        assert last == moves[-1]
        (winner,) = outcome.winners
        tile = state.tile_at(last.cell)
        assert tile is not None
        assert tile.owner == winner  # RULING 18: only the mover can have made it
        assert reference_row_owners(state) == {winner}
    else:
        assert outcome.termination is Termination.BLOCKED
        assert outcome.winners == ()
        assert not any(state.can_place(c) for c in players)  # 2.4: nobody can place
        assert reference_row_owners(state) == set()
    on_field = dict.fromkeys(players, 0)
    for tile in state.field.values():
        on_field[tile.owner] += 1
    assert dict(state.scores) == on_field
    for colour in players:  # RULING 21: every tile is in a supply, on the field or captured
        assert state.supply_size(colour) + on_field[colour] + state.captured_count(colour) == 20
    assert len(moves) == state.ply == sum(20 - state.supply_size(c) for c in players)
    replayed = start
    for move in moves:
        replayed = replayed.apply_move(str(move))
    assert replayed == state
    assert hash(replayed) == hash(state)
    assert lsd.from_position(state.to_position()) == state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_game(players: int, seed: int) -> None:
    """A seeded random game: every state keeps the invariants and the end is consistent."""
    rng = random.Random(seed * 10 + players)
    start = lsd.new_game(players)
    state = start
    played: list[LsdMove] = []
    while not state.is_terminal:
        colour = state.current_player
        assert colour is not None
        moves = state.legal_moves()
        assert moves  # a player without a placement is skipped (RULING 19)
        assert texts(moves) == reference_moves(state)
        move = rng.choice(moves)
        after = state.apply_move(move)
        assert set(state.field) - set(after.field) == reference_captures(state, move)
        assert after.tile_at(move.cell) == lsd.Tile(colour, move.shape, move.shade, move.sides)
        state = after
        played.append(move)
    _check_final(start, state, played)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_every_option_off(players: int) -> None:
    """Rotation off and lax dot matching (RULINGS 4, 5): still consistent to the end."""
    rng = random.Random(players)
    start = lsd.new_game(players, allow_rotation=False, strict_dot_matching=False)
    for _ in range(3):
        state = start
        played: list[LsdMove] = []
        while not state.is_terminal:
            assert texts(state.legal_moves()) == reference_moves(state)
            played.append(rng.choice(state.legal_moves()))
            state = state.apply_move(played[-1])
        _check_final(start, state, played)
