"""pacru.vector equals pacru.encoding, row by row, over random games of every game.

Each env is followed by a reference game played with :mod:`pacru.encoding`
directly; at every step the observation, mask, current player, rewards and
end flags of each row must equal the reference's, and an ended game must
restart from the start: in the same step (``"same-step"``, the default: the end's
flags and rewards with the new game's decision) or at the next one, its action
ignored (``"next-step"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pacru.vector import VectorEnv

from .support import Reference, random_actions

# Small limits (rulings D32, D33) so that games end, and every option of new_game once.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("lilacru", 2, {"idle_rounds": 2}),
    ("lilacru", 3, {"idle_rounds": 3, "first_player": "yellow"}),
    ("lilacru", 4, {"start_layout": "abstractplay", "idle_rounds": 2}),
    ("shacru", 2, {"idle_rounds": 2}),
    ("shacru", 3, {"turn_order": ("red", "black", "yellow"), "idle_rounds": 3}),
    ("shacru", 4, {"idle_rounds": 2, "colours": ("red", "blue", "white", "pink")}),
    ("azacru", 2, {"start_layout": "ap-legacy-2p", "move_cap": 16}),
    ("azacru", 3, {"move_cap": 20}),
    ("azacru", 4, {"move_cap": None}),
    ("pacru", 2, {"move_cap": 20}),
    ("pacru", 3, {"meeting_rule": "original", "move_cap": 20}),
    ("pacru", 4, {"move_cap": 24}),
    ("lsd", 2, {}),
]
NUM_ENVS = 6
STEPS = 150


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_every_row_equals_the_encoding(
    game: str, players: int, options: dict[str, Any], mode: str
) -> None:
    env = VectorEnv(game, players=players, num_envs=NUM_ENVS, autoreset_mode=mode, **options)
    refs = [Reference(game, players, options) for _ in range(NUM_ENVS)]
    rng = np.random.default_rng(len(CASES) * players + len(game))
    state = env.init(seed=3)
    assert state.observation.shape == (NUM_ENVS, *refs[0].encoding.observation_shape)
    assert state.observation.dtype == np.float32
    ends = 0
    for _ in range(STEPS):
        for i, ref in enumerate(refs):
            if mode == "same-step":
                ref.check_row_same_step(state, i)
            else:
                ref.check_row(state, i)
        actions = random_actions(state, rng)
        ended = state.ended
        ends += int(ended.sum())
        for i, ref in enumerate(refs):
            if ended[i] and mode == "next-step":
                actions[i] = rng.integers(env.num_actions)  # ignored: the game restarts
                ref.restart()
            else:
                ref.play(int(actions[i]))
        state = env.step(state, actions)
    assert ends > 0, "the limits are small enough for games to end and restart"


def test_positions_and_prefixes_follow_the_games() -> None:
    env = VectorEnv("pacru", players=2, num_envs=3, move_cap=None)
    refs = [Reference("pacru", 2, {}) for _ in range(3)]
    rng = np.random.default_rng(7)
    state = env.init()
    for _ in range(40):
        actions = random_actions(state, rng)
        for i, ref in enumerate(refs):
            ref.play(int(actions[i]))
        state = env.step(state, actions)
        for i, ref in enumerate(refs):
            assert ref.decision is not None
            assert env.position(state, i) == ref.decision.state
            assert env.prefix(state, i) == ref.decision.prefix
    with pytest.raises(IndexError, match=r"env must be 0\.\.2, not 3"):
        env.position(state, 3)
