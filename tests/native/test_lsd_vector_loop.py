"""The native LSD loop of pacru.vector (``pacru.vector.native.LsdLoop``) against the Python loop.

Two environments step the same LSD games with the same random legal actions, one on
``LsdLoop`` (the extension's LSD engine and encoding), one on ``PythonLoop``
(:mod:`pacru.lsd` and :mod:`pacru.encoding.lsd`): every array of every step must be
equal, and so must each game's position and the actions chosen in its move under way,
through game ends, restarts, openings, ``max_steps`` cuts, both reset rules and every
observation dtype.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

from pacru.chevron.engine import ENGINE
from pacru.encoding.lsd import LsdEncoding
from pacru.lsd import new_game
from pacru.lsd.state import LsdState
from pacru.vector import STATE_ARRAYS, VectorEnv
from pacru.vector.python import PythonLoop

from . import support  # noqa: F401 (skips this module without the extension)
from .vector_support import assert_same, play

ENV_ONLY = ("max_steps", "opening_plies", "autoreset_mode", "observation_dtype")


def pair(players: int, num_envs: int = 6, **options: Any) -> tuple[VectorEnv, VectorEnv]:
    from pacru.vector.native import LsdLoop

    native = VectorEnv("lsd", players=players, num_envs=num_envs, **options)
    python = VectorEnv("lsd", players=players, num_envs=num_envs, **options)
    start = new_game(players, **{k: v for k, v in options.items() if k not in ENV_ONLY})
    assert isinstance(start, LsdState)
    assert isinstance(native.encoding, LsdEncoding)
    python._loop = PythonLoop(python.encoding, start, python.opening_plies)
    native._loop = LsdLoop(native.encoding, start, native.opening_plies)
    return native, python


@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_lsd_loop_equals_the_python_loop(players: int) -> None:
    native, python = pair(players)
    # A 2-player game takes at most 40 plies of at most 2 decisions: games end and restart.
    assert play(native, python, 150, players, every=10) > 0


@pytest.mark.parametrize(
    "options",
    [
        {"opening_plies": 5},
        {"allow_rotation": False, "max_steps": 12},
        {"strict_dot_matching": False, "row_length": 3, "opening_plies": 2},
        {"first_player": "yellow", "tile_set": "+N*3,xNE*2,W+NS*2,+NES*2"},
    ],
)
def test_openings_options_and_step_limits(options: dict[str, Any]) -> None:
    native, python = pair(2, **options)
    assert play(native, python, 90, 5, every=10) > 0


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
@pytest.mark.parametrize("dtype", ["float32", "uint8", "bool"])
def test_random_actions_and_observation_dtypes_equal_the_python_loop(mode: str, dtype: str) -> None:
    native, python = pair(2, max_steps=30, autoreset_mode=mode, observation_dtype=dtype)
    a, b = native.init(3), python.init(3)
    ends = 0
    for step in range(100):
        assert_same(a, b, native, python)
        actions = native.random_actions(a, step)
        assert np.array_equal(actions, python.random_actions(b, step))
        assert a.legal_action_mask[np.arange(a.num_envs), actions].all()
        ends += int(a.ended.sum())
        a, b = native.step(a, actions), python.step(b, actions)
    assert ends > 0


def _one_and_two_threads(num_envs: int, steps: int) -> tuple[VectorEnv, VectorEnv, Any, Any]:
    """Two envs of ``num_envs`` games, on one and two threads, after ``steps`` steps of
    the same random actions (each step's draws compared)."""
    one = VectorEnv("lsd", num_envs=num_envs, num_threads=1)
    two = VectorEnv("lsd", num_envs=num_envs, num_threads=2)
    a, b = one.init(1), two.init(1)
    for step in range(steps):
        actions = one.random_actions(a, step)
        assert np.array_equal(actions, two.random_actions(b, step))
        a, b = one.step(a, actions), two.step(b, actions)
    return one, two, a, b


def test_threads_give_the_same_observations() -> None:
    # 130 games: the observation is shared out from 64 games a thread.
    one, two, a, b = _one_and_two_threads(130, 40)
    assert_same(a, b, one, two)  # equals() would compare the arguments, threads included
    assert all(one.position(a, i) == two.position(b, i) for i in range(a.num_envs))


def test_threads_give_the_same_games() -> None:
    # An LSD step and its draws share out from 4,096 games a thread: 8,200 games step on
    # two threads (their observation, 2 GB, is left out).
    one, two, a, b = _one_and_two_threads(8200, 20)
    for name in STATE_ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert all(one.prefix(a, i) == two.prefix(b, i) for i in range(a.num_envs))
    assert all(one.position(a, i) == two.position(b, i) for i in range(0, a.num_envs, 41))


@pytest.mark.skipif(ENGINE != "native", reason="the Python engine steps every game in Python")
def test_the_native_loop_is_used_for_lsd() -> None:
    from pacru.vector.native import LsdLoop

    assert isinstance(VectorEnv("lsd", num_envs=2)._loop, LsdLoop)


def test_an_old_state_is_unchanged_and_a_state_pickles() -> None:
    native, _ = pair(3, num_envs=3)
    first = native.init(2)
    before = first.observation.copy(), native.position(first, 0), native.prefix(first, 0)
    state = first
    for step in range(7):
        state = native.step(state, native.random_actions(state, step))
    assert np.array_equal(first.observation, before[0])
    assert native.position(first, 0) == before[1]
    assert native.prefix(first, 0) == before[2]
    again = pickle.loads(pickle.dumps(state))
    assert again.equals(state)
    assert np.array_equal(again.observation, state.observation)
    assert copy.deepcopy(state) is state
