"""``run_match`` on any Executor, and Ctrl-C keeping the finished games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from pacru._parallel import run_tasks
from pacru.bots.arena import GameResult, MatchInterrupted, run_match


def _games(result: Any) -> list[tuple[object, ...]]:
    """Everything about each game but its wall-clock time."""
    return [
        (g.index, g.seats, g.colours, g.winners, g.scores, g.termination, g.plies, g.record)
        for g in result.games
    ]


def test_same_games_on_any_executor() -> None:
    """Game seeds come from the match seed and the game number, never from the worker."""
    specs = ["greedy", "random"]
    local = run_match("lsd", specs, 5, seed=4, record=True)
    with ThreadPoolExecutor(max_workers=3) as threads:
        threaded = run_match("lsd", specs, 5, seed=4, record=True, executor=threads)
    with ProcessPoolExecutor(max_workers=2) as processes:
        pooled = run_match("lsd", specs, 5, seed=4, record=True, executor=processes)
        # The executor is the caller's: still usable after the match.
        assert processes.submit(abs, -3).result() == 3
    assert _games(threaded) == _games(local) == _games(pooled)
    assert len({g.record for g in local.games}) == 5


def test_interrupted_match_keeps_the_finished_games() -> None:
    def stop_after_two(result: GameResult) -> None:
        if result.index == 1:
            raise KeyboardInterrupt

    with pytest.raises(MatchInterrupted) as caught:
        run_match("lsd", ["random", "random"], 6, seed=2, progress=stop_after_two)
    kept = caught.value.result
    assert isinstance(caught.value, KeyboardInterrupt)
    assert [g.index for g in kept.games] == [0, 1]
    assert _games(kept) == _games(run_match("lsd", ["random", "random"], 2, seed=2))
    assert [e.games for e in kept.entry_stats()] == [2, 2]


def test_interrupted_pool_cancels_the_games_not_started() -> None:
    seen: list[int] = []

    def stop_at_first(result: GameResult) -> None:
        seen.append(result.index)
        raise KeyboardInterrupt

    with pytest.raises(MatchInterrupted) as caught:
        run_match("shacru", ["random", "random"], 40, seed=2, workers=2, progress=stop_at_first)
    assert [g.index for g in caught.value.result.games] == seen
    assert len(seen) == 1


def test_run_tasks_rejects_no_workers() -> None:
    with pytest.raises(ValueError, match="workers must be at least 1, not 0"):
        list(run_tasks(abs, [1], workers=0))


def test_ctrl_c_stops_pacru_match_and_prints_the_finished_games() -> None:
    """A real SIGINT to the process group, as a terminal sends it, mid-match with 2 workers."""
    command = [sys.executable, "-m", "pacru", "match", "--game", "lsd", "--bot", "greedy"]
    command += ["--bot", "random", "--games", "5000", "--workers", "2", "--seed", "1"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        assert process.stderr is not None
        first = process.stderr.readline()  # the first finished game's progress line
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    assert first.startswith("game 1/5000: ")
    assert process.returncode == 130
    finished = int(err.split("pacru: error: interrupted: ", 1)[1].split(" of 5000")[0])
    assert 1 <= finished < 5000
    assert f"\ngreedy  {finished:>5}  " in out
    assert "Traceback" not in err
