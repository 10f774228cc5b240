"""``pacru ladder`` and :mod:`pacru.bots.ladder`: a seeded round robin reproduces exactly."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import attrs
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
        "bot                   elo        [95%]  games  wins  shared  draws  losses  openskill",
        "--------------------  ---  -----------  -----  ----  ------  -----  ------  ---------",
        "greedy                398     [0, 398]      4     4       0      0       0      10.88",
        "greedy:objective=own  199  [-163, 280]      4     2       0      0       2       3.19",
        "random                  0       [0, 0]      4     0       0      0       4      -5.95",
        "Elo relative to random = 0.",
        "",
        "Head to head: the row's pairwise wins-draws-losses against each column",
        "bot                          1      2      3",
        "-----------------------  -----  -----  -----",
        "1. greedy                    -  2-0-0  2-0-0",
        "2. greedy:objective=own  0-0-2      -  2-0-0",
        "3. random                0-0-2  0-0-2      -",
    ]
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert (data["seed"], data["anchor"]) == (3, "random")
    assert [Standing(**s).label for s in data["standings"]] == [
        "greedy",
        "greedy:objective=own",
        "random",
    ]


def test_cli_ladder_without_random_says_the_mean_is_0_and_names_own_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No ``random``: the mean of the ratings is 0, and the output, the JSON and the picture
    say so. Your own class is labelled by its bot's ``name``, not by its import path."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # main() puts the folder on it
    (tmp_path / "my_ladder_bots.py").write_text(
        "from pacru.bots import GreedyBot\n\n"
        "class SampledGreedy(GreedyBot):\n"
        "    def __init__(self, seed=None):\n"
        "        super().__init__(seed, objective='own', name='sampled-greedy')\n",
        encoding="utf-8",
    )
    argv = ["ladder", "lilacru", "--bot", "greedy", "--bot", "my_ladder_bots:SampledGreedy"]
    argv += ["--games", "2", "--seed", "3", "--no-progress", "--out", str(tmp_path / "out")]
    assert main(argv) == 0, capsys.readouterr().err
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("2 games, seed 3: greedy, sampled-greedy")
    assert [line.split()[0] for line in lines[4:6]] == ["greedy", "sampled-greedy"]
    elo = [int(line.split()[1]) for line in lines[4:6]]
    assert elo[0] == -elo[1] > 0  # the mean is 0
    assert lines[6] == (
        "Elo relative to the mean of the bots = 0 (no random bot to anchor the scale)."
    )
    data = json.loads((tmp_path / "out" / "ladder.json").read_text())
    assert data["anchor"] is None
    assert [s["label"] for s in data["standings"]] == ["greedy", "sampled-greedy"]
    svg = (tmp_path / "out" / "ratings.svg").read_text()
    assert ">Elo, the mean of the bots = 0 (95% bootstrap interval)<" in svg


def test_cli_ladder_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Refused before the heading: the error is the only output.
    assert main(["ladder", "pacru", "--bot", "random", "--players", "3", "--seed", "1"]) == 2
    assert capsys.readouterr() == (
        "",
        "pacru: error: a ladder of 3-player games needs at least 3 bots\n",
    )
    assert main(["ladder", "pacru", "--bot", "random", "--bot", "random", "--move-cap", "0"]) == 2
    assert capsys.readouterr() == (
        "",
        "pacru: error: --move-cap must be a positive number of plies, not 0\n",
    )
    assert main(["ladder", "pacru", "--bot", "random", "--bot", "deep-blue"]) == 2
    assert "unknown bot 'deep-blue'" in capsys.readouterr().err
    assert main(["ladder", "pacru", "--bot", "random", "--bot", "random", "--games", "0"]) == 2
    assert "--games and --max-plies must be positive" in capsys.readouterr().err
    taken = tmp_path / "taken"
    taken.write_text("")
    assert main(["ladder", "lsd", "--bot", "random", "--bot", "random", "--out", str(taken)]) == 2
    assert capsys.readouterr() == ("", f"pacru: error: --out {taken}: is a file, not a folder\n")


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


def test_elo_is_a_bradley_terry_fit_with_random_at_zero() -> None:
    from pacru.bots.ratings import fit_elo, pairwise

    assert pairwise([2, 0, 1], [0, 2]) == [(2, 0, 1.0), (2, 1, 0.5), (1, 0, 1.0)]
    assert pairwise([0, 1, 2, 3], [3]) == [(3, 0, 1.0), (3, 1, 1.0), (3, 2, 1.0)]
    # 3 wins in 4 games: P = 3/4, so 400 * log10(3) points apart.
    three_of_four = [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)]
    assert fit_elo(2, three_of_four, anchor=1, prior=0) == pytest.approx([190.848502, 0.0])
    # One virtual draw: 3.5 of 5 points.
    assert fit_elo(2, three_of_four, anchor=1)[0] == pytest.approx(400 * math.log10(3.5 / 1.5))
    # A chain: 0 beats 1 as 1 beats 2 (75%), so 0 is 2 * 190.85 above 2; mean 0 without anchor.
    chain = three_of_four + [(1, 2, 1.0)] * 3 + [(2, 1, 1.0)]
    assert fit_elo(3, chain, prior=0) == pytest.approx([190.848502, 0.0, -190.848502], abs=1e-5)


def test_a_ladder_keeps_every_game_and_continues_where_it_stopped(tmp_path: Path) -> None:
    bots = ["random", "greedy", "greedy:objective=own"]
    whole = run_ladder("shacru", bots, 4, seed=5, games_file=tmp_path / "whole.jsonl")
    lines = (tmp_path / "whole.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 3 * 4
    assert json.loads(lines[0]) == {
        "pacru-ladder": 1,
        "game": "shacru",
        "players": 2,
        "seed": 5,
        "bots": bots,
        "options": {},
        "max_plies": 2000,
    }
    first = json.loads(lines[1])
    assert (first["table"], first["index"], first["bots"]) == (0, 0, ["random", "greedy"])
    assert first["record"].startswith('[Game "shacru"]')
    # Stopped after five games, the last line half written; then run again with the same file.
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:6]) + "\n" + lines[6][:40])
    played: list[int] = []
    resumed = run_ladder(
        "shacru", bots, 4, seed=5, games_file=cut, progress=lambda g: played.append(g.index)
    )
    assert len(played) == 12 - 5

    def games(ladder: object) -> list[object]:  # the same games, but for the seconds they took
        return [attrs.evolve(g, seconds=0.0) for m in ladder.matches for g in m.games]  # type: ignore[attr-defined]

    assert games(resumed) == games(whole)
    assert resumed.standings() == whole.standings()
    assert len(cut.read_text().splitlines()) == 13
    # More games per table: only the new ones are played.
    played.clear()
    more = run_ladder(
        "shacru", bots, 6, seed=5, games_file=cut, progress=lambda g: played.append(0)
    )
    assert len(played) == 6
    assert more.standings() == run_ladder("shacru", bots, 6, seed=5).standings()
    with pytest.raises(ValueError, match=r"holds the games of another ladder \(its seed differ"):
        run_ladder("shacru", bots, 4, seed=6, games_file=cut)


def test_head_to_head_and_elo_standings() -> None:
    ladder = run_ladder("lilacru", ["greedy", "random", "greedy:objective=own"], 2, seed=3)
    rows = [
        (h.label, h.opponent, h.games, h.wins, h.draws, h.losses) for h in ladder.head_to_head()
    ]
    assert rows == [
        ("greedy", "random", 2, 2, 0, 0),
        ("greedy", "greedy:objective=own", 2, 2, 0, 0),
        ("random", "greedy", 2, 0, 0, 2),
        ("random", "greedy:objective=own", 2, 0, 0, 2),
        ("greedy:objective=own", "greedy", 2, 0, 0, 2),
        ("greedy:objective=own", "random", 2, 2, 0, 0),
    ]
    assert ladder.anchor() == 1
    elo = ladder.elo()
    assert elo[1].elo == elo[1].low == elo[1].high == 0.0
    assert elo[0].elo > elo[2].elo > 0
    # Two games a pair: wide intervals, and a clean sweep's top is its rating (the most
    # the virtual draw allows), the parametric bootstrap's draws never doing better.
    assert [(round(e.low), round(e.elo), round(e.high)) for e in elo] == [
        (0, 398, 398),
        (0, 0, 0),
        (-163, 199, 280),
    ]
    assert ladder.elo() == elo  # seeded by the ladder seed


def test_the_ratings_picture() -> None:
    from pacru.bots.ratings import EloRating, ratings_svg

    svg = ratings_svg([EloRating("random", 0, 0, 0), EloRating("a<b", 150, 90, 230)], "t")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert svg.endswith("</svg>\n")
    assert "a&lt;b" in svg
    assert ">150<" in svg  # the rating over its dot
    assert ">250<" in svg  # the last tick
    assert svg.index("a&lt;b") < svg.index(">random<")  # best first


def test_cli_ladder_out_resumes_with_the_seed_of_its_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ladder", "lilacru", "--bot", "greedy", "--bot", "random", "--games", "2"]
    argv += ["--no-progress", "--out", str(tmp_path / "out")]
    assert main([*argv, "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0  # no --seed: the seed of the games file, nothing played again
    assert capsys.readouterr().out == first
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "games.jsonl",
        "ladder.json",
        "ratings.svg",
    ]
    data = json.loads((tmp_path / "out" / "ladder.json").read_text())
    assert data["seed"] == 3
    assert [h["label"] for h in data["head_to_head"]] == ["greedy", "random"]


def test_bootstrap_intervals_narrow_with_more_games() -> None:
    from pacru.bots.ratings import bootstrap_elo

    def ratings(games: int) -> list[tuple[float, float, float]]:
        results = [(0, 1, 1.0)] * (3 * games) + [(0, 1, 0.0)] * games  # 75%
        return [(r.low, r.elo, r.high) for r in bootstrap_elo(["a", "b"], results, anchor=1)]

    few, many = ratings(5), ratings(100)
    assert few[1] == many[1] == (0.0, 0.0, 0.0)
    assert few[0][0] < many[0][0] < many[0][1] < many[0][2] < few[0][2]
    assert many[0][1] == pytest.approx(400 * math.log10(300.5 / 100.5))
    # About +-45 around 190 at 400 games.
    assert many[0][0] > 150
    assert many[0][2] < 240
