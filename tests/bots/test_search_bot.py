"""SearchBot: the native alpha-beta search with a learned evaluation (``"search"``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import resources
from typing import Any

import numpy as np
import pytest

import pacru
from pacru import _native
from pacru.base import GameState
from pacru.bots import BOTS, SearchBot, SearchUnavailableError, make_bot, play_game
from pacru.bots.base import sample_move
from pacru.bots.search import load_weights, position_fields
from pacru.errors import GameOverError, InvalidPositionError

# numpy scalars typed as Any: the signatures say int, and these stand in for one.
numpy: Any = np

# Positions with exactly one move that wins at once (found in random games).
FORCED = [
    (
        "pacru players=green,yellow turn=yellow markers=green:c5 "
        "chevrons=green:a1S,d1S,a4N,a5S;yellow:c3NW,i3S,i5E,c9N ply=69",
        "c3-b4+b5",
    ),
    (
        "shacru players=green,yellow turn=yellow markers=green:g1,f2,g2,f3,h3,b4,e4,a5,b5,"
        "d5,a6,b6,c6,a7,d7,a8,d8,g8,b9,c9,d9,h9;yellow:d1,e1,f1,i1,b2,c2,i2,i3,g4,h4,f5,"
        "g5,h5,d6,e6,f6,g6,h6,i6,b7,c7,e7,f7,g7,h7,i7,e8,f8,h8,e9,f9,g9 "
        "chevrons=green:g1S,a5W,a6W,g8SW;yellow:f1E,i1S,h6N,e9N idle=1 ply=77",
        "h6-i7>",
    ),
]

CONFIGS = [("lilacru", 2), ("shacru", 2), ("azacru", 2), ("pacru", 2), ("pacru", 3), ("pacru", 4)]


def test_registered_by_name() -> None:
    assert BOTS["search"] is SearchBot
    bot = make_bot("search:nodes=300", seed=1)
    assert isinstance(bot, SearchBot)
    assert bot.name == "search(nodes=300)"
    assert SearchBot(seed=1, time_limit=0.05).name == "search(time_limit=0.05)"


@pytest.mark.parametrize(("position", "winning"), FORCED)
def test_plays_the_only_winning_move(position: str, winning: str) -> None:
    state: GameState[Any] = pacru.from_position(position)
    move = SearchBot(seed=3, nodes=2000).choose_move(state)
    assert str(move) == winning
    outcome = state.apply_move(move).outcome
    assert outcome is not None
    assert outcome.winners == (state.current_player,)


def _game(seed: int, game: str = "pacru", players: int = 2) -> list[str]:
    bots = [SearchBot(seed=seed + i, nodes=400) for i in range(players)]
    final = pacru.Game(pacru.new_game(game, players=players))
    play_game(final, bots, max_plies=24)
    return [str(m) for m in final.moves]


def test_same_seed_and_nodes_same_moves() -> None:
    first = _game(5)
    assert len(first) == 24
    assert first == _game(5)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_only_legal_moves_within_the_node_budget(game: str, players: int) -> None:
    import random

    rng = random.Random(7)
    state: GameState[Any] = pacru.new_game(game, players=players)
    bot = SearchBot(seed=1, nodes=300)
    checked = 0
    while state.outcome is None and checked < 12:
        move = bot.choose_move(state)
        assert move in state.legal_moves()
        assert bot.last_search[2] <= 300
        checked += 1
        for _ in range(rng.randrange(1, 8)):
            if state.outcome is None:
                state = state.apply_move(sample_move(state, rng))
    assert checked >= 3


def test_features_of_the_start_are_the_move_alone() -> None:
    # The two-player start is symmetric: every count is equal but who moves {R1}.
    for game in ("pacru", "shacru"):
        rows = _native.search_features(position_fields(pacru.new_game(game)))
        names = list(_native.SEARCH_FEATURES)
        assert len(rows) == 2
        assert len(rows[0]) == len(names)
        tempo = names.index("to_move")
        assert rows[0] == [1.0 if i == tempo else 0.0 for i in range(len(names))]
        assert rows[1] == [-1.0 if i == tempo else 0.0 for i in range(len(names))]


def test_shipped_weights_cover_every_configuration() -> None:
    names = list(_native.SEARCH_FEATURES)
    data = json.loads(
        resources.files("pacru.bots").joinpath("data", "search_weights.json").read_text()
    )
    assert data["features"] == names
    assert len(data["bootstrap"]) == len(names)
    for game, players in CONFIGS:
        assert len(data["weights"][f"{game}-{players}"]) == len(names)
        assert load_weights(game, players) == tuple(data["weights"][f"{game}-{players}"])
        assert data["training"]["configs"][f"{game}-{players}"]["games"] > 0
    # A configuration without fitted weights takes the same game's at another count.
    assert load_weights("azacru", 3) == load_weights("azacru", 2)


def test_errors() -> None:
    with pytest.raises(ValueError, match="nodes"):
        SearchBot(nodes=0)
    with pytest.raises(ValueError, match="time_limit"):
        SearchBot(time_limit=0)
    with pytest.raises(ValueError, match="depth"):
        SearchBot(depth=65)
    with pytest.raises(ValueError, match="chevron games only"):
        SearchBot(seed=1).choose_move(pacru.new_game("lsd"))
    with pytest.raises(ValueError, match="weights"):
        SearchBot(seed=1, nodes=10, weights=(1.0,)).choose_move(pacru.new_game("pacru"))
    won: GameState[Any] = pacru.from_position(FORCED[0][0]).apply_move(FORCED[0][1])
    with pytest.raises(GameOverError):
        SearchBot(seed=1).choose_move(won)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"nodes": 2**64}, "nodes must be at most 18446744073709551615, not 18446744073709551616"),
        ({"nodes": 0}, "nodes must be at least 1, not 0"),
        ({"nodes": 1e3}, "nodes must be a whole number, not 1000.0"),
        ({"time_limit": -1.0}, "time_limit must be positive, finite seconds, not -1.0"),
        ({"time_limit": float("inf")}, "time_limit must be positive, finite seconds, not inf"),
        ({"depth": 0}, "depth must be at least 1, not 0"),
        ({"depth": 65}, "depth must be at most 64, not 65"),
    ],
)
def test_a_budget_out_of_range_is_a_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        SearchBot(seed=1, **kwargs)


def test_the_largest_budgets_are_taken() -> None:
    bot = SearchBot(seed=1, nodes=2**64 - 1, time_limit=1e300, depth=numpy.int64(1))
    state = pacru.new_game("pacru")
    assert bot.choose_move(state) in state.legal_moves()
    assert bot.last_search[1] == 1
    assert type(bot.depth) is int


PLIES_END = 2**64 - 1
# The start of Pacru at a given ply.
START_AT = (
    "pacru players=green,yellow turn=green markers=- "
    "chevrons=green:e1N,a3E,i3W,i9SW;yellow:a1NE,a7E,i7W,e9S ply={}"
)


def test_at_the_last_ply_the_search_refuses_as_applying_does() -> None:
    state: GameState[Any] = pacru.from_position(START_AT.format(PLIES_END))
    assert state.outcome is None
    assert len(state.legal_moves()) == 28
    with pytest.raises(InvalidPositionError) as applying:
        state.apply_move(state.legal_moves()[0])
    with pytest.raises(InvalidPositionError) as searching:
        SearchBot(seed=1, nodes=1000).choose_move(state)
    assert str(searching.value) == str(applying.value) == f"ply cannot count past {PLIES_END}"


@pytest.mark.parametrize("before_end", [1, 2, 3, 4])
def test_near_the_last_ply_the_move_can_be_played_and_its_value_is_an_evaluation(
    before_end: int,
) -> None:
    state: GameState[Any] = pacru.from_position(START_AT.format(PLIES_END - before_end))
    bot = SearchBot(seed=1, nodes=3000)
    after = state.apply_move(bot.choose_move(state))
    assert after.ply == PLIES_END - before_end + 1
    value, depth, nodes = bot.last_search
    assert depth >= 1
    assert nodes > 0
    # Evaluations are within a logit of 100 (+ noise and idle pressure), a win 1,000,000.
    assert abs(value) <= 101_000


def test_without_the_extension_the_constructor_says_so(monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "pacru._native", None)
    monkeypatch.delattr(pacru, "_native", raising=False)
    with pytest.raises(SearchUnavailableError, match="native extension"):
        SearchBot(seed=1)


def test_plays_on_the_python_engine() -> None:
    # PACRU_ENGINE=python: the states are the Python engine's; the search still runs natively.
    code = (
        "import pacru; from pacru.bots import SearchBot; assert pacru.ENGINE == 'python'; "
        "s = pacru.new_game('pacru'); m = SearchBot(seed=1, nodes=200).choose_move(s); "
        "assert m in s.legal_moves(); print(type(s.legal_moves()).__module__, m)"
    )
    env = dict(os.environ, PACRU_ENGINE="python")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split()[0] == "pacru.chevron.movelist"
