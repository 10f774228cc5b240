"""
Training MaskablePPO: imitation of ``search``, then PPO
=======================================================

A learner for two-player Pacru with sb3-contrib's ``MaskablePPO``: its policy,
a small convolutional network over the board, first imitates the native
``search`` bot (alpha-beta, :doc:`/bots`) on batched games
(:class:`pacru.sb3.PacruVecEnv`), in the teacher's own games and then in its
own games (the teacher labels the learner's decisions), then PPO goes on from
there against a mix of opponents. It is measured against the ``random`` and
``greedy`` bots, saved, loaded again and its learning curve drawn.

The policy is sb3's ``MultiInputPolicy`` with this example's features
extractor (``BoardNet``): it sees the board's planes and the action
mask, and the fields each side's chevrons attack, which it works out from
those planes itself (``Attacks``); no bot plays inside it. sb3 saves the extractor's class with the
agent, so ``MaskablePPO.load(path)`` loads the saved agent with nothing else.

Needs the ``sb3`` extra (``pip install "pacru[sb3]"``). The full run (see
:doc:`/training` for its time and results) is::

    python examples/train_maskable_ppo.py OUTPUT_FOLDER

With ``PACRU_EXAMPLE_QUICK=1`` (as the docs' gallery runs it) it trains for a
few seconds only, to show the steps and draw the curve, and prints no
timings (its output is the same at every run).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import matplotlib

matplotlib.use("Agg")
import gymnasium as gym
import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from torch import nn

from pacru.bots import SearchBot
from pacru.encoding.chevron import MARKER, MEETING, NUM_ACTIONS, ORIGIN, RELINQUISH, TARGET
from pacru.sb3 import Opponent, PacruVecEnv, policy_opponent

QUICK = os.environ.get("PACRU_EXAMPLE_QUICK") == "1"
SEED = int(os.environ.get("PACRU_EXAMPLE_SEED", "1"))
#: The teacher's decisions to imitate in its own games, in all; its opponents and their shares.
TEACHER_DECISIONS = 600 if QUICK else int(os.environ.get("PACRU_EXAMPLE_DECISIONS", "100000"))
TEACHER_MIX = {"greedy": 0.5, "search:nodes=300": 0.375, "random": 0.125}
#: The teacher's budget: positions searched per move.
TEACHER_NODES = 1_000
#: The share of the teacher's moves replaced by random ones (not imitated).
EXPLORE = 0.1
#: The teacher's decisions in the learner's own games against ``greedy`` (DAgger).
LEARNER_DECISIONS = 300 if QUICK else int(os.environ.get("PACRU_EXAMPLE_LEARNER", "20000"))
#: Rounds of the learner's games, each followed by one epoch over all the decisions.
LEARNER_ROUNDS = 1 if QUICK else int(os.environ.get("PACRU_EXAMPLE_ROUNDS", "4"))
IMITATION_EPOCHS = 2 if QUICK else int(os.environ.get("PACRU_EXAMPLE_EPOCHS", "3"))
IMITATION_LR = 1e-3
#: The network: convolution channels and residual blocks.
CHANNELS, BLOCKS = (8, 1) if QUICK else (32, 2)
#: Decisions of the learner in PPO; the games are capped at MOVE_CAP moves (D32).
TIMESTEPS = 1_024 if QUICK else int(os.environ.get("PACRU_EXAMPLE_STEPS", "8192"))
NUM_ENVS = 8 if QUICK else 16
MOVE_CAP = 200
EVAL_GAMES = 10 if QUICK else 200
#: The opponent of a PPO rollout: its share of rollouts.
MIX = {"self": 0.15, "greedy": 0.8, "random": 0.05}
SHAPING = 0.2


# %%
# The policy's network
# --------------------
# The observation is planes of the 9x9 board (:mod:`pacru.encoding`), and most
# actions are a field too: five blocks of 81 actions (origin, target, marker,
# meeting field, relinquished field). So the network sees the board as a
# board: a convolution over the planes, the attack planes (below) and the
# action mask's field blocks, residual blocks, and one logit per field and
# block from a 1x1 convolution, the same weights on every field, so that a
# pincer's pattern is learned once rather than once per field. The few other
# actions (pass, turns, twists, benefits) and the value come from the board's
# pooled features. sb3's policy puts a linear layer on the extractor's
# features: it is set to pass the logits through (and frozen while imitating).
#
# A chevron reaches along rays of up to 8 fields, and what ``greedy`` wins
# with is one-ply tactics along them: pincers (two chevrons attacking one).
# A few 3x3 convolutions see two or three fields, so the rays are worked out
# exactly from the planes by a module without weights (``Attacks``): fixed
# one-field shifts, repeated, each ray stopped by the first chevron.

#: The first action of each block of one action per field, in the network's order.
FIELD_BLOCKS = (ORIGIN, TARGET, MARKER, MEETING, RELINQUISH)
#: The actions that are not a field.
OTHER_ACTIONS = np.setdiff1d(
    np.arange(NUM_ACTIONS), np.concatenate([np.arange(b, b + 81) for b in FIELD_BLOCKS])
)
VALUE_FEATURES = 64


class Residual(nn.Module):
    """Two 3x3 convolutions with a skip connection."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.first = nn.Conv2d(channels, channels, 3, padding=1)
        self.second = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.second(torch.relu(self.first(x))))


#: One step along each compass direction, N clockwise to NW: (file change, rank change).
DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
#: The planes :class:`Attacks` adds to the observation's.
ATTACK_PLANES = 10


class Attacks(nn.Module):
    """The fields each seat's chevrons attack, worked out from the planes; no weights.

    A chevron attacks the fields along its three forward directions up to its
    power of movement (the own markers in its borderland, at least 1), up to
    and including the first chevron met (R3, R5, R11): the pincer's condition
    and a step's reach. That is a ray of up to 8 fields, far more than a few
    3x3 convolutions see, so it is computed here, exactly, from the markers
    and chevrons planes (seat 0 is the seat to move): 8 steps of a fixed shift
    in each direction, each ray stopped by the chevrons. Out: for each seat,
    the number of its chevrons attacking each field (divided by 3), the fields
    attacked twice or more, the other seat's chevrons attacked twice or more
    (pincers), the free fields it reaches not of the other's colour (steps),
    and its power of movement (divided by 9): ``(n, 10, 9, 9)``.
    """

    def __init__(self) -> None:
        super().__init__()
        shift = torch.zeros(16, 1, 3, 3)  # (seat, direction): a one-field shift that way
        feed = torch.zeros(16, 16)  # (seat, direction) <- (seat, facing): its forward ones
        for seat in range(2):
            for d, (dx, dy) in enumerate(DELTAS):
                shift[8 * seat + d, 0, 1 - dy, 1 - dx] = 1
                for facing in (d - 1, d, d + 1):
                    feed[8 * seat + d, 8 * seat + facing % 8] = 1
        self.shift = nn.Buffer(shift, persistent=False)
        self.feed = nn.Buffer(feed, persistent=False)

    def forward(self, board: torch.Tensor) -> torch.Tensor:
        n = board.shape[0]
        markers, chevrons = board[:, 0:2], board[:, 2:18]  # two seats' planes (pacru, 2 players)
        seats = chevrons.reshape(n, 2, 8, 9, 9).sum(2)
        free = 1 - seats.sum(1, keepdim=True)
        power = (nn.functional.avg_pool2d(markers, 3) * 9).clamp(min=1)
        power = power.repeat_interleave(3, 2).repeat_interleave(3, 3)
        # Each ray carries its chevron's power; it attacks the k-th field if the power is >= k.
        ray = torch.einsum("od,ndyx->noyx", self.feed, chevrons) * power.repeat_interleave(8, 1)
        hits = torch.zeros_like(ray)
        for k in range(1, 9):
            ray = nn.functional.conv2d(ray, self.shift, padding=1, groups=16)
            hits = hits + (ray >= k).float()
            ray = ray * free  # a chevron stops the ray beyond it
        count = hits.reshape(n, 2, 8, 9, 9).sum(2)
        twice = (count >= 2).float()
        pincers = twice * seats.flip(1)
        reach = (count > 0).float() * free * (1 - markers.flip(1))
        return torch.cat([count / 3, twice, pincers, reach, power / 9], 1)


class BoardNet(BaseFeaturesExtractor):
    """Features: the ``NUM_ACTIONS`` logits in action order, then ``VALUE_FEATURES``."""

    def __init__(self, observation_space: gym.spaces.Dict, channels: int, blocks: int) -> None:
        super().__init__(observation_space, features_dim=NUM_ACTIONS + VALUE_FEATURES)
        planes = observation_space["observation"].shape[0]  # type: ignore[index]
        self.attacks = Attacks()
        stem_planes = planes + ATTACK_PLANES + len(FIELD_BLOCKS)
        self.stem = nn.Conv2d(stem_planes, channels, 3, padding=1)
        self.trunk = nn.Sequential(*(Residual(channels) for _ in range(blocks)))
        self.fields = nn.Conv2d(channels, len(FIELD_BLOCKS), 1)
        self.other = nn.Linear(2 * channels + len(OTHER_ACTIONS), len(OTHER_ACTIONS))
        self.value = nn.Linear(2 * channels, VALUE_FEATURES)
        order = np.zeros(NUM_ACTIONS, dtype=np.int64)  # action -> the network's logit
        for k, first in enumerate(FIELD_BLOCKS):
            order[first : first + 81] = np.arange(81) + 81 * k
        order[OTHER_ACTIONS] = 81 * len(FIELD_BLOCKS) + np.arange(len(OTHER_ACTIONS))
        self.order = nn.Buffer(torch.as_tensor(order), persistent=False)
        self.other_actions = nn.Buffer(torch.as_tensor(OTHER_ACTIONS), persistent=False)

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        board, mask = observations["observation"], observations["action_mask"]
        n = board.shape[0]
        field_masks = torch.stack([mask[:, b : b + 81] for b in FIELD_BLOCKS], 1)
        planes = [board, self.attacks(board), field_masks.reshape(n, -1, 9, 9)]
        x = torch.relu(self.stem(torch.cat(planes, 1)))
        x = self.trunk(x)
        pooled = torch.cat([x.mean((2, 3)), x.amax((2, 3))], 1)
        other = self.other(torch.cat([pooled, mask[:, self.other_actions]], 1))
        logits = torch.cat([self.fields(x).reshape(n, -1), other], 1)[:, self.order]
        return torch.cat([logits, torch.relu(self.value(pooled))], 1)


def pass_logits_through(model: MaskablePPO) -> None:
    """Sets the policy's action layer to copy the extractor's logits, and freezes it."""
    layer = model.policy.action_net
    assert isinstance(layer, nn.Linear)
    with torch.no_grad():
        layer.weight.zero_()
        layer.weight[:, :NUM_ACTIONS] = torch.eye(NUM_ACTIONS)
        layer.bias.zero_()
    layer.requires_grad_(False)


# %%
# Imitating the ``search`` bot
# ----------------------------
# The teacher is the native alpha-beta bot (``search``, :doc:`/bots`) with a
# small node budget: it beats ``greedy`` nearly every game and takes a few
# milliseconds a move. It plays the learner's seat in batched games against a
# mix of opponents; every decision it takes there (a move is one to six
# decisions of :mod:`pacru.encoding`) is a training example, seen exactly as
# the learner will see it: the :class:`pacru.sb3.PacruVecEnv` observation
# and mask. A few of its moves are random ones instead (not recorded), so
# that the examples also cover positions its own play never reaches.
#
# Then the learner plays its own games against ``greedy`` and the teacher
# labels its decisions (DAgger): the learner's mistakes lead to positions the
# teacher's games never reach, and there it learns what the teacher would do.
# A decision is labelled where the learner's move so far is the start of the
# teacher's move for that position.


class Examples(NamedTuple):
    """The teacher's decisions: observations, masks, actions and the game's result."""

    observations: npt.NDArray[np.float16]
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    returns: npt.NDArray[np.float32]


def joined(first: Examples, second: Examples) -> Examples:
    """``first``'s decisions followed by ``second``'s."""
    return Examples(
        np.concatenate((first.observations, second.observations)),
        np.concatenate((first.masks, second.masks)),
        np.concatenate((first.actions, second.actions)),
        np.concatenate((first.returns, second.returns)),
    )


def teacher_games(
    opponent: str, decisions: int, seed: int, learner: MaskablePPO | None = None
) -> Examples:
    """At least ``decisions`` decisions of the ``search`` bot in the learner's seat.

    With ``learner``, the learner plays (its most likely decisions) and the
    teacher's decisions are those it would take in the learner's positions.
    """
    games = PacruVecEnv("pacru", 2, NUM_ENVS, opponent=opponent, seat=None, move_cap=MOVE_CAP)
    env, teacher = games.vector_env.env, SearchBot(seed, nodes=TEACHER_NODES)
    rng = np.random.default_rng(seed)
    games.seed(seed)
    observation: Any = games.reset()
    plans: dict[int, tuple[tuple[int, int], tuple[int, ...] | None]] = {}
    rows: list[tuple[npt.NDArray[np.float16], npt.NDArray[np.bool_], int, int]] = []
    results: dict[int, float] = {}  # each finished game's result, by its number
    number = np.arange(NUM_ENVS)  # the number of the game now played in each env
    while len(results) < NUM_ENVS or len(rows) < decisions:
        masks, state = games.action_masks(), games.state
        actions = np.zeros(NUM_ENVS, dtype=np.int64)
        if learner is not None:
            actions, _ = learner.predict(observation, deterministic=True, action_masks=masks)
        for row in range(NUM_ENVS):
            position, prefix = env.position(state, row), env.prefix(state, row)
            key = (int(state.episode[row]), position.ply)
            plan = plans.get(row)
            if plan is None or plan[0] != key:  # a new move: the teacher's, or a random one
                explore = learner is None and rng.random() < EXPLORE
                move = None if explore else teacher.choose_move(position)
                actions_of_move = None if move is None else env.encoding.actions(position, move)
                plan = plans[row] = (key, actions_of_move)
            if plan[1] is None:
                actions[row] = rng.choice(np.flatnonzero(masks[row]))
            elif tuple(plan[1][: len(prefix)]) == tuple(prefix):  # always without a learner
                label = plan[1][len(prefix)]
                if learner is None:
                    actions[row] = label
                seen = observation["observation"][row].astype(np.float16)
                rows.append((seen, masks[row], label, int(number[row])))
        observation, rewards, dones, _ = games.step(actions)
        for row in np.flatnonzero(dones).tolist():
            results[int(number[row])] = float(rewards[row])
            number[row] = number.max() + 1
    rows = [r for r in rows if r[3] in results]  # only games that ended
    return Examples(
        np.stack([r[0] for r in rows]),
        np.stack([r[1] for r in rows]),
        np.array([r[2] for r in rows], dtype=np.int64),
        np.array([results[r[3]] for r in rows], dtype=np.float32),
    )


def imitate(
    model: MaskablePPO, examples: Examples, epochs: int, seed: int, rate: float
) -> list[float]:
    """Train the policy on the teacher's decisions; the held-out accuracy after each epoch.

    The loss is the cross-entropy of the teacher's action under the masked
    logits (the illegal actions get no probability), plus the squared error
    of the value head against the game's result, so that PPO starts from a
    value that already knows who wins. The learning rate falls from
    ``rate`` to 0 along a half cosine. Every 20th decision is held out.
    """
    policy = model.policy
    optimizer = torch.optim.Adam([p for p in policy.parameters() if p.requires_grad])
    rng = np.random.default_rng(seed)
    everything = np.arange(len(examples.actions))
    test, train = everything[::20], everything[everything % 20 != 0]
    batches = epochs * -(-len(train) // 256)
    accuracy: list[float] = []
    for _ in range(epochs):
        rng.shuffle(train)
        policy.set_training_mode(True)
        for start in range(0, len(train), 256):
            done = (len(accuracy) * -(-len(train) // 256) + start // 256) / batches
            optimizer.param_groups[0]["lr"] = rate * 0.5 * (1 + np.cos(np.pi * done))
            batch = train[start : start + 256]
            values, log_prob, _ = policy.evaluate_actions(
                observations(examples, batch),  # type: ignore[arg-type]  # a Dict space's
                torch.as_tensor(examples.actions[batch]),
                action_masks=torch.as_tensor(examples.masks[batch]),
            )
            target = torch.as_tensor(examples.returns[batch])
            loss = -log_prob.mean() + 0.5 * ((values.flatten() - target) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
        policy.set_training_mode(False)
        with torch.no_grad():
            seen = {"observation": examples.observations[test].astype(np.float32)}
            chosen, _ = model.predict(
                {**seen, "action_mask": examples.masks[test]},
                deterministic=True,
                action_masks=examples.masks[test],
            )
        accuracy.append(float(np.mean(chosen == examples.actions[test])))
        print(f"  epoch {len(accuracy)}: held-out decisions as the teacher's {accuracy[-1]:.0%}")
    return accuracy


def observations(examples: Examples, rows: npt.NDArray[np.intp]) -> dict[str, torch.Tensor]:
    """The policy's input for ``rows`` of ``examples``, as PacruVecEnv gives it."""
    return {
        "observation": torch.as_tensor(examples.observations[rows].astype(np.float32)),
        "action_mask": torch.as_tensor(examples.masks[rows].astype(np.float32)),
    }


# %%
# PPO's reward shaping from the board
# -----------------------------------
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
# The opponent mix and the learning curve
# ---------------------------------------
# Before each rollout a callback draws the opponent; every few rollouts it
# keeps a frozen copy of the policy for self-play. It also counts the results
# of the games the learner finished against each opponent.


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
            opponent = policy_opponent(snapshot)
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
# 200 games against each bot, the agent in the first seat in half of them
# and in the second in the other half, its most likely legal decision each
# time. Each env plays the same number of games, so that short games are not
# over-counted.


def match(model: MaskablePPO, opponent: str, games: int, seed: int) -> tuple[int, int, int]:
    """The agent's (wins, games without a winner, losses) in ``games`` games, half in each seat."""
    results: list[float] = []
    for seat in (0, 1):
        share = games // 2 + (games % 2 if seat == 0 else 0)
        num_envs = min(share, 50)
        board = PacruVecEnv("pacru", 2, num_envs, opponent=opponent, seat=seat, move_cap=MOVE_CAP)
        board.seed(seed + seat)
        observation: Any = board.reset()
        quota = np.full(num_envs, share // num_envs)
        quota[: share % num_envs] += 1
        while quota.any():
            masks = board.action_masks()
            actions, _ = model.predict(observation, deterministic=True, action_masks=masks)
            observation, rewards, dones, _ = board.step(actions)
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
    env.seed(SEED)
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=128,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-5,
        ent_coef=0.0,
        gamma=0.99,
        policy_kwargs={
            "features_extractor_class": BoardNet,
            "features_extractor_kwargs": {"channels": CHANNELS, "blocks": BLOCKS},
            "net_arch": {"pi": [], "vf": []},
        },
        seed=SEED,
    )
    pass_logits_through(model)
    print(f"the search bot's decisions: {TEACHER_DECISIONS}, seed {SEED}")
    parts = [
        teacher_games(bot, round(TEACHER_DECISIONS * share), SEED + i)
        for i, (bot, share) in enumerate(TEACHER_MIX.items())
    ]
    examples = Examples(*(np.concatenate(column) for column in zip(*parts, strict=True)))
    print(f"{len(examples.actions)} decisions of the teacher{timing(start, cpu)}")
    imitate(model, examples, IMITATION_EPOCHS, SEED, IMITATION_LR)
    won, tied, lost = match(model, "greedy", EVAL_GAMES, seed=SEED + 1000)
    print(f"imitated: against greedy {won} won, {tied} without a winner, {lost} lost")
    for round_ in range(LEARNER_ROUNDS):
        own = teacher_games("greedy", LEARNER_DECISIONS, SEED + 100 + round_, learner=model)
        examples = joined(examples, own)
        spent = timing(start, cpu)
        print(f"{len(own.actions)} decisions of the teacher in the learner's games{spent}")
        imitate(model, examples, 1, SEED + 1 + round_, IMITATION_LR / 3)
        won, tied, lost = match(model, "greedy", EVAL_GAMES, seed=SEED + 1000)
        result = f"{won} won, {tied} without a winner, {lost} lost"
        print(f"imitated in own games: against greedy {result}")
    mix = OpponentMix(SEED)
    print(f"PPO on {TIMESTEPS} decisions, {NUM_ENVS} games at once")
    model.learn(total_timesteps=TIMESTEPS, callback=mix)
    print(f"trained: {len(mix.results)} games{timing(start, cpu)}")
    model.save(out / "maskable_ppo_pacru.zip")
    print("model saved: maskable_ppo_pacru.zip")
    agent = MaskablePPO.load(out / "maskable_ppo_pacru.zip")  # no custom objects needed
    for bot in ("random", "greedy"):
        won, tied, lost = match(agent, bot, EVAL_GAMES, seed=SEED + 1000)
        print(f"against {bot}: {won} won, {tied} without a winner, {lost} lost of {EVAL_GAMES}")
    draw_curve(mix.results, TIMESTEPS, out / "learning_curve.svg")
    print(f"learning curve: learning_curve.svg{timing(start, cpu, 'in all ')}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("pacru-training"))
