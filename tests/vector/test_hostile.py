"""Hostile input to pacru.vector, PacruVectorEnv and random_rollouts (found by fuzzing).

Each case holds on both engines (the suite runs twice): the same outcome, a
documented pacru error, ``ValueError`` or ``TypeError``; never a hang, an
``OverflowError`` from the native layer or a pickle restored half-way.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import pacru
from pacru.bots import random_rollouts
from pacru.chevron.rules import COUNTER_MAX
from pacru.chevron.state import ChevronState
from pacru.errors import IllegalMoveError, InvalidPositionError
from pacru.gymnasium_vector import PacruVectorEnv
from pacru.vector import VectorEnv, VectorState
from pacru.vector.play import finish_seed

SHACRU = pacru.new_game("shacru", 2)


def test_max_plies_past_the_int32_plies_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"max_plies must be 0\.\.2147483647, not 4294967296"):
        random_rollouts(SHACRU, 2, seed=1, max_plies=2**32)
    with pytest.raises(TypeError, match="max_plies must be an integer, not float"):
        random_rollouts(SHACRU, 2, seed=1, max_plies=1.5)  # type: ignore[arg-type]
    returns, plies = random_rollouts(SHACRU, 2, seed=1, max_plies=2**31 - 1)
    assert returns.shape == (2, 2)
    assert (plies > 0).all()


def _at_ply(ply: int) -> ChevronState:
    s = SHACRU
    assert isinstance(s, ChevronState)
    return ChevronState(s.rules, s.players, s.markers, s.chevrons, s.to_move, 0, -1, 0, ply)


def test_a_rollout_past_the_ply_counter_raises_invalid_position_error() -> None:
    """The native engine stopped such a game silently (returns 0); both engines now raise
    what apply_move raises at the counter's end."""
    state = _at_ply(COUNTER_MAX - 1)
    with pytest.raises(InvalidPositionError, match=f"ply cannot count past {COUNTER_MAX}"):
        random_rollouts(state, 2, seed=1)
    # One ply fits: the games stop there, without an outcome.
    returns, plies = random_rollouts(state, 2, seed=1, max_plies=1)
    assert plies.tolist() == [1, 1]
    assert not returns.any()


@pytest.mark.parametrize("threads", [0, 1025, 2**64])
def test_num_threads_out_of_range_is_a_value_error(threads: int) -> None:
    message = rf"num_threads must be 1\.\.1024, not {threads}"
    with pytest.raises(ValueError, match=message):
        VectorEnv("shacru", 2, 2, num_threads=threads)
    with pytest.raises(ValueError, match=message):
        random_rollouts(SHACRU, 2, num_threads=threads)
    with pytest.raises(ValueError, match=message):
        PacruVectorEnv("shacru", 2, 2, num_threads=threads)


def test_num_threads_of_any_integer_type_up_to_the_limit_is_taken() -> None:
    env = VectorEnv("shacru", 2, 2, num_threads=np.uint64(1024))  # type: ignore[arg-type]
    assert env.num_threads == 1024
    assert type(env.num_threads) is int
    assert env.init(0).current_player.tolist() == [0, 0]
    with pytest.raises(TypeError, match="num_threads must be an integer, not float"):
        VectorEnv("shacru", 2, 2, num_threads=2.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("max_steps", [2**31, 2**32 - 1, 2**32])
def test_max_steps_past_the_int32_step_counts_is_a_value_error(max_steps: int) -> None:
    message = rf"max_steps must be 1\.\.2147483647, not {max_steps}"
    with pytest.raises(ValueError, match=message):
        VectorEnv("shacru", 2, 2, max_steps=max_steps)
    with pytest.raises(ValueError, match=message):
        PacruVectorEnv("shacru", 2, 2, "random", max_steps=max_steps)


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
def test_the_largest_max_steps_plays_with_the_built_in_bots(mode: str) -> None:
    env = VectorEnv("shacru", 2, 2, max_steps=2**31 - 1, autoreset_mode=mode)
    state = env.play_opponents(env.init(0), "random", np.array([1, 1]), seed=1)
    assert state.current_player.tolist() == [1, 1]
    assert state.step_count.tolist() == [2, 2]
    envs = PacruVectorEnv("shacru", 2, 2, "random", seat=1, max_steps=2**31 - 1)
    envs.reset(seed=0)
    envs.step(np.array([int(np.flatnonzero(m)[0]) for m in envs.action_masks()]))
    assert envs.state.current_player.tolist() == [1, 1]


def _under_way(env: VectorEnv) -> VectorState:
    """Every game after one decision of seat 0's first move (Shacru: a chevron's field,
    its target to follow): the move is under way."""
    state = env.step(env.init(0), env.random_actions(env.init(0), 0))
    assert all(len(env.prefix(state, i)) == 1 for i in range(env.num_envs))
    assert state.current_player.tolist() == [0] * env.num_envs
    return state


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("mode", ["same-step", "next-step"])
def test_a_built_in_bot_finishes_a_move_under_way(bot: str, mode: str) -> None:
    """The native bots looped forever on a move no bot began, the Python ones raised
    IllegalMoveError; both now finish it with uniformly random decisions of the mask
    (VectorEnv.random_actions of finish_seed), then play on."""
    env = VectorEnv("shacru", 2, 6, autoreset_mode=mode)
    state = _under_way(env)
    after = env.play_opponents(state, bot, np.ones(6, dtype=np.int32), seed=3)
    assert after.current_player.tolist() == [1] * 6
    assert after.step_count.tolist() == [2] * 6
    draws = env.random_actions(state, finish_seed(3, 1))
    start = env.position(state, 0)
    for i in range(6):
        chosen = (*env.prefix(state, i), int(draws[i]))
        [move] = [m for m in start.legal_moves() if env.encoding.actions(start, m) == chosen]
        assert env.position(after, i) == start.apply_move(move)
        assert env.prefix(after, i) == ()


def test_a_bot_plays_on_after_finishing_a_move_under_way() -> None:
    """Seat 2 of three is the learner: seat 0's move is finished, then seat 1's bot plays."""
    env = VectorEnv("shacru", 3, 4)
    state = _under_way(env)
    after = env.play_opponents(state, "random", np.full(4, 2), seed=5)
    assert after.current_player.tolist() == [2] * 4
    assert [env.position(after, i).ply for i in range(4)] == [2] * 4


def _first_legal(observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Any:
    return mask.argmax(axis=1)


def test_a_policy_gets_a_read_only_mask_and_cannot_pass_an_illegal_action() -> None:
    env = VectorEnv("shacru", 2, 3)
    state = env.init(0)
    seats = np.ones(3, dtype=np.int32)

    def writes(observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Any:
        mask[:] = True
        return np.zeros(len(mask), dtype=np.int64)

    with pytest.raises(ValueError, match="read-only"):
        env.play_opponents(state, writes, seats)

    def unlocks(observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Any:
        mask.setflags(write=True)
        return np.zeros(len(mask), dtype=np.int64)

    with pytest.raises(ValueError, match="WRITEABLE"):
        env.play_opponents(state, unlocks, seats)

    def copies(observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Any:
        mask = mask.copy()
        mask[:] = True
        return np.zeros(len(mask), dtype=np.int64)  # action 0, the pass: not legal here

    with pytest.raises(IllegalMoveError, match="game 0: the opponent policy's action 0"):
        env.play_opponents(state, copies, seats)
    assert env.play_opponents(state, _first_legal, seats).current_player.tolist() == [1] * 3


@pytest.mark.parametrize("seat", [0.5, "0", True])
def test_a_seat_that_is_not_an_integer_is_a_type_error(seat: Any) -> None:
    with pytest.raises(TypeError, match="seat must be an integer"):
        PacruVectorEnv("shacru", 2, 2, seat=seat)


def test_a_seat_of_any_integer_type_is_taken_as_an_int() -> None:
    envs = PacruVectorEnv("shacru", 2, 2, seat=np.int64(1))  # type: ignore[arg-type]
    assert envs.seat == 1
    assert type(envs.seat) is int
    envs.reset(seed=0)
    assert envs.state.current_player.tolist() == [1, 1]


def test_a_state_that_is_not_a_vector_state_is_a_type_error() -> None:
    env = VectorEnv("shacru", 2, 2)
    message = "state must be a VectorState, not NoneType"
    with pytest.raises(TypeError, match=message):
        env.step(None, [0, 0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message):
        env.random_actions(None, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message):
        env.play_opponents(None, "random", [1, 1])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message):
        env.position(None, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1.5, None, "1"])
def test_a_bot_seed_that_is_not_an_integer_is_a_type_error(seed: Any) -> None:
    env = VectorEnv("shacru", 2, 2)
    with pytest.raises(TypeError, match=f"seed must be an integer, not {type(seed).__name__}"):
        env.play_opponents(env.init(0), "random", [1, 1], seed=seed)


def _doctored(state: VectorState, **changes: Any) -> Any:
    function, (env, arrays, seed, games) = state.__reduce__()
    parts = {"env": env, "arrays": arrays, "seed": seed, "games": games} | changes
    return function(parts["env"], parts["arrays"], parts["seed"], parts["games"])


def test_a_doctored_pickle_is_a_value_error() -> None:
    env = VectorEnv("shacru", 2, 3)
    state = _under_way(env)
    _, (_, arrays, _, games) = state.__reduce__()
    assert _doctored(state).equals(state)
    assert pickle.loads(pickle.dumps(state)).equals(state)
    lilacru = pacru.new_game("lilacru", 2)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"games": [*games, games[0]]}, "3 games expected"),
        ({"games": games[:2]}, "3 games expected"),
        ({"seed": 1.5}, "the seed must be an integer"),
        ({"env": None}, "a VectorEnv expected"),
        ({"arrays": arrays[:6]}, "7 arrays expected"),
        ({"arrays": (arrays[0], arrays[1].astype(np.int64), *arrays[2:])}, "int32"),
        ({"arrays": (arrays[0][:2], *arrays[1:])}, r"bool \(3, 415\)"),
        ({"games": [(g, (2**70,)) for g, _ in games]}, r"actions 0\.\.414 expected"),
        ({"games": [(g, (-1,)) for g, _ in games]}, r"actions 0\.\.414 expected"),
        ({"games": [(g, (0,)) for g, _ in games]}, "its games cannot be replayed"),
        ({"games": [(lilacru, ())] * 3}, "a game of shacru for 2 expected"),
        ({"games": [[g, p] for g, p in games]}, r"a \(position, actions\) pair expected"),
    ]
    for changes, message in cases:
        with pytest.raises(ValueError, match=message):
            _doctored(state, **changes)


def test_an_lsd_row_length_past_32_bits_plays_as_any_row_longer_than_the_tiles() -> None:
    """``row_length`` may be any int from 2 up: past 2**32 the native batch is given one more
    than the tiles in play (no longer row can be made), not an OverflowError."""
    states = []
    for row_length in (2**33, 10**6):
        env = VectorEnv("lsd", 2, num_envs=8, row_length=row_length)
        state = env.init(3)
        for step in range(30):
            state = env.step(state, env.random_actions(state, step))
        states.append([env.position(state, i).to_position() for i in range(8)])
    far, near = states
    assert [p.replace("row=8589934592", "row=1000000") for p in far] == near
