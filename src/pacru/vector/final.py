"""The last position of a truncated game, for ``infos["final_obs"]`` of a same-step batch.

In ``"same-step"`` mode a game that ends restarts at once, so the state after a step no
longer holds the last position of a game that a limit stopped. :class:`KeepingEnv` is
the :class:`pacru.vector.VectorEnv` of a same-step
:class:`pacru.gymnasium_vector.PacruVectorEnv`: at every restart it keeps the game as it
ended, from the step that ended it (the games it restarted itself, or those the loop or
a fused native step restarted and handed back: nothing is stepped again), and
:func:`last_seen` encodes its last position from the learner's seat, so that a learner
(SB3's ``terminal_observation``) bootstraps a truncated episode's value from where it
stopped.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pacru.base import GameState
from pacru.chevron.state import ChevronState
from pacru.encoding import Encoding
from pacru.errors import InvalidPositionError
from pacru.vector.env import VectorEnv
from pacru.vector.loop import Games, Played

__all__ = ["KeepingEnv", "Kept", "last_seen"]

#: Row -> the games holding that row's game as it last ended, and its index there.
Kept = dict[int, tuple[Games, int]]


class KeepingEnv(VectorEnv):
    """A :class:`pacru.vector.VectorEnv` that keeps, in :attr:`kept`, every game that ends
    (by the rules or a limit: ``max_steps``, the move cap, the idle rounds) as it
    restarts, the last end of a row replacing an earlier one; the caller empties it
    between steps and reads a game's last position with :meth:`last`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Row -> where its game as it last ended is (read with :meth:`last`), for the
        #: games that ended since it was emptied. Kept as the games and an index, not as
        #: positions: most ends are never read (ends by the rules show no position).
        self.kept: Kept = {}

    def _restarting(
        self, games: Games, rows: npt.NDArray[np.intp], at: npt.NDArray[np.intp]
    ) -> None:
        for row, index in zip(rows.tolist(), at.tolist(), strict=True):
            self.kept[row] = (games, index)

    def last(self, row: int) -> Played | None:
        """Game ``row``'s last position and the actions chosen in its move under way (a
        ``max_steps`` cut may stop a move half-way), as it last ended since :attr:`kept`
        was emptied; None where it did not end."""
        game = self.kept.get(row)
        if game is None:
            return None
        games, index = game
        return self._loop.position(games, index), self._loop.prefix(games, index)


def last_seen(
    encoding: Encoding, position: GameState[Any], prefix: tuple[int, ...], seat: int
) -> dict[str, Any] | None:
    """A truncated game's last position seen from seat ``seat``: the float32 observation
    (:meth:`pacru.encoding.Encoding.observation`) of its decision under way (a ``max_steps``
    cut), or, where a limit of the rules ended the game (the D32 move cap, the D33 idle
    rounds), of the first decision of its seat to move, as if that limit had not; the mask
    (int8, ``(num_actions,)``) is that decision's legal actions where ``seat`` takes it, else
    zeros (as :class:`pacru.gymnasium.PacruEnv` shows another seat's decision). None where
    the position has no such decision (its seat to move has no legal move)."""
    if position.outcome is not None:
        if not isinstance(position, ChevronState):
            return None
        p = position
        fields = (p.markers, p.chevrons, p.to_move, p.out, p.trigger, p.idle, p.ply)
        position = ChevronState(p.rules, p.players, *fields, None, p.occupied)
    try:
        decision = encoding.start(position)
    except InvalidPositionError:
        return None
    for action in prefix:
        decision = decision.choose(action)
    mask = np.zeros(encoding.num_actions, dtype=np.int8)
    if decision.player == seat:
        mask[list(decision.legal_actions)] = 1
    return {"observation": encoding.observation(decision, seat), "action_mask": mask}
