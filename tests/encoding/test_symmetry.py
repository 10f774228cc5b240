"""pacru.encoding.symmetry: the 8 board symmetries carry decisions to their images exactly."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import pacru
from pacru.bots import sample_move
from pacru.encoding import Decision, Encoding
from pacru.encoding.chevron import RELINQUISH
from pacru.encoding.symmetry import SYMMETRIES, Symmetry
from pacru.geometry import FIELD_NAMES


def _decisions(game: str, players: int, seed: int, plies: int) -> list[Decision]:
    """Decisions of a random game: every move's first, and its later ones but relinquishes."""
    rng = random.Random(seed)
    state: Any = pacru.new_game(game, players)
    encoding = Encoding.of(state)
    out = []
    for _ in range(plies):
        if state.is_terminal:
            break
        decision = encoding.start(state)
        move = sample_move(state, rng)
        for action in encoding.actions(state, move):
            if decision.move is not None:
                break
            if not any(a >= RELINQUISH for a in decision.prefix):
                out.append(decision)
            decision = decision.choose(action)
        state = state.apply_move(move)
    return out


def _image_decision(decision: Decision, sym: Symmetry) -> Decision:
    state = decision.state
    image = pacru.from_position(sym.position(state.to_position()))
    encoding = Encoding.of(image)
    out = encoding.start(image)
    for action in decision.prefix:
        out = out.choose(sym.action_permutation[action])
    return out


def test_there_are_eight_distinct_permutations_of_fields_and_actions() -> None:
    assert len(SYMMETRIES) == 8
    assert len({s.fields for s in SYMMETRIES}) == 8
    for s in SYMMETRIES:
        assert sorted(s.fields) == list(range(81))
        assert sorted(s.action_permutation) == list(range(415))
        assert sorted(s.directions) == list(range(8))
    identity = SYMMETRIES[0]
    assert identity.action_permutation == tuple(range(415))
    assert FIELD_NAMES[SYMMETRIES[2].field(0)] == "i9"  # the half turn
    mirror = next(s for s in SYMMETRIES if s.name == "mirror-files")
    assert mirror.action_permutation[163:170] == (166, 165, 164, 163, 169, 168, 167)


@pytest.mark.parametrize(("game", "players"), [("pacru", 2), ("shacru", 3), ("azacru", 4)])
def test_observation_mask_and_moves_map_onto_the_image_positions(game: str, players: int) -> None:
    decisions = _decisions(game, players, seed=players, plies=30)
    assert len(decisions) > 30
    for sym in SYMMETRIES:
        for decision in decisions[::3]:
            encoding = decision.encoding
            image = _image_decision(decision, sym)
            player = decision.player
            assert image.player == player
            observation = encoding.observation(decision, player)
            assert np.array_equal(
                sym.observation(observation, encoding), encoding.observation(image, player)
            )
            assert np.array_equal(
                sym.action_mask(decision.legal_action_mask()), image.legal_action_mask()
            )
            assert sorted(sym.actions(list(decision.legal_actions)).tolist()) == list(
                image.legal_actions
            )
        # Moves too: the image of a position's legal moves are the image's.
        state = decisions[-1].state
        image_state = pacru.from_position(sym.position(state.to_position()))
        assert {sym.move(m) for m in state.legal_moves()} == set(image_state.legal_moves())


def test_lsd_has_no_board_symmetry() -> None:
    encoding = Encoding.for_game("lsd", 2)
    with pytest.raises(ValueError, match="only the chevron games"):
        SYMMETRIES[1].observation(np.zeros(encoding.observation_shape), encoding)
