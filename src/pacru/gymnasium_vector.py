"""One learner against pacru bots in many games at once: a ``gymnasium.vector.VectorEnv``.

:class:`PacruVectorEnv` stands on :class:`pacru.vector.VectorEnv`: the learner
takes one decision of :mod:`pacru.encoding` in every game per step; the bots
in the other seats then play their whole moves until the learner decides
again (or the game ends). Extra ``gymnasium``: ``pip install "pacru[gymnasium]"``.

=================  ==========================================================
action             ``MultiDiscrete([num_actions] * num_envs)``: one decision
                   per game (any integer dtype)
observation        ``Dict``, batched: ``"observation"``, float32
                   ``(num_envs, *observation_shape)``, the learner's view
                   (:meth:`pacru.encoding.Encoding.observation`), and
                   ``"action_mask"``, int8 ``(num_envs, num_actions)``
reward             float32 ``(num_envs,)``: 0 until a game ends, then the
                   learner's :meth:`pacru.GameState.returns`
terminated         the game ended by the rules at this step
truncated          the game was stopped by a limit: the D32 move cap
                   (``move_cap=``), the D33 idle rounds, or ``max_steps``
autoreset          next step (``AutoresetMode.NEXT_STEP``): at the step
                   after an end, that game restarts and its action is
                   ignored; at an end the mask is all ones and the
                   observation zeros
illegal action     raises :class:`pacru.IllegalMoveError` naming the game;
                   no game changes (check with :meth:`action_masks`)
=================  ==========================================================

``opponent`` is a bot spec (``"random"``, ``"mcts:iterations=200"``), a bot
class or factory, or a list with one of these per other seat (in turn order),
as for :class:`pacru.gymnasium.PacruEnv`. Every game gets its own bots, seeded
from the seed of :meth:`PacruVectorEnv.reset`, so the same seed replays the
same games.

>>> import numpy as np
>>> from pacru.gymnasium_vector import PacruVectorEnv
>>> envs = PacruVectorEnv("shacru", players=2, num_envs=3, opponent="random")
>>> observations, infos = envs.reset(seed=0)
>>> observations["observation"].shape, envs.action_masks().shape
((3, 51, 9, 9), (3, 415))
>>> actions = np.array([np.flatnonzero(m)[0] for m in envs.action_masks()])
>>> observations, rewards, terminated, truncated, infos = envs.step(actions)
>>> rewards.tolist(), terminated.tolist(), infos["seat"].tolist()
([0.0, 0.0, 0.0], [False, False, False], [0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from pacru._cursor import observation_space
from pacru.bots.base import Bot
from pacru.bots.spec import BotEntry, build_bot, opponent_entries
from pacru.vector import VectorEnv, VectorState

__all__ = ["PacruVectorEnv"]

Floats = npt.NDArray[np.float32]
Flags = npt.NDArray[np.bool_]


class PacruVectorEnv(
    gymnasium.vector.VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]
):
    """``num_envs`` games of one learner against pacru bots (see the module docstring).

    Args:
        game: a name of :data:`pacru.GAMES`.
        players: 2, 3 or 4.
        num_envs: the number of games.
        opponent: the bots of the other seats: one entry for all, or one per other seat.
        seat: the learner's seat (0-based turn order), the same in every game.
        max_steps: truncate a game after this many decisions (of all players).
        options: options of :func:`pacru.new_game`.

    Raises:
        ValueError: an unknown game, player count, option or bot spec, a seat
            out of range or the wrong number of opponents.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        game: str = "pacru",
        players: int = 2,
        num_envs: int = 1,
        opponent: BotEntry | Sequence[BotEntry] = "random",
        seat: int = 0,
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        self.env = VectorEnv(game, players, num_envs, max_steps=max_steps, **options)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat!r}")
        entries = opponent_entries(opponent, players)
        self.num_envs = num_envs
        self.seat = seat
        self._entries = entries
        self._bots: list[list[Bot]] = []
        self._pending: dict[int, list[int]] = {}
        self._state: VectorState | None = None
        self.single_observation_space = observation_space(self.env.encoding)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.action_space = spaces.MultiDiscrete([self.env.num_actions] * num_envs)

    @property
    def state(self) -> VectorState:
        """The :class:`pacru.vector.VectorState` of the games (after the bots' moves).

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games in every env: the learner's first observations and the infos."""
        super().reset(seed=seed)
        rng = self.np_random
        self._bots = [
            [build_bot(entry, int(rng.integers(2**63))) for entry in self._entries]
            for _ in range(self.num_envs)
        ]
        self._pending = {}
        self._state = self._opponents_play(self.env.init(int(rng.integers(2**63))))
        return self._observe(), self._infos()

    def step(self, actions: Any) -> tuple[dict[str, Any], Floats, Flags, Flags, dict[str, Any]]:
        """The learner's decision in every game, then the bots' moves until it decides again.

        Raises:
            IllegalMoveError: an action is not in its game's mask (no game changes).
            RuntimeError: before the first :meth:`reset`.
        """
        state = self._opponents_play(self.env.step(self.state, actions))
        self._state = state
        rewards = np.array(state.rewards[:, self.seat], dtype=np.float32)
        return (
            self._observe(),
            rewards,
            state.terminated.copy(),
            state.truncated.copy(),
            self._infos(),
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions: bool ``(num_envs, num_actions)`` (all True at an end)."""
        return self.state.legal_action_mask.copy()

    def _opponents_play(self, state: VectorState) -> VectorState:
        """Let the bots decide until the learner decides (or the game ends) in every game."""
        env = self.env
        while True:
            for row in np.flatnonzero(state.ended).tolist():
                self._pending.pop(row, None)  # a move cut by max_steps is not resumed
            rows = np.flatnonzero(~state.ended & (state.current_player != self.seat))
            if not rows.size:
                return state
            actions = []
            for row in rows.tolist():
                queue = self._pending.get(row)
                if not queue:
                    position = env.position(state, row)
                    player = int(state.current_player[row])
                    bot = self._bots[row][player if player < self.seat else player - 1]
                    move = bot.choose_move(position)
                    queue = self._pending[row] = list(env.encoding.actions(position, move))
                actions.append(queue.pop(0))
            state = env._advance(state, rows, np.array(actions, dtype=np.intp))

    def _observe(self) -> dict[str, Any]:
        state = self.state
        return {
            "observation": state.observation.copy(),
            "action_mask": state.legal_action_mask.astype(np.int8),
        }

    def _infos(self) -> dict[str, Any]:
        return {
            "seat": np.full(self.num_envs, self.seat, dtype=np.int64),
            "_seat": np.ones(self.num_envs, dtype=np.bool_),
        }
