"""Native random rollouts (``pacru._native.random_rollouts``) against the Python engine.

Each recorded game is replayed move by move on the pure-Python engine: it must
be legal there, end by a rule or at ``max_plies``, and give the returns and
plies the native batch reported.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt
import pytest

from pacru import ChevronState, new_game
from pacru.bots import random_rollouts
from pacru.bots.rollouts import _engine_rollouts
from pacru.chevron.engine import ENGINE, python_apply, python_legal_moves

from .support import CONFIGS, native, start

Uniform = Literal["families", "moves"]

#: The native engine's object, whatever PACRU_ENGINE says (these tests compare it with the
#: Python engine).
NATIVE = native.NativeEngine()


def _native_rollouts(
    state: ChevronState, n: int, seed: int, cap: int | None, uniform: Uniform, *, record: bool
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int32], npt.NDArray[np.uint64] | None]:
    """The games of ``random_rollouts`` played in the native engine (what it plays on it)."""
    played = _engine_rollouts(NATIVE, state, n, seed, cap, uniform, record=record)
    assert played is not None
    return played


def replay(state: ChevronState, indices: list[int]) -> ChevronState:
    for i in indices:
        moves = python_legal_moves(state)
        assert i < len(moves)
        state = python_apply(state, moves[i])
    return state


@pytest.mark.parametrize(("game", "players"), CONFIGS)
@pytest.mark.parametrize("uniform", ["families", "moves"])
def test_recorded_games_replay_on_the_python_engine(
    game: str, players: int, uniform: Uniform
) -> None:
    state = start(game, players)
    cap = 150
    returns, plies, moves = _native_rollouts(state, 4, 17, cap, uniform, record=True)
    assert moves is not None
    assert moves.dtype == np.uint64
    assert len(moves) == int(plies.sum())
    at = 0
    for g in range(4):
        last = replay(state, [int(i) for i in moves[at : at + plies[g]]])
        at += int(plies[g])
        assert last.outcome is not None or plies[g] == cap
        assert tuple(returns[g]) == last.returns()


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_the_same_seed_gives_the_same_games(game: str, players: int) -> None:
    state = start(game, players)
    a = _native_rollouts(state, 5, 3, 80, "families", record=True)
    b = _native_rollouts(state, 5, 3, 80, "families", record=True)
    c = _native_rollouts(state, 5, 4, 80, "families", record=True)
    assert a[2] is not None
    assert b[2] is not None
    assert c[2] is not None
    for x, y in zip(a, b, strict=True):
        assert x is not None
        assert y is not None
        assert np.array_equal(x, y)
    assert not np.array_equal(a[2], c[2])


def test_shapes_dtypes_ranges_and_read_only() -> None:
    state = start("pacru", 3)
    returns, plies, moves = _native_rollouts(state, 12, 0, None, "families", record=False)
    assert moves is None
    assert returns.shape == (12, 3)
    assert returns.dtype == np.float32
    assert plies.shape == (12,)
    assert plies.dtype == np.int32
    assert set(np.unique(returns)) <= {-1.0, 0.0, 1.0}
    assert (plies > 0).all()
    assert not returns.flags.writeable
    assert not plies.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        returns[0, 0] = 2.0


@pytest.mark.skipif(ENGINE != "native", reason="the Python engine plays its own games")
def test_random_rollouts_plays_chevron_games_natively() -> None:
    state = start("shacru", 2)
    returns, plies = random_rollouts(state, 6, seed=-1, max_plies=40, uniform="moves")
    native = _native_rollouts(state, 6, 2**64 - 1, 40, "moves", record=False)
    assert np.array_equal(returns, native[0])
    assert np.array_equal(plies, native[1])


def test_finished_and_capped_games() -> None:
    state = start("azacru", 2)
    _, _, moves = _native_rollouts(state, 1, 8, None, "families", record=True)
    assert moves is not None
    last = replay(state, [int(i) for i in moves])
    assert last.outcome is not None
    returns, plies, _ = _native_rollouts(last, 3, 0, None, "families", record=False)
    assert plies.tolist() == [0, 0, 0]
    assert [tuple(r) for r in returns] == [last.returns()] * 3
    returns, plies, _ = _native_rollouts(state, 2, 0, 0, "families", record=False)
    assert plies.tolist() == [0, 0]
    assert returns.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    empty, none, _ = _native_rollouts(state, 0, 0, None, "moves", record=False)
    assert empty.shape == (0, 2)
    assert none.shape == (0,)


def test_python_rollouts_are_deterministic_by_seed() -> None:
    state = new_game("lsd", 2)
    a = random_rollouts(state, 3, seed=9, max_plies=30)
    b = random_rollouts(state, 3, seed=9, max_plies=30)
    assert np.array_equal(a[0], b[0])
    assert np.array_equal(a[1], b[1])
    assert a[0].shape == (3, 2)
    assert a[1].dtype == np.int32
    with pytest.raises(ValueError, match="uniform"):
        random_rollouts(state, 1, uniform="tiles")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="negative"):
        random_rollouts(state, -1)


def test_every_thread_count_plays_the_same_games() -> None:
    state = new_game("pacru", 2)
    one = random_rollouts(state, 150, seed=11, max_plies=60, num_threads=1)
    for threads in (2, 3):
        many = random_rollouts(state, 150, seed=11, max_plies=60, num_threads=threads)
        assert np.array_equal(many[0], one[0])
        assert np.array_equal(many[1], one[1])


def test_sizes_the_machine_cannot_hold_are_memory_errors_not_aborts() -> None:
    # Both checked before anything is allocated: the native engine refuses on its own too.
    from pacru import _native
    from pacru.vector.native import native_position

    state = new_game("pacru", 2)
    assert isinstance(state, ChevronState)
    position = native_position(state)
    with pytest.raises(MemoryError, match="too many to hold"):
        _native.random_rollouts(position, 2**62, 1, 10, True, False, 2)
    with pytest.raises(MemoryError, match="too large to hold"):
        _native.Batch.create(position, 2**62, 3, 1000.0, 162.0, 0, 2)
