"""Self-play on a real Dask cluster: the same data as the local run, through a worker's death."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from pacru.cli import main
from pacru.selfplay import SelfPlayRun, ShardResult, run_selfplay

RUN = SelfPlayRun("shacru", 2, "random", games=8, seed=5, shard_games=2, max_plies=40)
#: Twenty shards for the two workers: when the first is in, each worker still holds shards
#: however fast a shard is played (the native engine plays one in milliseconds).
KILL_RUN = SelfPlayRun("shacru", 2, "random", games=40, seed=5, shard_games=2, max_plies=40)


def _files(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> bytes)."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def _taken_back(dask_scheduler: Any) -> int:
    """Shard tasks the scheduler took back from a worker while they ran (runs on the scheduler)."""
    return sum(
        1
        for key, start, finish, *_ in dask_scheduler.transition_log
        if str(key).startswith("play_shard-") and (start, finish) == ("processing", "released")
    )


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


def test_a_worker_killed_mid_run(
    client: Any, tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    """SIGKILL a worker when the first shard is in: Dask replays its shards elsewhere."""
    local = tmp_path_factory.mktemp("local_kill")
    run_selfplay(KILL_RUN, local)
    before: dict[str, int] = client.run(os.getpid)
    assert len(before) == 2
    killed: list[int] = []

    def kill_one(shard: ShardResult) -> None:
        if not killed:
            pid = sorted(before.values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    executor = client.get_executor()
    assert run_selfplay(KILL_RUN, tmp_path, executor=executor, progress=kill_one) == list(
        range(20)
    )
    assert _files(tmp_path) == _files(local)
    # The killed worker was playing a shard: the scheduler took it back and ran it again.
    assert client.run_on_scheduler(_taken_back) >= 1
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker
    after: dict[str, int] = client.run(os.getpid)
    assert killed[0] not in after.values()


def test_cli_selfplay_scheduler(
    cluster: Any, local_run: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["selfplay", "shacru", "--bot", "random", "--games", "8", "--seed", "5"]
    argv += ["--shard-games", "2", "--max-plies", "40", "--out", str(tmp_path), "--no-progress"]
    assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
    assert "4 shards written (8 games, " in capsys.readouterr().out
    assert _files(tmp_path) == local_run
