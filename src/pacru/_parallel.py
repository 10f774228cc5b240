"""Run independent tasks here, in local worker processes, or on any Executor.

Shared by the match runner (:mod:`pacru.bots.arena`) and self-play
(:mod:`pacru.selfplay`). A task's result must depend on the task alone (its
seeds come from the task, never from the worker), so that the results are the
same whatever runs them; this module only decides *where* they run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import TypeVar

__all__ = ["run_tasks"]

T = TypeVar("T")
R = TypeVar("R")


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    executor: Executor | None = None,
    workers: int = 1,
) -> Iterator[R]:
    """Yield ``fn(task)`` for every task, in the order the tasks finish.

    Args:
        fn: a top-level function (it is pickled by reference for other processes).
        tasks: picklable task descriptions.
        executor: any :class:`concurrent.futures.Executor` (a process pool, a
            Dask ``Client.get_executor()``, ...); it is used, not shut down.
        workers: without ``executor``: 1 runs the tasks one by one in this
            process, more starts that many local worker processes for the run.

    When the iteration stops early (the consumer stops, a task raises, or
    Ctrl-C arrives while waiting), the tasks not yet started are cancelled and a
    pool started here is shut down without waiting for running tasks; results
    already yielded are the caller's to keep.

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
    pool: Executor = ProcessPoolExecutor(max_workers=workers) if executor is None else executor
    futures: list[Future[R]] = []
    finished = False
    try:
        futures = [pool.submit(fn, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()
        finished = True
    finally:
        if not finished:
            for future in futures:
                future.cancel()
        if own:
            pool.shutdown(wait=finished, cancel_futures=not finished)
