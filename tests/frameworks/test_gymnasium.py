"""pacru under Gymnasium (:mod:`pacru.gymnasium`): check_env for every id, illegal actions, bots."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pacru
from pacru.bots import RandomBot
from pacru.encoding import Encoding

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is in the test extra")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import pacru.gymnasium  # noqa: E402

IDS = ["pacru/Lilacru-v0", "pacru/Shacru-v0", "pacru/Azacru-v0", "pacru/Pacru-v0", "pacru/LSD-v0"]


def test_importing_registers_every_id() -> None:
    assert sorted(pacru.gymnasium.IDS.values()) == sorted(IDS)
    assert set(IDS) <= set(gymnasium.registry)
    pacru.gymnasium.register()  # again: no effect, no warning


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("players", [2, 3])
def test_check_env(env_id: str, players: int) -> None:
    env = gymnasium.make(env_id, players=players, opponent="random")
    check_env(env.unwrapped)


def _play(env: Any, seed: int) -> tuple[list[float], Any]:
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    rewards = []
    while True:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        rewards.append(reward)
        if terminated or truncated:
            return rewards, info


def test_a_learner_plays_a_whole_game_against_bots() -> None:
    env = gymnasium.make("pacru/Shacru-v0", players=3, opponent=["greedy", RandomBot], seat=1)
    rewards, info = _play(env, seed=5)
    final = env.unwrapped.pacru_state
    assert final.outcome is not None
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == final.returns()[1]
    assert info == {"seat": 1, "player": final.players[1], "illegal_action": False}
    # Seeded: the same seed replays the same game.
    again, _ = _play(env, seed=5)
    assert again == rewards
    assert env.unwrapped.pacru_state == final


def test_an_illegal_action_loses_and_terminates() -> None:
    env = gymnasium.make("pacru/Pacru-v0", players=2, opponent="random")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.unwrapped.pacru_state
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.unwrapped.pacru_state == before  # nothing was played
    with pytest.raises(RuntimeError, match="the episode is over: call reset"):
        env.step(illegal)  # the episode ended with the illegal action


def test_the_learner_sees_its_own_decisions() -> None:
    env = gymnasium.make("pacru/Shacru-v0", players=2, opponent="greedy", seat=0)
    observation, _ = env.reset(seed=2)
    start = pacru.new_game("shacru", 2)
    encoding = Encoding.of(start)
    decision = encoding.start(start)
    assert np.flatnonzero(observation["action_mask"]).tolist() == list(decision.legal_actions)
    assert np.array_equal(observation["observation"], encoding.observation(decision, 0))
    first, second, third = encoding.actions(start, "a3-b4>")
    for action in (first, second):
        observation, reward, terminated, _, _ = env.step(action)
        assert env.unwrapped.pacru_state == start  # the move is not complete yet
        assert (reward, terminated) == (0.0, False)
    observation, _, _, _, _ = env.step(third)
    state = env.unwrapped.pacru_state
    assert state.ply == 2  # greedy answered
    assert state.current_player == "green"
    assert np.flatnonzero(observation["action_mask"]).tolist() == list(
        encoding.start(state).legal_actions
    )


def test_a_random_seat_and_bad_arguments() -> None:
    env = gymnasium.make("pacru/LSD-v0", players=4, opponent="random", seat=None)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make("pacru/LSD-v0", players=2, seat=2)
    with pytest.raises(ValueError, match="opponents"):
        gymnasium.make("pacru/LSD-v0", players=3, opponent=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        gymnasium.make("pacru/LSD-v0", opponent="deep-blue")


def test_truncation_at_the_move_cap() -> None:
    env = gymnasium.make("pacru/Pacru-v0", players=2, opponent="random", move_cap=4)
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=0)
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert env.unwrapped.pacru_state.ply == 4


def test_ansi_render_shows_the_actions_of_a_move_under_way() -> None:
    """As in PettingZoo: a move takes several actions, and the text says which are chosen."""
    env = gymnasium.make("pacru/Pacru-v0", render_mode="ansi")
    observation, _ = env.reset(seed=0)
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.render().splitlines()[-1] == "chosen in this move: origin e1"


def test_render_modes(cairo: None) -> None:
    env = gymnasium.make("pacru/Shacru-v0", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(pacru.new_game("shacru", 2))
    picture = gymnasium.make("pacru/LSD-v0", render_mode="rgb_array")
    picture.reset(seed=0)
    image = picture.render()
    assert isinstance(image, np.ndarray)
    assert image.dtype == np.uint8
    # LSD's start is one cell, drawn at the scale of three in a 400-pixel drawing (pacru.svg).
    assert image.shape == (165, 165, 3)
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 3  # a drawing, not a blank


def test_an_action_is_any_integer_but_never_a_float() -> None:
    """numpy integer scalars and 0-d integer arrays are actions; a float is a TypeError,
    not the action it truncates to, and nothing is played."""
    env = gymnasium.make("pacru/Shacru-v0", players=2, opponent="random")
    observation, _ = env.reset(seed=3)
    legal = np.flatnonzero(observation["action_mask"])
    before = env.unwrapped.pacru_state
    with pytest.raises(TypeError, match="an action is an integer, not float"):
        env.step(float(legal[0]) + 0.5)
    with pytest.raises(TypeError, match="an action is an integer, not bool"):
        env.step(True)
    assert env.unwrapped.pacru_state == before
    _, _, terminated, _, info = env.step(np.array(legal[0], dtype=np.int16))
    assert (terminated, info["illegal_action"]) == (False, False)
