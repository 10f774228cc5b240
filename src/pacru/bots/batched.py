"""PUCT with batched leaf evaluation: :class:`pacru.bots.MCTSBot`'s ``batch_evaluator``.

A policy-value network is fast on a batch and slow one position at a time
(a GPU call costs about the same for 1 or 64 positions). With a
``batch_evaluator`` the search descends ``batch_size`` times before it
evaluates: each descent selects by PUCT as usual, down to a position not yet
in the tree, and leaves a *virtual loss* on its path (one visit and a return
of -1 for the player who chose each move), so the next descents spread over
other promising lines instead of all reaching the same leaf. The leaves are
then encoded (:mod:`pacru.encoding`), evaluated in one call, expanded with
the priors, and backed up with the values, the virtual losses removed. A
descent that ends at a finished game is backed up at once; one that reaches
a leaf already waiting in the batch ends the batch early.

The evaluator sees what a network trained on :mod:`pacru.encoding` sees:

``batch_evaluator(observations, masks) -> (values, priors)``
   ``observations``: float32 ``(B, *encoding.observation_shape)``, each
   leaf's first decision (:meth:`pacru.encoding.Encoding.start`) from the
   point of view of the player to move (:meth:`~pacru.encoding.Encoding.observation`,
   seats rotated so that the player to move is first); ``masks``: bool
   ``(B, encoding.num_actions)``, the legal first actions. It returns
   ``values``: ``(B, players)``, in the units of
   :meth:`pacru.GameState.returns` (-1 to +1), in the observation's seat
   order (column 0 the player to move, then the players after it in turn
   order), and ``priors``: ``(B, encoding.num_actions)``, non-negative
   (probabilities or any weights; only the legal actions are read). Array
   likes are accepted (numpy arrays, lists, a torch tensor's ``.numpy()``).

A move is a sequence of decisions in the encoding; the search's candidates
are complete moves (:meth:`pacru.bots.MCTSBot.candidates`). A candidate's
prior is the prior of its first action (its origin field in the chevron
games, its tile in LSD), shared equally among the candidates that begin with
that action, then normalised over the candidates; if they all get 0, the
candidates are equally likely.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from pacru.base import GameState
from pacru.bots._tree import Node, backup, descend

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from pacru.encoding import Encoding

__all__ = ["BatchEvaluator", "puct_batched"]

#: ``batch_evaluator(observations, masks) -> (values, priors)``: float32
#: observations ``(B, *observation_shape)`` and bool masks ``(B, num_actions)``
#: of :mod:`pacru.encoding`; values ``(B, players)`` (the player to move first)
#: and priors ``(B, num_actions)``. See :mod:`pacru.bots.batched`.
BatchEvaluator: TypeAlias = Callable[
    ["npt.NDArray[np.float32]", "npt.NDArray[Any]"], "tuple[npt.ArrayLike, npt.ArrayLike]"
]


def puct_batched(
    bot: Any,
    state: GameState[Any],
    evaluator: BatchEvaluator,
    batch_size: int,
    go: Callable[[int], bool],
) -> Node:
    """The PUCT tree of ``bot`` (an :class:`pacru.bots.MCTSBot`) from ``state``.

    ``go(done)`` says whether another iteration fits the budget; every leaf
    evaluated and every finished game reached is one iteration. With
    ``batch_size=1`` the tree is the one the per-position ``evaluator`` of
    :class:`pacru.bots.MCTSBot` grows, given the same priors and values.

    Raises:
        ValueError: the evaluator's arrays have the wrong shape, or a
            negative prior.
    """
    from pacru.encoding import Encoding

    encoding = Encoding.of(state)
    n = len(state.players)
    c = bot.exploration
    root = Node(state, [], n)
    _expand(bot, encoding, evaluator, [root])  # the root's value is not an iteration's
    done = 0
    while go(done):
        batch: list[list[Node]] = []
        saved: list[list[float]] = []
        while len(batch) < batch_size and go(done + len(batch)):
            path, rewards = descend(root, c, n)
            if rewards is not None:
                backup(path, rewards)
                done += 1
            elif path[-1].visits:  # a leaf already in the batch: evaluate what we have
                break
            else:
                saved.append(_add_virtual_loss(path))
                batch.append(path)
        if not batch:
            continue
        values = _expand(bot, encoding, evaluator, [path[-1] for path in batch])
        # Undone last first, each total set back to its exact value (no rounding left).
        for path, totals in zip(reversed(batch), reversed(saved), strict=True):
            _undo_virtual_loss(path, totals)
        for path, value in zip(batch, values, strict=True):
            backup(path, value)
        done += len(batch)
    bot.last_iterations = done
    return root


def _add_virtual_loss(path: list[Node]) -> list[float]:
    """A visit to every node of ``path`` and a return of -1 to each move for the player
    who chose it; the totals it changed, as they were."""
    path[0].visits += 1
    before = []
    for parent, child in itertools.pairwise(path):
        child.visits += 1
        before.append(child.totals[parent.mover])
        child.totals[parent.mover] -= 1.0
    return before


def _undo_virtual_loss(path: list[Node], before: list[float]) -> None:
    """Take back :func:`_add_virtual_loss` (the last added first, when paths share nodes)."""
    path[0].visits -= 1
    for parent, child, total in zip(path[:-1], path[1:], before, strict=True):
        child.visits -= 1
        child.totals[parent.mover] = total


def _expand(
    bot: Any, encoding: Encoding, evaluator: BatchEvaluator, nodes: list[Node]
) -> list[tuple[float, ...]]:
    """Evaluate ``nodes`` in one call, give each its candidates and priors; their values."""
    import numpy as np

    n = len(nodes[0].totals)
    decisions = [encoding.start(node.state) for node in nodes]
    observations = np.stack(
        [encoding.observation(d, node.mover) for d, node in zip(decisions, nodes, strict=True)]
    )
    masks = np.stack([d.legal_action_mask() for d in decisions])
    raw_values, raw_priors = evaluator(observations, masks)
    values = np.asarray(raw_values, dtype=np.float64)
    priors = np.asarray(raw_priors, dtype=np.float64)
    if values.shape != (len(nodes), n) or priors.shape != masks.shape:
        raise ValueError(
            f"the batch evaluator gave values of shape {values.shape} and priors of shape "
            f"{priors.shape} for {len(nodes)} positions of {n} players and "
            f"{encoding.num_actions} actions; expected {(len(nodes), n)} and {masks.shape}"
        )
    if (priors[masks] < 0).any():
        raise ValueError("the batch evaluator's priors must be non-negative")
    out = []
    for k, (node, decision) in enumerate(zip(nodes, decisions, strict=True)):
        moves = bot.candidates(node.state)
        firsts = [encoding.action_to_choice(decision, m) for m in moves]
        shared: dict[int, int] = {}
        for a in firsts:
            shared[a] = shared.get(a, 0) + 1
        row = priors[k]
        weights = [float(row[a]) / shared[a] if a >= 0 else 0.0 for a in firsts]
        total = math.fsum(weights)
        node.untried = moves
        node.priors = [w / total for w in weights] if total > 0 else [1.0 / len(moves)] * len(moves)
        node.slots = [None] * len(moves)
        # From the observation's seat order (the mover first) back to turn order.
        mover = node.mover
        out.append(tuple(float(values[k][(s - mover) % n]) for s in range(n)))
    return out
