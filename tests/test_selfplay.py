"""Self-play datasets: :mod:`pacru.selfplay` and ``pacru selfplay`` (without a cluster)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import pacru
from pacru import selfplay
from pacru.bots import MCTSBot
from pacru.bots.arena import game_seed
from pacru.cli import main
from pacru.encoding import Encoding
from pacru.records import read_records
from pacru.selfplay import SCHEMA, SelfPlayRun, ShardResult, load, run_selfplay, visit_policy

LILACRU = SelfPlayRun("lilacru", 2, "random", games=5, seed=7, shard_games=2, max_plies=60)


def _rows(directory: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = load(directory).to_table().to_pylist()
    return rows


def _files(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> bytes)."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def lilacru_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """LILACRU played in this process."""
    directory = tmp_path_factory.mktemp("selfplay") / "lilacru"
    assert run_selfplay(LILACRU, directory) == [0, 1, 2]
    return directory


def test_visit_policy_shares() -> None:
    searched = [((3, 7), 6), ((3, 8), 2), ((5,), 2), ((9, 1), 0)]
    assert visit_policy(searched, (), [3, 5, 9]) == [0.8, 0.2, 0.0]
    assert visit_policy(searched, (3,), [7, 8]) == [0.75, 0.25]
    with pytest.raises(
        ValueError, match=r"no searched move with visits continues the prefix \(9,\)"
    ):
        visit_policy(searched, (9,), [1])


def test_layout_manifest_and_schema(lilacru_run: Path) -> None:
    encoding = Encoding.for_game("lilacru", 2)
    assert sorted(_files(lilacru_run)) == [
        "manifest.json",
        "records/shard-00000.pgn",
        "records/shard-00001.pgn",
        "records/shard-00002.pgn",
        "shards/shard-00000.parquet",
        "shards/shard-00001.parquet",
        "shards/shard-00002.parquet",
    ]
    manifest = json.loads((lilacru_run / "manifest.json").read_text())
    assert manifest == {
        "format": "pacru-selfplay/2",
        "game": "lilacru",
        "players": 2,
        "options": {},
        "bot": "random",
        "seed": 7,
        "games": 5,
        "shard_games": 2,
        "shards": 3,
        "max_plies": 60,
        "pacru_version": pacru.__version__,
        "encoding_version": encoding.version,
        "num_actions": encoding.num_actions,
        "observation_shape": list(encoding.observation_shape),
        "columns": {
            "game": "int64",
            "ply": "int32",
            "decision": "int32",
            "player": "int8",
            "observation": "list<item: float>",
            "legal_actions": "list<item: int32>",
            "action": "int32",
            "policy": "list<item: float>",
            "returns": "list<item: float>",
            "termination": "string",
            "truncated": "bool",
        },
    }
    dataset = load(lilacru_run)
    assert dataset.schema == SCHEMA
    assert sorted(set(dataset.to_table(columns=["game"]).column("game").to_pylist())) == [
        0,
        1,
        2,
        3,
        4,
    ]


def test_rows_are_the_decisions_of_the_recorded_games(lilacru_run: Path) -> None:
    """Replaying each record through the encoding gives exactly the rows, in order."""
    encoding = Encoding.for_game("lilacru", 2)
    size = 1
    for n in encoding.observation_shape:
        size *= n
    expected: list[dict[str, Any]] = []
    records = []
    for k in range(3):
        records += read_records((lilacru_run / "records" / f"shard-{k:05d}.pgn").read_text())
    assert [r.tag("Round") for r in records] == ["1", "2", "3", "4", "5"]
    for game, record in enumerate(records):
        assert record.tag("Event") == "pacru selfplay"
        assert record.tag("Seed") == "7"
        assert set(record.names.values()) == {"random"}
        states = record.states()
        final = states[-1]
        returns = [float(r) for r in final.returns()]
        ended = "max-plies" if final.outcome is None else final.outcome.termination.value
        if final.outcome is None:
            assert len(record.moves) == 60
            assert record.result == "*"
            assert returns == [0.0, 0.0]
        for ply, (state, text) in enumerate(zip(states, record.moves, strict=False)):
            move = next(m for m in state.legal_moves() if str(m) == text)
            actions = encoding.actions(state, move)
            decision = encoding.start(state)
            for step, action in enumerate(actions):
                observation = encoding.observation(decision, decision.player)
                assert observation.shape == encoding.observation_shape
                expected.append(
                    {
                        "game": game,
                        "ply": ply,
                        "decision": step,
                        "player": state.players.index(state.current_player),
                        "observation": observation.ravel().tolist(),
                        "legal_actions": list(decision.legal_actions),
                        "action": action,
                        "policy": [1.0 if a == action else 0.0 for a in decision.legal_actions],
                        "returns": returns,
                        "termination": ended,
                        "truncated": ended in ("max-plies", "move-cap", "idle-limit"),
                    }
                )
                decision = decision.choose(action)
            assert decision.done
            assert decision.move == move
    rows = _rows(lilacru_run)
    assert len(rows) == len(expected)
    assert rows == expected
    assert all(len(r["observation"]) == size for r in rows)


def test_same_data_with_worker_processes(lilacru_run: Path, tmp_path: Path) -> None:
    assert run_selfplay(LILACRU, tmp_path / "two", workers=2) == [0, 1, 2]
    assert _files(tmp_path / "two") == _files(lilacru_run)


def test_interrupted_run_resumes_without_redoing_finished_shards(
    lilacru_run: Path, tmp_path: Path
) -> None:
    directory = tmp_path / "run"
    done: list[int] = []

    def stop_after_first(shard: ShardResult) -> None:
        done.append(shard.index)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_selfplay(LILACRU, directory, progress=stop_after_first)
    assert done == [0]
    assert sorted(_files(directory)) == [
        "manifest.json",
        "records/shard-00000.pgn",
        "shards/shard-00000.parquet",
    ]
    first = (directory / "shards" / "shard-00000.parquet").stat().st_mtime_ns
    resumed: list[int] = []
    assert run_selfplay(LILACRU, directory, progress=lambda s: resumed.append(s.index)) == [1, 2]
    assert resumed == [1, 2]
    assert (directory / "shards" / "shard-00000.parquet").stat().st_mtime_ns == first
    assert _files(directory) == _files(lilacru_run)
    assert run_selfplay(LILACRU, directory) == []


def test_a_directory_holding_another_run_is_refused(lilacru_run: Path) -> None:
    other = SelfPlayRun("lilacru", 2, "random", games=5, seed=8, shard_games=2, max_plies=60)
    with pytest.raises(ValueError, match=r"holds a different self-play run \(differs in seed\)"):
        run_selfplay(other, lilacru_run)


def test_bad_runs_fail_before_writing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_selfplay(SelfPlayRun("lilacru", 2, "deep-blue", games=1), tmp_path / "a")
    with pytest.raises(ValueError, match="must be positive"):
        run_selfplay(SelfPlayRun("lilacru", 2, "random", games=0), tmp_path / "a")
    assert not (tmp_path / "a").exists()
    with pytest.raises(FileNotFoundError):
        load(tmp_path)


def test_mcts_policy_is_the_visit_share_of_the_search(tmp_path: Path) -> None:
    """The policy is recomputed from the same searches: the bots replay with their seeds."""
    spec = "mcts:iterations=12,rollout_cap=10"
    run = SelfPlayRun("shacru", 2, spec, games=1, seed=3, max_plies=4)
    assert run_selfplay(run, tmp_path) == [0]
    rows = _rows(tmp_path)
    encoding = Encoding.for_game("shacru", 2)
    bots = [MCTSBot(game_seed(3, 0, s), iterations=12, rollout_cap=10) for s in range(2)]
    state: Any = pacru.new_game("shacru", 2)
    expected = []
    for ply in range(4):
        seat = state.players.index(state.current_player)
        result = bots[seat].search(state)
        searched = [
            (encoding.actions(state, m), v)
            for m, v in zip(result.moves, result.visits, strict=True)
            if v > 0
        ]
        chosen = encoding.actions(state, result.best_move)
        decision = encoding.start(state)
        for step, action in enumerate(chosen):
            policy = visit_policy(searched, chosen[:step], decision.legal_actions)
            expected.append((ply, step, seat, action, pytest.approx(policy)))
            decision = decision.choose(action)
        state = state.apply_move(result.best_move)
    got = [(r["ply"], r["decision"], r["player"], r["action"], r["policy"]) for r in rows]
    assert got == expected
    assert all(sum(r["policy"]) == pytest.approx(1.0) for r in rows)
    assert any(0.0 < p < 1.0 for r in rows for p in r["policy"])


def test_cli_selfplay_writes_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "data"
    argv = ["selfplay", "lsd", "--bot", "greedy", "--games", "3", "--out", str(out)]
    argv += ["--shard-games", "2", "--max-plies", "30", "--no-progress"]
    assert main([*argv, "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert f"lsd, 2 players, greedy, 3 games in 2 shards, seed 4 -> {out}" in text
    assert "2 shards written (3 games, " in text
    direct = tmp_path / "direct"
    run_selfplay(SelfPlayRun("lsd", 2, "greedy", 3, 4, shard_games=2, max_plies=30), direct)
    assert _files(out) == _files(direct)
    # Again without --seed: the manifest's seed, nothing left to do.
    assert main(argv) == 0
    assert "0 shards written (0 games, 0 decisions), 2 already there" in capsys.readouterr().out
    assert main([*argv, "--seed", "5"]) == 2
    assert "holds a different self-play run (differs in seed)" in capsys.readouterr().err


def test_cli_selfplay_counts_games_and_endings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The progress lines (no terminal: one per shard) count games; the summary the endings."""
    argv = ["selfplay", "lsd", "--bot", "greedy", "--games", "3", "--out", str(tmp_path)]
    assert main([*argv, "--shard-games", "2", "--max-plies", "30", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "shard 0: 2 games, 77 decisions (2/3 games there)",
        "shard 1: 1 games, 26 decisions (3/3 games there)",
    ]
    assert "Endings of the games written: row 3" in captured.out


def test_cli_selfplay_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "lsd", "--bot", "random", "--games", "1", "--out", str(tmp_path)]
    assert main([*argv, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "--workers and --scheduler exclude each other" in capsys.readouterr().err
    assert main([*argv, "--workers", "0"]) == 2
    assert "--workers must be positive" in capsys.readouterr().err
    assert main([*argv[:2], "--bot", "mcts:x=1", *argv[4:]]) == 2
    assert "mcts has no parameter 'x'" in capsys.readouterr().err
    # A file where the dataset folder goes is refused before the heading.
    taken = tmp_path / "taken"
    taken.write_text("")
    assert main([*argv[:-1], str(taken)]) == 2
    assert capsys.readouterr() == ("", f"pacru: error: --out {taken}: is a file, not a folder\n")
    # The chevron games' options are refused for LSD by their flags' names.
    assert main([*argv, "--start-layout", "standard"]) == 2
    assert capsys.readouterr() == (
        "",
        "pacru: error: --start-layout: an option of the chevron games only, not of lsd\n",
    )


def test_selfplay_is_not_imported_by_pacru() -> None:
    """pyarrow comes with pacru.selfplay only (the selfplay extra)."""
    assert isinstance(selfplay.SCHEMA, pa.Schema)
    code = "import sys, pacru.cli; print('pyarrow' in sys.modules, 'distributed' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


def _ends(directory: Path) -> list[tuple[Any, ...]]:
    columns = ["game", "termination", "truncated", "returns"]
    rows = load(directory).to_table(columns=columns).to_pylist()
    return sorted(
        {(r["game"], r["termination"], r["truncated"], tuple(r["returns"])) for r in rows}
    )


def test_every_row_says_how_its_game_ended(lilacru_run: Path, tmp_path: Path) -> None:
    """termination: the Termination value or max-plies; truncated: a limit, not a rule (D32)."""
    assert [e[:3] for e in _ends(lilacru_run)] == [
        (0, "max-plies", True),
        (1, "max-plies", True),
        (2, "max-plies", True),
        (3, "no-moves", False),
        (4, "max-plies", True),
    ]
    capped = SelfPlayRun(
        "pacru", 2, "random", games=4, seed=1, shard_games=2, options={"move_cap": 70}
    )
    run_selfplay(capped, tmp_path / "capped")
    assert _ends(tmp_path / "capped") == [
        (0, "last-player", False, (1.0, -1.0)),
        (1, "last-player", False, (1.0, -1.0)),
        (2, "move-cap", True, (0.0, 0.0)),
        (3, "move-cap", True, (0.0, 0.0)),
    ]
