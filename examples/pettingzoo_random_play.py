"""
Random play under PettingZoo
============================

Every pacru game as a PettingZoo AEC environment, played by masked random agents.

The loop is PettingZoo's usual ``agent_iter``/``last``/``step``: each agent
picks a legal action from its ``action_mask`` (replace the random choice by
your policy), rewards come at the end, and agents whose game is over step
``None``. One move can take several steps of the same agent.

Needs the ``pettingzoo`` extra. Run from the repository root (with pacru
installed, or ``PYTHONPATH=src``)::

    python examples/pettingzoo_random_play.py
"""

from __future__ import annotations

import numpy as np

import pacru
from pacru.pettingzoo import env


def play(game: str, players: int, seed: int) -> str:
    aec = env(game=game, players=players)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    steps = 0
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _info = aec.last()
        totals[agent] += reward
        if termination or truncation:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    final = aec.unwrapped.pacru_state
    rewards = ", ".join(f"{a} {r:+.0f}" for a, r in totals.items())
    return f"{game} for {players}: {steps} steps, {final.outcome.result()}; {rewards}"


def main() -> None:
    for game in pacru.GAMES:
        print(play(game, 3 if game == "lsd" else 2, seed=11))


if __name__ == "__main__":
    main()
