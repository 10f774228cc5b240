"""
Episodes under Gymnasium
========================

Every pacru game as a Gymnasium environment: a learner's episodes against pacru bots.

``gymnasium.make("pacru/Shacru-v0", opponent="greedy")`` seats the learner
first and the greedy bot in the other seat. The learner here is a masked
random policy (replace it by yours); it sees the reward at the end of each
episode: +1 for a win, -1 for a loss, 0 without a winner. An action outside
the mask would end the episode as a loss, without an exception.

Needs the ``gymnasium`` extra. Run from the repository root (with pacru
installed, or ``PYTHONPATH=src``)::

    python examples/gymnasium_episode.py
"""

from __future__ import annotations

import gymnasium
import numpy as np

import pacru.gymnasium


def episodes(env_id: str, count: int, seed: int) -> list[float]:
    """The learner's return in each of ``count`` seeded episodes."""
    env = gymnasium.make(env_id, players=2, opponent="greedy")
    rng = np.random.default_rng(seed)
    returns = []
    for episode in range(count):
        observation, _info = env.reset(seed=seed + episode)
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, terminated, truncated, _info = env.step(action)
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    return returns


def main() -> None:
    for env_id in pacru.gymnasium.IDS.values():
        returns = episodes(env_id, count=3, seed=5)
        print(f"{env_id}: random learner vs greedy, returns {returns}")


if __name__ == "__main__":
    main()
