"""Many uniform random games from one position: :func:`random_rollouts`.

The inner loop (one game) is the small private function ``_playout``, so
that a native engine can replace it without changing the interface.
"""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING, Any

from pacru.base import GameState
from pacru.bots.base import sample_move

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["random_rollouts"]


def random_rollouts(
    state: GameState[Any], n: int, *, seed: int = 0, max_plies: int | None = None
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int32]]:
    """Play ``n`` uniform random games from ``state``: their returns and lengths.

    Each move is drawn as :class:`pacru.bots.RandomBot` draws it
    (:func:`pacru.bots.sample_move`: a move family first in the chevron
    games, because Pacru's reorientations {R14} would otherwise crowd out the
    steps). The games share one generator seeded with ``seed``, so the same
    ``state``, ``n``, ``seed`` and ``max_plies`` give the same pair. Needs
    numpy (the ``ai`` extra).

    Args:
        state: the starting position (a finished one gives its returns and
            0 plies ``n`` times).
        n: the number of games, at least 0.
        seed: the seed of the games' random generator.
        max_plies: stop a game after this many plies from ``state``; a game
            stopped there has returns 0 for every player (no winner yet, as
            :meth:`pacru.GameState.returns` says of a game going on).
            ``None`` plays every game to its end.

    Returns:
        ``(returns, plies)``: ``returns`` float32 of shape ``(n, players)``,
        each row :meth:`pacru.GameState.returns` of a game's last position
        (+1 a winner, -1 a loser, 0 without a winner), columns in turn order
        (``state.players``); ``plies`` int32 of shape ``(n,)``, the moves each
        game played from ``state``. Both arrays are read-only.

    Raises:
        ValueError: ``n`` or ``max_plies`` negative.
    """
    import numpy as np

    n = operator.index(n)
    cap = None if max_plies is None else operator.index(max_plies)
    if n < 0 or (cap is not None and cap < 0):
        raise ValueError(f"n and max_plies must not be negative, not {n} and {max_plies}")
    rng = random.Random(operator.index(seed))
    returns = np.zeros((n, len(state.players)), dtype=np.float32)
    plies = np.zeros(n, dtype=np.int32)
    for i in range(n):
        row, length = _playout(state, rng, cap)
        returns[i] = row
        plies[i] = length
    returns.flags.writeable = False
    plies.flags.writeable = False
    return returns, plies


def _playout(
    state: GameState[Any], rng: random.Random, cap: int | None
) -> tuple[tuple[float, ...], int]:
    """One uniform random game from ``state``: its returns and its plies (at most ``cap``)."""
    plies = 0
    while state.outcome is None and (cap is None or plies < cap):
        state = state.apply_move(sample_move(state, rng))
        plies += 1
    return state.returns(), plies
