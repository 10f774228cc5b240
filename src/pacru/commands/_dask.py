"""``--workers W | --scheduler ADDRESS``: where ``pacru match``, ``ladder`` and ``selfplay`` run
their work.

``--scheduler`` gives an Executor on a Dask cluster; :func:`run_games` runs a
command's games on it and turns what stops them into the command's exit status.

``distributed`` is imported only when a scheduler is given, so the commands
work without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any, TypeVar

from pacru.commands._ui import CommandExit, Output, Progress

__all__ = [
    "CONNECT_TIMEOUT",
    "SchedulerError",
    "add_executor_options",
    "dask_executor",
    "executor_problem",
    "run_games",
]

T = TypeVar("T")

#: Seconds to wait for the scheduler before giving up.
CONNECT_TIMEOUT = 30.0


def add_executor_options(parser: argparse.ArgumentParser, work: str) -> None:
    """Add ``--workers W`` (default 1) and ``--scheduler ADDRESS``; ``work`` names what runs."""
    parser.add_argument(
        "--workers",
        "-w",
        type=int,
        default=1,
        metavar="W",
        help="local worker processes (default 1)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help=f"run the {work} on a Dask cluster, e.g. tcp://host:8786 (instead of --workers)",
    )


def executor_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--workers`` and ``--scheduler`` together, or None."""
    if args.scheduler is not None and args.workers != 1:
        return "--workers and --scheduler exclude each other (the cluster has its workers)"
    if args.workers < 1:
        return "--workers must be positive"
    return None


class SchedulerError(Exception):
    """``--scheduler`` is unusable: ``distributed`` is missing or the scheduler does not answer."""


@contextmanager
def dask_executor(address: str | None) -> Iterator[Executor | None]:
    """A Dask ``Client(address).get_executor()`` for the block, or None without an address.

    The client is closed when the block ends; the cluster keeps running.

    Raises:
        SchedulerError: ``distributed`` is not installed (the ``selfplay``
            extra) or no scheduler answers at ``address`` within
            :data:`CONNECT_TIMEOUT` seconds.
    """
    if address is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError:
        raise SchedulerError(
            "--scheduler needs Dask distributed: pip install 'pacru[selfplay]'"
        ) from None
    try:
        # distributed's functions are untyped: call them through Any.
        connect: Any = Client
        client: Any = connect(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as err:
        raise SchedulerError(f"--scheduler {address}: no Dask scheduler answers ({err})") from None
    try:
        executor: Executor = client.get_executor()
        yield executor
    finally:
        client.close()


def run_games(
    play: Callable[[Executor | None], T],
    scheduler: str | None,
    progress: Progress,
    out: Output,
    *,
    interrupted: Callable[[], str],
    passing: tuple[type[BaseException], ...] = (),
) -> T:
    r"""``play(executor)`` with ``progress`` shown, on the Dask cluster at ``scheduler``
    (:func:`dask_executor`) or, without one, on what ``play`` chooses.

    Args:
        interrupted: the error line after Ctrl-C, made when it comes.
        passing: exceptions raised on to the caller, which handles them itself
            (a ``ValueError`` among them still ends the run with status 2).

    Raises:
        CommandExit: after its error line: status 2 for an unusable scheduler or a
            ``ValueError`` of the run (bad usage), 130 on Ctrl-C, 1 when a game failed
            (any other exception, named in one line).
    """
    try:
        with progress, dask_executor(scheduler) as executor:
            return play(executor)
    except (SchedulerError, ValueError) as err:
        out.error(str(err))
        raise CommandExit(2) from None
    except passing:
        raise
    except KeyboardInterrupt:
        out.error(interrupted())
        raise CommandExit(130) from None
    except Exception as err:  # a game failed in a worker: report it in one line
        out.error(f"a game failed: {type(err).__name__}: {err}")
        raise CommandExit(1) from None
