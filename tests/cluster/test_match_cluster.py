"""``run_match`` and ``pacru match --scheduler`` on a real Dask cluster."""

from __future__ import annotations

from typing import Any

import pytest

from pacru.bots.arena import GameResult, run_match
from pacru.cli import main


def _games(result: Any) -> list[tuple[object, ...]]:
    """Everything about each game but its wall-clock time."""
    return [
        (g.index, g.seats, g.colours, g.winners, g.scores, g.termination, g.plies, g.record)
        for g in result.games
    ]


def test_match_on_the_cluster_equals_the_local_match(client: Any) -> None:
    specs = ["greedy", "random", "random:uniform=moves"]
    local = run_match("shacru", specs, 6, seed=21, record=True)
    seen: list[GameResult] = []
    remote = run_match(
        "shacru",
        specs,
        6,
        seed=21,
        record=True,
        executor=client.get_executor(),
        progress=seen.append,
    )
    assert _games(remote) == _games(local)
    assert sorted(g.index for g in seen) == list(range(6))
    assert remote.entry_stats() == local.entry_stats()


def test_cli_match_scheduler(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--game", "lsd", "--bot", "greedy", "--bot", "random", "--games", "4"]
    assert (
        main([*argv, "--seed", "8", "--no-progress", "--scheduler", cluster.scheduler_address]) == 0
    )
    remote = capsys.readouterr().out
    assert main([*argv, "--seed", "8", "--no-progress"]) == 0
    local = capsys.readouterr().out
    # The tables are the same; only the "s of play in total" figure differs.
    assert remote.rsplit(";", 1)[0] == local.rsplit(";", 1)[0]
    assert "lsd, 2 players, 4 games, seed 8: greedy vs random" in remote


def test_cli_match_scheduler_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--game", "lsd", "--bot", "random", "--bot", "random", "--games", "1"]
    assert main([*argv, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "--workers and --scheduler exclude each other" in capsys.readouterr().err
