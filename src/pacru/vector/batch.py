"""What the native inner loops of :mod:`pacru.vector` share (``pacru._native.Batch`` for
the chevron games, ``pacru._native.LsdBatch`` for LSD).

:class:`BatchLoop` holds a batch of games in the extension and steps the rows asked
for in one call; its subclasses say how a batch is made (:meth:`BatchLoop._create`)
and how a position is handed over (:meth:`BatchLoop._parts`). Openings
(``opening_plies``) are drawn in Python exactly as :class:`pacru.vector.python.PythonLoop`
draws them, and handed over as the restarted games' positions. Both extension types
lay a frame out the same way: one bytearray, read in place by numpy.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from pacru.base import GameState
from pacru.encoding import Encoding
from pacru.vector.draws import UNIFORM_SALT, hash_base
from pacru.vector.loop import Episodes, Flags, Frame, Games, Loop, Played, Rows
from pacru.vector.python import PythonLoop

if TYPE_CHECKING:
    from pacru import _native

__all__ = ["BatchLoop", "ceil8", "frame_offsets"]

#: The batch of a native loop (``pacru._native.Batch`` or ``LsdBatch``).
B = TypeVar("B", bound="_native.Batch | _native.LsdBatch")
#: A position as that batch takes it (``pacru._native.Position``, LSD's parts).
Q = TypeVar("Q")


def ceil8(n: int) -> int:
    """``n`` rounded up to a multiple of 8 (the alignment of a native frame's arrays)."""
    return -(-n // 8) * 8


@functools.cache
def frame_offsets(k: int, actions: int, players: int, masked: bool) -> tuple[int, int, int, int]:
    """The byte offsets of a native frame of ``k`` rows (``masked``: its mask first, ``k``
    rows of ``actions`` bytes): the player's, the rewards', the terminated flags' and the
    end past the truncated flags. Kept per size: a step looks them up each time."""
    a = ceil8(k * actions) if masked else 0
    b = ceil8(a + 4 * k)
    c = ceil8(b + 4 * k * players)
    return a, b, c, c + 2 * k


class BatchLoop(Loop, Generic[B, Q]):
    """A batch of games held in the extension, of type ``B``, its positions handed over as
    ``Q`` (see the module docstring). Made as a
    :class:`pacru.vector.loop.Loop`."""

    def __init__(self, encoding: Encoding, start: GameState[Any], opening_plies: int) -> None:
        super().__init__(encoding, start, opening_plies)
        self._openings = PythonLoop(encoding, start, opening_plies)

    @abc.abstractmethod
    def _own(self, games: Games) -> B:
        """``games`` as this loop holds them (``TypeError`` for another loop's)."""

    @abc.abstractmethod
    def _create(self, n: int) -> tuple[B, bytearray]:
        """A batch of ``n`` games at the start, and its frame's bytearray."""

    @abc.abstractmethod
    def _parts(self, state: GameState[Any]) -> Q:
        """``state`` as the extension takes a position."""

    @abc.abstractmethod
    def _step(
        self, batch: B, rows: list[int], acts: list[int], restart: list[bool], starts: list[Q|None]
    ) -> tuple[B, bytearray]:
        """``batch.step`` on the loop's threads (``Batch.step``, ``LsdBatch.step``)."""

    def _opening(self, seed: int, env: int, episode: int) -> Q | None:
        """The position a game restarts from, as the extension takes it (None: the start)."""
        if not self.opening_plies:
            return None
        return self._parts(self._openings.new_game(seed, env, episode).state)

    def start(self, seed: int, episodes: Episodes) -> tuple[Games, Frame]:
        """A new game in every env (env ``i`` starts its game ``episodes[i]``), and their frame."""
        games, raw = self._create(len(episodes))
        if self.opening_plies:
            rows = np.arange(len(episodes))
            return self.step(games, rows, rows, np.ones(len(rows), dtype=np.bool_), seed, episodes)
        return games, self._frame(raw, len(episodes))

    def step(
        self, games: Games, rows: Rows, actions: Rows, restart: Flags, seed: int, episodes: Episodes
    ) -> tuple[Games, Frame]:
        """As :meth:`pacru.vector.loop.Loop.step`, every row in one native call."""
        row_list = rows.tolist()
        restart_list = restart.tolist()
        starts: list[Q | None]
        if self.opening_plies:
            starts = [
                self._opening(seed, row, int(episodes[j])) if restart_list[j] else None
                for j, row in enumerate(row_list)
            ]
        else:  # every game restarts from the batch's start
            starts = [None] * len(row_list)
        batch = self._own(games)
        new, raw = self._step(batch, row_list, actions.tolist(), restart_list, starts)
        return new, self._frame(raw, len(row_list))

    def random_actions(
        self, games: Games, mask: Callable[[], Flags], player: npt.NDArray[np.int32], seed: int
    ) -> npt.NDArray[np.int64]:
        """As :meth:`pacru.vector.loop.Loop.random_actions`, drawn natively from each game's
        legal actions (a row whose ``player`` is -1 has an all-True mask)."""
        base = hash_base(seed, UNIFORM_SALT)
        raw = self._own(games).random_actions(base, (player < 0).tobytes(), self.threads)
        return np.frombuffer(raw, dtype=np.int64)

    def observe(self, games: Games, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """The observation of every game (zeros for a game that is over), a new array of
        ``dtype`` (float32, uint8 or bool, the values of
        :func:`pacru.vector.loop.as_dtype`), written natively in that type, on the loop's
        threads, into ``numpy.empty``: each row is zeroed and written by the thread that
        writes it, not zeroed first on the calling thread alone."""
        batch = self._own(games)
        out = np.empty((len(batch), *self.encoding.observation_shape), dtype)
        batch.observation_into(out.reshape(-1).view(np.uint8), self.threads, dtype.name)
        return out

    def prefix(self, games: Games, row: int) -> tuple[int, ...]:
        """The actions already chosen in the move under way in game ``row``."""
        return tuple(self._own(games).prefix(row))

    def restore(self, games: Sequence[Played]) -> Games:
        """The games of a pickled state: each position, then its move's chosen actions."""
        n = len(games)
        batch, _ = self._create(n)
        rows = list(range(n))
        starts: list[Q | None] = [self._parts(state) for state, _prefix in games]
        batch, _ = self._step(batch, rows, [0] * n, [True] * n, starts)
        depth = max((len(p) for _, p in games), default=0)
        for d in range(depth):
            at = [i for i, (_, p) in enumerate(games) if len(p) > d]
            none: list[Q | None] = [None] * len(at)
            actions = [games[i][1][d] for i in at]
            batch, _ = self._step(batch, at, actions, [False] * len(at), none)
        return batch

    def legal_action_mask(self, games: Games, shown: Flags) -> npt.NDArray[np.bool_]:
        """As :meth:`pacru.vector.loop.Loop.legal_action_mask`, from each game's position
        and the actions chosen in its move under way, by the Python engine (a loop whose
        extension makes masks overrides this)."""
        rows = range(len(shown))
        cursors = self._openings.restore(
            [(self.position(games, i), self.prefix(games, i)) for i in rows]
        )
        return self._openings.legal_action_mask(cursors, shown)

    def _frame_end(self, k: int, masked: bool = True) -> int:
        """The end of a frame of ``k`` rows (past its truncated flags), ``masked`` or not."""
        return frame_offsets(k, self.encoding.num_actions, self.encoding.players, masked)[3]

    def _frame(self, raw: bytearray, k: int, masked: bool = True) -> Frame:
        """The arrays of a native frame of ``k`` rows: views of its one bytearray, at the
        offsets ``pacru._native.Batch.advance`` documents (each a multiple of 8); without
        ``masked``, the frame holds no mask (``Batch.advance``'s) and its mask is None."""
        enc = self.encoding
        a, b, c, _ = frame_offsets(k, enc.num_actions, enc.players, masked)
        mask = None
        if masked:
            mask = np.frombuffer(raw, np.bool_, k * enc.num_actions).reshape(k, enc.num_actions)
        return Frame(
            mask,
            np.frombuffer(raw, np.int32, k, a),
            np.frombuffer(raw, np.float32, k * enc.players, b).reshape(k, enc.players),
            np.frombuffer(raw, np.bool_, k, c),
            np.frombuffer(raw, np.bool_, k, c + k),
        )
