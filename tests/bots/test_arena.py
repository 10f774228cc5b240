"""The match runner: :mod:`pacru.bots.arena` and ``pacru match``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import pacru
from pacru.bots.arena import (
    GameResult,
    GameTask,
    MatchResult,
    default_labels,
    game_seed,
    mean_interval,
    play_task,
    run_match,
    wilson_interval,
)
from pacru.cli import main
from pacru.records import read_record


def test_wilson_interval_values() -> None:
    """Textbook values: 5/10 -> [0.2366, 0.7634]; 0/10 -> [0, 0.2775]; 10/10 -> [0.7225, 1]."""
    assert wilson_interval(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277532), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.722468, 1.0), abs=1e-6)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_values() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert (low, high) == pytest.approx((2.5 - 1.959964 * 0.645497, 2.5 + 1.959964 * 0.645497))
    assert mean_interval([7.0]) == (7.0, 7.0, 7.0)


def test_seats_rotate_and_seeds_are_stable() -> None:
    task = GameTask(4, "shacru", 3, (), ("a", "b", "c"), 9)
    assert task.seats == (1, 2, 0)
    assert game_seed(9, 4, 1) == game_seed(9, 4, 1) != game_seed(9, 4, 2)
    assert game_seed(0, 0, 0) == 8837464163559789809


def test_default_labels_number_repeated_specs() -> None:
    assert default_labels(["mcts", "random", "random"]) == ("mcts", "random#1", "random#2")


def _check_adds_up(result: MatchResult, games: int, players: int) -> None:
    for seat in result.seat_stats():
        assert seat.games == games == seat.wins + seat.shared + seat.draws + seat.losses
    for entry in result.entry_stats():
        assert entry.games == games == entry.wins + entry.shared + entry.draws + entry.losses
        assert entry.win_low <= entry.win_rate <= entry.win_high
    sole = sum(e.wins for e in result.entry_stats())
    shared_games = sum(1 for g in result.games if len(g.winners) > 1)
    draws = sum(1 for g in result.games if not g.winners)
    assert sole + shared_games + draws == games
    assert sum(s.wins for s in result.seat_stats()) == sole
    assert sum(e.points for e in result.entry_stats()) * games == pytest.approx(games - draws)
    for g in result.games:
        assert sorted(g.seats) == list(range(players))


@pytest.mark.parametrize("game", ["shacru", "lsd"])
def test_match_tables_add_up_and_do_not_depend_on_workers(game: str) -> None:
    specs = ["greedy", "random", "random:uniform=moves"]
    one = run_match(game, specs, 6, workers=1, seed=3)
    two = run_match(game, specs, 6, workers=2, seed=3)
    _check_adds_up(one, 6, 3)
    assert [attrs_tuple(g) for g in one.games] == [attrs_tuple(g) for g in two.games]
    assert one.labels == ("greedy", "random", "random:uniform=moves")


def attrs_tuple(g: GameResult) -> tuple[object, ...]:
    return (g.index, g.seats, g.colours, g.winners, g.scores, g.termination, g.plies)


def test_a_game_can_be_replayed_alone() -> None:
    """Game 2 of a match is the same when played on its own (its seeds depend on it only)."""
    match = run_match("shacru", ["greedy", "random"], 3, seed=11)
    alone = play_task(GameTask(2, "shacru", 2, (), ("greedy", "random"), 11))
    assert attrs_tuple(alone) == attrs_tuple(match.games[2])


def test_max_plies_stops_a_game_as_a_draw() -> None:
    result = run_match("pacru", ["random", "random"], 2, seed=1, max_plies=5)
    assert [(g.termination, g.plies, g.winners) for g in result.games] == [
        ("max-plies", 5, ()),
        ("max-plies", 5, ()),
    ]
    _check_adds_up(result, 2, 2)
    assert [e.draws for e in result.entry_stats()] == [2, 2]


def test_bad_match_arguments() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_match("shacru", ["random", "deep-blue"], 2)
    with pytest.raises(ValueError, match="played by 2, 3 or 4 players"):
        run_match("shacru", ["random"], 2)
    with pytest.raises(ValueError, match="must be positive"):
        run_match("shacru", ["random", "random"], 0)


def test_cli_match_prints_tables_and_writes_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "games"
    out_json = tmp_path / "match.json"
    status = main(
        [
            "match", "--game", "shacru", "--bot", "greedy", "--bot", "random",
            "--games", "2", "--seed", "5", "--record", str(out_dir),
            "--json", str(out_json), "--no-progress",
        ]
    )  # fmt: skip
    assert status == 0
    text = capsys.readouterr().out
    assert "shacru, 2 players, 2 games, seed 5: greedy vs random" in text
    assert "win rate [95% Wilson]" in text
    assert "seat  games  wins  shared  draws  losses" in text
    data = json.loads(out_json.read_text())
    assert data["bots"] == ["greedy", "random"]
    assert [e["games"] for e in data["entries"]] == [2, 2]
    files = sorted(p.name for p in out_dir.iterdir())
    assert files == ["game-0001.pgn", "game-0002.pgn"]
    record = read_record((out_dir / "game-0002.pgn").read_text())
    final = record.replay()
    game = data["games"][1]
    assert final.outcome is not None
    assert [final.players.index(w) for w in final.outcome.winners] == game["winners"]
    assert len(record.moves) == final.ply == game["plies"]
    assert record.names == {final.players[0]: "random", final.players[1]: "greedy"}


def test_cli_match_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--game", "shacru", "--players", "3", "--bot", "random"]) == 2
    assert "3 players need 3 --bot options, not 1" in capsys.readouterr().err
    assert main(["match", "--game", "shacru", "--bot", "random", "--bot", "mcts:x=1"]) == 2
    assert "mcts has no parameter 'x'" in capsys.readouterr().err
    two = ["match", "--game", "shacru", "--bot", "random", "--bot", "random"]
    assert main([*two, "--games", "0"]) == 2
    assert "--games and --max-plies must be positive" in capsys.readouterr().err
    assert main([*two, "--workers", "0"]) == 2
    assert "--workers must be positive" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-n", "5", *["--bot", "random"] * 5], "pacru is played by 2, 3 or 4 players, not 5"),
        (["--meeting-rule", "x"], "--meeting-rule must be one of 2011, original, not 'x'"),
        (
            ["--game", "lsd", "--move-cap", "9"],
            "--move-cap: an option of the chevron games only, not of lsd",
        ),
    ],
)
def test_cli_match_refuses_a_bad_setup_before_its_heading(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad player count or game option is one line of error, before the match's heading."""
    two = [] if "-n" in argv else ["--bot", "random", "--bot", "random"]
    game = [] if "--game" in argv else ["--game", "pacru"]
    assert main(["match", *game, *two, *argv, "--games", "2", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"pacru: error: {message}\n")


def test_cli_plain_progress_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal the progress is one plain line per game on standard error."""
    assert (
        main(["match", "--game", "lsd", "--bot", "random", "--bot", "random", "--games", "2"]) == 0
    )
    err = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in err] == ["game 1/2", "game 2/2"]


def test_new_game_is_unchanged_by_matches() -> None:
    """The runner builds its own states; the library's start position is untouched."""
    before = pacru.new_game("shacru").to_position()
    run_match("shacru", ["random", "random"], 1, seed=0)
    assert pacru.new_game("shacru").to_position() == before


def test_games_pair_up_with_seats_swapped_on_the_same_start() -> None:
    """Games 2k and 2k + 1 (a pair of ``--sprt``): the same start and colours, the two
    entries on swapped seats."""
    result = run_match("shacru", ["greedy", "random"], 4, seed=2)
    for first, second in zip(result.games[::2], result.games[1::2], strict=True):
        assert (first.index + 1, first.seats, second.seats) == (second.index, (0, 1), (1, 0))
        assert first.colours == second.colours == pacru.new_game("shacru").players


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_ends_the_match_where_it_first_returns_true(workers: int) -> None:
    """``stop`` sees the first k games for k = 1, 2, ... in turn, whatever order the games
    finish in, and the match keeps exactly the games up to the first k it accepts."""
    seen: list[int] = []

    def stop(games: tuple[GameResult, ...]) -> bool:
        assert [g.index for g in games] == list(range(len(games)))
        seen.append(len(games))
        return len(games) == 3

    result = run_match("lsd", ["random", "greedy"], 8, seed=4, workers=workers, stop=stop)
    assert seen == [1, 2, 3]
    full = run_match("lsd", ["random", "greedy"], 8, seed=4)
    assert [attrs_tuple(g) for g in result.games] == [attrs_tuple(g) for g in full.games[:3]]
    never = run_match("lsd", ["random", "greedy"], 2, seed=4, stop=lambda games: False)
    assert len(never.games) == 2


SPRT_CLI = ["match", "lilacru", "--bot", "greedy", "--bot", "random", "--seed", "1"]


def test_cli_match_sprt_stops_at_a_crossed_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "sprt.json"
    options = ["--games", "8", "--sprt=0,400", "--elo-model", "logistic", "--alpha", "0.2"]
    args = [*SPRT_CLI, *options, "--beta", "0.2", "--no-progress", "--json", str(out_json)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "lilacru, 2 players, up to 8 games (SPRT), seed 1: greedy vs random" in text
    assert text.endswith(
        "\nSPRT of greedy against random: logistic Elo, elo0 0, elo1 400, alpha 0.2, beta 0.2\n"
        "LLR: 1.79 (-1.39, 1.39): H1 accepted; stopped after 6 of 8 games\n"
        "Elo: 1199.83 ± 295.16 (95%), LOS: 100.0%, nElo: 4911.30 ± 277.82 (95%)\n"
        "Ptnml(0-2): 0, 0, 0, 0, 3 (3 pairs of games, seats swapped)\n"
    )
    data = json.loads(out_json.read_text())
    assert len(data["games"]) == 6
    assert [e["games"] for e in data["entries"]] == [6, 6]
    sprt = data["sprt"]
    assert sprt["pentanomial"] == [0, 0, 0, 0, 3]
    assert (sprt["pairs"], sprt["games"], sprt["max_games"]) == (3, 6, 8)
    assert (sprt["model"], sprt["elo0"], sprt["elo1"]) == ("logistic", 0.0, 400.0)
    assert (sprt["alpha"], sprt["beta"], sprt["verdict"]) == (0.2, 0.2, "H1 accepted")
    assert sprt["llr"] == pytest.approx(1.7935867308, abs=1e-9)
    assert sprt["upper"] == pytest.approx(math.log(4))


def test_cli_match_sprt_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """``--sprt`` alone: nElo 0 against 10, alpha = beta = 0.05; the first bot's score."""
    args = ["match", "lilacru", "--bot", "random", "--bot", "greedy", "--seed", "3"]
    assert main([*args, "--games", "4", "--sprt", "--no-progress"]) == 0
    assert capsys.readouterr().out.endswith(
        "\nSPRT of random against greedy: normalized Elo, elo0 0, elo1 10, alpha 0.05, beta 0.05\n"
        "LLR: -0.08 (-2.94, 2.94): continue\n"
        "Elo: -1161.37 ± 331.60 (95%), LOS: 0.0%, nElo: -4009.17 ± 340.14 (95%)\n"
        "Ptnml(0-2): 2, 0, 0, 0, 0 (2 pairs of games, seats swapped)\n"
    )


def test_cli_match_sprt_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["--games", "3", "--sprt"], "--sprt plays games in pairs (seats swapped): --games 3 is"),
        (["--sprt=1,2,3"], "--sprt takes ELO0,ELO1 such as 0,10, not '1,2,3'"),
        (["--sprt=10,0"], "--sprt: elo0 must be below elo1, not 10.0 and 0.0"),
        (["--sprt", "--alpha", "0.6", "--beta", "0.5"], "--sprt: alpha and beta lie in (0, 1)"),
        (["--alpha", "0.1", "--elo-model", "logistic"], "--alpha, --elo-model only go with --sprt"),
    ]
    for extra, message in cases:
        assert main([*SPRT_CLI, *extra]) == 2, extra
        assert message in capsys.readouterr().err
    three = ["match", "lilacru", "-n", "3", "--bot", "random", "--bot", "random", "--bot", "random"]
    assert main([*three, "--games", "2", "--sprt"]) == 2
    assert "--sprt tests 2 players, not 3" in capsys.readouterr().err
