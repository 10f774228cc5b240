"""The native LSD engine (``rust/lsd``, through ``pacru._native.LsdBatch``) against the
Python engine (:mod:`pacru.lsd`), the reference.

Random games from many seeds, 2-4 players and several option sets are played on both
engines decision by decision, the Python side through :class:`pacru._cursor.Cursor`
and :mod:`pacru.encoding.lsd`. At every decision the legal actions and the observation
must be equal; at every ply the legal moves (same order), the field, frontier,
supplies, captured tiles, turn and outcome; and for moves the Python engine refuses,
the same reason and rule (LSD 1.5, 2.2, RULINGS 4, 5, 20).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacru._cursor import Cursor
from pacru.encoding.lsd import LsdEncoding
from pacru.errors import IllegalMoveError
from pacru.lsd import new_game
from pacru.lsd.moves import _move
from pacru.lsd.state import LsdState
from pacru.lsd.tiles import SIDE_NAMES, encode_cell

from . import support  # noqa: F401 (skips this module without the extension)

if TYPE_CHECKING:
    from pacru import _native

#: Option sets: the defaults, rotation off (RULING 4), loose matching (RULING 5), a short
#: row (RULING 16), and a small mixed-shade tile set (RULING 2).
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"allow_rotation": False},
    {"strict_dot_matching": False, "row_length": 3},
    {"tile_set": "+N*3,xNE*2,W+NS*2,BxNESW*1,+NES*2", "row_length": 5},
)


def batch_of(state: LsdState, n: int) -> tuple[_native.LsdBatch, bytearray]:
    from pacru import _native
    from pacru.vector.native import lsd_parts

    rules = state.rules
    return _native.LsdBatch.create(
        [list(k) for k in rules.kinds],
        [list(c) for c in rules.initial],
        rules.allow_rotation,
        rules.strict_dot_matching,
        rules.row_length,
        lsd_parts(state),
        n,
    )


def _ceil8(n: int) -> int:
    return -(-n // 8) * 8


def mask_of(raw: bytearray, num_actions: int) -> list[int]:
    """Row 0's legal actions in a one-row frame."""
    return np.flatnonzero(np.frombuffer(raw, np.bool_, num_actions)).tolist()


def assert_same_position(batch: _native.LsdBatch, state: LsdState) -> None:
    field, frontier, supplies, captured, turn, end, winners, last = batch.position(0)
    assert dict(field) == state._field
    assert field == sorted(state._field.items())
    assert dict(frontier) == state._frontier
    assert tuple(map(tuple, supplies)) == state._supplies
    assert tuple(map(tuple, captured)) == state._captured
    assert turn == state._turn
    outcome = state.outcome
    if outcome is None:
        assert (end, winners) == (0, 0)
    else:
        assert end == (1 if outcome.termination.value == "row" else 2)
        assert winners == sum(1 << state.players.index(w) for w in outcome.winners)
    if state.last_move is not None:
        assert last is not None
        assert _move(*last) == state.last_move
    moves = [(m._face, m._code) for m in state.legal_moves()]
    assert batch.moves(0) == moves


def python_refusal(state: LsdState, face: int, cell: int) -> tuple[str, str, str] | None:
    """``(reason, rule, message)`` of the Python engine's refusal of a placement, or None."""
    try:
        state._check(_move(face, cell), "")
    except IllegalMoveError as error:  # GameOverError included
        return error.reason, error.rule, str(error)
    return None


def assert_same_refusals(batch: _native.LsdBatch, state: LsdState, rng: random.Random) -> None:
    """Random placements near the field: both engines accept or refuse each, for one reason."""
    cells = [(0, 0), *(c for c, _ in state.field.items())]
    for _ in range(12):
        x, y = rng.choice(cells)
        face = rng.randrange(64)
        cell = encode_cell(x + rng.randint(-1, 1), y + rng.randint(-1, 1))
        got = batch.illegal(0, face, cell)
        expected = python_refusal(state, face, cell)
        if expected is None:
            assert got is None
            continue
        reason, rule, message = expected
        assert got is not None
        assert got[:2] == (reason, rule)
        if reason == "obstructs-dot":
            assert f"the empty {SIDE_NAMES[got[2]]} side" in message
        elif reason == "dot-against-empty":
            assert f"the half dot on the {SIDE_NAMES[got[2]]} side" in message
        else:
            assert got[2] == -1


def play_both(players: int, options: dict[str, Any], seed: int, games: int = 3) -> int:
    """Play ``games`` random games on both engines; returns the plies played."""
    rng = random.Random(seed)
    start = new_game(players, **options)
    encoding = LsdEncoding(players, **options)
    plies = 0
    for _ in range(games):
        cursor = Cursor.start(encoding, start)
        batch, raw = batch_of(start, 1)
        assert_same_position(batch, start)
        while cursor.decision is not None:
            decision = cursor.decision
            assert mask_of(raw, encoding.num_actions) == list(decision.legal_actions)
            if rng.random() < 0.1:
                observed = np.frombuffer(batch.observation(), np.float32)
                expected = encoding.observation(decision, decision.player)
                assert np.array_equal(observed.reshape(expected.shape), expected)
            action = rng.choice(decision.legal_actions)
            before = cursor.state
            cursor = cursor.step(action)
            batch, raw = batch.step([0], [action], [False], [None])
            assert batch.prefix(0) == list(cursor.prefix)
            if cursor.state is not before:
                plies += 1
                state = cursor.state
                assert isinstance(state, LsdState)
                assert_same_position(batch, state)
                assert_same_refusals(batch, state, rng)
        assert mask_of(raw, encoding.num_actions) == list(range(encoding.num_actions))
        at = _ceil8(_ceil8(encoding.num_actions) + 4)  # mask, player, then the rewards
        rewards = np.frombuffer(raw, np.float32, players, at)
        assert tuple(rewards) == cursor.returns()
    return plies


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS, ids=["default", "fixed", "loose-3", "mixed"])
def test_random_games_are_equal_on_both_engines(players: int, options: dict[str, Any]) -> None:
    plies = play_both(players, options, seed=players * 7 + len(options), games=8)
    # Every tile is placed once at most (LSD 1.5): eight games, each of 2 plies at least.
    tiles = sum(sum(c) for c in new_game(players, **options).rules.initial)
    assert 16 <= plies <= 8 * tiles


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    options=st.sampled_from(OPTIONS),
)
def test_any_seed_gives_equal_games(seed: int, players: int, options: dict[str, Any]) -> None:
    play_both(players, options, seed, games=1)


def test_a_first_player_other_than_seat_0_rotates_the_seats() -> None:
    """RULING 20: the colours rotate so that first_player is seat 0, on both engines."""
    play_both(3, {"first_player": "green"}, seed=11, games=2)


def test_parts_the_engine_cannot_hold_are_refused() -> None:
    from pacru import _native

    start = new_game(2)
    rules = start.rules
    kinds = [list(k) for k in rules.kinds]
    initial = [list(c) for c in rules.initial]
    parts: Any = ([], [list(s) for s in start._supplies], [[0] * 10] * 2, 0, 0, 0, None)
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        _native.LsdBatch.create(kinds[:1], initial[:1], True, True, 4, parts, 1)
    bad_turn = (*parts[:3], 5, *parts[4:])
    with pytest.raises(ValueError, match="turn 5"):
        _native.LsdBatch.create(kinds, initial, True, True, 4, bad_turn, 1)
    batch, _ = _native.LsdBatch.create(kinds, initial, True, True, 4, parts, 2)
    with pytest.raises(ValueError, match="game 1: action 7 is not legal"):
        batch.step([1], [7], [False], [None])
    with pytest.raises(IndexError):
        batch.position(2)
