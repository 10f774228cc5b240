"""The native inner loop of :mod:`pacru.vector` for the chevron games (``pacru._native.Batch``).

:class:`NativeLoop` has the five methods of :class:`pacru.vector.loop.PythonLoop`
and gives the same frames: the games are held in the extension, and one call
steps every row of the batch with the chevron encoding implemented there
(the legal actions of each decision, the move an action sequence builds, the
observation planes, written when :meth:`NativeLoop.observe` asks), equal to
:mod:`pacru.encoding.chevron` value for value
(``tests/vector`` compares the two). Openings (``opening_plies``) are drawn
in Python exactly as :class:`PythonLoop` draws them, and handed over as the
restarted games' positions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pacru import _native
from pacru.base import GameState, Outcome, Termination
from pacru.chevron.rules import SUPPLY
from pacru.chevron.state import ChevronState
from pacru.encoding.chevron import ChevronEncoding
from pacru.vector.batch import BatchLoop, ceil8
from pacru.vector.draws import UNIFORM_SALT, hash_base
from pacru.vector.loop import Frame

if TYPE_CHECKING:
    from pacru.vector.play import Turn

__all__ = ["NativeLoop"]


def native_position(state: ChevronState) -> _native.Position:
    """The native position of ``state``: the one place this module reaches into the engine."""
    from pacru.chevron.native import position

    return position(state)


_GAME_INDEX = {"lilacru": 0, "shacru": 1, "azacru": 2, "pacru": 3}
_TERMINATIONS = {t.value: t for t in Termination}


class NativeLoop(BatchLoop):
    """The games of a chevron batch, stepped by the native engine (see the module docstring).

    Args:
        encoding: the game's chevron encoding.
        start: the starting position of every game.
        opening_plies: random moves played from ``start`` at every (re)start.
    """

    checks_actions = True
    encoding: ChevronEncoding
    _start: ChevronState

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

    def _parts(self, state: GameState[Any]) -> _native.Position:
        return native_position(self._chevron(state))

    @staticmethod
    def _chevron(state: GameState[Any]) -> ChevronState:
        assert isinstance(state, ChevronState)
        return state

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
        """:meth:`pacru.vector.loop.Loop.advance` in one native call, the counters
        included: with ``renew`` (and no openings to draw) a game that ends restarts in
        the same call."""
        if self.opening_plies:  # the openings are drawn in Python: the general path
            return super().advance(games, actions, restart, renew, seed, steps, episodes)
        batch: _native.Batch = games
        restarts = b"" if restart is None else restart.tobytes()
        acts = actions.astype(np.int64, copy=False).tobytes()
        new, raw = batch.advance(
            acts, restarts, renew, steps.tobytes(), episodes.tobytes(), self.threads
        )
        n = len(actions)
        at = ceil8(self._frame_end(n, masked=False))
        after = np.frombuffer(raw, np.int32, n, at)
        episode = np.frombuffer(raw, np.int64, n, ceil8(at + 4 * n))
        return new, self._frame(raw, n, masked=False), after, episode, renew

    def legal_action_mask(self, games: Any, shown: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """As :meth:`pacru.vector.loop.Loop.legal_action_mask`, made natively on the
        loop's threads."""
        batch: _native.Batch = games
        raw = batch.legal_action_mask(shown.tobytes(), self.threads)
        return np.frombuffer(raw, dtype=np.bool_).reshape(len(shown), -1)

    def position(self, games: Any, row: int) -> GameState[Any]:
        """The position of game ``row`` (the final one once it has ended)."""
        batch: _native.Batch = games
        markers, chevrons, to_move, out, trigger, idle, ply, occupied, term, winners = (
            batch.position(row)
        )
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

    def random_actions(
        self,
        games: Any,
        mask: Callable[[], npt.NDArray[np.bool_]],
        player: npt.NDArray[np.int32],
        seed: int,
    ) -> npt.NDArray[np.int64]:
        """As :meth:`pacru.vector.loop.PythonLoop.random_actions`, drawn natively from each
        game's legal actions (a row whose ``player`` is -1 has an all-True mask)."""
        batch: _native.Batch = games
        base = hash_base(seed, UNIFORM_SALT)
        raw = batch.random_actions(base, (player < 0).tobytes(), self.threads)
        return np.frombuffer(raw, dtype=np.int64)

    def play_bots(
        self,
        games: Any,
        seats: npt.NDArray[np.int32],
        bot: str,
        seed: int,
        episodes: npt.NDArray[np.int64],
        budgets: npt.NDArray[np.uint32],
    ) -> tuple[Any, Frame, npt.NDArray[np.uint32]]:
        """The built-in ``bot`` plays every game's moves until seat ``seats[i]`` decides.

        Game ``i``'s moves draw from :func:`pacru.vector.draws.game_seeds` of ``seed``
        and ``episodes`` (hashed natively). See ``pacru._native.Batch.play_bots``: returns
        the new games, the frame of every row and the decisions taken in each game.
        """
        batch: _native.Batch = games
        new, raw, taken = batch.play_bots(
            seats.astype(np.int32).tobytes(),
            bot,
            hash_base(seed, 0),
            episodes.astype(np.int64).tobytes(),
            budgets.astype(np.uint32).tobytes(),
            self.threads,
        )
        return new, self._frame(raw, len(seats)), np.frombuffer(taken, dtype=np.uint32)

    def learner_step(
        self,
        games: Any,
        actions: npt.NDArray[np.intp],
        restart: npt.NDArray[np.bool_] | None,
        counts: tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]],
        turn: Turn,
    ) -> tuple[Any, Frame, tuple[npt.NDArray[Any], ...]]:
        """One learner step of every game against a built-in bot, in one native call
        (``pacru._native.Batch.learner_step``): the learner's ``actions`` (or a
        next-step ``restart``), the bots' moves until the learner decides again, the
        restarts, the frame and the observation.

        Returns the new games, the frame, and (views of the call's one bytearray)
        the step counts (int32), episodes (int64), the learner's rewards (float32),
        its seats (int64) and the observation (``turn.dtype``), one row a game.
        """
        batch: _native.Batch = games
        steps, episodes = counts
        new, raw = batch.learner_step(
            actions.astype(np.int64, copy=False).tobytes(),
            b"" if restart is None else restart.tobytes(),
            steps.tobytes(),
            episodes.tobytes(),
            turn.same_step,
            turn.max_steps,
            turn.seat,
            turn.seat_base,
            turn.bot,
            turn.bot_base,
            turn.dtype_name,
            self.threads,
        )
        n, enc = len(episodes), self.encoding
        at_steps = ceil8(self._frame_end(n))
        at_episodes = ceil8(at_steps + 4 * n)
        at_rewards = at_episodes + 8 * n
        at_seats = ceil8(at_rewards + 4 * n)
        at_observation = ceil8(at_seats + 8 * n)
        shape = (n, *enc.observation_shape)
        arrays = (
            np.frombuffer(raw, np.int32, n, at_steps),
            np.frombuffer(raw, np.int64, n, at_episodes),
            np.frombuffer(raw, np.float32, n, at_rewards),
            np.frombuffer(raw, np.int64, n, at_seats),
            np.frombuffer(raw, turn.dtype, math.prod(shape), at_observation).reshape(shape),
        )
        return new, self._frame(raw, n), arrays
