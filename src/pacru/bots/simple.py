"""Two reference bots without search: :class:`RandomBot` and :class:`GreedyBot`.

Both play every game. Ties and samples come from a seeded
:class:`random.Random`, so a bot built with the same ``seed`` plays the same
moves in the same positions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Literal, TypeVar

from pacru.base import GameState
from pacru.bots._budget import count, optional_seconds
from pacru.bots.base import Bot, Uniform, draw_reorientations, sample_move
from pacru.bots.evaluation import evaluate
from pacru.chevron.movelist import LegalMoves

__all__ = ["GreedyBot", "Objective", "RandomBot"]

MoveT = TypeVar("MoveT")

#: What :class:`GreedyBot` maximises: ``"evaluation"`` (the mover's value of the
#: position after the move, :func:`pacru.bots.evaluate`), ``"margin"``
#: (own score change minus the best opponent's score after the move) or ``"own"``
#: (own score change).
Objective = Literal["evaluation", "margin", "own"]

# Terminal values far outside any score difference (at most 81 fields or 80 tiles).
_WIN = 1e9
_LOSS = -1e9


def _rng(seed: int | None) -> random.Random:
    return random.Random(seed if seed is not None else random.SystemRandom().randrange(2**63))


class RandomBot(Bot):
    """Plays a uniformly random legal move (family first, for the chevron games).

    Args:
        seed: seed of the bot's random generator; ``None`` for a fresh one.
        uniform: ``"families"`` (default) draws a move family first, then a
            move within it; ``"moves"`` draws over every complete move. See
            :func:`pacru.bots.sample_move` for why families are the default
            (Pacru's thousands of reorientations, {R14}).
        time_limit: accepted for a uniform bot interface (checked as every
            bot checks it: positive, finite seconds); unused.
        name: the label in tables (default ``"random"``).

    Raises:
        ValueError: an unknown ``uniform``, or a bad ``time_limit``.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        uniform: Uniform = "families",
        time_limit: float | None = None,
        name: str | None = None,
    ) -> None:
        if uniform not in ("families", "moves"):
            raise ValueError(f"uniform must be 'families' or 'moves', not {uniform!r}")
        self.seed = seed
        self.uniform: Uniform = uniform
        self.time_limit = optional_seconds("time_limit", time_limit)
        self.name = name or ("random" if uniform == "families" else "random(uniform=moves)")
        self._rng = _rng(seed)

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """A random legal move (see :func:`pacru.bots.sample_move`).

        Raises:
            GameOverError: ``state`` is over.
        """
        return sample_move(state, self._rng, self.uniform)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r}, uniform={self.uniform!r})"


class GreedyBot(Bot):
    """Looks one ply ahead and plays the move with the best value afterwards.

    Each candidate move is applied and the position after it valued from the
    mover's point of view: a sole win is best, a loss (someone else wins)
    worst, a shared win (D35) in between; otherwise, with
    ``objective="evaluation"`` (default), the mover's value of the position
    from the rules' goals (:func:`pacru.bots.evaluate`: markers,
    the marker target, chevrons, power of movement and pincer threats in
    Pacru, fields and fields within reach in the other chevron games); with
    ``objective="margin"`` the change of the mover's own score minus the best
    opponent's score afterwards, or with ``objective="own"`` the change of
    the mover's own score alone. Scores are :attr:`pacru.GameState.scores`
    (markers on the board, LSD tiles). Ties are broken uniformly at random
    by the bot's seeded generator.

    Candidates: every legal move, except in the chevron games, where every
    move of every step family is tried (every twist, benefit and meeting
    field, {S-R4, R4-R12}) but reorientations {R14} only by a sample of
    ``reorientation_samples`` draws (they number in the thousands, and give
    up own fields, so they rarely gain). At most ``max_moves`` candidates are
    tried; a larger set is sampled down.

    Args:
        seed: seed for ties and samples; ``None`` for a fresh one.
        objective: ``"evaluation"``, ``"margin"`` or ``"own"``.
        reorientation_samples: reorientations tried per decision (Pacru).
        max_moves: most candidates tried per decision.
        time_limit: accepted for a uniform bot interface (checked as every
            bot checks it: positive, finite seconds); unused.
        name: the label in tables (default ``"greedy"``).

    Raises:
        ValueError: an unknown objective, a ``max_moves`` below 1, a negative
            ``reorientation_samples``, or a bad ``time_limit`` (the message
            names the argument).
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        objective: Objective = "evaluation",
        reorientation_samples: int = 16,
        max_moves: int = 2000,
        time_limit: float | None = None,
        name: str | None = None,
    ) -> None:
        if objective not in ("evaluation", "margin", "own"):
            raise ValueError(
                f"objective must be 'evaluation', 'margin' or 'own', not {objective!r}"
            )
        self.seed = seed
        self.objective: Objective = objective
        self.reorientation_samples = count("reorientation_samples", reorientation_samples, 0)
        self.max_moves = count("max_moves", max_moves)
        self.time_limit = optional_seconds("time_limit", time_limit)
        self.name = name or (
            "greedy" if objective == "evaluation" else f"greedy(objective={objective})"
        )
        self._rng = _rng(seed)

    def candidates(self, state: GameState[MoveT]) -> list[MoveT]:
        """The moves this bot tries in ``state``, in a deterministic order for a given seed."""
        moves: Sequence[Any] = state.legal_moves()
        rng = self._rng
        if isinstance(moves, LegalMoves) and any(bounds := moves._family_bounds()):
            steps, turns = bounds
            # Every step move (the step families come first), by index.
            out: list[Any] = list(moves[: steps[-1][0] + steps[-1][1] if steps else 0])
            out.extend(draw_reorientations(moves, turns, self.reorientation_samples, rng))
        elif len(moves) <= self.max_moves:
            out = list(moves)
        else:
            out = [moves[i] for i in sorted(rng.sample(range(len(moves)), self.max_moves))]
        if len(out) > self.max_moves:
            out = [out[i] for i in sorted(rng.sample(range(len(out)), self.max_moves))]
        return out

    def value(self, after: GameState[Any], player: str, before: int) -> float:
        """The value of position ``after`` for ``player``, whose score was ``before``."""
        outcome = after.outcome
        if outcome is not None and outcome.winners:
            if player not in outcome.winners:
                return _LOSS
            return _WIN / len(outcome.winners)
        if self.objective == "evaluation":
            return evaluate(after)[after.players.index(player)]
        scores = after.scores
        gain = scores[player] - before
        if self.objective == "own":
            return float(gain)
        best = max((s for p, s in scores.items() if p != player), default=0)
        return float(gain - best)

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """The candidate with the best value; ties broken at random.

        Raises:
            GameOverError: ``state`` is over.
        """
        player = state.current_player
        if player is None:
            from pacru.errors import GameOverError

            raise GameOverError("no legal move: the game is over")
        before = state.scores[player]
        best = -math.inf
        best_moves: list[MoveT] = []
        for move in self.candidates(state):
            v = self.value(state.apply_move(move), player, before)
            if v > best:
                best, best_moves = v, [move]
            elif v == best:
                best_moves.append(move)
        return best_moves[self._rng.randrange(len(best_moves))]

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed!r}, objective={self.objective!r})"
