"""The native inner loop of :mod:`pacru.vector` for LSD (``pacru._native.LsdBatch``).

:class:`LsdLoop` has the methods of :class:`pacru.vector.loop.PythonLoop` and gives
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

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pacru import _native
from pacru.base import GameState, Outcome, Termination
from pacru.encoding.lsd import LsdEncoding
from pacru.lsd.moves import _move
from pacru.lsd.state import LsdState
from pacru.vector.batch import BatchLoop
from pacru.vector.draws import UNIFORM_SALT, hash_base

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


class LsdLoop(BatchLoop):
    """The games of an LSD batch, stepped by the native engine (see the module docstring).

    Args:
        encoding: the game's LSD encoding.
        start: the starting position of every game.
        opening_plies: random moves played from ``start`` at every (re)start.
    """

    encoding: LsdEncoding
    _start: LsdState

    def _parts(self, state: GameState[Any]) -> Parts:
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

    def random_actions(
        self,
        games: Any,
        mask: Callable[[], npt.NDArray[np.bool_]],
        player: npt.NDArray[np.int32],
        seed: int,
    ) -> npt.NDArray[np.int64]:
        """As :meth:`pacru.vector.loop.PythonLoop.random_actions`, drawn natively from each
        game's legal actions (a row whose ``player`` is -1 has an all-True mask)."""
        batch: _native.LsdBatch = games
        base = hash_base(seed, UNIFORM_SALT)
        raw = batch.random_actions(base, (player < 0).tobytes(), self.threads)
        return np.frombuffer(raw, dtype=np.int64)

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
