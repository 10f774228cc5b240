"""Run independent tasks here, in local worker processes, or on any Executor.

Shared by the match runner (:mod:`pacru.bots.arena`) and self-play
(:mod:`pacru.selfplay`). A task's result must depend on the task alone (its
seeds come from the task, never from the worker), so that the results are the
same whatever runs them; this module only decides *where* they run.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from pacru._integers import bounded

__all__ = ["MAX_THREADS", "check_memory", "default_threads", "run_tasks", "thread_count"]

#: The most threads ``num_threads`` may ask for (:func:`thread_count`).
MAX_THREADS = 1024


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover (no sysconf)
        return None


def check_memory(need: int, what: str) -> None:
    """Refuse, before allocating anything, a batch whose arrays exceed the machine's memory.

    Raises:
        MemoryError: ``need`` bytes (what ``what`` needs) exceed the physical memory;
            a system that overcommits would otherwise promise the memory and kill
            the process once it is touched.
    """
    memory = physical_memory()
    if memory is not None and need > memory:
        raise MemoryError(f"{what} need {need} bytes; this machine has {memory}")


def default_threads() -> int:
    """One thread per core this process may run on (``sched_getaffinity``, else ``cpu_count``).

    The default ``num_threads`` of :class:`pacru.vector.VectorEnv` and
    :func:`pacru.bots.random_rollouts`: an upper bound. The native engine uses
    no more than 1 thread per 64 games, and each kind of :mod:`pacru.vector`
    call uses one thread or all of these, whichever has lately been faster
    (measured call by call, so a machine whose cores are busy with other work
    gets about the speed of one thread and a quiet one the speed of all;
    ``PACRU_TUNE=0`` turns the choice off).
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover (no affinity on macOS and Windows)
        return max(1, os.cpu_count() or 1)


def thread_count(num_threads: object) -> int:
    """``num_threads`` as the threads to use: :func:`default_threads` for ``None``.

    Raises:
        TypeError: ``num_threads`` is neither ``None`` nor an integer.
        ValueError: it is outside ``1 .. MAX_THREADS``.
    """
    if num_threads is None:
        return default_threads()
    return bounded(num_threads, "num_threads", 1, MAX_THREADS)


T = TypeVar("T")
R = TypeVar("R")


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    executor: Executor | None = None,
    workers: int = 1,
) -> Generator[R, None, None]:
    """Yield ``fn(task)`` for every task, in the order the tasks finish.

    Args:
        fn: a top-level function (it is pickled by reference for other processes).
        tasks: picklable task descriptions.
        executor: any :class:`concurrent.futures.Executor` (a process pool, a
            Dask ``Client.get_executor()``, ...); it is used, not shut down.
        workers: without ``executor``: 1 runs the tasks one by one in this
            process, more starts that many local worker processes for the run.

    When the iteration stops early (the consumer stops, a task raises, or
    Ctrl-C arrives while waiting), the tasks not yet started are cancelled and
    the processes of a pool started here are terminated (they ignore Ctrl-C
    themselves, so that only this process reacts to it); results already
    yielded are the caller's to keep. An ``executor`` of the caller's keeps
    running the tasks it had started (a Dask cluster cannot stop a running
    task); their results are dropped.

    Raises:
        ValueError: ``workers`` below 1.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if executor is None and workers == 1:
        for task in tasks:
            yield fn(task)
        return
    own = executor is None
    pool: Executor = (
        ProcessPoolExecutor(max_workers=workers, initializer=_ignore_ctrl_c)
        if executor is None
        else executor
    )
    futures: list[Future[R]] = []
    finished = False
    try:
        futures = [pool.submit(fn, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()
        finished = True
    finally:
        if own:
            if not finished:
                # Kill the workers; the pool then fails its pending futures itself.
                # (Cancelling them first trips CPython 3.11's broken-pool handler.)
                _terminate(pool)
            pool.shutdown(wait=True)
        elif not finished:
            for future in futures:
                future.cancel()


def _ignore_ctrl_c() -> None:
    """Worker start-up: Ctrl-C goes to the whole process group; the parent handles it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminate(pool: Any) -> None:
    """Stop a process pool's workers now, running tasks included.

    Python 3.14 has ``ProcessPoolExecutor.terminate_workers()``; before it,
    the processes are only reachable through the private ``_processes``
    mapping, and without this the interpreter would wait at exit for the
    tasks already handed to the workers.
    """
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
