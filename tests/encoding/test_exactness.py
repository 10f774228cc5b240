"""Exactness of the decision encoding (issue 13): the moves reached through
``start``/``choose`` are exactly ``legal_moves()``, each by one action sequence,
and ``move(state, actions(state, m)) == m``.

Checked on random play of every game and player count, on random Pacru boards
(full borderlands {R10}, meetings {R12, D22}, reorientations {R14}), on the
positions of the two AbstractPlay games and on every rulebook scenario typed in
tests/chevron.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacru
from pacru import abstractplay as ap
from pacru import strategies as pst
from pacru.base import GameState
from pacru.encoding import Encoding
from pacru.encoding import chevron as ch

from .support import check_exact, leaves, scenario_positions, valid_positions

AP_DATA = Path(__file__).parents[1] / "data" / "abstractplay"


@pytest.mark.parametrize("game", pacru.GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@given(data=st.data())
@settings(max_examples=25)
def test_random_play(game: str, players: int, data: Any) -> None:
    state = data.draw(pst.states(game, players, max_plies=80))
    check_exact(state)


@given(state=pst.boards())
def test_random_boards(state: GameState[Any]) -> None:
    check_exact(state)


@pytest.mark.parametrize("name", ["abstractplay-pacru-2p-a.json", "abstractplay-pacru-2p-b.json"])
def test_abstractplay_games(name: str) -> None:
    data = json.loads((AP_DATA / name).read_text(encoding="utf-8"))
    state = ap.new_game("pacru", 2, legacy_2p=data["start_layout"] == "ap-legacy-2p")
    checked = 0
    for text in data["moves"]:
        checked += check_exact(state)
        state = state.apply_move(ap.parse_move(state, text))
    check_exact(state)
    assert checked > len(data["moves"])


SCENARIOS = valid_positions(scenario_positions())


def test_scenarios_found() -> None:
    # Every chevron rule test file contributes positions; a drop means the collector broke.
    assert len(SCENARIOS) >= 90
    assert {s.game for s in SCENARIOS} == set(pacru.CHEVRON_GAMES)


@pytest.mark.parametrize("state", SCENARIOS, ids=lambda s: s.to_position()[:60])
def test_rulebook_scenarios(state: GameState[Any]) -> None:
    check_exact(state)


def test_a_reorientation_family_of_thousands() -> None:
    """R14: 20 free own fields give C(20, 4) = 4845 reorientations per chevron and 90 degrees.

    Every set is reached once, choosing one field per decision in ascending order.
    """
    own = ",".join(f"{c}{r}" for r in "1234" for c in "abcde")  # 20 fields, none occupied
    state = pacru.from_position(
        f"pacru players=red,yellow markers=red:{own},e5 chevrons=red:e5N;yellow:a9SE"
    )
    assert isinstance(state, pacru.ChevronState)
    family = next(
        fam for fam in state.legal_moves().reorientations if fam.origin == 40 and fam.turn == 2
    )
    assert family.size == 4845
    enc = Encoding.of(state)
    d = enc.start(state).choose(ch.ORIGIN + 40).choose(ch.TURN + 3)
    reached = [leaf.move for leaf in leaves(d)]
    assert len(reached) == len(set(reached)) == 4845
    assert set(reached) == set(family)
    # origin, turn, then one action per relinquished field until the rest is forced:
    # a first field at position 16 of 20 leaves exactly 17, 18, 19 (not asked).
    lengths = {len(leaf.prefix) for leaf in leaves(d)}
    assert lengths == {3, 4, 5, 6}
    assert enc.actions(state, "e5>>(b4,c4,d4,e4)") == (41, 166, 334 + 28)
    assert check_exact(state) > 0
