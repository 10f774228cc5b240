"""Monte Carlo tree search for 2 to 4 players: :class:`MCTSBot`.

=================  ==========================================================
search             UCT (UCB1 applied to trees), one tree per decision
players            any number: every node keeps a reward *vector*, one
                   component per player in turn order
selection          the player to move at a node picks the child with the best
                   UCB1 value of *their own* component (the max^n rule), so
                   the backed-up means approximate max^n values
expansion          one new child per iteration, from the node's candidates
rollout            random moves (:func:`pacru.bots.sample_move`, family
                   first) until the game ends or ``rollout_cap`` plies (by
                   default none: the new leaf is valued at once)
reward             a finished game: its returns; cut at the cap: the
                   ``evaluation`` of the position (by default
                   :func:`pacru.bots.evaluate`, from the rules'
                   goals), as rewards ``(value + 1) / 2`` in [0, 1]; with
                   ``evaluation=None``: random rollouts judged as before, 1
                   split equally among the winners (D35), the leading
                   scorers sharing 1 at the cap, 1 / players each in a draw
budget             ``iterations`` and/or ``time_limit`` seconds
answer             the most visited child of the root (ties: best mean)
for training       :meth:`MCTSBot.search` returns a :class:`SearchResult`:
                   visit counts per root move (a policy target) and the
                   root value; an ``evaluator`` (priors and values, e.g. a
                   network) turns the search into PUCT, as in AlphaZero;
                   a ``batch_evaluator`` gets ``batch_size`` leaves per call
                   as arrays of :mod:`pacru.encoding` (virtual loss,
                   :mod:`pacru.bots.batched`), for a network on a GPU
=================  ==========================================================

Candidates: a node tries every legal move when there are at most
``max_children``; otherwise a sample. In Pacru the sample takes every step
family's choices when they fit (else one random move per step family plus
random step moves), and ``reorientation_samples`` random reorientations
{R14}: a position can have thousands of reorientations, almost all useless,
and a tree cannot branch over them all. Leaves are valued by the evaluation
rather than by random play to the end, so that the values carry the rules'
goals (markers toward the target, pincers) and search games end by a rule
rather than at a move cap (ruling D32: Pacru has no draw rule).

With ``time_limit`` unset the search is deterministic for a given ``seed``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeAlias, TypeVar

import attrs

from pacru.base import GameState
from pacru.bots._budget import count, optional_count, optional_seconds
from pacru.bots._tree import Node as _Node
from pacru.bots._tree import backup as _backup
from pacru.bots._tree import descend as _descend
from pacru.bots.base import (
    Bot,
    outcome_rewards,
    reorientation_indexes,
    sample_move,
    score_rewards,
)
from pacru.bots.batched import BatchEvaluator, puct_batched
from pacru.bots.evaluation import evaluate
from pacru.chevron.movelist import FamilyBounds, LegalMoves

__all__ = ["BatchEvaluator", "Evaluator", "MCTSBot", "SearchResult"]

MoveT = TypeVar("MoveT")

#: ``evaluator(state, moves) -> (priors, values)``: ``priors`` aligned with
#: ``moves`` (non-negative, renormalised over them; they need not sum to 1),
#: ``values`` one per player of ``state.players`` in turn order, in the units
#: of :meth:`pacru.GameState.returns` (+1 a win, -1 a loss, 0 no winner).
Evaluator: TypeAlias = Callable[
    [GameState[Any], Sequence[Any]], tuple[Sequence[float], Sequence[float]]
]


@attrs.frozen
class SearchResult(Generic[MoveT]):
    """What one search found at its root: a policy target and a value target.

    Attributes:
        moves: the root moves the search considered (its candidates, see
            :class:`MCTSBot`), in the order the search kept them.
        visits: visits of each of ``moves`` (aligned); they sum to the
            iterations run.
        value: the mean return of the player to move at the root over the
            iterations, in the units of :meth:`pacru.GameState.returns`
            (-1 to +1): UCT averages the returns of the finished games it
            reaches and the ``evaluation`` of the positions where it stops
            (with ``evaluation=None``, a rollout cut at ``rollout_cap`` is
            judged by the scores: the leaders +1, the others -1, 0 when all
            lead); PUCT averages the evaluator's values and the returns of
            the finished games it reaches.
        best_move: the move :meth:`MCTSBot.choose_move` plays: the most
            visited (ties: the best mean for the player to move).
    """

    moves: tuple[MoveT, ...]
    visits: tuple[int, ...]
    value: float
    best_move: MoveT

    def policy(self) -> tuple[float, ...]:
        """Each move's share of the visits (aligned with :attr:`moves`; sums to 1)."""
        total = sum(self.visits)
        return tuple(v / total for v in self.visits)


class MCTSBot(Bot):
    """UCT Monte Carlo tree search with per-player rewards (see the module docstring).

    Args:
        seed: seed of the search's random generator; ``None`` for a fresh one.
        iterations: tree iterations per move (default 400, or unlimited when
            ``time_limit`` is given).
        time_limit: seconds of search per move (positive, finite); the
            search stops at whichever of the two budgets runs out first.
            Ctrl-C stops it between two iterations (``KeyboardInterrupt``).
        exploration: the UCB1 constant ``c`` in ``mean + c * sqrt(ln N / n)``
            (rewards are in [0, 1]), or PUCT's. Default: 0.1 when UCT values
            its leaves by an ``evaluation`` (the values of positions in play
            differ by hundredths, which a larger ``c`` drowns), else 1.0.
        rollout_cap: random plies per rollout before the position is
            judged by ``evaluation`` (default 0: the leaf itself is
            evaluated); ``None`` plays rollouts to the end.
        evaluation: ``evaluation(state) -> values``, one per player in turn
            order in the units of :meth:`pacru.GameState.returns` (default
            :func:`pacru.bots.evaluate`); ``None`` judges a rollout
            cut at ``rollout_cap`` by its scores (the leaders share the win,
            ruling D32), as plain UCT does.
        max_children: most candidate moves per node.
        reorientation_samples: reorientations among a Pacru node's candidates.
        name: the label in tables (default ``"mcts"``).
        evaluator: ``evaluator(state, moves) -> (priors, values)``
            (:data:`Evaluator`), e.g. a policy-value network. With it the
            search is PUCT as in AlphaZero: a node is expanded with the
            priors of its candidate moves and its value comes from the
            evaluator instead of a rollout; a child is chosen by
            ``mean + exploration * prior * sqrt(N) / (1 + n)`` (an unvisited
            child's mean is its parent's). PUCT works in the units of
            :meth:`pacru.GameState.returns` (-1 to +1, per player in turn
            order): the evaluator's values and the returns of finished games.
        batch_evaluator: ``batch_evaluator(observations, masks) -> (values,
            priors)`` (:data:`BatchEvaluator`), called on ``batch_size``
            positions at once as arrays of :mod:`pacru.encoding` (numpy, the
            ``ai`` extra): PUCT as with ``evaluator``, with virtual loss
            spreading each batch's descents (:mod:`pacru.bots.batched`).
        batch_size: leaves per ``batch_evaluator`` call (default 16); 1
            grows the tree the per-position ``evaluator`` grows.

    Raises:
        ValueError: a budget or parameter out of range, or both an
            ``evaluator`` and a ``batch_evaluator``.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float | None = None,
        rollout_cap: int | None = 0,
        max_children: int = 40,
        reorientation_samples: int = 4,
        name: str | None = None,
        evaluator: Evaluator | None = None,
        evaluation: Callable[[GameState[Any]], Sequence[float]] | None = evaluate,
        batch_evaluator: BatchEvaluator | None = None,
        batch_size: int = 16,
    ) -> None:
        if iterations is None and time_limit is None:
            iterations = 400
        iterations = optional_count("iterations", iterations)
        time_limit = optional_seconds("time_limit", time_limit)
        rollout_cap = optional_count("rollout_cap", rollout_cap, 0)
        max_children = count("max_children", max_children)
        reorientation_samples = count("reorientation_samples", reorientation_samples, 0)
        batch_size = count("batch_size", batch_size)
        if evaluation is not None and not callable(evaluation):
            raise ValueError(f"evaluation must be a function or None, not {evaluation!r}")
        if evaluator is not None and batch_evaluator is not None:
            raise ValueError("give an evaluator or a batch_evaluator, not both")
        if exploration is None:
            plain = evaluator is None and batch_evaluator is None
            exploration = 0.1 if plain and evaluation is not None else 1.0
        if isinstance(exploration, bool) or not exploration >= 0:  # nan fails too
            raise ValueError(f"exploration must be a number >= 0, not {exploration!r}")
        self.seed = seed
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_cap = rollout_cap
        self.max_children = max_children
        self.reorientation_samples = reorientation_samples
        self.evaluator = evaluator
        self.evaluation = evaluation
        self.batch_evaluator = batch_evaluator
        self.batch_size = batch_size
        budget = (
            f"iterations={iterations}" if iterations is not None else f"time_limit={time_limit}"
        )
        self.name = name or f"mcts({budget})"
        self._rng = random.Random(
            seed if seed is not None else random.SystemRandom().randrange(2**63)
        )
        #: Iterations run by the last :meth:`choose_move` (for benchmarks).
        self.last_iterations = 0

    # -- candidates ------------------------------------------------------------------------

    def candidates(self, state: GameState[Any]) -> list[Any]:
        """The moves a node of ``state`` may expand, shuffled (empty when the game is over)."""
        moves = state.legal_moves()
        return [moves[i] for i in self._indexes(moves)]

    def _indexes(self, moves: Sequence[Any]) -> list[int]:
        """The indexes in ``moves`` of :meth:`candidates`, in its order.

        A tree builds only the moves it expands: most nodes are leaves that
        expand none.
        """
        rng = self._rng
        limit = self.max_children
        # Chevron lists are drawn by index from their families' bounds (a family, then a
        # move in it, as sample_move draws).
        bounds = moves._family_bounds() if isinstance(moves, LegalMoves) else None
        if bounds is not None and bounds[1]:
            out = self._pacru_indexes(bounds, rng)
        elif len(moves) <= limit:
            out = list(range(len(moves)))
        elif bounds is not None:
            out = list(_distinct(bounds[0], {}, limit, rng))
        else:
            out = _sampled(len(moves), limit, rng)
        _shuffle(out, rng)
        return out

    def _pacru_indexes(self, bounds: FamilyBounds, rng: random.Random) -> list[int]:
        steps, turns = bounds
        room = max(self.max_children - self.reorientation_samples, len(steps))
        stepping = steps[-1][0] + steps[-1][1] if steps else 0
        if stepping <= room:
            out = list(range(stepping))
        else:
            randrange = rng.randrange
            # A dict, not a set: its order, and so the search, is reproducible.
            chosen = dict.fromkeys(start + randrange(size) for start, size in steps)
            out = list(_distinct(steps, chosen, room, rng))
        out.extend(reorientation_indexes(turns, self.reorientation_samples, rng))
        return out

    # -- search ----------------------------------------------------------------------------

    def rollout(self, state: GameState[Any]) -> tuple[float, ...]:
        """Random play from ``state``; the reward vector in turn order."""
        return self._playout(state)[0]

    def _playout(self, state: GameState[Any]) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Random play from ``state``: the reward vector and the returns, in turn order."""
        rng = self._rng
        cap = self.rollout_cap
        judge = self.evaluation
        plies = 0
        while state.outcome is None:
            if cap is not None and plies >= cap:
                if judge is not None:
                    values = tuple(judge(state))
                    return _shares(values), values
                rewards = score_rewards(state)
                return rewards, _judged_returns(rewards)
            state = state.apply_move(sample_move(state, rng))
            plies += 1
        return self._final(state)

    def _final(self, state: GameState[Any]) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The reward vector and the returns of a finished game."""
        returns = tuple(state.returns())
        if self.evaluation is not None:
            return _shares(returns), returns
        return outcome_rewards(state), returns

    def search(self, state: GameState[MoveT]) -> SearchResult[MoveT]:
        """Search from ``state`` within the budget; the root's visit counts and value.

        With an ``evaluator`` the search is PUCT (see :class:`MCTSBot`),
        else UCT with random rollouts. Every iteration visits one root move,
        so ``sum(result.visits)`` is the number of iterations run
        (:attr:`last_iterations`).

        Raises:
            GameOverError: ``state`` is over.
            ValueError: the evaluator returned priors or values of the wrong
                length, or negative or all-zero priors.
        """
        if state.current_player is None:
            from pacru.errors import GameOverError

            raise GameOverError("no legal move: the game is over")
        if self.evaluator is None and self.batch_evaluator is None:
            root, returned = self._uct(state)
            value = returned / root.visits
            pairs = [(m, c.visits, c.totals[root.mover] / c.visits) for m, c in root.children]
            pairs += [(root.legal[i], 0, 0.0) for i in root.untried]
        else:
            if self.evaluator is not None:
                root = self._puct(state, self.evaluator)
            else:
                assert self.batch_evaluator is not None
                root = puct_batched(
                    self, state, self.batch_evaluator, self.batch_size, self._budget()
                )
            value = root.totals[root.mover] / root.visits
            pairs = [
                (m, 0, 0.0) if c is None else (m, c.visits, c.totals[root.mover] / c.visits)
                for m, c in zip(root.untried, root.slots, strict=True)
            ]
        best = max(pairs, key=lambda mvq: (mvq[1], mvq[2]))
        return SearchResult(
            moves=tuple(m for m, _, _ in pairs),
            visits=tuple(v for _, v, _ in pairs),
            value=value,
            best_move=best[0],
        )

    def _budget(self) -> Callable[[int], bool]:
        """``go(done)``: whether another iteration fits the budget."""
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        limit = self.iterations

        def go(done: int) -> bool:
            return (limit is None or done < limit) and (
                deadline is None or done == 0 or time.perf_counter() < deadline
            )

        return go

    def _uct(self, state: GameState[Any]) -> tuple[_Node, float]:
        """The searched root, and the sum of the root mover's returns over the iterations."""
        n = len(state.players)
        root = self._uct_node(state, n)
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        go = self._budget()
        done = 0
        returned = 0.0
        while go(done):
            node = root
            path = [root]
            # Selection: each node's mover maximises their own UCB1 value (max^n).
            while not node.untried and node.children:
                p = node.mover
                scale = c * sqrt(log(node.visits))
                best = -1.0
                pick = node.children[0][1]
                for _move, child in node.children:
                    v = child.totals[p] / child.visits + scale / sqrt(child.visits)
                    if v > best:
                        best, pick = v, child
                node = pick
                path.append(node)
            # Expansion.
            if node.untried:
                move = node.legal[node.untried.pop()]
                after = node.state.apply_move(move)
                child = self._uct_node(after, n)
                node.children.append((move, child))
                node = child
                path.append(node)
            # Simulation.
            if node.state.outcome is not None:
                rewards, returns = self._final(node.state)
            else:
                rewards, returns = self._playout(node.state)
            _backup(path, rewards)
            returned += returns[root.mover]
            done += 1
        self.last_iterations = done
        return root, returned

    def _uct_node(self, state: GameState[Any], players: int) -> _Node:
        legal = state.legal_moves()
        return _Node(state, self._indexes(legal), players, legal)

    def _expand(self, node: _Node, evaluator: Evaluator) -> Sequence[float]:
        """Give ``node`` its candidates and their priors; the evaluator's values."""
        moves = self.candidates(node.state)
        priors, values = evaluator(node.state, moves)
        if len(priors) != len(moves) or len(values) != len(node.totals):
            raise ValueError(
                f"the evaluator gave {len(priors)} priors for {len(moves)} moves and "
                f"{len(values)} values for {len(node.totals)} players"
            )
        total = math.fsum(priors)
        if total <= 0 or min(priors, default=0.0) < 0:
            raise ValueError("the evaluator's priors must be non-negative, not all zero")
        node.untried = moves
        node.priors = [q / total for q in priors]
        node.slots = [None] * len(moves)
        return values

    def _puct(self, state: GameState[Any], evaluator: Evaluator) -> _Node:
        n = len(state.players)
        root = _Node(state, [], n)
        self._expand(root, evaluator)  # the root's value is not an iteration's
        c = self.exploration
        go = self._budget()
        done = 0
        while go(done):
            path, rewards = _descend(root, c, n)
            if rewards is None:
                rewards = self._expand(path[-1], evaluator)
            _backup(path, rewards)
            done += 1
        self.last_iterations = done
        return root

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """The root move searched most often (ties: the best mean for the mover).

        Raises:
            GameOverError: ``state`` is over.
        """
        return self.search(state).best_move

    def __repr__(self) -> str:
        return (
            f"MCTSBot(seed={self.seed!r}, iterations={self.iterations!r}, "
            f"time_limit={self.time_limit!r})"
        )


def _sampled(length: int, limit: int, rng: random.Random) -> list[int]:
    """Up to ``limit`` distinct indexes of a list of ``length`` moves (``4 * limit`` draws)."""
    chosen: dict[int, None] = {}
    randrange = rng.randrange
    for _ in range(4 * limit):
        if len(chosen) >= limit:
            break
        chosen[randrange(length)] = None
    return list(chosen)


def _shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same Fisher-Yates swaps from the same random numbers,
    each drawn with getrandbits as ``randrange`` draws it, without its Python frames."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _distinct(
    families: Sequence[tuple[int, int]], chosen: dict[int, None], room: int, rng: random.Random
) -> dict[int, None]:
    """``chosen`` filled up to ``room`` distinct move indexes, with at most ``4 * room`` draws.

    Each draw is a family of ``families`` (``(start, size)`` bounds), then a
    move in it, each uniform and drawn as ``rng.randrange`` draws (the
    smallest number of random bits, again while out of range), which is the
    hot loop of a node's candidates.
    """
    getrandbits = rng.getrandbits
    count = len(families)
    bits = count.bit_length()
    for _ in range(4 * room):
        if len(chosen) >= room:
            break
        f = getrandbits(bits)
        while f >= count:
            f = getrandbits(bits)
        start, size = families[f]
        k = size.bit_length()
        r = getrandbits(k)
        while r >= size:
            r = getrandbits(k)
        chosen[start + r] = None
    return chosen


def _shares(values: Sequence[float]) -> tuple[float, ...]:
    """Values in the units of ``returns()`` (-1 to +1) as UCT rewards in [0, 1]."""
    return tuple((v + 1.0) * 0.5 for v in values)


def _judged_returns(rewards: Sequence[float]) -> tuple[float, ...]:
    """Returns of a game judged by its scores (reward shares): leaders +1, others -1, all 0.

    The rule of :meth:`pacru.GameState.returns` with the leading scorers as winners:
    the most markers or tiles win, several leaders share the win (D35), and a rollout
    cut short is judged like the non-official move cap (D32), on the scores of
    :func:`pacru.bots.base.score_rewards`.
    """
    if all(r > 0 for r in rewards):
        return (0.0,) * len(rewards)
    return tuple(1.0 if r > 0 else -1.0 for r in rewards)
