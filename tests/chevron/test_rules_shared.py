"""Rules are values: the games started with the same options share one ``Rules`` object."""

from __future__ import annotations

import pickle
from typing import Any

from pacru import ChevronState, new_game


def rules(game: str, players: int, **options: Any) -> object:
    state = new_game(game, players, **options)
    assert isinstance(state, ChevronState)
    return state.rules


def test_equal_options_give_one_rules_object() -> None:
    assert rules("pacru", 2) is rules("pacru", 4)
    assert rules("pacru", 2, move_cap=300) is rules("pacru", 3, move_cap=300)
    assert rules("shacru", 2, idle_rounds=5) is rules("shacru", 2, idle_rounds=5)


def test_other_options_or_games_give_other_rules() -> None:
    assert rules("pacru", 2) is not rules("pacru", 2, move_cap=300)
    assert rules("pacru", 2) != rules("pacru", 2, meeting_rule="original")
    assert rules("lilacru", 2) != rules("shacru", 2)


def test_a_loaded_state_shares_its_rules() -> None:
    state = new_game("azacru", 3, move_cap=120)
    loaded = pickle.loads(pickle.dumps(state))
    assert loaded.rules is rules("azacru", 3, move_cap=120)
