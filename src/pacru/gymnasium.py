"""The pacru games as single-agent Gymnasium environments: one learner against pacru bots.

Importing this module (extra ``gymnasium``: ``pip install "pacru[gymnasium]"``)
registers five environments:

==================  ===========
id                  game
==================  ===========
pacru/Lilacru-v0    Lilacru
pacru/Shacru-v0     Shacru
pacru/Azacru-v0     Azacru
pacru/Pacru-v0      Pacru
pacru/LSD-v0        LSD
==================  ===========

``gymnasium.make("pacru/Pacru-v0", players=2, opponent="random")`` seats the
learner at ``seat`` (default 0, the first to move; ``None`` draws a seat at
every reset) and the ``opponent`` bots in the other seats: a bot spec
(``"mcts:iterations=200"``, ``"mybots:NetBot"``), a bot class or factory, a bot
object, or a list with one of these per other seat (in turn order). Bots built
from specs, classes and factories are seeded from the environment's seed at
every reset, so ``reset(seed=s)`` replays the same games.

=================  ==========================================================
action             ``Discrete(num_actions)``: one decision of
                   :mod:`pacru.encoding`; a move may take several decisions,
                   each its own step (the opponents move once the learner's
                   move is complete)
observation        ``Dict``: ``"observation"``, the float32 (or
                   ``observation_dtype``: uint8, bool) tensor of
                   :meth:`pacru.encoding.Encoding.observation` from the
                   learner's point of view, and ``"action_mask"``, int8, 1
                   for each legal action
reward             0 until the end, then the learner's
                   :meth:`pacru.GameState.returns`
terminated         the game ended by the rules
truncated          the game was stopped by a non-official limit: the D32
                   move cap (``move_cap=``) or the D33 idle rounds
illegal action     an action outside the mask is not played: the learner
                   loses, reward ``illegal_reward`` (default -1.0), the
                   episode terminates and ``info["illegal_action"]`` is
                   ``True``; no exception (Gymnasium's ``check_env`` steps
                   random actions without looking at the mask)
info               ``"seat"`` (the learner's seat), ``"player"`` (its
                   colour), ``"illegal_action"``
render modes       ``"human"`` (prints the text board), ``"ansi"`` (the text
                   board) and ``"rgb_array"`` (the SVG board rasterised with
                   cairosvg: ``uint8``, (height, width, 3))
masks              :meth:`PacruEnv.action_masks`: the legal actions as a
                   bool array, for sb3-contrib's ``MaskablePPO``
=================  ==========================================================

Other keywords (``move_cap``, ``meeting_rule``, ...) are options of
:func:`pacru.new_game`; Azacru and Pacru get the move cap every adapter
shares, :data:`pacru.vector.DEFAULT_MOVE_CAP` (1,000 plies, ruling D32),
unless ``move_cap`` is given (``move_cap=None``: none).

>>> import gymnasium
>>> import pacru.gymnasium
>>> env = gymnasium.make("pacru/Shacru-v0", players=2, opponent="random")
>>> observation, info = env.reset(seed=1)
>>> int(observation["action_mask"].sum()) > 0, info["seat"]
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from pacru._cursor import (
    RENDER_MODES,
    Cursor,
    action_index,
    check_render_mode,
    observation_space,
)
from pacru.bots.base import Bot
from pacru.bots.spec import BotEntry, build_bot, opponent_entries
from pacru.vector.loop import as_dtype

__all__ = ["IDS", "PacruEnv", "register"]

#: pacru game -> Gymnasium id.
IDS: Final[dict[str, str]] = {
    "lilacru": "pacru/Lilacru-v0",
    "shacru": "pacru/Shacru-v0",
    "azacru": "pacru/Azacru-v0",
    "pacru": "pacru/Pacru-v0",
    "lsd": "pacru/LSD-v0",
}


class PacruEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learner against pacru bots (see the module docstring).

    Args:
        game: a name of :data:`pacru.GAMES`.
        players: 2, 3 or 4.
        opponent: the bots of the other seats: one entry
            (:data:`pacru.bots.spec.BotEntry`) for all, or one per other seat.
        seat: the learner's seat (0-based turn order), or ``None`` for a
            random seat at each reset.
        render_mode: ``None``, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
        observation_dtype: ``float32`` (default), ``uint8`` (each value times 255,
            rounded) or ``bool`` (value != 0), as :class:`pacru.vector.VectorEnv`.
        illegal_reward: the learner's reward for an illegal action (the
            episode then terminates).
        options: options of :func:`pacru.new_game`.

    Raises:
        ValueError: an unknown game, player count, option, render mode, bot
            spec or observation dtype, a seat out of range or the wrong number
            of opponents.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = "pacru",
        players: int = 2,
        opponent: BotEntry | Sequence[BotEntry] = "random",
        seat: int | None = 0,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        observation_dtype: Any = np.float32,
        **options: Any,
    ) -> None:
        check_render_mode(render_mode)
        start = Cursor.new(game, players, options)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1} or None, not {seat!r}")
        entries = opponent_entries(opponent, players)
        self.game = game
        self.players = players
        self.encoding = start.encoding
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self._entries = entries
        self._fixed_seat = seat
        self._start = start
        self._cursor = start
        self._forfeited = False  # an illegal action ended the episode
        self.seat = 0 if seat is None else seat
        self._bots: list[Bot] = []
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_dtype = np.dtype(observation_dtype)
        if self.observation_dtype not in (np.float32, np.uint8, np.bool_):
            raise ValueError(
                f"observation_dtype must be float32, uint8 or bool, not {self.observation_dtype}"
            )
        self.observation_space = observation_space(self.encoding, self.observation_dtype)

    @property
    def pacru_state(self) -> Any:
        """The :class:`pacru.GameState` being played (the final one once it is over)."""
        return self._cursor.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: the learner's first observation and the info dict."""
        super().reset(seed=seed)
        rng = self.np_random
        if self._fixed_seat is None:
            self.seat = int(rng.integers(self.players))
        self._bots = [build_bot(e, int(rng.integers(2**63))) for e in self._entries]
        self._cursor = self._opponents_play(self._start)
        self._forfeited = False
        return self._observe(), self._info(illegal=False)

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents until the learner acts again.

        An illegal action ends the episode with ``illegal_reward`` (a forfeit).

        Raises:
            TypeError: ``action`` is not an integer (a float is refused, not truncated).
            RuntimeError: the episode is over (call ``reset``).
        """
        if self._cursor.is_over or self._forfeited:
            raise RuntimeError("the episode is over: call reset()")
        action = action_index(action)
        if action not in self._cursor.legal_actions:
            self._forfeited = True
            return self._observe(), self.illegal_reward, True, False, self._info(illegal=True)
        self._cursor = self._opponents_play(self._cursor.step(action))
        reward = 0.0
        terminated = truncated = False
        if self._cursor.is_over:
            reward = float(self._cursor.returns()[self.seat])
            truncated = self._cursor.truncated
            terminated = not truncated
        return self._observe(), reward, terminated, truncated, self._info(illegal=False)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner's current decision: bool, shape ``(num_actions,)``.

        The method sb3-contrib's ``MaskablePPO`` calls (the same actions as
        the observation's ``"action_mask"``); all False once the episode is over.
        """
        if self._forfeited:
            return np.zeros(self.encoding.num_actions, dtype=np.bool_)
        return self._cursor.legal_mask()

    def _opponents_play(self, cursor: Cursor) -> Cursor:
        """Let the opponents move until it is the learner's decision or the game is over."""
        while not cursor.is_over and cursor.player != self.seat:
            state = cursor.state
            player = cursor.player
            assert player is not None
            bot = self._bots[player if player < self.seat else player - 1]
            cursor = Cursor.start(self.encoding, state.apply_move(bot.choose_move(state)))
        return cursor

    def _observe(self) -> dict[str, Any]:
        return {
            "observation": as_dtype(self._cursor.observation(self.seat), self.observation_dtype),
            "action_mask": self._cursor.action_mask(self.seat),
        }

    def _info(self, *, illegal: bool) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self._cursor.state.players[self.seat],
            "illegal_action": illegal,
        }

    def render(self) -> Any:
        """``"human"``: prints the board as text and returns None; ``"ansi"``: the board as
        text, with the actions already chosen in a move under way; ``"rgb_array"``: a
        (h, w, 3) uint8 array; else None."""
        return self._cursor.render(self.render_mode)


def register() -> None:
    """Register the five environments with Gymnasium (done on import; again: no effect).

    Each has a vector entry point too: ``gymnasium.make_vec(id, num_envs=n,
    vectorization_mode="vector_entry_point", ...)`` (Gymnasium's default for
    these ids) makes a :class:`pacru.gymnasium_vector.PacruVectorEnv`.
    """
    for game, env_id in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="pacru.gymnasium:PacruEnv",
                vector_entry_point="pacru.gymnasium_vector:PacruVectorEnv",
                kwargs={"game": game},
            )


register()
