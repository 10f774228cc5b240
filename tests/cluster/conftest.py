"""One real Dask cluster on this machine for the tests of this folder.

A ``LocalCluster`` of two worker processes (one thread each) on the loopback
interface, without dashboard, started once per session: it takes a few
seconds to start, so every cluster test shares it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from distributed import Client, LocalCluster


@pytest.fixture(scope="session")
def cluster() -> Iterator[Any]:
    """A running ``LocalCluster``: 2 worker processes, 1 thread each, loopback only."""
    # A killed worker (test_a_worker_killed_mid_run) makes distributed log
    # warnings; they are expected here.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    new: Any = LocalCluster
    with new(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    ) as running:
        yield running


@pytest.fixture
def client(cluster: Any) -> Iterator[Any]:
    """A client of :func:`cluster` (closed after the test; the cluster keeps running)."""
    connect: Any = Client
    with connect(cluster) as connected:
        yield connected
