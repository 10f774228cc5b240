"""Learner steps per second of :class:`pacru.gymnasium_vector.PacruVectorEnv` against bots.

Usage (from the repository root, with pacru installed)::

    python benchmarks/gym_vector.py [--game pacru] [--players 2] [--num-envs 256]
                                    [--opponents random,greedy] [--threads N]
                                    [--seconds 3] [--windows 3]

Each step the learner (seat 0) plays a uniformly random legal action of every
game's mask: ``VectorEnv.random_actions`` of the env's state (drawn natively on
the env's threads, a new seed each step), or, for a pacru that predates it, drawn
with numpy from :meth:`PacruVectorEnv.action_masks` (as figures before 2026-11-28
were measured); the
opponents then play their moves until the learner decides again. A learner step
is one decision of one game: a call of ``step`` counts ``num_envs``, as SB3 and
Gymnasium count vector steps. The observation is returned at every step (a
learner reads it). Figures are wall-clock rates, best of ``--windows`` windows,
with the same window's rate per CPU second of the process (all its threads: on
a shared machine the wall clock also counts the waits for a core).
``--threads`` sets ``num_threads`` (omitted: the environment's default, one per
core; benchmarks of the code before ``num_threads`` existed leave it out). This
is a script, not a test: it asserts nothing and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import inspect
import time
from typing import Any

import numpy as np

from pacru.gymnasium_vector import PacruVectorEnv


def rate(
    game: str,
    players: int,
    num_envs: int,
    opponent: str,
    threads: int | None,
    seconds: float,
    windows: int,
) -> tuple[float, float]:
    """Learner steps per second against ``opponent``, best of ``windows`` windows, and
    per CPU second of this process in that window (all its threads together)."""
    kwargs: dict[str, Any] = {}
    if threads is not None and "num_threads" in inspect.signature(PacruVectorEnv).parameters:
        kwargs["num_threads"] = threads
    envs = PacruVectorEnv(game, players, num_envs, opponent=opponent, seat=0, **kwargs)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    native_draw = hasattr(envs.env, "random_actions")
    best = (0.0, 0.0)
    for _ in range(windows):
        steps = 0
        cpu = time.process_time()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if native_draw:
                actions = envs.env.random_actions(envs.state, steps)
            else:
                mask = envs.action_masks()
                counts = mask.sum(axis=1)
                picks = (rng.random(num_envs) * counts).astype(np.intp)
                cells = np.flatnonzero(mask)
                firsts = np.cumsum(counts) - counts
                actions = cells[firsts + picks] - np.arange(num_envs) * mask.shape[1]
            envs.step(actions)
            steps += 1
        wall = time.perf_counter() - start
        used = max(time.process_time() - cpu, 1e-9)
        best = max(best, (steps * num_envs / wall, steps * num_envs / used))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="pacru")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--windows", type=int, default=3)
    args = parser.parse_args()
    for opponent in args.opponents.split(","):
        r, per_cpu = rate(
            args.game,
            args.players,
            args.num_envs,
            opponent,
            args.threads,
            args.seconds,
            args.windows,
        )
        print(
            f"PacruVectorEnv {args.game}-{args.players}p, {args.num_envs} envs, "
            f"against {opponent}: {r:,.0f} learner steps/s "
            f"({per_cpu:,.0f} per CPU second of this process)"
        )


if __name__ == "__main__":
    main()
