"""The inner loop of :mod:`pacru.vector`: stepping each game of a batch (Python engine).

This is the one seam a native engine replaces: :class:`PythonLoop` holds the
games of a batch as an opaque value (here a tuple of :class:`pacru._cursor.Cursor`,
one per game), fills the arrays of a :class:`Frame` for the rows it steps, and
writes the observation of every game when asked (:meth:`PythonLoop.observe`:
a state's observation is made only when it is read).
Everything else of the batched API (checking actions, auto-reset bookkeeping,
``max_steps`` truncation, read-only arrays, the state value) lives in
:mod:`pacru.vector` and does not depend on how the games are stored, so a
native loop with the same five methods (:meth:`PythonLoop.start`,
:meth:`PythonLoop.step`, :meth:`PythonLoop.observe`, :meth:`PythonLoop.position`,
:meth:`PythonLoop.prefix`) changes no caller and no test.

Actions reach :meth:`PythonLoop.step` already checked against the mask: the
loop never sees an illegal one.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from pacru._cursor import Cursor
from pacru.base import GameState
from pacru.bots import sample_move
from pacru.encoding import Encoding
from pacru.vector.draws import masked_choice, uniforms

__all__ = ["Frame", "Loop", "PythonLoop", "as_dtype", "opening_rng"]


@attrs.frozen(eq=False)
class Frame:
    """The arrays of the rows just stepped (row ``j`` is game ``rows[j]``).

    Shapes for ``k`` rows: ``legal_action_mask`` bool ``(k, num_actions)``,
    ``current_player`` int32 ``(k,)``, ``rewards`` float32 ``(k, players)``,
    ``terminated`` and ``truncated`` bool ``(k,)``. A row whose game has ended
    has an all-True mask, player -1 and the game's returns. The observation is
    not here: :meth:`PythonLoop.observe` makes it when it is read. Nor is the
    mask (None) where a loop left it out: :meth:`Loop.legal_action_mask` makes it
    from the games when it is read.
    """

    legal_action_mask: npt.NDArray[np.bool_] | None
    current_player: npt.NDArray[np.int32]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


def opening_rng(seed: int, env: int, episode: int) -> random.Random:
    """The random stream of game ``episode`` (0 for the first) of env ``env`` under ``seed``.

    A string seed, hashed by :class:`random.Random` (SHA-512), so each game's
    stream depends on these three numbers only, not on the order games restart in.
    """
    return random.Random(f"pacru.vector/{seed}/{env}/{episode}")


class Loop(abc.ABC):
    """What the two stepping seams share: the thread count and the whole-batch step."""

    #: Threads stepping the batch (set by :class:`pacru.vector.VectorEnv`).
    threads = 1
    #: Whether :meth:`advance` refuses an illegal action itself (``ValueError``, nothing
    #: changed), so that the caller need not look the actions up in the mask first.
    checks_actions = False

    @abc.abstractmethod
    def step(
        self,
        games: Any,
        rows: npt.NDArray[np.intp],
        actions: npt.NDArray[np.intp],
        restart: npt.NDArray[np.bool_],
        seed: int,
        episodes: npt.NDArray[np.int64],
    ) -> tuple[Any, Frame]:
        """Step the games of ``rows`` (see :meth:`PythonLoop.step`)."""

    @abc.abstractmethod
    def legal_action_mask(self, games: Any, shown: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """The mask of every game's decision, bool ``(len(games), num_actions)``: True at
        its legal actions, or at every action for a game that is over or where ``shown``
        is True (its row shows an end or a cut), a new array."""

    @abc.abstractmethod
    def random_actions(
        self,
        games: Any,
        mask: Callable[[], npt.NDArray[np.bool_]],
        player: npt.NDArray[np.int32],
        seed: int,
    ) -> npt.NDArray[np.int64]:
        """A uniformly random action of every game's mask (``mask()`` makes the mask,
        where the loop needs it; see :meth:`PythonLoop.random_actions`)."""

    def advance(
        self,
        games: Any,
        actions: npt.NDArray[np.intp],
        restart: npt.NDArray[np.bool_] | None,
        renew: bool,
        seed: int,
        steps: npt.NDArray[np.int32],
        episodes: npt.NDArray[np.int64],
    ) -> tuple[Any, Frame, npt.NDArray[np.int32], npt.NDArray[np.int64], bool]:
        """:meth:`PythonLoop.step` on every row (``restart`` None: none restarts), with
        each game's decisions and episode after it (``steps`` and ``episodes`` before
        it): 0 and the next episode for a game restarted, else one more decision.

        With ``renew`` a loop may restart a game that ends in the same call (its row
        showing the new game's decision with the old game's end, its decisions 0 and its
        episode the next); the last value says whether it did. This general path does not.
        """
        n = len(actions)
        if restart is None:
            flags = np.zeros(n, dtype=np.bool_)
            after = steps + 1
            episode = episodes.copy()
        else:
            flags = restart
            after = np.where(restart, 0, steps + 1).astype(np.int32)
            episode = episodes + restart
        games, frame = self.step(games, np.arange(n), actions, flags, seed, episode)
        return games, frame, after, episode, False


class PythonLoop(Loop):
    """The games of a batch, stepped one by one with :mod:`pacru.encoding` (the Python engine).

    Args:
        encoding: the game's encoding.
        start: the starting position of every game.
        opening_plies: random moves played from ``start`` at every (re)start.
    """

    def __init__(self, encoding: Encoding, start: GameState[Any], opening_plies: int) -> None:
        self.encoding = encoding
        self.opening_plies = opening_plies
        self._start = Cursor.start(encoding, start)

    def restore(self, games: Sequence[tuple[GameState[Any], tuple[int, ...]]]) -> Any:
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
        (:func:`pacru.bots.sample_move`) from :func:`opening_rng`; the opening
        stops early rather than play a move that ends the game.
        """
        if not self.opening_plies:
            return self._start
        rng = opening_rng(seed, env, episode)
        state = self._start.state
        for _ in range(self.opening_plies):
            after = state.apply_move(sample_move(state, rng))
            if after.is_terminal:
                break
            state = after
        return Cursor.start(self.encoding, state)

    def start(self, seed: int, episodes: npt.NDArray[np.int64]) -> tuple[Any, Frame]:
        """A new game in every env (env ``i`` starts its game ``episodes[i]``), and their frame."""
        games = tuple(self.new_game(seed, i, int(episodes[i])) for i in range(len(episodes)))
        return games, self._frame(games)

    def step(
        self,
        games: Any,
        rows: npt.NDArray[np.intp],
        actions: npt.NDArray[np.intp],
        restart: npt.NDArray[np.bool_],
        seed: int,
        episodes: npt.NDArray[np.int64],
    ) -> tuple[Any, Frame]:
        """Step the games of ``rows``: a restart where ``restart`` is set, else ``actions``.

        ``actions``, ``restart`` and ``episodes`` are aligned with ``rows``;
        the games of other rows are unchanged. Returns the new games and the
        frame of ``rows``.
        """
        cursors: list[Cursor] = list(games)
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
        self,
        games: Any,
        mask: Callable[[], npt.NDArray[np.bool_]],
        player: npt.NDArray[np.int32],
        seed: int,
    ) -> npt.NDArray[np.int64]:
        """Row ``i``'s ``floor(u[i] * count)``-th action of its mask (``mask()``), ``u``
        the :func:`pacru.vector.play.uniforms` of ``seed`` (see
        :meth:`pacru.vector.VectorEnv.random_actions`)."""
        return masked_choice(mask(), uniforms(seed, len(player)))

    def legal_action_mask(self, games: Any, shown: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """As :meth:`Loop.legal_action_mask`, from each game's decision."""
        cursors: Sequence[Cursor] = games
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

    def observe(self, games: Any, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """The observation of every game, shape ``(len(games), *observation_shape)``.

        Each row is :meth:`pacru.encoding.Encoding.observation` of the game's
        decision, seen by the player deciding; zeros for a game that is over.
        A new array of ``dtype`` (:func:`as_dtype` of the values).
        """
        cursors: Sequence[Cursor] = games
        enc = self.encoding
        observation = np.zeros((len(cursors), *enc.observation_shape), dtype=np.float32)
        for j, cursor in enumerate(cursors):
            decision = cursor.decision
            if decision is not None:
                observation[j] = enc.observation(decision, decision.player)
        return as_dtype(observation, dtype)

    def position(self, games: Any, row: int) -> GameState[Any]:
        """The position of game ``row`` (the final one once it has ended)."""
        cursor: Cursor = games[row]
        return cursor.state

    def prefix(self, games: Any, row: int) -> tuple[int, ...]:
        """The actions already chosen in the move under way in game ``row``."""
        cursor: Cursor = games[row]
        return cursor.prefix

    def _frame(self, cursors: Sequence[Cursor]) -> Frame:
        enc = self.encoding
        k = len(cursors)
        mask = self.legal_action_mask(cursors, np.zeros(k, dtype=np.bool_))
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


def as_dtype(observation: npt.NDArray[np.float32], dtype: np.dtype[Any]) -> npt.NDArray[Any]:
    """``observation`` as ``dtype``: uint8 each value times 255, rounded; bool value != 0."""
    out: npt.NDArray[Any] = observation
    if dtype == np.uint8:
        out = np.rint(observation * 255.0).astype(np.uint8)
    elif dtype == np.bool_:
        out = observation != 0
    return out
