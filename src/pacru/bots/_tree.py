"""The search tree of :class:`pacru.bots.MCTSBot`: its nodes and the backup of a reward vector."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pacru.base import GameState

__all__ = ["Node", "backup", "puct_pick"]


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


def puct_pick(node: Node, c: float) -> int:
    """PUCT selection: the index in ``node.slots`` of the child to descend to.

    The score is ``mean + c * prior * sqrt(N + 1) / (1 + n)`` for the node's mover
    (``N`` the node's visits, ``n`` the child's); an unexpanded child counts the
    node's own mean (first-play urgency). Ties go to the lower index. One function for
    :class:`pacru.bots.MCTSBot`'s per-position PUCT and its batched leaves, so a batch
    of one grows the same tree.
    """
    p = node.mover
    fpu = node.totals[p] / node.visits if node.visits else 0.0
    scale = c * math.sqrt(node.visits + 1)
    best = -math.inf
    pick = 0
    for i, (prior, child) in enumerate(zip(node.priors, node.slots, strict=True)):
        if child is None:
            v = fpu + scale * prior
        else:
            v = child.totals[p] / child.visits + scale * prior / (1 + child.visits)
        if v > best:
            best, pick = v, i
    return pick
