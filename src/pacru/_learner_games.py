"""One learner against a batched opponent in many games, reset in the same step.

SHIM (issue 30, item 3): :class:`pacru.gymnasium_vector.PacruVectorEnv` is
gaining a batched ``opponent`` (a callable on whole arrays), ``seat=None`` (the
learner's seat drawn per game) and pgx's same-step reset. Until that lands,
:class:`LearnerGames` gives :mod:`pacru.sb3` exactly those three on top of
:class:`pacru.vector.VectorEnv`; once it lands, :mod:`pacru.sb3` should stand
on ``PacruVectorEnv`` instead and this module go.

A step takes the learner's decision in every game; the opponents then decide
until the learner decides again or the game ends. A game that ends is started
again in the same step (a new seat drawn, the opponents' first decisions
played): the caller sees the end's rewards and flags with the new game's first
observation, as SB3's ``VecEnv`` and pgx expect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from pacru.bots.base import Bot
from pacru.bots.spec import BotEntry, build_bot
from pacru.vector import VectorEnv, VectorState

__all__ = ["BatchedPolicy", "LearnerGames", "Opponent"]

#: A batched policy: ``(observation, legal_action_mask) -> actions`` on the rows
#: where an opponent decides: float32 ``(k, *observation_shape)`` seen by the
#: seat deciding, bool ``(k, num_actions)``, and ``k`` legal integer actions.
BatchedPolicy: TypeAlias = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.ArrayLike]
#: A bot spec (``"greedy"``), a :class:`pacru.bots.Bot` or a subclass of it (built per
#: game with a seed), or else a batched policy (any other callable).
Opponent: TypeAlias = BotEntry | BatchedPolicy


def _is_bot_entry(opponent: Opponent) -> bool:
    """A bot spec, a bot (it has ``choose_move``) or a class of bots; else a batched policy."""
    return isinstance(opponent, str | type) or hasattr(opponent, "choose_move")


class LearnerGames:
    """``num_envs`` games of one learner against ``opponent`` in every other seat.

    Args:
        game, players, max_steps, options: as :class:`pacru.vector.VectorEnv`.
        num_envs: the number of games.
        opponent: a bot entry (one bot per other seat and game, seeded from
            :meth:`reset`'s seed) or a :data:`BatchedPolicy` (one call for all
            the games where an opponent decides).
        seat: the learner's seat in every game, or ``None`` to draw it per game.

    Raises:
        ValueError: as :class:`pacru.vector.VectorEnv`, or a seat out of range.
    """

    def __init__(
        self,
        game: str,
        players: int,
        num_envs: int,
        opponent: Opponent,
        seat: int | None,
        max_steps: int | None,
        **options: Any,
    ) -> None:
        self.env = VectorEnv(game, players, num_envs, max_steps=max_steps, **options)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1} or None, not {seat!r}")
        self.num_envs = self.env.num_envs
        self.players = players
        self.fixed_seat = seat
        self.opponent = opponent
        self.seat = np.zeros(self.num_envs, dtype=np.int64)
        self._rng = np.random.default_rng()
        self._bots: dict[int, list[Bot]] = {}
        self._pending: dict[int, list[int]] = {}
        self._state: VectorState | None = None

    @property
    def state(self) -> VectorState:
        """The games now, each at a decision of the learner."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def set_opponent(self, opponent: Opponent) -> None:
        """Play ``opponent`` from the next decision on (bots are rebuilt per game)."""
        self.opponent = opponent
        self._bots = {}
        self._pending = {}

    def reset(self, seed: int | None) -> None:
        """New games everywhere, drawn from ``seed`` (``None``: fresh entropy)."""
        self._rng = np.random.default_rng(seed)
        self._bots = {}
        self._pending = {}
        rows = np.arange(self.num_envs)
        self._draw_seats(rows)
        state = self.env.init(int(self._rng.integers(2**63)))
        self._state = self._opponents_play(state)

    def step(
        self, actions: npt.NDArray[np.intp]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """The learner's ``actions``, the opponents' replies, and a restart of ended games.

        Returns:
            The learner's rewards (float32), ``terminated`` and ``truncated``
            (bool), each ``(num_envs,)``; :attr:`state` is then the next
            decision of the learner in every game (a new game where one ended).

        Raises:
            IllegalMoveError: an action is not legal (no game changes).
        """
        state = self._opponents_play(self.env.step(self.state, actions))
        rows = np.arange(self.num_envs)
        rewards = np.array(state.rewards[rows, self.seat], dtype=np.float32)
        terminated, truncated = state.terminated.copy(), state.truncated.copy()
        ended = np.flatnonzero(state.ended)
        if ended.size:
            for row in ended.tolist():
                self._bots.pop(row, None)
                self._pending.pop(row, None)
            self._draw_seats(ended)
            restart = np.zeros(ended.size, dtype=np.intp)  # ignored: the games restart
            state = self._opponents_play(self.env._advance(state, ended, restart))
        self._state = state
        return rewards, terminated, truncated

    # -- internals ------------------------------------------------------------------------

    def _draw_seats(self, rows: npt.NDArray[np.intp]) -> None:
        if self.fixed_seat is not None:
            self.seat[rows] = self.fixed_seat
        else:
            self.seat[rows] = self._rng.integers(self.players, size=rows.size)

    def _opponents_play(self, state: VectorState) -> VectorState:
        """Let the opponents decide until the learner decides (or the game ends) everywhere."""
        while True:
            rows = np.flatnonzero(~state.ended & (state.current_player != self.seat))
            if not rows.size:
                return state
            if _is_bot_entry(self.opponent):
                actions = self._bot_actions(state, rows)
            else:
                policy: Any = self.opponent
                chosen = policy(state.observation[rows], state.legal_action_mask[rows])
                actions = np.asarray(chosen).astype(np.intp).reshape(rows.size)
                legal = state.legal_action_mask[rows, actions]
                if not legal.all():
                    self.env._check(state, _fill(state, rows, actions))  # raises, naming it
            state = self.env._advance(state, rows, actions)

    def _bot_actions(self, state: VectorState, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        env, actions = self.env, []
        for row in rows.tolist():
            queue = self._pending.get(row)
            if not queue:
                position = env.position(state, row)
                player = int(state.current_player[row])
                bots = self._bots.get(row)
                if bots is None:
                    entry: Any = self.opponent
                    seeds = self._rng.integers(2**63, size=self.players)
                    bots = self._bots[row] = [build_bot(entry, int(s)) for s in seeds]
                move = bots[player].choose_move(position)
                queue = self._pending[row] = list(env.encoding.actions(position, move))
            actions.append(queue.pop(0))
        return np.array(actions, dtype=np.intp)


def _fill(
    state: VectorState, rows: npt.NDArray[np.intp], actions: npt.NDArray[np.intp]
) -> npt.NDArray[np.intp]:
    """A whole batch of actions: ``actions`` at ``rows``, a legal one elsewhere."""
    whole: npt.NDArray[np.intp] = state.legal_action_mask.argmax(axis=1).astype(np.intp)
    whole[rows] = actions
    return whole
