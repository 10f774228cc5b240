"""The pacru games as PettingZoo AEC environments, in the style of PettingZoo's classic games.

``pacru.pettingzoo.env(game="pacru", players=2, render_mode=None)`` (extra
``pettingzoo``: ``pip install "pacru[pettingzoo]"``) returns an
agent-environment-cycle environment:

=================  ==========================================================
agents             ``player_0`` .. ``player_{n-1}``, the seats in turn order
                   (``player_0`` is ``state.players[0]``, who moves first)
action             one decision of :mod:`pacru.encoding`, an integer below
                   ``num_actions``; a move takes one or more decisions by the
                   same agent, so ``agent_selection`` stays on a player until
                   their move is complete
observation        a dict: ``"observation"``, the float32 tensor of
                   :meth:`pacru.encoding.Encoding.observation` from the
                   observing agent's point of view, and ``"action_mask"``,
                   int8, 1 for the legal actions of the agent to act (all 0
                   for the others)
rewards            only at the end: :meth:`pacru.GameState.returns` per seat
end                every agent is terminated when the game ends by the
                   rules; a game stopped by a non-official limit (the move
                   cap of ruling D32, the idle rounds of ruling D33) is
                   *truncated* instead
illegal action     as in PettingZoo's classic games: the agent that plays it
                   gets reward -1 and the game ends (``env()`` wraps the raw
                   environment in ``TerminateIllegalWrapper``); the raw
                   environment (:class:`raw_env`) raises
                   :class:`pacru.IllegalMoveError`
render modes       ``"human"`` (prints the text board), ``"ansi"`` (the text
                   board) and ``"rgb_array"`` (the SVG
                   board of :mod:`pacru.svg` rasterised with cairosvg, a
                   ``uint8`` array of shape (height, width, 3))
=================  ==========================================================

Game options (``move_cap``, ``meeting_rule``, ``start_layout``, ...) are
passed on to :func:`pacru.new_game`.

>>> from pacru.pettingzoo import env
>>> e = env(game="shacru", players=2)
>>> e.reset(seed=0)
>>> e.agent_selection
'player_0'
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation)
['action_mask', 'observation']
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pacru._cursor import (
    RENDER_MODES,
    Cursor,
    action_index,
    check_render_mode,
    observation_space,
)

__all__ = ["env", "raw_env"]


def env(
    game: str = "pacru", players: int = 2, render_mode: str | None = None, **options: Any
) -> AECEnv:
    """The environment of ``game`` for ``players`` players, wrapped as PettingZoo's classic games.

    The wrappers end the game with reward -1 for an agent that plays an
    illegal action, check that actions are in the action space, and that
    ``reset`` comes first.

    Raises:
        ValueError: an unknown game, player count, option or render mode.
    """
    aec: AECEnv = raw_env(game, players, render_mode, **options)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped env
    """The unwrapped environment (see the module docstring); illegal actions raise.

    Raises:
        ValueError: an unknown game, player count, option or render mode.
    """

    metadata = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": list(RENDER_MODES),
        "name": "pacru_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str = "pacru",
        players: int = 2,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self._start = Cursor.new(game, players, options)
        self._cursor = self._start
        self.encoding = self._start.encoding
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"pacru_{game}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(players)]
        n = self.encoding.num_actions
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: observation_space(self.encoding) for a in self.possible_agents
        }
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    @property
    def pacru_state(self) -> Any:
        """The :class:`pacru.GameState` being played (the final one once it is over)."""
        return self._cursor.state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``: a Dict of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)`` for every agent."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s view: the observation tensor and its action mask."""
        seat = self.possible_agents.index(agent)
        return {
            "observation": self._cursor.observation(seat),
            "action_mask": self._cursor.action_mask(seat),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start again from the first position (no randomness in the games: ``seed`` is unused)."""
        self._cursor = self._start
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent()

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for an agent whose game is over).

        Raises:
            IllegalMoveError: ``action`` is not legal (the raw environment
                only; :func:`env` ends the game with reward -1 instead).
            TypeError: ``action`` is not an integer (a float is refused, not
                truncated).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._cursor = self._cursor.step(action_index(action))
        self._clear_rewards()
        if self._cursor.is_over:
            returns = self._cursor.returns()
            truncated = self._cursor.truncated
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = not truncated
                self.truncations[name] = truncated
            self.agent_selection = self.possible_agents[
                (self.possible_agents.index(agent) + 1) % len(self.possible_agents)
            ]
        else:
            self.agent_selection = self._agent()
        self._accumulate_rewards()

    def _agent(self) -> str:
        player = self._cursor.player
        return self.possible_agents[0 if player is None else player]

    def render(self) -> Any:
        """``"human"``: prints the board as text and returns None; ``"ansi"``: the board as
        text, with the actions already chosen in a move under way; ``"rgb_array"``: the
        board as a (h, w, 3) uint8 array."""
        if self.render_mode is not None:
            return self._cursor.render(self.render_mode)
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode (None)")
        return None

    def close(self) -> None:
        """Nothing to release."""
