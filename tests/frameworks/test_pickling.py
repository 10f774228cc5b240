"""Every environment pickles and deep-copies: Gymnasium's single one and PettingZoo's."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is in the test extra")
pytest.importorskip("pettingzoo", reason="PettingZoo is in the test extra")

import pacru.gymnasium  # noqa: E402,F401  (registers the ids)
from pacru.pettingzoo import env as pettingzoo_env  # noqa: E402


def _clones(obj: Any) -> list[Any]:
    return [pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj)]


@pytest.mark.parametrize("env_id", ["pacru/Pacru-v0", "pacru/LSD-v0"])
def test_a_gymnasium_env_pickles_mid_game_and_plays_on_alike(env_id: str) -> None:
    env = gymnasium.make(env_id, players=2, opponent="random")
    env.reset(seed=4)
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    for clone in _clones(env):
        assert clone.unwrapped.pacru_state == env.unwrapped.pacru_state
        mask = clone.unwrapped.action_masks()
        assert np.array_equal(mask, env.unwrapped.action_masks())


def test_a_pettingzoo_env_pickles_mid_game_and_plays_on_alike() -> None:
    env = pettingzoo_env(game="shacru", players=3)
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    for clone in _clones(env):
        assert clone.agent_selection == env.agent_selection
        a = clone.observe(clone.agent_selection)
        b = env.observe(env.agent_selection)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize(("dtype", "high"), [("uint8", 255), ("bool", True)])
def test_the_single_env_takes_an_observation_dtype(dtype: str, high: Any) -> None:
    plain = gymnasium.make("pacru/Pacru-v0", players=2)
    other = gymnasium.make("pacru/Pacru-v0", players=2, observation_dtype=dtype)
    a, _ = plain.reset(seed=1)
    b, _ = other.reset(seed=1)
    assert b["observation"].dtype == np.dtype(dtype)
    assert other.observation_space.contains(b)
    assert b["observation"].max() == high
    expected = a["observation"] != 0 if dtype == "bool" else np.rint(a["observation"] * 255)
    assert np.array_equal(b["observation"], expected)
    with pytest.raises(ValueError, match="observation_dtype must be float32, uint8 or bool"):
        gymnasium.make("pacru/Pacru-v0", observation_dtype="float64")
