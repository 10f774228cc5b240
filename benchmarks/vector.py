"""Decisions per second of batched self-play: :mod:`pacru.vector` and, if installed, pgx's othello.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/vector.py [--game pacru] [--players 2] [--num-envs 256]
                                [--seconds 3] [--windows 3] [--observe] [--mask] [--no-pgx]
                                [--threads 1,2,4,...] [--busy [--busy-procs N]] [--donate]

``--threads`` runs pacru.vector at each thread count (``num_threads``), the
counts' windows taken in turn (a window of each count, then the next round, so
that the machine's load falls on all alike), and prints each count's best and
median window with their ratios to the first count's (the scaling), and the
median over the rounds of each round's ratio (its windows are the closest in
time, so a machine whose speed drifts from minute to minute weighs least on
it); without it the
environment's default (one thread per core) runs, or one thread for a pacru
that predates ``num_threads``. ``--threads`` skips pgx.

``--busy`` compares the environment's default ``num_threads`` to one thread
on a busy machine: it starts one busy process a core (``benchmarks/busy.py``:
``while True: pass`` in Python, normal priority; ``--busy-procs N`` starts N
instead, 0 for none: the same alternation on the machine as it is), runs
``--windows`` rounds of a one-thread window then a default window, prints each
round's ratio default / one thread and their median, and kills the busy
processes at the end. It skips pgx.

pacru.vector
    ``VectorEnv(game, players=players, num_envs=num_envs)`` (no move cap:
    games run to their end and restart), each step a uniformly random legal
    action of every game's mask: ``VectorEnv.random_actions`` (drawn natively,
    on the env's threads, with a new seed each step), or, for a pacru that
    predates it, :func:`random_actions` (the same draw with numpy, in a few
    whole-batch operations on the calling thread). Decisions/s counts
    ``num_envs`` decisions per step (a restart step included, as pgx's
    auto-reset counts it). The observation
    is made only when read: ``--observe`` reads it at every step, as a
    learner does; so is the mask of a whole-batch native step (since
    2026-11-28): ``--mask`` reads it at every step, as a learner's policy does
    (the native draw does not need it). ``--donate`` hands each state over to its
    step (``VectorEnv.step(state, actions, donate=True)``: the games step in place
    on the native engine); without it every step copies the games.
pgx othello
    Only when ``pgx`` and ``jax`` import: ``pgx.make("othello")`` at the same
    batch size, vmapped, with ``pgx.experimental.auto_reset`` and uniformly
    random legal actions (``jax.random.categorical`` on the log mask), after
    compilation. Two ways: one jitted call per step (as the pacru loop: a
    Python call per step), and a ``jax.lax.scan`` of 100 steps in one jitted
    call (how pgx is fast).

The script sets ``OPENBLAS_NUM_THREADS=1`` unless it is set: nothing in a
step calls BLAS, but numpy's OpenBLAS threads busy-wait for about 0.2 CPU
seconds after numpy is imported, which on a 2-core machine takes a core from
the first window of two threads.

Figures are wall-clock rates, best of ``--windows`` windows each, so other load
on a shared machine counts as little as possible; pacru.vector's rate per CPU
second of its (single-threaded) process is printed too, as it depends less on
that load (jax runs several threads, so pgx has no such figure). This is a script, not a
test: it asserts nothing and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads OpenBLAS

import numpy as np
import numpy.typing as npt
from busy import default_against_one, report

from pacru.vector import VectorEnv

SCAN_STEPS = 100


def random_actions(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """A uniformly random True column of every row of ``mask`` (each row has one at least).

    Row ``i`` draws ``floor(u * count_i)`` (``u`` uniform in [0, 1)) and takes
    that legal action of its row, found in the row-major list of the mask's
    True cells: the same distribution as a masked argmax of uniform noise,
    without drawing a number per action.
    """
    counts = np.count_nonzero(mask, axis=1)
    picks = (rng.random(len(counts)) * counts).astype(np.intp)
    cells = np.flatnonzero(mask)
    firsts = np.cumsum(counts) - counts
    actions: npt.NDArray[np.intp] = cells[firsts + picks] - np.arange(len(counts)) * mask.shape[1]
    return actions


def _best_rate(window: Callable[[float], float], seconds: float, windows: int) -> float:
    return max(window(seconds) for _ in range(windows))


#: The keyword arguments of every ``VectorEnv.step`` (``--donate``: ``donate=True``).
STEP_KWARGS: dict[str, Any] = {}


def pacru_windows(
    game: str,
    players: int,
    num_envs: int,
    reads: tuple[str, ...] = (),
    threads: int | None = None,
) -> Callable[[float], tuple[float, float]]:
    """A window of :class:`pacru.vector.VectorEnv` with random actions: called with a
    length in seconds, it steps the batch that long and returns the decisions per second
    of wall-clock time and per CPU second of this process (the env goes on from window to
    window).

    Unbounded games (``move_cap=None`` for Azacru and Pacru: they run to their end).
    """
    kwargs: dict[str, Any] = {"move_cap": None} if game in ("azacru", "pacru") else {}
    if threads is not None:
        kwargs["num_threads"] = threads
    try:
        env = VectorEnv(game, players=players, num_envs=num_envs, **kwargs)
    except (TypeError, ValueError):  # a pacru before num_threads and the default move cap
        env = VectorEnv(game, players=players, num_envs=num_envs)
    rng = np.random.default_rng(0)
    box = [env.init(seed=0)]
    native_draw = hasattr(env, "random_actions")

    def window(length: float) -> tuple[float, float]:
        state = box.pop()  # the window alone holds it (a donated step steps it in place)
        steps = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < length:
            for name in reads:  # each made at its first read
                getattr(state, name)
            if native_draw:
                actions = env.random_actions(state, steps)
            else:
                actions = random_actions(state.legal_action_mask, rng)
            state = env.step(state, actions, **STEP_KWARGS)
            steps += 1
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        box.append(state)
        return steps * num_envs / wall, steps * num_envs / cpu

    return window


def pacru_rate(
    game: str,
    players: int,
    num_envs: int,
    seconds: float,
    windows: int,
    reads: tuple[str, ...] = (),
    threads: int | None = None,
) -> tuple[float, float]:
    """The best window's decisions per second (wall clock, and per CPU second) of
    :func:`pacru_windows`."""
    window = pacru_windows(game, players, num_envs, reads, threads)
    return max(window(seconds) for _ in range(windows))


def thread_rates(
    game: str,
    players: int,
    num_envs: int,
    seconds: float,
    windows: int,
    reads: tuple[str, ...],
    counts: list[int],
) -> dict[int, list[tuple[float, float]]]:
    """Every window's rates for each thread count, the counts' windows taken in turn
    (one of each count, then the next round), so that a change of the machine's load
    falls on every count alike."""
    runs = {n: pacru_windows(game, players, num_envs, reads, n) for n in counts}
    rates: dict[int, list[tuple[float, float]]] = {n: [] for n in counts}
    for _ in range(windows):
        for n, window in runs.items():
            rates[n].append(window(seconds))
    return rates


def pgx_rates(num_envs: int, seconds: float, windows: int) -> tuple[float, float] | None:
    """pgx othello's decisions per second (one call per step, a scan of steps), or None."""
    try:
        jax = importlib.import_module("jax")
        jnp = importlib.import_module("jax.numpy")
        pgx = importlib.import_module("pgx")
        experimental = importlib.import_module("pgx.experimental")
    except ImportError:
        return None
    env = pgx.make("othello")
    one = experimental.auto_reset(env.step, env.init)

    def random_step(state: Any, key: Any) -> Any:
        k1, k2 = jax.random.split(key)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        actions = jax.random.categorical(k1, logits, axis=-1)
        return jax.vmap(one)(state, actions, jax.random.split(k2, num_envs))

    step = jax.jit(random_step)

    def scanned(state: Any, key: Any) -> Any:
        def body(carry: Any, k: Any) -> tuple[Any, None]:
            return random_step(carry, k), None

        return jax.lax.scan(body, state, jax.random.split(key, SCAN_STEPS))[0]

    scan = jax.jit(scanned)
    box = [jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), num_envs))]
    keys = [jax.random.PRNGKey(1)]

    def runner(call: Callable[[Any, Any], Any], per_call: int) -> Callable[[float], float]:
        def window(length: float) -> float:
            state = box[0]
            calls = 0
            start = time.perf_counter()
            while time.perf_counter() - start < length:
                keys[0], key = jax.random.split(keys[0])
                state = call(state, key)
                calls += 1
            state.observation.block_until_ready()
            box[0] = state
            return calls * per_call * num_envs / (time.perf_counter() - start)

        window(0.0)  # compiles
        return window

    per_step = _best_rate(runner(step, 1), seconds, windows)
    per_scan = _best_rate(runner(scan, SCAN_STEPS), seconds, windows)
    return per_step, per_scan


def busy(args: argparse.Namespace, reads: tuple[str, ...]) -> None:
    """``--busy``: rounds of one thread then the default, beside the busy processes."""
    sizes = (args.game, args.players, args.num_envs, reads)
    n, rates = default_against_one(
        lambda threads: pacru_windows(*sizes, threads), args.busy_procs, args.windows,
        args.seconds,
    )
    what = (
        f"pacru.vector {args.game} players={args.players} num_envs={args.num_envs}, "
        f"{n} busy processes"
    )
    report(what, rates, "decisions/s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pacru")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument(
        "--observe", action="store_true", help="read every state's observation (as a learner)"
    )
    parser.add_argument(
        "--mask", action="store_true", help="read every state's mask (as a learner's policy)"
    )
    parser.add_argument("--no-pgx", action="store_true", help="skip pgx's othello")
    parser.add_argument("--threads", default=None, help="thread counts, e.g. 1,2,4,8,16")
    parser.add_argument(
        "--busy", action="store_true", help="default against one thread, every core kept busy"
    )
    parser.add_argument(
        "--busy-procs", type=int, default=None, help="busy processes (default: one a core)"
    )
    parser.add_argument(
        "--donate", action="store_true", help="hand each state over to its step (in place)"
    )
    args = parser.parse_args(argv)
    if args.donate:
        STEP_KWARGS["donate"] = True
    reads = ("observation",) * args.observe + ("legal_action_mask",) * args.mask
    if args.busy:
        busy(args, reads)
        return
    if args.threads:
        counts = [int(t) for t in args.threads.split(",")]
        sizes = (args.game, args.players, args.num_envs, args.seconds, args.windows)
        rates = thread_rates(*sizes, reads, counts)
        best = {n: max(r[0] for r in rates[n]) for n in counts}
        median = {n: statistics.median(r[0] for r in rates[n]) for n in counts}
        base = counts[0]
        for n in counts:
            cpu = max(r[1] for r in rates[n])
            # Each round's ratio to the first count's window of the same round (the
            # windows closest in time), the median over the rounds.
            paired = statistics.median(
                r[0] / b[0] for r, b in zip(rates[n], rates[base], strict=True)
            )
            print(
                f"pacru.vector {args.game} players={args.players} num_envs={args.num_envs} "
                f"num_threads={n}: {best[n]:,.0f} decisions/s best ({best[n] / best[base]:.2f}x), "
                f"{median[n]:,.0f} median ({median[n] / median[base]:.2f}x, "
                f"{paired:.2f}x by round); {cpu:,.0f} per CPU second of this process"
            )
        return
    rate, cpu_rate = pacru_rate(
        args.game, args.players, args.num_envs, args.seconds, args.windows, reads
    )
    read = "".join(f", {name} read at every step" for name in reads)
    print(
        f"pacru.vector {args.game} players={args.players} num_envs={args.num_envs}{read}: "
        f"{rate:,.0f} decisions/s ({cpu_rate:,.0f} per CPU second of this process)"
    )
    if args.no_pgx:
        return
    pgx = pgx_rates(args.num_envs, args.seconds, args.windows)
    if pgx is None:
        print("pgx othello: pgx and jax are not installed (pip install pgx jax)")
        return
    per_step, per_scan = pgx
    print(
        f"pgx othello num_envs={args.num_envs}, one jitted call per step: "
        f"{per_step:,.0f} decisions/s"
    )
    print(
        f"pgx othello num_envs={args.num_envs}, lax.scan of {SCAN_STEPS} steps: "
        f"{per_scan:,.0f} decisions/s"
    )
    print(f"pacru.vector / pgx othello (scan): {rate / per_scan:.3f}")


if __name__ == "__main__":
    main()
