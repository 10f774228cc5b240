"""
Training MaskablePPO by self-play
=================================

A learner for two-player Pacru, trained by sb3-contrib's ``MaskablePPO`` on
batched games (:class:`pacru.sb3.PacruVecEnv`), then measured against the
``random`` and ``greedy`` bots, saved, and its learning curve drawn.

Each rollout the learner meets one opponent, drawn from a mix: a frozen
snapshot of its own past policy (self-play), the ``greedy`` bot or the
``random`` bot (both played natively, every game's moves in one call). Its
seat is drawn per game. Rewards are the games' returns (+1 a win, -1 a loss,
0 at the move cap) plus a shaping term from the board:
the change of the learner's lead in chevrons and markers. Beside the board
the learner sees the ``greedy`` bot's suggestion, which its policy adds to
its logits: it starts from the bot's play and learns where to depart from it.

Needs the ``sb3`` extra (``pip install "pacru[sb3]"``). The full run (about
7 minutes on the 2-core development machine; seed 1 wins 114 of 200
games against ``greedy``: see :doc:`/training`) is::

    python examples/train_maskable_ppo.py OUTPUT_FOLDER

With ``PACRU_EXAMPLE_QUICK=1`` (as the docs' gallery runs it) it trains for a
few seconds only, to show the steps and draw the curve, and prints no
timings (its output is the same at every run).
"""

from __future__ import annotations

import copy
import os
import sys
import time
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from pacru.bots import GreedyBot
from pacru.sb3 import Opponent, PacruVecEnv, policy_opponent

QUICK = os.environ.get("PACRU_EXAMPLE_QUICK") == "1"
SEED = int(os.environ.get("PACRU_EXAMPLE_SEED", "1"))
#: Decisions of the learner to train on; the games are capped at MOVE_CAP moves (D32).
TIMESTEPS = 1_024 if QUICK else int(os.environ.get("PACRU_EXAMPLE_STEPS", "300000"))
NUM_ENVS = 8 if QUICK else 16
MOVE_CAP = 200
EVAL_GAMES = 10 if QUICK else 200
#: The opponent of a rollout: its share of rollouts.
MIX = {"self": 0.15, "greedy": 0.8, "random": 0.05}
SHAPING = 0.2
HINT = os.environ.get("PACRU_EXAMPLE_HINT", "1") == "1"
#: The weight of the hint in the policy's logits.
PRIOR = float(os.environ.get("PACRU_EXAMPLE_PRIOR", "4.5"))


# %%
# Reward shaping from the board
# -----------------------------
# The observation's planes (:meth:`pacru.encoding.Encoding.plane_names`) hold
# each seat's markers and chevrons, the learner's seat first. The learner's
# lead, chevrons counted double, is a potential: adding its change to the
# reward (zero at a game's end) speeds learning without changing which
# policy is best.


class LeadShaping(VecEnvWrapper):
    """Adds ``weight * (gamma * lead' - lead)`` to each reward; keeps each game's result."""

    def __init__(self, venv: VecEnv, planes: tuple[str, ...], weight: float, gamma: float):
        super().__init__(venv)
        self.weight, self.gamma = weight, gamma
        own = [i for i, name in enumerate(planes) if name.endswith("seat 0")]
        other = [i for i, name in enumerate(planes) if name.endswith("seat 1")]
        chevrons = [i for i, name in enumerate(planes) if name.startswith("chevrons")]
        self.sign = np.zeros(len(planes), dtype=np.float32)
        for i in own:
            self.sign[i] = 2.0 if i in chevrons else 1.0
        for i in other:
            self.sign[i] = -2.0 if i in chevrons else -1.0
        self.sign[[i for i, n in enumerate(planes) if not n.startswith(("chev", "mark"))]] = 0
        self.sign /= 10.0
        self.lead = np.zeros(venv.num_envs, dtype=np.float32)

    def _lead(self, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        counts = observation.reshape(*observation.shape[:2], -1).sum(axis=2)
        return np.asarray(counts @ self.sign, dtype=np.float32)

    def reset(self) -> Any:
        observation: Any = self.venv.reset()
        self.lead = self._lead(observation["observation"])
        return observation

    def step_wait(self) -> Any:
        result: Any = self.venv.step_wait()
        observation, rewards, dones, infos = result
        lead = self._lead(observation["observation"])
        after = np.where(dones, 0.0, lead)
        shaped = rewards + self.weight * (self.gamma * after - self.lead)
        for row in np.flatnonzero(dones).tolist():
            infos[row]["result"] = float(rewards[row])
        self.lead = lead
        return observation, shaped.astype(np.float32), dones, infos


# %%
# The greedy bot's suggestion
# ---------------------------
# The learner sees, beside the board, the decision the ``greedy`` bot would
# take here (one-hot, zeros once the learner's move has left the bot's): a
# residual learner starts from the bot's play and learns where to depart from
# it, instead of rediscovering one-ply tactics from the planes.


class GreedyHint(VecEnvWrapper):
    """Adds ``"hint"``: float32 ``(num_envs, num_actions)``, the greedy bot's next decision."""

    def __init__(self, venv: VecEnv, games: PacruVecEnv, seed: int) -> None:
        space = copy.deepcopy(venv.observation_space)
        n = games.vector_env.env.num_actions
        space.spaces["hint"] = spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32)  # type: ignore[attr-defined]
        super().__init__(venv, observation_space=space)
        self.games = games
        self.bot = GreedyBot(seed)
        self.moves: dict[int, tuple[int, int, tuple[int, ...]]] = {}

    def _hint(self, observation: dict[str, Any]) -> dict[str, Any]:
        env, state = self.games.vector_env.env, self.games.state
        hint = np.zeros((self.num_envs, env.num_actions), dtype=np.float32)
        for row in range(self.num_envs):
            position, prefix = env.position(state, row), env.prefix(state, row)
            key = (int(state.episode[row]), position.ply)
            cached = self.moves.get(row)
            if cached is None or cached[:2] != key:
                actions = env.encoding.actions(position, self.bot.choose_move(position))
                cached = self.moves[row] = (*key, tuple(actions))
            actions = cached[2]
            if actions[: len(prefix)] == prefix and len(actions) > len(prefix):
                hint[row, actions[len(prefix)]] = 1.0
        return {**observation, "hint": hint}

    def reset(self) -> Any:
        self.moves = {}
        observation: Any = self.venv.reset()
        return self._hint(observation)

    def step_wait(self) -> Any:
        result: Any = self.venv.step_wait()
        observation, rewards, dones, infos = result
        for info in infos:  # a finished game has no decision: no hint
            if "terminal_observation" in info:
                final = info["terminal_observation"]
                hint = np.zeros(final["action_mask"].shape, dtype=np.float32)
                info["terminal_observation"] = {**final, "hint": hint}
        return self._hint(observation), rewards, dones, infos


class HintPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO's policy with the hint added to its action logits (times :data:`PRIOR`).

    At first the learner mostly plays the bot's decision; training moves the
    logits of the network where departing from it wins more.
    """

    def extract_features(self, obs: Any, features_extractor: Any = None) -> Any:
        self.hint = obs["hint"]
        return super().extract_features(obs, features_extractor)

    def get_distribution(self, obs: Any, action_masks: Any = None) -> Any:
        self.hint = obs["hint"]
        return super().get_distribution(obs, action_masks)

    def _get_action_dist_from_latent(self, latent_pi: torch.Tensor) -> Any:
        logits = self.action_net(latent_pi) + PRIOR * self.hint
        return self.action_dist.proba_distribution(action_logits=logits)


# %%
# The opponent mix and the learning curve
# ---------------------------------------
# Before each rollout a callback draws the opponent; every few rollouts it
# keeps a frozen copy of the policy for self-play. It also counts the results
# of the games the learner finished against each opponent.


class WithoutHint:
    """A snapshot playing the opponent's seat: its hint input left at zeros."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def predict(self, observation: dict[str, Any], **kwargs: Any) -> Any:
        rows = len(observation["action_mask"])
        hint = np.zeros((rows, observation["action_mask"].shape[1]), dtype=np.float32)
        return self.policy.predict({**observation, "hint": hint}, **kwargs)


def frozen_copy(policy: Any) -> Any:
    """A copy of ``policy`` with the same weights, for inference only."""
    copy = type(policy)(**policy._get_constructor_parameters())
    copy.load_state_dict(policy.state_dict())
    copy.set_training_mode(False)
    return copy


class OpponentMix(BaseCallback):
    """Draws each rollout's opponent from :data:`MIX`; records the learner's results."""

    def __init__(self, seed: int, snapshot_every: int = 4, pool: int = 5) -> None:
        super().__init__()
        self.rng = np.random.default_rng(seed)
        self.snapshot_every, self.pool_size = snapshot_every, pool
        self.pool: list[Any] = []
        self.rollouts = 0
        self.kind = "random"
        #: (timesteps, opponent kind, result) of every finished game.
        self.results: list[tuple[int, str, float]] = []

    def _on_rollout_start(self) -> None:
        if self.rollouts % self.snapshot_every == 0:
            self.pool = [*self.pool, frozen_copy(self.model.policy)][-self.pool_size :]
        self.rollouts += 1
        kinds = list(MIX)
        self.kind = str(self.rng.choice(kinds, p=[MIX[k] for k in kinds]))
        opponent: Opponent = self.kind
        if self.kind == "self":
            snapshot = self.pool[int(self.rng.integers(len(self.pool)))]
            opponent = policy_opponent(WithoutHint(snapshot) if HINT else snapshot)
        self.training_env.env_method("set_opponent", opponent)

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "result" in info:
                self.results.append((self.num_timesteps, self.kind, info["result"]))
        return True

    def _on_rollout_end(self) -> None:
        if self.rollouts % 10 == 0:  # progress: the last 10 rollouts' games per opponent
            model = self.model
            assert isinstance(model, MaskablePPO)
            rollout = model.n_steps * model.n_envs
            recent = [(k, r) for s, k, r in self.results if s > self.num_timesteps - 10 * rollout]
            rates = ", ".join(
                f"{k} {np.mean([r > 0 for kk, r in recent if kk == k]):.0%}"
                for k in MIX
                if any(kk == k for kk, _ in recent)
            )
            print(f"  {self.num_timesteps} decisions: training games won: {rates}", flush=True)


# %%
# Measuring the agent
# -------------------
# 200 games against each bot, the seat drawn per game, the agent's most
# likely legal decision each time. Each env plays the same number of games,
# so that short games are not over-counted.


def match(model: MaskablePPO, opponent: str, games: int, seed: int) -> tuple[int, int, int]:
    """The agent's (wins, games without a winner, losses) in ``games`` games."""
    num_envs = min(games, 50)
    board = PacruVecEnv("pacru", 2, num_envs, opponent=opponent, seat=None, move_cap=MOVE_CAP)
    env: VecEnv = GreedyHint(board, board, seed) if HINT else board
    env.seed(seed)
    observation: Any = env.reset()
    quota = np.full(num_envs, games // num_envs)
    quota[: games % num_envs] += 1
    results: list[float] = []
    while quota.any():
        masks = board.action_masks()
        actions, _ = model.predict(observation, deterministic=True, action_masks=masks)
        observation, rewards, dones, _ = env.step(actions)
        for row in np.flatnonzero(dones & (quota > 0)).tolist():
            results.append(float(rewards[row]))
            quota[row] -= 1
    return sum(r > 0 for r in results), sum(r == 0 for r in results), sum(r < 0 for r in results)


def draw_curve(results: list[tuple[int, str, float]], total: int, path: Path) -> None:
    """Win rate of the training games against each opponent, by timesteps, as SVG."""
    bins = np.linspace(0, total, 11)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for kind in MIX:
        steps = np.array([s for s, k, _ in results if k == kind])
        wins = np.array([r > 0 for _, k, r in results if k == kind], dtype=float)
        which = np.digitize(steps, bins[1:-1])
        xs = [(bins[i] + bins[i + 1]) / 2 for i in range(10) if (which == i).any()]
        ys = [wins[which == i].mean() for i in range(10) if (which == i).any()]
        ax.plot(xs, ys, marker="o", label=f"vs {kind}")
    ax.set_xlabel("learner decisions (timesteps)")
    ax.set_ylabel("training games won")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    with plt.rc_context({"svg.hashsalt": "pacru"}):  # the same SVG ids at every run
        fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def timing(start: float, cpu: float, what: str = "") -> str:
    """The wall and CPU time since ``start``, for the full run only (the quick run's
    output is the same at every run)."""
    if QUICK:
        return ""
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return f"; {what}{wall:.0f} s ({used:.0f} s of CPU)"


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    start, cpu = time.perf_counter(), time.process_time()
    games = PacruVecEnv("pacru", 2, NUM_ENVS, opponent="random", seat=None, move_cap=MOVE_CAP)
    planes = games.vector_env.env.encoding.plane_names()
    env: VecEnv = LeadShaping(games, planes, SHAPING, gamma=0.99)
    if HINT:
        env = GreedyHint(env, games, SEED)
    env.seed(SEED)
    model = MaskablePPO(
        HintPolicy if HINT else "MultiInputPolicy",
        env,
        n_steps=128,
        batch_size=512,
        n_epochs=4,
        learning_rate=1.5e-4,
        ent_coef=0.01,
        gamma=0.99,
        policy_kwargs={"net_arch": [256, 256]},
        seed=SEED,
    )
    mix = OpponentMix(SEED)
    print(f"training on {TIMESTEPS} decisions, {NUM_ENVS} games at once, seed {SEED}")
    model.learn(total_timesteps=TIMESTEPS, callback=mix)
    print(f"trained: {len(mix.results)} games{timing(start, cpu)}")
    model.save(out / "maskable_ppo_pacru.zip")
    print("model saved: maskable_ppo_pacru.zip")
    for bot in ("random", "greedy"):
        won, tied, lost = match(model, bot, EVAL_GAMES, seed=SEED + 1000)
        print(f"against {bot}: {won} won, {tied} without a winner, {lost} lost of {EVAL_GAMES}")
    draw_curve(mix.results, TIMESTEPS, out / "learning_curve.svg")
    print(f"learning curve: learning_curve.svg{timing(start, cpu, 'in all ')}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("pacru-training"))
