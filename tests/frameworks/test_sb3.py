"""pacru.sb3: batched games as a Stable-Baselines3 ``VecEnv`` that MaskablePPO takes as it is."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import pacru

pytest.importorskip("stable_baselines3", reason="the sb3 extra is in the test extra")
pytest.importorskip("sb3_contrib", reason="the sb3 extra is in the test extra")
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.utils import check_for_correct_spaces
from stable_baselines3.common.vec_env import (
    VecCheckNan,
    VecEnv,
    VecEnvWrapper,
    VecMonitor,
)

from pacru.sb3 import PacruVecEnv, policy_opponent
from pacru.vector import VectorEnv

Mask = npt.NDArray[np.bool_]


def first_legal(observation: npt.NDArray[np.float32], mask: Mask) -> npt.NDArray[np.intp]:
    """A batched policy: the lowest legal action of each row."""
    assert observation.shape[0] == mask.shape[0]
    return np.asarray(mask.argmax(axis=1), dtype=np.intp)


def random_masked(env: VecEnv, rng: np.random.Generator) -> npt.NDArray[np.intp]:
    masks = get_action_masks(env)
    return np.asarray((rng.random(masks.shape) * masks).argmax(axis=1), dtype=np.intp)


def test_spaces_and_first_observations() -> None:
    env = PacruVecEnv("shacru", players=3, num_envs=4, opponent="random", seat=2)
    assert env.action_space.n == 415  # type: ignore[attr-defined]
    assert env.observation_space["observation"].shape == (64, 9, 9)  # type: ignore[index]
    env.seed(0)
    observation = env.reset()
    assert observation["observation"].shape == (4, 64, 9, 9)
    assert observation["action_mask"].dtype == np.int8
    for i in range(4):
        row = {key: value[i] for key, value in observation.items()}
        assert env.observation_space.contains(row)
    state = env.state
    assert state.current_player.tolist() == [2, 2, 2, 2]  # both bots moved first
    assert [env.vector_env.env.position(state, i).ply for i in range(4)] == [2, 2, 2, 2]
    assert env.reset_infos == [{"seat": 2}] * 4
    assert np.array_equal(observation["action_mask"], env.action_masks().astype(np.int8))


def test_a_game_played_through_the_adapter_is_the_game_played_directly() -> None:
    """Learner and opponent both play the lowest legal action: one known game, reset at its end."""
    direct = VectorEnv("lilacru", 2, 1, autoreset_mode="next-step")
    state = direct.init(0)
    learner_steps = 0
    while not state.ended[0]:
        learner_steps += int(state.current_player[0] == 1)
        state = direct.step(state, state.legal_action_mask.argmax(axis=1))
    final_returns = direct.position(state, 0).returns()
    first = direct.step(state, [0])  # the restart: the new game's first decision (seat 0's)
    first = direct.step(first, first.legal_action_mask.argmax(axis=1))
    while first.current_player[0] != 1:
        first = direct.step(first, first.legal_action_mask.argmax(axis=1))

    env = PacruVecEnv("lilacru", 2, 1, opponent=first_legal, seat=1)
    observation: Any = env.reset()
    for step in range(learner_steps):
        observation, rewards, dones, infos = env.step(env.action_masks().argmax(axis=1))
        assert dones[0] == (step == learner_steps - 1)
    assert rewards.tolist() == [final_returns[1]]
    assert infos[0]["TimeLimit.truncated"] is False
    terminal = infos[0]["terminal_observation"]
    assert not terminal["observation"].any()
    assert terminal["action_mask"].all()
    # Same-step reset: the new game's decision of the learner, after the opponent's move.
    assert np.array_equal(observation["observation"][0], first.observation[0])
    assert np.array_equal(env.action_masks(), first.legal_action_mask)


def test_the_move_cap_truncates() -> None:
    env = PacruVecEnv("pacru", 2, 3, opponent="random", seat=0, move_cap=4)
    env.seed(1)
    env.reset()
    rng = np.random.default_rng(1)
    dones = np.zeros(3, dtype=bool)
    while not dones.all():
        _, rewards, done, infos = env.step(random_masked(env, rng))
        for row in np.flatnonzero(done).tolist():
            assert infos[row]["TimeLimit.truncated"] is True
            assert rewards[row] == 0.0
        dones |= done
    assert env.state.step_count.max() < 12  # every game restarted


@pytest.mark.parametrize("max_steps", [8, 10, 12])
def test_a_truncated_games_terminal_observation_is_its_last_position(max_steps: int) -> None:
    """Learner and opponent both play the lowest legal action until ``max_steps`` cuts the
    game: SB3 bootstraps from the value of ``terminal_observation``, the cut decision seen
    from the learner's seat (its mask: the learner's legal actions, none at another's)."""
    direct = VectorEnv("shacru", 2, 1, max_steps=max_steps, autoreset_mode="next-step")
    state = direct.init(0)
    while not state.ended[0]:
        state = direct.step(state, state.legal_action_mask.argmax(axis=1))
    assert direct.position(state, 0).outcome is None  # cut, not over
    decision = direct.encoding.start(direct.position(state, 0))
    for action in direct.prefix(state, 0):
        decision = decision.choose(action)

    env = PacruVecEnv("shacru", 2, 1, opponent=first_legal, seat=1, max_steps=max_steps)
    env.reset()
    dones = np.zeros(1, dtype=bool)
    while not dones[0]:
        _, _, dones, infos = env.step(env.action_masks().argmax(axis=1))
    assert infos[0]["TimeLimit.truncated"] is True
    terminal = infos[0]["terminal_observation"]
    assert np.array_equal(terminal["observation"], direct.encoding.observation(decision, 1))
    mask = np.zeros(direct.num_actions, dtype=np.int8)
    mask[list(decision.legal_actions)] = decision.player == 1
    assert np.array_equal(terminal["action_mask"], mask)
    assert terminal["action_mask"].any() == (decision.player == 1)


def test_seat_none_draws_the_seat_per_game() -> None:
    env = PacruVecEnv("pacru", 2, 32, opponent="random", seat=None, move_cap=6)
    env.seed(7)
    env.reset()
    seats = env.seats.copy()
    assert set(seats.tolist()) == {0, 1}
    assert np.array_equal(env.state.current_player, seats)
    assert [info["seat"] for info in env.reset_infos] == seats.tolist()
    rng = np.random.default_rng(0)
    drawn: set[tuple[int, int]] = set()
    for _ in range(40):
        _, _, dones, infos = env.step(random_masked(env, rng))
        assert np.array_equal(env.state.current_player, env.seats)
        assert [info["seat"] for info in infos] == env.seats.tolist()
        drawn |= {(row, infos[row]["seat"]) for row in np.flatnonzero(dones).tolist()}
    assert {seat for _, seat in drawn} == {0, 1}


def _trace(seed: int) -> list[Any]:
    env = PacruVecEnv("pacru", 2, 4, opponent="greedy", seat=None, move_cap=20)
    env.seed(seed)
    trace: list[Any] = [env.reset()["observation"]]
    rng = np.random.default_rng(seed)
    for _ in range(30):
        result: Any = env.step(random_masked(env, rng))
        observation, rewards, dones, _ = result
        trace += [observation["observation"], rewards, dones]
    return trace


def test_the_same_seed_replays_the_same_games() -> None:
    a, b, c = _trace(3), _trace(3), _trace(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = PacruVecEnv("pacru", 2, 2, opponent="random", seat=0)
    observation = env.reset()
    with pytest.raises(pacru.IllegalMoveError, match="game 1: action 0"):
        env.step(np.array([19, 0]))
    assert np.array_equal(env.action_masks().astype(np.int8), observation["action_mask"])
    assert env.state.step_count.tolist() == [0, 0]


def test_an_illegal_opponent_action_raises() -> None:
    env = PacruVecEnv("pacru", 2, 2, opponent=lambda o, m: np.zeros(len(m), int), seat=1)
    with pytest.raises(pacru.IllegalMoveError, match="game 0: the opponent policy's action 0 is"):
        env.reset()


def test_sb3_and_sb3_contrib_helpers_take_it() -> None:
    env = VecCheckNan(VecMonitor(PacruVecEnv("azacru", 2, 4, move_cap=6)), raise_exception=True)
    check_for_correct_spaces(env, env.observation_space, env.action_space)
    assert is_masking_supported(env)
    assert env.env_is_wrapped(VecMonitor) == [False] * 4  # type: ignore[arg-type]
    assert env.get_attr("num_envs", [1, 2]) == [4, 4]
    env.reset()
    assert np.array_equal(get_action_masks(env), env.unwrapped.action_masks())  # type: ignore[attr-defined]
    episodes = []
    rng = np.random.default_rng(0)
    for _ in range(20):
        _, _, dones, infos = env.step(random_masked(env, rng))
        episodes += [info["episode"] for info, done in zip(infos, dones, strict=True) if done]
    assert episodes
    assert all(e["r"] == 0.0 and e["l"] >= 1 for e in episodes)  # each ends at the move cap
    with pytest.raises(ValueError, match="give every index"):
        env.env_method("set_opponent", "greedy", indices=[0])
    env.env_method("set_opponent", "greedy")
    # From now on the games are those of an env made with the greedy opponent.
    greedy = PacruVecEnv("azacru", 2, 4, opponent="greedy", move_cap=6)
    inner: Any = env.unwrapped
    for games in (inner, greedy):
        games.seed(5)
    observations = [inner.reset(), greedy.reset()]
    for _ in range(6):
        actions = random_masked(greedy, rng)
        observations += [inner.step(actions)[0], greedy.step(actions)[0]]
    for a, b in zip(observations[::2], observations[1::2], strict=True):
        assert np.array_equal(a["observation"], b["observation"])


class LegalityWatch(VecEnvWrapper):
    """Counts the actions given to the games and the illegal ones among them."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.actions = 0
        self.illegal = 0

    def reset(self) -> Any:
        return self.venv.reset()

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        masks = get_action_masks(self.venv)
        self.actions += len(actions)
        self.illegal += int((~masks[np.arange(len(actions)), actions]).sum())
        self.venv.step_async(actions)

    def step_wait(self) -> Any:
        return self.venv.step_wait()


def test_maskable_ppo_learns_on_it_with_legal_actions_only() -> None:
    games = PacruVecEnv("pacru", 2, 4, opponent="random", seat=None, move_cap=30)
    env = LegalityWatch(games)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    # Self-play: the opponent is the learner's own policy, among its legal actions only.
    games.set_opponent(policy_opponent(model.policy))
    model.learn(total_timesteps=128)
    assert env.actions >= 128
    assert env.illegal == 0
    assert model.num_timesteps >= 128
    observation = games.reset()
    actions, _ = model.predict(observation, action_masks=games.action_masks())
    assert games.action_masks()[np.arange(4), actions].all()
