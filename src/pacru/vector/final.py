"""The last position of a truncated game, for ``infos["final_obs"]`` of a same-step batch.

In ``"same-step"`` mode a game that ends restarts at once, so the state after a step no
longer holds the last position of a game that a limit stopped. :class:`KeepingEnv` is
the :class:`pacru.vector.VectorEnv` of a same-step
:class:`pacru.gymnasium_vector.PacruVectorEnv`: it keeps that position at every restart,
and :func:`last_seen` encodes it from the learner's seat, so that a learner (SB3's
``terminal_observation``) bootstraps a truncated episode's value from where it stopped.
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
from pacru.vector.loop import Frame, Games
from pacru.vector.state import VectorState

__all__ = ["KeepingEnv", "Kept", "last_seen"]

#: The last position of each truncated game, and the actions chosen in its move under way.
Kept = dict[int, tuple[GameState[Any], tuple[int, ...]]]


class KeepingEnv(VectorEnv):
    """A :class:`pacru.vector.VectorEnv` that keeps, in :attr:`kept`, the last position of
    every game truncated by a limit (``max_steps``, the move cap, the idle rounds) as it
    restarts; the caller empties it between steps."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Row -> (last position, prefix) of the games truncated since it was emptied.
        self.kept: Kept = {}

    def _keep(self, games: Games, rows: npt.NDArray[np.intp]) -> None:
        for row in rows.tolist():
            self.kept[row] = (self._loop.position(games, row), self._loop.prefix(games, row))

    def _restarting(self, games: Games, frame: Frame, rows: npt.NDArray[np.intp]) -> None:
        self._keep(games, rows[~frame.terminated[rows]])

    def _advance_all(self, state: VectorState, acts: npt.NDArray[np.intp]) -> VectorState:
        after = super()._advance_all(state, acts)
        if self.autoreset_mode != "same-step":
            return after
        cut = np.flatnonzero(after.truncated & ~after.terminated)
        cut = cut[~np.isin(cut, list(self.kept))]
        if cut.size:
            # The loop restarted these games itself (the native one may, where nothing but
            # the rules ends a game): step them once more, without the restart, to see where
            # they stopped.
            none = np.zeros(cut.size, dtype=np.bool_)
            episodes = state.episode[cut]
            games, _ = self._loop.step(state._games, cut, acts[cut], none, state.seed, episodes)
            self._keep(games, cut)
        return after


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
