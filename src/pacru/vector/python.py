"""The Python loop of :mod:`pacru.vector`: each game of a batch stepped by :mod:`pacru.encoding`.

:class:`PythonLoop` is the reference :class:`pacru.vector.loop.Loop` (the pure-Python
engine's): its games are a tuple of :class:`pacru._cursor.Cursor`, one per game. The
native loops draw their openings with it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pacru._cursor import Cursor
from pacru.base import GameState
from pacru.bots import sample_move
from pacru.encoding import Encoding
from pacru.vector.draws import masked_choice, uniforms
from pacru.vector.loop import (
    Episodes,
    Flags,
    Frame,
    Games,
    Loop,
    Played,
    Rows,
    as_dtype,
    opening_rng,
)

__all__ = ["PythonLoop"]


class PythonLoop(Loop):
    """The games of a batch, stepped one by one with :mod:`pacru.encoding` (the Python
    engine), made as a :class:`pacru.vector.loop.Loop`."""

    def __init__(self, encoding: Encoding, start: GameState[Any], opening_plies: int) -> None:
        super().__init__(encoding, start, opening_plies)
        self._first = Cursor.start(encoding, start)

    @staticmethod
    def _own(games: Games) -> tuple[Cursor, ...]:
        """``games`` as this loop holds them (a tuple of cursors)."""
        if not isinstance(games, tuple):
            raise TypeError(f"the Python loop's games are a tuple, not {type(games).__name__}")
        return games

    def restore(self, games: Sequence[Played]) -> tuple[Cursor, ...]:
        """The games of a pickled state: each position, then its move's chosen actions."""
        cursors = []
        for state, prefix in games:
            cursor = Cursor.start(self.encoding, state)
            for action in prefix:
                cursor = cursor.step(action)
            cursors.append(cursor)
        return tuple(cursors)

    def new_game(self, seed: int, env: int, episode: int) -> Cursor:
        """Game ``episode`` of env ``env``: the start, then ``opening_plies`` random moves.

        The moves are drawn as :class:`pacru.bots.RandomBot` draws them
        (:func:`pacru.bots.sample_move`) from :func:`pacru.vector.loop.opening_rng`; the
        opening stops early rather than play a move that ends the game.
        """
        if not self.opening_plies:
            return self._first
        rng = opening_rng(seed, env, episode)
        state = self._first.state
        for _ in range(self.opening_plies):
            after = state.apply_move(sample_move(state, rng))
            if after.is_terminal:
                break
            state = after
        return Cursor.start(self.encoding, state)

    def start(self, seed: int, episodes: Episodes) -> tuple[Games, Frame]:
        """A new game in every env (env ``i`` starts its game ``episodes[i]``), and their frame."""
        games = tuple(self.new_game(seed, i, int(episodes[i])) for i in range(len(episodes)))
        return games, self._frame(games)

    def step(
        self, games: Games, rows: Rows, actions: Rows, restart: Flags, seed: int, episodes: Episodes
    ) -> tuple[Games, Frame]:
        """As :meth:`pacru.vector.loop.Loop.step`, one game after another."""
        cursors = list(self._own(games))
        stepped = []
        for j, row in enumerate(rows.tolist()):
            if restart[j]:
                cursor = self.new_game(seed, row, int(episodes[j]))
            else:
                cursor = cursors[row].step(int(actions[j]))
            cursors[row] = cursor
            stepped.append(cursor)
        return tuple(cursors), self._frame(stepped)

    def random_actions(
        self, games: Games, mask: Callable[[], Flags], player: npt.NDArray[np.int32], seed: int
    ) -> npt.NDArray[np.int64]:
        """As :meth:`pacru.vector.loop.Loop.random_actions`, from the mask (``mask()``)."""
        return masked_choice(mask(), uniforms(seed, len(player)))

    def legal_action_mask(self, games: Games, shown: Flags) -> npt.NDArray[np.bool_]:
        """As :meth:`pacru.vector.loop.Loop.legal_action_mask`, from each game's decision."""
        return self._mask(self._own(games), shown)

    def _mask(self, cursors: Sequence[Cursor], shown: Flags) -> npt.NDArray[np.bool_]:
        mask = np.zeros((len(cursors), self.encoding.num_actions), dtype=np.bool_)
        rows: list[int] = []  # the legal (row, action) pairs, set in one call
        cols: list[int] = []
        for j, cursor in enumerate(cursors):
            decision = cursor.decision
            if decision is None or shown[j]:
                mask[j] = True  # as pgx: any action is accepted (and ignored) at an end
                continue
            rows.extend([j] * len(decision.legal_actions))
            cols.extend(decision.legal_actions)
        mask[rows, cols] = True
        return mask

    def observe(self, games: Games, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """As :meth:`pacru.vector.loop.Loop.observe`, one game after another."""
        cursors = self._own(games)
        enc = self.encoding
        observation = np.zeros((len(cursors), *enc.observation_shape), dtype=np.float32)
        for j, cursor in enumerate(cursors):
            decision = cursor.decision
            if decision is not None:
                observation[j] = enc.observation(decision, decision.player)
        return as_dtype(observation, dtype)

    def position(self, games: Games, row: int) -> GameState[Any]:
        """The position of game ``row`` (the final one once it has ended)."""
        return self._own(games)[row].state

    def prefix(self, games: Games, row: int) -> tuple[int, ...]:
        """The actions already chosen in the move under way in game ``row``."""
        return self._own(games)[row].prefix

    def _frame(self, cursors: Sequence[Cursor]) -> Frame:
        enc = self.encoding
        k = len(cursors)
        mask = self._mask(cursors, np.zeros(k, dtype=np.bool_))
        player = np.full(k, -1, dtype=np.int32)
        rewards = np.zeros((k, enc.players), dtype=np.float32)
        terminated = np.zeros(k, dtype=np.bool_)
        truncated = np.zeros(k, dtype=np.bool_)
        for j, cursor in enumerate(cursors):
            decision = cursor.decision
            if decision is not None:
                player[j] = decision.player
                continue
            rewards[j] = cursor.returns()
            if cursor.truncated:
                truncated[j] = True
            else:
                terminated[j] = True
        return Frame(mask, player, rewards, terminated, truncated)
