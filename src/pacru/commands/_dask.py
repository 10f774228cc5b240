"""``--scheduler ADDRESS``: an Executor on a Dask cluster for ``pacru match`` and ``selfplay``.

``distributed`` is imported only when a scheduler is given, so the commands
work without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

__all__ = ["CONNECT_TIMEOUT", "SchedulerError", "dask_executor"]

#: Seconds to wait for the scheduler before giving up.
CONNECT_TIMEOUT = 30.0


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
