"""Random games played by both engines in step: the same moves, positions and outcomes.

At every ply the two move lists are compared (length, every move and its text
in order, or for a list longer than ``support.FULL`` its ends and random
indices), one index is drawn and both engines apply their move at it; the
states must be equal, and so must the final position string and outcome.

CI plays ``PACRU_NATIVE_GAMES`` games per game and player count (default 100,
1,200 games); ``PACRU_NATIVE_GAMES=2000`` plays the full differential run
(24,000 games, a long run; see docs/testing.rst).
"""

from __future__ import annotations

import os

import pytest

from .support import CONFIGS, play_both

GAMES_PER_CONFIG = int(os.environ.get("PACRU_NATIVE_GAMES", "100"))


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_random_games_agree_at_every_ply(game: str, players: int) -> None:
    plies = [play_both(game, players, seed) for seed in range(GAMES_PER_CONFIG)]
    # Every game ended (no max_plies cut) and moved at least once.
    assert all(0 < p < 10_000 for p in plies)
