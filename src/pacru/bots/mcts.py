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
                   first) until the game ends or ``rollout_cap`` plies
reward             a finished game: 1 split equally among the winners (D35);
                   cut at the cap (or by a D32 move cap): the leading
                   scorers share 1; a draw without winner: 1 / players each
budget             ``iterations`` and/or ``time_limit`` seconds
answer             the most visited child of the root (ties: best mean)
=================  ==========================================================

Candidates: a node tries every legal move when there are at most
``max_children``; otherwise a sample. In Pacru the sample takes every step
family's choices when they fit (else one random move per step family plus
random step moves), and ``reorientation_samples`` random reorientations
{R14}: a position can have thousands of reorientations, almost all useless,
and a tree cannot branch over them all. Rollouts in Pacru use a cap because
random Pacru play can go on for very long (ruling D32: Pacru has no draw rule,
and engines may cap games, labelled non-official).

With ``time_limit`` unset the search is deterministic for a given ``seed``.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, TypeVar

from pacru.base import GameState
from pacru.bots.base import outcome_rewards, sample_move, sample_reorientations, score_rewards
from pacru.chevron.movelist import LegalMoves

__all__ = ["MCTSBot"]

MoveT = TypeVar("MoveT")


class _Node:
    """One position in the search tree."""

    __slots__ = ("children", "mover", "state", "totals", "untried", "visits")

    def __init__(self, state: GameState[Any], untried: list[Any], players: int) -> None:
        self.state = state
        player = state.current_player
        # Index of the player to move (who chooses among the children); -1 when terminal.
        self.mover = -1 if player is None else state.players.index(player)
        self.untried = untried
        self.children: list[tuple[Any, _Node]] = []
        self.visits = 0
        self.totals = [0.0] * players


class MCTSBot:
    """UCT Monte Carlo tree search with per-player rewards (see the module docstring).

    Args:
        seed: seed of the search's random generator; ``None`` for a fresh one.
        iterations: tree iterations per move (default 400, or unlimited when
            ``time_limit`` is given).
        time_limit: seconds of search per move; the search stops at
            whichever of the two budgets runs out first.
        exploration: the UCB1 constant ``c`` in ``mean + c * sqrt(ln N / n)``
            (rewards are in [0, 1]).
        rollout_cap: plies per rollout before the game is judged by its
            scores (ruling D32); ``None`` plays rollouts to the end.
        max_children: most candidate moves per node.
        reorientation_samples: reorientations among a Pacru node's candidates.
        name: the label in tables (default ``"mcts"``).

    Raises:
        ValueError: a budget or parameter out of range.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = 1.0,
        rollout_cap: int | None = 100,
        max_children: int = 40,
        reorientation_samples: int = 4,
        name: str | None = None,
    ) -> None:
        if iterations is None and time_limit is None:
            iterations = 400
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive seconds, not {time_limit}")
        if rollout_cap is not None and rollout_cap < 0:
            raise ValueError(f"rollout_cap must be a number of plies >= 0, not {rollout_cap}")
        if max_children < 1 or reorientation_samples < 0 or exploration < 0:
            raise ValueError(
                "max_children must be positive, reorientation_samples and exploration >= 0"
            )
        self.seed = seed
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_cap = rollout_cap
        self.max_children = max_children
        self.reorientation_samples = reorientation_samples
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
        rng = self._rng
        moves = state.legal_moves()
        limit = self.max_children
        if isinstance(moves, LegalMoves) and moves.reorientations:
            out = self._pacru_candidates(moves, rng)
        elif len(moves) <= limit:
            out = list(moves)
        else:
            out = self._sampled(state, limit, rng)
        rng.shuffle(out)
        return out

    def _pacru_candidates(self, moves: LegalMoves, rng: random.Random) -> list[Any]:
        steps = moves.steps
        room = max(self.max_children - self.reorientation_samples, len(steps))
        out: list[Any]
        if sum(f.size for f in steps) <= room:
            out = [m for f in steps for m in f]
        else:
            # A dict, not a set: its order, and so the search, is reproducible.
            chosen = dict.fromkeys(f.get(rng.randrange(f.size)) for f in steps)
            for _ in range(4 * room):
                if len(chosen) >= room:
                    break
                family = steps[rng.randrange(len(steps))]
                chosen[family.get(rng.randrange(family.size))] = None
            out = list(chosen)
        out.extend(sample_reorientations(moves, self.reorientation_samples, rng))
        return out

    def _sampled(self, state: GameState[Any], limit: int, rng: random.Random) -> list[Any]:
        chosen: dict[Any, None] = {}
        for _ in range(4 * limit):
            if len(chosen) >= limit:
                break
            chosen[sample_move(state, rng)] = None
        return list(chosen)

    # -- search ----------------------------------------------------------------------------

    def rollout(self, state: GameState[Any]) -> tuple[float, ...]:
        """Random play from ``state``; the reward vector in turn order."""
        rng = self._rng
        cap = self.rollout_cap
        plies = 0
        while state.outcome is None:
            if cap is not None and plies >= cap:
                return score_rewards(state)
            state = state.apply_move(sample_move(state, rng))
            plies += 1
        return outcome_rewards(state)

    def search(self, state: GameState[Any]) -> _Node:
        """Run the search from ``state``; returns the root (for inspection and tests)."""
        n = len(state.players)
        root = _Node(state, self.candidates(state), n)
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        limit = self.iterations
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or done == 0 or time.perf_counter() < deadline
        ):
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
                move = node.untried.pop()
                after = node.state.apply_move(move)
                child = _Node(after, self.candidates(after), n)
                node.children.append((move, child))
                node = child
                path.append(node)
            # Simulation.
            if node.state.outcome is not None:
                rewards = outcome_rewards(node.state)
            else:
                rewards = self.rollout(node.state)
            # Backup: every node on the path adds the whole vector.
            for visited in path:
                visited.visits += 1
                totals = visited.totals
                for i in range(n):
                    totals[i] += rewards[i]
            done += 1
        self.last_iterations = done
        return root

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """The root move searched most often (ties: the best mean for the mover).

        Raises:
            GameOverError: ``state`` is over.
        """
        if state.current_player is None:
            from pacru.errors import GameOverError

            raise GameOverError("no legal move: the game is over")
        root = self.search(state)
        if not root.children:  # cannot happen with iterations >= 1; kept for safety
            return sample_move(state, self._rng)
        p = root.mover
        best_move, _ = max(
            root.children,
            key=lambda mc: (mc[1].visits, mc[1].totals[p] / mc[1].visits),
        )
        move: MoveT = best_move
        return move

    def __repr__(self) -> str:
        return (
            f"MCTSBot(seed={self.seed!r}, iterations={self.iterations!r}, "
            f"time_limit={self.time_limit!r})"
        )
