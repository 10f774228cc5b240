"""The native loops of :mod:`pacru.vector`: the chevron games (``pacru._native.Batch``) and LSD
(``pacru._native.LsdBatch``); the one module of the package that imports the extension.

:class:`NativeLoop` and :class:`LsdLoop` are :class:`pacru.vector.loop.Loop` s and give
the frames of :class:`pacru.vector.python.PythonLoop`: the games are held in the
extension, and one call steps every row of the batch with the encoding implemented
there (the legal actions of each decision, the move an action sequence builds, the
observation planes, written when :meth:`~pacru.vector.loop.Loop.observe` asks), equal
to :mod:`pacru.encoding.chevron` and :mod:`pacru.encoding.lsd` value for value
(``tests/vector``, ``tests/native/test_vector_loop.py``,
``tests/native/test_lsd_vector_loop.py`` and ``tests/native/test_lsd_differential.py``
compare them). LSD's moves are made by the extension's LSD engine (``rust/lsd``).
Openings (``opening_plies``) are drawn in Python exactly as the Python loop draws them,
and handed over as the restarted games' positions.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from pacru import _native
from pacru.base import GameState, Outcome, Termination
from pacru.chevron.rules import SUPPLY
from pacru.chevron.state import ChevronState
from pacru.encoding.chevron import ChevronEncoding
from pacru.encoding.lsd import LsdEncoding
from pacru.lsd.moves import _move
from pacru.lsd.native import rules_args
from pacru.lsd.state import LsdState
from pacru.vector.batch import BatchLoop, ceil8
from pacru.vector.draws import hash_base
from pacru.vector.loop import (
    Advance,
    Advanced,
    BotLoop,
    Budgets,
    Counts,
    Episodes,
    Flags,
    Frame,
    Games,
    Rows,
    Seats,
)

if TYPE_CHECKING:
    from pacru.vector.play import Turn

__all__ = ["LsdLoop", "NativeLoop", "lsd_parts", "native_position"]


def native_position(state: ChevronState) -> _native.Position:
    """The native position of ``state``: the one place this module reaches into the engine."""
    from pacru.chevron.native import position

    return position(state)


_GAME_INDEX = {"lilacru": 0, "shacru": 1, "azacru": 2, "pacru": 3}
_TERMINATIONS = {t.value: t for t in Termination}


class NativeLoop(BatchLoop[_native.Batch, _native.Position], BotLoop):
    """The games of a chevron batch, stepped by the native engine (see the module docstring),
    made as a :class:`pacru.vector.loop.Loop` of a chevron encoding and state."""

    checks_actions = True
    encoding: ChevronEncoding
    _start: ChevronState

    def _own(self, games: Games) -> _native.Batch:
        if not isinstance(games, _native.Batch):
            raise TypeError(f"the native loop's games are a Batch, not {type(games).__name__}")
        return games

    def _create(self, n: int) -> tuple[_native.Batch, bytearray]:
        enc = self.encoding
        return _native.Batch.create(
            native_position(self._start),
            n,
            _GAME_INDEX[enc.game],
            enc._ply_scale,
            enc._idle_scale,
            SUPPLY[enc.players] if enc.rules.pacru else 0,
            self.threads,
        )

    def _step(
        self, batch: _native.Batch, rows: list[int], actions: list[int], restart: list[bool],
        starts: list[_native.Position | None],
    ) -> tuple[_native.Batch, bytearray]:
        return batch.step(rows, actions, restart, starts, self.threads)

    def _parts(self, state: GameState[Any]) -> _native.Position:
        return native_position(self._chevron(state))

    @staticmethod
    def _chevron(state: GameState[Any]) -> ChevronState:
        assert isinstance(state, ChevronState)
        return state

    def advance(self, games: Games, order: Advance) -> Advanced:
        """:meth:`pacru.vector.loop.Loop.advance` in one native call, the counters
        included: with ``order.renew`` (and no openings to draw) a game that ends restarts
        in the same call."""
        if self.opening_plies:  # the openings are drawn in Python: the general path
            return super().advance(games, order)
        restarts = b"" if order.restart is None else order.restart.tobytes()
        acts = order.actions.astype(np.int64, copy=False).tobytes()
        steps, episodes = order.steps.tobytes(), order.episodes.tobytes()
        batch = self._own(games)
        if order.in_place:  # the games were handed over: no copy, no old batch to free
            raw, ended = batch.advance_in_place(
                acts, restarts, order.renew, steps, episodes, self.threads
            )
            new = batch
            self.in_place_steps += 1
        else:
            new, raw, ended = batch.advance(
                acts, restarts, order.renew, steps, episodes, self.threads
            )
        n = len(order.actions)
        at = ceil8(self._frame_end(n, masked=False))
        after = np.frombuffer(raw, np.int32, n, at)
        episode = np.frombuffer(raw, np.int64, n, ceil8(at + 4 * n))
        frame = self._frame(raw, n, masked=False)
        return Advanced(new, frame, after, episode, order.renew, ended if order.renew else None)

    def legal_action_mask(self, games: Games, shown: Flags) -> npt.NDArray[np.bool_]:
        """As :meth:`pacru.vector.loop.Loop.legal_action_mask`, made natively on the
        loop's threads."""
        raw = self._own(games).legal_action_mask(shown.tobytes(), self.threads)
        return np.frombuffer(raw, dtype=np.bool_).reshape(len(shown), -1)

    def position(self, games: Games, row: int) -> GameState[Any]:
        """The position of game ``row`` (the final one once it has ended)."""
        markers, chevrons, to_move, out, trigger, idle, ply, occupied, term, winners = self._own(
            games
        ).position(row)
        start = self._start
        outcome = None
        if term is not None:
            players = start.players
            outcome = Outcome(
                _TERMINATIONS[term], tuple(p for i, p in enumerate(players) if winners >> i & 1)
            )
        return ChevronState(
            start.rules,
            start.players,
            markers,
            chevrons,
            to_move,
            out,
            trigger,
            idle,
            ply,
            outcome,
            occupied,
        )

    def play_bots(
        self,
        games: Games,
        seats: Seats,
        bot: str,
        seed: int,
        episodes: Episodes,
        budgets: Budgets,
        in_place: bool = False,
    ) -> tuple[Games, Frame, Budgets]:
        """The built-in ``bot`` plays every game's moves until seat ``seats[i]`` decides.

        Game ``i``'s moves draw from :func:`pacru.vector.draws.game_seeds` of ``seed``
        and ``episodes`` (hashed natively). See ``pacru._native.Batch.play_bots``: returns
        the new games, the frame of every row and the decisions taken in each game
        (``Batch.play_bots_in_place`` with ``in_place``: the games are ``games`` itself).
        """
        batch = self._own(games)
        args = (
            seats.astype(np.int32).tobytes(),
            bot,
            hash_base(seed, 0),
            episodes.astype(np.int64).tobytes(),
            budgets.astype(np.uint32).tobytes(),
            self.threads,
        )
        if in_place:
            new = batch
            raw, taken = batch.play_bots_in_place(*args)
            self.in_place_bots += 1
        else:
            new, raw, taken = batch.play_bots(*args)
        return new, self._frame(raw, len(seats)), np.frombuffer(taken, dtype=np.uint32)

    def learner_step(
        self,
        games: Games,
        actions: Rows,
        restart: Flags | None,
        counts: Counts,
        turn: Turn,
        in_place: bool = False,
    ) -> tuple[Games, Frame, tuple[npt.NDArray[Any], ...], Games]:
        """One learner step of every game against a built-in bot, in one native call
        (``pacru._native.Batch.learner_step``): the learner's ``actions`` (or a
        next-step ``restart``), the bots' moves until the learner decides again, the
        restarts, the frame and the observation.

        Returns the new games, the frame, (views of the call's one bytearray)
        the step counts (int32), episodes (int64), the learner's rewards (float32),
        its seats (int64) and the observation (``turn.dtype``), one row a game, and the
        games restarted as they ended (:attr:`pacru.vector.loop.Advanced.ended`); with
        ``in_place`` (``Batch.learner_step_in_place``) the games are ``games`` itself.
        """
        steps, episodes = counts
        batch = self._own(games)
        n, enc = len(episodes), self.encoding
        # The mask and the observation in one numpy block, left as malloc gives it: each
        # row is zeroed and written by the thread that steps its game, not zeroed first on
        # this thread (numpy.zeros clears a block that malloc reuses, about 200 us at 256
        # games; the extension's own buffer, zeroed on this thread, took about 80 ms at
        # 4,096 games of float32).
        shape = (n, *enc.observation_shape)
        masks = n * enc.num_actions
        at = -(-masks // 64) * 64  # the observation's first byte, aligned for any dtype
        block = np.empty(at + math.prod(shape) * turn.dtype.itemsize, np.uint8)
        mask = block[:masks].view(np.bool_).reshape(n, enc.num_actions)
        observation = block[at:].view(turn.dtype).reshape(shape)
        args = (
            actions.astype(np.int64, copy=False).tobytes(),
            b"" if restart is None else restart.tobytes(),
            steps.tobytes(),
            episodes.tobytes(),
            block[:masks],
            block[at:],
            turn.same_step,
            turn.max_steps,
            turn.seat,
            turn.seat_base,
            turn.bot,
            turn.bot_base,
            turn.dtype_name,
            self.threads,
        )
        if in_place:  # the games were handed over: no copy, no old batch to free
            new = batch
            raw, ended = batch.learner_step_in_place(*args)
            self.in_place_steps += 1
        else:
            new, raw, ended = batch.learner_step(*args)
        at_steps = ceil8(self._frame_end(n, masked=False))
        at_episodes = ceil8(at_steps + 4 * n)
        at_rewards = at_episodes + 8 * n
        at_seats = ceil8(at_rewards + 4 * n)
        arrays = (
            np.frombuffer(raw, np.int32, n, at_steps),
            np.frombuffer(raw, np.int64, n, at_episodes),
            np.frombuffer(raw, np.float32, n, at_rewards),
            np.frombuffer(raw, np.int64, n, at_seats),
            observation,
        )
        frame = attrs.evolve(self._frame(raw, n, masked=False), legal_action_mask=mask)
        return new, frame, arrays, ended


#: The end codes of a position's parts: none, a row, nobody can place {LSD 2.4}.
_ENDS = {None: 0, Termination.ROW: 1, Termination.BLOCKED: 2}
_LSD_TERMINATIONS = {1: Termination.ROW, 2: Termination.BLOCKED}

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


class LsdLoop(BatchLoop[_native.LsdBatch, Parts]):
    """The games of an LSD batch, stepped by the native engine (see the module docstring),
    made as a :class:`pacru.vector.loop.Loop` of an LSD encoding and state."""

    encoding: LsdEncoding
    _start: LsdState

    def _own(self, games: Games) -> _native.LsdBatch:
        if not isinstance(games, _native.LsdBatch):
            raise TypeError(f"the LSD loop's games are an LsdBatch, not {type(games).__name__}")
        return games

    def _step(
        self, batch: _native.LsdBatch, rows: list[int], actions: list[int], restart: list[bool],
        starts: list[Parts | None],
    ) -> tuple[_native.LsdBatch, bytearray]:
        return batch.step(rows, actions, restart, starts, self.threads)

    def _parts(self, state: GameState[Any]) -> Parts:
        assert isinstance(state, LsdState)
        return lsd_parts(state)

    def _create(self, n: int) -> tuple[_native.LsdBatch, bytearray]:
        # The rules as the LSD states' native positions take them (a row length past the
        # tiles in play given as one more than them: no longer row can be made).
        return _native.LsdBatch.create(*rules_args(self._start.rules), lsd_parts(self._start), n)

    def position(self, games: Games, row: int) -> GameState[Any]:
        """The position of game ``row`` (the final one once it has ended)."""
        parts = self._own(games).position(row)
        field, frontier, supplies, captured, turn, end, winners, last = parts
        start = self._start
        players = start.players
        outcome = None
        if end:
            outcome = Outcome(
                _LSD_TERMINATIONS[end], tuple(p for i, p in enumerate(players) if winners >> i & 1)
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
