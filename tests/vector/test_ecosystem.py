"""pacru.vector in the ecosystem: threads, dtypes, pickling, Gymnasium's registry, move caps."""

from __future__ import annotations

import copy
import multiprocessing
import os
import pickle
from typing import Any

import numpy as np
import pytest

import pacru
from pacru._cursor import DEFAULT_MOVE_CAP
from pacru.encoding import Encoding
from pacru.vector import VectorEnv, VectorState

from .support import random_actions


def _trace(env: VectorEnv, steps: int) -> list[VectorState]:
    rng = np.random.default_rng(8)
    state = env.init(seed=4)
    out = [state]
    for _ in range(steps):
        state = env.step(state, random_actions(state, rng))
        out.append(state)
    return out


@pytest.mark.parametrize(
    ("game", "options"), [("pacru", {"move_cap": 6}), ("azacru", {"move_cap": 6}), ("lilacru", {})]
)
def test_every_thread_count_gives_the_same_games(game: str, options: dict[str, Any]) -> None:
    # 200 games: enough rows (64 a thread at least) for 2 and 3 threads to share the batch,
    # in pieces of 32 rows that each thread takes as it comes free.
    traces = [
        _trace(VectorEnv(game, players=2, num_envs=200, num_threads=t, **options), 30)
        for t in (1, 2, 3)
    ]
    for states in zip(*traces, strict=True):
        one = states[0]
        for other in states[1:]:
            assert np.array_equal(one.observation, other.observation)
            assert np.array_equal(one.legal_action_mask, other.legal_action_mask)
            assert np.array_equal(one.rewards, other.rewards)
            assert np.array_equal(one.episode, other.episode)
    if options:
        assert traces[0][-1].episode.max() >= 1, "games ended and restarted"
    # Native loops only: LSD and the pure-Python engine step on one thread.


def _final_arrays(threads: int) -> tuple[bytes, bytes, bytes]:
    state = _trace(
        VectorEnv("pacru", players=2, num_envs=200, move_cap=6, num_threads=threads), 20
    )[-1]
    return (
        state.legal_action_mask.tobytes(),
        state.rewards.tobytes(),
        np.asarray(state.observation).tobytes(),
    )


def _in_child(threads: int, out: Any) -> None:
    out.put(_final_arrays(threads))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX's")
def test_a_forked_child_steps_on_threads_of_its_own() -> None:
    # The parent's threads (kept between steps) are not copied into a forked child
    # (multiprocessing's and Dask's workers): the child must build its own, not wait
    # forever for the parent's, and step the same games.
    expected = _final_arrays(1)
    assert _final_arrays(3) == expected  # the parent's threads exist now
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=_in_child, args=(2, out))
    child.start()
    try:
        got = out.get(timeout=120)
    finally:
        child.join(timeout=120)
        if child.is_alive():  # waiting for threads it does not have
            child.kill()
    assert child.exitcode == 0
    assert got == expected


def test_random_actions_drawn_on_threads_are_those_of_one_thread() -> None:
    # 600 games: draws are shared out from 256 games a thread, in pieces of 128.
    one, two = (VectorEnv("pacru", num_envs=600, num_threads=n, move_cap=8) for n in (1, 2))
    a, b = one.init(3), two.init(3)
    for step in range(12):
        actions = one.random_actions(a, step)
        assert np.array_equal(actions, two.random_actions(b, step))
        assert a.legal_action_mask[np.arange(600), actions].all()
        a, b = one.step(a, actions), two.step(b, actions)
        assert np.array_equal(a.legal_action_mask, b.legal_action_mask)
        assert np.array_equal(a.rewards, b.rewards)


def test_an_illegal_action_on_threads_names_the_first_game_and_changes_none() -> None:
    env = VectorEnv("pacru", players=2, num_envs=300, num_threads=2)
    state = env.step(env.init(2), env.random_actions(env.init(2), 0))
    mask = state.legal_action_mask.copy()
    actions = env.random_actions(state, 1)
    # Illegal in two games, each in another thread's share and piece.
    for row in (290, 170):
        actions[row] = int(np.flatnonzero(~state.legal_action_mask[row])[0])
    with pytest.raises(pacru.IllegalMoveError, match=r"game 170: action \d+ \(") as info:
        env.step(state, actions)
    assert info.value.reason == "illegal-action"
    assert np.array_equal(state.legal_action_mask, mask)
    assert state.step_count.tolist() == [1] * 300
    legal = env.step(state, env.random_actions(state, 1))
    assert legal.step_count.tolist() == [2] * 300


def test_num_threads_defaults_to_one_per_core() -> None:
    assert VectorEnv("pacru").num_threads == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("dtype", ["uint8", "bool"])
def test_observation_dtypes(dtype: str) -> None:
    plain = VectorEnv("pacru", players=2, num_envs=2, opening_plies=3)
    other = VectorEnv("pacru", players=2, num_envs=2, opening_plies=3, observation_dtype=dtype)
    a, b = plain.init(1), other.init(1)
    assert b.observation.dtype == np.dtype(dtype)
    if dtype == "uint8":
        assert np.array_equal(b.observation, np.rint(a.observation * 255).astype(np.uint8))
        assert set(np.unique(b.observation).tolist()) <= set(range(256))
        assert b.observation.max() == 255
    else:
        assert np.array_equal(b.observation, a.observation != 0)


def test_a_vector_env_and_its_states_pickle_and_deep_copy() -> None:
    env = VectorEnv("pacru", players=3, num_envs=4, move_cap=40, autoreset_mode="next-step")
    states = _trace(env, 30)
    assert any(env.prefix(s, i) for s in states for i in range(4)), "a move under way"
    for state in states[::5]:
        again = pickle.loads(pickle.dumps(state))
        assert again.equals(state)
        assert np.array_equal(again.observation, state.observation)
        assert [again.env.position(again, i) for i in range(4)] == [
            env.position(state, i) for i in range(4)
        ]
        assert [again.env.prefix(again, i) for i in range(4)] == [
            env.prefix(state, i) for i in range(4)
        ]
        # The unpickled state steps on, in its own environment or in this one.
        actions = random_actions(state, np.random.default_rng(0))
        assert env.step(again, actions).equals(env.step(state, actions))
    clone = pickle.loads(pickle.dumps(env))
    assert repr(clone) == repr(env)
    assert clone.init(3).equals(env.init(3))
    assert repr(copy.deepcopy(env)) == repr(env)
    assert copy.deepcopy(states[-1]) is states[-1]  # immutable
    assert not states[0].equals(states[1])


@pytest.mark.parametrize(("game", "options"), [("pacru", {"move_cap": 12}), ("lsd", {})])
def test_states_are_equal_when_their_games_and_arrays_are(game: str, options: Any) -> None:
    # 130 games: two threads share them natively (64 a thread at least); the Python engine
    # steps on one, whatever the count. The thread count is not part of a state.
    one, two = (
        _trace(VectorEnv(game, 2, 130, num_threads=t, max_steps=9, **options), 12) for t in (1, 2)
    )
    assert all(a.equals(b) and b.equals(a) for a, b in zip(one, two, strict=True))
    assert one[-1].equals(pickle.loads(pickle.dumps(two[-1])))
    # One array or one game apart: unequal.
    assert not one[-1].equals(one[-2])
    assert not one[0].equals(one[1])
    swapped = VectorEnv(game, 2, 130, max_steps=9, **options).init(seed=5)
    assert not one[0].equals(swapped)  # another seed: the games it restarts would differ
    uint8 = VectorEnv(game, 2, 130, observation_dtype="uint8", **options).init(seed=4)
    assert not one[0].equals(uint8)
    other = VectorEnv(game, 2, 130, **options)
    moved = other.step(other.init(seed=4), random_actions(one[0], np.random.default_rng(8)))
    assert one[1].equals(moved)  # max_steps, an argument of the env only, is not compared
    assert not one[0].equals(moved)
    assert not one[0].equals(None)


@pytest.mark.parametrize(("game", "players"), [("pacru", 2), ("shacru", 4), ("lsd", 2)])
def test_encodings_pickle_and_deep_copy(game: str, players: int) -> None:
    encoding = Encoding.for_game(game, players)
    again = pickle.loads(pickle.dumps(encoding))
    assert type(again) is type(encoding)
    assert (again.game, again.players, dict(again.options)) == (
        encoding.game,
        encoding.players,
        dict(encoding.options),
    )
    assert again.action_table() == encoding.action_table()
    assert copy.deepcopy(encoding) is encoding


def test_the_default_move_cap_is_shared() -> None:
    assert DEFAULT_MOVE_CAP == 1000
    assert VectorEnv("pacru").encoding.options["move_cap"] == DEFAULT_MOVE_CAP
    assert VectorEnv("azacru").encoding.options["move_cap"] == DEFAULT_MOVE_CAP
    assert "move_cap" not in VectorEnv("pacru", move_cap=None).encoding.options
    assert VectorEnv("pacru", move_cap=20).encoding.options["move_cap"] == 20
    assert "move_cap" not in VectorEnv("shacru").encoding.options


def test_sizes_the_machine_cannot_hold_raise_memory_error() -> None:
    with pytest.raises(MemoryError, match="1073741824 games' action masks need"):
        VectorEnv("pacru", players=2, num_envs=2**30).init(0)
    from pacru.bots import random_rollouts

    with pytest.raises(MemoryError, match="the returns and plies of 1099511627776 games"):
        random_rollouts(pacru.new_game("pacru", 2), n=2**40, seed=1, max_plies=10)
