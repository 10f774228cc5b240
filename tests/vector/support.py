"""Helpers of the pacru.vector tests: random legal actions and a reference game per env."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import pacru
from pacru._cursor import LIMITS
from pacru.base import GameState
from pacru.encoding import Decision, Encoding
from pacru.vector import VectorEnv, VectorState


def play_until_an_end(env: VectorEnv, seed: int) -> tuple[VectorState, VectorState]:
    """The state before and the state at the first step where a game ends (random actions)."""
    rng = np.random.default_rng(seed)
    state = env.init(seed)
    while True:
        after = env.step(state, random_actions(state, rng))
        if after.ended.any():
            return state, after
        state = after


def random_actions(state: VectorState, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random action of each game's mask."""
    weights = rng.random(state.legal_action_mask.shape) * state.legal_action_mask
    actions: npt.NDArray[np.int64] = weights.argmax(axis=1)
    return actions


class Reference:
    """One game played with :mod:`pacru.encoding` directly (Decision.choose, apply_move)."""

    def __init__(self, game: str, players: int, options: dict[str, Any]) -> None:
        self.start = pacru.new_game(game, players, **options)
        self.encoding = Encoding.of(self.start)
        self.decision: Decision | None = self.encoding.start(self.start)
        self.final: GameState[Any] | None = None

    def restart(self) -> None:
        self.decision = self.encoding.start(self.start)
        self.final = None

    def play(self, action: int) -> None:
        assert self.decision is not None
        chosen = self.decision.choose(action)
        if chosen.move is None:
            self.decision = chosen
            return
        after = chosen.state.apply_move(chosen.move)
        if after.is_terminal:
            self.decision, self.final = None, after
        else:
            self.decision = self.encoding.start(after)

    def _check_end(self, state: VectorState, i: int) -> None:
        """Row ``i`` shows this game's end: its flags and rewards."""
        final = self.final
        assert final is not None
        assert final.outcome is not None
        truncated = final.outcome.termination in LIMITS
        assert (bool(state.terminated[i]), bool(state.truncated[i])) == (not truncated, truncated)
        assert state.rewards[i].tolist() == list(final.returns())

    def check_row_same_step(self, state: VectorState, i: int) -> None:
        """Row ``i`` of a same-step ``state``: an end's flags and rewards, and the decision
        of the game then restarted (this reference restarts too); else as :meth:`check_row`."""
        if self.decision is not None:
            self.check_row(state, i)
            return
        self._check_end(state, i)
        self.restart()
        d = self.decision
        assert d is not None
        assert state.current_player[i] == d.player
        assert np.array_equal(state.observation[i], self.encoding.observation(d, d.player))
        assert np.array_equal(state.legal_action_mask[i], d.legal_action_mask())

    def check_row(self, state: VectorState, i: int) -> None:
        """Row ``i`` of ``state`` is exactly this game's decision (or its end)."""
        n = self.encoding.num_actions
        players = len(self.start.players)
        if self.decision is not None:
            d = self.decision
            assert state.current_player[i] == d.player
            assert np.array_equal(state.observation[i], self.encoding.observation(d, d.player))
            assert np.array_equal(state.legal_action_mask[i], d.legal_action_mask())
            assert not state.terminated[i]
            assert not state.truncated[i]
            assert np.array_equal(state.rewards[i], np.zeros(players, dtype=np.float32))
            return
        self._check_end(state, i)
        assert state.current_player[i] == -1
        assert np.array_equal(state.legal_action_mask[i], np.ones(n, dtype=np.bool_))
        assert not state.observation[i].any()
