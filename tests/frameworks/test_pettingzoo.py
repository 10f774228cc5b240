"""pacru under PettingZoo (:mod:`pacru.pettingzoo`): its API test on every game and player count."""

from __future__ import annotations

import numpy as np
import pytest

import pacru
from pacru.encoding import Encoding

pytest.importorskip("pettingzoo", reason="PettingZoo is in the test extra")
from pettingzoo.test import api_test

from pacru.pettingzoo import env, raw_env

CASES = [(g, n) for g in pacru.GAMES for n in (2, 3, 4)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_api_test(game: str, players: int) -> None:
    api_test(env(game=game, players=players), num_cycles=60)


def _play_out(aec: raw_env, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    actions = []
    for agent in aec.agent_iter():
        observation, _reward, termination, truncation, _info = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        assert agent == aec.agent_selection
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(legal))
        actions.append(action)
        aec.step(action)
    return actions


def test_a_whole_game_pays_the_returns_at_the_end() -> None:
    aec = raw_env(game="lilacru", players=3)
    rewards: dict[str, float] = dict.fromkeys(aec.possible_agents, 0.0)
    aec.reset(seed=4)
    rng = np.random.default_rng(4)
    while aec.agents:
        agent = aec.agent_selection
        observation, reward, termination, truncation, _info = aec.last()
        rewards[agent] += reward
        if termination or truncation:
            aec.step(None)
            continue
        assert observation["action_mask"].dtype == np.int8
        assert observation["observation"].shape == Encoding.for_game("lilacru", 3).observation_shape
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    final = aec.pacru_state
    assert final.outcome is not None
    assert tuple(rewards[a] for a in aec.possible_agents) == final.returns()


def test_only_the_agent_to_act_has_a_mask_and_moves_take_several_steps() -> None:
    aec = raw_env(game="shacru", players=2)
    aec.reset()
    start = pacru.new_game("shacru", 2)
    first = aec.observe("player_0")["action_mask"]
    assert np.flatnonzero(first).tolist() == list(Encoding.of(start).start(start).legal_actions)
    assert not aec.observe("player_1")["action_mask"].any()
    for action in Encoding.of(start).actions(start, "a3-b4>"):
        assert aec.agent_selection == "player_0"
        aec.step(action)
    assert aec.agent_selection == "player_1"
    assert aec.pacru_state == start.apply_move("a3-b4>")


def test_illegal_actions() -> None:
    """The raw environment raises; env() ends the game with -1 for the offender."""
    raw = raw_env(game="lsd", players=2)
    raw.reset()
    with pytest.raises(pacru.IllegalMoveError):
        raw.step(raw.encoding.num_actions - 1)
    wrapped = env(game="lsd", players=2)
    wrapped.reset()
    mask = wrapped.last()[0]["action_mask"]
    wrapped.step(int(np.flatnonzero(mask == 0)[0]))
    assert wrapped.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(wrapped.terminations.values())


def test_a_move_cap_truncates() -> None:
    """The non-official move cap (D32) ends the episode as a truncation, not a termination."""
    aec = raw_env(game="pacru", players=2, move_cap=6)
    rng = np.random.default_rng(1)
    aec.reset(seed=1)
    while aec.pacru_state.outcome is None:
        mask = aec.last()[0]["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    # Read the flags before the agents' closing steps clear them.
    assert aec.truncations == dict.fromkeys(aec.possible_agents, True)
    assert not any(aec.terminations.values())
    final = aec.pacru_state
    assert final.outcome is not None
    assert final.outcome.termination is pacru.Termination.MOVE_CAP
    assert final.ply == 6


def test_render_modes(cairo: None) -> None:
    text = raw_env(game="shacru", players=2, render_mode="ansi")
    text.reset()
    assert text.render() == str(pacru.new_game("shacru", 2))
    picture = raw_env(game="shacru", players=2, render_mode="rgb_array")
    picture.reset()
    image = picture.render()
    assert image.dtype == np.uint8
    assert image.shape == (400, 400, 3)
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 3  # a drawing, not a blank
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(game="shacru", render_mode="bogus")


def test_an_action_is_any_integer_but_never_a_float() -> None:
    """A float action is a TypeError (``int()`` would play the action it truncates to)."""
    aec = raw_env(game="shacru", players=2)
    aec.reset(seed=0)
    legal = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
    with pytest.raises(TypeError, match="an action is an integer, not float"):
        aec.step(float(legal[0]))
    mask = aec.observe("player_0")["action_mask"]
    assert list(np.flatnonzero(mask)) == list(legal)  # nothing was played
    aec.step(np.int64(legal[0]))  # the chevron on e1 (origin action 5): its targets next
    assert aec.agent_selection == "player_0"
    assert list(np.flatnonzero(aec.observe("player_0")["action_mask"])) == [94, 95, 96]
