"""The search tree of :class:`pacru.bots.MCTSBot`: its nodes and the backup of a reward vector."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pacru.base import GameState

__all__ = ["Node", "backup"]


class Node:
    """One position in the search tree."""

    __slots__ = (
        "children",
        "legal",
        "mover",
        "priors",
        "slots",
        "state",
        "totals",
        "untried",
        "visits",
    )

    def __init__(
        self,
        state: GameState[Any],
        untried: list[Any],
        players: int,
        legal: Sequence[Any] = (),
    ) -> None:
        self.state = state
        player = state.current_player
        # Index of the player to move (who chooses among the children); -1 when terminal.
        self.mover = -1 if player is None else state.players.index(player)
        # UCT: the indexes in ``legal`` (the state's legal moves) of the candidates not yet
        # expanded; PUCT: every candidate move.
        self.untried = untried
        self.legal = legal
        self.children: list[tuple[Any, Node]] = []
        self.visits = 0
        self.totals = [0.0] * players
        # PUCT only: the candidates' priors (aligned with ``untried``, which then
        # keeps every candidate), and one child slot per candidate.
        self.priors: list[float] = []
        self.slots: list[Node | None] = []


def backup(path: list[Node], rewards: Sequence[float]) -> None:
    """Every node on the path adds the whole reward vector (one component per player)."""
    for visited in path:
        visited.visits += 1
        totals = visited.totals
        for i, r in enumerate(rewards):
            totals[i] += r
