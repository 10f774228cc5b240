"""``pacru ladder`` and :mod:`pacru.bots.ladder`: a seeded round robin reproduces exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("openskill", reason="openskill is in the test extra")

from pacru.bots.ladder import Standing, run_ladder, table_seed
from pacru.cli import main


def test_a_seeded_ladder_plays_every_pair_and_rates_exactly() -> None:
    ladder = run_ladder("lilacru", ["greedy", "random", "greedy:objective=own"], 2, seed=3)
    assert ladder.tables == ((0, 1), (0, 2), (1, 2))
    assert [[(g.seats, g.winners, g.termination) for g in m.games] for m in ladder.matches] == [
        [((0, 1), (0,), "no-moves"), ((1, 0), (1,), "no-moves")],
        [((0, 1), (0,), "no-acquisition"), ((1, 0), (1,), "no-moves")],
        [((0, 1), (1,), "no-acquisition"), ((1, 0), (0,), "no-moves")],
    ]
    standings = ladder.standings()
    assert [(s.label, s.games, s.wins, s.shared, s.draws, s.losses) for s in standings] == [
        ("greedy", 4, 4, 0, 0, 0),
        ("greedy:objective=own", 4, 2, 0, 0, 2),
        ("random", 4, 0, 0, 0, 4),
    ]
    assert [round(s.rating, 6) for s in standings] == [10.883777, 3.192904, -5.95398]
    assert all(s.rating == pytest.approx(s.mu - 3 * s.sigma) for s in standings)
    again = run_ladder("lilacru", ["greedy", "random", "greedy:objective=own"], 2, seed=3)
    assert again.standings() == standings


def test_three_player_tables_and_equal_bots() -> None:
    """Each table is a set of three bots; the two losers of a game share the second rank."""
    standings = run_ladder("pacru", ["greedy", "random", "random"], 2, players=3, seed=3)
    assert standings.tables == ((0, 1, 2),)
    lines = standings.standings()
    assert [(s.label, s.wins, s.losses) for s in lines] == [
        ("greedy", 2, 0),
        ("random#1", 0, 2),
        ("random#2", 0, 2),
    ]
    assert lines[1].rating == lines[2].rating


def test_table_seeds_differ_and_bad_ladders_fail() -> None:
    assert table_seed(1, 0) != table_seed(1, 1) != table_seed(2, 1)
    assert table_seed(1, 0) == table_seed(1, 0) < 2**63
    with pytest.raises(ValueError, match="needs at least 3 bots"):
        run_ladder("pacru", ["random", "greedy"], 2, players=3)
    with pytest.raises(ValueError, match="one label per bot"):
        run_ladder("pacru", ["random", "greedy"], 2, labels=["a"])


def test_cli_ladder_prints_the_same_table_for_the_same_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ladder", "lilacru", "--bot", "greedy", "--bot", "random"]
    argv += ["--bot", "greedy:objective=own", "--games", "2", "--seed", "3", "--no-progress"]
    assert main([*argv, "--json", str(tmp_path / "ladder.json")]) == 0
    first = capsys.readouterr().out
    assert first.splitlines() == [
        "lilacru, 2 players, 2 games per table, 6 games, seed 3: greedy, random, "
        "greedy:objective=own",
        "",
        "bot                   rating     mu  sigma  games  wins  shared  draws  losses",
        "--------------------  ------  -----  -----  -----  ----  ------  -----  ------",
        "greedy                 10.88  33.14   7.42      4     4       0      0       0",
        "greedy:objective=own    3.19  25.27   7.36      4     2       0      0       2",
        "random                 -5.95  16.14   7.36      4     0       0      0       4",
    ]
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert data["seed"] == 3
    assert [Standing(**s).label for s in data["standings"]] == [
        "greedy",
        "greedy:objective=own",
        "random",
    ]


def test_cli_ladder_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "pacru", "--bot", "random", "--players", "3", "--seed", "1"]) == 2
    assert "needs at least 3 bots" in capsys.readouterr().err
    assert main(["ladder", "pacru", "--bot", "random", "--bot", "deep-blue"]) == 2
    assert "unknown bot 'deep-blue'" in capsys.readouterr().err
    assert main(["ladder", "pacru", "--bot", "random", "--bot", "random", "--games", "0"]) == 2
    assert "--games and --max-plies must be positive" in capsys.readouterr().err


def test_cli_ladder_refuses_an_unwritable_json_path_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ladder", "shacru", "--bot", "greedy", "--bot", "random", "--no-progress"]
    missing = tmp_path / "no-such-folder" / "ladder.json"
    assert main([*argv, "--json", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no heading: nothing was played
    assert f"--json {missing}: no writable folder {missing.parent}" in captured.err
    assert main([*argv, "--json", str(tmp_path)]) == 2
    assert f"--json {tmp_path}: is a folder, not a file" in capsys.readouterr().err
