"""Self-play on a real Dask cluster: the same data as the local run, through a worker's death."""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import distributed
import pytest

from pacru.cli import main
from pacru.selfplay import SelfPlayRun, ShardResult, run_selfplay

# distributed has no type hints.
dask: Any = distributed

RUN = SelfPlayRun("shacru", 2, "random", games=8, seed=5, shard_games=2, max_plies=40)


def _files(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> bytes)."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def _transitions(key: str, dask_scheduler: Any) -> list[tuple[str, str]]:
    """The scheduler's state transitions of task ``key`` (runs on the scheduler)."""
    return [
        (start, finish)
        for logged, start, finish, *_ in dask_scheduler.transition_log
        if logged == key
    ]


def _holding(token: str, victims: str, release: str) -> Callable[..., Any]:
    """A task wrapper that holds the first shard to start on its worker.

    The Dask queue ``token`` holds one item: the task that takes it (the first
    to start, whichever worker runs it) puts its worker's pid and its task key
    on the queue ``victims`` and waits for the event ``release`` before it
    plays, so that worker surely holds a running shard when the test kills it.
    Every other task (the held shard's replay included) plays at once. The
    wrapper is made here, not at top level, so that it is pickled by value:
    the workers need not import this test module.
    """

    def held(fn: Callable[..., Any], *args: Any) -> Any:
        if dask.Queue(token).get(batch=True):
            dask.Queue(victims).put((os.getpid(), dask.get_worker().get_current_task()))
            dask.Event(release).wait()
        return fn(*args)

    return held


class _HoldingExecutor(Executor):
    """``executor`` with each task wrapped by :func:`_holding`."""

    def __init__(self, executor: Executor, held: Callable[..., Any]) -> None:
        self._executor = executor
        self._held = held

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        assert not kwargs
        return self._executor.submit(self._held, fn, *args)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """RUN played in this process: what every cluster run must write."""
    directory = tmp_path_factory.mktemp("local")
    run_selfplay(RUN, directory)
    return _files(directory)


def test_selfplay_on_the_cluster_equals_the_local_run(
    client: Any, local_run: dict[str, bytes], tmp_path: Path
) -> None:
    assert run_selfplay(RUN, tmp_path, executor=client.get_executor()) == [0, 1, 2, 3]
    assert _files(tmp_path) == local_run


def test_a_worker_killed_mid_run(client: Any, local_run: dict[str, bytes], tmp_path: Path) -> None:
    """SIGKILL the worker holding a running shard: Dask plays that shard again elsewhere."""
    before: dict[str, int] = client.run(os.getpid)
    assert len(before) == 2
    token, victims, release = (f"pacru-{name}-{uuid.uuid4().hex}" for name in "tvr")
    dask.Queue(token, client=client).put("hold")
    held = dask.Queue(victims, client=client)
    killed: list[tuple[int, str]] = []

    def kill_the_holder(shard: ShardResult) -> None:
        # The first shard in came from the other worker; the holder is still waiting.
        if not killed:
            pid, key = held.get(timeout=120)
            os.kill(pid, signal.SIGKILL)
            killed.append((pid, key))

    executor = _HoldingExecutor(client.get_executor(), _holding(token, victims, release))
    try:
        written = run_selfplay(RUN, tmp_path, executor=executor, progress=kill_the_holder)
    finally:
        dask.Event(release, client=client).set()  # frees a held shard if the test failed early
    assert written == [0, 1, 2, 3]
    assert _files(tmp_path) == local_run
    pid, key = killed[0]
    assert pid in before.values()
    # The killed worker was playing the held shard: the scheduler took it back and ran it again.
    transitions = client.run_on_scheduler(_transitions, key)
    taken_back = transitions.index(("processing", "released"))
    assert ("processing", "memory") in transitions[taken_back:]
    client.wait_for_workers(2, timeout=120)  # the nanny restarts the killed worker
    after: dict[str, int] = client.run(os.getpid)
    assert pid not in after.values()


def test_cli_selfplay_scheduler(
    cluster: Any, local_run: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["selfplay", "shacru", "--bot", "random", "--games", "8", "--seed", "5"]
    argv += ["--shard-games", "2", "--max-plies", "40", "--out", str(tmp_path), "--no-progress"]
    assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
    assert "4 shards written (8 games, " in capsys.readouterr().out
    assert _files(tmp_path) == local_run
