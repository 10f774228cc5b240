"""Learner steps per second of :class:`pacru.gymnasium_vector.PacruVectorEnv` against bots.

Usage (from the repository root, with pacru installed)::

    python benchmarks/gym_vector.py [--game pacru] [--players 2] [--num-envs 256]
                                    [--opponents random,greedy] [--threads N]
                                    [--seconds 3] [--windows 3] [--busy [--busy-procs N]]

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
core; benchmarks of the code before ``num_threads`` existed leave it out).
``--busy`` compares the default ``num_threads`` to one thread beside one busy
process a core (``--busy-procs N``: N of them, 0 for none), ``--windows``
rounds of a one-thread window then a default window, and prints each round's
ratio and their median (see ``benchmarks/busy.py``). This is a script, not a
test: it asserts nothing and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import inspect
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from busy import default_against_one, report

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
    window = learner_windows(game, players, num_envs, opponent, threads)
    return max(window(seconds) for _ in range(windows))


def learner_windows(
    game: str, players: int, num_envs: int, opponent: str, threads: int | None
) -> Callable[[float], tuple[float, float]]:
    """A window of learner steps: called with a length in seconds, it steps that long and
    returns the learner steps per second and per CPU second (the env goes on)."""
    kwargs: dict[str, Any] = {}
    if threads is not None and "num_threads" in inspect.signature(PacruVectorEnv).parameters:
        kwargs["num_threads"] = threads
    envs = PacruVectorEnv(game, players, num_envs, opponent=opponent, seat=0, **kwargs)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    native_draw = hasattr(envs.env, "random_actions")
    box = [0]

    def window(seconds: float) -> tuple[float, float]:
        steps, total = 0, box[0]
        cpu = time.process_time()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if native_draw:
                actions = envs.env.random_actions(envs.state, total + steps)
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
        box[0] = total + steps
        return steps * num_envs / wall, steps * num_envs / used

    return window


def busy(args: argparse.Namespace, opponent: str) -> None:
    """``--busy``: rounds of one thread then the default, beside the busy processes."""
    sizes = (args.game, args.players, args.num_envs, opponent)
    n, rates = default_against_one(
        lambda threads: learner_windows(*sizes, threads), args.busy_procs, args.windows,
        args.seconds,
    )
    what = f"PacruVectorEnv {args.game}-{args.players}p, {args.num_envs} envs v {opponent}"
    what += f", {n} busy processes"
    report(what, rates, "learner steps/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="pacru")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument(
        "--busy", action="store_true", help="default against one thread, every core kept busy"
    )
    parser.add_argument(
        "--busy-procs", type=int, default=None, help="busy processes (default: one a core)"
    )
    args = parser.parse_args()
    for opponent in args.opponents.split(","):
        if args.busy:
            busy(args, opponent)
            continue
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
