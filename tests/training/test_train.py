"""``pacru train``: the rounds, the files, resuming after a kill, the settings' checks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from pacru.bots import NetworkBot
from pacru.bots.network import load_network
from pacru.cli import main
from pacru.training import TrainSettings
from pacru.training.model import SPARSE_INPUTS, targets
from pacru.training.run import train

TINY = TrainSettings(
    seed=3, rounds=2, games=2, nodes=60, every=3, epochs=1, hidden=8, hidden2=4,
    configs=("shacru-2", "pacru-2"),
)


def _quiet(line: str) -> None:
    pass


def test_a_run_writes_each_rounds_samples_and_network(tmp_path: Path) -> None:
    final = train(tmp_path, TINY, report=_quiet)
    assert final == tmp_path / "network.bin"
    for k in (1, 2):
        for config in TINY.configs:
            table = pq.read_table(tmp_path / f"round-{k}" / f"{config}.parquet")
            assert table.column_names == ["active", "features", "result", "value"]
            assert len(table) > 0
            active = table.column("active").to_pylist()
            assert all(0 <= i < SPARSE_INPUTS for row in active for i in row)
            assert all(len(f) == 15 for f in table.column("features").to_pylist())
            assert set(table.column("result").to_pylist()) <= {0.0, 0.5, 1.0}
            # Two players: the search's value for the mover, negated for the other seat.
            values = table.column("value").to_numpy()
            assert np.isfinite(values).all()
            assert (values[0::2] == -values[1::2]).all()
        figures = json.loads((tmp_path / f"round-{k}" / "figures.json").read_text())
        assert figures["samples"] > 0
        assert figures["held_out_log_loss"] > 0
    assert final.read_bytes() == (tmp_path / "round-2" / "network.bin").read_bytes()
    network = load_network(final)
    assert (network.hidden, network.hidden2) == (8, 4)
    bot = NetworkBot(seed=1, nodes=100, network=final)
    import pacru

    state = pacru.new_game("pacru")
    assert state.is_legal(bot.choose_move(state))


def test_a_killed_run_goes_on_to_the_same_network(tmp_path: Path) -> None:
    whole = train(tmp_path / "whole", TINY, report=_quiet).read_bytes()
    part = tmp_path / "part"
    train(part, TINY, report=_quiet)
    # As if killed while fitting round 2 and playing pacru-2 of round 2.
    (part / "round-2" / "network.bin").unlink()
    (part / "round-2" / "pacru-2.parquet").unlink()
    (part / "network.bin").unlink()
    lines: list[str] = []
    assert train(part, TINY, report=lines.append).read_bytes() == whole
    assert lines[0] == f"round 1: done before ({part / 'round-1' / 'network.bin'})"
    assert not any("shacru-2" in line for line in lines)  # kept, not played again


def test_samples_of_more_than_two_players_have_no_search_value(tmp_path: Path) -> None:
    settings = TrainSettings(seed=5, rounds=1, games=1, nodes=30, epochs=1, hidden=4,
                             hidden2=2, value_weight=0.5, configs=("pacru-3",))
    train(tmp_path, settings, report=_quiet)
    table = pq.read_table(tmp_path / "round-1" / "pacru-3.parquet")
    assert len(table) > 0
    assert np.isnan(table.column("value").to_numpy()).all()


def test_sampled_positions_have_each_seat_to_move() -> None:
    # Every 2nd ply at two players: game 0 samples the even plies (seat 0 to move), game 1
    # the odd ones (seat 1 to move), so the network sees both seats to move.
    from pacru.chevron.engine import SEARCH
    from pacru.training.data import play_round

    play = SEARCH.self_player()
    assert play is not None
    table, _ = play_round(play, "pacru-2", games=2, seed=7, nodes=30, epsilon=0.1, every=2,
                          network=None, jobs=2)
    to_move = SPARSE_INPUTS - 16  # the first "player to move" input, then the game's 12
    # Seat 0's view (the first of each pair): the player to move, numbered from seat 0.
    movers = [
        next(i - to_move for i in row if to_move <= i < to_move + 4)
        for row in table.column("active").to_pylist()[0::2]
    ]
    first = movers.count(0)
    assert 0 < first < len(movers)
    assert movers == [0] * first + [1] * (len(movers) - first)


def test_targets_blend_the_search_value_with_the_result() -> None:
    results = np.array([1.0, 0.0, 0.5, 1.0, 0.0], np.float32)
    values = np.array([0.0, np.log(3.0), 1000.0, np.nan, -999.5], np.float32)
    # Chances 0.5, 0.75, 1, (none), 0.
    blended = targets(results, values, 0.8)
    assert blended.dtype == np.float32
    assert blended.tolist() == pytest.approx([0.6, 0.6, 0.9, 1.0, 0.0])
    assert targets(results, values, 0.0).tolist() == results.tolist()
    assert targets(results, values, 1.0).tolist() == pytest.approx([0.5, 0.75, 1.0, 1.0, 0.0])


def test_a_folder_of_another_run_is_refused(tmp_path: Path) -> None:
    train(tmp_path, TrainSettings(seed=3, rounds=1, games=1, nodes=30, epochs=1,
                                  configs=("lilacru-2",)), report=_quiet)
    with pytest.raises(ValueError, match="holds a run with other settings"):
        train(tmp_path, TrainSettings(seed=4, rounds=1, games=1, nodes=30, epochs=1,
                                      configs=("lilacru-2",)), report=_quiet)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 0}, "games must be a positive number"),
        ({"epsilon": 1.5}, "epsilon must be in 0..1"),
        ({"value_weight": -0.1}, "value_weight must be in 0..1"),
        ({"value_weight": 2}, "value_weight must be in 0..1"),
        ({"configs": ("chess-2",)}, "a configuration is a chevron game"),
        ({"configs": ("pacru-5",)}, "a configuration is a chevron game"),
        ({"configs": ()}, "at least one configuration"),
    ],
)
def test_settings_out_of_range_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrainSettings(**changes)  # type: ignore[arg-type]


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["train", "--help"])
    assert stop.value.code == 0
    help_text = capsys.readouterr().out
    assert "--rounds ROUNDS" in help_text
    assert "--value-weight VALUE_WEIGHT" in help_text
    assert "(default 2)" in help_text
    out = tmp_path / "run"
    args = ["train", str(out), "--rounds", "1", "--games", "1", "--nodes", "30", "--epochs",
            "1", "--configs", "azacru-2", "--no-progress"]
    assert main(args) == 0
    assert capsys.readouterr().out.strip() == str(out / "network.bin")
    assert main([*args[:3], "2", *args[4:]]) == 2
    assert "holds a run with other settings" in capsys.readouterr().err
    assert main(["train", str(tmp_path / "x"), "--configs", "go-2"]) == 2
    assert "a configuration is a chevron game" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--device", "tpu"], "--device tpu: not a PyTorch device, such as cpu or cuda"),
        (["--rounds", "0"], "--rounds must be a positive number, not 0"),
        (["--value-weight", "3"], "--value-weight must be in 0..1, not 3.0"),
    ],
)
def test_the_command_refuses_bad_options_in_one_line_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str], message: str
) -> None:
    """A bad --device was a PyTorch traceback once the run had started; the settings' errors
    name the flags."""
    assert main(["train", str(tmp_path / "run"), *option, "--no-progress"]) == 2
    assert capsys.readouterr() == ("", f"pacru: error: {message}\n")
    assert not (tmp_path / "run").exists()
