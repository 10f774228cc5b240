"""Learner steps per second of examples/train_maskable_ppo.py: default threads against one.

Usage (from the repository root, with pacru and the ``sb3`` extra installed)::

    python benchmarks/ppo_threads.py [--steps 8192] [--num-envs 16] [--rounds 3]
                                     [--busy [--busy-procs N]]

Runs the example's PPO training (its opponents, shaping and MaskablePPO's
settings; the imitation before it and the evaluation cut to a few games, the
files written to a temporary folder) for ``--steps`` learner decisions on ``--num-envs`` games, in
rounds: one run with every batch on one thread (``pacru.vector``'s default
thread count replaced by 1), then one with the default (one thread per core),
and prints the learner steps per second of each run's ``learn`` (wall clock),
each round's ratio default / one thread and their median. ``--busy`` starts one
busy process a core first (``benchmarks/busy.py``; ``--busy-procs N``: N of
them) and kills them at the end. This is a script, not a test: it asserts
nothing and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from busy import busy_cores, report

import pacru.vector

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_maskable_ppo.py"


def example(steps: int, num_envs: int) -> ModuleType:
    """The example as a module, set to train for ``steps`` decisions on ``num_envs`` games."""
    os.environ.pop("PACRU_EXAMPLE_QUICK", None)
    os.environ["PACRU_EXAMPLE_STEPS"] = str(steps)
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {EXAMPLE}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    setattr(module, "NUM_ENVS", num_envs)  # noqa: B010 (the example's settings, read by main)
    setattr(module, "EVAL_GAMES", 2)  # noqa: B010
    setattr(module, "TEACHER_DECISIONS", 16)  # noqa: B010 (imitation: not what is timed)
    setattr(module, "IMITATION_EPOCHS", 1)  # noqa: B010
    return module


def learn_rate(module: ModuleType, threads: int | None) -> float:
    """The learner steps per second of one training run of the example (its ``learn``)."""
    took: list[float] = []
    base: Any = getattr(module, "MaskablePPO")  # noqa: B009

    class Timed(base):  # type: ignore[misc]
        def learn(self, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            out = super().learn(*args, **kwargs)
            took.append(time.perf_counter() - start)
            return out

    default = pacru.vector.default_threads
    setattr(module, "MaskablePPO", Timed)  # noqa: B010
    if threads is not None:
        pacru.vector.default_threads = lambda: threads
    try:
        with tempfile.TemporaryDirectory() as out, contextlib.redirect_stdout(io.StringIO()):
            module.main(Path(out))
    finally:
        setattr(module, "MaskablePPO", base)  # noqa: B010
        pacru.vector.default_threads = default
    return float(getattr(module, "TIMESTEPS")) / took[0]  # noqa: B009


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--steps", type=int, default=8192)
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy", action="store_true", help="every core kept busy")
    parser.add_argument("--busy-procs", type=int, default=None)
    args = parser.parse_args()
    module = example(args.steps, args.num_envs)
    rates: dict[str, list[float]] = {"num_threads=1": [], "default": []}
    busy = busy_cores(args.busy_procs) if args.busy else contextlib.nullcontext(0)
    with busy as n:
        for _ in range(args.rounds):
            for name, threads in (("num_threads=1", 1), ("default", None)):
                rates[name].append(learn_rate(module, threads))
                print(f"{name}: {rates[name][-1]:,.0f} learner steps/s", file=sys.stderr)
    what = f"train_maskable_ppo, {args.steps} steps on {args.num_envs} games, {n} busy processes"
    report(what, rates, "learner steps/s")


if __name__ == "__main__":
    main()
