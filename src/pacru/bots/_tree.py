"""The search tree of :class:`pacru.bots.MCTSBot`: its nodes and the backup of a reward vector."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pacru.base import GameState

__all__ = ["Node", "backup", "descend", "puct_pick"]


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


def descend(root: Node, c: float, players: int) -> tuple[list[Node], Sequence[float] | None]:
    """One PUCT descent from ``root`` (:func:`puct_pick` at each node).

    Returns the path and, if it ends in a finished game, that game's returns; else
    None, and the last node of the path is new (or, in a batch, created by an earlier
    descent and not expanded yet): its caller expands and evaluates it. One function
    for :class:`pacru.bots.MCTSBot`'s per-position PUCT and its batched leaves, so a
    batch of one grows the same tree.
    """
    node = root
    path = [root]
    while True:
        pick = puct_pick(node, c)
        child = node.slots[pick]
        if child is None:
            after = node.state.apply_move(node.untried[pick])
            child = node.slots[pick] = Node(after, [], players)
            path.append(child)
            return path, after.returns() if after.outcome is not None else None
        path.append(child)
        if child.state.outcome is not None:
            return path, child.state.returns()
        if not child.slots:
            return path, None
        node = child
