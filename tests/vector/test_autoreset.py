"""The two reset rules of pacru.vector, named as Gymnasium names them: same-step and next-step."""

from __future__ import annotations

import numpy as np
import pytest

import pacru
from pacru.vector import VectorEnv

from .support import play_until_an_end, random_actions


def test_same_step_is_the_default_and_restarts_a_game_in_the_step_that_ends_it() -> None:
    env = VectorEnv("pacru", players=2, num_envs=4, move_cap=6)
    assert env.autoreset_mode == "same-step"
    _, end = play_until_an_end(env, seed=1)
    done = np.flatnonzero(end.ended)
    start = env.init(0)
    # The end's flags and rewards, the new game's first decision everywhere else.
    assert end.truncated[done].all()
    assert not end.terminated[done].any()
    assert np.array_equal(end.rewards[done], np.zeros((len(done), 2)))
    assert end.episode[done].tolist() == [1] * len(done)
    assert end.step_count[done].tolist() == [0] * len(done)
    assert end.current_player[done].tolist() == [0] * len(done)
    assert np.array_equal(end.legal_action_mask[done], start.legal_action_mask[done])
    assert np.array_equal(end.observation[done], start.observation[done])
    for i in done.tolist():
        assert env.position(end, i) == pacru.new_game("pacru", 2, move_cap=6)
    # The next step plays the new game: the action given is checked and played.
    nxt = env.step(end, random_actions(end, np.random.default_rng(3)))
    assert nxt.step_count[done].tolist() == [1] * len(done)
    assert not nxt.ended[done].any()


def test_same_step_rewards_of_a_game_ended_by_the_rules() -> None:
    env = VectorEnv("lilacru", players=2, num_envs=8)
    _, end = play_until_an_end(env, seed=0)
    assert end.terminated.any()
    for i in np.flatnonzero(end.terminated).tolist():
        assert sorted(end.rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
        assert end.current_player[i] == 0
        assert end.episode[i] == 1


def test_same_step_max_steps_cut_restarts_at_once() -> None:
    env = VectorEnv("pacru", players=2, num_envs=3, max_steps=5)
    rng = np.random.default_rng(0)
    state = env.init()
    for _ in range(5):
        state = env.step(state, random_actions(state, rng))
    assert state.truncated.all()
    assert not state.rewards.any()
    assert state.episode.tolist() == [1, 1, 1]
    assert state.step_count.tolist() == [0, 0, 0]
    assert state.current_player.tolist() == [0, 0, 0]


@pytest.mark.parametrize(("given", "mode"), [("SameStep", "same-step"), ("NextStep", "next-step")])
def test_gymnasiums_names_are_taken(given: str, mode: str) -> None:
    assert VectorEnv("shacru", autoreset_mode=given).autoreset_mode == mode
