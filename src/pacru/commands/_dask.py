"""``--workers W | --scheduler ADDRESS``: where ``pacru match`` and ``selfplay`` run their work.

``--scheduler`` gives an Executor on a Dask cluster.

``distributed`` is imported only when a scheduler is given, so the commands
work without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

__all__ = [
    "CONNECT_TIMEOUT",
    "SchedulerError",
    "add_executor_options",
    "dask_executor",
    "executor_problem",
]

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
