"""The native inner loop of :mod:`pacru.vector` for LSD (``pacru._native.LsdBatch``).

:class:`LsdLoop` has the methods of :class:`pacru._vector_loop.PythonLoop` and gives
the same frames: the games are held in the extension, whose LSD engine
(``rust/lsd``) makes the moves, and one call steps every row of the batch with the
LSD encoding implemented there (the window, the cell and tile decisions, the
legal actions of each, the observation planes, written when
:meth:`LsdLoop.observe` asks), equal to :mod:`pacru.encoding.lsd` value for value
(``tests/vector/test_vector_lsd.py`` and ``tests/native/test_lsd_differential.py``
compare the two). Openings (``opening_plies``) are drawn in Python exactly as
:class:`PythonLoop` draws them, and handed over as the restarted games' positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pacru import _native
from pacru._vector_loop import Frame, Loop, PythonLoop
from pacru._vector_random import masked_choice, uniforms
from pacru.base import GameState, Outcome, Termination
from pacru.encoding.lsd import LsdEncoding
from pacru.lsd.moves import _move
from pacru.lsd.state import LsdState

__all__ = ["LsdLoop", "lsd_parts"]

#: The end codes of a position's parts: none, a row, nobody can place {LSD 2.4}.
_ENDS = {None: 0, Termination.ROW: 1, Termination.BLOCKED: 2}
_TERMINATIONS = {1: Termination.ROW, 2: Termination.BLOCKED}

#: A position as the native engine takes it (see ``rust/python/src/lsd.rs``).
Parts = tuple[
    list[tuple[int, int]],
    list[list[int]],
    list[list[int]],
    int,
    int,
    int,
    tuple[int, int] | None,
]


def lsd_parts(state: LsdState) -> Parts:
    """The parts of ``state`` the native engine reads: field pairs, supplies and captured
    tiles by kind, the seat to move (-1 once over), the end's code and winners (a bit set
    of seats), and the last move as ``(face, cell code)``. The one place this module reads
    an :class:`LsdState`'s internals."""
    outcome = state.outcome
    players = state.players
    winners = 0 if outcome is None else sum(1 << players.index(w) for w in outcome.winners)
    last = state._last
    return (
        list(state._field.items()),
        [list(s) for s in state._supplies],
        [list(c) for c in state._captured],
        state._turn,
        _ENDS[None if outcome is None else outcome.termination],
        winners,
        None if last is None else (last._face, last._code),
    )


class LsdLoop(Loop):
    """The games of an LSD batch, stepped by the native engine (see the module docstring).

    Args:
        encoding: the game's LSD encoding.
        start: the starting position of every game.
        opening_plies: random moves played from ``start`` at every (re)start.
    """

    def __init__(self, encoding: LsdEncoding, start: LsdState, opening_plies: int) -> None:
        self.encoding = encoding
        self.opening_plies = opening_plies
        self._start = start
        self._openings = PythonLoop(encoding, start, opening_plies)

    def _opening(self, seed: int, env: int, episode: int) -> Parts | None:
        """The parts of the position a game restarts from (None: the start itself)."""
        if not self.opening_plies:
            return None
        state = self._openings.new_game(seed, env, episode).state
        assert isinstance(state, LsdState)
        return lsd_parts(state)

    def _create(self, n: int) -> tuple[_native.LsdBatch, bytearray]:
        rules = self._start.rules
        return _native.LsdBatch.create(
            [list(k) for k in rules.kinds],
            [list(c) for c in rules.initial],
            rules.allow_rotation,
            rules.strict_dot_matching,
            rules.row_length,
            lsd_parts(self._start),
            n,
        )

    def start(self, seed: int, episodes: npt.NDArray[np.int64]) -> tuple[Any, Frame]:
        """A new game in every env (env ``i`` starts its game ``episodes[i]``), and their frame."""
        games, raw = self._create(len(episodes))
        if self.opening_plies:
            rows = np.arange(len(episodes))
            return self.step(games, rows, rows, np.ones(len(rows), dtype=np.bool_), seed, episodes)
        return games, self._frame(raw, len(episodes))

    def step(
        self,
        games: Any,
        rows: npt.NDArray[np.intp],
        actions: npt.NDArray[np.intp],
        restart: npt.NDArray[np.bool_],
        seed: int,
        episodes: npt.NDArray[np.int64],
    ) -> tuple[Any, Frame]:
        """Step the games of ``rows`` as :meth:`pacru._vector_loop.PythonLoop.step` does."""
        row_list = rows.tolist()
        restart_list = restart.tolist()
        if self.opening_plies:
            starts = [
                self._opening(seed, row, int(episodes[j])) if restart_list[j] else None
                for j, row in enumerate(row_list)
            ]
        else:  # every game restarts from the batch's start
            starts = [None] * len(row_list)
        batch: _native.LsdBatch = games
        new, raw = batch.step(row_list, actions.tolist(), restart_list, starts, self.threads)
        return new, self._frame(raw, len(row_list))

    def random_actions(
        self,
        games: Any,
        mask: npt.NDArray[np.bool_],
        player: npt.NDArray[np.int32],
        seed: int,
    ) -> npt.NDArray[np.int64]:
        """As :meth:`pacru._vector_loop.PythonLoop.random_actions` (drawn from the mask)."""
        return masked_choice(mask, uniforms(seed, len(mask)))

    def observe(self, games: Any, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """The observation of every game (zeros for a game that is over), a new array of
        ``dtype`` (float32, uint8 or bool, the values of
        :func:`pacru._vector_loop.as_dtype`), written natively in that type."""
        batch: _native.LsdBatch = games
        raw = batch.observation(self.threads, dtype.name)
        shape = self.encoding.observation_shape
        return np.frombuffer(raw, dtype=dtype).reshape(-1, *shape)

    def position(self, games: Any, row: int) -> GameState[Any]:
        """The position of game ``row`` (the final one once it has ended)."""
        batch: _native.LsdBatch = games
        field, frontier, supplies, captured, turn, end, winners, last = batch.position(row)
        start = self._start
        players = start.players
        outcome = None
        if end:
            outcome = Outcome(
                _TERMINATIONS[end], tuple(p for i, p in enumerate(players) if winners >> i & 1)
            )
        return LsdState(
            players,
            start.rules,
            dict(field),
            dict(frontier),
            tuple(map(tuple, supplies)),
            tuple(map(tuple, captured)),
            turn,
            outcome,
            None if last is None else _move(*last),
        )

    def prefix(self, games: Any, row: int) -> tuple[int, ...]:
        """The actions already chosen in the move under way in game ``row``."""
        batch: _native.LsdBatch = games
        return tuple(batch.prefix(row))

    def restore(self, games: Sequence[tuple[GameState[Any], tuple[int, ...]]]) -> Any:
        """The games of a pickled state: each position, then its move's chosen actions."""
        n = len(games)
        batch, _ = self._create(n)
        rows = list(range(n))
        starts: list[Parts | None] = []
        for state, _prefix in games:
            assert isinstance(state, LsdState)
            starts.append(lsd_parts(state))
        batch, _ = batch.step(rows, [0] * n, [True] * n, starts, self.threads)
        depth = max((len(p) for _, p in games), default=0)
        for d in range(depth):
            at = [i for i, (_, p) in enumerate(games) if len(p) > d]
            batch, _ = batch.step(
                at, [games[i][1][d] for i in at], [False] * len(at), [None] * len(at), self.threads
            )
        return batch

    def _frame(self, raw: bytearray, k: int) -> Frame:
        """The arrays of a native frame of ``k`` rows: views of its one bytearray, at the
        offsets ``pacru._native.LsdBatch.step`` documents (each a multiple of 8)."""
        enc = self.encoding
        a = _ceil8(k * enc.num_actions)
        b = _ceil8(a + 4 * k)
        c = _ceil8(b + 4 * k * enc.players)
        return Frame(
            np.frombuffer(raw, np.bool_, k * enc.num_actions).reshape(k, enc.num_actions),
            np.frombuffer(raw, np.int32, k, a),
            np.frombuffer(raw, np.float32, k * enc.players, b).reshape(k, enc.players),
            np.frombuffer(raw, np.bool_, k, c),
            np.frombuffer(raw, np.bool_, k, c + k),
        )


def _ceil8(n: int) -> int:
    return -(-n // 8) * 8
