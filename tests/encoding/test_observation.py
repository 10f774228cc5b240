"""Observation tensors (issue 13): contents against the state, seat rotation, bounds."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacru
from pacru import ChevronState
from pacru import strategies as pst
from pacru.chevron.rules import SUPPLY
from pacru.encoding import Encoding


def _fields(plane: np.ndarray) -> int:
    """The bitboard of the fields set in a 9 x 9 plane."""
    return sum(1 << int(f) for f in np.flatnonzero(plane))


@given(data=st.data())
@settings(max_examples=60)
def test_chevron_planes_hold_the_position(data: Any) -> None:
    state = data.draw(pst.states(pacru.CHEVRON_GAMES, max_plies=60))
    if state.is_terminal:
        return
    assert isinstance(state, ChevronState)
    enc = Encoding.of(state)
    names = enc.plane_names()
    p = len(state.players)
    decision = enc.start(state)
    while not decision.done and data.draw(st.booleans()):
        decision = decision.choose(data.draw(st.sampled_from(decision.legal_actions)))
    viewer = data.draw(st.integers(0, p - 1))
    obs = enc.observation(decision, viewer)
    assert obs.shape == enc.observation_shape
    assert obs.dtype == np.float32
    assert set(np.unique(obs[: 12 * p + 23])) <= {0.0, 1.0}  # the binary planes
    for seat in range(p):
        r = (seat - viewer) % p
        assert _fields(obs[names.index(f"markers seat {r}")]) == state.markers[seat]
        codes = sorted(
            f * 8 + d
            for d, name in enumerate(("N", "NE", "E", "SE", "S", "SW", "W", "NW"))
            for f in np.flatnonzero(obs[names.index(f"chevrons seat {r} facing {name}")])
        )
        assert tuple(codes) == state.chevrons[seat]
        out = obs[names.index(f"out seat {r}")]
        assert out.min() == out.max() == float(state.out >> seat & 1)
        supply = obs[names.index(f"supply seat {r}")]
        expected = 0.0
        if state.rules.pacru:
            expected = (SUPPLY[p] - state.markers[seat].bit_count()) / SUPPLY[p]
        assert supply.min() == supply.max() == pytest.approx(expected)
    mover = obs[names.index(f"to move seat {(state.to_move - viewer) % p}")]
    assert mover.min() == 1.0
    game = obs[names.index(f"game {state.game}")]
    assert game.min() == 1.0
    deciding = [obs[names.index(f"deciding {k}")].max() for k in ("origin", "target", "twist")]
    deciding += [obs[names.index(f"deciding {k}")].max() for k in ("benefit", "meeting")]
    deciding.append(obs[names.index("deciding relinquish")].max())
    assert sum(deciding) == (0.0 if decision.done else 1.0)
    if decision.prefix and decision.prefix[0] > 0:
        assert np.flatnonzero(obs[names.index("chosen origin")]).tolist() == [
            decision.prefix[0] - 1
        ]
    ply = obs[names.index("ply")]
    scale = enc.max_game_length or 1000
    assert ply.min() == pytest.approx(min(state.ply / scale, 1.0))


def test_observation_is_a_fresh_array() -> None:
    state = pacru.new_game("pacru", 3)
    enc = Encoding.of(state)
    d = enc.start(state)
    a = enc.observation(d, 1)
    b = enc.observation(d, 1)
    assert a is not b
    assert np.array_equal(a, b)
    a[:] = 7.0
    assert not np.array_equal(a, enc.observation(d, 1))


@pytest.mark.parametrize(
    ("game", "options"),
    [("lilacru", {"idle_rounds": 2}), ("shacru", {"idle_rounds": 1}), ("pacru", {"move_cap": 30})],
)
def test_games_end_within_max_game_length(game: str, options: dict[str, Any]) -> None:
    """D32, D33: the bound holds for random games played through decisions."""
    rng = random.Random(5)
    for players in (2, 3, 4):
        state = pacru.new_game(game, players, **options)
        enc = Encoding.of(state)
        bound = enc.max_game_length
        assert bound is not None
        while not state.is_terminal:
            d = enc.start(state)
            while not d.done:
                d = d.choose(rng.choice(d.legal_actions))
            state = state.apply_move(d.move)
        assert isinstance(state, ChevronState)
        assert state.ply <= bound
